-- Every stored hub path (hash, hub, text, triples as JSON text), as CSV.
COPY (SELECT hash, hub_id, text, triples::text FROM kgqa.hub_paths) TO STDOUT (FORMAT csv);
