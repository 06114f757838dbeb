"""The memory ceiling's arithmetic (kgqa/memory.py): parsing, the default, the page cache's share, and
the estimates that refuse a build whose write batches or HNSW step cannot fit."""

from __future__ import annotations

import functools
import os
import re

import pytest

from kgqa.config import Settings
from kgqa.errors import ConfigError
from kgqa.graph.buffer_pool import WRITE_HEADROOM, buffer_pool_bytes
from kgqa.memory import (
    GIB,
    HNSW_RESERVE,
    MIB,
    MIN_POOL,
    NODE_GROUP,
    PROCESS_RESERVE,
    MemoryCeiling,
    MemoryCeilingError,
    batch_bytes,
    build_need,
    check_build,
    check_writes,
    hnsw_bytes,
    hnsw_fits,
    hnsw_plan,
    parse_size,
    write_bytes,
    write_fits,
    write_pool_need,
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


def _asked(error: pytest.ExceptionInfo) -> MemoryCeiling:
    """The ceiling a refusal asks for."""
    mib = re.search(r"at least ([\d,]+) MiB", str(error.value)).group(1)
    return MemoryCeiling(int(mib.replace(",", "")) * MIB, "KGQA_MEMORY")


def test_a_build_that_cannot_fit_is_refused_naming_the_setting():
    small = MemoryCeiling(1024 * MIB, "KGQA_MEMORY=1G")
    batch = batch_bytes(200, 384)
    with pytest.raises(MemoryCeilingError, match=r"KGQA_MEMORY=1G.*at least [\d,]+ MiB.*nothing was written") as err:
        check_build(small, small.hnsw_pool_bytes, 2_000_000, 384, 32, 16, batch=batch)
    enough = _asked(err)
    check_build(enough, enough.hnsw_pool_bytes, 2_000_000, 384, 32, 16, batch=batch)  # what it asks for is enough
    assert enough.bytes >= PROCESS_RESERVE + MIN_POOL  # and leaves the batches their smallest page cache
    default = MemoryCeiling(3 * GIB, "the default")
    check_build(default, default.hnsw_pool_bytes, 1_000_000, 384, 32, 16, batch=batch)  # 10^6 triples fit it
    # the HNSW step alone: a page cache that holds the batches but not the step
    with pytest.raises(MemoryCeilingError, match="HNSW index needs") as err:
        check_build(small, small.pool_bytes, 2_000_000, 384, 32, 16, write_pool=GIB)
    assert build_need(4_000_000, 384, 32, 16) > build_need(1_000, 384, 32, 16)


def test_the_write_batches_need_what_kuzus_checkpoint_rewrites():
    """`write_bytes` against Kùzu 0.11.3 (bench/write_batches.py --scale 0, 200-hub batches of 6,200 new
    texts): in the 256 MiB page cache of a 1 GiB ceiling the batch that takes the texts past 87,381
    (128 MiB of float32 vectors in the table's last node group) fails; in 454 MiB 26 batches pass."""
    batch = batch_bytes(200, 384)
    assert 15 * MIB < batch < 25 * MIB  # about what the log holds of one batch
    assert not write_fits(256 * MIB, 86_800 + 6_200, 384, batch)
    assert write_fits(454 * MIB, NODE_GROUP, 384, batch)
    assert write_fits(256 * MIB, 40_000, 384, batch)  # with 64 MiB of vectors there the smallest cache does
    # what a table's last node group holds is bounded, so the need stops growing
    assert write_pool_need(10**7, 384, batch) == write_pool_need(NODE_GROUP, 384, batch) <= 454 * MIB
    assert write_pool_need(1_000, 384, batch) == MIN_POOL
    # the one-table check (6,400-row commits, checkpoint at every commit): fails past 87,381 rows in
    # 256 MiB, passes to 140,000 in 336 MiB
    assert write_bytes(89_600, 384, MIB, 15 * MIB) > 256 * MIB
    assert write_bytes(NODE_GROUP, 384, MIB, 15 * MIB) <= 336 * MIB
    assert write_pool_need(NODE_GROUP, 768, batch) > write_pool_need(NODE_GROUP, 384, batch)  # wider vectors


def test_an_update_is_checked_against_the_last_node_group_it_grows():
    small = MemoryCeiling(1024 * MIB, "KGQA_MEMORY=1G")
    batch = batch_bytes(200, 384)
    check_writes(small, small.pool_bytes, 159_858, 384, batch, 6_200)  # 10^5: 28,786 texts in the last group
    with pytest.raises(MemoryCeilingError, match=r"update this index.*1,533,755 texts.*at least [\d,]+ MiB") as err:
        check_writes(small, small.pool_bytes, 1_533_755, 384, batch, 6_200)  # 10^6: 91,963 there
    enough = _asked(err)
    check_writes(enough, enough.pool_bytes, 1_533_755, 384, batch, 6_200)


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
    assert plan(build, step, 3_000_000) == (step, False)  # read from their pages there, in all of it
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


def test_settle_heap_freezes_what_lives_now_and_collects_young_objects_less_often():
    import gc

    from kgqa.memory import SERVICE_GC_THRESHOLD, settle_heap

    threshold = gc.get_threshold()
    kept = [object() for _ in range(3)]  # noqa: F841 - alive across the call
    try:
        settle_heap()
        assert gc.get_freeze_count() > 0 and gc.get_threshold()[0] == SERVICE_GC_THRESHOLD
        frozen = gc.get_freeze_count()
        settle_heap()  # again (a service reopening its workspaces): unfrozen, collected, frozen anew
        assert 0 < gc.get_freeze_count() <= frozen + 1000
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
