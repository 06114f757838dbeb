"""Question answering from SQL (DuckDB) and Cypher (Kùzu UDFs): sessions built on the library."""
