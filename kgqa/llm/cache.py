"""A persistent LLM response cache: one sqlite file, keyed by the SHA-256 of the whole request."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kgqa.errors import ConfigError

_SCHEMA = """CREATE TABLE IF NOT EXISTS llm_responses (
    key TEXT PRIMARY KEY, model TEXT NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL,
    input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
    created TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP)"""


def request_key(
    model: str, system: str, messages: list[dict[str, Any]], max_tokens: int, temperature: float | None
) -> str:
    """The cache key of a request: SHA-256 over (model, system, messages, max_tokens, temperature)."""
    blob = json.dumps(
        [model, system, messages, max_tokens, temperature], ensure_ascii=False, sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CachedReply:
    """A stored reply with the tokens its original request spent."""

    text: str
    input_tokens: int
    output_tokens: int


class ResponseCache:
    """Thread-safe get/put on a sqlite file (created on first use, with its folder)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
            self._db.execute(_SCHEMA)
            self._db.commit()
        except (OSError, sqlite3.Error) as exc:
            raise ConfigError(f"cannot open the LLM response cache {self.path}: {exc}") from exc
        self._lock = threading.Lock()

    def get(self, key: str) -> CachedReply | None:
        """The stored reply for `key`, if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT text, input_tokens, output_tokens FROM llm_responses WHERE key = ?", (key,)
            ).fetchone()
        return CachedReply(*row) if row else None

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not None

    def put(self, key: str, model: str, kind: str, reply: CachedReply) -> None:
        """Store (or replace) the reply for `key`."""
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO llm_responses (key, model, kind, text, input_tokens, "
                "output_tokens) VALUES (?, ?, ?, ?, ?, ?)",
                (key, model, kind, reply.text, reply.input_tokens, reply.output_tokens),
            )
            self._db.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM llm_responses").fetchone()[0])

    def close(self) -> None:
        """Close the file."""
        with self._lock:
            self._db.close()
