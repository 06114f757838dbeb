"""The setting naming a user's own graph views (kgqa/postgres/graph_views.py)."""

from __future__ import annotations

import pytest

from kgqa.errors import ConfigError
from kgqa.postgres.graph_views import views_schema


def test_unset_means_hublinks_own_tables(monkeypatch):
    monkeypatch.delenv("KGQA_PG_GRAPH_SCHEMA", raising=False)
    assert views_schema() is None
    monkeypatch.setenv("KGQA_PG_GRAPH_SCHEMA", " ")
    assert views_schema() is None


def test_a_plain_schema_name_is_taken(monkeypatch):
    monkeypatch.setenv("KGQA_PG_GRAPH_SCHEMA", "library")
    assert views_schema() == "library"


@pytest.mark.parametrize("name", ["Library", "lib; DROP TABLE x", "1lib", "kgqa", "kgqa_demo"])
def test_a_bad_or_hublink_schema_is_a_config_error(monkeypatch, name):
    monkeypatch.setenv("KGQA_PG_GRAPH_SCHEMA", name)
    with pytest.raises(ConfigError, match="KGQA_PG_GRAPH_SCHEMA"):
        views_schema()
