"""`kgqa graph describe`: how HubLink reads the graph in the database (its layout and mapping)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import mapping_option, store_options

if TYPE_CHECKING:
    from kgqa.graph.layout import GraphStats


@click.group("graph")
def graph_group() -> None:
    """How HubLink reads your graph: `kgqa graph describe [--mapping kgqa.toml]`."""


@graph_group.command()
@mapping_option
@store_options
@pass_state
def describe(state: CliState, mapping_file: str | None) -> None:
    """Print the layout of the graph: HubLink's own triples (in Kùzu, or in Postgres with `--graph
    postgres`), your own graph views in Postgres, or your node and rel tables and how each reads as
    entities, facts and predicates (the inferred mapping, or the one the index keeps)."""
    from kgqa.errors import ConfigError
    from kgqa.graph.layout import layout_of
    from kgqa.graph.mapping import MappingFile
    from kgqa.graph.property_layout import PropertyLayout, use_mapping

    with state.open(read_only=True) as ws:
        if ws.settings.graph == "postgres":
            if mapping_file is not None:
                raise ConfigError(
                    "--mapping reads your own Kùzu node and rel tables; the graph in Postgres is read from "
                    "its entities and triples (docs/postgres-graph.md)"
                )
            for line in postgres_layout_lines(ws.settings.index_name, ws.settings.graph_schema, ws.stats()):
                click.echo(line)
            return
        if mapping_file is not None:
            layout = use_mapping(ws.store, MappingFile.read(mapping_file))
        else:
            found = layout_of(ws.store)
            if not isinstance(found, PropertyLayout):
                click.echo("layout: HubLink's triple tables (Entity, Triple), loaded by `kgqa load`")
                return
            layout = found
        for line in layout.mapping.describe():
            click.echo(line)


def postgres_layout_lines(index: str, views: str | None, stats: GraphStats) -> list[str]:
    """What `graph describe` says about the graph in Postgres: HubLink's tables or the user's views."""
    from kgqa.postgres.indexes import schema_of

    schema = schema_of(index)
    if views is None:
        where = [
            f"layout: the graph in Postgres, HubLink's tables {schema}.entities and {schema}.triples,",
            "  loaded by `kgqa load --graph postgres` or plain SQL; their triggers mark changes for the refresh",
        ]
    else:
        where = [
            f"layout: your own views {views}.entities and {views}.triples in Postgres (the view contract),",
            f"  read in place; HubLink's index is in {schema}; `kgqa index update` finds changes by content hash",
        ]
    size = f"graph: {stats.entities} entities ({stats.literals} literals), {stats.triples} triples, "
    return [*where, size + f"{stats.predicates} predicates"]
