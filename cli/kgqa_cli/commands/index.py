"""`kgqa index build|update|status|sync|list|drop`: the HubLink index."""

from __future__ import annotations

import json
from dataclasses import replace

import click

from kgqa.config import ENUMERATED_ROOTS, IndexParams
from kgqa.indexing.builder import BuildReport
from kgqa.indexing.label_index import label_index_counts, label_index_status
from kgqa.indexing.parts import HUB_INDEX
from kgqa.llm.registry import PROVIDERS
from kgqa.retrieval.registry import RETRIEVERS, index_parts
from kgqa.vectorstores.base import IndexCounts
from kgqa.vectorstores.registry import STORES
from kgqa_cli.commands.seeds import build_label_index
from kgqa_cli.confirm import confirm_removal, removal_text, yes_option
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import mapping_option, store_options
from kgqa_cli.progress import progress_line
from kgqa_cli.usage import estimate_line, usage_line


def _hub_index_first(name: str) -> tuple[bool, str]:
    """Sort key of the --retriever choices: the retrievers of the hub index first, then by name."""
    return HUB_INDEX not in RETRIEVERS[name].index_parts, name


@click.group()
def index() -> None:
    """Build and inspect the HubLink index."""


#: `index build` and `index update` batch their hubs alike.
hubs_per_batch_option = click.option(
    "--hubs-per-batch",
    type=int,
    default=None,
    metavar="N",
    help=f"Hubs written per transaction (default 200); paths are enumerated for at least {ENUMERATED_ROOTS:,} roots "
    "per query.",
)


@index.command()
@click.option(
    "--hub-type",
    "hub_types",
    multiple=True,
    metavar="T",
    help="Entities of type T are hub roots (repeatable; default: Paper).",
)
@click.option(
    "--min-out-degree",
    type=int,
    default=None,
    metavar="N",
    help="Entities with out-degree >= N are hub roots (degree criterion).",
)
@click.option(
    "--criteria",
    type=click.Choice(["any", "all"]),
    default="any",
    show_default=True,
    help="Combine the type and degree criteria with OR (any) or AND (all).",
)
@click.option(
    "--start",
    "start_ids",
    multiple=True,
    metavar="ID",
    help="Find hub roots by traversal from these entities (repeatable; default: every root).",
)
@click.option(
    "--max-path-length",
    type=int,
    default=None,
    metavar="N",
    help="Longest hub path in triples (default: unlimited, i.e. 30).",
)
@click.option(
    "--max-depth", type=int, default=10, show_default=True, help="Hub levels followed from the start entities."
)
@click.option(
    "--no-boundary-triples",
    is_flag=True,
    help="Drop the triple that reaches another hub root (thesis Alg. 5) instead of ending a path with it.",
)
@click.option(
    "--rebuild",
    "--replace",
    "rebuild",
    is_flag=True,
    help="Drop the index and build it from scratch (a new model, or other parameters); asks first.",
)
@yes_option
@click.option(
    "--llm",
    type=click.Choice(sorted(PROVIDERS)),
    default=None,
    help="Path verbaliser: offline (template sentences) or anthropic (LLM sentences, batched and "
    "cached). Default: the one the index was built with, else offline.",
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Count the hubs, texts and LLM calls/tokens/cost a build would need; write and send nothing.",
)
@hubs_per_batch_option
@click.option(
    "--workers",
    type=int,
    default=None,
    metavar="N",
    help="Share the build among N local worker processes (pgvector store; more may join with "
    "`kgqa index worker`): hub batches are claimed from a queue in Postgres.",
)
@click.option(
    "--lease-seconds",
    type=click.FloatRange(min=1.0),
    default=None,
    metavar="S",
    help="With --workers: how long a worker's batch stays leased without a heartbeat (default 30).",
)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@mapping_option
@click.option(
    "--retriever",
    type=click.Choice(sorted(RETRIEVERS, key=_hub_index_first)),
    default="hublink",
    show_default=True,
    help="Whose index: HubLink's hub index, or the label index of difar "
    "(triple texts), simgrag or coe (entity and predicate labels).",
)
@store_options
@pass_state
def build(
    state: CliState,
    hub_types: tuple[str, ...],
    min_out_degree: int | None,
    criteria: str,
    start_ids: tuple[str, ...],
    max_path_length: int | None,
    max_depth: int,
    no_boundary_triples: bool,
    rebuild: bool,
    yes: bool,
    llm: str | None,
    dry_run: bool,
    hubs_per_batch: int | None,
    workers: int | None,
    lease_seconds: float | None,
    as_json: bool,
    mapping_file: str | None,
    retriever: str,
) -> None:
    """Build the index, or bring it up to date: only hubs whose paths changed are rebuilt."""
    if HUB_INDEX not in index_parts(retriever):  # a label index: the hub options do not apply
        if rebuild:
            with state.open(read_only=True) as ws:
                held = label_index_counts(ws.store)
            texts = held["triple_texts"] + held["label_texts"] + held["predicate_texts"]
            if texts:
                confirm_removal(
                    f"--rebuild drops the label index first: this removes {texts:,} embedded texts "
                    "(triples, entity and predicate labels) of every retriever",
                    yes,
                )
        build_label_index(state, retriever, rebuild=rebuild, as_json=as_json)
        return
    if rebuild and not dry_run:
        with state.open(read_only=True) as ws:
            stored, store = ws.index_status().counts, ws.vstore.name
        if stored.hubs:
            confirm_removal(f"--rebuild drops the index first: this removes {removal_text(stored, store)}", yes)
    if not hub_types and min_out_degree is None:
        hub_types = ("Paper",)
    params = IndexParams(
        hub_types=hub_types,
        min_out_degree=min_out_degree,
        criteria_mode=criteria,
        start_ids=start_ids,
        max_path_length=max_path_length,
        max_indexing_depth=max_depth,
        boundary_triples=not no_boundary_triples,
    )
    if hubs_per_batch is not None:
        params = replace(params, hubs_per_batch=hubs_per_batch)
    if workers is not None:
        report = _build_shared(
            state, params, workers, rebuild=rebuild, llm=llm, dry_run=dry_run, lease_seconds=lease_seconds
        )
    else:
        with state.open() as ws, progress_line(not state.quiet) as progress:
            if mapping_file is not None:
                from kgqa.graph.mapping import MappingFile
                from kgqa.graph.property_layout import use_mapping

                use_mapping(ws.store, MappingFile.read(mapping_file))
            report = ws.build_index(params, rebuild=rebuild, on_progress=progress, llm=llm, dry_run=dry_run)
    show_report(report, as_json)


