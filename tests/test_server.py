"""The server's endpoints through an HTTP client: renders, errors, limits, share images, the
gallery and FILE. Browser tests of the page itself are in test_editor_browser.py."""

from __future__ import annotations

import asyncio
import hashlib
import html
import http.server
import json
import os
import re
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from xml.etree import ElementTree

import pytest

pytest.importorskip("starlette")
import httpx2  # noqa: E402

import volley  # noqa: E402
from volley import editor_links as share  # noqa: E402
from volley.server import ServerLimits, create_app, is_loopback  # noqa: E402
from volley.server.work import RenderPool  # noqa: E402

from .conftest import EXAMPLES  # noqa: E402

SMALL = "title: Hello\nA -> B: ping\nin: Request\n  id: 1\nB --> A: pong\n"
BROKEN = "A -> B: fine\nA -> : no receiver\n"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class Client:
    """A synchronous HTTP client over the ASGI app, in process; one event loop per request,
    as separate requests to a server would be."""

    def __init__(self, app) -> None:
        self.app = app

    def request(self, method: str, url: str, **options) -> httpx2.Response:
        async def send() -> httpx2.Response:
            transport = httpx2.ASGITransport(app=self.app)
            async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
                return await c.request(method, url, **options)

        return asyncio.run(send())

    def get(self, url: str, **options) -> httpx2.Response:
        return self.request("GET", url, **options)

    def post(self, url: str, **options) -> httpx2.Response:
        return self.request("POST", url, **options)

    def put(self, url: str, **options) -> httpx2.Response:
        return self.request("PUT", url, **options)


@pytest.fixture(scope="module")
def client() -> Client:
    return Client(create_app())


def make_client(**options) -> Client:
    return Client(create_app(**options))


# --- rendering ------------------------------------------------------------------------------


def test_render_svg(client: Client) -> None:
    response = client.post("/render?format=svg", content=SMALL)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert response.text.lstrip().startswith("<svg")
    assert "ping" in response.text
    assert response.headers["cache-control"] == "no-store"


def test_render_defaults_to_svg(client: Client) -> None:
    response = client.post("/render", content=SMALL)
    assert response.headers["content-type"].startswith("image/svg+xml")


def test_render_png(client: Client) -> None:
    response = client.post("/render?format=png&scale=2", content=SMALL)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.content.startswith(PNG_MAGIC)


def test_render_html_page_and_fragment(client: Client) -> None:
    page = client.post("/render?format=html", content=SMALL)
    assert page.status_code == 200
    assert page.text.lstrip().lower().startswith("<!doctype html")
    fragment = client.post("/render?format=html&fragment=1&assets=0", content=SMALL)
    root = '<div class="volley-diagram tex2jax_ignore mathjax_ignore"'
    assert fragment.text.lstrip().startswith(root)
    assert "<style>" not in fragment.text and "<script>" not in fragment.text
    with_assets = client.post("/render?format=html&fragment=1", content=SMALL)
    assert "<script>" in with_assets.text


def test_render_json_is_the_parse_json(client: Client) -> None:
    response = client.post("/render?format=json", content=SMALL)
    assert response.headers["content-type"] == "application/json"
    assert response.json() == volley.parse(SMALL).to_json()


def test_rendered_output_cannot_act_as_the_site(client: Client) -> None:
    """Opened on its own, a render runs in a sandbox with no origin and no remote loads."""
    for fmt in ("svg", "html"):
        csp = client.post(f"/render?format={fmt}", content=SMALL).headers["content-security-policy"]
        assert "sandbox" in csp and "default-src 'none'" in csp


def test_a_bad_source_is_a_json_error_with_the_place(client: Client) -> None:
    response = client.post("/render?format=svg", content=BROKEN)
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["line"] == 2
    assert error["column"] == 6
    assert error["source_line"] == "A -> : no receiver"
    assert "participant" in error["message"]
    assert set(error) >= {"message", "line", "column", "source_line"}


def test_every_error_of_a_diagram_is_in_the_json(client: Client) -> None:
    """The editor marks each broken line at once; `error` stays the first, as before."""
    response = client.post("/render?format=svg", content="A -> B: ok\nA -> : one\nB -> : two\n")
    assert response.status_code == 400
    body = response.json()
    assert [e["line"] for e in body["errors"]] == [2, 3]
    assert body["error"] == body["errors"][0]


