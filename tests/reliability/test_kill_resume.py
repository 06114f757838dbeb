"""SIGKILL during `kgqa load` and `kgqa index sync` (real processes, killed at chosen lines of
their --trace output), then the command run again: the result equals a clean, uninterrupted run.
`index build` and `index update` are killed the same way in tests/integration/test_crash_safety.py,
whose helpers (tests/index_checks.py) these tests use."""

from __future__ import annotations

import psycopg
import pytest
from index_checks import kgqa_run, kill_when
from psycopg import sql
from reliability_state import copy_db, kuzu_state, pg_state

from kgqa.postgres.database import with_database

pytestmark = pytest.mark.slow


def big_csv(path, papers: int = 6000) -> None:
    """Two triples per new paper: enough records for three write batches of one load."""
    rows = ["subject,predicate,object,subject_label,subject_types,object_label,object_types,object_is_literal"]
    for i in range(papers):
        rows.append(f"N{i},venue,V{i % 2 + 1},New paper {i},Paper,,,false")
        rows.append(f"N{i},publication year,{2000 + i % 20},New paper {i},Paper,,,true")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def test_kill_load_then_resume_equals_a_clean_load(base, tmp_path):
    big_csv(tmp_path / "big.csv")
    clean = copy_db(base.db, tmp_path / "clean")
    done = kgqa_run(clean, "load", str(tmp_path / "big.csv"))
    assert done.returncode == 0, done.stderr
    reference = kuzu_state(clean)
    assert reference.counts[1] == base.state.counts[1] + 12_000 and reference.counts[6] > 0  # marks dirty hubs

    db = copy_db(base.db, tmp_path / "killed")
    # inside the load's one transaction (after its second batch of triples): nothing of it stays
    kill_when(
        db,
        ["load", str(tmp_path / "big.csv")],
        lambda line, lines: (
            line.startswith("[trace] graph/insert_triples")
            and sum(x.startswith("[trace] graph/insert_triples") for x in lines) == 2
        ),
    )
    assert kuzu_state(db) == base.state
    # right after its COMMIT: all of it stays
    kill_when(db, ["load", str(tmp_path / "big.csv")], lambda line, lines: line.startswith("[trace] COMMIT"))
    assert kuzu_state(db) == reference
    # run again: adds nothing, equals the clean load
    again = kgqa_run(db, "load", str(tmp_path / "big.csv"))
    assert again.returncode == 0 and "+0 triples" in again.stdout, again.stdout + again.stderr
    assert kuzu_state(db) == reference


def _fresh_database(server: str, name: str) -> str:
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return with_database(server, name)


def _index_only(state):
    """Counts and content of a pgvector index, without the metadata's timings."""
    return state.counts, state.index


def _status(dsn: str) -> str:
    with psycopg.connect(dsn) as conn:
        schemas = [
            r[0]
            for r in conn.execute(
                "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'kgqa\\_%' "
                "AND to_regclass(quote_ident(nspname) || '.meta') IS NOT NULL"
            )
        ]
        if not schemas:
            return "none"
        assert len(schemas) == 1, schemas  # one graph synced here: one index
        row = conn.execute(
            sql.SQL("SELECT value->>'status' FROM {}.meta WHERE key = 'hub_index'").format(sql.Identifier(schemas[0]))
        ).fetchone()
    return row[0] if row else "none"


@pytest.mark.postgres
def test_kill_sync_then_resume_equals_a_clean_sync_then_drop(base, tmp_path, pg_server):
    db = copy_db(base.db, tmp_path / "db")
    clean = _fresh_database(pg_server, "reliability_sync_clean")
    done = kgqa_run(db, "index", "sync", "--to", "pgvector", "--pg-dsn", clean)
    assert done.returncode == 0, done.stderr
    reference = pg_state(clean)
    assert reference.counts[2] == base.state.counts[2]

    target = _fresh_database(pg_server, "reliability_sync_killed")
    sync = ["index", "sync", "--to", "pgvector", "--pg-dsn", target]
    # (a) after the texts were copied (their own transaction), before any hub
    kill_when(db, sync, lambda line, lines: any(x.startswith("[trace] sql/copy_texts") for x in lines[:-1]))
    assert _status(target) == "building"
    # (b) inside the hubs' transaction (paths copied, vectors not yet): rolled back as a whole
    kill_when(db, sync, lambda line, lines: line.startswith("[trace] sql/copy_paths"))
    assert _status(target) == "building"
    partial = pg_state(target)
    assert partial.counts[2] in (0, reference.counts[2])
    # run again: finishes the job, equals the clean sync; a third run copies nothing
    again = kgqa_run(db, *sync)
    assert again.returncode == 0, again.stderr
    assert _index_only(pg_state(target)) == _index_only(reference) and _status(target) == "complete"
    third = kgqa_run(db, *sync)
    assert third.returncode == 0 and "nothing copied" in third.stdout, third.stdout + third.stderr
    assert kuzu_state(db) == base.state  # the source never changes
    # and `index drop --yes` empties the pgvector store, leaving "no index"
    dropped = kgqa_run(db, "index", "drop", "--store", "pgvector", "--pg-dsn", target, "--yes")
    assert dropped.returncode == 0 and f"dropped the pgvector index: {reference.counts[2]} hubs" in dropped.stdout, (
        dropped.stdout + dropped.stderr
    )
    assert pg_state(target).counts[2:6] == (0, 0, 0, 0)
    status = kgqa_run(db, "index", "status", "--store", "pgvector", "--pg-dsn", target)
    assert status.returncode == 0 and "no index yet in the pgvector store" in status.stdout, status.stdout
