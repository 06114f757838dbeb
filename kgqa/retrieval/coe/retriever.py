"""KG-RAG's Chain of Explorations (seeds/kg-rag-coe-paper.txt §4.2, Algorithm 1): a planned, step-wise
exploration of the graph. Each step ranks its candidates by vector similarity (node steps: HNSW search
over entity labels; relation steps: the relations of the current nodes, read by Cypher and ranked by
the similarity of the step text to the predicate, the target's label or its type) and picks among them
with the LLM (offline: the top-scored, within a margin). After each step an evaluation decides to
continue, respond, or refine the plan (at most 3 failed tries, then no answer).

Offline evaluation: a step with no usable candidate is a failed try (the plan is refined by dropping
that step and the exploration restarts); a relation step whose best candidate is still a weak match
(similarity < 0.5) explores one more hop for the same step (at most `max_hops`); otherwise continue,
and respond when the plan is done. The answer's triples are the explored chains that reach the last
step's nodes. `ask --json` shows the chain in `trace`.

Index: `kgqa index build --retriever coe` (label index parts `labels` and `predicates`).
Parameters (`--param`): `k_nodes` (10), `max_nodes` (300 current nodes), `max_hops` (2 per step)."""

from __future__ import annotations

import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kgqa import deadline
from kgqa.llm.base import ScoredTriple
from kgqa.llm.jsonreply import as_int_list, extract_json
from kgqa.llm.render import numbered
from kgqa.question.components import analyse_components, extract_components
from kgqa.retrieval.coe.plan import Step, offline_plan, parse_evaluation_reply, parse_plan_reply
from kgqa.retrieval.evidence import generate, group_by_subject, sources_and_hubs
from kgqa.retrieval.label_retriever import LabelIndexRetriever
from kgqa.retrieval.label_search import Edge
from kgqa.retrieval.llm_step import ask_llm, has_llm
from kgqa.retrieval.seed_prompts import COE_EVALUATE, COE_PLAN, COE_SELECT
from kgqa.types import Answer, Entity, Triple

DEFAULTS = {"k_nodes": 10, "max_nodes": 300, "max_hops": 2}
MAX_FAILED_TRIES = 3  # Algorithm 1 line 7
MIN_NODE_SIMILARITY = 0.35  # a node step whose best label is less similar finds nothing
SATISFIED = 0.5  # a relation step below this explores one more hop
MARGIN = 0.1  # offline pick: candidates within this of the best
NODE_MARGIN = 0.05
SHOWN = 15  # candidates shown to the LLM
NO_ANSWER = "I am sorry, I could not find an answer to your question."


@dataclass
class Hop:
    """One executed step: the chain links it added, as (node before, node after, triple, score)."""

    step: Step
    links: list[tuple[str, str, Triple, float]] = field(default_factory=list)
    starts: dict[str, float] = field(default_factory=dict)  # node steps: the start nodes


@dataclass
class _Outcome:
    candidates: list[dict[str, Any]]
    current: dict[str, float]
    hop: Hop
    best: float