def test_import_converts_a_diagram_written_for_another_tool(client: Client) -> None:
    mermaid = "sequenceDiagram\n    A->>B: hi\n    B-->>A: ok\n"
    answer = client.post("/import", content=mermaid)
    assert answer.status_code == 200
    assert answer.json() == {"text": "A -> B: hi\nB --> A: ok\n", "diagrams": 1}
    page = (
        "```plantuml\n@startuml\nA -> B : one\n@enduml\n```\n"
        "```mermaid\nsequenceDiagram\nB->>C: two\n```\n"
    )
    assert client.post("/import", content=page).json() == {"text": "A -> B: one\n", "diagrams": 2}


def test_import_refuses_traffic_and_says_why_a_diagram_does_not_read(client: Client) -> None:
    refused = client.post("/import", content='{"log": {"entries": []}}')
    assert refused.status_code == 400
    assert refused.json()["error"]["hint"] == (
        "import captured traffic (HAR, traces, JSON-RPC logs) with volley import"
    )
    wrong = client.post("/import", content="@startuml\nA -> B : hi\nA ~~> B : wavy\n@enduml\n")
    assert wrong.status_code == 400
    error = wrong.json()["error"]
    assert (error["line"], error["source_line"]) == (3, "A ~~> B : wavy")


def test_bytes_that_are_not_utf8_are_a_json_error(client: Client) -> None:
    response = client.post("/render", content=b"A -> B: caf\xe9\n")
    assert response.status_code == 400
    error = response.json()["error"]
    assert "not valid UTF-8" in error["message"]
    assert error["line"] == 1


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("format=gif", 'unknown format "gif"'),
        ("format=svg&theme=neon", 'unknown theme "neon"'),
        ("format=png&scale=400", "scale must be between"),
        ("format=png&scale=nan", "scale must be a number"),
        ("format=html&fragment=maybe", "fragment must be 1 or 0"),
        # a misspelt name was dropped, and `redcat=1` answered unmasked
        ("format=html&redcat=1", 'unknown option "redcat" in the query'),
        ("them=dark", 'unknown option "them" in the query'),
    ],
)
def test_bad_options_are_json_errors(client: Client, query: str, message: str) -> None:
    response = client.post(f"/render?{query}", content=SMALL)
    assert response.status_code == 400
    assert message in response.json()["error"]["message"]


def test_a_share_image_takes_a_cache_busting_query(client: Client) -> None:
    """`/svg/…?v=2` (a README's way to make a proxy fetch it again) drew an error picture."""
    response = client.get("/svg/" + share.encode(SMALL) + "?v=2&theme=dark")
    assert response.status_code == 200 and response.text.startswith("<svg")
    long = client.post("/render?" + "x" * 5000 + "=1", content=SMALL)
    assert long.status_code == 400 and len(long.json()["error"]["message"]) < 120


def test_redact_in_the_query_masks_the_picture(client: Client) -> None:
    token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    text = f"A -> B: call\nin: R\n  Authorization: Bearer {token}\n"
    masked = client.post("/render?format=html&redact=1", content=text)
    assert masked.status_code == 200 and token not in masked.text
    assert token in client.post("/render?format=html", content=text).text


def test_redact_auto_masks_only_a_text_that_holds_a_live_looking_secret(client: Client) -> None:
    """The editor's downloads ask for `auto`: its last preview may be of older text."""
    token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    live = f"A -> B: call\nin: R\n  Authorization: Bearer {token}\n"
    for fmt in ("html", "json"):
        masked = client.post(f"/render?format={fmt}&redact=auto", content=live)
        assert masked.status_code == 200 and token not in masked.text
    example = "A -> B: call\nin: R\n  Authorization: Bearer abc123\n"  # kept unless asked
    assert "abc123" in client.post("/render?format=html&redact=auto", content=example).text
    assert "abc123" not in client.post("/render?format=html&redact=1", content=example).text


