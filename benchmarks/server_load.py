"""Load on the render service: 200 concurrent clients for 60 s, small renders mixed with bombs.

    python benchmarks/server_load.py                      # 200 clients, 60 s, 2 render workers
    python benchmarks/server_load.py --clients 50 --seconds 20

Starts the service (`uvicorn --factory volley.server:create_app`) on 127.0.0.1 only, on a free
port, and stops it at the end; nothing leaves the machine. Each client loops: mostly small
renders (POST /render), and one request in ten a bomb (a PNG at scale 3.99 of a wide diagram,
a share link of 120,000 dividers, 40,000 messages as SVG). A separate probe asks /healthz
every 100 ms. Printed: p50/p99 latency of small renders and of /healthz, answers by status,
and the peak memory (RSS) of the server with its render processes.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import httpx2

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from volley import editor_links as share  # noqa: E402

HOST = "127.0.0.1"  # loopback only, by construction
SMALL = "title: Login\nBrowser -> API: POST /login\nAPI --> Browser: 200 OK\n"
_LANES = [f"P{i}" for i in range(40)]
WIDE = "\n".join(f"{a} -> {b}: call" for a, b in zip(_LANES, _LANES[1:], strict=False)) * 3
BOMBS = [
    ("GET", "/png/" + share.encode(WIDE) + "?scale=3.99", None),
    ("GET", "/svg/" + share.encode("A -> B\n" + "_:\n" * 120_000), None),
    ("POST", "/render?format=svg", "A -> B: ping\nB --> A: pong\n" * 20_000),
]


def wait_until_up(base: str, seconds: float = 60.0) -> None:
    """Until the server at `base` answers /healthz (it is starting)."""
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        try:
            if httpx2.get(base + "/healthz", timeout=1).status_code == 200:
                return
        except httpx2.HTTPError:
            time.sleep(0.1)
    raise SystemExit(f"the server at {base} did not start within {seconds:g} s")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def tree_rss(pid: int) -> int:
    """Resident bytes of a process and all its descendants (Linux /proc)."""
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            tasks = Path(f"/proc/{current}/task").iterdir()  # a thread may own children too
            children = [c for task in tasks for c in (task / "children").read_text().split()]
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) * 1024
        todo += [int(child) for child in children]
    return total


class Connection:
    """One kept-alive HTTP/1.1 connection, spoken with asyncio streams.

    The load comes from one Python process on the same two cores as the server, so the client
    must cost little per request: a full HTTP library spends more CPU on 200 clients than the
    server does on their renders, and its own queue shows up as server latency.
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, path: str, body: str | None = None) -> int:
        """The answer's status code; OSError or IncompleteReadError when the connection fails."""
        if self.streams is None:
            self.streams = await asyncio.open_connection(HOST, self.port, limit=2**24)
        reader, writer = self.streams
        data = (body or "").encode()
        head = f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: {len(data)}\r\n\r\n"
        try:
            writer.write(head.encode() + data)
            status = int((await reader.readuntil(b"\r\n")).split()[1])
            length, close = 0, False
            for line in (await reader.readuntil(b"\r\n\r\n")).split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
                elif name.lower() == b"connection" and value.strip().lower() == b"close":
                    close = True
            await reader.readexactly(length)
        except BaseException:
            self.close()
            raise
        if close:
            self.close()
        return status

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
        self.streams = None


_FAILURES = (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError)


async def client(port: int, stop: float, small: list[float], codes: Counter) -> None:
    connection = Connection(port)
    while time.monotonic() < stop:
        if random.random() < 0.1:
            method, path, body = random.choice(BOMBS)
            kind = "bomb"
        else:
            method, path, body, kind = "POST", "/render?format=svg", SMALL, "small"
        started = time.monotonic()
        try:
            code = await connection.request(method, path, body)
            codes[f"{kind} {code}"] += 1
            if kind == "small" and code == 200:
                small.append(time.monotonic() - started)
        except _FAILURES as exc:
            codes[f"{kind} {type(exc).__name__}"] += 1
    connection.close()


async def probe(port: int, stop: float, health: list[float], codes: Counter) -> None:
    connection = Connection(port)
    while time.monotonic() < stop:
        started = time.monotonic()
        try:
            code = await connection.request("GET", "/healthz")
            codes[f"healthz {code}"] += 1
            health.append(time.monotonic() - started)
        except _FAILURES as exc:
            codes[f"healthz {type(exc).__name__}"] += 1
        await asyncio.sleep(0.1)
    connection.close()


async def watch(pid: int, stop: float, peak: list[int]) -> None:
    while time.monotonic() < stop:
        peak[0] = max(peak[0], tree_rss(pid))
        await asyncio.sleep(0.5)


async def load(port: int, pid: int, clients: int, seconds: float) -> None:
    stop = time.monotonic() + seconds
    small: list[float] = []
    health: list[float] = []
    codes: Counter[str] = Counter()
    peak = [0]
    await asyncio.gather(
        *(client(port, stop, small, codes) for _ in range(clients)),
        probe(port, stop, health, codes),
        watch(pid, stop, peak),
    )
    print(f"{clients} clients for {seconds:g} s against http://{HOST}:{port}")
    for name, times in (("small renders", small), ("/healthz", health)):
        if len(times) >= 2:
            cuts = statistics.quantiles(times, n=100)
            print(f"  {name:14} {len(times):6,} answered  p50 {cuts[49] * 1000:7.0f} ms"
                  f"  p99 {cuts[98] * 1000:7.0f} ms  max {max(times) * 1000:7.0f} ms")  # fmt: skip
    print("  answers: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(codes.items())))
    print(f"  peak RSS of the server and its render processes: {peak[0] / 2**20:,.0f} MB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "--factory", "volley.server:create_app",
               "--http", "volley.server.protocol:HeaderDeadline",
               "--host", HOST, "--port", str(port), "--log-level", "warning"]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT)
    base = f"http://{HOST}:{port}"
    try:
        wait_until_up(base)
        httpx2.post(base + "/render", content=SMALL, timeout=30)  # the render processes start
        asyncio.run(load(port, server.pid, args.clients, args.seconds))
    finally:
        server.terminate()
        server.wait(timeout=30)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
