"""When to read rows one primary key at a time instead of with one query over a list of keys.

Kùzu 0.11.3 plans `WHERE key IN $list` (and `UNWIND $list ... {key: x}`) as a scan of the whole table,
which grows with the graph or the index, while a query per key costs about the same at any size. Both
the graph store (`GraphStore.by_key`) and the Kùzu index store weigh the two with this one rule; the
per-row and per-key costs are measured in bench/results/lookups.md and docs/scale.md.
"""

from __future__ import annotations


def cheaper_by_key(keys: int, per_key_s: float, rows: int, scan_row_s: float) -> bool:
    """Whether `keys` single-key queries of `per_key_s` seconds each cost less than one scan of a
    table of `rows` rows at `scan_row_s` seconds a row."""
    return keys * per_key_s < rows * scan_row_s