def test_redact_masks_the_json_and_a_picture_option_is_refused_there(client: Client) -> None:
    """`format=json&redact=1` answered the live token (json read no option at all), and
    `format=json&scale=2` was dropped in silence where svg refuses it."""
    token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    text = f"A -> B: call\nin: R\n  Authorization: Bearer {token}\n"
    masked = client.post("/render?format=json&redact=1", content=text)
    assert masked.status_code == 200 and token not in masked.text
    assert masked.json()["items"][0]["request"]["body"].startswith("Authorization: Bearer ")
    assert token not in masked.headers.get("x-volley-warnings", "")
    assert token in client.post("/render?format=json", content=text).text
    for option in ("scale=2", "theme=dark", "bodies=appendix", "fragment=1", "assets=0"):
        refused = client.post(f"/render?format=json&{option}", content=text)
        name = option.split("=")[0]
        assert refused.status_code == 400, option
        assert refused.json()["error"]["message"] == (
            f"{name} does not apply to json, which is the diagram as data"
        )


def test_a_name_given_twice_in_the_query_is_refused(client: Client) -> None:
    """`?redact=1&redact=0` answered unmasked: the last one won."""
    token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    text = f"A -> B: call\nin: R\n  Authorization: Bearer {token}\n"
    twice = client.post("/render?format=html&redact=1&redact=0", content=text)
    assert twice.status_code == 400 and token not in twice.text
    assert twice.json()["error"]["message"] == '"redact" is given twice in the query'
    image = client.get("/svg/" + share.encode(SMALL) + "?v=1&v=2")  # a README's cache-busters
    assert image.status_code == 200


def test_import_refuses_a_name_in_its_query(client: Client) -> None:
    refused = client.post("/import?format=svg", content="sequenceDiagram\n  A->>B: hi\n")
    assert refused.status_code == 400
    assert refused.json()["error"]["message"] == (
        'unknown option "format" in the query: /import takes none'
    )


def test_unknown_icons_come_back_as_warnings(client: Client) -> None:
    response = client.post("/render", content="A -> B: {fas-no-such-icon-here} hi\n")
    assert response.status_code == 200
    warnings = json.loads(response.headers["x-volley-warnings"])
    assert warnings[0]["line"] == 1
    assert "no-such-icon-here" in warnings[0]["message"]
    assert "secret" not in warnings[0]


def test_a_warning_about_a_secret_says_so_for_the_editors_share(client: Client) -> None:
    token = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kZ"
    source = f"A -> B: x {{fas-no-such-icon-here}}\nin: Request\n  Authorization: Bearer {token}\n"
    for redact in ("0", "1"):  # a note when the picture masks it: the links still carry it
        response = client.post(f"/render?redact={redact}", content=source)
        warnings = json.loads(response.headers["x-volley-warnings"])
        assert [w.get("secret", False) for w in warnings] == [False, True]
        assert response.headers["x-volley-secrets"] == "1"
    # counted past the warnings the header shows; a name that says the words is no secret
    icons = "".join(f"A -> B: {{fas-no-such-icon-{n}}}\n" for n in range(25))
    said = client.post("/render", content=icons + f"A -> B: x\nin: R\n  password: {token}\n")
    assert len(json.loads(said.headers["x-volley-warnings"])) < 26
    assert said.headers["x-volley-secrets"] == "1"
    named = client.post("/render", content="# it looks like a live secret -> B: x\n")
    assert "secret" not in named.headers["x-volley-warnings"].split('"message"')[0]
    assert not any(w.get("secret") for w in json.loads(named.headers["x-volley-warnings"]))
    assert "x-volley-secrets" not in named.headers


# --- limits ---------------------------------------------------------------------------------


def test_a_declared_oversize_body_is_refused_before_reading() -> None:
    client = make_client(limits=ServerLimits(body_bytes=1000))
    response = client.post("/render", content="A -> B: x\n" * 200)
    assert response.status_code == 413
    assert "limit of 1,000 bytes" in response.json()["error"]["message"]
    assert client.post("/render", content="A -> B: x\n" * 50).status_code == 200


def test_a_streamed_oversize_body_is_refused_while_streaming() -> None:
    """No Content-Length: the server counts as chunks arrive and stops reading at the limit."""
    app = create_app(limits=ServerLimits(body_bytes=10_000))
    sent = 0

    async def body() -> AsyncIterator[bytes]:
        nonlocal sent
        for _ in range(1000):
            sent += 1
            yield b"A -> B: " + b"x" * 992 + b"\n"

    async def post() -> httpx2.Response:
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            return await client.post("/render", content=body())

    response = asyncio.run(post())
    assert response.status_code == 413
    assert sent < 20  # stopped after ~10 KB, not after the whole megabyte


