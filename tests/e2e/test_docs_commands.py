"""Every `kgqa` command shown in README.md and docs/*.md parses against the real Click tree; the help of
each command path shown runs; the ```console transcripts on the demo graph run and print what they show."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from docs_commands import (
    ROOT,
    DocCommand,
    check_parses,
    command_path,
    commands_in,
    doc_files,
    output_mismatch,
    transcript_steps,
)
from kgqa_cli.main import cli


def shown_commands() -> list[DocCommand]:
    return [c for path in doc_files() for c in commands_in(path) if c.args[:1] != ("export",)]


def test_docs_show_commands():
    files = {c.path.name for c in shown_commands()}
    assert {"README.md", "index-maintenance.md", "postgres.md", "serve.md", "databases.md"} <= files


def test_every_command_shown_in_the_docs_parses():
    problems = [p for c in shown_commands() if (p := check_parses(cli, c))]
    assert not problems, "documented commands that no longer parse:\n" + "\n".join(problems)


def test_a_command_that_no_longer_parses_is_named_with_file_and_line(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n\n```bash\nkgqa index status --json\nkgqa index biuld --hub-type Paper\n"
        'kgqa ask "What?" --hubz 3 && kgqa stats\nkgqa ask "What?" --strategy sideways\n```\n\n'
        "```\n$ kgqa triples add -s A -p b \\\n    -o C --literal\nadded 1 triple\n$ kgqa stats --xml\n```\n",
        encoding="utf-8",
    )
    found = commands_in(page)
    assert [(c.line, c.args[:2]) for c in found] == [
        (4, ("index", "status")),
        (5, ("index", "biuld")),
        (6, ("ask", "What?")),
        (6, ("stats",)),
        (7, ("ask", "What?")),
        (11, ("triples", "add")),
        (14, ("stats", "--xml")),
    ]
    assert found[5].args[-1] == "--literal" and found[5].output == ("added 1 triple",)
    problems = [p for c in found if (p := check_parses(cli, c))]
    assert len(problems) == 4, problems
    assert (
        problems[0].startswith(f"{page}:5: `kgqa index biuld --hub-type Paper` does not parse")
        and "biuld" in problems[0]
    )
    assert problems[1].startswith(f"{page}:6:") and "--hubz" in problems[1]
    assert problems[2].startswith(f"{page}:7:") and "sideways" in problems[2]
    assert problems[3].startswith(f"{page}:14:") and "--xml" in problems[3]


def test_the_help_of_every_command_path_shown_runs():
    paths = {command_path(cli, c) for c in shown_commands()}
    assert ("index", "build") in paths and ("ask",) in paths
    runner = CliRunner()
    for path in sorted(paths):
        result = runner.invoke(cli, [*path, "--help"], prog_name="kgqa")
        assert result.exit_code == 0, f"kgqa {' '.join(path)} --help: {result.output}"
        assert f"Usage: kgqa {' '.join(path)}".rstrip() in result.output


def test_output_matching():
    actual = "a\n  35 hubs rebuilt [1.2s]\n\nSources:\n  [1] P01\n(3 rows)\n"
    assert output_mismatch(("  35 hubs rebuilt ...", "...", "  [1] P01", "(3 rows)"), actual) is None
    assert output_mismatch(("Sources:", "a"), actual) == "a"  # order counts
    assert output_mismatch(("(4 rows)",), actual) == "(4 rows)"


TRANSCRIPTS = [(path, n) for path in doc_files() for n, _ in enumerate(transcript_steps(path))]


@pytest.mark.parametrize(("path", "n"), TRANSCRIPTS, ids=[f"{p.name}-{n}" for p, n in TRANSCRIPTS])
def test_console_transcripts_run_on_the_demo_graph(path: Path, n: int, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"KGQA_DB", "KGQA_STORE", "KGQA_INDEX"}}
    env["HF_HUB_OFFLINE"] = "1"
    for step in transcript_steps(path)[n]:
        if step.args[0] == "export":
            for assignment in step.args[1:]:
                name, _, value = assignment.partition("=")
                env[name] = value
            continue
        proc = subprocess.run(
            [sys.executable, "-m", "kgqa_cli.main", *step.args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        shown = "kgqa " + " ".join(step.args)
        assert proc.returncode == 0, f"{step.where}: `{shown}` exited {proc.returncode}: {proc.stderr}"
        missing = output_mismatch(step.output, proc.stdout)
        assert missing is None, f"{step.where}: `{shown}` did not print {missing!r}; it printed:\n{proc.stdout}"


def test_the_readme_has_a_transcript():
    assert any(path == ROOT / "README.md" for path, _ in TRANSCRIPTS)


def _anchors(page: Path) -> set[str]:
    """GitHub's heading anchors of a page, plus its explicit `<a id="...">` ones."""
    text = page.read_text(encoding="utf-8")
    slugs = {
        re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", text, flags=re.M)
    }
    return slugs | set(re.findall(r'<a id="([^"]+)"', text))


def test_relative_links_between_the_pages_resolve():
    broken = []
    for page in doc_files():
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            for target in re.findall(r"\]\(([^)\s]+)\)", line):
                if target.startswith(("http://", "https://", "mailto:")):
                    continue
                file, _, anchor = target.partition("#")
                resolved = (page.parent / file) if file else page
                if not resolved.exists():
                    broken.append(f"{page.relative_to(ROOT)}:{number}: {target} (no such file)")
                elif anchor and resolved.suffix == ".md" and anchor not in _anchors(resolved):
                    broken.append(f"{page.relative_to(ROOT)}:{number}: {target} (no such heading)")
    assert not broken, "broken links:\n" + "\n".join(broken)
