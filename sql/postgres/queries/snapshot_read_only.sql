-- The first statement of a transaction whose reads all see one snapshot (the resident copy's reads).
SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY;