@pytest.mark.parametrize(
    ("source", "option"),
    [
        ("A -> B: " + "x" * 10_001 + "\n", "--max-label-chars"),
        ("".join(f"if: {n}\n" for n in range(101)) + "A -> B\n", "--max-depth"),
    ],
    ids=["label", "depth"],
)
def test_a_limit_is_the_servers_not_an_option_to_give(client: Client, source, option) -> None:
    """A request cannot raise a limit: the hint says the server's, and the command's way."""
    said = client.post("/render", content=source).json()
    hints = [said["error"]["hint"], *(error["hint"] for error in said["errors"])]
    assert all(hint.startswith("this server's limit") and option in hint for hint in hints)
    assert "volley.Limits" not in str(said)


def test_a_png_past_the_servers_pixels_says_to_lower_the_scale_first() -> None:
    client = make_client(limits=ServerLimits(diagram=volley.Limits(pixels=10_000)))
    said = client.post("/render?format=png&scale=2", content="A -> B: x\n").json()
    assert said["error"]["hint"].startswith("this server's limit; lower the scale, or the volley")


def test_the_default_body_limit_is_one_megabyte(client: Client) -> None:
    assert ServerLimits().body_bytes == 1_000_000
    response = client.post("/render", content=b"// " + b"x" * 1_000_000)
    assert response.status_code == 413


# Seconds of work for any machine: 40,000 messages parsed, laid out and drawn.
SLOW = "A -> B: ping\nB --> A: pong\n" * 20_000


def test_a_render_over_the_time_limit_is_stopped_and_answered_clearly() -> None:
    # SLOW takes over 2 s of CPU to draw; a small diagram well under a second.
    client = make_client(limits=ServerLimits(render_seconds=1.5, render_workers=1))
    large_but_quick = "// a long comment\n" * 2_000 + SMALL
    assert client.post("/render", content=large_but_quick).status_code == 200
    pool = client.app.app.app.state.service.pool  # under the security headers and the header limit
    before = set(pool.processes())  # the renderer of the large lane, started
    response = client.post("/render", content=SLOW)
    assert response.status_code == 422
    assert "longer than this server's limit of 1.5 s" in response.json()["error"]["message"]
    (killed,) = before - set(pool.processes())  # killed at the deadline, not left running
    with pytest.raises(ProcessLookupError):
        os.kill(killed, 0)
    assert client.post("/render", content=large_but_quick).status_code == 200  # a fresh one


def test_an_import_is_held_to_the_render_deadline() -> None:
    # 100,000 messages take seconds to convert on any machine; a short page, a fraction of one
    limits = ServerLimits(render_seconds=1.5, render_workers=1, body_bytes=5_000_000)
    client = make_client(limits=limits)
    quick = "sequenceDiagram\n" + "    %% a long comment\n" * 2_000 + "    A->>B: hi\n"
    assert client.post("/import", content=quick).status_code == 200  # the large lane, started
    slow = "sequenceDiagram\n" + "    A->>B: a message of a long session\n" * 100_000
    response = client.post("/import", content=slow)
    assert response.status_code == 422
    assert "longer than this server's limit of 1.5 s" in response.json()["error"]["message"]


def test_renders_queued_past_half_their_time_make_the_server_busy() -> None:
    """A render still waiting for a renderer after half its time is told the server is busy
    then, not once the render in front of it has run to the deadline."""
    answered: list[str] = []

    async def post(c: httpx2.AsyncClient, name: str, content: str) -> httpx2.Response:
        response = await c.post("/render", content=content)
        answered.append(name)
        return response

    async def three() -> list[httpx2.Response]:
        app = create_app(limits=ServerLimits(render_seconds=2.0, render_workers=1))
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            first = asyncio.create_task(post(c, "first", SLOW))
            await asyncio.sleep(0.2)
            queued = asyncio.create_task(post(c, "queued", SLOW))
            await asyncio.sleep(0.2)
            small = await c.post("/render", content=SMALL)  # its own lane: not held up
            return [await first, await queued, small]

    first, queued, small = asyncio.run(three())
    assert answered == ["queued", "first"]
    assert first.status_code == 422
    assert queued.status_code == 503
    assert queued.headers["retry-after"]
    assert "busy" in queued.json()["error"]["message"]
    assert small.status_code == 200


