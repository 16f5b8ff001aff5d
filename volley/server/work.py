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
from volley.server.limits import ServerLimits

FORMATS = ("svg", "png", "html", "json")
MEDIA_TYPES = {
    "svg": "image/svg+xml; charset=utf-8",
    "png": "image/png",
    "html": "text/html; charset=utf-8",
    "json": "application/json",
}
THEMES = ("light", "dark", "auto")
BODIES = ("markers", "appendix", "none")
_TRUE = ("1", "true", "yes", "on", "")
_FALSE = ("0", "false", "no", "off")


class ServerBusy(VolleyError):
    """Every render worker stayed busy until the request's deadline."""


class RenderTooSlow(VolleyError):
    """A render ran past the time limit."""


@dataclass(frozen=True)
class RenderOptions:
    """The options a render request may set, checked before any work is queued."""

    format: str = "svg"
    theme: str = "light"
    fragment: bool = False
    assets: bool = True  # a fragment carries its viewer CSS/JS unless the page has them
    scale: float = 1.0
    bodies: str = "markers"

    @classmethod
    def from_query(
        cls, query: Mapping[str, str], limits: ServerLimits, **fixed: str
    ) -> RenderOptions:
        """Read `?format=…&theme=…` into options; a clear VolleyError for a bad value."""
        values = {**query, **fixed}
        fmt = _choice(values, "format", FORMATS, "svg")
        scale = _number(values, "scale", 1.0)
        if not 0.05 <= scale <= limits.max_scale:
            raise VolleyError(f"scale must be between 0.05 and {limits.max_scale:g}, not {scale:g}")
        return cls(
            format=fmt,
            theme=_choice(values, "theme", THEMES, "auto" if fmt == "html" else "light"),
            fragment=_flag(values, "fragment", False),
            assets=_flag(values, "assets", True),
            scale=scale,
            bodies=_choice(values, "bodies", BODIES, "markers"),
        )

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


def _flag(values: Mapping[str, str], name: str, default: bool) -> bool:
    if name not in values:
        return default
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
    """Parse, lint and draw one diagram; VolleyError for anything wrong with the source."""
    import volley
    from volley.checks.lint import lint

    diagram = volley.parse(source, filename=None, limits=limits)
    warnings = lint(diagram, source)
    data: str | bytes
    if options.format == "json":
        data = json.dumps(diagram.to_json(), ensure_ascii=False, indent=2)
    else:
        extra: dict[str, Any] = {}
        if options.format == "html":
            extra = {"fragment": options.fragment, "include_assets": options.assets}
        data = volley.render(
            diagram,
            format=options.format,
            theme=options.theme,
            scale=options.scale,
            bodies=options.bodies,
            limits=limits,
            **extra,
        )
    body = data.encode("utf-8") if isinstance(data, str) else data
    return Output(body, options.media_type, diagram.title, warnings)


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
