-- Drop one named index with everything in its schema (`kgqa index drop NAME`); {schema} as above.
DROP SCHEMA IF EXISTS {schema} CASCADE
