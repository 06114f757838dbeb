"""Copy a HubLink index from one HubVector store to another (e.g. Kùzu -> Postgres) without
re-embedding: texts travel with their stored embeddings. Incremental like the builder: only hubs
whose signature differs are copied, hubs the source no longer has are removed."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from kgqa.errors import ConfigError, IndexMismatchError, IndexMissingError
from kgqa.indexing.metadata import check_compatible, read_info, write_info
from kgqa.progress import ProgressFn, no_progress
from kgqa.vectorstores.base import HubVectorStore, IndexCounts


@dataclass
class SyncReport:
    """What one `index sync` did."""

    source: str
    target: str
    hubs_copied: int = 0
    hubs_unchanged: int = 0
    hubs_removed: int = 0
    paths_written: int = 0
    vectors_written: int = 0
    texts_copied: int = 0
    texts_reused: int = 0
    texts_embedded: int = 0  # always 0: a sync never runs the embedding model
    counts: IndexCounts = field(default_factory=lambda: IndexCounts(0, 0, 0, 0))
    seconds: float = 0.0

    @property
    def nothing_to_do(self) -> bool:
        """True when the target already matched the source."""
        return self.hubs_copied == 0 and self.hubs_removed == 0


def sync_index(
    source: HubVectorStore,
    target: HubVectorStore,
    *,
    rebuild: bool = False,
    batch_size: int = 200,
    on_progress: ProgressFn = no_progress,
    confirm: Callable[[IndexCounts, int], None] | None = None,
) -> SyncReport:
    """Make `target` hold the same hubs, paths, HubVectors and embeddings as `source`. Before
    anything is written, `confirm(target counts, hubs to remove)` is called when the sync would
    remove hubs from the target (all of them with `rebuild`); it raises to stop the sync."""
    if source is target or (source.name == target.name and source.name == "kuzu"):
        raise ConfigError("the source and the target of a sync must be different stores")
    started = time.perf_counter()
    info = read_info(source)
    if info is None or not source.ready():
        raise IndexMissingError(f"no HubLink index in the {source.name} store to copy; run `kgqa index build` first")
    have = read_info(target)
    if have is not None and not rebuild:
        try:
            check_compatible(replace(have, status="complete"), info.embedding_model, info.dim)
        except IndexMismatchError as exc:
            raise IndexMismatchError(
                f"the {target.name} store holds another index: {exc}; "
                "to replace it, run `kgqa index sync` with --rebuild"
            ) from None
    if confirm is not None and have is not None and target.ready():
        held = target.signatures()
        removing = len(held) if rebuild else len(set(held) - set(source.signatures()))
        if removing:
            confirm(target.counts(), removing)
    if rebuild:
        target.drop()
    target.ensure_schema(info.dim)
    write_info(target, replace(info, status="building"))
    report = SyncReport(source.name, target.name)
    _copy_texts(source, target, report, batch_size * 25)
    wanted = source.signatures()
    stored = target.signatures() if not rebuild else {}
    todo = sorted(h for h, sig in wanted.items() if stored.get(h) != sig)
    report.hubs_unchanged = len(wanted) - len(todo)
    for i in range(0, len(todo), batch_size):
        hubs = source.hub_records(todo[i : i + batch_size])
        needed = list(dict.fromkeys(th for h in hubs for p in h.paths for _, th in p.vectors))
        present = target.existing_texts(needed)
        texts = source.embeddings([th for th in needed if th not in present])  # normally none left
        report.vectors_written += target.replace_hubs(hubs, texts)
        report.hubs_copied += len(hubs)
        report.paths_written += sum(len(h.paths) for h in hubs)
        report.texts_copied += len(texts)
        on_progress("hubs", min(i + batch_size, len(todo)), len(todo))
    stale = sorted(set(stored) - set(wanted))
    target.remove_hubs(stale)
    target.collect_garbage()
    target.ensure_ann_index()
    report.hubs_removed = len(stale)
    report.counts = target.counts()
    report.seconds = time.perf_counter() - started
    c = report.counts
    write_info(
        target,
        replace(
            info,
            status="complete",
            stats=dict(
                info.stats,
                hubs=c.hubs,
                paths=c.paths,
                vectors=c.vectors,
                texts=c.texts,
                synced_from=source.name,
                last_sync_seconds=round(report.seconds, 3),
                last_sync_copied=report.hubs_copied,
            ),
        ),
    )
    return report


def _copy_texts(source: HubVectorStore, target: HubVectorStore, report: SyncReport, chunk: int) -> None:
    """Copy the texts the target lacks, with their embeddings, in the source's storage order (so ties
    between a path's vectors resolve alike in both stores)."""
    hashes = source.text_hashes()
    for i in range(0, len(hashes), chunk):
        part = hashes[i : i + chunk]
        present = target.existing_texts(part)
        missing = [th for th in part if th not in present]
        fetched = source.embeddings(missing)
        texts = {th: fetched[th] for th in missing if th in fetched}
        if texts:
            target.replace_hubs([], texts)
        report.texts_copied += len(texts)
        report.texts_reused += len(present)
