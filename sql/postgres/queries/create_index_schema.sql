-- The schema of one named index (kgqa/postgres/indexes.py); {schema} is a validated identifier
-- composed with psycopg.sql (an identifier cannot be a bound parameter).
CREATE SCHEMA IF NOT EXISTS {schema}
