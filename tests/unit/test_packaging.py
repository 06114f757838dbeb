"""Every importable package folder is listed in pyproject.toml (the list is explicit)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_package_is_listed():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(cfg["packages"])
    found = set()
    for name, folder in cfg["package-dir"].items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            if "__pycache__" in rel.parts:
                continue
            found.add(".".join((name, *rel.parts)))
    assert found == listed, f"unlisted: {sorted(found - listed)}; stale: {sorted(listed - found)}"
