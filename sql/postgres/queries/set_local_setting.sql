-- A setting for the rest of this transaction (what `kgqa sql install` tells its scripts).
-- params: name text, value text
SELECT set_config(%(name)s::text, %(value)s::text, true);
