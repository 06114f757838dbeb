-- Drop the whole HubLink index (used by `index build --rebuild`); views over it go with it (CASCADE)
-- and are re-created by the next build when `kgqa sql install` was run before.
DROP TABLE IF EXISTS kgqa.hub_vectors, kgqa.hub_paths, kgqa.hubs, kgqa.embedded_texts CASCADE;
