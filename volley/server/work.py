"""Rendering for the server: out of the server's process, under a deadline, a few at a time.

A diagram is parsed and drawn in a render process, so that one large render never stalls the
requests around it (health checks, other users' small renders) and can be stopped. Each
request waits at most `render_seconds` for its answer, counting both the wait for a free
renderer and the render itself; a render still running at the deadline has its process
killed, so it cannot go on using a CPU after its answer was given up. A render process may use
at most `render_memory_bytes` of memory; past that the render fails with a clear error and the
process is replaced. The diagram limits (input size, items, pixels) refuse most bombs before
any drawing starts; the deadline and the memory limit bound whatever is left.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import json
import math
import threading
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from volley.errors import Diagnostic, VolleyError, VolleyErrors
from volley.limits import Limits
from volley.options import BODIES, THEMES, Options, require_known
from volley.options import FORMATS as PICTURE_FORMATS
from volley.server.limits import ServerLimits, service_hint

# What a browser asks of the server: every picture (the editor's downloads) and the model as
# JSON.
FORMATS = (*PICTURE_FORMATS, "json")
MEDIA_TYPES = {
    "svg": "image/svg+xml; charset=utf-8",
    "png": "image/png",
    "pdf": "application/pdf",
    "html": "text/html; charset=utf-8",
    "json": "application/json",
    "import": "application/json",  # POST /import: another tool's diagram as volley text
}
_TRUE = ("1", "true", "yes", "on", "")
_FALSE = ("0", "false", "no", "off")


class ServerBusy(VolleyError):
    """Every render worker stayed busy until the request's deadline."""


class RenderTooSlow(VolleyError):
    """A render ran past the time limit."""


# The names a render's query may hold (`?format=png&scale=2`), and those of `format=json`.
QUERY_NAMES = ("format", "scale", "theme", "bodies", "fragment", "assets", "redact")
_JSON_NAMES = ("format", "redact")


@dataclass(frozen=True)
class RenderOptions:
    """What a render request asks for, checked before any work is queued: the format, and
    for a picture the pipeline's options."""

    format: str = "svg"
    pipeline: Options = Options()
    # `redact=auto`: masked when the diagram holds a value that looks like a live secret, as
    # the text rendered says (the editor's downloads: its last preview may be of older text)
    redact_auto: bool = False

    @classmethod
    def from_query(
        cls,
        query: Iterable[tuple[str, str]],
        limits: ServerLimits,
        *,
        strict: bool = True,
        **fixed: str,
    ) -> RenderOptions:
        """Read `?format=…&theme=…` (its names and values, in order) into options; a clear
        VolleyError for a bad value, a name given twice (`?redact=1&redact=0` must not answer
        unmasked) or an option that does not apply to the format. A name volley does not
        know is refused, not dropped (`?redcat=1`), unless not `strict`: a share image's link
        may carry a README's cache-buster (`?v=2`), and its diagram, in the link itself, has
        no secret to keep from its reader."""
        values: dict[str, str] = {}
        for name, value in query:
            if name in values and name in QUERY_NAMES:
                raise VolleyError(
                    f'"{name}" is given twice in the query', hint=f"give {name}= once"
                )
            values[name] = value
        values.update(fixed)
        if strict:  # (else a name volley does not know is never read)
            require_known(values, QUERY_NAMES, where=" in the query")
        fmt = _choice(values, "format", FORMATS, "svg")
        # `auto`: decided by the text (`produce`); else 1 or 0, as every flag
        auto = values.get("redact", "").lower() == "auto"
        redact = _flag(values, "redact") if "redact" in values and not auto else False
        if fmt == "json":  # the diagram as data: masked or not, no picture to shape
            drawn = [name for name in QUERY_NAMES if name in values and name not in _JSON_NAMES]
            if drawn:
                raise VolleyError(
                    f"{drawn[0]} does not apply to json, which is the diagram as data",
                    hint="json takes redact alone",
                )
            return cls(fmt, Options(limits=limits.diagram, redact=redact), auto)
        scale = _number(values, "scale", 1.0)
        if not 0.05 <= scale <= limits.max_scale:
            raise VolleyError(f"scale must be between 0.05 and {limits.max_scale:g}, not {scale:g}")
        names: dict[str, Any] = {
            "format": fmt,
            "scale": scale,
            "limits": limits.diagram,
            "redact": redact,
        }
        if "theme" in values:
            names["theme"] = _choice(values, "theme", THEMES, "")
        if "bodies" in values:
            names["bodies"] = _choice(values, "bodies", BODIES, "")
        if "fragment" in values:
            names["fragment"] = _flag(values, "fragment")
        if "assets" in values:
            names["include_assets"] = _flag(values, "assets")
        return cls(fmt, Options(**names), auto)

    @property
    def media_type(self) -> str:
        return MEDIA_TYPES[self.format]


def _choice(values: Mapping[str, str], name: str, allowed: tuple[str, ...], default: str) -> str:
    value = values.get(name, default).lower()
    if value not in allowed:
        raise VolleyError(
            f'unknown {name} "{value[:40]}"', hint="use one of: " + ", ".join(allowed)
        )
    return value


