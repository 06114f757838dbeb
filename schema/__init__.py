"""Schema scripts shipped as package data (`kgqa_schema`): Kùzu graph and index tables, Postgres tables."""
