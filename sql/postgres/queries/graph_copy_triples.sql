-- Bulk-stage triples (binary COPY).
-- columns: subject text, predicate text, object text, predicate_id text
COPY kgqa_stage_triples (subject, predicate, object, predicate_id) FROM STDIN WITH (FORMAT BINARY);
