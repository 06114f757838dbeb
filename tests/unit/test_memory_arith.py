"""The memory ceiling's arithmetic (kgqa/memory.py): parsing, the default, the page cache's share, and
the estimate that refuses a build whose HNSW step cannot fit."""

from __future__ import annotations

import pytest

from kgqa.config import Settings
from kgqa.errors import ConfigError
from kgqa.graph.buffer_pool import WRITE_HEADROOM, buffer_pool_bytes
from kgqa.memory import (
    GIB,
    MIB,
    PROCESS_RESERVE,
    MemoryCeiling,
    MemoryCeilingError,
    build_need,
    check_build,
    hnsw_fits,
    parse_size,
)


def test_sizes_parse_with_units_and_refuse_the_rest():
    assert parse_size("3G") == 3 * GIB
    assert parse_size("1.5GiB") == int(1.5 * GIB)
    assert parse_size("2048M") == parse_size("2048") == 2 * GIB
    with pytest.raises(ConfigError, match="KGQA_MEMORY must be a size"):
        parse_size("lots")
    with pytest.raises(MemoryCeilingError, match="--memory=100M is below the smallest ceiling"):
        parse_size("100M", "--memory")


def test_the_default_is_a_share_of_the_machine():
    assert MemoryCeiling.default(total=24 * GIB).bytes == 3 * GIB  # min(3 GiB, 40 %)
    assert MemoryCeiling.default(total=4 * GIB).bytes == int(0.4 * 4 * GIB)
    assert MemoryCeiling.default(total=1 * GIB).bytes == PROCESS_RESERVE + 256 * MIB  # never under the smallest


def test_settings_read_the_option_then_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("KGQA_MEMORY", "2G")
    assert Settings.from_env(tmp_path / "g.kuzu").memory == MemoryCeiling(2 * GIB, "KGQA_MEMORY=2G")
    assert Settings.from_env(tmp_path / "g.kuzu", memory="1536M").memory.bytes == 1536 * MIB
    monkeypatch.setenv("KGQA_MEMORY", "x")
    with pytest.raises(ConfigError, match="KGQA_MEMORY"):
        Settings.from_env(tmp_path / "g.kuzu")


def test_the_page_cache_stays_under_its_share(tmp_path):
    db = tmp_path / "g.kuzu"
    db.write_bytes(b"\0" * (4 * MIB))
    plenty = 64 * GIB
    ceiling = MemoryCeiling(1536 * MIB, "KGQA_MEMORY=1536M")
    assert ceiling.pool_bytes == 1536 * MIB - PROCESS_RESERVE
    assert buffer_pool_bytes(db, available=plenty) == 8 * MIB + WRITE_HEADROOM  # uncapped: sized from the file
    assert buffer_pool_bytes(db, available=plenty, cap=ceiling.pool_bytes) == ceiling.pool_bytes


def test_the_hnsw_step_keeps_its_vectors_in_the_cache_only_when_they_fit():
    dim, ml, mu = 384, 32, 16
    assert hnsw_fits(2 * GIB, 100_000, dim, ml, mu) is True  # 10^5 texts: 0.2 GiB with their vectors
    assert hnsw_fits(2 * GIB, 1_530_000, dim, ml, mu) is False  # 10^6 triples' texts: read from their pages
    assert hnsw_fits(256 * MIB, 1_530_000, dim, ml, mu) is None


def test_a_build_that_cannot_fit_is_refused_naming_the_setting():
    small = MemoryCeiling(1024 * MIB, "KGQA_MEMORY=1G")
    with pytest.raises(MemoryCeilingError, match=r"KGQA_MEMORY=1G.*at least [\d,]+ MiB.*nothing was written"):
        check_build(small, small.pool_bytes, 1_000_000, 384, 32, 16)
    default = MemoryCeiling(3 * GIB, "the default")
    check_build(default, default.pool_bytes, 1_000_000, 384, 32, 16)  # 10^6 triples fit the default
    need = build_need(2_000_000, 384, 32, 16)
    enough = MemoryCeiling(need, "KGQA_MEMORY")
    check_build(enough, enough.pool_bytes, 1_000_000, 384, 32, 16)  # what the refusal asks for is enough
