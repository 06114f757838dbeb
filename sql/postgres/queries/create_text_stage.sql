-- A per-session staging table for new embedded texts when several workers write one index: COPY into
-- it, then insert_staged_texts (rows go at commit).
CREATE TEMP TABLE IF NOT EXISTS text_stage (hash text, text text, embedding vector) ON COMMIT DELETE ROWS;
