"""Coverage scoring, an offline alternative to the thesis's best-match path score.

A question with components asks for several things at once (a title and a property, a venue and a
year). The thesis scores a path by its single best match, so a path matching only the title ties with
one matching the title and the property. Coverage instead averages, over the components, the best
similarity any text of the path (or of the whole hub) reaches for that component:

    path_coverage(p) = mean_c max_{x in texts(p)} sim(c, x)
    hub_coverage(h)  = mean_c max_{x in texts(h)} sim(c, x)

so a hub that covers every component outranks one that covers a single component perfectly. The fact
a path carries sits at its end (paths run from the hub root to a leaf), so a path contributes its last
triple: the paths that cover the hub best, and for each component the path that matches it best (a
question with several constraints needs the fact behind each). Without components the question
embedding is the only "component"."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def component_indices(n_vectors: int) -> list[int]:
    """Which query vectors count as components: 1.. when components exist, else the question (0)."""
    return list(range(1, n_vectors)) or [0]


def best_per_component(text_sims: Iterable[Sequence[float]], components: list[int]) -> tuple[float, ...]:
    """For each component, the best similarity among the given texts' similarity vectors."""
    best = [0.0] * len(components)
    for sims in text_sims:
        for k, ci in enumerate(components):
            if ci < len(sims) and sims[ci] > best[k]:
                best[k] = sims[ci]
    return tuple(best)


def coverage(text_sims: Iterable[Sequence[float]], components: list[int]) -> float:
    """Mean over components of the best similarity among the given texts' similarity vectors."""
    best = best_per_component(text_sims, components)
    return sum(best) / len(best) if best else 0.0
