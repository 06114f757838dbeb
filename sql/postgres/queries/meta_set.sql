-- Set a metadata value (JSON).
-- params: key text, value jsonb
INSERT INTO kgqa.meta (key, value) VALUES (%(key)s::text, %(value)s::jsonb)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
