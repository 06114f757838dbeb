-- The index's change count (schema/postgres/002_hub_index_changes.sql): grows with every committed
-- statement that writes the index tables. A service holding the index in memory compares it with the
-- count its copy was read at.
-- returns: total
SELECT kgqa.index_change_total();
