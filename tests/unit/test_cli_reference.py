"""docs/cli.md is generated from the commands' `--help` (scripts/cli_reference.py) and must match them."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def reference_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cli_reference", ROOT / "scripts" / "cli_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_cli_md_is_up_to_date():
    ref = reference_script()
    expected = ref.render()
    current = ref.CLI_MD.read_text(encoding="utf-8")
    stale = ref.differences(current, expected)
    assert not stale, (
        f"docs/cli.md is out of date for {', '.join(stale)}: "
        "run `python scripts/cli_reference.py` and commit docs/cli.md"
    )


def test_reference_covers_every_command_and_option():
    import click
    from kgqa_cli.main import cli

    ref = reference_script()
    page = ref.CLI_MD.read_text(encoding="utf-8")
    for path, command, _ctx in ref.walk(cli):
        section = ref.split_sections(page).get(path)
        assert section is not None, f"`{path}` has no section in docs/cli.md"
        for param in command.params:
            if isinstance(param, click.Option) and not param.hidden:
                assert any(opt in section for opt in param.opts), f"`{path}` {param.opts} missing from docs/cli.md"


def test_a_stale_section_is_named():
    ref = reference_script()
    expected = ref.render()
    changed = expected.replace("Usage: kgqa stats [OPTIONS]", "Usage: kgqa stats [OPTIONS] [EXTRA]")
    assert changed != expected
    assert ref.differences(changed, expected) == ["kgqa stats"]
    removed = expected.replace("## `kgqa pg stop`", "## `kgqa pg halt`")
    assert set(ref.differences(removed, expected)) == {"kgqa pg stop", "kgqa pg halt"}
