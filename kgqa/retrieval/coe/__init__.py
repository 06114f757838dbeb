"""KG-RAG's Chain of Explorations (seeds/kg-rag-coe-paper.txt): a planned, step-wise exploration of the graph."""
