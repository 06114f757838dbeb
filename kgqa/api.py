"""The library's front door: one `Workspace` per database, used by the CLI and by Python code."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from kgqa.answering.graph_answers import prepared_all, with_edge_values, with_exact
from kgqa.answering.joined import join_answers
from kgqa.config import IndexParams, RetrievalParams, Settings
from kgqa.deadline import question_budget
from kgqa.embeddings import embedder_for_index
from kgqa.embeddings.base import Embedder
from kgqa.errors import ConfigError, IndexMissingError
from kgqa.graph import edits
from kgqa.graph.disk_space import files_size, require_room
from kgqa.graph.layout import UNMARKED_NOTE, tracks_writes
from kgqa.graph.loaders.base import TripleRecord
from kgqa.graph.property_layout import drop_own_tables
from kgqa.graph.reader import GraphStats, entities_by_ids, graph_stats
from kgqa.graph.store import GraphStore, stderr_tracer
from kgqa.graph.writer import LoadReport, load_file
from kgqa.indexing.builder import TEMPLATE_VERBALISER, BuildReport, build_index
from kgqa.indexing.dirty import clear_dirty, count_dirty, dirty_hubs, dirty_tracker
from kgqa.indexing.label_index import LabelIndexReport, build_label_index
from kgqa.indexing.label_index import read_meta as read_label_meta
from kgqa.indexing.metadata import META_KEY, IndexInfo, read_info, stored_params
from kgqa.indexing.readiness import require_index
from kgqa.indexing.sync import SyncReport, sync_index
from kgqa.llm.base import LLMClient
from kgqa.llm.registry import PROVIDERS, get_roles, get_verbaliser, make_client, needs_client
from kgqa.progress import ProgressFn, no_progress
from kgqa.question.meaning import prepare as prepare_reading
from kgqa.question.parts import QuestionParts, parts_for_each, question_parts
from kgqa.retrieval.base import BaseRetriever
from kgqa.retrieval.graph_facts import GraphFacts
from kgqa.retrieval.registry import get_retriever, index_parts, label_index_parts
from kgqa.textkg.build import Extractor, KgBuildReport, build_kg
from kgqa.textkg.llm_extract import LLMExtractor
from kgqa.textkg.rules import RuleExtractor
from kgqa.types import Answer
from kgqa.vectorstores.base import HubVectorStore, IndexCounts
from kgqa.vectorstores.registry import open_vstore


@dataclass(frozen=True)
class IndexStatus:
    """The index as stored: metadata, counts and whether the ANN index exists."""

    info: IndexInfo | None
    counts: IndexCounts
    ann_index: bool
    dirty_hubs: int = 0  # hubs marked by graph changes since the last update


class Workspace:
    """A HubLink database: graph, index and question answering.

    `embedder`: the embedding model to use (e.g. one loaded once and shared by several workspaces);
    None loads `settings.embedding_model` on first use. `graph`: an already open graph store."""

    def __init__(
        self,
        settings: Settings,
        *,
        create: bool = False,
        read_only: bool = False,
        graph: GraphStore | None = None,
        embedder: Embedder | None = None,
    ) -> None:
        self.settings = settings
        tracer = stderr_tracer if settings.trace else None
        if graph is None and settings.graph == "postgres":  # no Kùzu file (docs/postgres-graph.md)
            from kgqa.postgres.graph_store import open_pg_graph

            graph = open_pg_graph(settings, read_only=read_only, tracer=tracer)
        self.store = graph or GraphStore(
            settings.db_path,
            create=create,
            read_only=read_only,
            tracer=tracer,
            buffer_pool_mib=settings.buffer_pool_mib,
            memory=settings.memory,
        )
        try:
            self.vstore: HubVectorStore = open_vstore(settings.store, self.store, settings)
        except BaseException:
            self.store.close()
            raise
        self._embedder: Embedder | None = embedder
        self.facts = GraphFacts(self.store, self.vstore)  # forgotten after every change below
        self._index_checked: dict[tuple[str, str], tuple[str, ...]] = {}  # read-only: ask's index checks
        self._llm_client: LLMClient | None = None
        self._llm_client_for: tuple | None = None

    @classmethod
    def init(cls, settings: Settings, *, embedder: Embedder | None = None) -> Workspace:
        """Create the database (idempotent: an existing one is opened and migrated)."""
        return cls(settings, create=True, embedder=embedder)

    @property
    def embedder(self) -> Embedder:
        """The embedding model (loaded on first use). With KGQA_EMBEDDER=auto, the backend whose vector
        space the stored index records (the hub index, else the label index): fp32, or the int8 variant
        for an index built with it (`kgqa.embeddings.embedder_for_index`)."""
        if self._embedder is None:
            self._embedder = embedder_for_index(self.settings, self.index_space())
        return self._embedder

    @property
    def embedder_loaded(self) -> bool:
        """Whether this workspace has an embedding model yet (given, or loaded on first use)."""
        return self._embedder is not None

    def share_embedder(self, embedder: Embedder) -> None:
        """Use `embedder` from now on (one loaded model shared by several workspaces)."""
        self._embedder = embedder

    def index_space(self) -> str | None:
        """The vector space (embedding model name) the stored index was built in: the hub index's,
        else the label index's; None when neither exists."""
        info = read_info(self.vstore) if self.vstore.ready() else None
        if info is not None:
            return info.embedding_model
        label = read_label_meta(self.store) if self.store.has_table("kgqa_KgqaMeta") else None
        return str(label["embedding_model"]) if label and label.get("embedding_model") else None

    def load(self, path: str | Path, fmt: str | None = None, on_progress: ProgressFn = no_progress) -> LoadReport:
        """Load a file of triples into the graph (atomic, idempotent). When an index exists, the hubs
        the new triples and labels touch are marked dirty in the same transaction."""
        self.facts.forget()
        if self.settings.graph == "postgres":
            from kgqa.postgres.graph_load import load_into_postgres
            from kgqa.postgres.graph_refresh import affected_hubs

            return load_into_postgres(
                self.store,  # type: ignore[arg-type]
                path,
                fmt,
                on_progress=on_progress,
                hubs_of=lambda ids: affected_hubs(self, ids),
            )
        require_room(self.store.path, f"loading {path}", input_bytes=files_size([path]))  # Kùzu aborts on a full disk
        return load_file(
            self.store, path, fmt, on_progress=on_progress, observer=dirty_tracker(self.store, self.vstore)
        )

    def add_triples(self, records: list[TripleRecord]) -> LoadReport:
        """Add triples (see `kgqa.graph.edits.triple_record`) atomically, marking the affected hubs."""
        self.facts.forget()
        if self.settings.graph != "postgres":  # Kùzu aborts on a full disk: refuse first
            n = len(records)
            require_room(self.store.path, f"adding {n} triple{'' if n == 1 else 's'}", records=n)
        return edits.add_triples(self.store, records, dirty_tracker(self.store, self.vstore))

    def delete_triples(self, triples: list[tuple[str, str, str]]) -> edits.DeleteReport:
        """Delete (subject id, predicate, object id) triples atomically, marking the affected hubs."""
        self.facts.forget()
        return edits.delete_triples(self.store, triples, dirty_tracker(self.store, self.vstore))

    def delete_file(self, path: str | Path, fmt: str | None = None) -> edits.DeleteReport:
        """Delete the triples a file states (any load format), atomically."""
        return self.delete_triples(edits.triples_in_file(path, fmt))

    def dirty_hubs(self) -> list[str]:
        """The hubs marked dirty by graph changes since the last index update."""
        return dirty_hubs(self.store)

    def update_index(
        self,
        *,
        dirty: bool = False,
        hubs_per_batch: int | None = None,
        on_progress: ProgressFn = no_progress,
        dry_run: bool = False,
        hubs: list[str] | None = None,
    ) -> BuildReport:
        """`index build` with the parameters the index was built with. `dirty`: only the hubs marked
        by graph changes (plus new and removed roots) are checked; `hubs`: only these (and new and
        removed roots), e.g. those the graph in Postgres marked (kgqa/postgres/graph_refresh.py)."""
        info = read_info(self.vstore)
        if info is None:
            raise IndexMissingError("no HubLink index to update; run `kgqa index build` first")
        if dirty and not dry_run and self.settings.graph == "postgres":  # the marks of the Postgres triggers
            from kgqa.postgres.graph_refresh import refresh_here

            return refresh_here(self) or BuildReport(mode="dirty", counts=self.vstore.counts())
        unmarked = dirty and not tracks_writes(self.store)  # your own writes leave no dirty marks
        report = self.build_index(
            stored_params(info, hubs_per_batch=hubs_per_batch),
            on_progress=on_progress,
            dirty_only=(dirty and not unmarked) or hubs is not None,
            dry_run=dry_run,
            marked=hubs,
        )
        if unmarked:
            report.notes.insert(0, UNMARKED_NOTE)
        return report

    def stats(self) -> GraphStats:
        """Graph statistics."""
        return graph_stats(self.store)

    def llm_client(self, provider: str = "anthropic", *, require_key: bool = True) -> LLMClient:
        """The client of LLM `provider` shared by this workspace's questions and builds (one response
        cache); asking for another provider (or other settings) replaces it."""
        key = (provider, self.settings.llm, self.settings.llm_cache_file)
        if self._llm_client is None or self._llm_client_for != key or (require_key and not self._llm_client.can_send):
            if self._llm_client is not None:
                self._llm_client.close()
            self._llm_client = make_client(provider, self.settings, require_key=require_key)
            self._llm_client_for = key
        return self._llm_client

    def build_index(
        self,
        params: IndexParams,
        *,
        rebuild: bool = False,
        on_progress: ProgressFn = no_progress,
        llm: str | None = None,
        dry_run: bool = False,
        dirty_only: bool = False,
        marked: list[str] | None = None,
    ) -> BuildReport:
        """Build or update the HubLink index. `llm` picks the path verbaliser ("offline": template
        texts; "anthropic": LLM sentences); None keeps the one the index was built with.
        `dry_run` counts the work and estimates the LLM tokens without writing or sending.
        `dirty_only` checks only the hubs marked dirty. The dirty marks read before the build are
        deleted once it has completed (a killed build leaves them for the next run)."""
        if llm is None:
            info = read_info(self.vstore)
            used = info.params.get("verbaliser", TEMPLATE_VERBALISER) if info else TEMPLATE_VERBALISER
            llm = used.split(":", 1)[0] if used != TEMPLATE_VERBALISER else "offline"
        client = self.llm_client(llm, require_key=not dry_run) if needs_client(llm) else None
        verbaliser = get_verbaliser(llm, self.settings, client)
        if verbaliser is not None and hasattr(verbaliser, "on_progress"):
            verbaliser.on_progress = on_progress
        marks = dirty_hubs(self.store) if marked is None else marked
        self.facts.forget()
        report = build_index(
            self.store,
            self.vstore,
            self.embedder,
            params,
            rebuild=rebuild,
            on_progress=on_progress,
            verbaliser=verbaliser,
            dry_run=dry_run,
            dirty=set(marks) if dirty_only else None,
        )
        if not dry_run:
            clear_dirty(self.store, marks)
        return report

    def build_label_index(
        self, retriever: str, *, rebuild: bool = False, on_progress: ProgressFn = no_progress
    ) -> LabelIndexReport:
        """Build or update the label index a seed-paper retriever needs (difar, simgrag, coe)."""
        return build_label_index(
            self.store, self.embedder, retriever, label_index_parts(retriever), rebuild=rebuild, on_progress=on_progress
        )

    def build_kg(
        self, paths: list[str | Path], *, llm: str = "offline", on_progress: ProgressFn = no_progress
    ) -> KgBuildReport:
        """Extract facts from text files into the graph (KG-RAG): offline rules or the LLM, with triple
        hypernodes for qualified facts and provenance back to each sentence."""
        if llm == "offline":
            extractor: Extractor = RuleExtractor()
        elif PROVIDERS.get(llm):
            extractor = LLMExtractor(self.llm_client(llm))
        else:
            raise ConfigError(f"unknown LLM provider '{llm}' for build-kg; known: {', '.join(PROVIDERS)}")
        self.facts.forget()
        return build_kg(self.store, paths, extractor, on_progress=on_progress)

    def drop_index(self) -> IndexCounts:
        """Delete the HubLink index of this workspace's store (hubs, paths, vectors, texts, metadata,
        dirty marks); the graph stays. Returns what was removed."""
        status = self.index_status()
        self.facts.forget()
        if status.info is not None:  # first: a drop cut short leaves "no index", never a half one
            self.vstore.meta_set(META_KEY, None)
        self.vstore.drop()
        clear_dirty(self.store, dirty_hubs(self.store))
        if self.vstore.name == "kuzu":  # a user's own graph: none of HubLink's tables stays
            drop_own_tables(self.store)
        return status.counts

    def index_status(self) -> IndexStatus:
        """The stored index's metadata and size."""
        info = read_info(self.vstore)
        if info is None or not self.vstore.ready():
            return IndexStatus(info, IndexCounts(0, 0, 0, 0), False)
        self.vstore.dim = info.dim
        return IndexStatus(info, self.vstore.counts(), self.vstore.has_ann_index(), count_dirty(self.store))

    def ask(
        self,
        question: str,
        params: RetrievalParams | None = None,
        *,
        llm: str = "offline",
        retriever: str = "hublink",
        token_budget: int | None = None,
        **overrides: Any,
    ) -> Answer:
        """Answer a question from the graph, with sources and supporting triples. `llm_tokens`
        reports this question's LLM calls, tokens, cache hits and estimated cost."""
        stale = self._index_notes(retriever)
        params = (params or RetrievalParams()).with_overrides(**overrides)
        settings = self.settings
        if token_budget is not None:
            settings = replace(settings, llm=replace(settings.llm, token_budget=token_budget))
        roles = get_roles(llm, settings, self.llm_client(llm) if needs_client(llm) else None)

        def make(p: RetrievalParams) -> BaseRetriever:
            return get_retriever(
                retriever,
                store=self.store,
                vstore=self.vstore,
                embedder=self.embedder,
                roles=roles,
                params=p,
                facts=self.facts,
            )

        with question_budget(self.settings.question_timeout_s):  # QuestionTimeoutError past it
            parts = self._parts(question, params) if retriever == "hublink" else None
            answer = self._answer_parts(make, question, parts, params, llm) if parts else None
            if answer is None:
                answer = self._answer_one(make(params), question, params, llm)
        answer.llm_tokens = roles.usage.as_dict()
        answer.notes += list(roles.notes) + stale
        self._log_answer(answer)
        return answer

    def _answer_one(self, r: BaseRetriever, question: str, params: RetrievalParams, llm: str) -> Answer:
        answer = r.retrieve(question)
        # the graph's exact answer where it has one (docs/answers.md); a relation chain's answer and an
        # overview are read from the graph already (kgqa/retrieval/chains, kgqa/answering/overview.py)
        # (`--param exact=0` keeps the retrieved facts' answer and evidence)
        if llm == "offline" and answer.strategy not in ("chain", "overview") and int(params.extra.get("exact", 1)):
            # the evidence grows with the result unless a smaller cap than the default was asked for
            cap = (
                params.max_output_triples if params.max_output_triples < RetrievalParams().max_output_triples else None
            )
            chains = self.facts.chain_answerer(self.embedder)

            def named(q: str) -> tuple[str, str] | None:  # the topic's label and the words it was read from
                topic = chains.topic(q, params)
                return (topic.label, q[topic.start : topic.end]) if topic is not None else None

            answer = with_exact(
                answer,
                self.store,
                self.facts.index_meta,
                self.embedder,
                self.facts.catalogs,
                cap,
                named,
            )
        elif llm == "offline" and answer.strategy == "chain" and int(params.extra.get("exact", 1)):
            answer = with_edge_values(answer, self.store, self.facts.index_meta, self.facts.catalogs)
        return answer

    def _parts(self, question: str, params: RetrievalParams) -> QuestionParts | None:
        """The two parts of a question that asks two things (kgqa/question/parts.py), or None."""
        if not int(params.extra.get("parts", 1)):
            return None
        parts = question_parts(question)
        if parts is None and not params.topic_entity and " and " in question.lower():
            linker = self.facts.chain_answerer(self.embedder)

            def named_at(text: str) -> tuple[int, int] | None:
                mention = linker.topic(text, RetrievalParams())
                if mention is None or not mention.ids:
                    return None
                return mention.start, mention.end

            parts = parts_for_each(question, named_at)
        return parts

    def _answer_parts(
        self,
        make: Callable[[RetrievalParams], BaseRetriever],
        question: str,
        parts: QuestionParts,
        params: RetrievalParams,
        llm: str,
    ) -> Answer | None:
        """A question that asks two things ("Who wrote X and who directed it?"), answered part by part
        (kgqa/question/parts.py); None where the second part's pronoun stands for nothing the first
        part settled, and the question is answered whole."""
        first = self._answer_one(make(params), parts.first, params, llm)
        topic = self._topic_label(first)
        items = [str(i) for i in (first.result or {}).get("items", [])]
        second = parts.second_for(topic, items)
        if second is None:
            return None
        if first.topic_entity and parts.asks_for_others():  # "what else did she direct": not X itself
            params = replace(params, exclude_entities=(*params.exclude_entities, first.topic_entity))
        return join_answers(question, [first, self._answer_one(make(params), second, params, llm)])

    def _topic_label(self, answer: Answer) -> str | None:
        """The label of what an answer is about: its topic entity, else the one hub it cites."""
        if answer.topic_entity:
            entity = entities_by_ids(self.store, [answer.topic_entity]).get(answer.topic_entity)
            return entity.label if entity is not None and entity.label else None
        hubs = {s.hub_id: s.label for s in answer.sources}
        return next(iter(hubs.values())) if len(hubs) == 1 else None

    def _index_notes(self, retriever: str) -> list[str]:
        """Check `retriever`'s index (errors if missing or built with another model); notes on a stale
        one. Remembered while read-only with the index in Kùzu: nothing can change it then."""
        key = (retriever, self.embedder.name)
        if key in self._index_checked:
            return list(self._index_checked[key])
        stale: list[str] = []
        info = require_index(self.store, self.vstore, self.embedder.name, retriever, index_parts(retriever))
        if info is not None:  # the hub index (HubLink's); label-index parts have no such metadata
            self.vstore.dim = info.dim
            if info.status != "complete":
                stale.append(
                    "the index is incomplete (a build or update was interrupted); run `kgqa index update` to finish it"
                )
            dirty = count_dirty(self.store)
            if dirty:
                stale.append(
                    f"{dirty} hubs changed in the graph since the last index update; run `kgqa index update --dirty`"
                )
        if self.store.read_only and self.vstore.name == "kuzu":
            self._index_checked[key] = tuple(stale)
        return stale

    def _log_answer(self, answer: Answer) -> None:
        """Stores with an answers log (pgvector) record the answer and the query vectors it used."""
        log = getattr(self.vstore, "log_answer", None)
        if log is not None:
            log(answer, self.embedder.embed([answer.question] + list(answer.components)))

    def sync_index(
        self,
        to: str,
        *,
        pg_dsn: str | None = None,
        rebuild: bool = False,
        on_progress: ProgressFn = no_progress,
        confirm: Callable[[IndexCounts, int], None] | None = None,
    ) -> SyncReport:
        """Copy this workspace's index (from its store) into the store `to`, without re-embedding.
        `confirm(target counts, hubs to remove)` is called before a sync that removes hubs."""
        self.facts.forget()
        target = open_vstore(to, self.store, self.settings, pg_dsn=pg_dsn)
        try:
            return sync_index(self.vstore, target, rebuild=rebuild, on_progress=on_progress, confirm=confirm)
        finally:
            if target is not self.vstore:
                target.close()

    def prepare_answers(self) -> None:
        """Read now what answers read from the whole graph on first use (otherwise the first question
        pays for it): the catalog of exact answers and the relation chains' schema and cue vectors."""
        for cat in prepared_all(self.store, self.facts.index_meta, self.facts.catalogs):
            prepare_reading(cat, self.embedder)
        _ = self.facts.chain_answerer(self.embedder).reader  # the schema and its cue vectors

    def warm_up(self) -> float:
        """Load the embedding model now (a one-off cost per process); returns the seconds it took."""
        start = time.perf_counter()
        self.embedder.embed(["warm-up"])
        return time.perf_counter() - start

    def close(self) -> None:
        """Release the database (and the LLM client)."""
        if self._llm_client is not None:
            self._llm_client.close()
            self._llm_client = None
        self.vstore.close()
        self.store.close()

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
