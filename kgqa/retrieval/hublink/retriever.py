"""The HubLink retriever (thesis §4.6–4.8): direct and graph-traversal strategies, path
de-duplication, diversity ranking, hub pruning, partial and final answers with sources."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from kgqa import deadline
from kgqa.answering.overview import asks_overview, may_ask_overview, overview
from kgqa.config import RetrievalParams
from kgqa.embeddings.base import Embedder
from kgqa.graph.reader import resolve_entity
from kgqa.graph.store import GraphStore
from kgqa.llm.base import AnswerRoles, HubContext, PartialAnswer, ScoredTriple
from kgqa.question.components import NamedLabel, analyse_components
from kgqa.retrieval.base import Answer, BaseRetriever
from kgqa.retrieval.fanout import DEFAULT_TEXT_HUB_LIMIT, rank_hubs
from kgqa.retrieval.graph_facts import GraphFacts
from kgqa.retrieval.hublink.coverage import QueryShape, component_indices, read_shape, serving_triples
from kgqa.retrieval.hublink.hits import HitTable, acronym_components
from kgqa.retrieval.hublink.ranking import best_per_path, diversity_rank, hub_rank_key, prune_hubs
from kgqa.types import Entity, Hub, HubPath, ProcessedQuestion, RankedHub, Source, VectorLevel
from kgqa.vectorstores.base import HubVectorStore

_LEVELS = {level.value: level for level in VectorLevel}


def _component_means(best: np.ndarray) -> tuple[list[tuple[float, ...]], list[float]]:
    """Each row as a tuple of floats and its mean, summed left to right in float64 (exactly what
    `sum(row) / len(row)` gives, without a Python step per path)."""
    wide = best.astype(np.float64)
    total = np.zeros(len(wide))
    for column in wide.T:
        total = total + column
    return list(map(tuple, wide.tolist())), (total / max(wide.shape[1], 1)).tolist()


def champions_of(paths: list[HubPath]) -> set[str]:
    """Hashes of the paths that match some component best (coverage scoring)."""
    if not paths or not paths[0].component_sims:
        return set()
    return {max(paths, key=lambda p: (p.component_sims[k], p.hash)).hash for k in range(len(paths[0].component_sims))}


def _head(paths: list[HubPath], n: int) -> list[HubPath]:
    """The first n paths, and each component's best path wherever it ranks (coverage scoring)."""
    champions = champions_of(paths)
    return paths[:n] + [p for p in paths[n:] if p.hash in champions]


@dataclass
class _Scored:
    hubs: list[Hub]
    sims: Mapping[str, tuple[float, ...]]  # embedded text -> similarity to each query vector
    shape: QueryShape | None = None
    path_hashes: dict[str, list[str]] | None = None  # hub id -> all its path hashes (coverage scoring)
    full: dict[str, list[tuple]] = field(default_factory=dict)  # kept hub id -> all its paths' triples