def test_a_render_process_that_meets_another_volley_says_to_restart(monkeypatch) -> None:
    """`pip install -U volley` under a running server: a render process holds the old modules
    and imports newer ones, and the ImportError it met was answered "split the diagram"."""
    import multiprocessing

    from volley.server import work

    def produce(*_: object) -> None:
        raise ImportError("cannot import name 'note_side' from 'volley.language.parser'")

    monkeypatch.setattr(work, "produce", produce)  # in the process forked below
    context = multiprocessing.get_context("fork")
    mine, theirs = context.Pipe()
    child = context.Process(target=work._serve_renders, args=(theirs, None), daemon=True)
    child.start()
    mine.send(("A -> B: hi\n", work.RenderOptions(), volley.Limits()))
    kind, (said, hint) = mine.recv()
    child.join(10)
    assert kind == "failed" and hint == "restart the server"
    assert said.startswith("this server's volley changed on disk while it ran (cannot import")


def test_a_png_of_a_short_source_draws_in_the_large_lane() -> None:
    """A picture's cost is in its pixels: a short diagram at scale 4 takes the large lane, and
    an SVG preview asked for meanwhile is answered at once from the small one."""
    lanes = [f"P{i}" for i in range(12)]
    wide = "\n".join(f"{a} -> {b}: call" for a, b in zip(lanes, lanes[1:], strict=False)) * 3

    async def two() -> tuple[httpx2.Response, httpx2.Response, bool]:
        app = create_app(limits=ServerLimits(render_workers=1))
        transport = httpx2.ASGITransport(app=app)
        async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as c:
            await c.post("/render", content=SMALL)  # the small lane's renderer, started
            png = asyncio.create_task(c.post("/render?format=png&scale=4", content=wide))
            await asyncio.sleep(0.3)
            small = await c.post("/render", content=SMALL)
            drawing = not png.done()  # the PNG still drawing: the preview did not wait for it
            return await png, small, drawing

    png, small, drawing = asyncio.run(two())
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")
    assert small.status_code == 200
    assert drawing


# --- share images ---------------------------------------------------------------------------


def test_svg_by_url(client: Client) -> None:
    response = client.get("/svg/" + share.encode(SMALL))
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert "ping" in response.text
    assert "immutable" in response.headers["cache-control"]
    assert response.headers["etag"]


def test_png_by_url(client: Client) -> None:
    response = client.get("/png/" + share.encode(SMALL) + ".png?scale=2")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.content.startswith(PNG_MAGIC)
    assert "immutable" in response.headers["cache-control"]


def test_a_repeat_image_request_is_answered_from_its_etag(client: Client, monkeypatch) -> None:
    path = "/svg/" + share.encode(SMALL)
    etag = client.get(path).headers["etag"]
    monkeypatch.setattr(RenderPool, "run", None)  # a render now would fail
    response = client.get(path, headers={"If-None-Match": etag})
    assert response.status_code == 304
    assert "immutable" in response.headers["cache-control"]


@pytest.mark.parametrize(
    ("encoded", "message"),
    [
        ("nonsense", "not a volley share link"),
        ("v9.eJwLAQ", "share format v9"),
        ("v1.$$$$", "URL-safe base64 does not use"),
        ("v1.AAAAAAAA", "damaged"),
    ],
)
def test_a_bad_encoding_is_a_picture_of_the_error(
    client: Client, encoded: str, message: str
) -> None:
    response = client.get("/svg/" + encoded)
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert message in json.loads(response.headers["x-volley-error"])["message"]
    assert html.escape(message, quote=True) in response.text
    assert response.headers["cache-control"] == "no-store"


def test_a_zip_bomb_by_url_is_refused(client: Client) -> None:
    import base64
    import zlib

    # 10 MB of new lines in a link of 13 KB, under the limit on a request's address and
    # headers (a larger bomb's link is refused before it is read: 431)
    bomb = base64.urlsafe_b64encode(zlib.compress(b"\n" * 10_000_000, 9)).decode().rstrip("=")
    response = client.get("/png/v1." + bomb)
    assert response.status_code == 413 and response.content.startswith(PNG_MAGIC)  # as documented
    assert "larger than the limit" in json.loads(response.headers["x-volley-error"])["message"]
    bigger = base64.urlsafe_b64encode(zlib.compress(b"\n" * 50_000_000, 9)).decode()
    assert client.get("/png/v1." + bigger.rstrip("=")).status_code == 431


