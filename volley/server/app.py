"""The ASGI application: the editor page, the render endpoints, share images and FILE.

Stateless by design: every request carries everything it needs (the source in a body or in
an encoded path), so a team can run several workers behind any load balancer. The only thing
a process holds is the immutable gallery and, for `volley serve FILE`, the path it was given.
Nothing in a request can name a file to read or a URL to fetch.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from functools import cache
from pathlib import Path

from jinja2 import Environment
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

import volley
from volley import editor_links
from volley.docs.gallery import Template, examples_dir, load_templates
from volley.errors import Diagnostic, VolleyError
from volley.output.embed import embedded_json
from volley.resources import read_text, resource_path, template_environment
from volley.server.limits import ServerLimits, service_hint
from volley.server.source_file import Conflict, SourceFile, Unreadable
from volley.server.work import (
    MEDIA_TYPES,
    Output,
    RenderFailed,
    RenderOptions,
    RenderPool,
    RenderTooSlow,
    ServerBusy,
)
from volley.textio import decode

# The editor page loads only its own scripts and styles; style attributes are allowed because
# the previewed diagram's SVG carries some. Nothing remote, no inline script, no framing.
EDITOR_CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; connect-src 'self'; font-src 'self' data:; "
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
# A rendered diagram opened on its own runs in a sandbox with no origin, so even a flaw in
# escaping could not reach the editor's endpoints (and FILE) from it.
OUTPUT_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; sandbox allow-scripts allow-popups"
)
# Template pages are the project's own examples with the viewer's inline script; they load
# nothing from anywhere and link to the editor on this server.
GALLERY_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
IMMUTABLE = "public, max-age=31536000, immutable"
NO_STORE = "no-store"
MAX_WARNINGS_SHOWN = 20
EDITOR_ASSETS = ("editor.css", "editor.js", "favicon.svg")
ASSET_TYPES = {
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
}


class BodyTooLarge(VolleyError):
    """A request body over the server's limit, noticed before it was all read."""


def error_response(
    exc: VolleyError, status: int = 400, headers: dict[str, str] | None = None
) -> JSONResponse:
    """`{"error": {message, line, column, source_line, hint}, "errors": [...]}`: the first
    error, and every error of the diagram in the same shape; line and column null if unknown."""

    def fields(error: VolleyError) -> dict[str, object]:
        return {
            "message": error.message,
            "line": error.line or None,
            "column": error.column or None,
            "source_line": error.source_line,
            "hint": service_hint(error),
        }

    errors = exc.errors
    body = {"error": fields(exc), "errors": [fields(error) for error in errors]}
    return JSONResponse(body, status, headers={"Cache-Control": NO_STORE, **(headers or {})})


class BodyTooSlow(VolleyError):
    """A request body that stopped arriving (a stalled or deliberately slow upload)."""


class ClientGone(Exception):
    """The client closed the connection before its request was read: nobody to answer."""


async def read_body(request: Request, limit: int, seconds: float = 10.0) -> bytes:
    """The body, refused with BodyTooLarge as soon as it passes `limit` bytes, and with
    BodyTooSlow when no part of it arrives for `seconds`.

    A declared Content-Length over the limit is refused before reading anything; a chunked
    or understated body is counted as it streams in, so an oversize upload is never held whole.
    A client that goes away midway raises ClientGone.
    """
    too_large = BodyTooLarge(
        f"the request body is larger than this server's limit of {limit:,} bytes",
        hint="render large diagrams locally with the volley command",
    )
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    stream = request.stream()
    try:
        while True:
            try:
                chunk = await asyncio.wait_for(anext(stream), seconds)
            except StopAsyncIteration:
                break
            size += len(chunk)
            if size > limit:
                raise too_large
            chunks.append(chunk)
    except TimeoutError:
        raise BodyTooSlow(
            f"the request body stopped arriving for {seconds:g} s", hint="send it again"
        ) from None
    except ClientDisconnect:
        raise ClientGone() from None
    return b"".join(chunks)


def warnings_header(warnings: Iterable[Diagnostic]) -> str:
    """Warnings as ASCII JSON for the `X-Volley-Warnings` header (the body is the picture);
    one about a value that looks like a secret says so (`"secret": true`)."""
    shown = [
        {"message": w.message, "line": w.line or None, "column": w.column or None}
        | ({"secret": True} if w.topic == "secret" else {})
        for w in list(warnings)[:MAX_WARNINGS_SHOWN]
    ]
    return json.dumps(shown, ensure_ascii=True, separators=(",", ":"))


