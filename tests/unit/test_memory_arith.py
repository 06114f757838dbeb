"""The memory ceiling's arithmetic (kgqa/memory.py): parsing, the default, the page cache's share, and
the estimate that refuses a build whose HNSW step cannot fit."""

from __future__ import annotations

import functools
import os

import pytest

from kgqa.config import Settings
from kgqa.errors import ConfigError
from kgqa.graph.buffer_pool import WRITE_HEADROOM, buffer_pool_bytes
from kgqa.memory import (
    GIB,
    HNSW_RESERVE,
    MIB,
    PROCESS_RESERVE,
    MemoryCeiling,
    MemoryCeilingError,
    build_need,
    check_build,
    hnsw_bytes,
    hnsw_fits,
    hnsw_plan,
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
        check_build(small, small.hnsw_pool_bytes, 2_000_000, 384, 32, 16)
    default = MemoryCeiling(3 * GIB, "the default")
    check_build(default, default.hnsw_pool_bytes, 1_000_000, 384, 32, 16)  # 10^6 triples fit the default
    need = build_need(2_000_000, 384, 32, 16)
    enough = MemoryCeiling(need, "KGQA_MEMORY")
    check_build(enough, enough.hnsw_pool_bytes, 1_000_000, 384, 32, 16)  # what the refusal asks for is enough
    assert need >= PROCESS_RESERVE + 256 * MIB  # and leaves the batches their smallest page cache


def test_the_hnsw_step_may_take_the_room_the_batches_had():
    default = MemoryCeiling(3 * GIB, "the default")
    assert default.hnsw_pool_bytes == 3 * GIB - HNSW_RESERVE > default.pool_bytes
    smallest = MemoryCeiling(PROCESS_RESERVE + 256 * MIB, "KGQA_MEMORY")
    assert smallest.hnsw_pool_bytes >= smallest.pool_bytes
    dim, ml, mu = 384, 32, 16
    build, step = default.pool_bytes, default.hnsw_pool_bytes
    plan = functools.partial(hnsw_plan, dim=dim, ml=ml, mu=mu, threads=2)
    assert plan(build, step, 100_000) == (build, True)  # fits the build's cache: as it is
    assert plan(build, step, 1_533_755) == (step, True)  # the 10^6 run's texts: only the step's cache holds them
    assert plan(build, step, 3_000_000) == (step, False)  # read from their pages there
    assert plan(build, build, 1_533_755) == (build, False)  # a cache that may not change
    assert plan(256 * MIB, 256 * MIB, 3_000_000) == (256 * MIB, None)


def test_the_hnsw_estimate_follows_kuzus_allocations():
    """`hnsw_bytes` against what Kùzu 0.11.3 was measured to need (bench/results/hnsw_step.md: 159,858
    texts made with the vectors cached in a 345 MiB page cache, not in 330 MiB), and its parts."""
    cached = hnsw_bytes(159_858, 384, 32, 16, cached=True, threads=2)
    assert 330 * MIB < cached < 345 * MIB
    streamed = hnsw_bytes(159_858, 384, 32, 16, cached=False, threads=2)
    assert cached - streamed == 159_858 * (384 * 4 + 16)  # the vectors held, float32 and a list entry each
    # the edges written at the end: one node group per thread, so more threads need more
    assert hnsw_bytes(10**6, 384, 32, 16, cached=False, threads=8) > hnsw_bytes(
        10**6, 384, 32, 16, cached=False, threads=2
    )
    assert hnsw_bytes(1_000, 384, 32, 16, cached=False, threads=8) == hnsw_bytes(
        1_000, 384, 32, 16, cached=False, threads=2
    )


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="VmHWM is Linux's")
def test_a_childs_peak_is_its_own_not_its_parents():
    """`peak_rss_bytes` in a new process started by a large one reports the new process's peak (getrusage's
    ru_maxrss would report at least the parent's size at the fork: the benchmarks' steps are children)."""
    import subprocess
    import sys

    ballast = bytearray(400 * MIB)
    ballast[::4096] = b"\1" * len(ballast[::4096])  # resident, page by page
    code = "from kgqa.memory import peak_rss_bytes; print(peak_rss_bytes())"
    peak = int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert 0 < peak < 200 * MIB < len(ballast)
