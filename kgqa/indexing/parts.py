"""The index parts a retriever can read, by name. Each retriever's registry entry
(kgqa/retrieval/registry.py) lists its parts: `kgqa index build --retriever NAME` builds them and
`require_index` checks them before the first question. Imports nothing: the registry stays light."""

#: HubLink's hub index: hubs, paths and their vectors (kgqa/indexing/builder.py, in the HubVector store).
HUB_INDEX = "hubs"
#: Every other part name is a part of the label index (`kgqa.indexing.label_index.PARTS`:
#: `triples`, `labels`, `predicates`).


def label_parts(parts: tuple[str, ...]) -> tuple[str, ...]:
    """The label-index parts among `parts` (all but the hub index)."""
    return tuple(p for p in parts if p != HUB_INDEX)
