"""Options shared by several commands: where the index lives (`--store`, `--pg-dsn`) and the
retrieval settings of the SQL and Cypher sessions."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from kgqa.config import STRATEGIES
from kgqa.llm.registry import PROVIDERS
from kgqa.retrieval.options import AskOptions, params_from_options
from kgqa.vectorstores.registry import STORES
from kgqa_cli.context import CliState


def store_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Add `--store`, `--pg-dsn` and `--index`; their values go to the CliState (and so to the settings)."""
    @functools.wraps(f)
    def wrapper(*args: Any, store: str | None = None, pg_dsn: str | None = None, index: str | None = None,
                **kwargs: Any) -> Any:
        state = click.get_current_context().find_object(CliState)
        if state is not None:
            state.store = store or state.store
            state.pg_dsn = pg_dsn or state.pg_dsn
            state.index = index or state.index
        return f(*args, **kwargs)

    wrapper = click.option("--index", "index", default=None, metavar="NAME",
                           help="The index's name in Postgres (default: $KGQA_INDEX, else the database "
                                "file's stem).")(wrapper)

    wrapper = click.option("--pg-dsn", default=None, metavar="DSN",
                           help="Postgres DSN for the pgvector store (default: $KGQA_PG_DSN, else the "
                                "server of `kgqa pg start`).")(wrapper)
    return click.option("--store", type=click.Choice(sorted(STORES)), default=None,
                        help="Where the HubLink index lives (default: $KGQA_STORE or kuzu).")(wrapper)


def retrieval_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Add the retrieval options of a session; the command receives `params` and `llm`."""
    @functools.wraps(f)
    def wrapper(*args: Any, strategy: str, topic_entity: str | None, hubs_to_keep: int | None,
                paths_per_hub: int | None, scoring: str | None, no_triple_filter: bool, **kwargs: Any) -> Any:
        params = params_from_options(AskOptions(strategy=strategy, topic_entity=topic_entity, hubs=hubs_to_keep,
                                                paths_per_hub=paths_per_hub, scoring=scoring,
                                                triple_filter=not no_triple_filter))
        return f(*args, params=params, **kwargs)

    for decorator in reversed([
        click.option("--strategy", type=click.Choice(STRATEGIES), default="traversal", show_default=True),
        click.option("--topic-entity", default=None, metavar="ID|LABEL", help="Entry point of the traversal."),
        click.option("--hubs", "hubs_to_keep", type=int, default=None, help="Hubs to keep (default 30)."),
        click.option("--paths-per-hub", type=int, default=None, help="Paths per hub (default 10)."),
        click.option("--scoring", type=click.Choice(["coverage", "thesis"]), default=None,
                     help="Path and hub scoring (default coverage)."),
        click.option("--no-triple-filter", is_flag=True, help="Return all triples of the kept paths."),
        click.option("--llm", type=click.Choice(sorted(PROVIDERS)), default="offline", show_default=True),
    ]):
        wrapper = decorator(wrapper)
    return wrapper