def _status_of(exc: VolleyError) -> tuple[int, dict[str, str]]:
    """The status a render's error is answered with, and its extra headers."""
    if isinstance(exc, ServerBusy):
        return 503, {"Retry-After": "5"}
    if isinstance(exc, (RenderTooSlow, RenderFailed)):
        return 422, {}
    return 400, {}


async def error_picture(
    exc: VolleyError, fmt: str, status: int = 400, headers: dict[str, str] | None = None
) -> Response:
    """The error drawn as an SVG or PNG, for a share image: an <img> shows what is wrong
    rather than a broken-image icon. The status stays the error's; `X-Volley-Error` carries
    the error as the JSON body would."""
    from volley.server.error_image import error_image

    data = await run_in_threadpool(error_image, exc, fmt)
    detail = json.dumps(
        {"message": exc.message, "line": exc.line or None, "column": exc.column or None},
        ensure_ascii=True,
    )
    return Response(
        data,
        status,
        media_type=MEDIA_TYPES[fmt],
        headers={
            "Cache-Control": NO_STORE,
            "Content-Security-Policy": OUTPUT_CSP,
            "X-Volley-Error": detail,
            **(headers or {}),
        },
    )


class _Gate:
    """A middleware that answers some requests with an error itself and passes on the rest."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def refused(self, scope: Scope) -> tuple[str, int] | None:
        """Why a request is refused, and its status; None to pass it on."""
        raise NotImplementedError

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and (refusal := self.refused(scope)) is not None:
            said, status = refusal
            await error_response(VolleyError(said), status=status)(scope, receive, send)
            return
        await self.app(scope, receive, send)


class HostCheck(_Gate):
    """Answer only to the host names given: a page on another site cannot rebind its own
    name to 127.0.0.1 and then talk to the local editor (and its FILE) as same-origin."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        super().__init__(app)
        self.allowed = {name.lower() for name in allowed}

    def refused(self, scope: Scope) -> tuple[str, int] | None:
        host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
        if _hostname(host) in self.allowed:
            return None
        return f"this server does not answer to the host name {host!r}", 421


class HeaderLimit(_Gate):
    """Refuse a request whose address and headers are larger than the limit (`431`): the
    HTTP server's own limit holds only for a request's head still arriving, so one sent in
    one piece passed it (an image link of 20 KB worked on this machine and failed over a
    network, where it arrives in pieces)."""

    def __init__(self, app: ASGIApp, most: int) -> None:
        super().__init__(app)
        self.most = most

    def refused(self, scope: Scope) -> tuple[str, int] | None:
        address = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        size = address + sum(len(name) + len(value) + 4 for name, value in scope["headers"])
        if size <= self.most:
            return None
        return f"the request's address and headers are over {self.most:,} bytes", 431


_HOST = re.compile(r"(?:\[(?P<v6>[0-9a-f:.]+)\]|(?P<name>[a-z0-9.-]+))(?::[0-9]{1,5})?")


def _hostname(host: str) -> str:
    """`[::1]:8000` → `::1`, `Localhost:80` → `localhost`; "" for anything that is not a
    host and an optional port (`127.0.0.1:8000@evil`, userinfo, paths, spaces)."""
    match = _HOST.fullmatch(host.strip().lower())
    if not match:
        return ""
    return match["v6"] or match["name"]


@cache
def _editor_environment() -> Environment:
    return template_environment(resource_path("templates", "editor"), autoescape=True)


def _viewer_assets() -> tuple[str, str] | None:
    """The interactive viewer's CSS and JS, served once for every previewed fragment."""
    try:
        from volley.output.html import html_assets

        return html_assets()
    except (ImportError, OSError):
        return None


