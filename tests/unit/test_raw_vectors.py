"""Kùzu's BLOB copy of the embeddings, float32 or float16 (KGQA_HALF_VECTORS), read back as float32."""

from __future__ import annotations

import numpy as np

from kgqa.vectorstores.kuzu_store import text_table
from kgqa.vectorstores.raw import raw_matrix, raw_vector


def _unit(rows: int, dim: int = 384, seed: int = 0) -> np.ndarray:
    m = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def test_both_precisions_read_back_as_float32():
    m = _unit(5)
    full = [r.astype("<f4").tobytes() for r in m]
    half = [r.astype("<f2").tobytes() for r in m]
    assert len(half[0]) == len(full[0]) // 2
    assert np.array_equal(raw_matrix(full), m)
    back = raw_matrix(half)
    assert back.dtype == np.float32 and back.shape == m.shape
    assert np.abs(back - m).max() < 1e-3  # float16 keeps about 3 decimal digits of a unit vector's entries
    mixed = raw_matrix([full[0], half[1], full[2]])  # an index built with one setting, updated with the other
    assert np.array_equal(mixed[0], m[0]) and np.abs(mixed[1] - m[1]).max() < 1e-3
    assert np.array_equal(raw_vector(full[3]), m[3])
    assert raw_matrix([]).shape == (0, 0)


def test_the_table_writes_the_chosen_precision():
    m = _unit(2, dim=8)
    texts = {"h1": ("a", m[0]), "h2": ("b", m[1])}
    assert len(text_table(texts, 8).column("raw")[0].as_py()) == 32
    half = text_table(texts, 8, half=True)
    assert len(half.column("raw")[0].as_py()) == 16
    assert half.column("embedding").type.list_size == 8  # the indexed column stays float32
