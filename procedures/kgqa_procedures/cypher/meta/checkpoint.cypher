// Write every committed change from the write-ahead log into the database file.
CHECKPOINT;
