"""Postgres + pgvector: the connection (named SQL, COPY, schema scripts), the local zero-setup server
and the SQL layer installed by `kgqa sql install`."""