def _flag(values: Mapping[str, str], name: str) -> bool:
    value = values[name].lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise VolleyError(f'{name} must be 1 or 0, not "{value[:40]}"')


def _number(values: Mapping[str, str], name: str, default: float) -> float:
    if name not in values:
        return default
    try:
        value = float(values[name])
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise VolleyError(f'{name} must be a number, not "{values[name][:40]}"')
    return value


@dataclass
class Output:
    """A finished render: the bytes to send and the warnings the diagram raised."""

    body: bytes
    media_type: str
    title: str | None
    warnings: list[Diagnostic]


def produce(source: str, options: RenderOptions, limits: Limits) -> Output:
    """Parse, check and draw one diagram; VolleyError for anything wrong with the source."""
    from volley import api

    if options.format == "import":
        text, count = converted(source)
        data = json.dumps({"text": text, "diagrams": count}, ensure_ascii=False)
        return Output(data.encode("utf-8"), options.media_type, None, [])
    pipeline = options.pipeline
    if options.redact_auto:  # masked if anything looks live in this very text
        found = api.check(source, limits=limits).warnings
        pipeline = pipeline.updated(redact=any(w.topic == "secret" for w in found))
    if options.format == "json":
        redact = pipeline.redact
        checked = api.check(source, limits=limits, redact=redact)
        shown = api.masked(checked, redact=redact)
        data = json.dumps(shown.to_json(), ensure_ascii=False, indent=2)
        return Output(
            data.encode("utf-8"), options.media_type, checked.diagram.title, checked.warnings
        )
    result = api.run(source, pipeline.updated(limits=limits))
    body = result.output.encode("utf-8") if isinstance(result.output, str) else result.output
    return Output(body, options.media_type, result.diagram.title, result.warnings)


def converted(source: str) -> tuple[str, int]:
    """The first diagram of `source`, written for another tool, as `.volley` text, and how
    many diagrams it holds."""
    from volley.importers import PartlyImported, convert, recognise

    recognised = recognise(source)
    if recognised.best is None or recognised.best.traffic:
        raise VolleyError(
            "the editor converts diagrams written for Mermaid, PlantUML or swimlanes.io; this "
            "is none of them",
            hint="import captured traffic (HAR, traces, JSON-RPC logs) with volley import",
        )
    try:
        found = convert(source, recognised=recognised)
    except PartlyImported as exc:
        found = exc.imported
    return found[0].text, len(found)


# Sources up to this size (a few hundred messages) drawn as vectors are the small lane.
SMALL_SOURCE_BYTES = 20_000


class RenderFailed(VolleyError):
    """A render stopped by its memory limit, or by a fault in the drawing libraries."""


