"""`kgqa index build|status`: the HubLink index."""

from __future__ import annotations

import json

import click

from kgqa.config import IndexParams
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.progress import progress_line


@click.group()
def index() -> None:
    """Build and inspect the HubLink index."""


@index.command()
@click.option("--hub-type", "hub_types", multiple=True, metavar="T",
              help="Entities of type T are hub roots (repeatable; default: Paper).")
@click.option("--min-out-degree", type=int, default=None, metavar="N",
              help="Entities with out-degree >= N are hub roots (degree criterion).")
@click.option("--criteria", type=click.Choice(["any", "all"]), default="any", show_default=True,
              help="Combine the type and degree criteria with OR (any) or AND (all).")
@click.option("--start", "start_ids", multiple=True, metavar="ID",
              help="Find hub roots by traversal from these entities (repeatable; default: every root).")
@click.option("--max-path-length", type=int, default=None, metavar="N",
              help="Longest hub path in triples (default: unlimited, i.e. 30).")
@click.option("--max-depth", type=int, default=10, show_default=True,
              help="Hub levels followed from the start entities.")
@click.option("--no-boundary-triples", is_flag=True,
              help="Drop the triple that reaches another hub root (thesis Alg. 5) instead of ending a path with it.")
@click.option("--rebuild", is_flag=True, help="Drop the index and build it from scratch (e.g. new model).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable report.")
@pass_state
def build(state: CliState, hub_types: tuple[str, ...], min_out_degree: int | None, criteria: str,
          start_ids: tuple[str, ...], max_path_length: int | None, max_depth: int,
          no_boundary_triples: bool, rebuild: bool, as_json: bool) -> None:
    """Build the index, or bring it up to date: only hubs whose paths changed are rebuilt."""
    if not hub_types and min_out_degree is None:
        hub_types = ("Paper",)
    params = IndexParams(hub_types=hub_types, min_out_degree=min_out_degree, criteria_mode=criteria,
                         start_ids=start_ids, max_path_length=max_path_length, max_indexing_depth=max_depth,
                         boundary_triples=not no_boundary_triples)
    with state.open() as ws, progress_line(not state.quiet) as progress:
        report = ws.build_index(params, rebuild=rebuild, on_progress=progress)
    if as_json:
        out = dict(report.__dict__, counts=report.counts.__dict__)
        click.echo(json.dumps(out, indent=2, default=str))
        return
    if report.nothing_to_do:
        click.echo(f"index up to date: {report.hubs_checked} hubs checked, nothing rebuilt")
    else:
        click.echo(f"rebuilt {report.hubs_rebuilt} of {report.hubs_checked} hubs "
                   f"({report.hubs_unchanged} unchanged, {report.hubs_removed} removed); "
                   f"{report.paths_written} paths, {report.vectors_written} vectors written; "
                   f"{report.texts_embedded} texts embedded, {report.texts_reused} reused")
    c = report.counts
    click.echo(f"index: {c.hubs} hubs, {c.paths} paths, {c.vectors} vectors, {c.texts} unique texts "
               f"[{report.timings.get('total', 0):.1f}s]")


@index.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@pass_state
def status(state: CliState, as_json: bool) -> None:
    """Show what the index holds and how it was built."""
    with state.open() as ws:
        st = ws.index_status()
    data = {"built": st.info is not None, "hubs": st.counts.hubs, "paths": st.counts.paths,
            "vectors": st.counts.vectors, "texts": st.counts.texts, "ann_index": st.ann_index}
    if st.info:
        data.update(embedding_model=st.info.embedding_model, dim=st.info.dim, status=st.info.status,
                    params=st.info.params, last_build=st.info.stats)
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    if not st.info:
        click.echo("no index yet: run `kgqa index build`")
        return
    click.echo(f"status: {st.info.status}\nhubs: {data['hubs']}\npaths: {data['paths']}\n"
               f"vectors: {data['vectors']}\nunique texts: {data['texts']}\n"
               f"embedding model: {st.info.embedding_model} (dim {st.info.dim})\n"
               f"ANN index: {'yes' if st.ann_index else 'no'}\nparameters: {json.dumps(st.info.params)}")
