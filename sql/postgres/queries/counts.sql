-- Index size: hubs, paths, HubVectors and unique embedded texts.
-- returns: hubs, paths, vectors, texts
SELECT (SELECT count(*) FROM kgqa.hubs), (SELECT count(*) FROM kgqa.hub_paths),
       (SELECT count(*) FROM kgqa.hub_vectors), (SELECT count(*) FROM kgqa.embedded_texts);
