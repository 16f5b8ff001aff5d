"""Slow and stalled clients against `volley serve`: how long the server keeps them, and its memory.

    python benchmarks/slow_clients.py                     # 300 slow-header, 200 stalled uploads
    python benchmarks/slow_clients.py --slow 50 --stalled 20

Starts `volley serve` on 127.0.0.1 only, on a free port, and stops it at the end; nothing leaves
the machine. Opens `--slow` connections that send request headers a line a second and never
finish them (slowloris), and `--stalled` ones that send a POST's headers and a little of its body,
then nothing. Prints, at a few moments, how many of those connections the server still holds
open and the resident memory of the server with its render processes; a server that sheds them
closes every one by its header and body timeouts (10 s each by default).
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import HOST, free_port, tree_rss, wait_until_up  # noqa: E402

MOMENTS = (2.0, 8.0, 15.0, 25.0)  # seconds after the last connection opened


async def main_async(port: int, pid: int, slow: int, stalled: int) -> None:
    readers: list[asyncio.StreamReader] = []
    writers: list[asyncio.StreamWriter] = []
    before = tree_rss(pid)
    for _ in range(slow):
        reader, writer = await asyncio.open_connection(HOST, port)
        writer.write(f"GET /healthz HTTP/1.1\r\nHost: {HOST}\r\n".encode())
        readers.append(reader)
        writers.append(writer)
    for _ in range(stalled):
        reader, writer = await asyncio.open_connection(HOST, port)
        head = f"POST /render HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: 100000\r\n\r\n"
        writer.write(head.encode() + b"A -> B: ")
        readers.append(reader)
        writers.append(writer)
    closed = [False] * len(readers)

    async def watch(index: int) -> None:
        try:
            while await readers[index].read(65536):
                pass
        except OSError:
            pass
        closed[index] = True

    watchers = [asyncio.create_task(watch(i)) for i in range(len(readers))]

    async def trickle() -> None:  # the slow clients keep sending header lines
        while True:
            await asyncio.sleep(1.0)
            for index in range(slow):
                if not closed[index]:
                    writers[index].write(b"X-Slow: 1\r\n")

    trickling = asyncio.create_task(trickle())
    started = time.monotonic()
    print(f"{slow} slow-header and {stalled} stalled-upload connections to {HOST}:{port}")
    print(f"  before: server and render processes {before / 2**20:,.0f} MB")
    for moment in MOMENTS:
        await asyncio.sleep(max(0.0, moment - (time.monotonic() - started)))
        held = closed.count(False)
        print(f"  after {moment:4.0f} s: {held:4d} still open, {tree_rss(pid) / 2**20:,.0f} MB")
    trickling.cancel()
    for watcher in watchers:
        watcher.cancel()
    for writer in writers:
        writer.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--stalled", type=int, default=200)
    args = parser.parse_args()
    port = free_port()
    command = [sys.executable, "-m", "volley", "serve", "--port", str(port)]
    server = subprocess.Popen(command, stderr=subprocess.PIPE)
    try:
        wait_until_up(f"http://{HOST}:{port}")
        asyncio.run(main_async(port, server.pid, args.slow, args.stalled))
    finally:
        server.terminate()
        _, errors = server.communicate(timeout=30)
    tracebacks = errors.decode(errors="replace").count("Traceback")
    print(f"  tracebacks in the server's log: {tracebacks}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
