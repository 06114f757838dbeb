"""The ONNX Runtime embedder: the torch model's vectors, a hashed atomic cache, the int8 variant as
another vector space, and a query path that runs without torch (subprocesses with torch blocked)."""

from __future__ import annotations

import csv
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kgqa.demo import demo_graph_path, demo_questions_path
from kgqa.embeddings import get_embedder
from kgqa.embeddings.model_files import read_model_files
from kgqa.embeddings.onnx_cache import onnx_file
from kgqa.embeddings.onnx_export import ensure_onnx
from kgqa.errors import ConfigError, IndexMismatchError
from kgqa.indexing.metadata import IndexInfo, check_compatible

MODEL = "all-MiniLM-L6-v2"
#: Blocks torch and the libraries built on it, as if they were not installed, then runs the CLI.
BLOCKED = ("torch", "sentence_transformers", "transformers")
CLI_WITHOUT_TORCH = (
    "import json, sys\n"
    f"for m in {BLOCKED!r}: sys.modules[m] = None\n"
    "from kgqa_cli.main import main\n"
    "sys.argv = ['kgqa'] + sys.argv[1:]\n"
    "try:\n    main()\nexcept SystemExit as e:\n    code = e.code or 0\nelse:\n    code = 0\n"
    "heavy = [m for m in ('torch', 'sentence_transformers', 'transformers', 'anthropic') if sys.modules.get(m)]\n"
    "print('LOADED=' + json.dumps(heavy), file=sys.stderr)\n"
    "sys.exit(code)\n"
)


def _varied_texts() -> list[str]:
    """A few hundred texts of the kinds the index and users produce: graph labels and verbalised
    triples, questions as written and as typed (lower case, typos), long and odd inputs."""
    texts: list[str] = []
    with demo_graph_path().open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            texts += [
                row["subject_label"],
                f"{row['subject_label']} {row['predicate']} {row['object_label'] or row['object']}",
            ]
    with demo_questions_path().open(encoding="utf-8") as f:
        questions = [row["question"] for row in csv.DictReader(f)]
    texts += questions + [q.lower().replace("the ", "teh ") for q in questions]
    texts += [
        "",
        " ",
        "a",
        "2019",
        "ICSA",
        "Ünïcödé — “quotes” ½ 東京 🚀",
        "word " * 400,
        "Which papers were published at ICSA in 2019?" * 20,
        "\t\nnew\nlines\t",
        "R659055",
        "x" * 2000,
    ]
    texts = list(dict.fromkeys(texts))
    return texts[:400]


@pytest.fixture(scope="module")
def onnx_embedder(tmp_path_factory):
    cache = Path(os.environ.get("KGQA_CACHE_DIR") or tmp_path_factory.mktemp("kgqa-cache"))
    return get_embedder(MODEL, backend="onnx", cache_dir=cache)


@pytest.mark.slow
def test_onnx_vectors_equal_the_torch_model(onnx_embedder):
    texts = _varied_texts()
    assert len(texts) >= 300
    torch_vectors = get_embedder(MODEL, backend="torch").embed(texts)
    onnx_vectors = onnx_embedder.embed(texts)
    assert onnx_vectors.shape == torch_vectors.shape == (len(texts), 384)
    assert onnx_vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(onnx_vectors, axis=1), 1.0, atol=1e-5)
    cosine = (onnx_vectors * torch_vectors).sum(axis=1)
    worst = int(np.argmin(cosine))
    assert cosine.min() >= 0.9999, f"cosine {cosine.min():.6f} for {texts[worst][:60]!r}"
    # the same text in a batch of one and in a padded batch: padding must not leak into the mean
    alone = get_embedder(MODEL, backend="onnx", cache_dir=onnx_embedder.cache_dir).embed([texts[5]])[0]
    assert float(alone @ onnx_vectors[5]) >= 0.99999


def test_batch_sessions_do_not_spin_beside_other_work(onnx_embedder):
    """A build embeds on one thread while another writes: the multi-threaded session's workers sleep
    between operators (ONNX Runtime's allow_spinning=0) instead of holding the cores."""
    texts = _varied_texts()[:80]
    batch = onnx_embedder.embed(texts)
    sessions = onnx_embedder._sessions
    assert sessions, "no ONNX session was opened"
    for threads, session in sessions.items():
        entry = session.get_session_options().get_session_config_entry("session.intra_op.allow_spinning")
        assert entry == "0", f"the {threads}-thread session spins ({entry!r})"
    onnx_embedder.forget()
    single = onnx_embedder.embed(texts[:3])  # a small batch: the single-threaded session
    np.testing.assert_allclose(single, batch[:3], atol=1e-5)


