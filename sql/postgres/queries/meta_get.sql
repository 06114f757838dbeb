-- A metadata value (JSON).
-- params: key text   returns: value
SELECT value FROM kgqa.meta WHERE key = %(key)s::text;
