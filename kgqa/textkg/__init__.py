"""Knowledge graphs built from text (KG-RAG's storage stage, seeds/kg-rag-coe-paper.txt §4.1):
sentences -> facts (LLM or offline rules) -> Kùzu triples, triple hypernodes and provenance."""
