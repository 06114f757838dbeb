"""HubLink indexing (thesis §4.4–4.5): hub roots, hub paths, verbalisation, HubVectors."""
