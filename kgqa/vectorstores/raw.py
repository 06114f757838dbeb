"""The BLOB copy of a Kùzu-stored embedding (`EmbeddedText.raw`, read in bulk for exact scoring): float32,
or float16 (half the bytes) when written with KGQA_HALF_VECTORS. The FLOAT[dim] column the HNSW index
needs stays float32 (Kùzu 0.11.3's vector index takes FLOAT and DOUBLE arrays only)."""

from __future__ import annotations

import numpy as np


def raw_vector(raw: bytes) -> np.ndarray:
    """One embedding from its BLOB copy (see `raw_matrix`)."""
    return raw_matrix([raw])[0]


def raw_matrix(raws: list[bytes]) -> np.ndarray:
    """Embeddings from their BLOB copies as one float32 matrix. The vectors are unit length, so the dtype
    under which a copy has norm 1 is its own. Rows may mix both (an index built before the setting,
    updated after it)."""
    if not raws:
        return np.zeros((0, 0), np.float32)
    groups: dict[int, list[int]] = {}
    for i, r in enumerate(raws):
        groups.setdefault(len(r), []).append(i)
    parts = {size: _decode([raws[i] for i in rows]) for size, rows in groups.items()}
    if len(parts) == 1:
        return next(iter(parts.values()))
    width = max(p.shape[1] for p in parts.values())
    out = np.zeros((len(raws), width), np.float32)
    for size, rows in groups.items():
        out[rows] = parts[size]
    return out


def _decode(raws: list[bytes]) -> np.ndarray:
    """Same-length BLOB copies as float32 rows."""
    first = np.frombuffer(raws[0], dtype="<f4") if len(raws[0]) % 4 == 0 else None
    single = first is not None and abs(float(np.dot(first, first)) - 1.0) < 1e-2
    flat = np.frombuffer(b"".join(raws), dtype="<f4" if single else "<f2")
    return flat.reshape(len(raws), -1).astype(np.float32)
