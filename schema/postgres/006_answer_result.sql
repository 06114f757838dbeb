-- The structured result of each logged answer ({"operation", "value", "items", "groups"}, docs/answers.md),
-- beside its text: what CALL kgqa.ask returns as `result` stays queryable in the answers log.
ALTER TABLE kgqa.answers ADD COLUMN IF NOT EXISTS result jsonb;
