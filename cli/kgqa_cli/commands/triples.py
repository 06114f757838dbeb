"""`kgqa triples add|delete`: change single triples (or the triples of a file), marking the hubs
they touch dirty in the same transaction; `--update-index` rebuilds those hubs at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from kgqa.errors import InputError
from kgqa.graph.edits import triple_record
from kgqa.graph.loaders import FORMATS
from kgqa_cli.commands.graph import after_change, fail_batch
from kgqa_cli.context import CliState, pass_state
from kgqa_cli.options import store_options
from kgqa_cli.service_writes import item


@click.group()
def triples() -> None:
    """Add or delete triples; the hubs they touch are marked dirty for `kgqa index update --dirty`."""


def _triple_options(f: Callable[..., Any]) -> Callable[..., Any]:
    for decorator in reversed(
        [
            click.argument("file", required=False, type=click.Path(dir_okay=False)),
            click.option(
                "--format",
                "fmt",
                type=click.Choice(FORMATS),
                default=None,
                help="Format of FILE (default: from the extension).",
            ),
            click.option("--subject", "-s", default=None, metavar="ID", help="Subject entity id (or <IRI>)."),
            click.option("--predicate", "-p", default=None, metavar="TEXT", help="Predicate."),
            click.option(
                "--object",
                "-o",
                "obj",
                default=None,
                metavar="ID|VALUE",
                help="Object entity id (or <IRI>), or the value with --literal.",
            ),
            click.option(
                "--literal",
                is_flag=True,
                help="The object is a literal: --object is its value (or, with --object-label, its id).",
            ),
            click.option(
                "--update-index",
                is_flag=True,
                help="Then rebuild the hubs the change touched (`kgqa index update --dirty`).",
            ),
            store_options,
        ]
    ):
        f = decorator(f)
    return f


def _one_or_file(file: str | None, subject: str | None, predicate: str | None, obj: str | None) -> bool:
    """True for a single triple from the options, False for FILE; anything else is an InputError."""
    given = [n for n, v in (("--subject", subject), ("--predicate", predicate), ("--object", obj)) if v is not None]
    if file is not None and given:
        raise InputError(f"give either FILE or --subject/--predicate/--object, not both ({', '.join(given)} given)")
    if file is None and len(given) < 3:
        missing = [n for n in ("--subject", "--predicate", "--object") if n not in given]
        raise InputError(
            f"give FILE, or a triple with --subject, --predicate and --object (missing {', '.join(missing)})"
        )
    return file is None


def _sent_to_service(
    state: CliState,
    kind: str,
    items: list[dict[str, Any]] | None = None,
    file: str | None = None,
    fmt: str | None = None,
) -> dict[str, Any] | None:
    """With a `kgqa serve` holding the database: send the change there (the hubs it touches are rebuilt
    at once), print what it did and return the reply. None when no service runs."""
    from kgqa_cli.service_writes import running_service, send_file, send_items

    client = running_service(state.settings().service_path)
    if client is None:
        return None
    reply = send_items(client, kind, items or []) if file is None else send_file(client, kind, file, fmt)
    show_service_reply(kind, reply)
    return reply


def show_service_reply(kind: str, reply: dict[str, Any]) -> None:
    """What a change sent to the service did, as the in-process commands say it."""
    now = f"now {reply['triples_total']} triples" if reply["triples_total"] is not None else "nothing sent"
    if kind == "add":
        n = reply["added"]
        click.echo(
            f"added {n} triple{'' if n == 1 else 's'} (+{reply['entities_added']} entities; {now}) through the service"
        )
    else:
        n = reply["deleted"]
        missing = f" ({reply['not_found']} not in the graph)" if reply["not_found"] else ""
        click.echo(f"deleted {n} triple{'' if n == 1 else 's'}{missing}; {now}, through the service")
    if reply.get("index"):
        click.echo(f"{reply['hubs_marked']} hubs marked dirty; the service rebuilt {reply['index']['hubs_rebuilt']}")


@triples.command()
@_triple_options
@click.option("--subject-label", default=None, help="Label of the subject (stated or changed).")
@click.option("--subject-type", "subject_types", multiple=True, metavar="T", help="Type of the subject (repeatable).")
@click.option("--object-label", default=None, help="Label of the object (for a literal: its value).")
@click.option("--object-type", "object_types", multiple=True, metavar="T", help="Type of the object (repeatable).")
@pass_state
def add(
    state: CliState,
    file: str | None,
    fmt: str | None,
    subject: str | None,
    predicate: str | None,
    obj: str | None,
    literal: bool,
    update_index: bool,
    subject_label: str | None,
    subject_types: tuple[str, ...],
    object_label: str | None,
    object_types: tuple[str, ...],
) -> None:
    """Add a triple (--subject/--predicate/--object) or the triples of FILE (as `kgqa load` does).
    Labels and types given for existing entities replace or extend theirs."""
    single = _one_or_file(file, subject, predicate, obj)
    record = (
        triple_record(
            subject,
            predicate,
            obj,
            literal=literal,
            subject_label=subject_label,
            subject_types=subject_types,
            object_label=object_label,
            object_types=object_types,
        )
        if single
        else None
    )
    if _sent_to_service(state, "add", [item(record)] if record is not None else None, file, fmt) is not None:
        return
    with state.open(create=True) as ws:
        report = ws.add_triples([record]) if record is not None else ws.load(file, fmt)
        click.echo(
            f"added {report.triples_added} triple{'' if report.triples_added == 1 else 's'} "
            f"(+{report.entities_added} entities; now {report.triples_total} triples)"
        )
        after_change(state, ws, report.hubs_marked, update_index)


@triples.command()
@_triple_options
@click.option("--keep-going", is_flag=True, help="With FILE: exit 0 when some (not all) of its triples were not found.")
@pass_state
def delete(
    state: CliState,
    file: str | None,
    fmt: str | None,
    subject: str | None,
    predicate: str | None,
    obj: str | None,
    literal: bool,
    update_index: bool,
    keep_going: bool,
) -> None:
    """Delete a triple (--subject/--predicate/--object) or the triples FILE states. Entities stay.
    An unknown entity is an error (nothing is deleted); a triple not in the graph is reported.
    With FILE, exits non-zero when none of its triples was in the graph, or some were not (unless
    --keep-going)."""
    single = _one_or_file(file, subject, predicate, obj)
    if single:
        rec = triple_record(subject, predicate, obj, literal=literal)
        if _sent_to_service(state, "delete", [item(rec)]) is not None:
            return
    elif (sent := _sent_to_service(state, "delete", file=file, fmt=fmt)) is not None:
        if sent["not_found"]:
            fail_batch(
                sent["not_found"],
                sent["not_found"] + sent["deleted"],
                "triples to delete",
                keep_going,
                InputError(f"{sent['not_found']} triples of {file} are not in the graph", source=file),
            )
        return
    with state.open() as ws:
        if single:
            rec = triple_record(subject, predicate, obj, literal=literal)
            report = ws.delete_triples([(rec.subject.id, rec.predicate, rec.object.id)])
        else:
            report = ws.delete_file(file, fmt)
        click.echo(
            f"deleted {report.deleted} triple{'' if report.deleted == 1 else 's'}"
            + (f" ({report.not_found} not in the graph)" if report.not_found else "")
            + f"; now {report.triples_total} triples"
        )
        after_change(state, ws, report.hubs_marked, update_index)
    if not single and report.not_found:
        fail_batch(
            report.not_found,
            report.requested,
            "triples to delete",
            keep_going,
            InputError(f"{report.not_found} triples of {file} are not in the graph", source=file),
        )
