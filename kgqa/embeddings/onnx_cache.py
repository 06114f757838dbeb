"""The user cache of exported ONNX models: one folder per model-file hash, files written atomically."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from kgqa.embeddings.model_files import ModelFiles

#: The variants of a model's ONNX file: fp32 (the same vectors as torch) and dynamic int8.
VARIANTS = ("fp32", "int8")
#: Each variant's file name. The int8 file is quantised per channel (kgqa/embeddings/onnx_export.py);
#: a "model-int8.onnx" left by the earlier per-tensor recipe is another vector space and is not used.
FILE_NAMES = {"fp32": "model-fp32.onnx", "int8": "model-int8-per-channel.onnx"}
_DIGESTS = "digests.json"


def onnx_file(cache_dir: Path, files: ModelFiles, variant: str) -> Path:
    """Where the ONNX file of `variant` for these model files lives (whether or not it exists yet)."""
    return cache_dir / "onnx" / model_digest(cache_dir, files)[:16] / FILE_NAMES[variant]


def model_digest(cache_dir: Path, files: ModelFiles) -> str:
    """The model files' SHA-256, remembered in the cache by their names, sizes and mtimes, so that a
    process start does not read the 90 MB of weights again."""
    stamp = _stat_stamp(files.directory)
    memo_path = cache_dir / _DIGESTS
    try:
        memo = json.loads(memo_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        memo = {}
    if not isinstance(memo, dict):
        memo = {}
    digest = memo.get(stamp)
    if not isinstance(digest, str):
        digest = files.digest()
        memo[stamp] = digest
        try:
            write_atomically(memo_path, lambda tmp: tmp.write_text(json.dumps(memo), encoding="utf-8"))
        except OSError:
            pass  # a read-only cache still works; the hash is recomputed next time
    return digest


def _stat_stamp(directory: Path) -> str:
    h = hashlib.sha256(str(directory.resolve()).encode())
    for path in sorted(p for p in directory.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        st = path.stat()
        h.update(f"{path.relative_to(directory)}|{st.st_size}|{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def write_atomically(dest: Path, write: Callable[[Path], object]) -> Path:
    """Run `write(tmp)` on a temporary file beside `dest`, then rename it into place: readers see
    either no file or a whole one, and concurrent writers leave one whole file."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        write(tmp)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private; the cache is the user's ordinary files
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)
    return dest
