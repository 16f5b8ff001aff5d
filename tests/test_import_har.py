"""`volley import` of HAR captures: real files from Chrome, mitmproxy, Charles and Insomnia
(tests/cases/har/, from mitmproxy's test data), read as a user would check the diagram."""

from __future__ import annotations

import base64
import gzip
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import volley
from volley.errors import VolleyError
from volley.importers import convert, detect
from volley.importers.har import import_har
from volley.importers.traffic import TrafficOptions, masked
from volley.language.parser import parse
from volley.language.writer import write
from volley.model import Diagram, Divider, Message, Note
from volley.text.payload_tables import body_table

from .conftest import arrows, notes_of, volley_cli

CASES = Path(__file__).parent / "cases" / "har"


def har(name: str, **options) -> Diagram:
    return import_har((CASES / f"{name}.har").read_bytes(), TrafficOptions(**options), name)


def request(message: Message) -> str:
    assert message.request is not None
    return message.request.body


def response(message: Message) -> str:
    assert message.response is not None
    return message.response.body


def test_chrome_capture_lanes_messages_and_sections():
    diagram = har("chrome")
    assert diagram.participants == ["Browser", "mitmproxy.org", "www.google.com"]
    assert arrows(diagram) == [
        ("Browser", "->", "mitmproxy.org", "GET /"),
        ("mitmproxy.org", "-->", "Browser", "304 Not Modified"),
        ("Browser", "-x", "www.google.com", "GET /"),
    ]
    assert diagram.items[0] == Divider(0, "bold", "https://mitmproxy.org/")


def test_http2_pseudo_headers_are_folded_into_the_start_line():
    first = request(har("chrome").messages()[0])
    assert first.split("\n")[:2] == ["GET / HTTP/2", "Host: mitmproxy.org"]
    assert ":authority" not in first and ":path" not in first


def test_noisy_headers_are_dropped_unless_kept():
    first = request(har("chrome").messages()[0])
    assert "accept-encoding" not in first and "sec-ch-ua" not in first
    assert "user-agent" not in first.lower()
    kept = request(har("chrome", keep_headers=True).messages()[0])
    assert "accept-encoding: gzip, deflate, br" in kept and "sec-ch-ua:" in kept


def chrome_answering_200(**options) -> Diagram:
    """chrome.har with its first answer a 200: the page's base64 body is then the answer's
    own (a 304's is the cache's copy, not shown)."""
    capture = json.loads((CASES / "chrome.har").read_text(encoding="utf-8"))
    capture["log"]["entries"][0]["response"]["status"] = 200
    return import_har(json.dumps(capture), TrafficOptions(**options), "chrome")


def test_base64_text_is_decoded_and_a_long_body_cut_with_a_line_saying_so():
    body = response(chrome_answering_200().messages()[1])
    assert "\n\n<!DOCTYPE html>" in body
    last = body.rsplit("\n", 1)[1]
    assert last.startswith("… ") and last.endswith(" in all)") and "more characters cut" in last
    whole = response(chrome_answering_200(max_body=0).messages()[1])
    assert "more characters cut" not in whole and whole.rstrip().endswith("</html>")


def test_a_body_is_cut_between_words_so_no_token_is_left_half_shown():
    """Cut at 4,000 characters, a GitHub token's first 34 characters were kept, which no
    rule knows the shape of: the cut now falls before the word it would split."""
    from volley.importers.labels import cut_body

    token = "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kZZ"
    text = "word " * 795 + f"use {token} and more words after it"
    cut = cut_body(text, 4000)
    assert cut.split("\n")[0].endswith("use ") and "ghp_" not in cut
    assert cut_body("a" * 5000, 4000).startswith("a" * 4000 + "\n… 1,000 more")  # one word


def test_failed_request_is_a_lost_message_with_the_reason():
    diagram = har("chrome")
    lost = diagram.messages()[2]
    assert lost.arrow == "-x" and lost.response is None
    note = diagram.items[diagram.items.index(lost) + 1]
    assert isinstance(note, Note) and note.attached
    assert note.text == "failed: net::ERR_INTERNET_DISCONNECTED"


def test_mitmproxy_connection_failure_is_lost_too():
    diagram = har("error_log")
    assert arrows(diagram)[0] == ("Client", "-x", "163.com", "GET /")
    assert "Connect call failed" in diagram.items[1].text


def test_static_assets_only_with_all():
    assert len(har("chrome").messages()) == 3
    everything = har("chrome", everything=True)
    assert (
        "Browser",
        "->",
        "www.google.com",
        "GET /images/branding/googlelogo/2x/googlelogo_light_color_272x92dp.png",
    ) in arrows(everything)
    image = response(everything.messages()[-1])
    assert image.endswith("bytes of image/png, not shown)")


def test_include_and_exclude_by_url_pattern():
    assert har("chrome", exclude=("google.com",)).participants == ["Browser", "mitmproxy.org"]
    only = har("chrome", include=("https://www.google.com/*",))
    assert only.participants == ["Browser", "www.google.com"]
    assert len(only.messages()) == 1


def test_lanes_are_renamed():
    diagram = har("successful_log", names={"httpbin.org": "HTTPBin", "example.com": "Site"})
    assert diagram.participants == ["Client", "Site", "HTTPBin"]


def test_json_response_is_indented_and_gives_a_table():
    post, reply = har("successful_log").messages()[2:]
    assert request(post).endswith("\n\nkey1=value1&key2=value2")
    table = body_table(response(reply), "http")
    rows = {row.key: row.value for row in table.rows}
    assert rows["form.key1"] == "value1" and rows["url"] == "https://httpbin.org/post"
    assert table.body_reason is None
    assert '\n  "form": {' in response(reply)


def test_secrets_are_masked_in_headers_and_query_strings():
    diagram, count = masked(har("websocket"))
    first = request(diagram.messages()[0])
    assert first.startswith("GET /v3/channel_123?api_key=<redacted>&notify_self HTTP/1.1")
    assert "\nCookie: _ga=<redacted>; _ga_MP49LGP298=<redacted>\n" in first
    assert "VCXCEuvhGcBDP7XhiJJUDvR1e1D3ei" not in write(diagram)
    assert count >= 6  # an API key and a cookie header in three requests


def test_authorization_header_is_masked():
    diagram, count = masked(har("event_stream"))
    assert "\nauthorization: api_key <redacted>\n" in request(diagram.messages()[0])
    assert count == 2
    unmasked = har("event_stream")
    assert "mob-82856bdd" in request(unmasked.messages()[0])


CAPTURES = sorted(path.stem for path in CASES.glob("*.har"))


@pytest.mark.parametrize("name", CAPTURES)
def test_every_capture_writes_a_diagram_that_reads_back(name):
    diagram = har(name)
    again = parse(write(diagram))
    assert arrows(again) == arrows(diagram)
    assert [request(m) for m in again.messages() if m.request] == [
        request(m) for m in diagram.messages() if m.request
    ]


def test_a_host_with_a_port_shows_it_in_its_box():
    """A colon ends a name, so the lane is named without it, and its box shows `host:port`."""
    diagram = har("browsertime-firefox-redirect")
    assert diagram.participants == ["Browser", "127.0.0.1 8000", "ocsp.digicert.com"]
    assert diagram.labels == {"127.0.0.1 8000": "127.0.0.1:8000"}
    again = parse(write(diagram))
    assert (again.participants, again.labels) == (diagram.participants, diagram.labels)