class Service:
    """The endpoints, sharing one configuration; each method answers one route."""

    def __init__(
        self, file: str | Path | None, limits: ServerLimits, examples: Path | None
    ) -> None:
        self.limits = limits
        self.file = SourceFile(file) if file is not None else None
        self.gallery: dict[str, Template] = load_templates(examples)
        self.gallery_files: dict[str, tuple[bytes, str]] = {}  # made on first request
        self.pool = RenderPool(
            limits.render_workers, limits.render_seconds, limits.render_memory_bytes
        )
        self.assets = self._load_assets()
        self.starter = read_text(resource_path("templates", "editor", "starter.volley"))

    def _load_assets(self) -> dict[str, tuple[bytes, str]]:
        """Static files by name with their media type; read once, served from memory."""
        folder = Path(resource_path("templates", "editor"))
        assets = {
            name: ((folder / name).read_bytes(), ASSET_TYPES[Path(name).suffix])
            for name in EDITOR_ASSETS
        }
        viewer = _viewer_assets()
        if viewer is not None:
            css, js = viewer
            assets["viewer.css"] = (css.encode("utf-8"), ASSET_TYPES[".css"])
            assets["viewer.js"] = (js.encode("utf-8"), ASSET_TYPES[".js"])
        return assets

    def asset_url(self, name: str) -> str:
        digest = hashlib.sha256(self.assets[name][0]).hexdigest()[:12]
        return f"/static/{name}?v={digest}"

    # --- the page -----------------------------------------------------------------------

    async def editor(self, request: Request) -> Response:
        config = {
            "file": self.file.name if self.file else None,
            "maxBytes": self.limits.body_bytes,
            "maxHead": self.limits.header_bytes,  # an image link's address, with its headers
            "preview": "html" if "viewer.js" in self.assets else "svg",
            "starter": self.starter,
            "templates": [self._template_card(t) for t in self.gallery.values()],
            "version": volley.__version__,
        }
        html = (
            _editor_environment()
            .get_template("editor.html")
            .render(
                file=config["file"],
                templates=config["templates"],
                config=embedded_json(config),
                asset=self.asset_url,
                viewer="viewer.js" in self.assets,
                version=volley.__version__,
            )
        )
        headers = {
            "Content-Security-Policy": EDITOR_CSP,
            "X-Frame-Options": "DENY",
            "Cache-Control": NO_STORE,
        }
        return Response(html, media_type="text/html; charset=utf-8", headers=headers)

    def _template_card(self, template: Template) -> dict[str, str]:
        return {**template.to_json(), "image": "/svg/" + editor_links.encode(template.source)}

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in self.assets:
            return error_response(VolleyError(f"no such file: {name[:80]}"), 404)
        data, media_type = self.assets[name]
        return Response(data, media_type=media_type, headers={"Cache-Control": "no-cache"})

    # --- rendering ----------------------------------------------------------------------

    async def render(self, request: Request) -> Response:
        """POST /render?format=svg|png|html|json: the body is the diagram's source."""
        try:
            options = RenderOptions.from_query(request.query_params.multi_items(), self.limits)
        except VolleyError as exc:
            return error_response(exc)
        source = await self._source(request)
        if isinstance(source, Response):
            return source
        return await self._render(source, options, {"Cache-Control": NO_STORE})

    async def import_diagram(self, request: Request) -> Response:
        """POST /import: the body is a diagram written for another tool (a Mermaid or PlantUML
        sequence diagram, a page holding some, a swimlanes.io link); the answer is
        `{"text": …, "diagrams": N}`, the first of its N diagrams as `.volley` text, or the
        JSON error. Captured traffic is for `volley import` on the command line. It takes no
        options: a name in its query is refused, not dropped."""
        if request.query_params:
            name = next(iter(request.query_params))
            return error_response(
                VolleyError(
                    f'unknown option "{name[:40]}" in the query: /import takes none',
                    hint="send the diagram as the body alone",
                )
            )
        source = await self._source(request)
        if isinstance(source, Response):
            return source
        # in a render process, held to the same deadline and memory limit as a render
        return await self._render(source, RenderOptions("import"), {"Cache-Control": NO_STORE})

    async def _source(self, request: Request) -> str | Response:
        """The request's body as text, or the answer that refuses it."""
        try:
            return decode(await self._body(request), None)
        except ClientGone:
            return Response(status_code=499)  # nobody reads it; no traceback in the log
        except BodyTooLarge as exc:
            return error_response(exc, 413)
        except BodyTooSlow as exc:
            return error_response(exc, 408, {"Connection": "close"})
        except VolleyError as exc:
            return error_response(exc)

    async def _body(self, request: Request) -> bytes:
        return await read_body(request, self.limits.body_bytes, self.limits.body_seconds)

    async def image(self, request: Request) -> Response:
        """GET /svg/<encoded> and /png/<encoded>: a share link's diagram as an image.

        The path is the content, so the answer never changes for this volley version: cached
        for a year, and a repeat request with its ETag is answered without rendering.
        """
        fmt = request.url.path.split("/")[1]
        encoded = request.path_params["encoded"].removesuffix("." + fmt)
        tag = hashlib.sha256(
            f"{volley.__version__}\n{fmt}\n{encoded}\n{request.url.query}".encode()
        ).hexdigest()[:32]
        etag = f'"{tag}"'
        cached = {"Cache-Control": IMMUTABLE, "ETag": etag}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=cached)
        try:
            options = RenderOptions.from_query(
                request.query_params.multi_items(), self.limits, strict=False, format=fmt
            )
            source = editor_links.decode(encoded, max_bytes=self.limits.body_bytes)
        except editor_links.ShareTooLarge as exc:
            return await error_picture(exc, fmt, 413)
        except VolleyError as exc:
            return await error_picture(exc, fmt)
        return await self._render(source, options, cached, picture=fmt)

    async def _render(
        self,
        source: str,
        options: RenderOptions,
        headers: dict[str, str],
        picture: str | None = None,
    ) -> Response:
        """The render's answer; an error as JSON, or as a `picture` (svg, png) of it."""
        try:
            output: Output = await self.pool.run(source, options, self.limits.diagram)
        except VolleyError as exc:
            status, extra = _status_of(exc)
            if picture:
                return await error_picture(exc, picture, status, extra)
            return error_response(exc, status, extra)
        headers = {**headers, "Content-Security-Policy": OUTPUT_CSP}
        if output.warnings:
            headers["X-Volley-Warnings"] = warnings_header(output.warnings)
            # how many values look like secrets, past the warnings shown too: the editor's
            # Share says its links carry them
            secrets = sum(1 for w in output.warnings if w.topic == "secret")
            if secrets:
                headers["X-Volley-Secrets"] = str(secrets)
        return Response(output.body, media_type=output.media_type, headers=headers)

    # --- small endpoints ----------------------------------------------------------------

    async def healthz(self, request: Request) -> Response:
        return JSONResponse(
            {"status": "ok", "version": volley.__version__}, headers={"Cache-Control": NO_STORE}
        )

    async def templates(self, request: Request) -> Response:
        return JSONResponse([self._template_card(t) for t in self.gallery.values()])

    async def gallery_file(self, request: Request) -> Response:
        """The template pages (`volley gallery`'s files): `/gallery/`, `/gallery/SLUG.html`,
        `SLUG.volley` and `SLUG.svg`. Each page's editor link opens this server's editor."""
        name = request.path_params.get("name") or "index.html"
        if name not in self.gallery_files:
            made = await run_in_threadpool(self._gallery_file, name)
            if made is None:
                return error_response(VolleyError(f"no gallery page {name[:80]!r}"), 404)
            self.gallery_files[name] = made
        body, media_type = self.gallery_files[name]
        headers = {"Content-Security-Policy": GALLERY_CSP, "Cache-Control": NO_STORE}
        return Response(body, media_type=media_type, headers=headers)

    def _gallery_file(self, name: str) -> tuple[bytes, str] | None:
        from volley.docs.gallery import render_index, render_page

        if name == "index.html":
            return render_index(self.gallery).encode(), "text/html; charset=utf-8"
        slug, dot, kind = name.rpartition(".")
        template = self.gallery.get(slug) if dot else None
        if template is None:
            return None
        if kind == "html":
            page = render_page(template, self.gallery, editor_url="/")
            return page.encode(), "text/html; charset=utf-8"
        if kind == "volley":
            return template.source.encode(), "text/plain; charset=utf-8"
        if kind == "svg":
            svg = volley.render(template.source)
            assert isinstance(svg, str)
            return svg.encode(), "image/svg+xml"
        return None

    async def template(self, request: Request) -> Response:
        slug = request.path_params["slug"]
        template = self.gallery.get(slug)
        if template is None:
            return error_response(VolleyError(f"no template named {slug[:80]!r}"), 404)
        return JSONResponse({**template.to_json(), "source": template.source})

    # --- FILE ---------------------------------------------------------------------------

    async def get_file(self, request: Request) -> Response:
        """The file's source and version; 304 when the page already has this version, which
        is what makes polling for changes on disk cheap."""
        if self.file is None:
            return self._no_file()
        try:
            snapshot = await run_in_threadpool(self.file.read)
        except Unreadable as exc:  # its version: a save may write the editor's text over it
            headers = {"ETag": f'"{exc.version}"', "Cache-Control": NO_STORE}
            return error_response(exc.error, 422, headers)
        except VolleyError as exc:
            return error_response(exc, 500)
        headers = {"ETag": f'"{snapshot.version}"', "Cache-Control": NO_STORE}
        if request.headers.get("if-none-match") == headers["ETag"]:
            return Response(status_code=304, headers=headers)
        body = {"name": self.file.name, "source": snapshot.source, "version": snapshot.version}
        return JSONResponse(body, headers=headers)

    async def put_file(self, request: Request) -> Response:
        """Save the body over FILE, atomically. With `If-Match`, refuse (409) if the file
        changed on disk since that version, so a save never silently drops someone's edit."""
        if self.file is None:
            return self._no_file()
        expected = request.headers.get("if-match")
        try:
            source = decode(await self._body(request), self.file.name)
        except ClientGone:
            return Response(status_code=499)
        except BodyTooLarge as exc:
            return error_response(exc, 413)
        except BodyTooSlow as exc:
            return error_response(exc, 408, {"Connection": "close"})
        except VolleyError as exc:
            return error_response(exc)
        try:
            saved = await run_in_threadpool(
                self.file.save, source, expected.strip('"') if expected else None
            )
        except Conflict as exc:
            return error_response(exc, 409)
        except VolleyError as exc:  # the disk said no
            return error_response(exc, 500)
        return JSONResponse(
            {"name": self.file.name, "version": saved.version},
            headers={"ETag": f'"{saved.version}"', "Cache-Control": NO_STORE},
        )

    def _no_file(self) -> Response:
        return error_response(
            VolleyError("this editor has no file", hint="start it with: volley serve FILE"), 404
        )

    def routes(self) -> list[Route]:
        return [
            Route("/", self.editor),
            Route("/static/{name}", self.static),
            Route("/render", self.render, methods=["POST"]),
            Route("/import", self.import_diagram, methods=["POST"]),
            Route("/svg/{encoded}", self.image),
            Route("/png/{encoded}", self.image),
            Route("/healthz", self.healthz),
            Route("/templates", self.templates),
            Route("/templates/{slug}", self.template),
            Route("/gallery/", self.gallery_file),
            Route("/gallery/{name}", self.gallery_file),
            Route("/file", self.get_file, methods=["GET"]),
            Route("/file", self.put_file, methods=["PUT"]),
        ]


