"""docker/compose.yaml's Postgres-only profile, checked against the CLI (no Docker engine runs here, so the
stack itself was never built or started): the database and two stateless workers, no volume for Kùzu;
every `kgqa` command in it, and the `docker compose run --rm pg-cli ...` steps of docker/README.md, parse
against the Click tree; and the environment they run with makes the Postgres-only settings."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from docs_commands import DocCommand, check_parses
from kgqa_cli.main import cli

from kgqa.config import Settings

yaml = pytest.importorskip("yaml", reason="needs PyYAML (pip install -e '.[dev]')")

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker" / "compose.yaml"
README = ROOT / "docker" / "README.md"
DOCKERFILE = ROOT / "docker" / "Dockerfile"
PG_ONLY = ("pg-cli", "pg-worker")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def parses(args: list[str], where: str) -> None:
    problem = check_parses(cli, DocCommand(COMPOSE, 0, tuple(args), "compose"))
    assert problem is None, f"{where}: {problem}"


def settings_of(env: dict[str, str], monkeypatch) -> Settings:
    """The settings a `kgqa` process makes in a container with `env` (and the image's own ENV)."""
    image_env = dict(re.findall(r"^\s+(KGQA_\w+|HF_\w+)=(\S+?)\s*\\?$", DOCKERFILE.read_text(), re.M))
    for name in [n for n in list(__import__("os").environ) if n.startswith("KGQA_")]:
        monkeypatch.delenv(name)
    for name, value in {**image_env, **env}.items():
        monkeypatch.setenv(name, re.sub(r"\$\{\w+:-([^}]*)\}", r"\1", str(value)))
    return Settings.from_env()


def test_the_profile_is_the_database_and_two_workers_without_a_kuzu_volume(compose):
    services = compose["services"]
    profiles = {name: s.get("profiles", []) for name, s in services.items()}
    assert profiles["pg-worker"] == ["pg-only"] and profiles["pg-cli"] == ["pg-only-cli"]
    assert profiles["postgres"] == []  # starts with them (depends_on)
    worker = services["pg-worker"]
    assert worker["deploy"]["replicas"] == 2
    assert "ports" not in worker  # two replicas cannot publish one host port
    for name in PG_ONLY:
        service = services[name]
        assert "volumes" not in service, f"{name} mounts {service['volumes']}"  # no Kùzu file, nothing to keep
        assert service.get("tmpfs") == ["/data"], name  # over the image's VOLUME: no anonymous volume either
        assert service["depends_on"] == {"postgres": {"condition": "service_healthy"}}, name
        assert service["image"] == services["kgqa"]["image"] and service["build"] == services["kgqa"]["build"], name
    assert "VOLUME" in DOCKERFILE.read_text() and '"/data"' in DOCKERFILE.read_text()
    assert worker["healthcheck"]["test"] == services["worker"]["healthcheck"]["test"]  # /v1/health on its port


def test_the_workers_command_parses_and_agrees_with_their_environment(compose, monkeypatch):
    worker = compose["services"]["pg-worker"]
    command = worker["command"]
    parses(command, "pg-worker command")
    assert command[0] == "serve"
    flags = dict(zip(command[1::2], command[2::2]))
    assert flags["--graph"] == "postgres" and flags["--store"] == "pgvector"
    assert flags["--host"] == "0.0.0.0" and f"{flags['--port']}/v1/health" in worker["healthcheck"]["test"][-1]
    settings = settings_of(worker["environment"], monkeypatch)
    assert (settings.graph, settings.store, settings.index_name) == ("postgres", "pgvector", "demo")
    assert settings.pg_dsn is not None and "@postgres:5432/" in settings.pg_dsn  # the compose service
    assert str(settings.service_path).startswith("/data/")  # serve's state file: on the tmpfs
    assert compose["services"]["pg-cli"]["environment"] == worker["environment"]  # one environment


def readme_steps() -> list[list[str]]:
    """The command words of the README's Postgres-only block (```sh, after its heading)."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Postgres only") :]
    block = re.search(r"```sh\n(.*?)```", section, re.S)
    assert block, "docker/README.md: no ```sh block in the Postgres-only section"
    return [shlex.split(line) for line in block.group(1).splitlines() if line.strip()]


def test_the_readme_steps_use_the_profile_and_parse(compose):
    steps = readme_steps()
    compose_steps = [words for words in steps if words[:2] == ["docker", "compose"]]
    assert all(words[2:4] == ["-f", "docker/compose.yaml"] for words in compose_steps)
    runs = [words[7:] for words in compose_steps if words[4:7] == ["run", "--rm", "pg-cli"]]
    assert [r[0] for r in runs] == ["load", "index", "sql"]  # load, build, install: in that order
    for args in runs:
        parses(args, "docker/README.md: run --rm pg-cli")
    assert (ROOT / runs[0][1]).is_file(), runs[0][1]  # the demo file, in the image's working directory
    assert any(words[4:] == ["up", "-d", "--wait", "pg-worker"] for words in compose_steps)
    named = {w for words in compose_steps for w in words[4:] if w in compose["services"]}
    assert named == {"pg-cli", "postgres", "pg-worker"}  # never the Kùzu `worker`, which has no profile
    assert "WORKDIR /app" in DOCKERFILE.read_text() and "COPY kgqa ./kgqa" in DOCKERFILE.read_text()
