"""Named Cypher queries and the Python UDFs registered in Kùzu."""
