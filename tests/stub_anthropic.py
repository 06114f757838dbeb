"""A local stub of the Anthropic Messages API (`POST /v1/messages`) for tests and the bench.

It listens on 127.0.0.1 (a random port), records every request, and answers each one from, in
order: the scripted queue (`script`), the rules (`rule`), else the default "smart" responder, which
recognises this project's prompts by their system text and produces a valid reply for each kind, so
whole pipelines run. Token counts in `usage` are ceil(characters / 4): of the system prompt plus all
message texts for input, of the reply text for output. No network beyond the loopback is used."""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from kgqa.llm.prompts import PROMPTS

KIND_BY_SYSTEM = {p.system: name for name, p in PROMPTS.items()}
_STOP = (
    "a among an and are as at be been by did do does for from has have how in is it its many most of on "
    "or that the their them these this those to was were what when where which who whom whose why with "
    "paper papers"
)
STOPWORDS = frozenset(_STOP.split(" "))


@dataclass
class Reply:
    """One scripted answer: reply text (status 200) or an error status with an API error body."""

    text: str = ""
    status: int = 200
    error_type: str = ""
    message: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (timeouts)


def error(status: int, error_type: str, message: str, **headers: str) -> Reply:
    """An API error reply, e.g. error(429, "rate_limit_error", "slow down", **{"retry-after": "0.2"})."""
    return Reply(
        status=status,
        error_type=error_type,
        message=message,
        headers={k.replace("_", "-"): v for k, v in headers.items()},
    )


