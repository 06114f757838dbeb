-- Staging table of one load's triples (dropped at commit).
CREATE TEMP TABLE IF NOT EXISTS kgqa_stage_triples (subject text, predicate text, object text, predicate_id text) ON COMMIT DROP;