def test_a_broken_diagram_by_url_is_a_picture_of_its_error(client: Client) -> None:
    """An <img> in a README shows what is wrong, not a broken-image icon."""
    response = client.get("/svg/" + share.encode(BROKEN))
    assert response.status_code == 400
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert json.loads(response.headers["x-volley-error"])["line"] == 2
    assert "could not be drawn" in response.text and "A -&gt; : no receiver" in response.text
    picture = client.get("/png/" + share.encode(BROKEN))
    assert picture.status_code == 400 and picture.content.startswith(PNG_MAGIC)
    posted = client.post("/render?format=svg", content=BROKEN.encode())  # the API: JSON
    assert posted.status_code == 400 and posted.json()["error"]["line"] == 2


def test_an_error_picture_escapes_what_it_quotes(client: Client) -> None:
    attack = 'A -> : <script>alert(1)</script> & "x"\n'
    text = client.get("/svg/" + share.encode(attack)).text
    assert "<script" not in text and "&lt;script&gt;alert(1)&lt;/script&gt; &amp;" in text
    # a character XML has not (U+FFFE) is quoted as its escape: the picture stays XML, which
    # an image proxy parses
    odd = client.get("/svg/" + share.encode("A -> : \ufffe\n")).text
    assert "\\ufffe" in odd and "\ufffe" not in odd
    ElementTree.fromstring(odd.encode("utf-8"))


# --- page, health, gallery ------------------------------------------------------------------


def test_healthz(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "version": volley.__version__}


