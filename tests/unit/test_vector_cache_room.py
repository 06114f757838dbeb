"""The hub-vector cache's text matrix grows in place (kgqa/vectorstores/vector_cache.py): scores after
many growths, shared texts and a clear are those of the vectors read, row for row."""

from __future__ import annotations

import zlib

import numpy as np

from kgqa.vectorstores.vector_cache import HubVectorCache

DIM = 8


def _vector(text: str) -> np.ndarray:
    v = np.random.default_rng(zlib.crc32(text.encode())).standard_normal(DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def _texts(hub: str) -> list[str]:
    n = int(hub[1:])
    return [f"t{(n * 97 + i) % 3000}" for i in range(400)]  # hubs share some texts


def _read(ids: list[str]):
    cols: tuple[list, ...] = ([], [], [], [], [], [])
    for hub in ids:
        for i, text in enumerate(_texts(hub)):
            for col, value in zip(cols, (hub, f"{hub}p{i}", "1", text, text, _vector(text).tobytes())):
                col.append(value)
    return cols


def test_scores_stay_those_of_the_vectors_read_while_the_matrix_grows_and_after_a_clear():
    cache = HubVectorCache(_read, limit=6_000)
    queries = np.stack([_vector("q1"), _vector("q2")])
    for start in range(0, 40, 3):  # about 400 new texts a step: the matrix outgrows its room again and again
        hubs = [f"h{start + k}" for k in range(4)]
        scored = cache.score(hubs, queries)
        texts = [t for h in hubs for t in _texts(h)]
        assert scored.texts == texts
        got = scored.sims[scored.text_rows]
        want = np.stack([_vector(t) for t in texts]) @ queries.T
        assert np.array_equal(got, want)
