"""HubLink KGQA: schema-agnostic, training-free question answering over knowledge graphs."""

__version__ = "0.1.0"
