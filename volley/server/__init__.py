"""`volley serve`: the live editor, and a render service a team can share.

    volley serve [FILE]                      the editor on http://127.0.0.1:8000/
    uvicorn --factory volley.server:create_app --http volley.server.protocol:HeaderDeadline \
        --host 0.0.0.0 --workers 4
                                             the same app as a shared service

Endpoints (see `app.py`): `GET /` the editor; `POST /render?format=svg|png|html|json` with the
source as the body; `GET /svg/<encoded>` and `GET /png/<encoded>` for share-encoded sources
(`volley.editor_links`); `GET /healthz`; `GET /templates`, `GET /templates/<id>`; with FILE,
`GET /file` and `PUT /file`. Errors are `{"error": {"message", "line", "column",
"source_line", "hint"}}` with 400 (bad source or options), 413 (body over the limit),
422 (render over the time limit) or 503 (every renderer busy).

Starlette and uvicorn come with the `serve` extra and are imported only here.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from volley.errors import VolleyError
from volley.server.limits import DEFAULT_SERVER_LIMITS, ServerLimits

if TYPE_CHECKING:
    import socket

    from starlette.types import ASGIApp

__all__ = ["DEFAULT_SERVER_LIMITS", "ServerLimits", "create_app", "serve"]

INSTALL_HINT = "install them with: pip install 'volley-diagrams[serve]'"
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


class MissingExtra(VolleyError):
    """Starlette or uvicorn is not installed."""


def _require(module: str) -> Any:
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(
            f"volley serve needs {module}, which is not installed", hint=INSTALL_HINT
        ) from None


def create_app(
    file: str | Path | None = None, limits: ServerLimits | None = None, **options: Any
) -> ASGIApp:
    """The editor and render service as an ASGI app; see `volley.server.app.create_app`."""
    _require("starlette")
    from volley.server.app import create_app as _create_app

    return _create_app(file, limits, **options)


def is_loopback(host: str) -> bool:
    import ipaddress  # here and in _bind: `volley render` imports this package for its limits

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _bind(host: str, port: int) -> socket.socket:
    """Bind before serving, so the URL printed names the real port (also for --port 0)."""
    import socket

    family, kind, proto, _, address = socket.getaddrinfo(
        host.strip("[]"), port, type=socket.SOCK_STREAM
    )[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise VolleyError(
            f"cannot listen on {host}:{port}: {exc.strerror or exc}",
            hint="choose another port with --port",
        ) from None
    return sock


def serve(
    file: str | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    limits: ServerLimits | None = None,
    open_browser: bool = False,
) -> None:
    """Run the editor until interrupted; bound to loopback unless `host` says otherwise."""
    uvicorn = _require("uvicorn")
    if file is not None and Path(file).is_dir():
        raise VolleyError(f"{file} is a folder; give a .volley file", filename=file)
    if file is not None and not Path(file).resolve().parent.is_dir():
        raise VolleyError(f"the folder for {file} does not exist", filename=file)
    local = is_loopback(host)
    from volley.server.work import preload_volley

    preload_volley()  # this process is volley's own
    app = create_app(file, limits, allowed_hosts=LOOPBACK_NAMES if local else None)
    sock = _bind(host, port)
    shown_host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    url = f"http://{shown_host}:{sock.getsockname()[1]}/"
    editing = ""
    if file:
        editing = f" editing {file}" + (
            "" if Path(file).exists() else " (a new file: Save makes it)"
        )
    print(f"volley editor on {url}{editing}", file=sys.stderr)
    if not local:
        print(
            f"warning: listening on {host}: anyone who can reach this address can use the editor"
            + (f" and overwrite {file}" if file else ""),
            file=sys.stderr,
        )
    print("press Ctrl+C to stop", file=sys.stderr)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    from volley.server.protocol import with_header_deadline

    # Idle kept-alive connections closed after 5 s; headers over 16 KB refused, and headers
    # that take longer than the limit to arrive (a slowloris client) end the connection.
    config = uvicorn.Config(
        app,
        http=with_header_deadline((limits or DEFAULT_SERVER_LIMITS).header_seconds),
        log_level="warning",
        access_log=False,
        timeout_keep_alive=5,
        h11_max_incomplete_event_size=16 * 1024,
    )
    uvicorn.Server(config).run(sockets=[sock])
