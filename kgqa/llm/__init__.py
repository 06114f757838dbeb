"""LLM providers for HubLink's four roles, behind one protocol (offline implementation included)."""
