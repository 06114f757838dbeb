// Kùzu checkpoints once its write-ahead log holds this many bytes (database-wide; 16 MiB by default).
// A build raises it while it writes its batches (kgqa/memory.py build_checkpoint_bytes).
// tokens: {{bytes}} (an integer Kùzu cannot bind to CALL)
CALL checkpoint_threshold={{bytes}};
