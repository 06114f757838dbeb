"""Retrievers behind one protocol (`base.py`), by name in `registry.py` with the index parts each reads.
One package per retriever (`hublink/`, `simgrag/`, `coe/`, `difar/`); the modules here are shared by
several of them (label-index search, evidence and answer generation, SimGRAG-style patterns, prompts)."""