def test_tools_name_the_client():
    assert har("insomnia").participants[0] == "Client"
    assert har("postdata").participants[0] == "Browser"  # Chrome's WebInspector
    assert har("safari-first-entry").participants[0] == "Browser"  # "WebKit Web Inspector"
    assert har("insomnia", names={"Client": "Insomnia"}).participants[0] == "Insomnia"


def test_not_json_points_at_the_place():
    with pytest.raises(VolleyError) as caught:
        import_har(b'{"log": {"entries": [}', filename="broken.har")
    error = caught.value
    assert error.filename == "broken.har" and (error.line, error.column) == (1, 22)
    assert error.message.startswith("this is not a HAR file: the JSON does not parse")


def test_a_one_line_capture_cut_short_names_the_true_column():
    entries = [{"request": {"url": f"https://a.example/{n}"}} for n in range(300)]
    cut = json.dumps({"log": {"entries": entries}})[:5000]
    with pytest.raises(json.JSONDecodeError) as parsed:
        json.loads(cut)
    with pytest.raises(VolleyError) as caught:
        import_har(cut.encode(), filename="cut.har")
    error = caught.value
    assert (error.line, error.column) == (1, parsed.value.colno) == (1, 5001)  # at the end
    quoted, caret = error.format().split("\n")[1:3]
    assert quoted.startswith("  …") and quoted.endswith(cut[-20:]) and len(quoted) < 220
    assert caret.index("^") == len(quoted)


def test_a_har_file_cut_short_is_told_as_one_without_from(tmp_path):
    (tmp_path / "cut.har").write_text('{"log": {"entries": [{"request": {"url": "htt')
    result = volley_cli("import", str(tmp_path / "cut.har"), "-o", "-")
    assert result.returncode == 1
    assert (
        "cut.har:1:42: error: this is not a HAR file: the JSON stops unfinished at the end of the "
        "file (Unterminated string)" in result.stderr
    )
    assert "the file was cut short: save or export it again" in result.stderr
    # under another name it is not told as a HAR, but where its JSON stops is still said
    (tmp_path / "notes.txt").write_text('{"log": {"entries": [{"request": {"url": "htt')
    result = volley_cli("import", str(tmp_path / "notes.txt"), "-o", "-")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert (
        "notes.txt:1:42: error: the JSON of this file stops unfinished at the end of the file"
        in result.stderr
    )


def test_json_that_is_not_a_capture_cut_short_says_where_it_stops(tmp_path):
    """A trace or capture cut short, or with a stray character, in a file whose name does not
    say its format: where its JSON stops, not "cannot tell what format this is"."""
    (tmp_path / "spans.json").write_text('[\n  {"traceId": "a", "id": "b",\n  "name": x}\n]\n')
    result = volley_cli("import", str(tmp_path / "spans.json"))
    assert result.returncode == 1
    assert "spans.json:3:11: error: the JSON of this file does not parse (Expecting value)" in (
        result.stderr
    )
    # --from cannot read it as it stands: the hint says to mend it first
    assert "mend the JSON there: volley then tells which capture or trace it is" in result.stderr


@pytest.mark.parametrize(
    "text",
    [
        "[![build](https://ci.example/badge.svg)](https://ci.example)\n# Project\n",
        "[server]\nhost = example\n",
        "{{ template }}\n",
    ],
)
def test_a_page_that_starts_with_a_bracket_is_not_told_as_broken_json(tmp_path, text):
    """A README that opens with a badge, or an INI file, is no JSON cut short: its format is
    unknown, and said so."""
    (tmp_path / "README.md").write_text(text)
    result = volley_cli("import", str(tmp_path / "README.md"))
    assert result.returncode == 1
    assert "cannot tell what format this is" in result.stderr
    assert "JSON" not in result.stderr


def test_json_of_no_known_format_is_told_by_its_keys_and_pointed_at_the_json_formats():
    """A tempo block's meta.json was "cannot tell what format this is", with no word of what
    volley saw, and a hint naming Mermaid and PlantUML for a JSON file."""
    from volley.importers import convert as import_any

    with pytest.raises(VolleyError) as caught:
        import_any('{"format": "v2", "blockID": "x", "tenantID": "t"}', "meta.json")
    assert caught.value.message == (
        'cannot tell what format this is: a JSON object whose keys are "format", "blockID", '
        '"tenantID"'
    )
    assert caught.value.hint == (
        "if it is a capture or a trace, name its format with --from (har, trace, jsonrpc)"
    )
    with pytest.raises(VolleyError, match="this is: a JSON list of 2 items\n"):
        import_any("[1, 2]", "list.json")
    with pytest.raises(VolleyError, match=r"an empty JSON object\n.*\(har, trace, jsonrpc\)$"):
        import_any("{}", "empty.json")


@pytest.mark.parametrize("text", ["", "\n\n", "\ufeff  \r\n"])
def test_an_empty_file_is_said_to_be_empty(tmp_path, text):
    (tmp_path / "session.log").write_text(text)
    result = volley_cli("import", str(tmp_path / "session.log"))
    assert result.returncode == 1
    assert "error: the file is empty: there is nothing to import" in result.stderr


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("[null", "1:6: error: the JSON of this file stops unfinished"),
        ("[true, false", "1:13: error: the JSON of this file stops unfinished"),
        ("{\n", "2:1: error: the JSON of this file stops unfinished"),
        ("{'log': 1}", "1:2: error: the JSON of this file does not parse"),
    ],
)
def test_json_cut_short_on_stdin_says_where_it_stops(text, said):
    """With no file name to go by, text that starts as JSON does is told as JSON."""
    result = volley_cli("import", "-", stdin=text)
    assert result.returncode == 1
    assert f"<stdin>:{said}" in result.stderr


def test_urls_the_browser_answers_itself_are_no_requests():
    """A `data:` URL (harviewer's Safari capture) was drawn as a GET to "(no host)" with an
    invented method; such entries, and blob: and extension URLs, are left out, and said so."""
    entries = [
        {"request": {"method": "", "url": "data:text/css;charset=utf-8,body%7btext-align%3a0%7d"}},
        {"request": {"method": "GET", "url": "blob:https://app.example/0f1c"}},
        {"request": {"method": "GET", "url": "chrome-extension://abc/inject.js"}},
        {"request": {"method": "GET", "url": "https://api.example/v1/items"}},
    ]
    (item,) = convert(json.dumps({"log": {"entries": entries}}), "page.har")
    diagram = volley.parse(item.text)
    assert [m.label for m in diagram.messages()] == ["GET /v1/items"]
    assert "(no host)" not in item.text
    assert any(
        "3 entries the browser answered itself (data:, blob: and extension URLs)" in w.message
        for w in item.warnings
    )