def test_the_editor_page_loads_nothing_remote(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "data-volley-editor" in response.text
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp
    assert "http" not in csp and "*" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"
    for url in re.findall(r'(?:src|href)="([^"]+)"', response.text):
        assert url.startswith("/"), url  # own paths only, no CDN
        assert client.get(url).status_code == 200, url


def test_every_answer_says_nosniff(client: Client) -> None:
    for response in (client.get("/healthz"), client.get("/svg/bad"), client.get("/nowhere")):
        assert response.headers["x-content-type-options"] == "nosniff"


def test_static_files_are_only_the_known_ones(client: Client) -> None:
    assert client.get("/static/editor.js").status_code == 200
    assert client.get("/static/..%2Fstarter.volley").status_code == 404
    assert client.get("/static/../../pyproject.toml").status_code == 404


def test_the_page_config_is_escaped_json(client: Client) -> None:
    text = client.get("/").text
    pattern = r'<script type="application/json" id="volley-config">(.*?)</script>'
    found = re.search(pattern, text)
    assert found
    config = json.loads(found.group(1))
    assert config["file"] is None
    assert config["maxBytes"] == 1_000_000
    assert "title:" in config["starter"]


def test_templates_come_from_examples_with_their_titles(client: Client) -> None:
    listed = client.get("/templates").json()
    by_id = {t["id"]: t for t in listed}
    assert by_id["mcp-tool-call"]["title"] == "MCP tool call over Streamable HTTP"
    assert len(listed) == len(list(EXAMPLES.glob("*.volley")))
    one = client.get("/templates/mcp-tool-call").json()
    assert one["source"] == (EXAMPLES / "mcp-tool-call.volley").read_text(encoding="utf-8")
    assert client.get(by_id["mcp-tool-call"]["image"]).status_code == 200


def test_an_unknown_template_is_404(client: Client) -> None:
    response = client.get("/templates/..%2F..%2Fpyproject")
    assert response.status_code == 404
    assert "error" in response.json()


def test_gallery_titles_fall_back_to_the_file_name(tmp_path: Path) -> None:
    (tmp_path / "with-title.volley").write_text("title: **Bold** {fas-plug} start\nA -> B\n")
    (tmp_path / "retry_policy.volley").write_text("A -> B\n")
    (tmp_path / "broken.volley").write_text("A -> \n")
    (tmp_path / "notes.txt").write_text("not a diagram")
    listed = make_client(examples=tmp_path).get("/templates").json()
    titles = {t["id"]: t["title"] for t in listed}
    assert titles == {
        "broken": "Broken",
        "retry_policy": "Retry policy",
        "with-title": "Bold start",
    }


def test_no_examples_folder_means_an_empty_gallery(tmp_path: Path) -> None:
    client = make_client(examples=tmp_path / "missing")
    assert client.get("/templates").json() == []
    assert "no templates" in client.get("/").text


# --- FILE -----------------------------------------------------------------------------------


def test_without_a_file_there_is_no_file_endpoint(client: Client) -> None:
    response = client.get("/file")
    assert response.status_code == 404
    assert "volley serve FILE" in response.json()["error"]["hint"]
    assert client.put("/file", content="A -> B").status_code == 404


def test_get_and_save_the_file(tmp_path: Path) -> None:
    path = tmp_path / "flow.volley"
    path.write_text(SMALL)
    client = make_client(file=path)
    first = client.get("/file")
    assert first.json()["source"] == SMALL
    assert first.json()["name"] == "flow.volley"
    etag = first.headers["etag"]
    assert client.get("/file", headers={"If-None-Match": etag}).status_code == 304

    saved = client.put("/file", content="A -> B: saved\n", headers={"If-Match": etag})
    assert saved.status_code == 200
    assert path.read_text() == "A -> B: saved\n"
    assert [p.name for p in tmp_path.iterdir()] == ["flow.volley"]  # no temporary left behind
    assert client.get("/file", headers={"If-None-Match": etag}).status_code == 200


def test_a_save_keeps_the_files_line_ends(tmp_path: Path) -> None:
    """The editor holds "\n" line ends; a file written on Windows keeps its "\r\n" (every line
    of it was shown changed in git after a save)."""
    path = tmp_path / "flow.volley"
    path.write_bytes(b"A -> B: one\r\nB -> A: two\r\n")
    client = make_client(file=path)
    first = client.get("/file")
    assert first.json()["source"] == "A -> B: one\nB -> A: two\n"
    saved = client.put(
        "/file", content="A -> B: one\nB -> A: three\n", headers={"If-Match": first.headers["etag"]}
    )
    assert saved.status_code == 200
    assert path.read_bytes() == b"A -> B: one\r\nB -> A: three\r\n"
    assert client.get("/file", headers={"If-None-Match": saved.headers["etag"]}).status_code == 304
    path.write_bytes("A -> B\r\n".encode("utf-16"))  # as PowerShell 5 writes a file
    etag = client.get("/file").headers["etag"]
    client.put("/file", content="A -> B: y\n", headers={"If-Match": etag})
    assert path.read_bytes() == b"A -> B: y\r\n"  # UTF-8, as volley fmt writes, its ends kept
    path.write_bytes(b"A -> B\n")  # a file of "\n" line ends keeps them
    etag = client.get("/file").headers["etag"]
    client.put("/file", content="A -> B: x\r\n", headers={"If-Match": etag})
    assert path.read_bytes() == b"A -> B: x\n"


def test_a_change_on_disk_shows_as_a_new_version(tmp_path: Path) -> None:
    path = tmp_path / "flow.volley"
    path.write_text(SMALL)
    client = make_client(file=path)
    etag = client.get("/file").headers["etag"]
    path.write_text("A -> B: edited elsewhere\n")
    response = client.get("/file", headers={"If-None-Match": etag})
    assert response.status_code == 200
    assert response.json()["source"] == "A -> B: edited elsewhere\n"


def test_a_save_over_a_newer_disk_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "flow.volley"
    path.write_text(SMALL)
    client = make_client(file=path)
    etag = client.get("/file").headers["etag"]
    path.write_text("A -> B: theirs\n")
    response = client.put("/file", content="A -> B: mine\n", headers={"If-Match": etag})
    assert response.status_code == 409
    assert path.read_text() == "A -> B: theirs\n"


def test_a_save_that_is_not_utf8_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "flow.volley"
    path.write_text(SMALL)
    response = make_client(file=path).put("/file", content=b"A -> B: caf\xe9\n")
    assert response.status_code == 400
    assert "not valid UTF-8" in response.json()["error"]["message"]
    assert path.read_text() == SMALL


def test_a_file_on_disk_that_is_not_utf8_is_a_version_a_save_may_replace(tmp_path: Path) -> None:
    """Another program saved FILE in Latin-1: GET /file answered 500, and no save could name
    the version on disk. It answers 422, what is wrong, and the version (ETag), which a save
    that means to write over it names; its line ends are kept."""
    path = tmp_path / "flow.volley"
    path.write_bytes(b"title: caf\xe9\r\nA -> B: x\r\n")
    client = make_client(file=path)
    unreadable = client.get("/file")
    assert unreadable.status_code == 422
    error = unreadable.json()["error"]
    assert error["message"].startswith("the file is not valid UTF-8: byte 0xe9")
    assert (error["line"], error["column"]) == (1, 11)
    etag = unreadable.headers["etag"]
    stale = client.put("/file", content="A -> B: mine\n", headers={"If-Match": '"0"'})
    assert stale.status_code == 409
    saved = client.put("/file", content="title: café\nA -> B: mine\n", headers={"If-Match": etag})
    assert saved.status_code == 200
    assert path.read_bytes() == "title: café\r\nA -> B: mine\r\n".encode()
    assert client.get("/file").json()["source"] == "title: café\nA -> B: mine\n"


def test_a_new_file_starts_empty_and_is_created_on_save(tmp_path: Path) -> None:
    path = tmp_path / "new.volley"
    client = make_client(file=path)
    assert client.get("/file").json()["source"] == ""
    assert client.put("/file", content="A -> B\n").status_code == 200
    assert path.read_text() == "A -> B\n"


def test_the_page_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "flow.volley"
    path.write_text(SMALL)
    text = make_client(file=path).get("/").text
    assert "flow.volley" in text and 'id="save"' in text


# --- what a request may not do --------------------------------------------------------------


class _Recorder(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (the standard library's name)
        self.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def test_rendering_never_fetches_what_a_diagram_names(client: Client) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    source = (
        f"title: [home]({url}/title)\n"
        f"A -> B: [look]({url}/label) ![img]({url}/image.png)\n"
        f"note A: <img src='{url}/note.png'> [x](file:///etc/passwd)\n"
    )
    try:
        for fmt in ("svg", "png", "html", "json"):
            assert client.post(f"/render?format={fmt}", content=source).status_code == 200
        assert client.get("/png/" + share.encode(source)).status_code == 200
    finally:
        server.shutdown()
    assert _Recorder.hits == []


def test_host_names_can_be_restricted() -> None:
    client = make_client(allowed_hosts=("127.0.0.1", "localhost", "::1"))
    assert client.get("/healthz", headers={"Host": "localhost:8000"}).status_code == 200
    assert client.get("/healthz", headers={"Host": "[::1]:8000"}).status_code == 200
    rebound = client.get("/healthz", headers={"Host": "attacker.example:8000"})
    assert rebound.status_code == 421
    assert "host name" in rebound.json()["error"]["message"]
    # the answer to a refused host is no exception to the headers every answer carries
    assert rebound.headers["x-content-type-options"] == "nosniff"
    assert rebound.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize(
    ("host", "local"),
    [
        ("127.0.0.1", True),
        ("localhost", True),
        ("::1", True),
        ("0.0.0.0", False),
        ("10.0.0.5", False),
    ],
)
def test_is_loopback(host: str, local: bool) -> None:
    assert is_loopback(host) is local


def test_headers_over_the_limit_are_refused_however_they_arrive(client: Client) -> None:
    """The HTTP server's own limit holds for headers still arriving; a block sent in one
    piece is refused by the app, whichever server runs it."""
    big = client.get("/healthz", headers={"X-Big": "a" * 17_000})
    assert big.status_code == 431
    said = "the request's address and headers are over 16,384 bytes"
    assert big.json()["error"]["message"] == said
    assert client.get("/healthz", headers={"X-Fine": "a" * 8_000}).status_code == 200
    # an image link's address counts too: one of 20 KB was drawn when it came in one piece
    # and refused by the HTTP server when it came in several, as over a network
    words = [hashlib.sha256(str(n).encode()).hexdigest() for n in range(600)]
    long = share.encode("".join(f"A -> B: {word}\n" for word in words))
    assert len(long) > 17_000
    refused = client.get("/svg/" + long)
    assert refused.status_code == 431 and refused.json()["error"]["message"] == said
