"""Retrievers (HubLink and, later, the other seed systems) behind one protocol, with a registry."""
