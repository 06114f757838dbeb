"""SimGRAG (seeds/simgrag-paper.txt): pattern graph, Graph Semantic Distance search, verbalised subgraphs."""
