-- Staging tables of one load (dropped at commit): rows are COPYed here, then merged. `name`: the name
-- an entity's id gives it (kgqa.types.name_from_id), its label where no record states one.
CREATE TEMP TABLE IF NOT EXISTS kgqa_stage_entities (id text, label text, types text[], is_literal boolean, name text) ON COMMIT DROP;
