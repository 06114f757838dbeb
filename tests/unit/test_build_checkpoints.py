"""How much write-ahead log a build lets Kùzu hold between checkpoints (kgqa/memory.py)."""

from __future__ import annotations

from kgqa.memory import BUILD_CHECKPOINT_CAP, KUZU_CHECKPOINT_BYTES, MIB, build_checkpoint_bytes


def test_an_eighth_of_the_page_cache_within_kuzus_default_and_the_cap():
    assert build_checkpoint_bytes(2304 * MIB) == BUILD_CHECKPOINT_CAP  # the default ceiling's cache
    assert build_checkpoint_bytes(1024 * MIB) == 128 * MIB
    assert build_checkpoint_bytes(256 * MIB) == 32 * MIB  # the smallest cache a ceiling gives
    assert build_checkpoint_bytes(64 * MIB) == KUZU_CHECKPOINT_BYTES
    assert build_checkpoint_bytes(0) == KUZU_CHECKPOINT_BYTES