@pytest.mark.slow
def test_export_is_cached_by_hash_and_written_atomically(onnx_embedder, tmp_path):
    files = read_model_files(MODEL)
    path = onnx_embedder.model_path()
    assert path == onnx_file(onnx_embedder.cache_dir, files, "fp32") and path.is_file()
    assert path.parent.name == files.digest()[:16]  # keyed by the model files' content
    before = path.stat().st_mtime_ns
    assert ensure_onnx(onnx_embedder.cache_dir, files) == path and path.stat().st_mtime_ns == before
    assert not list(path.parent.glob("*.tmp")), "a temporary file was left behind"
    # KGQA_CACHE_DIR is where `kgqa model status` looks; a copied file is found without torch
    other = tmp_path / "cache"
    target = onnx_file(other, files, "fp32")
    target.parent.mkdir(parents=True)
    shutil.copy(path, target)
    env = dict(os.environ, KGQA_CACHE_DIR=str(other), HF_HUB_OFFLINE="1", KGQA_DB=str(tmp_path / "x.kuzu"))
    status = subprocess.run(
        [sys.executable, "-c", CLI_WITHOUT_TORCH, "model", "status", "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert status.returncode == 0, status.stderr
    data = json.loads(status.stdout)
    assert data["embedder"] == "onnx-fp32" and data["onnx_files"] == {"fp32": str(target)}
    assert data["can_export"] is False  # torch is blocked


@pytest.mark.slow
def test_int8_is_another_vector_space(onnx_embedder):
    int8 = get_embedder(MODEL, backend="onnx-int8", cache_dir=onnx_embedder.cache_dir)
    assert int8.name == f"{onnx_embedder.name}+onnx-int8-pc" and int8.label == "onnx-int8"
    assert int8.model_path().name == "model-int8-per-channel.onnx"  # not the per-tensor file of before
    texts = _varied_texts()[:100]
    cosine = (int8.embed(texts) * onnx_embedder.embed(texts)).sum(axis=1)
    # per-channel weights, attention products left in fp32: close (the per-tensor recipe gave 0.95
    # mean and 0.85 minimum), but not the same vectors
    assert 0.98 < cosine.mean() < 0.99999 and cosine.min() > 0.93
    fp32_index = IndexInfo(onnx_embedder.name, 384, {}, "complete", {}, "torch-fp32")
    assert check_compatible(fp32_index, get_embedder(MODEL, backend="torch").name)
    with pytest.raises(IndexMismatchError):
        check_compatible(fp32_index, int8.name)


def test_unknown_backend_is_a_config_error():
    with pytest.raises(ConfigError, match="KGQA_EMBEDDER"):
        get_embedder(MODEL, backend="tensorflow")


def _kgqa_without_torch(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", CLI_WITHOUT_TORCH, *args],
        capture_output=True,
        text=True,
        env=dict(os.environ, HF_HUB_OFFLINE="1", **env),
        timeout=600,
    )


def _loaded(proc: subprocess.CompletedProcess) -> list[str]:
    line = [x for x in proc.stderr.splitlines() if x.startswith("LOADED=")][-1]
    return json.loads(line.removeprefix("LOADED="))


def test_help_and_stats_load_neither_torch_nor_the_model(tmp_path):
    env = {"KGQA_DB": str(tmp_path / "kg.kuzu"), "KGQA_CACHE_DIR": str(tmp_path / "cache")}
    for args in (("--help",), ("init",), ("stats",)):
        code = (
            "import json, sys\nfrom kgqa_cli.main import main\nsys.argv = ['kgqa', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('torch', 'sentence_transformers', 'transformers', 'onnxruntime', 'anthropic'))))"
        )
        proc = subprocess.run(
            [sys.executable, "-c", code, *args],
            capture_output=True,
            text=True,
            env=dict(os.environ, **env),
            timeout=300,
        )
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout.splitlines()[-1]) == [], f"kgqa {' '.join(args)} imported them"
    assert not (tmp_path / "cache").exists()  # nothing was exported or hashed either


@pytest.mark.slow
def test_ask_without_torch(onnx_embedder, tmp_path):
    """An index built with torch answers through ONNX in a process where torch cannot be imported;
    without the cached ONNX file the same process says how to create it."""
    db = tmp_path / "demo.kuzu"
    base = {"KGQA_DB": str(db), "KGQA_EMBEDDER": "torch"}
    for args in (("init",), ("load", str(demo_graph_path())), ("index", "build", "--hub-type", "Paper")):
        proc = subprocess.run(
            [sys.executable, "-m", "kgqa_cli.main", "-q", *args],
            capture_output=True,
            text=True,
            env=dict(os.environ, HF_HUB_OFFLINE="1", **base),
            timeout=900,
        )
        assert proc.returncode == 0, proc.stderr
    status = subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", "index", "status", "--json"],
        capture_output=True,
        text=True,
        env=dict(os.environ, HF_HUB_OFFLINE="1", **base),
        timeout=300,
    )
    assert json.loads(status.stdout)["embedder"] == "torch-fp32"  # the index records which backend wrote it
    question = ("ask", "Which papers were published at ICSA in 2019?", "--topic-entity", "F01", "--json")
    with_torch = subprocess.run(
        [sys.executable, "-m", "kgqa_cli.main", *question],
        capture_output=True,
        text=True,
        env=dict(os.environ, HF_HUB_OFFLINE="1", **base),
        timeout=600,
    )
    assert with_torch.returncode == 0, with_torch.stderr

    cached = {"KGQA_DB": str(db), "KGQA_CACHE_DIR": str(onnx_embedder.cache_dir)}
    onnx_embedder.model_path()  # exported (with torch) in this process
    proc = _kgqa_without_torch(*question, env=cached)
    assert proc.returncode == 0, proc.stderr
    assert _loaded(proc) == []
    answer, expected = json.loads(proc.stdout), json.loads(with_torch.stdout)
    assert answer["triples"] == expected["triples"] and answer["sources"] == expected["sources"]
    assert answer["triples"]  # the ICSA 2019 papers

    for setting in ("auto", "onnx"):
        missing = _kgqa_without_torch(
            *question,
            env={"KGQA_DB": str(db), "KGQA_EMBEDDER": setting, "KGQA_CACHE_DIR": str(tmp_path / "empty-cache")},
        )
        assert missing.returncode == 7, missing.stderr
        assert "kgqa model export" in missing.stderr and "Traceback" not in missing.stderr
        assert _loaded(missing) == []


