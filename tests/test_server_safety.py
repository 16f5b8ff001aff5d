"""The render service against clients that misbehave and inputs built to take it down (issue
19): renders bounded in memory, stalled uploads shed, a client that leaves mid-upload ends
quietly, the Host check not fooled by userinfo, and the service run as several workers."""

from __future__ import annotations

import asyncio
import logging
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette")
import httpx2  # noqa: E402

import volley  # noqa: E402
from volley.server import ServerLimits, create_app  # noqa: E402
from volley.server.app import _hostname  # noqa: E402

SMALL = "A -> B: ping\nB --> A: pong\n"


def call(app, method: str, path: str, messages: list[dict], *, hold: float = 0.0) -> list[dict]:
    """Drive the ASGI app by hand: `messages` are what the client sends (then nothing, for
    `hold` seconds, or a disconnect); the answer is what the app sent back."""
    sent: list[dict] = []

    async def run() -> None:
        queue = list(messages)

        async def receive() -> dict:
            if queue:
                return queue.pop(0)
            await asyncio.sleep(hold)
            return {"type": "http.disconnect"}

        async def send(message: dict) -> None:
            sent.append(message)

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": [(b"host", b"127.0.0.1"), (b"transfer-encoding", b"chunked")],
            "client": ("127.0.0.1", 5000),
            "server": ("127.0.0.1", 8000),
            "scheme": "http",
        }
        await app(scope, receive, send)

    asyncio.run(run())
    return sent


def status(sent: list[dict]) -> int:
    return next(m["status"] for m in sent if m["type"] == "http.response.start")


def test_a_stalled_upload_is_answered_408_at_the_body_timeout():
    app = create_app(limits=ServerLimits(body_seconds=0.3))
    part = {"type": "http.request", "body": b"A -> B", "more_body": True}
    sent = call(app, "POST", "/render", [part], hold=30)  # then nothing for 30 s
    assert status(sent) == 408
    assert b"stopped arriving" in b"".join(m.get("body", b"") for m in sent)


def test_a_client_that_leaves_mid_upload_leaves_no_traceback(caplog):
    app = create_app()
    part = {"type": "http.request", "body": b"A -> B", "more_body": True}
    with caplog.at_level(logging.DEBUG):
        call(app, "POST", "/render", [part])  # then the client disconnects
    assert not [r for r in caplog.records if r.exc_info]


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1:8000@evil.example", "evil.example#127.0.0.1", "127.0.0.1 evil", "a/b", "[::1"],
)
def test_the_host_check_refuses_anything_but_a_name_and_a_port(host):
    assert _hostname(host) == ""
    app = create_app(allowed_hosts=["127.0.0.1", "localhost"])
    transport = httpx2.ASGITransport(app=app)

    async def get() -> httpx2.Response:
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            return await c.get("/healthz", headers={"Host": host})

    assert asyncio.run(get()).status_code == 421


@pytest.mark.parametrize(
    ("host", "name"),
    [("127.0.0.1:8000", "127.0.0.1"), ("LocalHost", "localhost"), ("[::1]:80", "::1")],
)
def test_the_host_check_reads_real_hosts(host, name):
    assert _hostname(host) == name


def test_a_render_over_its_memory_limit_fails_clearly_and_the_server_goes_on():
    # Limits raised out of the way so that only the memory limit stands: a PNG of about
    # 8,000 x 12,000 pixels needs some 400 MB for its surface alone.
    huge = volley.Limits(pixels=10**10)
    limits = ServerLimits(render_memory_bytes=300_000_000, max_scale=16.0, diagram=huge)
    app = create_app(limits=limits)
    lanes = [f"P{i}" for i in range(12)]
    source = "\n".join(f"{a} -> {b}: call" for a, b in zip(lanes, lanes[1:], strict=False))

    async def both() -> tuple[httpx2.Response, httpx2.Response]:
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            big = await c.post("/render?format=png&scale=16", content=source)
            small = await c.post("/render?format=png", content=SMALL)
            return big, small

    big, small = asyncio.run(both())
    assert big.status_code == 422, big.text
    assert "memory" in big.json()["error"]["message"]
    assert small.status_code == 200


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for(base: str, server: subprocess.Popen) -> None:
    for _ in range(300):
        try:
            if httpx2.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx2.HTTPError:
            time.sleep(0.1)
    pytest.fail("the server did not start: " + server.stderr.read1().decode())


def closed_within(connection: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed the connection, or None if it was still open."""
    started = time.monotonic()
    connection.settimeout(seconds)
    try:
        while connection.recv(65536):
            pass
    except TimeoutError:
        return None
    except ConnectionResetError:
        pass
    return time.monotonic() - started


def test_a_client_whose_headers_trickle_in_is_cut_off_at_the_header_timeout():
    """Slowloris: headers sent a piece at a time, on a new connection and on a kept-alive one
    after a first answer, are cut off at --header-timeout; a prompt client is answered."""
    port = free_port()
    command = [sys.executable, "-m", "volley", "serve", "--port", str(port),
               "--header-timeout", "1"]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(base, server)
        with socket.create_connection(("127.0.0.1", port)) as slow:
            slow.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            took = closed_within(slow, 5)
        assert took is not None and took < 3
        with socket.create_connection(("127.0.0.1", port)) as kept:
            kept.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            kept.settimeout(5)
            assert kept.recv(65536).startswith(b"HTTP/1.1 200")
            kept.sendall(b"GET /healthz HTTP/1.1\r\n")  # the next request, never finished
            time.sleep(0.5)
            kept.sendall(b"Host: 127.0.0.1\r\n")  # data keeps arriving, headers never end
            took = closed_within(kept, 5)
        assert took is not None and took < 3
        answer = httpx2.get(base + "/healthz", timeout=5)
        assert answer.status_code == 200
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_the_service_runs_as_several_uvicorn_workers():
    """The documented command: the app factory under `uvicorn --workers 2`; every worker
    answers renders and share images alike, since no request depends on another."""
    pytest.importorskip("uvicorn")
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "--factory", "volley.server:create_app",
               "--http", "volley.server.protocol:HeaderDeadline",
               "--host", "127.0.0.1", "--port", str(port), "--workers", "2"]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_for(base, server)
        with httpx2.Client(base_url=base, timeout=30) as client:
            answers = [client.post("/render", content=SMALL) for _ in range(6)]
        assert all(a.status_code == 200 and "ping" in a.text for a in answers)
        workers = subprocess.run(["pgrep", "-P", str(server.pid)], capture_output=True, text=True)
        assert len(workers.stdout.split()) >= 2
    finally:
        server.terminate()
        server.wait(timeout=30)
