"""Write docs/cli.md, the `kgqa` command reference, from the commands' own `--help`.

    python scripts/cli_reference.py            # rewrite docs/cli.md
    python scripts/cli_reference.py --check    # exit 1, naming the first command that differs, if stale

tests/unit/test_cli_reference.py regenerates the page in memory and fails when docs/cli.md is out of date.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import click

ROOT = Path(__file__).resolve().parents[1]
CLI_MD = ROOT / "docs" / "cli.md"
WIDTH = 110  # fixed, so the page does not depend on the terminal that generated it

HEADER = """# `kgqa` command reference

Generated from each command's `--help` by `python scripts/cli_reference.py`; do not edit by hand.
`tests/unit/test_cli_reference.py` fails when this page and the commands differ.

Options before the command name (`--db`, `--index`, `--quiet`, `--trace`) belong to `kgqa` itself:
`kgqa --db my.kuzu ask ...`. Exit codes: [reliability.md](reliability.md).
"""


def _context(command: click.Command, name: str, parent: click.Context | None) -> click.Context:
    settings = {**command.context_settings, "terminal_width": WIDTH, "max_content_width": WIDTH}
    return click.Context(command, info_name=name, parent=parent, **settings)


def walk(
    command: click.Command, name: str = "kgqa", parent: click.Context | None = None
) -> Iterator[tuple[str, click.Command, click.Context]]:
    """Every command under `command` (itself first), depth first in `list_commands` order, with its
    full path ("kgqa index build") and a context whose parents name that path in the usage line.
    Lazy commands are imported by `get_command`."""
    ctx = _context(command, name, parent)
    path = ctx.command_path
    yield path, command, ctx
    if isinstance(command, click.Group):
        for sub in command.list_commands(ctx):
            child = command.get_command(ctx, sub)
            if child is not None and not child.hidden:
                yield from walk(child, sub, ctx)


def help_text(command: click.Command, ctx: click.Context) -> str:
    """The command's `--help` output, trailing spaces removed."""
    return "\n".join(line.rstrip() for line in command.get_help(ctx).splitlines()).strip() + "\n"


def sections(root: click.Command | None = None) -> dict[str, str]:
    """Command path -> its markdown section (heading and help text)."""
    if root is None:
        from kgqa_cli.main import cli

        root = cli
    list(walk(root))  # import every lazy command first: a group's listing then reads the commands' own help
    out: dict[str, str] = {}
    for path, command, ctx in walk(root):
        anchor = path.replace(" ", "-")
        out[path] = f'<a id="{anchor}"></a>\n\n## `{path}`\n\n```text\n{help_text(command, ctx)}```\n'
    return out


def render(root: click.Command | None = None) -> str:
    """The whole of docs/cli.md: header, an index of the commands, then one section per command."""
    parts = sections(root)
    index = "\n".join(f"- [`{path}`](#{path.replace(' ', '-')})" for path in parts)
    return HEADER + "\n" + index + "\n\n" + "\n".join(parts.values())


def split_sections(text: str) -> dict[str, str]:
    """docs/cli.md's sections by command path (the inverse of `sections`, for naming what differs)."""
    out: dict[str, str] = {}
    for chunk in text.split('<a id="')[1:]:
        heading = chunk.split("## `", 1)[1].split("`", 1)[0] if "## `" in chunk else chunk
        out[heading] = '<a id="' + chunk.rstrip("\n") + "\n"
    return out


def differences(current: str, expected: str) -> list[str]:
    """The command paths whose section differs between the page on disk and the generated one."""
    have, want = split_sections(current), split_sections(expected)
    names = [p for p in want if have.get(p) != want[p]] + [p for p in have if p not in want]
    if not names and current != expected:
        names = ["(the page's header or index)"]
    return names


def main(argv: list[str]) -> int:
    """Write docs/cli.md, or with --check report the commands whose section is stale."""
    expected = render()
    if "--check" in argv:
        current = CLI_MD.read_text(encoding="utf-8") if CLI_MD.exists() else ""
        stale = differences(current, expected)
        if stale:
            print(
                f"docs/cli.md is out of date for: {', '.join(stale)}; run `python scripts/cli_reference.py`",
                file=sys.stderr,
            )
            return 1
        return 0
    CLI_MD.write_text(expected, encoding="utf-8")
    print(f"wrote {CLI_MD.relative_to(ROOT)} ({len(split_sections(expected))} commands)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
