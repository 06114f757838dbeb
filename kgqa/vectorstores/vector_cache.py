"""Hub vectors kept in memory across questions while the database cannot change (opened read-only:
Kùzu lets no writer in while it is open), so a warm question reads only hubs it has not seen."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

#: Columns of `retrieval/hub_vectors`: hub, path_hash, level, text, text_hash, raw float32 bytes.
Columns = tuple[list, list, list, list, list, list]


@dataclass
class _HubRows:
    paths: list[str]
    levels: list[str]
    texts: list[str]
    text_hashes: list[str]


class HubVectorCache:
    """Per-hub rows and per-text vectors; dropped whole when it holds more than `limit` rows."""

    def __init__(self, read: Callable[[list[str]], Columns], limit: int = 2_000_000) -> None:
        self._read = read
        self._limit = limit
        self._hubs: dict[str, _HubRows] = {}
        self._raw: dict[str, bytes] = {}
        self._rows = 0

    def columns(self, hub_ids: list[str]) -> Columns:
        """The rows of `hub_ids`, hub by hub in the order given, with each text's vector bytes."""
        missing = [h for h in dict.fromkeys(hub_ids) if h not in self._hubs]
        if missing:
            hubs, paths, levels, texts, text_hashes, raws = self._read(missing)
            if self._rows + len(hubs) > self._limit:
                self._hubs.clear()
                self._raw.clear()
                self._rows = 0
                return self._read(hub_ids)
            fresh = {h: _HubRows([], [], [], []) for h in missing}  # hubs without vectors stay known
            for row in zip(hubs, paths, levels, texts, text_hashes, raws):
                rows = fresh[row[0]]
                rows.paths.append(row[1])
                rows.levels.append(row[2])
                rows.texts.append(row[3])
                rows.text_hashes.append(row[4])
                self._raw.setdefault(row[4], row[5])
            self._hubs.update(fresh)
            self._rows += len(hubs)
        out: Columns = ([], [], [], [], [], [])
        for h in dict.fromkeys(hub_ids):
            rows = self._hubs[h]
            out[0].extend([h] * len(rows.paths))
            out[1].extend(rows.paths)
            out[2].extend(rows.levels)
            out[3].extend(rows.texts)
            out[4].extend(rows.text_hashes)
        out[5].extend(self._raw[th] for th in out[4])
        return out


def stack_vectors(text_hashes: list[str], raws: list[bytes]) -> tuple[dict[str, int], np.ndarray]:
    """Each distinct text's row (first appearance order) and the matrix of their float32 vectors."""
    first: dict[str, int] = {}
    for i, h in enumerate(text_hashes):
        first.setdefault(h, i)
    matrix = np.frombuffer(b"".join(raws[i] for i in first.values()), dtype="<f4").reshape(len(first), -1)
    return {h: j for j, h in enumerate(first)}, matrix