def tokens(text: str) -> int:
    """The stub's token count: ceil(characters / 4)."""
    return -(-len(text) // 4)


def request_text(body: dict[str, Any]) -> str:
    """System prompt plus every message's text, as the stub counts input tokens."""
    parts = [body.get("system") or ""]
    for m in body.get("messages", []):
        content = m.get("content")
        if isinstance(content, str):
            parts.append(content)
        else:
            parts += [b.get("text", "") for b in content or [] if isinstance(b, dict)]
    return "".join(parts)


def kind_of(body: dict[str, Any]) -> str:
    """Which of our prompts a request uses ("unknown" otherwise)."""
    return KIND_BY_SYSTEM.get(body.get("system") or "", "unknown")


# -- the smart responder: a deterministic stand-in for a model, one function per prompt kind --------
def _first_user(body: dict[str, Any]) -> str:
    content = body["messages"][0]["content"]
    return content if isinstance(content, str) else "".join(b.get("text", "") for b in content)


def _field(text: str, name: str) -> str:
    m = re.search(rf"^{name}: (.*)$", text, re.MULTILINE)
    return m.group(1).strip() if m else ""


def _numbered(text: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^\d+\. (.*)$", text, re.MULTILINE)]


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2 and w not in STOPWORDS}


def smart_reply(body: dict[str, Any]) -> str:
    """A valid reply for each of our prompt kinds, computed from the prompt's content."""
    kind, user = kind_of(body), _first_user(body)
    if kind == "components":  # quoted titles, years, capitalised names, then the remaining content words
        q = _field(user, "Question")
        quoted = re.findall(r"'([^']+)'", q)
        rest = re.sub(r"'[^']+'", " ", q)
        parts = quoted + re.findall(r"\b(?:19|20)\d{2}\b", rest)
        names = [m for m in re.findall(r"\b[A-Z][\w-]*(?: [A-Z][\w-]*)*", rest) if m.lower() not in STOPWORDS]
        parts += names
        named = _words(" ".join(parts))
        parts += [
            w for w in re.findall(r"\b[a-z][a-z-]+\b", rest) if w not in STOPWORDS and len(w) > 3 and w not in named
        ]
        return json.dumps(list(dict.fromkeys(parts)) or [q])
    if kind == "verbalise_paths":
        out = []
        for line in _numbered(user):
            pieces = re.split(r" --(.+?)--> ", line)
            nodes, preds = pieces[0::2], pieces[1::2]
            clauses = [f"{nodes[0]} has {preds[0]} {nodes[1]}"] if preds else [nodes[0]]
            clauses += [f"which has {p} {n}" for p, n in zip(preds[1:], nodes[2:])]
            out.append(", ".join(clauses) + ".")
        return json.dumps(out)
    if kind == "partial_answer":
        q = _words(_field(user, "Question"))
        facts = _numbered(user.split("Facts:", 1)[1])
        used = [i for i, f in enumerate(facts, start=1) if q & _words(f)]
        if not used:
            return json.dumps({"relevant": False, "answer": "", "facts": []})
        text = f"{_field(user, 'Source')}: " + "; ".join(facts[i - 1] for i in used[:5])
        return json.dumps({"relevant": True, "answer": text, "facts": used})
    if kind == "final_answer":
        lines = re.findall(r"^\[(\d+)\] (.*)$", user, re.MULTILINE)
        return "From the knowledge graph: " + " ".join(f"{text} [{n}]." for n, text in lines)
    if kind == "select_triples":
        return json.dumps(list(range(1, len(_numbered(user.split("Triples:", 1)[1])) + 1)))
    return "I do not recognise this prompt."


class StubAnthropic:
    """The stub server. Use as a context manager; `url` is the base URL for the SDK."""

    def __init__(self, responder: Callable[[dict[str, Any]], str] = smart_reply) -> None:
        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        self.queue: deque[Reply] = deque()
        self.rules: list[Callable[[dict[str, Any]], Reply | None]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """Base URL (http://127.0.0.1:PORT)."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    def script(self, *replies: Reply | str) -> None:
        """Answer the next requests with these, in order (a str is a 200 reply text)."""
        self.queue.extend(Reply(r) if isinstance(r, str) else r for r in replies)

    def rule(self, fn: Callable[[dict[str, Any]], Reply | str | None]) -> None:
        """Consult `fn(body)` for every request not answered by the script; None passes."""
        self.rules.append(lambda body: Reply(r) if isinstance(r := fn(body), str) else r)

    def kinds(self) -> list[str]:
        """The prompt kind of each recorded request."""
        return [r["kind"] for r in self.requests]

    def reset(self) -> None:
        """Forget recorded requests, script and rules."""
        with self._lock:
            self.requests.clear()
            self.queue.clear()
            self.rules.clear()
            self.max_in_flight = 0

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    # -- serving -------------------------------------------------------------------------------
    def _choose(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self.queue:
                return self.queue.popleft()
        for rule in list(self.rules):
            reply = rule(body)
            if reply is not None:
                return reply
        return Reply(self.responder(body))

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length", 0)))
                body = json.loads(raw or b"{}")
                reply = (
                    stub._choose(body)
                    if self.path.rstrip("/").endswith("/v1/messages")
                    else error(404, "not_found_error", f"no route {self.path}")
                )
                limit = 4 * int(body.get("max_tokens") or 0)
                stop = "end_turn"
                if reply.status == 200 and limit and len(reply.text) > limit:  # like the API: cut at max_tokens
                    reply, stop = replace(reply, text=reply.text[:limit]), "max_tokens"
                record = {
                    "path": self.path,
                    "kind": kind_of(body),
                    "body": body,
                    "status": reply.status,
                    "auth": self.headers.get("x-api-key") or self.headers.get("authorization"),
                    "input_tokens": tokens(request_text(body)),
                    "output_tokens": tokens(reply.text) if reply.status == 200 else 0,
                    "at": time.monotonic(),
                }
                with stub._lock:
                    stub.requests.append(record)
                    stub.in_flight += 1
                    stub.max_in_flight = max(stub.max_in_flight, stub.in_flight)
                try:
                    if reply.delay:
                        time.sleep(reply.delay)
                    self._send(reply, body, record, stop)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout)
                finally:
                    with stub._lock:
                        stub.in_flight -= 1

            def _send(self, reply: Reply, body: dict[str, Any], record: dict[str, Any], stop: str) -> None:
                if reply.status == 200:
                    payload = {
                        "id": f"msg_stub_{len(stub.requests)}",
                        "type": "message",
                        "role": "assistant",
                        "model": body.get("model", "stub"),
                        "content": [{"type": "text", "text": reply.text}],
                        "stop_reason": stop,
                        "stop_sequence": None,
                        "usage": {"input_tokens": record["input_tokens"], "output_tokens": record["output_tokens"]},
                    }
                else:
                    payload = {"type": "error", "error": {"type": reply.error_type, "message": reply.message}}
                data = json.dumps(payload).encode("utf-8")
                self.send_response(reply.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

        return Handler