class SecurityHeaders:
    """Headers every answer carries: no MIME sniffing, no referrer (share links carry the
    diagram in their fragment, which is never sent, but the path may be an image link)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((b"x-content-type-options", b"nosniff"))
                headers.append((b"referrer-policy", b"no-referrer"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 and 405 in the same JSON shape as every other error."""
    assert isinstance(exc, HTTPException)
    message = {404: "no such page", 405: "method not allowed"}.get(exc.status_code, exc.detail)
    return error_response(
        VolleyError(f"{message}: {request.url.path[:200]}"),
        exc.status_code,
        dict(exc.headers or {}),
    )


def create_app(
    file: str | Path | None = None,
    limits: ServerLimits | None = None,
    *,
    examples: Path | None = None,
    allowed_hosts: Iterable[str] | None = None,
) -> ASGIApp:
    """The editor and render service as an ASGI app.

    `file` is the one diagram the editor may read and save; `limits` bound each request;
    `examples` is the gallery's folder (default: the project's `examples/`);
    `allowed_hosts` restricts the Host header (the CLI sets it when bound to loopback).
    """
    limits = limits or ServerLimits()
    service = Service(file, limits, examples if examples is not None else examples_dir())

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        service.pool.close()

    starlette = Starlette(
        routes=service.routes(),
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error},
    )
    starlette.state.service = service
    app: ASGIApp = HeaderLimit(starlette, limits.header_bytes)
    if allowed_hosts is not None:
        app = HostCheck(app, allowed_hosts)
    return SecurityHeaders(app)  # on every answer, a refused host's too
