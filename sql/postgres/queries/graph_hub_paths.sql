-- The hub paths of `roots` in one recursive CTE: the maximal acyclic outbound paths (thesis Alg. 5) with
-- the rules of the per-hop-level form (kgqa.graph.property_layout.paths_by_level): a path is extended
-- only from its root or from an entity that is no other hub root, only by entities with an id of their
-- own (not '_lit:' storage keys) and only to entities not on it yet; it is kept when it has `max_len`
-- triples, ends at a hub root (with `boundary`; without, a path ending at one is dropped), or has no
-- extension left (tested against the per-hop form: tests/integration/test_pg_graph_paths.py).
-- params: roots text[], hub_roots text[], boundary boolean, max_len int
-- returns: root id, ids text[], labels text[], is_literal boolean[], predicates text[]
WITH RECURSIVE
hub (id) AS (SELECT DISTINCT unnest(%(hub_roots)s::text[])),
walk (root, ids, labels, lits, preds, len) AS (
    -- text throughout: a user's views may give varchar columns (docs/postgres-graph.md, the view contract)
    SELECT e.id::text, ARRAY[e.id::text], ARRAY[e.label::text], ARRAY[e.is_literal], ARRAY[]::text[], 0
    FROM kgqa.entities e
    WHERE e.id = ANY(%(roots)s::text[])
  UNION ALL
    SELECT w.root, w.ids || o.id::text, w.labels || o.label::text, w.lits || o.is_literal, w.preds || t.predicate::text,
        w.len + 1
    FROM walk w
    JOIN kgqa.triples t ON t.subject = w.ids[w.len + 1]
    JOIN kgqa.entities o ON o.id = t.object
    WHERE w.len < %(max_len)s::int
      AND left(w.ids[w.len + 1], 5) <> '_lit:'
      AND (w.len = 0 OR w.ids[w.len + 1] NOT IN (SELECT id FROM hub))
      AND t.object <> w.root
      AND t.object <> ALL (w.ids[2:])
)
SELECT w.root, w.ids, w.labels, w.lits, w.preds
FROM walk w
WHERE w.len > 0
  AND (%(boundary)s::boolean OR w.ids[w.len + 1] NOT IN (SELECT id FROM hub))
  AND (
    w.len = %(max_len)s::int
    OR (%(boundary)s::boolean AND w.ids[w.len + 1] IN (SELECT id FROM hub))
    OR left(w.ids[w.len + 1], 5) = '_lit:'
    OR NOT EXISTS (
        SELECT 1
        FROM kgqa.triples t JOIN kgqa.entities o ON o.id = t.object
        WHERE t.subject = w.ids[w.len + 1]
          AND t.object <> w.root
          AND t.object <> ALL (w.ids[2:w.len])
          AND (%(boundary)s::boolean OR t.object NOT IN (SELECT id FROM hub))
    )
  )
ORDER BY w.root, w.len, w.ids, w.preds;
