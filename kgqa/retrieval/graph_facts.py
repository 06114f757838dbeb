"""What every question consults and few operations change: read once per workspace, not per question."""

from __future__ import annotations

from typing import Any

from kgqa.answering.catalog import CatalogCache
from kgqa.answering.graph_answers import prepared, question_catalog
from kgqa.embeddings.base import Embedder
from kgqa.graph.layout import layout_of
from kgqa.graph.reader import entities_by_ids
from kgqa.graph.store import GraphStore
from kgqa.graph.traversal import RootLevels
from kgqa.indexing.metadata import META_KEY
from kgqa.question.linking import Linker
from kgqa.retrieval.chains import ChainAnswerer
from kgqa.retrieval.chains.linking import TopicMention
from kgqa.retrieval.chains.schema import types_of
from kgqa.retrieval.fanout import TextHubCache
from kgqa.types import Entity
from kgqa.vectorstores.base import HubVectorStore

#: Past this many hubs their roots are not read at prime (about 300 bytes each: 150 MiB here), but
#: question by question. 10^6 triples of the scale benchmark have 49,632 hubs.
MAX_HUB_ROOTS = 500_000


class GraphFacts:
    """The graph's predicate labels, the indexed hub ids and the hub types, each read on first use
    and kept until `forget()` (the workspace calls it after every change to the graph or index).
    Reading them costs a scan of the triples and of the hubs, which grows with the graph. While the
    database is read-only, also the hub roots found from each topic and the hub root entities.
    The hubs that embed each ANN hit text (`text_hubs`), bounded, are kept too."""

    def __init__(self, store: GraphStore, vstore: HubVectorStore) -> None:
        self.store, self.vstore = store, vstore
        self.text_hubs = TextHubCache(vstore)
        self.catalogs = CatalogCache()  # the hubs' attributes for exact answers (kgqa/answering/catalog.py)
        self.forget()

    def forget(self) -> None:
        """Drop what was read (the graph or the index changed)."""
        self._predicates: list[str] | None = None
        self._hub_ids: set[str] | None = None
        self._hub_types: set[str] | None = None
        # read-only: the graph cannot change while open, so traversals and hub roots read once stay valid
        self.root_levels = RootLevels(self.store, self.is_hub, remember=self.store.read_only)
        self._entities: dict[str, Entity | None] = {}
        self._hub_roots: dict[str, Entity] = {}  # read-only, after prime_hub_roots(): every hub's root
        self.text_hubs.forget()
        self.chains: ChainAnswerer | None = None  # the relation-chain reader over the graph's schema
        self.catalogs.forget()

    def chain_answerer(self, embedder: Embedder) -> ChainAnswerer:
        """The relation-chain answerer over this graph (kgqa/retrieval/chains), made on first use."""
        if self.chains is None:
            self.chains = ChainAnswerer(self.store, embedder, self.counts_exactly, self.typed_topic)
        return self.chains

    def typed_topic(self, question: str) -> TopicMention | None:
        """The topic a question names with a typo ("hiroshi achterbreg", "lonley letters"): the longest hub
        title or value the exact answers' linker links in it (typos tolerated, kgqa/question/linking.py);
        None where the graph has no catalog or nothing is linked."""
        cat = prepared(self.store, self.index_meta, self.catalogs, question)
        if cat is None or not isinstance(cat.linker, Linker):
            return None
        links = cat.linker.link(question)
        # typos only: an acronym or a name written as labelled is the linker's own reading ("FSE papers")
        linked = [(m, tuple(m.hubs)) for m in links.hubs if len(m.hubs) == 1 and m.score < 100]
        linked += [
            (m, tuple(dict.fromkeys(f.value_id for f in m.facts))) for m in links.values if m.facts and m.score < 100
        ]
        if not linked:
            return None
        mention, ids = max(linked, key=lambda pair: (pair[0].end - pair[0].start, -pair[0].start))
        entities = entities_by_ids(self.store, ids)
        if not entities:
            return None
        first = entities[ids[0]] if ids[0] in entities else next(iter(entities.values()))
        types = types_of(layout_of(self.store), entities.values())
        return TopicMention(tuple(entities), first.label, types, mention.start, mention.end, typo=True)

    def counts_exactly(self, question: str, topic: tuple[int, int] | None = None) -> bool:
        """Whether the exact answers count over the whole graph for `question`: its hub type has a
        catalog (none past the catalog's ceiling, kgqa/answering/catalog.py) and, where the question's
        `topic` span is given, the catalog links it (not where the topic is a hub of another type that
        the catalog's hubs hold no triple to: "how many films has X been in", people as subjects)."""
        cat = question_catalog(self.store, self.index_meta, self.catalogs, question)
        if cat is None or topic is None or not isinstance(cat.linker, Linker):
            return cat is not None
        links = cat.linker.link(question)
        if question[topic[0] : topic[1]].strip() in links.years:
            return True  # "how many movies were released in 1982"
        return any(m.start < topic[1] and topic[0] < m.end for m in links.hubs + links.values)

    def index_meta(self) -> dict[str, Any] | None:
        """The hub index's stored metadata (its hub types)."""
        meta = self.vstore.meta_get(META_KEY)
        return meta if isinstance(meta, dict) else None

    def predicates(self) -> list[str]:
        """Distinct predicate labels (they split "paper class philosophical paper" components)."""
        if self._predicates is None:
            self._predicates = layout_of(self.store).predicates()
        return self._predicates

    def hub_ids(self) -> set[str]:
        """The ids of the indexed hubs."""
        if self._hub_ids is None:
            self._hub_ids = set(self.vstore.signatures())
        return self._hub_ids

    def hub_types(self) -> set[str]:
        """The hub types the index was built with, lower-cased."""
        if self._hub_types is None:
            info = self.vstore.meta_get(META_KEY) or {}
            self._hub_types = {t.lower() for t in info.get("params", {}).get("hub_types", [])}
        return self._hub_types

    def is_hub(self, entity_id: str) -> bool:
        """Whether the entity is an indexed hub root."""
        return entity_id in self.hub_ids()

    def prime_hub_roots(self, like: GraphFacts | None = None) -> None:
        """Read-only: every indexed hub's root entity now, in one read (a direct question looks up the
        roots of some 90 candidate hubs, one key read each: 16 ms at 10^6 triples); `like`: a primed
        GraphFacts on the same database state, whose roots are shared."""
        if not self.store.read_only:
            return
        if like is not None and like._hub_roots:
            self._hub_roots = like._hub_roots
            return
        hubs = self.hub_ids()
        if len(hubs) <= MAX_HUB_ROOTS:
            self._hub_roots = entities_by_ids(self.store, sorted(hubs))

    def entities(self, ids: list[str]) -> dict[str, Entity]:
        """The stored entities among `ids`, keyed by id (kept while the database is read-only)."""
        if not self.store.read_only:
            return entities_by_ids(self.store, ids)
        roots = self._hub_roots
        known: dict[str, Entity | None] = {i: roots[i] for i in ids if i in roots}
        known.update((i, self._entities[i]) for i in ids if i not in known and i in self._entities)
        missing = [i for i in dict.fromkeys(ids) if i not in known]
        if missing:
            if len(self._entities) > 1_000_000:
                self._entities.clear()
            found = entities_by_ids(self.store, missing)
            self._entities.update((i, found.get(i)) for i in missing)
            known.update(found)
        return {i: e for i in ids if (e := known.get(i)) is not None}
