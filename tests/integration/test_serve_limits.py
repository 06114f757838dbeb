"""HTTP limits of `kgqa serve` (a real service process, raw sockets): a body over the cap is refused
with 413 before it is read (a declared 200 MB Content-Length at once; a chunked body once it passes the
cap), and the service goes on answering; headers sent byte by byte are cut with 408 after the header
timeout; 200 idle sockets against a service with 128 descriptors do not lock a real request out."""

from __future__ import annotations

import json
import resource
import shutil
import socket
import time
from urllib.parse import urlsplit

import pytest
from serve_helpers import Service, build_demo_db

from kgqa.service.limits import MAX_BODY_BYTES
from kgqa.service.protocol import HEADER_TIMEOUT_S

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory, embedder):
    return build_demo_db(tmp_path_factory.mktemp("limits") / "demo.kuzu", embedder)


@pytest.fixture(scope="module")
def service(demo_db):
    svc = Service(demo_db)
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


def test_headers_sent_byte_by_byte_are_cut_after_the_header_timeout(service):
    url = urlsplit(service.url)
    head = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 1000
    start = time.monotonic()
    with socket.create_connection((url.hostname, url.port), timeout=5) as sock:
        reply = b""
        for byte in head:  # one byte every 0.25 s: never a complete request
            try:
                sock.sendall(bytes([byte]))
                time.sleep(0.25)
            except OSError:  # the service closed the connection
                break
            if time.monotonic() - start > HEADER_TIMEOUT_S + 15:
                break
        try:
            while data := sock.recv(4096):
                reply += data
        except OSError:
            pass
    took = time.monotonic() - start
    assert reply.startswith(b"HTTP/1.1 408"), reply
    assert HEADER_TIMEOUT_S - 1 < took < HEADER_TIMEOUT_S + 10, took
    assert service.request("GET", "/v1/health")[0] == 200


def _nofile_128() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (128, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def test_idle_sockets_past_the_descriptor_limit_leave_room_for_real_requests(demo_db, tmp_path):
    copy = tmp_path / "demo.kuzu"  # a second service needs its own database
    shutil.copy(demo_db, copy)
    svc = Service(copy, preexec_fn=_nofile_128)
    url = urlsplit(svc.url)
    idle: list[socket.socket] = []
    try:
        for _ in range(200):  # more than the service's 128 descriptors
            idle.append(socket.create_connection((url.hostname, url.port), timeout=5))
        time.sleep(1)
        start = time.monotonic()
        status, body, _ = svc.request("GET", "/v1/health")
        assert status == 200, body
        assert time.monotonic() - start < HEADER_TIMEOUT_S  # not by waiting for the idle ones' timeout
        idle[0].settimeout(5)
        assert idle[0].recv(1) == b""  # the longest-idle connection made room
    finally:
        for sock in idle:
            sock.close()
        assert svc.stop() == 0
