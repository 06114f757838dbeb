-- HubLink's direct strategy inside Postgres (thesis Alg. 8-10, 12-13, 16), given the question's
-- embeddings (the question and its components, as the library computes them; kgqa.answers keeps them
-- for every logged question):
--   ANN per query vector over the embedded texts (HNSW), the hubs those texts belong to (best 3 x hubs),
--   exact scores of every HubVector of those hubs, de-duplication by path hash (best level), the best
--   2 x paths_per_hub paths, the subject diversity penalty, the top paths_per_hub paths, and the hub
--   score = weighted mean of path scores with weights exp(alpha * s); the best hubs_to_keep hubs.
-- The library's `scoring="thesis"` direct strategy ranks the same hubs and paths.

-- Rejects arguments of the wrong shape with a message naming the argument.
CREATE OR REPLACE FUNCTION kgqa.check_rank_args(queries vector[], hubs_to_keep integer, paths_per_hub integer,
                                                diversity_penalty double precision, alpha double precision)
RETURNS integer LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    _dim integer;
    _bad record;
BEGIN
    IF queries IS NULL OR cardinality(queries) = 0 THEN
        RAISE EXCEPTION 'kgqa: queries must be a non-empty vector[] (the question and component embeddings)'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF array_ndims(queries) <> 1 THEN
        RAISE EXCEPTION 'kgqa: queries must be a one-dimensional vector[], got % dimensions', array_ndims(queries)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF array_position(queries, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'kgqa: queries[%] is NULL', array_position(queries, NULL)
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT a.atttypmod INTO _dim FROM pg_attribute a
    WHERE a.attrelid = to_regclass('kgqa.embedded_texts') AND a.attname = 'embedding' AND NOT a.attisdropped;
    IF _dim IS NULL THEN
        RAISE EXCEPTION 'kgqa: no HubLink index in this database (run kgqa index build --store pgvector)'
            USING ERRCODE = 'undefined_table';
    END IF;
    SELECT u.i, vector_dims(u.v) AS d INTO _bad
    FROM unnest(queries) WITH ORDINALITY AS u(v, i) WHERE vector_dims(u.v) <> _dim ORDER BY u.i LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'kgqa: queries[%] has dimension % but the index stores dimension %', _bad.i, _bad.d, _dim
            USING ERRCODE = 'data_exception';
    END IF;
    IF hubs_to_keep IS NULL OR hubs_to_keep < 1 OR hubs_to_keep > 1000 THEN
        RAISE EXCEPTION 'kgqa: hubs_to_keep must be an integer between 1 and 1000, got %', coalesce(hubs_to_keep::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF paths_per_hub IS NULL OR paths_per_hub < 1 OR paths_per_hub > 1000 THEN
        RAISE EXCEPTION 'kgqa: paths_per_hub must be an integer between 1 and 1000, got %', coalesce(paths_per_hub::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF diversity_penalty IS NULL OR diversity_penalty < 0 OR diversity_penalty > 1 THEN
        RAISE EXCEPTION 'kgqa: diversity_penalty must be within [0, 1], got %', coalesce(diversity_penalty::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF alpha IS NULL OR alpha < 0 OR alpha > 100 THEN
        RAISE EXCEPTION 'kgqa: alpha must be within [0, 100], got %', coalesce(alpha::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN _dim;
END
$fn$;

-- The ranked hubs, one row per kept path (best hub first, then its paths best first).
CREATE OR REPLACE FUNCTION kgqa.rank_hubs(queries vector[], hubs_to_keep integer DEFAULT 30,
                                          paths_per_hub integer DEFAULT 10,
                                          diversity_penalty double precision DEFAULT 0.05,
                                          alpha double precision DEFAULT 5.0)
RETURNS TABLE (hub_rank integer, hub_id text, hub_label text, hub_score double precision,
               path_rank integer, path_hash text, path_score double precision, level text,
               matched_text text, path_text text, triples jsonb)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    _hubs integer := hubs_to_keep;
    _pph integer := paths_per_hub;
    _penalty double precision := diversity_penalty;
    _alpha double precision := alpha;
    _k integer;
BEGIN
    PERFORM kgqa.check_rank_args(queries, _hubs, _pph, _penalty, _alpha);
    _k := greatest(4 * _pph, 2 * _hubs);
    PERFORM set_config('hnsw.ef_search', least(1000, greatest(200, 2 * _k))::text, true);
    RETURN QUERY
    WITH q AS (
        SELECT u.qi::integer AS qi, u.v FROM unnest(queries) WITH ORDINALITY AS u(v, qi)
    ),
    ann AS (            -- Alg. 8: the k nearest embedded texts of each query vector (HNSW, cosine)
        SELECT q.qi, a.hash, a.sim
        FROM q CROSS JOIN LATERAL (
            SELECT t.hash, 1 - (t.embedding <=> q.v) AS sim
            FROM kgqa.embedded_texts t ORDER BY t.embedding <=> q.v LIMIT _k) AS a
    ),
    pre AS (            -- hubs using a hit text, by the sum over query vectors of their best hit
        SELECT x.hub_id
        FROM (SELECT p.hub_id, ann.qi, greatest(max(ann.sim), 0) AS best
              FROM ann
              JOIN kgqa.hub_vectors v ON v.text_hash = ann.hash
              JOIN kgqa.hub_paths p ON p.hash = v.path_hash
              GROUP BY p.hub_id, ann.qi) AS x
        GROUP BY x.hub_id
        ORDER BY sum(x.best) DESC, x.hub_id
        LIMIT 3 * _hubs
    ),
    scored AS (         -- Alg. 9: every HubVector of those hubs, its best similarity to a query vector
        SELECT p.hub_id, v.path_hash, v.level, t.text, t.seq,
               (SELECT max(1 - (t.embedding <=> q.v)) FROM q) AS sim
        FROM pre
        JOIN kgqa.hub_paths p ON p.hub_id = pre.hub_id
        JOIN kgqa.hub_vectors v ON v.path_hash = p.hash
        JOIN kgqa.embedded_texts t ON t.hash = v.text_hash
    ),
    best AS (           -- de-duplication by path hash: each path keeps its best-matching level
        SELECT DISTINCT ON (s.path_hash) s.hub_id, s.path_hash, s.level, s.text, s.sim
        FROM scored s
        ORDER BY s.path_hash, s.sim DESC, s.seq   -- ties: the text stored first, as in the library
    ),
    head AS (           -- over-fetch: the best 2 x paths_per_hub paths of each hub
        SELECT b.*, p.triples
        FROM (SELECT b0.*, row_number() OVER (PARTITION BY b0.hub_id ORDER BY b0.sim DESC, b0.path_hash) AS rn
              FROM best b0) AS b
        JOIN kgqa.hub_paths p ON p.hash = b.path_hash
        WHERE b.rn <= 2 * _pph
    ),
    subj AS (           -- Alg. 10 EXTRACTSUBJECT: the subject of the matched triple (triple level only)
        SELECT h.*, CASE WHEN h.level = 'triple' THEN (
                   SELECT e.t ->> 0 FROM jsonb_array_elements(h.triples) WITH ORDINALITY AS e(t, i)
                   WHERE kgqa.triple_text(e.t) = h.text ORDER BY e.i LIMIT 1) END AS subject
        FROM head h
    ),
    div AS (            -- Alg. 10: score - penalty x (times this subject was already seen in this hub)
        SELECT s.*, CASE WHEN s.subject IS NULL THEN s.sim
                         ELSE s.sim - _penalty * (row_number() OVER (PARTITION BY s.hub_id, s.subject
                                                                     ORDER BY s.sim DESC, s.path_hash) - 1)
                    END AS score
        FROM subj s
    ),
    kept AS (           -- the top paths_per_hub paths of each hub after the penalty
        SELECT r.* FROM (SELECT d.*, row_number() OVER (PARTITION BY d.hub_id ORDER BY d.score DESC, d.path_hash)
                                     AS prank
                         FROM div d) AS r
        WHERE r.prank <= _pph
    ),
    hub_scores AS (     -- Alg. 16: weighted mean of path scores, weights exp(alpha * s) (shifted by the max)
        SELECT w.hub_id, sum(w.wt * w.score) / sum(w.wt) AS score
        FROM (SELECT k.hub_id, k.score,
                     exp(_alpha * (k.score - max(k.score) OVER (PARTITION BY k.hub_id))) AS wt
              FROM kept k) AS w
        GROUP BY w.hub_id
    ),
    ranked AS (
        SELECT hs.hub_id, hs.score, row_number() OVER (ORDER BY hs.score DESC, hs.hub_id) AS hrank
        FROM hub_scores hs
        ORDER BY hs.score DESC, hs.hub_id
        LIMIT _hubs
    )
    SELECT r.hrank::integer, r.hub_id, h.label, r.score, k.prank::integer, k.path_hash, k.score, k.level,
           k.text, p.text, p.triples
    FROM ranked r
    JOIN kgqa.hubs h ON h.id = r.hub_id
    JOIN kept k ON k.hub_id = r.hub_id
    JOIN kgqa.hub_paths p ON p.hash = k.path_hash
    ORDER BY r.hrank, k.prank;
END
$fn$;

-- Every triple of the ranked hubs' kept paths, once, most relevant first (by path score, then hub
-- rank, path rank and position): what `kgqa ask --no-triple-filter` returns for the same ranking.
CREATE OR REPLACE FUNCTION kgqa.rank_triples(queries vector[], hubs_to_keep integer DEFAULT 30,
                                             paths_per_hub integer DEFAULT 10,
                                             diversity_penalty double precision DEFAULT 0.05,
                                             alpha double precision DEFAULT 5.0)
RETURNS TABLE (rank integer, triple text, hub_rank integer, hub_id text, hub_label text,
               path_score double precision)
LANGUAGE sql AS $fn$
    WITH t AS (
        SELECT r.hub_rank, r.hub_id, r.hub_label, r.path_rank, r.path_score, e.i AS position,
               kgqa.triple_canonical(e.t) AS triple
        FROM kgqa.rank_hubs(queries, hubs_to_keep, paths_per_hub, diversity_penalty, alpha) AS r
        CROSS JOIN LATERAL jsonb_array_elements(r.triples) WITH ORDINALITY AS e(t, i)
    ),
    first AS (
        SELECT DISTINCT ON (t.triple) t.*
        FROM t
        ORDER BY t.triple, t.path_score DESC, t.hub_rank, t.path_rank, t.position
    )
    SELECT (row_number() OVER (ORDER BY f.path_score DESC, f.hub_rank, f.path_rank, f.position))::integer,
           f.triple, f.hub_rank, f.hub_id, f.hub_label, f.path_score
    FROM first f
    ORDER BY 1;
$fn$;

-- The k embedded texts nearest to one vector (HNSW, cosine), with the hubs that use them.
CREATE OR REPLACE FUNCTION kgqa.nearest_texts(query vector, k integer DEFAULT 10)
RETURNS TABLE (text_hash text, text text, similarity double precision, hubs text[])
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    IF query IS NULL THEN
        RAISE EXCEPTION 'kgqa: query must be a vector, got NULL' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    PERFORM kgqa.check_rank_args(ARRAY[query], 1, 1, 0, 0);
    IF k IS NULL OR k < 1 OR k > 1000 THEN
        RAISE EXCEPTION 'kgqa: k must be an integer within [1, 1000], got %', coalesce(k::text, 'NULL')
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM set_config('hnsw.ef_search', least(1000, greatest(200, 2 * k))::text, true);
    RETURN QUERY
    SELECT n.hash, n.text, n.sim,
           ARRAY(SELECT DISTINCT p.hub_id FROM kgqa.hub_vectors v JOIN kgqa.hub_paths p ON p.hash = v.path_hash
                 WHERE v.text_hash = n.hash ORDER BY p.hub_id)
    FROM (SELECT t.hash, t.text, 1 - (t.embedding <=> query) AS sim
          FROM kgqa.embedded_texts t ORDER BY t.embedding <=> query LIMIT k) AS n
    ORDER BY n.sim DESC, n.hash;
END
$fn$;
