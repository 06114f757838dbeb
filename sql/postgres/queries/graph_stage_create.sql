-- Staging tables of one load (dropped at commit): rows are COPYed here, then merged.
CREATE TEMP TABLE IF NOT EXISTS kgqa_stage_entities (id text, label text, types text[], is_literal boolean) ON COMMIT DROP;