class HubLinkRetriever(BaseRetriever):
    """HubLink over a graph store and a HubVector store, with pluggable LLM roles."""

    name = "hublink"

    def __init__(
        self,
        store: GraphStore,
        vstore: HubVectorStore,
        embedder: Embedder,
        roles: AnswerRoles,
        params: RetrievalParams | None = None,
        facts: GraphFacts | None = None,
    ) -> None:
        self.store, self.vstore, self.embedder, self.roles = store, vstore, embedder, roles
        self.params = params or RetrievalParams()
        self.facts = facts or GraphFacts(store, vstore)  # a workspace shares one across questions

    # -- template method -----------------------------------------------------------------------
    def _retrieve(self, question: str) -> Answer:
        params = self.params
        chained = self._overview(question, params) or self._chain_answer(question, params)
        if chained is not None:
            return chained
        timings: dict[str, float] = {}
        tokens_before = self.roles.usage.total
        t0 = time.perf_counter()
        pq = self.process_question(question, params)
        timings["question"] = time.perf_counter() - t0
        notes: list[str] = []
        topic: Entity | None = None
        strategy = params.strategy
        if strategy == "traversal":
            if params.topic_entity:
                topic = resolve_entity(self.store, params.topic_entity)
            else:
                strategy = "direct"
                notes.append("no topic entity given: used the direct strategy")
        t1 = time.perf_counter()
        if strategy == "traversal":
            assert topic is not None
            hubs, partials, sims = self._traversal(pq, topic, params, timings)
        else:
            hubs, partials, sims = self._direct(pq, params, timings)
        t2 = time.perf_counter()
        deadline.check("answer generation")
        final = self.roles.final_answer(question, partials)
        candidates = [st for p in partials for st in p.triples]
        if params.filter_output_triples:
            chosen = self.roles.select_triples(question, final, partials, candidates)
        else:
            chosen = self._all_path_triples(hubs, sims)
        triples = list(dict.fromkeys(st.triple.stated for st in chosen))[: params.max_output_triples]
        partial_seconds = timings.pop("partial_answers", 0.0)
        timings["retrieve"] = (t2 - t1) - partial_seconds
        timings["generate"] = partial_seconds + (time.perf_counter() - t2)
        cited = {hub_id for _, hub_id, _ in final.sources}
        return Answer(
            question=question,
            answer=final.text,
            sources=[Source(n, hid, label) for n, hid, label in final.sources],
            triples=triples,
            hubs=[
                RankedHub(h.root.id, h.root.label, round(h.score, 4), h.root.id in cited, len(h.paths)) for h in hubs
            ],
            mode=self.roles.name,
            strategy=strategy,
            topic_entity=topic.id if topic else None,
            components=pq.components,
            timings=timings,
            llm_tokens={"total_tokens": self.roles.usage.total - tokens_before},
            notes=notes,
            result=final.result,
        )

    def _chain_answer(self, question: str, params: RetrievalParams) -> Answer | None:
        """The answer along the question's relation chain through shared entities (kgqa/retrieval/chains),
        or None when the question reads as none; the workspace's facts keep the chain reader."""
        return self.facts.chain_answerer(self.embedder).answer(question, params, self.facts.is_hub, self.roles.name)

    def _overview(self, question: str, params: RetrievalParams) -> Answer | None:
        """What the graph says about the one thing the question names, where it asks for that ("Tell me
        about X", "who is X"; kgqa/answering/overview.py); offline mode, like relation chains."""
        if self.roles.name != "offline" or not may_ask_overview(question):
            return None
        topic = self.facts.chain_answerer(self.embedder).topic(question, params)
        if topic is None or not asks_overview(question, topic.start, topic.end):
            return None
        return overview(self.store, question, topic.ids, self.facts.is_hub, params.max_output_triples, self.roles.name)

    def process_question(self, question: str, params: RetrievalParams) -> ProcessedQuestion:
        """PROCESSQUESTION (Alg. 11): components and the embeddings of question and components."""
        raw = self.roles.extract_components(question) if params.use_components else []
        analysed = analyse_components(
            question,
            raw,
            self._predicates(),
            self._hub_type_words(),
            self._named_label(question, params) if raw else None,
        )
        components = [c.text for c in analysed]
        vectors = self.embedder.embed([question] + components)
        return ProcessedQuestion(
            question, components, vectors, tuple(c.anchor for c in analysed), tuple(c.negated for c in analysed)
        )

    # -- strategies ----------------------------------------------------------------------------
    def _traversal(
        self, pq: ProcessedQuestion, topic: Entity, params: RetrievalParams, timings: dict[str, float]
    ) -> tuple[list[Hub], list[PartialAnswer], Mapping[str, tuple[float, ...]]]:
        """Graph traversal strategy (Alg. 14–15): hubs reachable from the topic entity, level by level."""
        hubs: list[Hub] = []
        sims: Mapping[str, tuple[float, ...]] = {}
        for roots in self.facts.root_levels.levels(
            topic.id, params.uniform_hop_count, params.max_retrieval_level, lambda: deadline.check("hub traversal")
        ):
            deadline.check("hub traversal")
            if not roots:
                continue
            via = {r.entity_id: r.path for r in roots}
            scored = self._score_hubs(list(via), pq, params, via)
            hubs = self._prune(scored, params)
            if scored.shape is not None:
                self._complete(hubs, scored, params)
            sims = scored.sims
            partials = self._partials(pq, hubs, scored, timings, params)
            if partials:
                return hubs, partials, sims
        return hubs, [], sims

    def _direct(
        self, pq: ProcessedQuestion, params: RetrievalParams, timings: dict[str, float]
    ) -> tuple[list[Hub], list[PartialAnswer], Mapping[str, tuple[float, ...]]]:
        """Direct strategy (Alg. 12–13): global ANN over the embedded texts, then per-hub scoring.

        Identical texts are stored once and shared by many hub paths, so the ANN hits are expanded
        to their hubs, texts shared by more than `text_hub_limit` hubs excepted (`fanout.rank_hubs`);
        hubs are pre-ranked by the sum over query vectors of their best hit, and the best
        3 x HubsToKeep are scored exactly (FILLORREMOVEPATHS) before pruning."""
        k = max(4 * params.paths_per_hub, 2 * params.hubs_to_keep)
        limit = int(params.extra.get("text_hub_limit", DEFAULT_TEXT_HUB_LIMIT))
        hit_sims: dict[str, list[float]] = defaultdict(lambda: [0.0] * len(pq.embeddings))
        deadline.check("hub search")
        for qi, hits in enumerate(self.vstore.nearest_each(pq.embeddings, k)):
            for th, sim in hits:
                hit_sims[th][qi] = max(hit_sims[th][qi], sim)
        ranked = rank_hubs(hit_sims, self.facts.text_hubs.get(list(hit_sims), limit), limit, 3 * params.hubs_to_keep)
        scored = self._score_hubs(ranked, pq, params, {})
        hubs = self._prune(scored, params)
        if scored.shape is not None:
            self._complete(hubs, scored, params)
        return hubs, self._partials(pq, hubs, scored, timings, params), scored.sims

    # -- shared steps --------------------------------------------------------------------------
    def _score_hubs(
        self, hub_ids: list[str], pq: ProcessedQuestion, params: RetrievalParams, via: dict[str, tuple]
    ) -> _Scored:
        """GETHUBPATHSFORHUB for many hubs at once: exact similarities, best level per path,
        diversity ranking, the top `paths_per_hub` paths of each hub."""
        deadline.check("hub scoring")
        table = HitTable.from_scored(self.vstore.score_hubs(hub_ids, pq.embeddings), acronym_components(pq.components))
        deadline.check("hub scoring")
        coverage_mode = params.scoring == "coverage"
        comps = component_indices(len(pq.embeddings))
        by_hub: dict[str, list[HubPath]] = defaultdict(list)
        path_comps, path_scores = _component_means(table.path_best[:, comps]) if coverage_mode else ([], [])
        for k, hit in enumerate(deadline.checked(table.best_hit, "hub scoring")):
            if coverage_mode:  # mean over components of the path's best similarity to each
                component_sims, score = path_comps[k], path_scores[k]
            else:  # thesis: the path's single best match (its best level)
                component_sims, score = (), max(hit.similarities)
            by_hub[hit.hub_id].append(
                HubPath(hit.hub_id, hit.path_hash, (), "", hit.text, _LEVELS[hit.level], score, component_sims)
            )
        roots = self.facts.entities(list(by_hub))
        if coverage_mode:
            return self._covering_hubs(by_hub, roots, table, pq, via)
        kept = {hub_id: best_per_path(paths)[: 2 * params.paths_per_hub] for hub_id, paths in by_hub.items()}
        stored = self.vstore.paths([p.hash for ps in kept.values() for p in ps])
        hubs = []
        for hub_id, paths in kept.items():
            for p in paths:
                rec = stored[p.hash]
                p.triples, p.text = rec.triples, rec.text
            ranked = diversity_rank(paths, params.diversity_penalty)[: params.paths_per_hub]
            hubs.append(Hub(roots.get(hub_id) or Entity(hub_id), ranked, 0.0, tuple(via.get(hub_id, ()))))
        return _Scored(hubs, table.sims)

    def _covering_hubs(
        self,
        by_hub: dict[str, list[HubPath]],
        roots: dict[str, Entity],
        table: HitTable,
        pq: ProcessedQuestion,
        via: dict[str, tuple],
    ) -> _Scored:
        """Coverage scoring: read the question's shape off each hub's best path per component (the
        only paths fetched here), keep the hubs that match every anchor group, score them by coverage.
        The kept hubs' paths are completed after pruning (`_complete`)."""
        comps = component_indices(len(pq.embeddings))
        champions = {hub_id: champions_of(paths) for hub_id, paths in by_hub.items()}
        stored = self.vstore.paths([ph for hashes in champions.values() for ph in hashes])
        candidates = [
            (roots.get(hub_id) or Entity(hub_id), [t for ph in hashes for t in stored[ph].triples])
            for hub_id, hashes in champions.items()
        ]
        shape = read_shape(list(pq.anchors), list(pq.negated), candidates, table.sims)
        bests = {hub_id: {qi: float(table.hub_best[hub_id][qi]) for qi in comps} for hub_id in by_hub}
        passing = shape.passing(bests)
        hubs = [
            Hub(roots.get(hub_id) or Entity(hub_id), paths, shape.score(bests[hub_id]), tuple(via.get(hub_id, ())))
            for hub_id, paths in by_hub.items()
            if hub_id in passing
        ]
        return _Scored(hubs, table.sims, shape, {hub_id: [p.hash for p in paths] for hub_id, paths in by_hub.items()})

    def _complete(self, hubs: list[Hub], scored: _Scored, params: RetrievalParams) -> None:
        """Coverage scoring, after pruning: fetch every path of the kept hubs (`scored.full`) and rank
        each hub's paths (best level per path, diversity ranking, top `paths_per_hub` plus the best
        path per component)."""
        assert scored.path_hashes is not None
        kept = [h.root.id for h in hubs]
        records = self.vstore.paths([ph for hub in kept for ph in scored.path_hashes.get(hub, ())], hubs=kept)
        scored.full = {h.root.id: [] for h in hubs}
        for rec in deadline.checked(records.values(), "reading the kept hubs' paths"):
            if rec.hub_id in scored.full:
                scored.full[rec.hub_id].append(rec.triples)
        for h in hubs:
            paths = best_per_path(h.paths)
            for p in paths:
                rec = records[p.hash]
                p.triples, p.text = rec.triples, rec.text
            h.paths = _head(diversity_rank(paths, params.diversity_penalty), params.paths_per_hub)

    @staticmethod
    def _prune(scored: _Scored, params: RetrievalParams) -> list[Hub]:
        """PRUNEHUBS: thesis weighted mean; under coverage scoring (hubs already scored), a relative cut."""
        if scored.shape is None:
            return prune_hubs(scored.hubs, params.hubs_to_keep, params.path_weight_alpha)
        ranked = sorted(scored.hubs, key=hub_rank_key)[: params.hubs_to_keep]
        top = max((h.score for h in ranked), default=0.0)
        return [h for h in ranked if h.score >= top - params.hub_margin]

    def _partials(
        self,
        pq: ProcessedQuestion,
        hubs: list[Hub],
        scored: _Scored,
        timings: dict[str, float],
        params: RetrievalParams,
    ) -> list[PartialAnswer]:
        start = time.perf_counter()
        if scored.shape is not None:
            contexts = self._serving_contexts(hubs, scored.full, scored, params)
        else:
            contexts = [HubContext(hub, self._relevance(hub, scored.sims)) for hub in hubs]
        partials = [p for p in self.roles.partial_answers(pq.question, contexts) if p is not None]
        timings["partial_answers"] = timings.get("partial_answers", 0.0) + time.perf_counter() - start
        return partials

    @staticmethod
    def _relevance(hub: Hub, sims: Mapping[str, tuple[float, ...]]) -> list[ScoredTriple]:
        """Each triple of the hub's kept paths with its relevance: the best similarity of the
        triple's text to any query vector, or of its object to any question component."""
        out: dict[str, ScoredTriple] = {}
        for p in hub.paths:
            for t in p.triples:
                triple_sims = sims.get(t.text, ())
                obj_sims = sims.get(t.object.text, ())
                n = max(len(triple_sims), len(obj_sims))
                per_query = tuple(
                    max(triple_sims[i] if i < len(triple_sims) else 0.0, obj_sims[i] if 0 < i < len(obj_sims) else 0.0)
                    for i in range(n)
                )
                score = max(per_query, default=0.0)
                key = t.canonical
                if key not in out or out[key].score < score:
                    out[key] = ScoredTriple(t, score, hub.root.id, per_query)
        return list(out.values())

    @staticmethod
    def _serving_contexts(
        hubs: list[Hub], full: dict[str, list[tuple]], scored: _Scored, params: RetrievalParams
    ) -> list[HubContext]:
        """Coverage scoring: each hub's triples that state an anchor or an attribute of the question
        (see `serving_triples`), scored by the hub's score so hub order is kept. When some hub
        satisfies the question's negations, the hubs that do not are given nothing (they decline)."""
        assert scored.shape is not None
        serving = [
            serving_triples(scored.sims, h.root, full[h.root.id], scored.shape, params.path_margin) for h in hubs
        ]
        negations_matter = any(s.satisfies_negations for s in serving)
        return [
            HubContext(
                h,
                [ScoredTriple(t, h.score, h.root.id) for t in s.triples]
                if s.satisfies_negations or not negations_matter
                else [],
            )
            for h, s in zip(hubs, serving)
        ]

    def _all_path_triples(self, hubs: list[Hub], sims: Mapping[str, tuple[float, ...]]) -> list[ScoredTriple]:
        """Without output filtering: every triple of every kept path, by path score then order."""
        out: list[ScoredTriple] = []
        for hub in hubs:
            for p in sorted(hub.paths, key=lambda p: (-p.score, p.hash)):  # ties: the store's row order varies
                out.extend(ScoredTriple(t, p.score, hub.root.id) for t in p.triples)
        return sorted(out, key=lambda st: -st.score)

    def _named_label(self, question: str, params: RetrievalParams) -> NamedLabel | None:
        """The topic the question names (the given topic entity, else the longest label of the graph it
        writes; read once per question with the chain reader), as one value for the components."""
        mention = self.facts.chain_answerer(self.embedder).topic(question, params)
        if mention is None or mention.typo:  # a name with a typo is searched as written
            return None
        return NamedLabel(mention.label, mention.start, mention.end)

    def _hub_type_words(self) -> set[str]:
        """The hub types ("paper" when every hub is a Paper): a component naming one matches every hub
        alike and crowds out the discriminating paths, so it is not searched for."""
        return self.facts.hub_types()

    def _predicates(self) -> list[str]:
        """The graph's predicate labels (they split "paper class philosophical paper" components)."""
        return self.facts.predicates()