def test_credential_headers_are_masked_whatever_their_values_look_like():
    """In a capture every value was sent: `Authorization: Bearer test` and a cookie `abc` are
    what a test server took, not stand-ins, so they are masked too (a hand-written diagram's
    `Bearer test` reads as a stand-in)."""
    headers = [
        {"name": "Authorization", "value": "Bearer test"},
        {"name": "Proxy-Authorization", "value": "abc123"},
        {"name": "Cookie", "value": "session=abc; token=test; PHPSESSID=1234"},
    ]
    entry = {
        "request": {"method": "POST", "url": "http://localhost:8080/login", "headers": headers},
        "response": {
            "status": 200,
            "headers": [{"name": "Set-Cookie", "value": "sid=xyz; Path=/; HttpOnly"}],
        },
    }
    (item,) = convert(json.dumps({"log": {"entries": [entry]}}), "login.har")
    assert "Authorization: Bearer <redacted>" in item.text
    odd_requests = [  # a method as a tool wrote it, lowercase or hyphenated; a target with a space
        {"method": "post"},
        {"method": "M-SEARCH"},
        {"url": "https://example.com/search?q=a b"},
    ]
    for changed in odd_requests:
        odd = {**entry, "request": {**entry["request"], **changed}}
        (other,) = convert(json.dumps({"log": {"entries": [odd]}}), "login.har")
        assert "Bearer test" not in other.text and "abc123" not in other.text
    assert "Proxy-Authorization: <redacted>" in item.text
    assert "Cookie: session=<redacted>; token=<redacted>; PHPSESSID=<redacted>" in item.text
    assert "Set-Cookie: sid=<redacted>; Path=/; HttpOnly" in item.text
    assert item.masked == 6
    kept = convert(
        json.dumps({"log": {"entries": [entry]}}), "login.har", options=TrafficOptions(redact=False)
    )
    assert "Authorization: Bearer test" in kept[0].text


def test_json_that_is_not_a_har_says_what_is_missing():
    with pytest.raises(VolleyError, match='no "log" with "entries"'):
        import_har(json.dumps({"resourceSpans": []}))


def test_entries_copied_alone_are_read_as_a_capture():
    """DevTools' Copy as HAR on one request copies its entry alone; a list of entries too."""
    from volley.importers import detect

    entry = {
        "startedDateTime": "2025-01-02T03:04:05.000Z",
        "request": {"method": "GET", "url": "https://api.example.com/v1/items", "headers": []},
        "response": {"status": 200, "statusText": "OK", "headers": []},
    }
    chrome = {"_initiator": {"type": "script", "stack": "f@app.js:1 " * 600}, **entry}
    for copied in (entry, [entry, entry], chrome):
        text = json.dumps(copied, indent=2)
        found = detect(text)
        assert found is not None and found.name == "har"
        diagram = import_har(text)
        assert [m.label for m in diagram.messages()] == ["GET /v1/items", "200 OK"] * (
            2 if isinstance(copied, list) else 1
        )
    with pytest.raises(VolleyError, match="nor is it HAR entries"):
        import_har(json.dumps([entry, {"request": {"url": "x"}}]))


def test_status_zero_written_as_a_lost_arrow_in_source():
    text = write(har("error_log"))
    assert "Client -x 163.com: GET /\n" in text


