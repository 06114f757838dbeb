"""Bounded expansion of the direct strategy's ANN hits to hubs.

An embedded text is stored once and shared by every hub path that contains it. A title belongs to
one hub; a venue, an author or a predicate ("published in") to hundreds or thousands, and their
number grows with the graph. Expanding such a text to all its hubs costs time in proportion to the
graph and cannot tell hubs apart: every hub that has it gets the same similarity.

So each hit text's fan-out (how many hubs embed it) is counted in the store and read with at most
`limit` of its hubs (one row per text, however many hubs share it), and kept per workspace: a shared
text that recurs question after question is read once. Texts within the limit are expanded to their hubs as before. A text above it
(shared) is not expanded: its similarity is a floor that every candidate hub is given for that query
vector, as almost every hub would have been given it by the full expansion. Only when the specific
texts name fewer hubs than the budget are the shared texts' first hubs (by id) added."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from kgqa.vectorstores.base import HubVectorStore

#: Texts embedded by more hubs than this are not expanded to their hubs (see the module docstring).
DEFAULT_TEXT_HUB_LIMIT = 100

_MAX_CACHED = 200_000  # texts whose fan-out is kept per workspace


@dataclass(frozen=True)
class TextHubs:
    """How many hubs embed a text, and its hubs: all of them when they are within the limit they were
    read with, else the first `limit` by id."""

    fanout: int
    hubs: tuple[str, ...]


class TextHubCache:
    """Each text's fan-out and bounded hub list, read from the store on first use and kept until
    `forget()` (the workspace forgets after every change to the index). Shared texts (venues,
    predicates) recur question after question; their expansion is read once."""

    def __init__(self, vstore: HubVectorStore) -> None:
        self.vstore = vstore
        self._known: dict[tuple[str, int], TextHubs] = {}

    def forget(self) -> None:
        """Drop what was read (the index changed)."""
        self._known.clear()

    def get(self, text_hashes: Sequence[str], limit: int) -> dict[str, TextHubs]:
        """The fan-out and hubs (at most `limit`) of each text that some hub embeds."""
        if len(self._known) > _MAX_CACHED:
            self.forget()
        found = {h: r for h in text_hashes if (r := self._known.get((h, limit))) is not None}
        missing = [h for h in dict.fromkeys(text_hashes) if h not in found]
        if missing:
            for text_hash, (fanout, hubs) in self.vstore.text_hubs(missing, limit).items():
                found[text_hash] = self._known[(text_hash, limit)] = TextHubs(fanout, tuple(sorted(hubs)))
        return found


def rank_hubs(
    hit_sims: Mapping[str, Sequence[float]], text_hubs: Mapping[str, TextHubs], limit: int, budget: int
) -> list[str]:
    """The `budget` hubs to score exactly, best first: each hub's score is the sum over query vectors
    of its best hit, where a shared text's similarity (fan-out above `limit`) counts for every hub.
    Ties by hub id. Hubs reached only through shared texts fill what is left of the budget."""
    n_queries = len(next(iter(hit_sims.values()), ()))
    floor = [0.0] * n_queries
    best: dict[str, list[float]] = {}
    shared: list[str] = []
    for text_hash, sims in hit_sims.items():
        found = text_hubs.get(text_hash)
        if found is None:
            continue
        if found.fanout > limit:
            shared.append(text_hash)
            floor = [max(f, s) for f, s in zip(floor, sims)]
            continue
        for hub in found.hubs:
            row = best.setdefault(hub, [0.0] * n_queries)
            for qi, s in enumerate(sims):
                if s > row[qi]:
                    row[qi] = s
    scores = {hub: sum(max(b, f) for b, f in zip(row, floor)) for hub, row in best.items()}
    ranked = sorted(scores, key=lambda h: (-scores[h], h))[:budget]
    if len(ranked) < budget:
        chosen = set(ranked)
        for text_hash in sorted(shared, key=lambda th: (-sum(hit_sims[th]), th)):
            for hub in text_hubs[text_hash].hubs:
                if len(ranked) >= budget:
                    return ranked
                if hub not in chosen:
                    chosen.add(hub)
                    ranked.append(hub)
    return ranked
