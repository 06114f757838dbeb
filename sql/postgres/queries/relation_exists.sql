-- Whether a table or view exists.
-- params: name text (schema-qualified)   returns: exists
SELECT to_regclass(%(name)s::text) IS NOT NULL;