def test_command_line_import_of_a_capture_bigger_than_a_diagram(tmp_path):
    """A browser's HAR with bodies easily passes 5 MB; the import reads it and cuts the body."""
    capture = json.loads((CASES / "successful_log.har").read_text())
    capture["log"]["entries"][1]["response"]["content"]["text"] = "x" * 6_000_000
    source = tmp_path / "big.har"
    source.write_text(json.dumps(capture))
    done = subprocess.run(
        [sys.executable, "-m", "volley", "import", str(source), "--name", "httpbin.org=API"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "Client -> API: POST /post\n" in done.stdout
    assert "… 5,996,000 more characters cut (6,000,000 in all)\n" in done.stdout


def test_a_diagram_written_larger_than_render_reads_says_so(tmp_path: Path) -> None:
    """`--max-body 0` kept a 6 MB body whole: `volley render` then refused the file it wrote
    (over its 5 MB default) with no word of it at import."""
    capture = json.loads((CASES / "successful_log.har").read_text())
    capture["log"]["entries"][1]["response"]["content"]["text"] = "x" * 5_100_000
    source = tmp_path / "big.har"
    source.write_text(json.dumps(capture))
    written = tmp_path / "big.volley"
    argv = [sys.executable, "-m", "volley", "import", str(source), "--max-body", "0", "--no-redact"]
    done = subprocess.run([*argv, "-o", str(written)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    size = written.stat().st_size
    assert f"warning: {size:,} bytes written, over the 5,000,000 volley render reads" in done.stderr
    assert f"--max-input-bytes {size}" in done.stderr


def test_a_name_that_names_no_lane_is_a_warning():
    """`--name exmple.com=Website` (a host misspelt) used to change nothing in silence."""
    text = (CASES / "successful_log.har").read_text()
    options = TrafficOptions(names={"exmple.com": "Website", "example.com": "Site"})
    (found,) = convert(text, "log.har", "har", options)
    assert "Client -> Site: GET /" in found.text
    (warning,) = found.warnings
    assert warning.severity == "warning" and warning.filename == "log.har"
    assert warning.message == (
        "--name exmple.com=Website named no lane: nothing in the file is called 'exmple.com'"
    )


def test_command_line_masks_and_says_how_many(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "volley", "import", str(CASES / "event_stream.har")],
        capture_output=True,
        text=True,
    )
    assert "authorization: api_key <redacted>" in done.stdout
    assert "masked 2 secret-looking values as <redacted> (--no-redact keeps them)" in done.stderr
    # kept as captured when asked, and said so: the file is not to be published as it is
    argv = [sys.executable, "-m", "volley", "import", str(CASES / "event_stream.har")]
    kept = subprocess.run([*argv, "--no-redact"], capture_output=True, text=True)
    assert "authorization: api_key <redacted>" not in kept.stdout
    said = "kept 2 values that look like live secrets, as captured (--no-redact): volley check"
    assert said in kept.stderr


def test_websocket_frames_are_asynchronous_arrows_the_way_they_went():
    diagram = har("websocket")
    assert arrows(diagram)[-3:] == [
        ("demo.piesocket.com", "->>", "Client", "WebSocket text frame"),
        ("Client", "->>", "demo.piesocket.com", "WebSocket text frame"),
        ("Client", "->>", "demo.piesocket.com", "WebSocket text frame"),
    ]
    frames = [request(m) for m in diagram.messages()[-3:]]
    assert frames == ['{\n  "error": "Unknown api key"\n}', "foo", "bar"]


@pytest.mark.parametrize("name", CAPTURES)
def test_volley_import_tells_a_har_file_by_its_content(name):
    found = detect((CASES / f"{name}.har").read_text(encoding="utf-8"))
    assert found is not None and found.name == "har"


def test_control_characters_in_a_capture_stay_visible_and_the_diagram_parses():
    import volley
    from volley.importers import convert

    capture = json.loads((CASES / "chrome.har").read_text(encoding="utf-8"))
    entry = capture["log"]["entries"][0]
    entry["response"]["statusText"] = "\u0000"
    entry["request"]["url"] = "http://ho\u0001st.example/x"
    (imported,) = convert(json.dumps(capture), "odd.har")
    diagram = volley.parse(imported.text)
    assert "ho\\u0001st.example" in diagram.participants
    assert "\x00" not in imported.text and "\x01" not in imported.text


# --- Captures from more tools (tests/cases/har/README.md names each) ---------------------------


def test_a_body_playwright_saved_beside_the_har_says_where_it_is():
    """recordHar with content 'attach' keeps the body in a file named by its hash: the reply
    says so instead of looking like a response with no body."""
    reply = response(har("playwright-attachments").messages()[1])
    assert reply.endswith(
        "\n\n(the body is not in the HAR: it was saved beside it, as "
        "4a3ce8ee11e091dd7923f4d8c6e5b5e41ec7c047.html)"
    )


def test_a_capture_of_static_assets_only_warns_that_the_diagram_is_empty():
    from volley.importers import convert

    name = str(CASES / "firebug.har")
    (imported,) = convert((CASES / "firebug.har").read_text(encoding="utf-8"), name)
    (warning,) = imported.warnings
    assert warning.severity == "warning" and warning.filename == name
    assert warning.message == (
        "none of the capture's requests is in the diagram:"
        " 8 static assets (images, fonts, stylesheets, scripts)"
    )
    assert warning.hint == "--all keeps static assets"
    (one,) = convert((CASES / "chrome51-svg-base64.har").read_text(encoding="utf-8"), "svg.har")
    assert one.warnings[0].message.endswith(
        ": 1 static asset (images, fonts, stylesheets, scripts)"
    )
    (everything,) = convert(
        (CASES / "firebug.har").read_text(encoding="utf-8"),
        name,
        options=TrafficOptions(everything=True),
    )
    assert everything.warnings == ()
    (drawn,) = convert((CASES / "chrome.har").read_text(encoding="utf-8"), "chrome.har")
    (said,) = drawn.warnings  # what was left out is said even when something is drawn
    assert said.severity == "note" and said.hint == "--all keeps static assets"
    assert said.message == (
        "left out of the diagram: 1 static asset (images, fonts, stylesheets, scripts)"
    )


def test_patterns_that_leave_nothing_say_so():
    from volley.importers import convert

    text = (CASES / "chrome.har").read_text(encoding="utf-8")
    (imported,) = convert(text, "chrome.har", options=TrafficOptions(include=("/api/",)))
    (warning,) = imported.warnings
    assert "not matching --include" in warning.message
    assert warning.hint == "check the --include and --exclude patterns"


def test_fiddler_capture_with_a_byte_order_mark_and_pages():
    diagram = har("fiddler-ie11")
    assert diagram.participants == ["Client", "gitgrimbo.github.io"]
    sections = [item.label for item in diagram.items if isinstance(item, Divider)]
    assert sections == ["Page 0", "Page 1"]
    assert arrows(diagram)[-1] == ("gitgrimbo.github.io", "-->", "Client", "304 Not Modified")


def test_zap_form_fields_given_as_params_are_the_body():
    post = request(har("zap").messages()[2])
    assert post.startswith("POST /seq/performance/seq HTTP/1.1\nhost: localhost:9091\n")
    assert post.endswith(
        "\n\nfield0=&field1=&field2=&next=&seqId=b4ee8e7a-68c1-47d2-bbd2-a2a3a7ae944f"
        "&seqStep=1&step1=1"
    )


def test_playwright_redirect_chain_across_hosts_and_versions():
    diagram, count = masked(har("playwright-redirect"))
    assert arrows(diagram) == [
        ("Browser", "->", "theverge.com", "GET /"),
        # where each redirect sends the browser: the host, then the scheme, changes
        ("theverge.com", "-->", "Browser", "301 Moved Permanently → http://www.theverge.com/"),
        ("Browser", "->", "www.theverge.com", "GET /"),
        ("www.theverge.com", "-->", "Browser", "301 Moved Permanently → https://www.theverge.com/"),
        ("Browser", "->", "www.theverge.com", "GET /"),
        ("www.theverge.com", "-->", "Browser", "200 OK"),
    ]
    last = request(diagram.messages()[4])
    assert last.endswith("\ncookie: vmidv1=<redacted>; _chorus_geoip_continent=<redacted>")
    assert count == 7  # every Set-Cookie and Cookie value


def test_entries_are_drawn_in_the_order_they_started_whatever_the_time_spelling():
    """Go's HAR loggers trim a fraction's trailing zeros (`…46.5Z` is after `…46.45Z`, though
    its text sorts first), and a merged capture mixes offsets: ordered by time, not by text."""
    capture = json.loads((CASES / "zap.har").read_text(encoding="utf-8"))
    first, second, third = capture["log"]["entries"][:3]
    capture["log"]["entries"] = [first, second, third]
    first["startedDateTime"] = "2024-11-12T17:32:46.5Z"
    second["startedDateTime"] = "2024-11-12T17:32:46.45Z"
    third["startedDateTime"] = "2024-11-12T18:32:46.4+01:00"  # 17:32:46.4 UTC: the first
    diagram = import_har(json.dumps(capture))
    calls = diagram.messages()[::2]
    assert [m.label for m in calls] == ["POST /seq/performance/seq"] * 2 + [
        "GET /seq/performance/seq"
    ]
    assert request(calls[0]).endswith("&seqStep=2&step2=2")  # the third entry
    assert request(calls[1]).endswith("&seqStep=1&step1=1")  # the second


def one_entry(request: dict | None = None, response: dict | None = None, **entry) -> Diagram:
    """A capture of one exchange, the fields given over a plain GET answered 200."""
    capture = {
        "log": {
            "version": "1.2",
            "creator": {"name": "test", "version": "0"},
            "entries": [
                {
                    "startedDateTime": "2024-01-01T00:00:00.000Z",
                    "request": {
                        "method": "GET",
                        "url": "https://api.example.com/data",
                        "httpVersion": "HTTP/1.1",
                        "headers": [],
                        **(request or {}),
                    },
                    "response": {
                        "status": 200,
                        "statusText": "OK",
                        "httpVersion": "HTTP/1.1",
                        "headers": [],
                        "content": {"mimeType": "text/plain"},
                        **(response or {}),
                    },
                    **entry,
                }
            ],
        }
    }
    return import_har(json.dumps(capture), TrafficOptions(), "one.har")


@pytest.mark.parametrize(
    ("headers", "sent"),
    [
        (  # Chrome's DevTools protocol: several cookies in one value, a line each
            [
                {
                    "name": "Set-Cookie",
                    "value": "ruid=7c2f-LIVE; Path=/\nrsid=BcGNXq8w2k; Path=/\nvis=4",
                }
            ],
            ["Set-Cookie: ruid=<redacted>; Path=/", "Set-Cookie: rsid=<redacted>; Path=/"]
            + ["Set-Cookie: vis=<redacted>"],
        ),
        (  # Polly.JS: a header's values as a JSON list
            [
                {
                    "name": "set-cookie",
                    "value": ["__cfduid=d1a5589e8309b4; Expires=Fri, 10-Jan-20"],
                },
                {"name": "set-cookie", "value": ["vis=42x1"]},
                {"name": "accept", "value": ["*/*"]},
            ],
            [
                "set-cookie: __cfduid=<redacted>; Expires=Fri, 10-Jan-20",
                "set-cookie: vis=<redacted>",
            ]
            + ["accept: */*"],
        ),
    ],
    ids=["lines", "list"],
)
def test_a_header_of_several_values_is_the_header_sent_once_a_value(headers, sent):
    """Each value is its own header line, and each cookie in them is masked."""
    diagram, count = masked(one_entry(response={"headers": headers}))
    assert response(diagram.messages()[1]).split("\n")[1:] == sent
    assert count == sum("<redacted>" in line for line in sent)


def test_a_password_that_looks_like_an_example_is_masked_in_a_capture():
    """`password=changeme` in a form a browser sent is what it sent: masked and counted, as
    an example-looking value in any secret-named field of a capture (a hand-written diagram's
    `changeme` reads as a stand-in and draws no warning)."""
    entry = {
        "request": {
            "method": "POST",
            "url": "https://api.example.org/login",
            "headers": [{"name": "Content-Type", "value": "application/x-www-form-urlencoded"}],
            "postData": {
                "mimeType": "application/x-www-form-urlencoded",
                "text": "username=alice&password=changeme",
            },
        },
        "response": {"status": 200, "content": {"mimeType": "application/json", "text": "{}"}},
    }
    (item,) = convert(json.dumps({"log": {"entries": [entry]}}), "login.har")
    assert "changeme" not in item.text and "password=<redacted>" in item.text
    assert item.masked == 1


def test_a_polly_recording_masks_the_cookie_its_list_of_values_holds():
    diagram, count = masked(har("pollyjs-list-headers"))
    written = write(diagram)
    assert "d1a5589e8309b42c054255a4709d3a4401547156472" not in written
    assert "set-cookie: __cfduid=<redacted>;" in written and count == 1


def test_a_password_in_the_url_is_no_part_of_the_host_header():
    diagram = one_entry(request={"url": "https://ada:s3cretpass@files.example.com:8443/dl"})
    sent = request(diagram.messages()[0])
    assert sent.split("\n")[:2] == ["GET /dl HTTP/1.1", "Host: files.example.com:8443"]
    assert "s3cret" not in write(diagram)


@pytest.mark.parametrize(
    ("status", "said"), [(-2, "failed: status -2"), (0, "failed: no response")]
)
def test_a_status_below_one_is_a_request_that_failed(status: int, said: str):
    """WebPageTest writes its own failures as negative statuses (-1, -2)."""
    diagram = one_entry(response={"status": status})
    assert arrows(diagram) == [("Client", "-x", "api.example.com", "GET /data")]
    assert diagram.items[1].text == said


def test_the_capturing_tools_error_on_an_answer_is_a_note_after_it():
    diagram = har("capture-har-redirect-loop")
    assert arrows(diagram)[-1] == (
        "www.httpbin.org",
        "-->",
        "Client",
        "302 FOUND → /relative-redirect/14",  # a redirect on the same host: its path
    )
    note = diagram.items[-1]
    assert isinstance(note, Note) and note.text == "Max redirects exceeded (MAXREDIRECTS)"


def test_chromes_aborted_on_an_answer_says_what_it_means_and_nothing_where_no_body_follows():
    """Chrome writes `_error: net::ERR_ABORTED` on answers it stopped loading, and on every
    answer that has no body: a 665-entry capture drew 82 bare "net::ERR_ABORTED" notes, most
    under 204s and 304s, as if those exchanges failed."""
    aborted = {"_error": "net::ERR_ABORTED"}
    loading = one_entry(**aborted)
    assert arrows(loading)[1][3] == "200 OK"
    assert notes_of(loading) == ["the browser stopped loading its body (net::ERR_ABORTED)"]
    for status, method in ((204, "GET"), (304, "GET"), (200, "HEAD")):
        quiet = one_entry(request={"method": method}, response={"status": status}, **aborted)
        assert notes_of(quiet) == [], (status, method)
    # as the DevTools protocol's object too
    told = {"_error": {"message": "net::ERR_ABORTED", "code": -3}}
    assert notes_of(one_entry(response={"status": 304}, **told)) == []
    assert notes_of(one_entry(**told)) == [
        "the browser stopped loading its body (net::ERR_ABORTED (-3))"
    ]
    # any other word of the capturing tool on an answer stays as it said it
    refused = one_entry(response={"status": 304}, _error="net::ERR_BLOCKED_BY_CLIENT")
    assert notes_of(refused) == ["net::ERR_BLOCKED_BY_CLIENT"]


def test_an_unknown_version_is_http2_where_the_headers_are_http2s():
    diagram = one_entry(
        request={"httpVersion": "unknown", "headers": [{"name": ":path", "value": "/data"}]},
        response={"httpVersion": "unknown"},
    )
    assert request(diagram.messages()[0]).startswith("GET /data HTTP/2\n")
    assert response(diagram.messages()[1]).startswith("HTTP/2 200 OK")


@pytest.mark.parametrize(
    "media",  # a line break in the type (no header holds one) does not fail the import
    ["text/plain; charset=iso-8859-1", "text/plain;\n charset=latin-1"],
)
def test_base64_text_is_read_in_its_charset(media: str):
    text = base64.b64encode("café über".encode("latin-1")).decode()
    latin = one_entry(response={"content": {"mimeType": media, "encoding": "base64", "text": text}})
    assert response(latin.messages()[1]).endswith("\n\ncafé über")


def test_base64_text_is_unzipped_when_saved_compressed():
    zipped = one_entry(
        response={
            "headers": [{"name": "Content-Encoding", "value": "gzip"}],
            "content": {
                "mimeType": "application/json",
                "encoding": "base64",
                "text": base64.b64encode(gzip.compress(b'{"hello":"world"}')).decode(),
            },
        }
    )
    assert response(zipped.messages()[1]).endswith('\n\n{\n  "hello": "world"\n}')
    # said to be deflated, but saved as the capture read it: shown as it is
    plain = one_entry(
        response={
            "headers": [{"name": "Content-Encoding", "value": "deflate"}],
            "content": {"mimeType": "text/plain", "encoding": "base64", "text": "SGVsbG8="},
        }
    )
    assert response(plain.messages()[1]).endswith("\n\nHello")


def test_form_fields_are_written_as_they_were_sent():
    fields = [
        {"name": "file", "fileName": "photo.jpg", "contentType": "image/jpeg", "value": "…"},
        {"name": "note", "value": "a&b=c"},
    ]
    multipart = one_entry(
        request={
            "method": "POST",
            "postData": {"mimeType": "multipart/form-data; boundary=XyZ", "params": fields},
        }
    )
    assert request(multipart.messages()[0]).split("\n\n", 1)[1] == (
        '--XyZ\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\n'
        'Content-Type: image/jpeg\n\n…\n--XyZ\nContent-Disposition: form-data; name="note"\n\n'
        "a&b=c\n--XyZ--"
    )
    form = one_entry(
        request={
            "method": "POST",
            "postData": {"mimeType": "application/x-www-form-urlencoded", "params": fields[1:]},
        }
    )
    assert request(form.messages()[0]).endswith("\n\nnote=a%26b%3Dc")
    # the type postData names alone is the request's Content-Type, so the panel reads the
    # body by it (har-to-k6's HARs give no header); a multipart one with the boundary written
    asked = request(form.messages()[0])
    assert "\nContent-Type: application/x-www-form-urlencoded\n" in asked
    assert [row.key for row in body_table(asked, "http").rows if row.section == "field"] == ["note"]
    bare = one_entry(
        request={
            "method": "POST",
            "postData": {"mimeType": "multipart/form-data", "params": fields},
        }
    )
    sent = request(bare.messages()[0])
    assert "\nContent-Type: multipart/form-data; boundary=boundary\n" in sent
    assert '\n--boundary\nContent-Disposition: form-data; name="file"' in sent
    # a body given as sent keeps its own boundary (none is made up); no body, no type
    raw = '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--XyZ--\r\n'
    as_sent = one_entry(
        request={"method": "POST", "postData": {"mimeType": "multipart/form-data", "text": raw}}
    )
    assert "\nContent-Type: multipart/form-data\n" in request(as_sent.messages()[0])
    empty = one_entry(request={"method": "POST", "postData": {"mimeType": "text/plain"}})
    assert "Content-Type" not in request(empty.messages()[0])


def test_form_fields_already_encoded_are_sent_as_given_not_encoded_twice():
    """Chrome's DevTools and HAR tools (har-to-k6's tests) keep a form's fields as sent:
    `field%5B1%5D`, `a+b`. A field that no encoded form could hold is encoded."""
    fields = [
        {"name": "field%5B1%5D", "value": "value%5B1%5D"},
        {"name": "q", "value": "a+b"},
        {"name": "said", "value": "100% café"},
        {"name": "field%5B${x}%5D", "value": "v"},  # encoded in part: its escapes kept
    ]
    form = one_entry(
        request={
            "method": "POST",
            "postData": {"mimeType": "application/x-www-form-urlencoded", "params": fields},
        }
    )
    assert request(form.messages()[0]).endswith(
        "\n\nfield%5B1%5D=value%5B1%5D&q=a+b&said=100%25+caf%C3%A9&field%5B$%7Bx%7D%5D=v"
    )


def test_the_label_shows_the_path_as_an_address_bar_does_and_the_request_as_sent():
    diagram = one_entry(request={"url": "https://example.com/caf%C3%A9/%E6%97%A5?q=%C3%BC"})
    asked = diagram.messages()[0]
    assert asked.label == "GET /café/日"
    assert request(asked).startswith("GET /caf%C3%A9/%E6%97%A5?q=%C3%BC HTTP/1.1\n")


def test_a_binary_websocket_frame_says_how_many_bytes_it_held():
    frames = [
        {"type": "receive", "opcode": 2, "data": base64.b64encode(b"\x00\x01ab\xff").decode()}
    ]
    diagram = one_entry(response={"status": 101}, _webSocketMessages=frames)
    frame = diagram.messages()[-1]
    assert frame.label == "WebSocket binary frame" and request(frame) == "(5 bytes of binary data)"


def test_json_rpc_over_a_websocket_is_named_by_method_and_answered_as_a_call():
    """MCP's or Ethereum's JSON-RPC over a WebSocket: each frame is named as the JSON-RPC logs
    name it (its method, or `result`), a request a call and its answer the dashed reply that
    carries it; a notification stays asynchronous; a frame of other JSON stays a frame."""
    frames = [
        {"type": "send", "opcode": 1, "data": '{"id": 1, "method": "eth_subscribe", '
         '"params": ["newHeads"], "jsonrpc":"2.0"}'},
        {"type": "receive", "opcode": 1, "data": '{"jsonrpc":"2.0","result":"0x55","id":1}'},
        {"type": "receive", "opcode": 1, "data": '{"jsonrpc":"2.0","method":"eth_subscription",'
         '"params":{"subscription":"0x55","result":{"number":"0x1b4"}}}'},
        {"type": "send", "opcode": 1, "data": '{"jsonrpc":"2.0","id":2,"method":"nope"}'},
        {"type": "receive", "opcode": 1, "data": '{"jsonrpc":"2.0","id":2,"error":'
         '{"code":-32601,"message":"Method not found"}}'},
        {"type": "receive", "opcode": 1, "data": '{"type":"ping"}'},
    ]  # fmt: skip
    diagram = one_entry(response={"status": 101}, _webSocketMessages=frames)
    client, host = "Client", "api.example.com"
    assert [(m.sender, m.arrow, m.receiver, m.label) for m in diagram.messages()[2:]] == [
        (client, "->", host, "eth_subscribe"),
        (host, "-->", client, "result"),
        (host, "->>", client, "eth_subscription"),
        (client, "->", host, "nope"),
        (host, "-->", client, "**error** -32601: Method not found"),
        (host, "->>", client, "WebSocket text frame"),
    ]
    answer = diagram.messages()[3]
    assert answer.request is None and answer.response is not None
    assert answer.response.label == "Response" and '"0x55"' in answer.response.body


def test_an_escape_that_would_change_or_hide_what_the_path_says_stays_escaped():
    url = "https://example.com/x%1Bred/%FF%2F..%2Fadmin/a%E2%80%AEb/100%25/caf%C3%A9"
    asked = one_entry(request={"url": url}).messages()[0]
    assert asked.label == "GET /x%1Bred/%FF%2F..%2Fadmin/a%E2%80%AEb/100%25/café"


def test_only_what_a_page_gets_with_get_is_a_static_asset():
    """A PUT of an avatar or a POST answered with an SVG is the API at work, not a file the
    page fetched to show itself."""
    for method in ("PUT", "POST", "DELETE"):
        diagram = one_entry(
            {"method": method, "url": "https://api.example.com/v1/me/avatar.png"},
            {"content": {"mimeType": "image/png", "size": 3}},
        )
        assert [m.label for m in diagram.messages()] == [f"{method} /v1/me/avatar.png", "200 OK"]
    fetched = one_entry(
        {"url": "https://api.example.com/logo.png"}, {"content": {"mimeType": "image/png"}}
    )
    assert fetched.messages() == []


def test_binary_saved_as_text_is_counted_not_written():
    """mitmproxy saves a protobuf body as text: its bytes, control characters and all, went
    into the .volley file (and to the terminal, without -o)."""
    from volley.importers import convert

    text = (CASES / "protobuf-as-text.har").read_text(encoding="utf-8")
    (imported,) = convert(text, "protobuf-as-text.har")
    assert "(5,970 bytes of application/octet-stream, not shown)" in imported.text
    assert not re.search(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]", imported.text)


def test_terminal_escapes_in_a_text_body_are_written_as_escapes():
    from volley.importers import convert

    body = "ok\x1b]52;c;Y3VybA==\x07\x1b[2J"
    capture = json.loads((CASES / "chrome.har").read_text(encoding="utf-8"))
    entry = capture["log"]["entries"][0]
    entry["response"]["status"] = 200  # its own body (a 304's is the cache's, not shown)
    entry["response"]["content"] = {"mimeType": "text/plain", "text": body, "size": len(body)}
    (imported,) = convert(json.dumps(capture), "escapes.har")
    assert "ok\\u001b]52;c;Y3VybA==\\u0007\\u001b[2J" in imported.text
    assert "\x1b" not in imported.text and "\x07" not in imported.text


def test_a_gzip_body_that_does_not_decompress_says_so():
    reply = response(har("corrupted-gzip").messages()[1])
    assert reply.endswith(
        "(24 bytes of text/html, compressed with gzip but cut or damaged: they do not decompress)"
    )


def test_a_gzip_body_a_recorder_read_as_text_is_described_not_shown():
    """Polly.JS read a gzip body as UTF-8 text: its bytes are lost to U+FFFD, and what is
    left was written out as garbage."""
    reply = response(har("pollyjs-gzip-as-text").messages()[1])
    assert reply.endswith(
        "(196 characters of application/json compressed with gzip and saved as text, which"
        " loses its bytes: not shown)"
    )
    assert "\ufffd" not in reply


def test_json_rpc_over_http_names_the_method_each_post_calls():
    """MCP's Streamable HTTP sends every call to one URL: "POST /mcp" on every arrow said
    nothing. The label says what was called, as the reference diagram writes it."""
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "search"}}
    posted = one_entry(
        {"method": "POST", "url": "https://api.example.com/mcp",
         "postData": {"mimeType": "application/json", "text": json.dumps(call)}}
    )  # fmt: skip
    assert posted.messages()[0].label == "POST /mcp (tools/call)"
    batch = [{"jsonrpc": "2.0", "method": m} for m in ("a", "b", "c")]
    batched = one_entry(
        {"method": "POST", "url": "https://api.example.com/rpc",
         "postData": {"mimeType": "application/json", "text": json.dumps(batch)}}
    )  # fmt: skip
    assert batched.messages()[0].label == "POST /rpc (a, b, …)"
    plain = one_entry(
        {"method": "POST", "url": "https://api.example.com/orders",
         "postData": {"mimeType": "application/json", "text": '{"method": "card"}'}}
    )  # fmt: skip
    assert plain.messages()[0].label == "POST /orders"


def test_a_body_playwright_saved_beside_the_har_is_read_from_there(tmp_path):
    """`content: 'attach'` keeps each body in a file named by its SHA-1 beside the HAR; any
    other name a capture gives is not read (it cannot pull another file into the diagram)."""
    import hashlib

    from volley.importers import convert

    body = b'{"todo": "buy milk"}'
    attached = hashlib.sha1(body).hexdigest() + ".json"
    (tmp_path / attached).write_bytes(body)
    (tmp_path / "secrets.env").write_text("TOKEN=abc")
    capture = json.loads((CASES / "playwright-attachments.har").read_text(encoding="utf-8"))
    entry = capture["log"]["entries"][0]
    entry["response"]["content"] = {"mimeType": "application/json", "_file": attached}
    other = json.loads(json.dumps(entry))
    other["response"]["content"] = {"mimeType": "text/plain", "_file": "secrets.env"}
    capture["log"]["entries"] = [entry, other]
    har_file = tmp_path / "session.har"
    har_file.write_text(json.dumps(capture), encoding="utf-8")
    (imported,) = convert(har_file.read_text(encoding="utf-8"), str(har_file))
    assert '{\n  "todo": "buy milk"\n}' in imported.text
    assert "TOKEN=abc" not in imported.text
    assert "it was saved beside it, as secrets.env)" in imported.text


def test_what_real_tools_write_oddly_is_read_as_meant():
    """Three habits of real captures: Polly.JS saved an image as hexadecimal digits (shown
    as a dump of 746 characters), WebPageTest saves the request line among the headers split
    at its colon (shown as a second request line), and a HAR written for replay (grafana's
    har-to-k6) holds no response at all (drawn as a failed request)."""
    binary = {"mimeType": "application/octet-stream", "text": "89504e47" * 4}
    hexed = one_entry(response={"content": binary})
    assert response(hexed.messages()[1]).endswith(
        "(16 bytes of application/octet-stream, not shown)"
    )
    # and Chrome, about 2013, binary data as base64 without "encoding": "base64"
    data = {"mimeType": "application/pdf", "text": base64.b64encode(b"%PDF\xff" * 240).decode()}
    based = one_entry(response={"content": data})
    assert response(based.messages()[1]).endswith("(1,200 bytes of application/pdf, not shown)")
    fake = {"name": "GET /x?u=http", "value": "//host/ HTTP/1.1"}
    split = one_entry(request={"headers": [fake, {"name": "Accept", "value": "*/*"}]})
    assert request(split.messages()[0]).split("\n")[1:] == ["Host: api.example.com", "Accept: */*"]
    capture = json.loads(json.dumps({"log": {"entries": [{"request": {
        "method": "POST", "url": "https://test.k6.io/csv", "headers": []}}]}}))  # fmt: skip
    replay = import_har(json.dumps(capture), TrafficOptions(), "replay.har")
    (message, note) = replay.items[-2:]
    assert isinstance(message, Message) and message.arrow == "->"
    assert isinstance(note, Note) and note.text == "no response recorded"


@pytest.mark.parametrize("request_", [{"method": "GET", "url": ""}, {"method": "GET"}])
def test_an_entry_with_no_url_is_left_out_and_said_so(request_):
    """har-to-openapi's invalid-url.har: an empty URL drew `CUSTOM /` with an empty Host."""
    entry = {"request": request_, "response": {"status": 200}}
    (item,) = convert(json.dumps({"log": {"entries": [entry]}}), "invalid-url.har")
    assert "->" not in item.text and "Host:" not in item.text
    assert [w.message for w in item.warnings] == [
        "none of the capture's requests is in the diagram: 1 entry with no request URL"
    ]


def test_a_body_the_capture_did_not_save_is_said_not_shown_empty():
    """Browsertime's Firefox capture keeps no content, only its size: each response read as one
    with no body. Now it says how much there was; a 304's cached size is no body of its own."""
    diagram = har("browsertime-firefox-redirect")
    bodies = [m.response.body for m in diagram.messages() if m.response is not None]
    assert any(
        body.endswith("\n\n(147 bytes of text/html: the capture did not save them)")
        for body in bodies
    )
    entry = {
        "request": {"method": "GET", "url": "https://a.example/page"},
        "response": {"status": 304, "content": {"size": 5120, "mimeType": "text/html"}},
    }
    (item,) = convert(json.dumps({"log": {"entries": [entry]}}), "cached.har")
    assert "did not save" not in item.text


def test_a_304_shows_no_body_and_says_the_capture_kept_the_cached_copy():
    """Chrome saves the cache's copy of the page with a 304: it was drawn as the answer's
    body, which a 304 never has (chrome.har, mitmproxy.org)."""
    diagram = har("chrome")
    (answer,) = [m for m in diagram.messages() if m.label == "304 Not Modified"]
    assert answer.response is not None
    body = answer.response.body
    assert "<!DOCTYPE html>" not in body
    assert body.endswith(
        "\n\n(a 304 sends no body; the capture kept the cached copy: 23,866 bytes of text/html)"
    )


def test_a_header_token_is_masked_where_the_capture_repeats_it():
    token = "Zx81kQp0LmN4vB7tR2sW9yH3"
    first = {
        "request": {
            "method": "GET",
            "url": "https://api.example.com/a",
            "headers": [{"name": "Authorization", "value": f"Bearer {token}"}],
        },
        "response": {"status": 200},
    }
    echo = {"mimeType": "application/json", "text": json.dumps({"echo": token})}
    second = {
        "request": {"method": "GET", "url": f"https://api.example.com/stream?t={token}"},
        "response": {"status": 200, "content": echo},
    }
    (item,) = convert(json.dumps({"log": {"entries": [first, second]}}), "h.har")
    assert token not in item.text


def test_an_error_about_a_capture_does_not_print_its_secrets(tmp_path):
    """The error quotes the line where the JSON stops: the credential on it is masked there,
    as it would be in the diagram, unless --no-redact keeps it."""
    token = "9f2c4e7a1b8d3f6e0a5c2b9d4e7f1a3c"
    entry = '{"request":{"url":"https://a.example/","headers":[{"name":"Authorization",'
    (tmp_path / "bad.har").write_text(
        '{"log":{"entries":[' + entry + '"value":"Bearer ' + token + '"},]}}]}}'
    )
    result = volley_cli("import", str(tmp_path / "bad.har"))
    assert result.returncode == 1 and "the JSON does not parse" in result.stderr
    assert token not in result.stderr and "Bearer <redacted>" in result.stderr
    kept = volley_cli("import", "--no-redact", str(tmp_path / "bad.har"))
    assert token in kept.stderr


def test_an_entrys_comment_is_a_note_over_its_exchange():
    """HAR 1.2's `comment` on an entry is its writer's word on it (har-to-k6's tests say what
    each request tests): a note over the exchange, before it, not dropped."""
    diagram = one_entry(comment="POST data with\n percent-encoded  fields")
    note, asked = diagram.items[:2]
    assert isinstance(note, Note) and note.text == "POST data with percent-encoded fields"
    assert note.over == [asked.sender, asked.receiver]
    assert [item for item in one_entry(comment=" ").items if isinstance(item, Note)] == []
    # the request's own comment (har-to-k6 names each request so: "Login"), once
    named = one_entry({"comment": "Login"}).items[0]
    assert isinstance(named, Note) and named.text == "Login"
    both = one_entry({"comment": "Login"}, comment="Login").items
    assert [item.text for item in both if isinstance(item, Note)] == ["Login"]


def test_a_pages_comment_is_a_note_over_every_lane_under_its_section():
    """HAR 1.2's `comment` on a page (k6's "Exercise dynamic app logic") is a note under the
    page's section, over the whole diagram as the section is, each of its lines kept."""
    entries = [
        {
            "pageref": page,
            "request": {"method": "GET", "url": url},
            "response": {"status": 200, "content": {}},
        }
        for page, url in (("static", "https://a.example/"), ("dynamic", "https://b.example/"))
    ]
    pages = [
        {"id": "static", "title": "Static", "comment": " "},
        {"id": "dynamic", "title": "Dynamic", "comment": "Exercise dynamic logic\nHighest latency"},
    ]
    diagram = import_har(json.dumps({"log": {"pages": pages, "entries": entries}}))
    notes = [item for item in diagram.items if isinstance(item, Note)]
    assert [note.text for note in notes] == ["Exercise dynamic logic<br>Highest latency"]
    assert notes[0].over == diagram.participants == ["Client", "a.example", "b.example"]
    assert diagram.items.index(notes[0]) == diagram.items.index(Divider(0, "bold", "Dynamic")) + 1


def test_a_redirects_arrow_says_where_without_the_query_which_its_payload_keeps():
    """An OAuth redirect's query carries its code: the arrow shows the place, the payload the
    whole Location header (masked as a body's secrets are)."""
    diagram = one_entry(
        response={
            "status": 302,
            "statusText": "Found",
            "headers": [
                {"name": "Location", "value": "https://app.example.com/call%20back?code=Zx81"}
            ],
        }
    )
    reply = diagram.messages()[1]
    assert reply.label == "302 Found → https://app.example.com/call back"
    assert "code=" in response(reply)


@pytest.mark.parametrize(
    ("status", "location", "shown"),
    [
        (302, "?page=2", "302 Found → /data"),  # resolved against the request's address
        (302, "../login", "302 Found → /login"),
        (302, "https://admin:pw@b.example.com/in", "302 Found → https://b.example.com/in"),
        (301, "https://API.EXAMPLE.COM:443/q", "301 Moved Permanently → /q"),  # the same place
        (304, "/other", "304 Not Modified"),  # no redirect: the cache's answer
        (307, "javascript:alert(1)", "307 Temporary Redirect"),  # no place to name
    ],
)
def test_a_redirects_target_is_resolved_as_the_client_resolves_it(status, location, shown):
    diagram = one_entry(
        response={
            "status": status,
            "statusText": shown.split(" ", 1)[1].split(" →")[0],
            "headers": [{"name": "Location", "value": location}],
        }
    )
    assert diagram.messages()[1].label == shown


def test_a_query_given_only_as_fields_is_in_the_request_line():
    """Insomnia's HAR gives `foo=bar` in `queryString` alone, its URL without the query: the
    request line dropped it."""
    entry = {
        "startedDateTime": "2024-01-01T00:00:00.000Z",
        "request": {
            "method": "GET",
            "url": "https://insomnia.rest/foo/bar",
            "httpVersion": "HTTP/1.1",
            "headers": [],
            "queryString": [{"name": "foo", "value": "bar baz"}, {"name": "n", "value": "1"}],
        },
        "response": {"status": 200, "statusText": "OK", "headers": [], "content": {}},
    }
    capture = json.dumps({"log": {"version": "1.2", "entries": [entry]}})
    (call,) = [m for m in import_har(capture, TrafficOptions(), "i.har").messages() if m.request]
    assert request(call).splitlines()[0] == "GET /foo/bar?foo=bar+baz&n=1 HTTP/1.1"


def test_a_path_that_starts_with_two_slashes_is_labelled_whole() -> None:
    """`https://h//v1/users/42` was labelled `GET /users/42`: its first segment read as a host,
    so two endpoints read alike (a real redirect capture has such paths)."""
    diagram = one_entry({"url": "https://api.example.com//v1/users/42?x=1"})
    asked = diagram.messages()[0]
    assert asked.label == "GET //v1/users/42"
    assert asked.request is not None and asked.request.body.startswith("GET //v1/users/42?x=1 ")


def test_a_har_padded_as_har_viewer_writes_it_is_read():
    """HAR Viewer's `.harp`: the HAR as a call's argument, `onInputData({…});`. Its mistakes
    keep the file's lines and columns."""
    capture = json.dumps(
        {"log": {"version": "1.2", "entries": [
            {"request": {"method": "GET", "url": "https://a.example/x", "headers": []},
             "response": {"status": 200, "headers": [], "content": {"mimeType": "text/plain"}}}
        ]}}
    )  # fmt: skip
    padded = f"onInputData({capture});\n"
    assert detect(padded) is not None and detect(padded).name == "har"
    asked, answered = import_har(padded, TrafficOptions(), "page.harp").messages()
    assert asked.label == "GET /x" and answered.label.startswith("200")
    with pytest.raises(VolleyError) as caught:
        import_har('onInputData(\n{"log": {"entries": [}\n);', TrafficOptions(), "bad.harp")
    assert caught.value.line == 2