def _build_shared(
    state: CliState,
    params: IndexParams,
    workers: int,
    *,
    rebuild: bool,
    llm: str | None,
    dry_run: bool,
    lease_seconds: float | None,
) -> BuildReport:
    """`index build --workers N`: the graph opened read-only, the batches built by worker processes."""
    from kgqa.indexing.shared_build import build_shared, check_shared
    from kgqa.postgres.build_queue import LEASE_S

    if workers < 1:
        raise click.BadParameter(f"must be at least 1 (got {workers})", param_hint="--workers")
    if dry_run or (llm not in (None, "offline")):
        raise click.UsageError(
            "--workers builds with the template path texts and writes: leave out --dry-run and --llm"
        )
    with state.open(read_only=True) as ws, progress_line(not state.quiet) as progress:
        check_shared(ws.vstore, params, workers)
        return build_shared(
            ws.store,
            ws.vstore,
            ws.embedder,
            params,
            settings=ws.settings,
            workers=workers,
            rebuild=rebuild,
            on_progress=progress,
            lease_s=lease_seconds or LEASE_S,
        )


@index.command()
@click.option(
    "--lease-seconds",
    type=click.FloatRange(min=1.0),
    default=None,
    metavar="S",
    help="How long a claimed batch stays leased without a heartbeat (default 30).",
)
@store_options
@pass_state
def worker(state: CliState, lease_seconds: float | None) -> None:
    """Work on the shared build of the index (started by `index build --store pgvector --workers N`):
    claim hub batches from its queue in Postgres until none is left. Runs on any machine with the graph
    (opened read-only) and the DSN."""
    from kgqa.indexing.shared_build import work
    from kgqa.postgres.build_queue import LEASE_S

    report = work(state.settings(), lease_s=lease_seconds or LEASE_S)
    state.info(
        f"worker {report.worker}: {report.batches} batches ({report.hubs} hubs) built, "
        f"{report.reclaimed} taken over from workers whose lease ran out"
    )


