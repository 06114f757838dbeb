-- Install pgvector in this database (needs the privilege to create extensions).
CREATE EXTENSION IF NOT EXISTS vector;
