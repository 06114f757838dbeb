-- Views over the HubLink index, and the helpers that write triples the way the library does.
-- Installed by `kgqa sql install` (CREATE OR REPLACE: installing again updates them).

-- An entity as written in a canonical triple string (spec §1): id:label; the id alone when the label
-- is empty or equals it; the label alone for literals without an id of their own.
CREATE OR REPLACE FUNCTION kgqa.entity_display(id text, label text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE
        WHEN coalesce(id, '') = '' OR starts_with(id, '_lit:') THEN coalesce(label, '')
        WHEN coalesce(label, '') = '' OR label = id THEN id
        ELSE id || ':' || label
    END
$$;

-- The canonical string of a stored triple [sid, slabel, predicate, oid, olabel].
CREATE OR REPLACE FUNCTION kgqa.triple_canonical(t jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT '(' || kgqa.entity_display(t ->> 0, t ->> 1) || ', ' || (t ->> 2) || ', '
               || kgqa.entity_display(t ->> 3, t ->> 4) || ')'
$$;

-- The label form of a stored triple, as embedded at the triple level (labels, or ids without one).
CREATE OR REPLACE FUNCTION kgqa.triple_text(t jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT '(' || coalesce(nullif(t ->> 1, ''), t ->> 0) || ', ' || (t ->> 2) || ', '
               || coalesce(nullif(t ->> 4, ''), t ->> 3) || ')'
$$;

-- One row per hub: its root, size and when it was built.
CREATE OR REPLACE VIEW kgqa.hub_summary AS
SELECT h.id AS hub_id, h.label, h.depth, h.path_count,
       (SELECT count(*) FROM kgqa.hub_paths p JOIN kgqa.hub_vectors v ON v.path_hash = p.hash
        WHERE p.hub_id = h.id) AS vectors,
       h.built_at
FROM kgqa.hubs h;

-- One row per triple of every hub path, with its position in the path and its canonical string.
CREATE OR REPLACE VIEW kgqa.hub_path_triples AS
SELECT p.hub_id, p.hash AS path_hash, j.position::integer AS position,
       j.t ->> 0 AS subject_id, j.t ->> 1 AS subject_label, j.t ->> 2 AS predicate,
       j.t ->> 3 AS object_id, j.t ->> 4 AS object_label, kgqa.triple_canonical(j.t) AS triple
FROM kgqa.hub_paths p
CROSS JOIN LATERAL jsonb_array_elements(p.triples) WITH ORDINALITY AS j(t, position);

-- One row per HubVector: the hub path, the level and the embedded text with its embedding.
CREATE OR REPLACE VIEW kgqa.hub_vector_texts AS
SELECT p.hub_id, v.path_hash, v.level, v.text_hash, t.text, t.embedding
FROM kgqa.hub_vectors v
JOIN kgqa.hub_paths p ON p.hash = v.path_hash
JOIN kgqa.embedded_texts t ON t.hash = v.text_hash;