@index.command()
@click.option(
    "--dirty",
    is_flag=True,
    help="Check only the hubs marked dirty by `kgqa load` / `kgqa triples` (plus new and removed roots); "
    "on your own property graph, whose writes leave no marks, every hub is checked by content hash.",
)
@hubs_per_batch_option
@click.option("--dry-run", is_flag=True, help="Count what the update would rebuild; write nothing.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@store_options
@pass_state
def update(state: CliState, dirty: bool, hubs_per_batch: int | None, dry_run: bool, as_json: bool) -> None:
    """Bring the index in step with the graph, with the parameters it was built with: hubs whose
    path hashes changed are rebuilt, new roots added, hubs whose root disappeared removed."""
    if not dry_run:
        from kgqa_cli.service_writes import running_service

        client = running_service(state.settings().service_path)
        if client is not None:  # a `kgqa serve` holds the database: it updates the index itself
            done = client.index_update(dirty)
            click.echo(
                json.dumps(done, indent=2)
                if as_json
                else f"updated through the service ({done['mode']}): {done['hubs_checked']} hubs checked, "
                f"{done['hubs_rebuilt']} rebuilt ({done['hubs_added']} new), {done['hubs_removed']} removed; "
                f"now {done['hubs']} hubs, {done['paths']} paths"
            )
            return
    with state.open() as ws, progress_line(not state.quiet) as progress:
        report = ws.update_index(dirty=dirty, hubs_per_batch=hubs_per_batch, on_progress=progress, dry_run=dry_run)
    show_report(report, as_json)


def show_report(report: BuildReport, as_json: bool) -> None:
    """Print what a build or update did (or, in a dry run, would do)."""
    if as_json:
        out = dict(report.__dict__, counts=report.counts.__dict__)
        click.echo(json.dumps(out, indent=2, default=str))
        return
    for note in report.notes:
        click.echo(f"note: {note}")
    if report.dry_run:
        click.echo(
            f"dry run: would rebuild {report.hubs_rebuilt} of {report.hubs_checked} hubs "
            f"({report.hubs_unchanged} unchanged, {report.hubs_removed} removed), {report.paths_written} "
            f"paths; about {report.texts_embedded} texts to embed (template texts), "
            f"{report.texts_reused} already embedded"
        )
        _show_ids(report)
        click.echo(estimate_line(report.llm) if report.llm else "path texts: template (offline), 0 LLM tokens")
        click.echo("nothing was written or sent")
        return
    if report.nothing_to_do:
        click.echo(f"index up to date: {report.hubs_checked} hubs checked, nothing rebuilt")
    else:
        click.echo(
            f"rebuilt {report.hubs_rebuilt} of {report.hubs_checked} hubs "
            f"({report.hubs_added} new, {report.hubs_unchanged} unchanged, {report.hubs_removed} removed); "
            f"{report.paths_written} paths, {report.vectors_written} vectors written, "
            f"{report.vectors_deleted} deleted; "
            f"{report.texts_embedded} texts embedded, {report.texts_reused} reused"
        )
        _show_ids(report)
    c = report.counts
    click.echo(
        f"index: {c.hubs} hubs, {c.paths} paths, {c.vectors} vectors, {c.texts} unique texts "
        f"[{report.timings.get('total', 0):.1f}s]"
    )
    if report.llm:
        fallback = report.llm.get("template_fallback_paths", 0)
        click.echo(
            f"path texts: {report.verbaliser}, {usage_line(report.llm)}"
            + (f"; {fallback} paths kept their template text (unusable replies)" if fallback else "")
        )


def _named(hub_id: str, labels: dict[str, str]) -> str:
    """A hub as a user knows it: its label, with its id where the two differ ("Broken Letters (M00001)")."""
    label = labels.get(hub_id)
    return f"{label} ({hub_id})" if label and label != hub_id else hub_id


def _show_ids(report: BuildReport) -> None:
    what = ("would rebuild", "would remove") if report.dry_run else ("rebuilt", "removed")
    for label, ids in zip(what, (report.rebuilt_ids, report.removed_ids)):
        if ids:
            more = f" and {len(ids) - 20} more" if len(ids) > 20 else ""
            click.echo(f"{label}: {', '.join(_named(i, report.hub_labels) for i in ids[:20])}{more}")


@index.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@store_options
@pass_state
def status(state: CliState, as_json: bool) -> None:
    """Show what the index holds and how it was built."""
    with state.open(read_only=True) as ws:  # a reader: it runs beside `kgqa serve`
        st = ws.index_status()
        store = ws.vstore.name
        labels = label_index_status(ws.store)
    data = {
        "store": store,
        "built": st.info is not None,
        "hubs": st.counts.hubs,
        "paths": st.counts.paths,
        "vectors": st.counts.vectors,
        "texts": st.counts.texts,
        "ann_index": st.ann_index,
        "dirty_hubs": st.dirty_hubs,
    }
    if st.info:
        data.update(
            embedding_model=st.info.embedding_model,
            dim=st.info.dim,
            status=st.info.status,
            embedder=st.info.embedder or "torch-fp32",
            params=st.info.params,
            last_build=st.info.stats,
            capped_hubs=st.info.stats.get("capped_hubs", {}),
        )
    data["label_index"] = labels  # the seed retrievers' index (`index build --retriever difar|simgrag|coe`)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    if labels:
        click.echo(
            "label index: "
            + ", ".join(f"{name} {p['texts']} texts" for name, p in labels["parts"].items())
            + f" ({labels['embedding_model']})"
        )
    if not st.info:
        click.echo(f"no index yet in the {store} store: run `kgqa index build`")
        return
    click.echo(
        f"store: {store}\nstatus: {st.info.status}{_unfinished_note(st.info.status, store)}\nhubs: {data['hubs']}\npaths: {data['paths']}\n"
        f"vectors: {data['vectors']}\nunique texts: {data['texts']}\n"
        f"embedding model: {st.info.embedding_model} (dim {st.info.dim}; written by "
        f"{data['embedder']})\n"
        f"ANN index: {'yes' if st.ann_index else 'no'}\n"
        f"dirty hubs: {st.dirty_hubs}"
        + (" (run `kgqa index update --dirty`)" if st.dirty_hubs else "")
        + f"\nparameters: {json.dumps(st.info.params)}"
    )
    if data.get("capped_hubs"):
        capped = data["capped_hubs"]
        click.echo(
            "capped hubs (over the path cap, indexed in part; docs/index-maintenance.md#super-nodes): "
            + ", ".join(f"{h} ({n} paths)" for h, n in capped.items())
        )


def _unfinished_note(status: str, store: str) -> str:
    """What a status other than complete means: in Kùzu no build can run while this command reads (a
    writer locks readers out), so "building" is an interrupted build; in Postgres one may still run."""
    if status == "complete":
        return ""
    if store == "kuzu":
        return (
            " (interrupted: no build runs now; finish it with `kgqa index update`, "
            "or start over with `kgqa index build --rebuild`)"
        )
    return " (a build runs now, or one was interrupted: then `kgqa index update` finishes it)"


@index.command()
@click.option("--to", "target", type=click.Choice(sorted(STORES)), required=True, help="The store to copy into.")
@click.option(
    "--from",
    "source",
    type=click.Choice(sorted(STORES)),
    default="kuzu",
    show_default=True,
    help="The store to copy from.",
)
@click.option(
    "--pg-dsn",
    default=None,
    metavar="DSN",
    help="Postgres DSN of the pgvector store (default: $KGQA_PG_DSN, else `kgqa pg start`'s server).",
)
@click.option(
    "--index",
    "index_name",
    default=None,
    metavar="NAME",
    help="The index's name in Postgres (default: $KGQA_INDEX, else the database file's stem).",
)
@click.option("--rebuild", is_flag=True, help="Empty the target first (e.g. it holds another model's index).")
@yes_option
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@pass_state
def sync(
    state: CliState,
    target: str,
    source: str,
    pg_dsn: str | None,
    index_name: str | None,
    rebuild: bool,
    yes: bool,
    as_json: bool,
) -> None:
    """Copy the index into another store (e.g. Kùzu -> Postgres) without re-embedding anything.
    A sync that would remove hubs from the target says how many and asks first (or needs --yes)."""
    state.store, state.pg_dsn, state.index = source, pg_dsn or state.pg_dsn, index_name or state.index

    def confirm(held: IndexCounts, removing: int) -> None:
        confirm_removal(f"the sync removes {removal_text(held, target, removing)}", yes)

    with state.open() as ws, progress_line(not state.quiet) as progress:
        report = ws.sync_index(target, rebuild=rebuild, on_progress=progress, confirm=confirm)
    if as_json:
        click.echo(json.dumps(dict(report.__dict__, counts=report.counts.__dict__), indent=2))
        return
    if report.nothing_to_do:
        click.echo(f"{target} index up to date: {report.hubs_unchanged} hubs unchanged, nothing copied")
    else:
        click.echo(
            f"copied {report.hubs_copied} hubs from {source} to {target} ({report.hubs_unchanged} unchanged, "
            f"{report.hubs_removed} removed); {report.paths_written} paths, {report.vectors_written} "
            f"vectors, {report.texts_copied} texts with their embeddings (0 embedded)"
        )
    c = report.counts
    click.echo(
        f"{target} index: {c.hubs} hubs, {c.paths} paths, {c.vectors} vectors, {c.texts} unique texts "
        f"[{report.seconds:.1f}s]"
    )


@index.command("list")
@store_options
@click.option("--json", "as_json", is_flag=True, help="Machine-readable list.")
@pass_state
def list_(state: CliState, as_json: bool) -> None:
    """The indexes of the store: Kùzu holds the one index of its database; Postgres holds every named
    index (`--index NAME`), each in its own schema kgqa_<name>."""
    settings = state.settings()
    if settings.store == "pgvector":
        from kgqa.postgres.server import resolve_dsn
        from kgqa.vectorstores.pgvector_store import default_index, named_indexes

        dsn = resolve_dsn(settings)
        rows = [(name, src, counts) for name, src, counts in named_indexes(dsn)]
        default = default_index(dsn)
    else:
        default = None
        with state.open(read_only=True) as ws:
            st = ws.index_status()
            rows = [(settings.index_name, str(settings.db_path), st.counts)] if st.info is not None else []
    if as_json:
        click.echo(
            json.dumps([dict(name=n, db=src, default=n == default, **c.__dict__) for n, src, c in rows], indent=2)
        )
        return
    if not rows:
        click.echo(f"no index in the {settings.store} store")
    for name, src, c in rows:
        shown = f"{name} (default)" if name == default else name
        click.echo(f"{shown}\t{c.hubs} hubs, {c.paths} paths, {c.vectors} vectors, {c.texts} texts\t{src or ''}")


@index.command()
@click.argument("name", required=False)
@yes_option
@store_options
@pass_state
def drop(state: CliState, name: str | None, yes: bool) -> None:
    """Delete the HubLink index of the store (hubs, paths, vectors, texts); the graph stays. With
    pgvector, NAME picks the index (default: --index / the database's own); other indexes stay.
    Says how much it removes and asks first (or needs --yes)."""
    if name is not None:
        if (state.store or state.settings().store) != "pgvector":
            raise click.UsageError("NAME works with the pgvector store only (--store pgvector)")
        _drop_named(state, name, yes)
        return
    with state.open() as ws:
        st, store = ws.index_status(), ws.vstore.name
        if st.info is None:
            click.echo(f"no index in the {store} store: nothing to drop")
            return
        confirm_removal(f"this removes {removal_text(st.counts, store)}", yes)
        removed = ws.drop_index()
    click.echo(
        f"dropped the {store} index: {removed.hubs} hubs, {removed.paths} paths, {removed.vectors} vectors, "
        f"{removed.texts} unique texts removed"
    )


def _drop_named(state: CliState, name: str, yes: bool) -> None:
    """Drop the named Postgres index (its whole schema) without opening the Kùzu database."""
    from kgqa.errors import IndexMissingError
    from kgqa.postgres.server import resolve_dsn
    from kgqa.vectorstores.pgvector_store import PgVectorHubStore, named_indexes

    dsn = resolve_dsn(state.settings())
    held = {n: c for n, _, c in named_indexes(dsn)}
    if name not in held:
        known = ", ".join(sorted(held)) or "none"
        raise IndexMissingError(f"no index named '{name}' in Postgres (indexes: {known})")
    confirm_removal(f"this removes index '{name}': {removal_text(held[name], 'pgvector')}", yes)
    store = PgVectorHubStore(dsn, index=name)
    try:
        store.drop_all()
    finally:
        store.close()
    c = held[name]
    click.echo(
        f"dropped the pgvector index '{name}': {c.hubs} hubs, {c.paths} paths, {c.vectors} vectors, "
        f"{c.texts} unique texts removed"
    )
