"""HTTP/1.1 for the service: uvicorn's h11 protocol, with a deadline for a request's headers.

uvicorn closes an idle kept-alive connection and refuses oversized headers, but a client that
sends its headers a byte at a time (slowloris) holds a connection, and its memory, for as long
as it likes. Here every request's headers must have arrived (the blank line that ends them)
within `header_seconds` of the connection opening or of the previous answer; a connection that
misses it is closed. Give it to uvicorn as its protocol class:

    uvicorn --factory volley.server:create_app --http volley.server.protocol:HeaderDeadline

(`volley serve` does this itself).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

__all__ = ["HeaderDeadline", "with_header_deadline"]

_END_OF_HEADERS = b"\r\n\r\n"


class HeaderDeadline(H11Protocol):
    """uvicorn's h11 protocol that closes a connection whose request headers are late."""

    header_seconds: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._connection = transport
        self._deadline: asyncio.TimerHandle | None = None
        self._tail = b""  # the last bytes seen, for a blank line split across reads
        super().connection_made(transport)
        self._await_headers()

    def data_received(self, data: bytes) -> None:
        if self._deadline is not None:
            seen = self._tail + data
            if _END_OF_HEADERS in seen:
                self._stop_waiting()
            else:
                self._tail = seen[-(len(_END_OF_HEADERS) - 1) :]
        super().data_received(data)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._await_headers()  # the next request on this kept-alive connection

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        super().connection_lost(exc)

    def _await_headers(self) -> None:
        self._stop_waiting()
        if not self._connection.is_closing():
            loop = asyncio.get_running_loop()
            self._deadline = loop.call_later(self.header_seconds, self._connection.close)

    def _stop_waiting(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = None
        self._tail = b""


def with_header_deadline(seconds: float) -> type[HeaderDeadline]:
    """The protocol class with its own deadline (uvicorn takes a class, not an instance)."""
    return type("HeaderDeadline", (HeaderDeadline,), {"header_seconds": seconds})
