"""`kgqa serve`: one resident, read-only workspace answering over HTTP, and its client."""
