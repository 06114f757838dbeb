-- The default index (`kgqa sql install --default`), if any; works before the column exists.
-- returns: name
SELECT i.name FROM kgqa.indexes i WHERE coalesce((to_jsonb(i) ->> 'is_default')::boolean, false);
