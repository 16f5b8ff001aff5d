"""Rendering for the server: off the event loop, under a deadline, a few at a time.

A diagram is parsed and drawn in a worker thread so that one large render never stalls the
requests around it. Each request waits at most `render_seconds` for its answer, counting both
the wait for a free worker and the render itself.

What a thread cannot do: Python cannot stop a running thread. A render that overruns its
deadline is answered at the deadline with an error, but it keeps its worker until it finishes
on its own. What bounds that: the pool has `render_workers` threads, so abandoned renders can
never pile up beyond that number; while every worker is busy, further requests wait in the
queue and get "the server is busy" (503) if none frees up before their deadline; and the
diagram limits (input size, messages, nesting, label length) bound how long any one render can
run. A service that needs a hard stop on CPU time runs several uvicorn workers under a
supervisor that recycles them (or a container CPU limit) — one process per request would cost
more than most renders.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from volley.errors import Diagnostic, VolleyError
from volley.limits import Limits
from volley.options import BODIES, THEMES, Options
from volley.options import FORMATS as PICTURE_FORMATS
from volley.server.limits import ServerLimits

# What a browser asks of the server: the pictures a page shows and the model as JSON. PDF is
# a file to keep, made with the command.
FORMATS = (*(fmt for fmt in PICTURE_FORMATS if fmt != "pdf"), "json")
MEDIA_TYPES = {
    "svg": "image/svg+xml; charset=utf-8",
    "png": "image/png",
    "html": "text/html; charset=utf-8",
    "json": "application/json",
}
_TRUE = ("1", "true", "yes", "on", "")
_FALSE = ("0", "false", "no", "off")


class ServerBusy(VolleyError):
    """Every render worker stayed busy until the request's deadline."""


class RenderTooSlow(VolleyError):
    """A render ran past the time limit."""


@dataclass(frozen=True)
class RenderOptions:
    """What a render request asks for, checked before any work is queued: the format, and
    for a picture the pipeline's options."""

    format: str = "svg"
    pipeline: Options = Options()

    @classmethod
    def from_query(
        cls, query: Mapping[str, str], limits: ServerLimits, **fixed: str
    ) -> RenderOptions:
        """Read `?format=…&theme=…` into options; a clear VolleyError for a bad value or an
        option that does not apply to the format."""
        values = {**query, **fixed}
        fmt = _choice(values, "format", FORMATS, "svg")
        if fmt == "json":
            return cls(fmt, Options(limits=limits.diagram))
        scale = _number(values, "scale", 1.0)
        if not 0.05 <= scale <= limits.max_scale:
            raise VolleyError(f"scale must be between 0.05 and {limits.max_scale:g}, not {scale:g}")
        names: dict[str, Any] = {"format": fmt, "scale": scale, "limits": limits.diagram}
        if "theme" in values:
            names["theme"] = _choice(values, "theme", THEMES, "")
        if "bodies" in values:
            names["bodies"] = _choice(values, "bodies", BODIES, "")
        if "fragment" in values:
            names["fragment"] = _flag(values, "fragment")
        if "assets" in values:
            names["include_assets"] = _flag(values, "assets")
        return cls(fmt, Options(**names))

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

    if options.format == "json":
        checked = api.check(source, limits=limits)
        data = json.dumps(checked.diagram.to_json(), ensure_ascii=False, indent=2)
        return Output(
            data.encode("utf-8"), options.media_type, checked.diagram.title, checked.warnings
        )
    result = api.run(source, options.pipeline.updated(limits=limits))
    body = result.output.encode("utf-8") if isinstance(result.output, str) else result.output
    return Output(body, options.media_type, result.diagram.title, result.warnings)


class RenderPool:
    """A fixed set of worker threads and the deadline every job is held to."""

    def __init__(self, workers: int, seconds: float) -> None:
        self.seconds = seconds
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, workers), thread_name_prefix="volley-render"
        )

    async def run(self, job: Callable[[], Output]) -> Output:
        """Run `job` in a worker; ServerBusy or RenderTooSlow when the deadline passes."""
        future = self._executor.submit(job)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), self.seconds)
        except asyncio.TimeoutError:
            if future.cancel():  # still queued: it never runs
                raise ServerBusy(
                    f"the server is busy: no renderer was free within {self.seconds:g} s",
                    hint="try again in a moment",
                ) from None
            if future.done():  # finished in the instant the deadline passed
                return future.result()
            raise RenderTooSlow(  # running: it finishes unseen, holding its worker till then
                f"rendering took longer than this server's limit of {self.seconds:g} s",
                hint="split the diagram, or render it locally with the volley command",
            ) from None

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
