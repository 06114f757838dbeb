"""SimGRAG's query-to-pattern step (seeds/simgrag-paper.txt §4.1, §4.3): the LLM's pattern reply parsed
into a `Pattern`, and an offline rule-based pattern builder for simple questions.

The offline builder reads the question's components (kgqa/question/components.py): anchors (names,
titles, numbers) become known nodes, the attribute written before an anchor ("the evaluation method Field
Experiment") becomes the relation to it, other attributes ("authors") become relations to unknown nodes,
and the kind of thing asked for ("Which papers ...") becomes a typed unknown node ("UNKNOWN paper 1")
that joins the anchors in a star. Because a question does not say how many hops separate the asked node
from an anchor, the builder also offers relaxed variants that reach anchors through an unknown
intermediate node. Variants come in tiers with the same known nodes and relations (so their GSDs compare):
the retriever searches every variant of a tier, keeps the k best subgraphs of the first tier that matches
at all, and only then relaxes further (fewer attributes, no type). A question about several named entities
("the paper 'A' ... compared to the paper 'B'") gets one pattern group per entity."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kgqa.llm.jsonreply import ReplyFormatError, extract_json
from kgqa.question.components import STOP_WORDS, VERB_FORMS, Component
from kgqa.retrieval.gsd import Pattern, PatternEdge, PatternNode

_UNKNOWN = re.compile(r"^\s*unknown\b\s*(.*?)\s*(\d+)?\s*$", re.IGNORECASE)
_ASKED = re.compile(r"^\s*(?:which|what|how\s+many|list(?:\s+all)?(?:\s+the)?|name(?:\s+the)?)\s+(.*)$", re.IGNORECASE)
#: Qualifiers that name an entity rather than relate it ("the paper 'X'", "the title 'X'").
NAMING = frozenset({"title", "paper", "name", "article", "publication", "paper title"})
MAX_ANCHORS = 3
MAX_ATTRIBUTES = 2
MAX_VARIANTS = 12


@dataclass
class PatternGroup:
    """Alternative patterns for one part of the question: tiers tried in order; the variants of a tier
    share their known elements and are searched together."""

    tiers: list[list[tuple[str, Pattern]]] = field(default_factory=list)

    @property
    def first(self) -> Pattern | None:
        """The unrelaxed pattern."""
        return self.tiers[0][0][1] if self.tiers and self.tiers[0] else None

    def add(self, tier: int, description: str, pattern: Pattern) -> None:
        """Add a variant to tier `tier` (tiers are created as needed)."""
        while len(self.tiers) <= tier:
            self.tiers.append([])
        self.tiers[tier].append((description, pattern))


def unknown_hint(text: str) -> str | None:
    """For "UNKNOWN paper 1" the type hint "paper" ("" for a bare "UNKNOWN 2"); None for a known text."""
    m = _UNKNOWN.match(text)
    if not m:
        return None
    hint = m.group(1).strip()
    return "" if hint.lower() in ("", "relation", "entity", "node", "thing") else hint


def pattern_from_triples(triples: list[tuple[str, str, str]]) -> Pattern:
    """A pattern from (head, relation, tail) texts: same text, same node; self-loops and parallel edges
    dropped; the connected part with the most known nodes kept. ReplyFormatError if nothing is known."""
    builder = _Builder()
    for h, r, t in triples:
        builder.edge(builder.node(h), r, builder.node(t))
    return builder.build()


def parse_pattern_reply(text: str) -> Pattern:
    """The LLM's `{"triples": [[head, relation, tail], ...]}` as a pattern."""
    value = extract_json(text, dict)
    raw = value.get("triples")
    if not isinstance(raw, list) or not raw:
        raise ReplyFormatError('"triples" must be a non-empty list')
    triples = []
    for item in raw:
        if not (
            isinstance(item, (list, tuple)) and len(item) == 3 and all(isinstance(x, str) and x.strip() for x in item)
        ):
            raise ReplyFormatError("each triple must be three non-empty strings")
        triples.append((item[0].strip(), item[1].strip(), item[2].strip()))
    return pattern_from_triples(triples)


def asked_type(question: str) -> str | None:
    """The kind of thing a question asks for ("Which papers ..." -> "paper"), or None."""
    m = _ASKED.match(question)
    if not m:
        return None
    words = []
    for w in re.findall(r"[A-Za-z][\w-]*", m.group(1))[:3]:
        if w.lower() in STOP_WORDS or w.lower() in VERB_FORMS or not w.islower():
            break
        words.append(w.lower())
    if not words:
        return None
    words[-1] = _singular(words[-1])
    return " ".join(words[:2])


def offline_patterns(
    question: str, components: list[Component], node_score: Callable[[str], float]
) -> list[PatternGroup]:
    """Pattern groups for a simple question (empty when the question names nothing to start from).
    `node_score(text)` is how well a text matches some entity label (it picks the start node of a
    question without anchors)."""
    asked = asked_type(question)
    anchors = [c for c in components if c.anchor]
    anchors = sorted(anchors, key=lambda c: (c.text.replace(".", "").isdigit(), anchors.index(c)))[:MAX_ANCHORS]
    attributes = [
        c.text for c in components if not c.anchor and not _same_kind(c.text, asked) and c.text.lower() not in NAMING
    ]
    if not anchors:
        if not attributes:
            return []
        best = max(attributes, key=lambda a: (node_score(a), -attributes.index(a)))
        anchors = [Component(best, True)]
        attributes.remove(best)
    attributes = attributes[:MAX_ATTRIBUTES]
    named = [a for a in anchors if (a.qualifier or "").lower() in NAMING]
    if len(named) >= 2:  # several named entities: one pattern per entity
        return [_single(a, attributes, asked) for a in named]
    if len(anchors) == 1:
        return [_single(anchors[0], attributes, asked)]
    return [_star(anchors, attributes, asked)]


