"""Options shared by several commands: where the index lives (`--store`, `--pg-dsn`, `--index`) and the
retrieval options of one question (`ask`, `eval run`, and the SQL and Cypher sessions)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import click

from kgqa.config import GRAPHS, STRATEGIES
from kgqa.errors import ConfigError
from kgqa.llm.registry import PROVIDERS
from kgqa.retrieval.options import AskOptions
from kgqa.retrieval.registry import RETRIEVERS
from kgqa.vectorstores.registry import STORES
from kgqa_cli.context import CliState


def store_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """Add `--graph`, `--graph-schema`, `--store`, `--pg-dsn` and `--index`; their values go to the CliState
    (and so to the settings)."""

    @functools.wraps(f)
    def wrapper(
        *args: Any,
        graph: str | None = None,
        graph_schema: str | None = None,
        store: str | None = None,
        pg_dsn: str | None = None,
        index: str | None = None,
        **kwargs: Any,
    ) -> Any:
        state = click.get_current_context().find_object(CliState)
        if state is not None:
            state.graph = graph or state.graph
            state.graph_schema = graph_schema or state.graph_schema
            state.store = store or state.store
            state.pg_dsn = pg_dsn or state.pg_dsn
            state.index = index or state.index
        return f(*args, **kwargs)

    wrapper = click.option(
        "--index",
        "index",
        default=None,
        metavar="NAME",
        help="The index's name in Postgres (default: $KGQA_INDEX, else the database file's stem).",
    )(wrapper)

    wrapper = click.option(
        "--pg-dsn",
        default=None,
        metavar="DSN",
        help="Postgres DSN for the pgvector store (default: $KGQA_PG_DSN, else the server of `kgqa pg start`).",
    )(wrapper)
    wrapper = graph_schema_option(wrapper)
    wrapper = click.option(
        "--graph",
        type=click.Choice(GRAPHS),
        default=None,
        help="Where the graph lives: kuzu, or postgres (the index's schema; no Kùzu file) (default: $KGQA_GRAPH or kuzu).",
    )(wrapper)
    return click.option(
        "--store",
        type=click.Choice(sorted(STORES)),
        default=None,
        help="Where the HubLink index lives (default: $KGQA_STORE or kuzu).",
    )(wrapper)


#: `--graph-schema SCHEMA`: your own graph views in Postgres (docs/postgres-graph.md#your-own-tables).
graph_schema_option = click.option(
    "--graph-schema",
    "graph_schema",
    default=None,
    metavar="SCHEMA",
    help="Read the graph from your own views `SCHEMA.entities` and `SCHEMA.triples` in Postgres (the view "
    "contract; implies --graph postgres) (default: $KGQA_PG_GRAPH_SCHEMA, else HubLink's own tables).",
)


def parse_params(values: tuple[str, ...]) -> dict[str, object]:
    """`("top_n=50", "k=5")` -> {"top_n": 50, "k": 5}; numbers become int or float."""
    out: dict[str, object] = {}
    for item in values:
        key, sep, raw = item.partition("=")
        if not sep or not key.strip():
            raise ConfigError(f"--param takes KEY=VALUE, got {item!r}")
        value: object = raw.strip()
        for kind in (int, float):
            try:
                value = kind(raw)
                break
            except ValueError:
                continue
        out[key.strip()] = value
    return out


def _retrieval_option_decorators() -> dict[str, Callable[[Callable[..., Any]], Callable[..., Any]]]:
    """The retrieval options by `AskOptions` field, in the order `--help` lists them (one declaration each)."""
    return {
        "strategy": click.option("--strategy", type=click.Choice(STRATEGIES), default="traversal", show_default=True),
        "topic_entity": click.option(
            "--topic-entity",
            default=None,
            metavar="ID|LABEL",
            help="Entry point of the traversal strategy (id, or a label that names one entity).",
        ),
        "hubs": click.option("--hubs", "hubs", type=int, default=None, help="Hubs to keep (default 30)."),
        "paths_per_hub": click.option("--paths-per-hub", type=int, default=None, help="Paths per hub (default 10)."),
        "diversity_penalty": click.option("--diversity-penalty", type=float, default=None, help="Default 0.05."),
        "alpha": click.option("--alpha", type=float, default=None, help="Path weight α (default 5)."),
        "max_level": click.option("--max-level", type=int, default=None, help="Traversal levels (default 1)."),
        "uniform_hops": click.option(
            "--uniform-hops", is_flag=True, help="Traversal: one hop per level (with --max-level N, N hops)."
        ),
        "components": click.option(
            "--no-components", "no_components", is_flag=True, help="Search with the question embedding only."
        ),
        "triple_filter": click.option(
            "--no-triple-filter", "no_triple_filter", is_flag=True, help="Return all triples of the kept paths."
        ),
        "scoring": click.option(
            "--scoring",
            type=click.Choice(["coverage", "thesis"]),
            default=None,
            help="Path and hub scoring: coverage (default) or the thesis's weighted mean.",
        ),
        "llm": click.option(
            "--llm",
            type=click.Choice(sorted(PROVIDERS)),
            default="offline",
            show_default=True,
            help="offline: no LLM, 0 tokens; anthropic: the LLM roles (needs ANTHROPIC_API_KEY).",
        ),
        "token_budget": click.option(
            "--token-budget",
            type=int,
            default=None,
            metavar="N",
            help="At most N LLM tokens for this question (default: $KGQA_LLM_TOKEN_BUDGET or none).",
        ),
        "retriever": click.option(
            "--retriever", type=click.Choice(sorted(RETRIEVERS)), default="hublink", show_default=True
        ),
        "params": click.option(
            "--param",
            "retriever_params",
            multiple=True,
            metavar="KEY=VALUE",
            help="A retriever parameter, e.g. top_n=150 (difar), k=3 (simgrag), max_hops=2 (coe); repeatable.",
        ),
    }


#: The options of the SQL and Cypher sessions (HubLink only: no --retriever there).
SESSION_OPTIONS = ("strategy", "topic_entity", "hubs", "paths_per_hub", "triple_filter", "scoring", "llm")

#: The options whose command-line value is not the field's: (parameter name, value -> field value).
_CONVERTED: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "components": ("no_components", lambda flag: not flag),
    "triple_filter": ("no_triple_filter", lambda flag: not flag),
    "params": ("retriever_params", parse_params),
}


def retrieval_options(*fields: str, omit: tuple[str, ...] = ()) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Add the retrieval options named by their `AskOptions` fields (all when none are named, less `omit`);
    the command receives them as one `options: AskOptions` (fields left out keep its defaults). Turn them
    into retrieval parameters with `kgqa.retrieval.options.params_from_options`, once."""
    table = _retrieval_option_decorators()
    names = tuple(name for name in fields or tuple(table) if name not in omit)

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            values: dict[str, Any] = {}
            for name in names:
                parameter, convert = _CONVERTED.get(name, (name, lambda value: value))
                values[name] = convert(kwargs.pop(parameter))
            return f(*args, options=AskOptions(**values), **kwargs)

        command: Callable[..., Any] = wrapper
        for name in reversed(names):
            command = table[name](command)
        return command

    return decorate


#: `--mapping FILE`: how a user's own node and rel tables read as a graph (docs/own-graph.md).
mapping_option = click.option(
    "--mapping",
    "mapping_file",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="FILE",
    help="Your own node and rel tables: read them through this mapping file (TOML: include/exclude tables "
    "and properties, labels, predicate names; `index build` keeps it with the index).",
)
