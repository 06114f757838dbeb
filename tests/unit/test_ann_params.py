"""HNSW parameters: defaults, environment variables, validation, and how they reach the stores' queries."""

from __future__ import annotations

import pytest

from kgqa import assets
from kgqa.config import AnnParams, Settings
from kgqa.errors import ConfigError


def test_defaults_and_search_width():
    ann = AnnParams()
    assert (ann.m, ann.ef_construction, ann.ef_search) == (16, 64, None)
    assert ann.search_width(10) == 200 and ann.search_width(150) == 300
    assert AnnParams(ef_search=40).search_width(10) == 40
    assert AnnParams(ef_search=40).search_width(60) == 60  # never fewer candidates than results


def test_environment_and_validation(monkeypatch, tmp_path):
    monkeypatch.setenv("KGQA_HNSW_M", "24")
    monkeypatch.setenv("KGQA_HNSW_EF_CONSTRUCTION", "128")
    monkeypatch.setenv("KGQA_ANN_EF_SEARCH", "80")
    assert Settings.from_env(tmp_path / "g.kuzu").ann == AnnParams(24, 128, 80)
    monkeypatch.setenv("KGQA_ANN_EF_SEARCH", "many")
    with pytest.raises(ConfigError, match="KGQA_ANN_EF_SEARCH must be an integer"):
        Settings.from_env(tmp_path / "g.kuzu")
    with pytest.raises(ConfigError, match="m "):
        AnnParams(m=1)
    with pytest.raises(ConfigError, match="ef_search"):
        AnnParams(ef_search=0)


def test_parameters_fill_the_index_statements():
    kuzu = assets.cypher("indexing/create_vector_index", mu=24, ml=48, efc=128).text
    assert "mu := 24, ml := 48, efc := 128" in kuzu
    name, text = assets.schema_file("postgres", "post_load/hnsw_cosine.sql")
    assert "WITH (m = 24, ef_construction = 128)" in assets.fill_tokens(name, text, m=24, ef_construction=128)
    with pytest.raises(ConfigError, match="needs structural tokens"):
        assets.cypher("indexing/create_vector_index")


def test_buffer_pool_setting(monkeypatch, tmp_path):
    monkeypatch.setenv("KGQA_BUFFER_POOL_MIB", "256")
    settings = Settings.from_env(tmp_path / "g.kuzu")
    assert settings.buffer_pool_mib == 256
    from kgqa.api import Workspace

    ws = Workspace(settings, create=True)  # a real Kùzu database with a 256 MiB page cache
    try:
        assert ws.stats().triples == 0
    finally:
        ws.close()
    monkeypatch.setenv("KGQA_BUFFER_POOL_MIB", "12")
    with pytest.raises(ConfigError, match="KGQA_BUFFER_POOL_MIB"):
        Settings.from_env(tmp_path / "g.kuzu")