class CoERetriever(LabelIndexRetriever):
    """Plan, explore step by step (vector-ranked candidates, LLM or top-scored picks), evaluate, answer."""

    name = "coe"
    title = "CoE"
    defaults = DEFAULTS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._type_vectors: dict[str, np.ndarray] = {}

    # -- Algorithm 1 ------------------------------------------------------------------------------
    def _retrieve(self, question: str) -> Answer:
        params = self.params
        cfg = self.settings()
        notes: list[str] = []
        trace: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        plan = self.plan(question, notes)
        trace.append({"step": "plan", "steps": [s.as_dict() for s in plan]})
        hops: list[Hop] = []
        current: dict[str, float] = {}
        visited: set[str] = set()
        i, failed, hops_in_step, answered = 0, 0, 0, False
        while i < len(plan) and failed < MAX_FAILED_TRIES:
            deadline.check("chain of explorations")
            step = plan[i]
            outcome = self._explore(question, step, current, visited, cfg, notes)
            decision = self._evaluate(question, plan, i, outcome, hops, hops_in_step, cfg, notes)
            trace.append(
                {
                    "step": len(trace),
                    "kind": step.kind,
                    "text": step.text,
                    "hop": hops_in_step + 1,
                    "candidates": outcome.candidates if outcome else [],
                    "selected": len(outcome.hop.links or outcome.hop.starts) if outcome else 0,
                    "current_nodes": len(outcome.current) if outcome else 0,
                    "decision": decision[0],
                }
            )
            if decision[0] == "refine":
                failed += 1
                plan = decision[1]
                i, hops_in_step, hops, current, visited = 0, 0, [], {}, set()
                trace.append({"step": "plan", "steps": [s.as_dict() for s in plan], "failed_tries": failed})
                continue
            assert outcome is not None
            hops.append(outcome.hop)
            visited |= set(current)
            current = outcome.current
            if decision[0] == "repeat":
                hops_in_step += 1
                continue
            i, hops_in_step = i + 1, 0
            if decision[0] == "respond":
                answered = True
                break
        answered = answered or (i >= len(plan) and bool(plan) and failed < MAX_FAILED_TRIES)
        if failed >= MAX_FAILED_TRIES:
            notes.append(f"{MAX_FAILED_TRIES} failed tries: no answer (Algorithm 1)")
        elif not answered:
            notes.append("no exploration plan could be followed: the question names nothing found in the graph")
        t1 = time.perf_counter()
        scored = _chains(hops, current) if answered else []
        groups = group_by_subject(scored)
        final = generate(self.roles, question, groups)
        text = final.text if scored else NO_ANSWER
        sources, hubs = sources_and_hubs(final, groups)
        if params.topic_entity:
            notes.append("CoE finds its start nodes by vector search: the topic entity is not used")
        return Answer(
            question=question,
            answer=text,
            sources=sources if scored else [],
            triples=list(dict.fromkeys(st.triple.canonical for st in scored)),
            hubs=hubs,
            mode=self.roles.name,
            strategy="exploration",
            topic_entity=None,
            components=[f"{s.kind}: {s.text}" for s in plan],
            timings={"retrieve": t1 - t0, "generate": time.perf_counter() - t1},
            notes=notes,
            trace=trace,
            result=final.result if scored else None,
        )

    # -- planning ---------------------------------------------------------------------------------
    def plan(self, question: str, notes: list[str]) -> list[Step]:
        """The LLM's plan, else the offline planner's."""
        if has_llm(self.roles):
            steps = ask_llm(self.roles, COE_PLAN, parse_plan_reply, notes, question=question)
            if steps:
                return steps
        components = analyse_components(question, extract_components(question))
        return offline_plan(question, components, self._node_score)

    def _node_score(self, text: str) -> float:
        hits = self.search.ann("label", self.embedder.embed([text])[0], 1)
        return hits[0].similarity if hits else 0.0

    # -- exploration --------------------------------------------------------------------------------
    def _explore(
        self,
        question: str,
        step: Step,
        current: dict[str, float],
        visited: set[str],
        cfg: dict[str, int],
        notes: list[str],
    ) -> _Outcome | None:
        if step.kind == "node" or not current:
            return self._node_step(question, step, cfg, notes)
        if step.kind == "check":
            return self._check_step(step, current, visited, cfg)
        return self._relation_step(question, step, current, visited, cfg, notes)

    def _node_step(self, question: str, step: Step, cfg: dict[str, int], notes: list[str]) -> _Outcome | None:
        """VectorDB.Search(step) over entity labels; the LLM (offline: the best labels) selects."""
        hits = self.search.ann("label", self.embedder.embed([step.text])[0], cfg["k_nodes"])
        if not hits or hits[0].similarity < MIN_NODE_SIMILARITY:
            return None
        entities = self.search.entities_for([h.hash for h in hits])
        shown = [
            {"text": h.text, "score": round(h.similarity, 4), "entities": len(entities.get(h.hash, []))} for h in hits
        ]
        chosen = [h for h in hits if h.similarity >= hits[0].similarity - NODE_MARGIN]
        picks = self._llm_pick(
            question, step, [f"{h.text} ({len(entities.get(h.hash, []))} nodes)" for h in hits], notes
        )
        if picks:
            chosen = [hits[n] for n in picks]
        starts: dict[str, float] = {}
        for h in chosen:
            for e in entities.get(h.hash, []):
                starts.setdefault(e.id, h.similarity)
        starts = dict(sorted(starts.items(), key=lambda kv: (-kv[1], kv[0]))[: cfg["max_nodes"]])
        return _Outcome(shown, starts, Hop(step, starts=starts), hits[0].similarity)

    def _relation_step(
        self,
        question: str,
        step: Step,
        current: dict[str, float],
        visited: set[str],
        cfg: dict[str, int],
        notes: list[str],
    ) -> _Outcome | None:
        """Cypher.Query(current nodes) -> relations ranked by similarity -> the LLM (offline: the
        top-scored) selects -> the targets become the current nodes."""
        edges = [e for e in self.search.edges(list(current)) if e.other.id not in visited and e.other.id not in current]
        if not edges:
            return None
        scores = self._edge_scores(step.text, edges)
        groups: dict[tuple[str, bool], list[int]] = defaultdict(list)
        for k, e in enumerate(edges):
            groups[(e.predicate, e.outgoing)].append(k)
        ranked = sorted(groups, key=lambda g: (-max(scores[k] for k in groups[g]), g))
        best = max(scores)
        shown = [
            {
                "text": f"{'->' if out else '<-'} {pred} ({len(groups[(pred, out)])} edges)",
                "score": round(max(scores[k] for k in groups[(pred, out)]), 4),
            }
            for pred, out in ranked[:10]
        ]
        chosen = [k for k in range(len(edges)) if scores[k] >= best - MARGIN]
        labels = [
            f"{'outgoing' if out else 'incoming'} '{pred}' to e.g. "
            f"'{edges[max(groups[(pred, out)], key=lambda k: scores[k])].other.text[:80]}' "
            f"({len(groups[(pred, out)])} edges)"
            for pred, out in ranked[:SHOWN]
        ]
        picks = self._llm_pick(question, step, labels, notes)
        if picks:
            chosen = [
                k
                for n in picks
                for k in groups[ranked[n]]
                if scores[k] >= max(scores[j] for j in groups[ranked[n]]) - MARGIN
            ]
        nodes = self.search.resolve(list(current))
        links: list[tuple[str, str, Triple, float]] = []
        new: dict[str, float] = {}
        for k in chosen:
            e = edges[k]
            anchor = nodes.get(e.anchor) or Entity(e.anchor)
            links.append((e.anchor, e.other.id, e.triple(anchor), scores[k]))
            new[e.other.id] = max(new.get(e.other.id, 0.0), scores[k])
        new = dict(sorted(new.items(), key=lambda kv: (-kv[1], kv[0]))[: cfg["max_nodes"]])
        links = [lk for lk in links if lk[1] in new]
        return _Outcome(shown, new, Hop(step, links), best)

    def _check_step(
        self, step: Step, current: dict[str, float], visited: set[str], cfg: dict[str, int]
    ) -> _Outcome | None:
        """Keep the current nodes that reach a node matching the step text within two hops."""
        first = self.search.edges(list(current))
        if not first:
            return None
        nodes = self.search.resolve(list(current))
        one = self._label_scores(step.text, [e.other for e in first])
        best1 = max(one)
        chains: list[tuple[str, list[Triple], float]] = []
        if best1 >= SATISFIED:
            chains = [
                (e.anchor, [e.triple(nodes.get(e.anchor) or Entity(e.anchor))], s)
                for e, s in zip(first, one)
                if s >= best1 - NODE_MARGIN
            ]
            best = best1
        else:
            mids = {e.other.id: e for e in first if e.other.id not in current}
            second = self.search.edges(list(mids)) if mids else []
            two = self._label_scores(step.text, [e.other for e in second]) if second else []
            best = max(two, default=0.0)
            if best <= best1:
                chains = [
                    (e.anchor, [e.triple(nodes.get(e.anchor) or Entity(e.anchor))], s)
                    for e, s in zip(first, one)
                    if s >= best1 - NODE_MARGIN
                ]
                best = best1
            else:
                by_mid = defaultdict(list)
                for e in first:
                    if e.other.id in mids:
                        by_mid[e.other.id].append(e)
                for e2, s in zip(second, two):
                    if s < best - NODE_MARGIN or e2.other.id in current:
                        continue
                    for e1 in by_mid.get(e2.anchor, []):
                        t1 = e1.triple(nodes.get(e1.anchor) or Entity(e1.anchor))
                        chains.append((e1.anchor, [t1, e2.triple(e1.other)], s))
        kept: dict[str, float] = {}
        links = []
        for src, triples, s in chains:
            kept[src] = current[src]
            links += [(src, src, t, s) for t in triples]
        shown = [{"text": f"reaches '{step.text}'", "score": round(best, 4), "kept_nodes": len(kept)}]
        return _Outcome(shown, kept, Hop(step, links), best) if kept else None

    def _edge_scores(self, text: str, edges: list[Edge]) -> list[float]:
        """Each edge's similarity to the step text: the best of predicate, target label and target type."""
        q = self.embedder.embed([text])[0]
        preds = self.search.predicate_vectors()
        label_sims = self._label_scores(text, [e.other for e in edges], q)
        types = {t for e in edges for t in e.other.types}
        missing = [t for t in types if t not in self._type_vectors]
        if missing:
            self._type_vectors.update(zip(missing, self.embedder.embed(missing)))
        type_sim = {t: float(self._type_vectors[t] @ q) for t in types}
        pred_sim = {
            p: float(preds[p] @ q) if p in preds else float(self.embedder.embed([p])[0] @ q)
            for p in {e.predicate for e in edges}
        }
        return [
            max(pred_sim[e.predicate], ls, max((type_sim[t] for t in e.other.types), default=0.0))
            for e, ls in zip(edges, label_sims)
        ]

    def _label_scores(self, text: str, entities: list[Entity], q: np.ndarray | None = None) -> list[float]:
        q = self.embedder.embed([text])[0] if q is None else q
        vectors = self.search.label_vectors(e.text for e in entities)
        return [float(vectors[e.text] @ q) for e in entities]

    # -- LLM picks and evaluation ------------------------------------------------------------------
    def _llm_pick(self, question: str, step: Step, labels: list[str], notes: list[str]) -> list[int]:
        """LM(prompt, candidates): 0-based indices the LLM chose (empty: offline pick)."""
        if not has_llm(self.roles) or not labels:
            return []
        shown = labels[:SHOWN]
        numbers = ask_llm(
            self.roles,
            COE_SELECT,
            lambda t: as_int_list(extract_json(t, list)),
            notes,
            question=question,
            step=f"{step.kind}: {step.text}",
            candidates=numbered(shown),
        )
        return [n - 1 for n in dict.fromkeys(numbers or []) if 1 <= n <= len(shown)]

    def _evaluate(
        self,
        question: str,
        plan: list[Step],
        i: int,
        outcome: _Outcome | None,
        hops: list[Hop],
        hops_in_step: int,
        cfg: dict[str, int],
        notes: list[str],
    ) -> tuple[str, list[Step]]:
        """eval_state: continue, repeat (one more hop for this step), respond, or refine (new plan)."""
        if outcome is None:  # nothing to follow: refine the plan without this step
            rest = plan[:i] + plan[i + 1 :]
            if rest and rest[0].kind != "node":
                rest[0] = Step("node", rest[0].text)
            return "refine", rest
        if has_llm(self.roles) and i + 1 < len(plan):
            facts = [lk[2] for h in hops + [outcome.hop] for lk in h.links][-30:]
            reply = ask_llm(
                self.roles,
                COE_EVALUATE,
                parse_evaluation_reply,
                notes,
                question=question,
                remaining="; ".join(f"{s.kind}: {s.text}" for s in plan[i + 1 :]) or "none",
                facts="\n".join(f"({t.subject.text}, {t.predicate}, {t.object.text})" for t in facts)
                or "(only start nodes so far)",
            )
            if reply is not None:
                decision, steps = reply
                return (decision, steps) if decision != "continue" else ("continue", [])
        if outcome.hop.step.kind == "relation" and outcome.best < SATISFIED and hops_in_step + 1 < cfg["max_hops"]:
            return "repeat", []
        return ("respond" if i + 1 >= len(plan) else "continue"), []


def _chains(hops: list[Hop], final: dict[str, float]) -> list[ScoredTriple]:
    """The explored links that lie on a chain reaching the final nodes, in step order, best first."""
    alive = set(final)
    kept: list[list[tuple[str, str, Triple, float]]] = []
    for hop in reversed(hops):
        if hop.starts:
            break
        if hop.step.kind == "check":
            links = [lk for lk in hop.links if lk[0] in alive]
        else:
            links = [lk for lk in hop.links if lk[1] in alive]
            alive = {lk[0] for lk in links}
        kept.append(links)
    out: list[ScoredTriple] = []
    for links in reversed(kept):
        for src, _dst, t, s in sorted(links, key=lambda lk: (-lk[3], lk[2].canonical)):
            out.append(ScoredTriple(t, s, src))
    return out
