"""The `kgqa` command lines shown in README.md and docs/*.md, and their check against the Click tree.

A command line is found
- in a ```bash block: every command of a line whose first word is `kgqa` (also after `&&`, `;`, `|`);
- in a block without a language: a line whose first word is `kgqa`;
- in any block: a line `$ kgqa ...` (a transcript: the lines after it, up to the next `$ `, are its output).
Lines continued with a trailing backslash, or inside an open quote, are joined first.

A ```console block is a transcript on the demo graph: tests/e2e/test_docs_commands.py runs its commands in
order (`$ export NAME=VALUE` sets a variable) and checks that each output line shown appears, in order, in
the command's output. A shown line `...` skips lines; a line ending in ` ...` matches any line starting
with what comes before.
"""

from __future__ import annotations

import re
import shlex
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
SEPARATORS = {"&&", "||", ";", "|", "&"}


@dataclass(frozen=True)
class DocCommand:
    """One `kgqa` command line shown in a document: where, its words after `kgqa`, and (in a transcript)
    the output shown under it."""

    path: Path
    line: int
    args: tuple[str, ...]
    block: str  # the fence's info string: "bash", "console", "" ...
    output: tuple[str, ...] = field(default=())

    @property
    def where(self) -> str:
        rel = self.path.relative_to(ROOT) if self.path.is_relative_to(ROOT) else self.path
        return f"{rel}:{self.line}"


def doc_files() -> list[Path]:
    """README.md and every page under docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _blocks(text: str) -> Iterator[tuple[str, int, list[str]]]:
    """(info string, line number of the block's first line, the block's lines) for each fenced block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        opening = re.match(r"^(\s*)(```+|~~~+)\s*([\w+-]*)", lines[i])
        if not opening:
            i += 1
            continue
        fence, info, start = opening.group(2), opening.group(3), i + 2
        i += 1
        body: list[str] = []
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        i += 1
        yield info, start, body


def _logical_lines(body: list[str], start: int, joinable: bool) -> Iterator[tuple[int, str, int]]:
    """(line number, text, index of the next physical line). A line continued with a backslash, or with a
    quote still open, is joined with the next when it is `joinable` (in a transcript: only `$ ` lines,
    since output lines are no shell)."""
    i = 0
    while i < len(body):
        first, text = i, body[i]
        while joinable or text.startswith("$ "):
            if text.endswith("\\") and i + 1 < len(body):
                i += 1
                text = text[:-1] + " " + body[i].strip()
                continue
            try:
                shlex.split(text, comments=True)
            except ValueError:
                if i + 1 < len(body):
                    i += 1
                    text = text + "\n" + body[i]
                    continue
            break
        i += 1
        yield start + first, text, i


def _kgqa_commands(text: str) -> Iterator[tuple[str, ...]]:
    """The words after `kgqa` of each command on a shell line that starts with `kgqa`."""
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        words = list(lexer)
    except ValueError:
        return
    command: list[str] = []
    for word in [*words, ";"]:
        if word in SEPARATORS:
            if command and command[0] == "kgqa":
                yield tuple(command[1:])
            command = []
        else:
            command.append(word)


def commands_in(path: Path, text: str | None = None) -> list[DocCommand]:
    """Every `kgqa` command line shown in the document at `path` (its text read unless given)."""
    text = path.read_text(encoding="utf-8") if text is None else text
    found: list[DocCommand] = []
    for info, start, body in _blocks(text):
        transcript = any(line.startswith("$ ") for line in body)
        for number, line, after in _logical_lines(body, start, joinable=not transcript):
            if transcript:
                if not line.startswith("$ "):
                    continue
                output = []
                for later in body[after:]:
                    if later.startswith("$ "):
                        break
                    output.append(later)
                line = line[2:]
            elif info != "bash" and not line.lstrip().startswith("kgqa "):
                continue
            else:
                output = []
            for args in _kgqa_commands(line):
                found.append(DocCommand(path, number, args, info, tuple(output)))
            if transcript and line.startswith("export ") and info == "console":
                found.append(DocCommand(path, number, ("export", *shlex.split(line)[1:]), info))
    return found


def transcript_steps(path: Path) -> list[list[DocCommand]]:
    """The ```console blocks of a document: each a list of its steps (kgqa commands and exports), in order."""
    text = path.read_text(encoding="utf-8")
    steps = [c for c in commands_in(path, text) if c.block == "console"]
    blocks: list[list[DocCommand]] = []
    starts = {start for info, start, _ in _blocks(text) if info == "console"}
    for step in steps:
        if not blocks or any(blocks[-1][-1].line < s <= step.line for s in starts):
            blocks.append([])
        blocks[-1].append(step)
    return blocks


def check_parses(cli: click.Group, command: DocCommand) -> str | None:
    """None when `kgqa <args>` names an existing command path and Click accepts its options and arguments
    (parsed, not run); else the problem, prefixed with the document and line."""
    args = list(command.args)
    shown = "kgqa " + " ".join(command.args)
    try:
        _resolve(cli, "kgqa", args, None)
    except click.UsageError as exc:
        return f"{command.where}: `{shown}` does not parse: {exc.format_message()}"
    except click.exceptions.Exit:
        return None
    return None


def command_path(cli: click.Group, command: DocCommand) -> tuple[str, ...]:
    """The subcommand names a documented command line resolves to (("index", "build") for
    `kgqa --db x index build --hub-type Paper`); click.UsageError when it does not parse."""
    return tuple(_resolve(cli, "kgqa", list(command.args), None))


def _resolve(command: click.Command, name: str, args: list[str], parent: click.Context | None) -> list[str]:
    """Parse `args` for `command` the way Click does when it runs, descending into subcommands, without
    invoking anything; returns the names of the subcommands passed through."""
    ctx = command.make_context(name, list(args), parent=parent)
    if not isinstance(command, click.Group):
        return []
    with warnings.catch_warnings():  # Click 8.2+ deprecates protected_args; it still holds the subcommand
        warnings.simplefilter("ignore", DeprecationWarning)
        rest = [*ctx.protected_args, *ctx.args]
    if not rest:
        return []
    sub_name, sub, sub_args = command.resolve_command(ctx, rest)
    if sub is None or sub_name is None:
        raise click.UsageError(f"no such command '{rest[0]}'", ctx)
    return [sub_name, *_resolve(sub, sub_name, sub_args, ctx)]


def output_mismatch(shown: tuple[str, ...], actual: str) -> str | None:
    """None when the shown output lines appear, in order, in `actual`; else the first that does not."""
    lines = [line.rstrip() for line in actual.splitlines()]
    position = 0
    for want in (s.rstrip() for s in shown):
        if not want or want == "...":
            continue
        prefix = want[:-4] if want.endswith(" ...") else None
        while position < len(lines):
            got = lines[position]
            position += 1
            if (prefix is not None and got.startswith(prefix)) or got == want:
                break
        else:
            return want
    return None
