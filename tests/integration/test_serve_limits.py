"""HTTP limits of `kgqa serve` (a real service process, raw sockets): a body over the cap is refused
with 413 before it is read (a declared 200 MB Content-Length at once; a chunked body once it passes the
cap), and the service goes on answering."""

from __future__ import annotations

import json
import socket
import time
from urllib.parse import urlsplit

import pytest
from serve_helpers import Service, build_demo_db

from kgqa.service.limits import MAX_BODY_BYTES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def service(tmp_path_factory, embedder):
    svc = Service(build_demo_db(tmp_path_factory.mktemp("limits") / "demo.kuzu", embedder))
    yield svc
    assert svc.stop() == 0


def raw(svc: Service, head: str, body_chunks: list[bytes], timeout: float = 30) -> tuple[int, dict, float]:
    """Send `head` and then as much of `body_chunks` as the service reads; (status, JSON body, seconds)."""
    url = urlsplit(svc.url)
    start = time.monotonic()
    with socket.create_connection((url.hostname, url.port), timeout=timeout) as sock:
        sock.sendall(head.encode())
        try:
            for chunk in body_chunks:
                sock.sendall(chunk)
        except OSError:  # the service answered and closed: it did not read the rest
            pass
        reply = b""
        while b"\r\n\r\n" not in reply or len(reply.split(b"\r\n\r\n", 1)[1]) < _length(reply):
            data = sock.recv(65536)
            if not data:
                break
            reply += data
    head_part, _, payload = reply.partition(b"\r\n\r\n")
    status = int(head_part.split()[1])
    return status, json.loads(payload[: _length(reply)]), time.monotonic() - start


def _length(reply: bytes) -> int:
    for line in reply.split(b"\r\n\r\n", 1)[0].split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return int(line.split(b":")[1])
    return 0


def test_a_declared_huge_body_is_refused_at_once(service):
    head = (
        "POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"Content-Length: {200 * 1024 * 1024}\r\n\r\n"
    )
    status, body, took = raw(service, head, [b'{"question": "' + b"x" * 1000])
    assert status == 413 and body["error"]["type"] == "PayloadTooLarge" and "8 MiB" in body["error"]["message"]
    assert took < 5


def test_a_chunked_body_past_the_cap_is_refused(service):
    head = (
        "POST /v1/triples HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    )
    piece = b"x" * (1024 * 1024)
    chunks = [b"%x\r\n%s\r\n" % (len(piece), piece) for _ in range(MAX_BODY_BYTES // len(piece) + 2)] + [b"0\r\n\r\n"]
    status, body, _ = raw(service, head, chunks)
    assert status == 413 and body["error"]["type"] == "PayloadTooLarge", body
    status, answer, _ = raw(
        service,
        "POST /v1/ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 29\r\n\r\n",
        [b'{"question": "Who wrote P01?"}'[:29]],
    )
    assert status in (200, 404, 422), answer  # the service still answers
