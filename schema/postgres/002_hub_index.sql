-- The HubLink index in Postgres + pgvector. {{dim}} is the embedding dimension (a validated integer,
-- fixed per index). A HubVector (thesis §4.2.6) is one row of hub_vectors: a hub path embedded at a
-- level through a shared embedded text (identical texts are stored and embedded once).
CREATE TABLE IF NOT EXISTS kgqa.hubs (
    id         text PRIMARY KEY,                  -- the hub root's entity id
    label      text NOT NULL,
    depth      integer NOT NULL,                  -- hub level reached from the start entities
    path_count integer NOT NULL,
    signature  text NOT NULL,                     -- digest of the hub's path-hash set (rebuild check)
    built_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS kgqa.hub_paths (
    hash    text PRIMARY KEY,                     -- path hash over the canonical triple strings
    hub_id  text NOT NULL REFERENCES kgqa.hubs (id) ON DELETE CASCADE,
    text    text NOT NULL,                        -- the path's verbalisation
    triples jsonb NOT NULL,                       -- [[sid, slabel, predicate, oid, olabel], ...]
    length  integer NOT NULL
);
CREATE INDEX IF NOT EXISTS hub_paths_hub_id ON kgqa.hub_paths (hub_id);

CREATE TABLE IF NOT EXISTS kgqa.embedded_texts (
    hash      text PRIMARY KEY,                   -- text hash
    text      text NOT NULL,
    embedding vector({{dim}}) NOT NULL,           -- L2-normalised
    -- storage order: among equally similar vectors of a path, the text stored first wins (as in Kùzu)
    seq       bigint GENERATED ALWAYS AS IDENTITY UNIQUE
);

CREATE TABLE IF NOT EXISTS kgqa.hub_vectors (
    path_hash text NOT NULL REFERENCES kgqa.hub_paths (hash) ON DELETE CASCADE,
    level     text NOT NULL CHECK (level IN ('path', 'triple', 'entity', 'predicate')),
    text_hash text NOT NULL REFERENCES kgqa.embedded_texts (hash),
    PRIMARY KEY (path_hash, level, text_hash)
);
CREATE INDEX IF NOT EXISTS hub_vectors_text_hash ON kgqa.hub_vectors (text_hash);
