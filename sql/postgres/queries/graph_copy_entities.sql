-- Bulk-stage entities (binary COPY).
-- columns: id text, label text, types text[], is_literal bool, name text
COPY kgqa_stage_entities (id, label, types, is_literal, name) FROM STDIN WITH (FORMAT BINARY);
