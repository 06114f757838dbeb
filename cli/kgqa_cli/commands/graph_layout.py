"""`kgqa graph describe`: how HubLink reads the graph in the database (its layout and mapping)."""

from __future__ import annotations

import click

from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import mapping_option


@click.group("graph")
def graph_group() -> None:
    """How HubLink reads your graph: `kgqa graph describe [--mapping kgqa.toml]`."""


@graph_group.command()
@mapping_option
@pass_state
def describe(state: CliState, mapping_file: str | None) -> None:
    """Print the layout of the graph: HubLink's own triples, or your node and rel tables and how
    each reads as entities, facts and predicates (the inferred mapping, or the one the index keeps)."""
    from kgqa.graph.layout import layout_of
    from kgqa.graph.mapping import MappingFile
    from kgqa.graph.property_layout import PropertyLayout, use_mapping

    with state.open(read_only=True) as ws:
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
