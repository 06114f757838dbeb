-- The entities this transaction's own writes marked dirty (the rows its triggers wrote): what one
-- `kgqa load --graph postgres` changed. Run inside that transaction (the connection is autocommit
-- outside it, so the transaction is a top-level one and its rows carry its own id).
-- returns: entity_id
SELECT DISTINCT entity_id FROM kgqa.dirty_entities WHERE xmin = pg_current_xact_id()::xid ORDER BY entity_id;
