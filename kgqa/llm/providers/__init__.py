"""LLM providers, one module each: an `LLMClient` (kgqa/llm/base.py) over the provider's API, its SDK
imported lazily. A new provider is a module here plus one line in `kgqa.llm.registry.PROVIDERS`."""
