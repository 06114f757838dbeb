-- Table macros over the Python UDFs registered by kgqa/frontends/duck.py (`kgqa sql`):
--   SELECT * FROM kgqa_ask('Which papers ...?');          one row: answer, sources, triples, hubs, ..., result (JSON)
--   SELECT * FROM kgqa_retrieve('Which papers ...?', 5);  the top 5 supporting triples (rank, triple)
--   SELECT * FROM kgqa_hubs('Which papers ...?', 3);      the top 3 hubs (rank, hub_id, label, score, cited)
--   SELECT * FROM kgqa_answers();                         the answers log (Postgres), newest first
-- The scalar UDFs behind them can be used directly too, e.g. SELECT kgqa_answer('...').answer.
CREATE OR REPLACE MACRO kgqa_ask(question) AS TABLE
    SELECT unnest(kgqa_answer(question));
CREATE OR REPLACE MACRO kgqa_retrieve(question, k) AS TABLE
    SELECT unnest(kgqa_triples(question, k), recursive := true);
CREATE OR REPLACE MACRO kgqa_hubs(question, k) AS TABLE
    SELECT unnest(kgqa_rank_hubs(question, k), recursive := true);
CREATE OR REPLACE MACRO kgqa_answers() AS TABLE
    SELECT unnest(kgqa_answer_log(), recursive := true);
CREATE OR REPLACE VIEW answers AS SELECT * FROM kgqa_answers();
