-- The answers log: every question answered with the pgvector store (`kgqa ask --store pgvector`,
-- the DuckDB and Cypher front ends). query_vectors are the question and component embeddings the
-- retrieval used, so kgqa.rank_hubs can re-rank a past question inside Postgres.
CREATE TABLE IF NOT EXISTS kgqa.answers (
    id            bigserial PRIMARY KEY,
    asked_at      timestamptz NOT NULL DEFAULT now(),
    question      text NOT NULL,
    answer        text NOT NULL,
    sources       jsonb NOT NULL,                 -- [{"n": 1, "hub_id": ..., "label": ...}, ...]
    triples       jsonb NOT NULL,                 -- canonical triple strings, most relevant first
    hubs          jsonb NOT NULL,                 -- kept hubs with scores
    retriever     text NOT NULL,
    strategy      text NOT NULL,
    mode          text NOT NULL,                  -- the LLM provider (offline: no LLM)
    topic_entity  text,
    components    jsonb NOT NULL,
    timings       jsonb NOT NULL,                 -- seconds per phase and in total
    llm_tokens    jsonb NOT NULL,
    query_vectors vector[]
);