class RenderPool:
    """Two lanes of render workers (small sources, large ones), each worker a thread that
    owns one child process, and the deadline every job is held to.

    The thread only waits: the diagram is parsed and drawn in the child process, so a render
    that overruns its deadline is stopped by killing that process (a fresh one takes its
    place for the next job), and a render can take no more memory than `memory_bytes`
    (RLIMIT_AS, set in the child alone). The threads bound how many renders run at once and
    queue the rest; a request that waited half its time for a renderer is answered "busy".
    """

    def __init__(
        self,
        workers: int,
        seconds: float,
        memory_bytes: int | None = None,
        small_bytes: int = SMALL_SOURCE_BYTES,
    ) -> None:
        self.seconds = seconds
        self.memory_bytes = memory_bytes
        self.small_bytes = small_bytes
        self._local = threading.local()
        self._children: set[Any] = set()
        self._lock = threading.Lock()
        # Two lanes, so that large renders queue behind each other and never in front of the
        # small ones that make up most of a team's traffic (an editor's preview, a README's
        # image): a small render waits only for other small ones.
        self._lanes = [
            concurrent.futures.ThreadPoolExecutor(
                max_workers=max(1, workers), thread_name_prefix=f"volley-render-{lane}"
            )
            for lane in ("small", "large")
        ]

    async def run(self, source: str, options: RenderOptions, limits: Limits) -> Output:
        """Render in a worker process; ServerBusy or RenderTooSlow when the deadline passes,
        RenderFailed when the render ran out of memory."""
        deadline = time.monotonic() + self.seconds
        lane = self._lanes[not self.is_small(source, options)]
        future = lane.submit(self._render, deadline, (source, options, limits))
        answer = asyncio.wrap_future(future)
        try:
            return await asyncio.wait_for(asyncio.shield(answer), self.seconds / 2)
        except TimeoutError:
            if future.cancel():  # half its time spent waiting for a renderer (see _render)
                raise self._busy() from None
        try:
            # The worker keeps the deadline itself; this wait is the backstop.
            return await asyncio.wait_for(answer, self.seconds / 2 + 1.0)
        except TimeoutError:
            future.cancel()
            raise self._busy() from None

    def is_small(self, source: str, options: RenderOptions) -> bool:
        """Whether a job goes to the small lane: a short source drawn as SVG, HTML or JSON.

        A picture in pixels or pages is large whatever its source: a short diagram at scale 4
        is millions of pixels to paint.
        """
        vector = options.format in ("svg", "html", "json", "import")
        return len(source) <= self.small_bytes and vector

    def _busy(self) -> ServerBusy:
        return ServerBusy(
            f"the server is busy: no renderer was free within {self.seconds:g} s",
            hint="try again in a moment",
        )

    def _render(self, deadline: float, job: tuple[str, RenderOptions, Limits]) -> Output:
        """In a worker thread: hand the job to this thread's process and wait for the answer
        until the deadline, killing the process if it is not done by then."""
        remaining = deadline - time.monotonic()
        if remaining < self.seconds / 2:
            # Half its time spent waiting for a renderer: the queue, not the diagram, is the
            # problem, and the client is better told to come back than given a partial try.
            raise self._busy()
        child, connection = self._child()
        try:
            connection.send(job)
            ready = connection.poll(remaining)
            answer = connection.recv() if ready else None
        except (EOFError, OSError):  # the process died: out of memory in C code, a crash
            answer = ("failed", ("the renderer stopped unexpectedly (out of memory?)", _SPLIT))
        if answer is None or answer[0] == "failed":
            self._stop(child)
        if answer is None:
            raise RenderTooSlow(
                f"rendering took longer than this server's limit of {self.seconds:g} s",
                hint=_SPLIT,
            )
        kind, value = answer
        if kind == "ok":
            return value
        if kind == "error":
            errors = [
                VolleyError(e["message"], **{k: v for k, v in e.items() if k != "message"})
                for e in value.pop("errors", None) or [value]
            ]
            raise VolleyErrors(errors) if len(errors) > 1 else errors[0]
        said, hint = value
        raise RenderFailed(said, hint=hint)

    def _child(self) -> tuple[Any, Any]:
        """This thread's render process, started on first use or after one was stopped."""
        child = getattr(self._local, "child", None)
        if child is not None and child[0].is_alive():
            return child
        context = _context()
        mine, theirs = context.Pipe()
        process = context.Process(
            target=_serve_renders,
            args=(theirs, self.memory_bytes),
            daemon=True,
            name="volley-render",
        )
        process.start()
        theirs.close()
        self._local.child = (process, mine)
        with self._lock:
            self._children.add(process)
        return process, mine

    def _stop(self, process: Any) -> None:
        process.kill()
        process.join()
        self._local.child = None
        with self._lock:
            self._children.discard(process)

    def processes(self) -> list[int]:
        """The render processes alive now (their pids)."""
        with self._lock:
            return sorted(p.pid for p in self._children if p.is_alive())

    def close(self) -> None:
        for lane in self._lanes:
            lane.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            children, self._children = list(self._children), set()
        for process in children:
            process.kill()
            process.join()


@functools.cache
def _context() -> Any:
    """Render processes are forked from a clean server process (forkserver), so a fresh one
    inherits no threads or sockets; spawn where there is no fork."""
    import multiprocessing

    if "forkserver" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


def preload_volley() -> None:
    """Have the forkserver import volley once, so that a fresh render process starts in
    milliseconds. multiprocessing keeps one forkserver for the whole process, so this is a
    setting of the process: `volley serve`, whose process it is, makes it; an app mounted in
    a host's process leaves the host's own as it is."""
    context = _context()
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(["volley.server.work", "volley.api"])


_SPLIT = "split the diagram, or render it locally with the volley command"


def _fields(error: VolleyError) -> dict[str, Any]:
    """What a render process says of an error, for the server to raise it again."""
    return {
        "message": error.message,
        "line": error.line,
        "column": error.column,
        "source_line": error.source_line,
        "hint": service_hint(error),
    }


def _serve_renders(connection: Any, memory_bytes: int | None) -> None:
    """A render process: answer jobs until the pipe closes.

    Memory is bounded here, in this process only, and the process gives way to the server's
    own (health checks, reading requests) when the CPUs are busy.
    """
    import os
    import resource

    if memory_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    os.nice(5)
    while True:
        try:
            source, options, limits = connection.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            answer: tuple[str, Any] = ("ok", produce(source, options, limits))
        except VolleyError as exc:
            # Every error of the file, so the editor can mark each line at once.
            errors = [_fields(each) for each in getattr(exc, "errors", [exc])]
            answer = ("error", {**_fields(exc), "errors": errors})
        except MemoryError:
            answer = ("failed", ("the render needed more memory than this server allows", _SPLIT))
        except ImportError as exc:  # volley upgraded under a running server: a process mixes two
            said = f"this server's volley changed on disk while it ran ({exc})"
            answer = ("failed", (said[:300], "restart the server"))
        except Exception as exc:  # a fault in the drawing libraries (cairo out of memory)
            said = f"the render failed: {type(exc).__name__}: {str(exc)[:200]}"
            answer = ("failed", (said, _SPLIT))
        connection.send(answer)
        if answer[0] == "failed":
            return  # a process that ran out of memory is not trusted with the next job