def _single(anchor: Component, attributes: list[str], asked: str | None) -> PatternGroup:
    """One anchor: its attributes as relations to unknown nodes, or else the asked node related to it."""
    group = PatternGroup()
    if attributes:
        for via in (False, True):
            b = _Builder()
            a = b.node(anchor.text)
            src = a
            if via:
                src = b.node("UNKNOWN 9")
                b.edge(a, "UNKNOWN relation 9", src)
            for i, attr in enumerate(attributes, start=1):
                b.edge(src, attr, b.node(f"UNKNOWN {i}"))
            group.add(0, "attributes" + (" via an intermediate node" if via else ""), b.build())
        return group
    relation = anchor.qualifier if anchor.qualifier and anchor.qualifier.lower() not in NAMING else "UNKNOWN relation 1"
    typed = [True, False] if asked else [False]
    for use_type, via in itertools.product(typed, (False, True)):
        b = _Builder()
        center = b.node(f"UNKNOWN {asked} 1" if use_type else "UNKNOWN 1")
        a = b.node(anchor.text)
        if via:
            mid = b.node("UNKNOWN 9")
            b.edge(center, "UNKNOWN relation 9", mid)
            b.edge(mid, relation, a)
        else:
            b.edge(center, relation, a)
        group.add(
            0 if use_type or not asked else 1,
            ("typed " if use_type else "") + ("two-hop" if via else "one-hop"),
            b.build(),
        )
    return group


def _star(anchors: list[Component], attributes: list[str], asked: str | None) -> PatternGroup:
    """Several anchors: a star around the asked node; relaxed variants reach some anchors via an
    unknown intermediate node, then drop the attributes, then the type."""
    group = PatternGroup()
    typed = [True, False] if asked else [False]
    subsets = [s for r in range(len(anchors) + 1) for s in itertools.combinations(range(len(anchors)), r)]
    tiers = list(itertools.product(typed, (True, False) if attributes else (False,)))
    for tier, (use_type, with_attrs) in enumerate(tiers):
        for via in subsets:
            b = _Builder()
            center = b.node(f"UNKNOWN {asked} 1" if use_type else "UNKNOWN 1")
            for i, anchor in enumerate(anchors):
                relation = anchor.qualifier or f"UNKNOWN relation {i + 2}"
                node = b.node(anchor.text)
                if i in via:
                    mid = b.node(f"UNKNOWN {i + 10}")
                    b.edge(center, f"UNKNOWN relation {i + 10}", mid)
                    b.edge(mid, relation, node)
                else:
                    b.edge(center, relation, node)
            if with_attrs:
                for j, attr in enumerate(attributes):
                    b.edge(center, attr, b.node(f"UNKNOWN {j + 20}"))
            desc = f"{'typed ' if use_type else ''}star, {len(via)} anchor(s) two-hop" + (
                "" if with_attrs else ", no attributes"
            )
            group.add(tier, desc, b.build())
            if sum(len(t) for t in group.tiers) >= MAX_VARIANTS:
                return group
    return group


class _Builder:
    """Collects nodes (same text, same node) and edges, then builds a valid pattern."""

    def __init__(self) -> None:
        self.nodes: list[PatternNode] = []
        self.by_text: dict[str, int] = {}
        self.edges: list[PatternEdge] = []

    def node(self, text: str) -> int:
        key = " ".join(text.lower().split())
        if key not in self.by_text:
            hint = unknown_hint(text)
            self.by_text[key] = len(self.nodes)
            self.nodes.append(PatternNode(text.strip(), hint is None, hint or ""))
        return self.by_text[key]

    def edge(self, head: int, relation: str, tail: int) -> None:
        if head == tail or any({e.head, e.tail} == {head, tail} for e in self.edges):
            return
        self.edges.append(PatternEdge(head, relation.strip(), tail, unknown_hint(relation) is None))

    def build(self) -> Pattern:
        if not self.edges:
            raise ReplyFormatError("the pattern has no usable triple")
        parts = self._components()
        best = max(parts, key=lambda p: (sum(self.nodes[i].known for i in p), -min(p)))
        if not any(self.nodes[i].known for i in best):
            raise ReplyFormatError("the pattern names no known entity to start from")
        index = {old: new for new, old in enumerate(sorted(best))}
        nodes = tuple(self.nodes[i] for i in sorted(best))
        edges = tuple(
            PatternEdge(index[e.head], e.relation, index[e.tail], e.known) for e in self.edges if e.head in index
        )
        return Pattern(nodes, edges)

    def _components(self) -> list[set[int]]:
        parent = list(range(len(self.nodes)))

        def find(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for e in self.edges:
            parent[find(e.head)] = find(e.tail)
        groups: dict[int, set[int]] = {}
        for i in range(len(self.nodes)):
            if any(i in (e.head, e.tail) for e in self.edges):
                groups.setdefault(find(i), set()).add(i)
        return list(groups.values())


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss") and len(word) > 3:
        return word[:-1]
    return word


def _same_kind(text: str, asked: str | None) -> bool:
    if not asked:
        return False
    words = " ".join(_singular(w) for w in text.lower().split())
    return words == asked or words.endswith(" " + asked) and len(words.split()) <= 2