@pytest.mark.slow
def test_an_int8_index_is_asked_in_int8_by_default(onnx_embedder, tmp_path):
    """An index built with KGQA_EMBEDDER=onnx-int8 records that space; with the default setting
    (auto) questions are embedded by the same variant, and an explicit fp32 setting is refused."""
    env = dict(os.environ, HF_HUB_OFFLINE="1", KGQA_DB=str(tmp_path / "g.kuzu"))
    env["KGQA_CACHE_DIR"] = str(onnx_embedder.cache_dir)
    env.pop("KGQA_EMBEDDER", None)

    def kgqa(*args: str, **extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "kgqa_cli.main", *args],
            capture_output=True,
            text=True,
            env={**env, **extra},
            timeout=600,
        )

    for args in (("init",), ("load", str(demo_graph_path()))):
        assert kgqa("-q", *args).returncode == 0
    built = kgqa("-q", "index", "build", "--hub-type", "Paper", KGQA_EMBEDDER="onnx-int8")
    assert built.returncode == 0, built.stderr
    status = json.loads(kgqa("index", "status", "--json").stdout)
    assert status["embedding_model"] == f"{MODEL}+onnx-int8-pc" and status["embedder"] == "onnx-int8"
    question = ("ask", "Which papers were published at ICSA in 2019?", "--topic-entity", "F01", "--json")
    answered = kgqa(*question)
    assert answered.returncode == 0, answered.stderr
    assert json.loads(answered.stdout)["triples"]
    refused = kgqa(*question, KGQA_EMBEDDER="onnx")
    assert refused.returncode == 5 and "onnx-int8-pc" in refused.stderr
