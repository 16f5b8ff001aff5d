"""`volley import` of swimlanes.io share links and saved swimlanes.io text."""

from __future__ import annotations

import base64
import zlib
from pathlib import Path

import pytest

import volley
from volley.errors import VolleyError
from volley.importers import convert
from volley.importers.swimlanes import detect as swimlanes_detect
from volley.model import Note
from volley.swimlanes_links import decode_link

from .conftest import volley_cli

LINKS = Path(__file__).resolve().parent / "cases" / "swimlanes-links"


def link_in(path: Path) -> str:
    """The link of a case file (its `#` lines say where it was found)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    (link,) = [line for line in lines if line.strip() and not line.startswith("#")]
    return link


def make_link(text: str, urlsafe: bool = False) -> str:
    """A share link as swimlanes.io makes one: base64 of the raw-DEFLATE-compressed text."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
    data = packer.compress(text.encode("utf-8")) + packer.flush()
    encoded = base64.urlsafe_b64encode(data) if urlsafe else base64.b64encode(data)
    return "https://swimlanes.io/#" + encoded.decode("ascii")


# --- real links ------------------------------------------------------------------------------


def test_a_link_from_a_readme_decodes_to_its_diagram() -> None:
    (item,) = convert(link_in(LINKS / "shinami-zklogin-signin.txt"), "signin")
    diagram = volley.parse(item.text)
    assert diagram.participants == [
        "App Frontend",
        "OpenID Provider",
        "App Backend",
        "Salt Provider",
        "zkProver",
    ]
    messages = diagram.messages()
    assert len(messages) == 9
    assert (messages[0].sender, messages[0].receiver, messages[0].label) == (
        "App Frontend",
        "App Frontend",
        "newZkLoginSession",
    )
    assert messages[-1].label == "sessionCookie"
    assert volley.render(item.text).startswith("<svg")


@pytest.mark.parametrize("path", sorted(LINKS.glob("*.txt")), ids=lambda p: p.name)
def test_every_case_link_names_its_source_imports_and_renders(path: Path) -> None:
    header = path.read_text(encoding="utf-8")
    assert header.startswith("# Source: ") and "# Licence: " in header
    decoded = decode_link(link_in(path))
    diagram = volley.parse(decoded, path.name)  # the text as swimlanes.io holds it
    assert (diagram.messages() or diagram.title) and not diagram.warnings
    assert volley.render(diagram).startswith("<svg")
    (item,) = convert(link_in(path), path.name)  # and as `volley import` writes it
    assert volley.render(item.text).startswith("<svg"), path.name


def test_the_hello_world_link_decodes_to_its_text() -> None:
    assert decode_link(link_in(LINKS / "verkstedt-hello-world.txt")) == "title: Hello World"


def test_swimlanes_ios_own_link_of_its_welcome_diagram_is_that_diagram() -> None:
    welcome = LINKS.parent / "swimlanes" / "welcome.volley"
    text = "\n".join(
        line
        for line in welcome.read_text(encoding="utf-8").split("\n")
        if not line.startswith("//")
    )
    assert decode_link(link_in(LINKS / "verkstedt-welcome.txt")) == text.rstrip("\n")


def test_a_readme_link_with_left_arrows_keeps_who_sends_what() -> None:
    diagram = volley.parse(decode_link(link_in(LINKS / "fiberplane-daemon-providers.txt")))
    assert diagram.participants == [
        "Studio",
        "Studio provider",
        "Proxy",
        "Proxy provider",
        "Resource",
    ]
    back = [m for m in diagram.messages() if m.arrow == "<-"]
    assert [(m.sender, m.receiver, m.label) for m in back] == [
        ("Proxy provider", "Resource", "Return data"),
        ("Proxy", "Proxy provider", "Return data"),
        ("Studio provider", "Proxy", "Encrypt and return data"),
        ("Studio", "Studio provider", "Return data"),
    ]
    last = diagram.messages()[-1]
    assert (last.sender, last.receiver, last.label) == ("Studio", "Studio", "Display data")


def test_a_capitalised_note_between_messages_spans_the_message_before_it() -> None:
    diagram = volley.parse(decode_link(link_in(LINKS / "maestro-status.txt")))
    assert diagram.title == "Maestro Resource Status Flow"
    assert diagram.participants[:3] == [
        "Event Broadcaster",
        "Maestro GRPC Server",
        "Status Controller",
    ]
    # "Maestro gRPC Server" at the end is the lane of "Maestro GRPC Server": the picture
    # swimlanes.io exported of it (in maestro's docs) draws seven lanes, not eight
    assert "Maestro gRPC Server" not in diagram.participants
    assert len(diagram.participants) == 7
    assert diagram.messages()[-1].receiver == "Maestro GRPC Server"
    (note,) = [item for item in diagram.items if isinstance(item, Note)]
    assert note.over == ["Maestro Pulse Server", "Status Dispatcher"]
    assert note.text.startswith("For MQTT with shared subscription support")
    assert len(diagram.messages()) == 13


def test_a_link_keeps_blocks_notes_and_comments_and_comes_out_formatted() -> None:
    source = (
        "title: Retry\n"
        "// who retries\n"
        "Client->Server:GET /\n"
        "if: 503\n"
        "Server-->Client: try later\n"
        "note Client: waits\n"
        "end\n"
    )
    (item,) = convert(make_link(source), None)
    assert item.text == (
        "title: Retry\n"
        "\n"
        "// who retries\n"
        "Client -> Server: GET /\n"
        "if: 503\n"
        "  Server --> Client: try later\n"
        "  note Client: waits\n"
        "end\n"
    )


def test_link_forms_people_paste() -> None:
    text = "A -> B: one\n"
    plain = make_link(text)
    for link in (
        plain,
        plain.rstrip("="),  # padding dropped
        plain.replace("=", "%3D"),  # percent-encoded by a chat client
        make_link(text, urlsafe=True),
        "  " + plain + "\n",
        plain.replace("https://", "http://www."),
        # the embed page's link, as docs sites embed a diagram: the same data after #
        plain.replace("https://swimlanes.io/", "https://cdn.swimlanes.io/dist/embeded.html"),
    ):
        assert decode_link(link) == text, link


@pytest.mark.parametrize(
    ("link", "words"),
    [
        ("https://swimlanes.io/d/1fIlD4u_9", "names a diagram saved on swimlanes.io"),
        ("https://swimlanes.io/#", "carries no diagram"),
        ("https://swimlanes.io/#not*base64!", "not base64"),
        ("https://swimlanes.io/#K8ksyUm1UvBIzcnJ", "does not decompress"),
    ],
)
def test_a_link_that_holds_no_diagram_is_a_clear_error(link: str, words: str) -> None:
    with pytest.raises(VolleyError, match=words) as caught:
        convert(link, "<link>")
    assert caught.value.source_line == link


def test_a_link_that_inflates_past_the_input_limit_is_refused() -> None:
    bomb = make_link("A -> B\n" * 2_000_000)  # 14 MB of text in a few kilobytes
    with pytest.raises(VolleyError, match="larger than"):
        decode_link(bomb)


def test_a_saved_text_file_is_normalised_through_parse_and_fmt() -> None:
    (item,) = convert("Title: Saved\nA->B:hi\n", "saved.txt")
    assert item.text == "title: Saved\n\nA -> B: hi\n"


def test_a_saved_text_that_does_not_parse_is_an_error_with_its_line() -> None:
    with pytest.raises(VolleyError) as caught:
        convert("A -> B\nin: Request\n```\nnever closed\n", "saved.txt")
    assert (caught.value.filename, caught.value.line) == ("saved.txt", 3)


# --- the command -----------------------------------------------------------------------------


def test_import_takes_the_link_itself_as_source() -> None:
    done = volley_cli("import", link_in(LINKS / "verkstedt-hello-world.txt"))
    assert (done.returncode, done.stdout) == (0, "title: Hello World\n")


def test_a_link_copied_without_its_scheme_is_the_link(tmp_path: Path) -> None:
    """`swimlanes.io/#…` as an address bar shows it, unless a file has that name."""
    link = link_in(LINKS / "verkstedt-hello-world.txt").split("://", 1)[1]
    done = volley_cli("import", link)
    assert (done.returncode, done.stdout) == (0, "title: Hello World\n")
    folder = tmp_path / "out"
    done = volley_cli("import", link, "-o", f"{folder}/")
    assert done.returncode == 0 and (folder / "diagram.volley").exists()


def test_import_writes_the_link_diagram_to_a_file(tmp_path: Path) -> None:
    target = tmp_path / "signin.volley"
    link = link_in(LINKS / "shinami-zklogin-sponsored-tx.txt")
    done = volley_cli("import", link, "-o", str(target))
    assert done.returncode == 0, done.stderr
    diagram = volley.parse(target.read_text(encoding="utf-8"))
    assert "Gas Station" in diagram.participants
    assert len(diagram.messages()) == 12


def test_import_of_a_saved_link_explains_what_to_do() -> None:
    done = volley_cli("import", "https://swimlanes.io/d/1fIlD4u_9")
    assert done.returncode == 1
    assert "names a diagram saved on swimlanes.io" in done.stderr
    assert "copy its text, or a link of the form https://swimlanes.io/#" in done.stderr


def test_a_block_left_open_is_closed_in_the_written_text_with_a_warning() -> None:
    (item,) = convert(make_link("if: token ok\nA -> B: call\n"), "<link>")
    assert item.text == "if: token ok\n  A -> B: call\nend\n"
    (warning,) = item.warnings
    assert warning.severity == "warning" and warning.line == 1
    done = volley_cli("import", make_link("if: token ok\nA -> B: call\n"))
    assert done.returncode == 0
    assert "warning: this if: block is never closed" in done.stderr


def test_markdown_prose_is_not_taken_for_a_saved_diagram(tmp_path):
    from volley.importers import detect

    readme = "# Notes\n\nThe client calls the API -> and waits.\n\n## More\n"
    assert detect(readme) is None
    assert detect("A -> B: hi\n").name == "swimlanes"
    assert detect("A -> B hi\nnot an element\n").name == "swimlanes"  # errors get reported
    assert detect('{"log": {"entries": []}}').name != "swimlanes"
    # reStructuredText: a section title, a directive; a short rule under a message is a mistake
    assert detect("Notes\n=====\n\nThe client calls -> the API.\n") is None
    assert detect(".. note::\n\n   The client calls -> the API.\n") is None
    assert detect("A -> B: hi there\n=====\n").name == "swimlanes"
    # a title after more prose than reading looks at for errors is still a title
    long_prose = "".join(f"Prose line {n}, written plainly.\n" for n in range(30))
    assert detect(f"{long_prose}\nSection Title\n=============\n\nMore.\n") is None
    # a note's text over a divider is no section title: the file's mistake is reported
    typo = "A ->> : hi\nnote A:\nsome text\n---------\nB -> A: ok\n"
    assert detect(typo).name == "swimlanes"
    saved = tmp_path / "saved.txt"
    saved.write_text(typo, encoding="utf-8")
    done = volley_cli("import", str(saved))
    assert done.returncode == 1 and "saved.txt:1:7: error: expected the name" in done.stderr


def test_a_log_of_json_lines_is_read_as_its_log_not_as_swimlanes_text(tmp_path):
    """vim-lsp's log (prabirshrestha/vim-lsp#88): its lines read as swimlanes text were an error
    each; it is read as the JSON-RPC log it is, its own account of itself left out."""
    log = tmp_path / "vim-lsp.log"
    log.write_text(
        'Fri 05 Jan 2018 08:45:01 AM STD:["lsp#register_server","server registered","ocaml"]\n'
        'Fri 05 Jan 2018 08:45:07 AM STD:["--->",1,"ocaml",{"method":"initialize","params":{}}]\n',
        encoding="utf-8",
    )
    out = tmp_path / "vim-lsp.volley"
    result = volley_cli("import", str(log), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert "Vim -> ocaml: initialize" in out.read_text(encoding="utf-8")
    assert "numbered as vim-lsp numbers them" not in result.stderr  # counted from initialize


def test_a_link_whose_text_has_mistakes_is_written_as_it_holds_it(tmp_path: Path) -> None:
    """The text is in the link, where its writer cannot edit it: its errors are reported and
    the text is written out as the link holds it, to be fixed (exit 1)."""
    text = "title: x\nA -> B: hi\ns\nB -> A: ok\nnote A: waiting\nloop 3 times\n"
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = base64.b64encode(packer.compress(text.encode()) + packer.flush()).decode()
    target = tmp_path / "flow.volley"
    done = volley_cli("import", f"https://swimlanes.io/#{data}", "-o", str(target))
    assert done.returncode == 1
    assert ':3:2: error: expected an arrow such as -> or --> after "s"' in done.stderr
    assert "the link's text is written as the link holds it" in done.stderr
    assert ":6:1: warning: this line is read as text of the note on line 5" in done.stderr
    assert target.read_text(encoding="utf-8") == text


def test_a_link_of_mermaid_gone_on_in_swimlanes_syntax_is_read_as_swimlanes_text() -> None:
    """Mermaid pasted into swimlanes.io's editor, then written on in swimlanes.io's syntax
    (`if:` … `end`), as a Stripe sample's README links its diagram: Mermaid refuses it, and
    render sends the user to import; import reads it as swimlanes.io text, with a warning."""
    text = "sequenceDiagram\nA->>B: hi\nif: retry\n  B -> A: again\nend\n"
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    link = (
        "https://swimlanes.io/#"
        + base64.b64encode(packer.compress(text.encode()) + packer.flush()).decode()
    )
    (item,) = convert(link, "flow.txt")
    assert item.text.startswith("// sequenceDiagram\nA ->> B: hi\nif: retry\n")
    (warning,) = item.warnings
    assert (warning.line, warning.severity) == (1, "warning")
    assert "line 3: if: retry" in warning.message
    diagram = volley.parse(item.text)
    assert [(m.sender, m.receiver, m.label) for m in diagram.messages()] == [
        ("A", "B", "hi"),
        ("B", "A", "again"),
    ]
    # Mermaid that no swimlanes.io reading saves either is Mermaid's error, as before
    bad = "sequenceDiagram\nA->>B: hi\ns\n"
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    link = (
        "https://swimlanes.io/#"
        + base64.b64encode(packer.compress(bad.encode()) + packer.flush()).decode()
    )
    with pytest.raises(VolleyError):
        convert(link, "flow.txt")


@pytest.mark.parametrize("name", ["flow.txt", None])
def test_saved_text_of_mermaid_gone_on_in_swimlanes_syntax_reads_as_its_link_does(name):
    """The same text saved to a file (or piped in) reads as its link does: as swimlanes.io
    text, with the same warning, not as Mermaid's error at its `if:`."""
    text = "sequenceDiagram\n  participant A\n  A->>B: hi\nif: webhook\nB -> A: event\nend\n"
    (saved,) = convert(text, name)
    (linked,) = convert(make_link(text), name)
    assert saved.text == linked.text
    assert saved.text.startswith("// sequenceDiagram\n")
    (warning,) = saved.warnings
    assert warning.severity == "warning" and "line 4: if: webhook" in warning.message
    assert warning.filename == (name or "<input>")


@pytest.mark.parametrize(
    "mistake",
    ["foo bar", "A->>B hi there", "loop x"],  # Mermaid's own syntax, mistyped or left open
)
def test_a_mistake_in_a_mermaid_file_stays_mermaids_error(mistake):
    """Only a line of swimlanes.io's own syntax turns a Mermaid-headed file into swimlanes.io
    text: a Mermaid file with a mistake in it is not read another way."""
    with pytest.raises(VolleyError) as raised:
        convert(f"sequenceDiagram\nA->>B: hi\n{mistake}\n", "flow.mmd")
    assert "swimlanes.io" not in str(raised.value)


def test_import_says_what_volley_check_would_say() -> None:
    """A `#` line (a comment in YAML, a lane in swimlanes.io) is pointed out as the text is
    imported, not only when it is checked later."""
    (item,) = convert("# Search API -> Index: query\nA -> B: hi\n", "saved.txt")
    assert [w.message for w in item.warnings] == [
        'this line is a message from a participant named "# Search API"'
    ]


def test_links_from_swimlanes_root_point_at_swimlanes_io() -> None:
    """swimlanes.io's gallery links its own pages from the root (`/gallery/font-awesome`);
    drawn in a README that would point at the README's site. Code keeps what it shows."""
    source = (
        "title: See [the gallery](/gallery)\n"
        "note: [Font Awesome overview](/gallery/font-awesome), [elsewhere](https://x.org/a),\n"
        "`[shown](/as/code)` and [protocol-relative](//cdn.example/x), `[code](//kept)`\n"
        "```\n[in a block](/kept)\n```\n"
    )
    for given in (source, make_link(source)):
        (item,) = convert(given, "diagram.txt")
        assert "[the gallery](https://swimlanes.io/gallery)" in item.text
        assert "[Font Awesome overview](https://swimlanes.io/gallery/font-awesome)" in item.text
        assert "[elsewhere](https://x.org/a)" in item.text
        assert "`[shown](/as/code)`" in item.text and "[in a block](/kept)" in item.text
        assert "`[code](//kept)`" in item.text
        # swimlanes.io's page is https: volley draws no link to another host without a scheme
        assert "[protocol-relative](https://cdn.example/x)" in item.text


def test_root_links_are_found_as_markdown_finds_links() -> None:
    """Only what is drawn as a link is made whole: not a link in a `~~~` block, nor text an
    escaped backtick leaves outside code; a table cell is read on its own, as on GitHub."""
    source = (
        "note:\n~~~\n[tilde block](/kept)\n~~~\n"
        "\\`not code [after escape](/gallery/z)\n"
        "| a | b |\n|---|---|\n| `x | [cell](/gallery/c) ` |\n"
        "\\[not a link](/text) and [  spaced  ](  /gallery/s  )\n"
        "A -> B: `[code](/kept)` [label](/gallery/l)\n"
    )
    (item,) = convert(source, "diagram.txt")
    assert "[tilde block](/kept)" in item.text
    assert "[after escape](https://swimlanes.io/gallery/z)" in item.text
    assert "[cell](https://swimlanes.io/gallery/c)" in item.text
    assert "\\[not a link](/text)" in item.text
    assert "(  https://swimlanes.io/gallery/s  )" in item.text
    assert "`[code](/kept)` [label](https://swimlanes.io/gallery/l)" in item.text


def test_text_past_the_parsers_input_limit_is_no_swimlanes_diagram(tmp_path):
    """Telling formats apart reads text as a diagram, which a big log (an MCP host's `mcp.log`
    grows past 5 MB) is refused whole as: no line to point at, and the detection failed with a
    traceback for every importer."""
    from volley.importers import detect

    big = "not a diagram, a line of some log\n" * 160_000  # 5.4 MB
    assert swimlanes_detect(big) == 0
    assert detect(big) is None
    log = tmp_path / "big.log"
    log.write_text(big, encoding="utf-8")
    done = volley_cli("import", str(log))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "cannot tell what format this is" in done.stderr


def test_a_log_no_importer_reads_is_not_taken_for_a_diagram_with_an_error_a_line():
    """The Ethereum JSON-RPC docs show a curl command and the node's answer, with `//` lines
    between: read as swimlanes text, every other line was an error ("expected an arrow …").
    Most lines wrong is no diagram with mistakes: it is a format volley does not know."""
    from volley.importers import detect

    log = (
        "// Request\n"
        'curl -X POST --data \'{"jsonrpc":"2.0","method":"eth_blockNumber",'
        '"params":[],"id":83}\'\n'
        "// Result\n"
        "{\n"
        '  "id":83,\n'
        '  "jsonrpc": "2.0",\n'
        '  "result": "0x4b7" // 1207\n'
        "}\n"
    )
    assert detect(log) is None
    done = volley_cli("import", "-", stdin=log)
    assert done.returncode == 1 and "cannot tell what format this is" in done.stderr
    assert "expected an arrow" not in done.stderr
    # a diagram with a mistake or two is still read as one, its errors reported
    assert detect("A -> B: hi\nB -> A ok\nA -> B: again\n").name == "swimlanes"


SWIMLANES_PAGE = (
    "# Checkout\n\nAs docsify-swimlanes-io draws it:\n\n```swimlanes-io\ntitle: Pay\n"
    "Shop -> PSP: charge\nPSP --> Shop: ok\n```\n\n## Refund\n\n```swimlanes-io\n"
    "Shop ~> PSP: refund\n```\n\n```mermaid\nsequenceDiagram\n  Shop->>Bank: settle\n```\n"
)


def test_a_pages_swimlanes_io_blocks_are_each_a_diagram(tmp_path: Path) -> None:
    """docsify-swimlanes-io's ```swimlanes-io blocks: each imported as a diagram, beside the
    page's Mermaid ones, its errors at the page's lines; README mode says how to draw them."""
    page = tmp_path / "checkout.md"
    page.write_text(SWIMLANES_PAGE, encoding="utf-8")
    out = tmp_path / "flows"
    done = volley_cli("import", str(page), "-o", f"{out}/")
    assert done.returncode == 1
    assert f"{page}:14:6: error: " in done.stderr and '"~>" is not an arrow' in done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["checkout-1.volley", "checkout-3.volley"]
    assert (out / "checkout-1.volley").read_text(encoding="utf-8") == (
        "title: Pay\n\nShop -> PSP: charge\nPSP --> Shop: ok\n"
    )
    assert "Shop -> Bank: settle" in (out / "checkout-3.volley").read_text(encoding="utf-8")
    checked = volley_cli("check", str(page))
    assert f"{page}:5:1: note: no ```volley block here, only 2 swimlanes.io diagrams" in (
        checked.stderr
    )
    assert "write ```volley on its first line" in checked.stderr


def test_a_pages_swimlanes_io_elements_are_each_a_diagram(tmp_path: Path) -> None:
    """swimlanes.io's embed script draws the text of a `<swimlanes-io>` element: a page holding
    one was "cannot tell what format this is", and beside a ```swimlanes-io block it was
    dropped without a word. One a page shows as code is none."""
    page = tmp_path / "embed.md"
    page.write_text(
        "# Embed\n\n```html\n<swimlanes-io>\nA -> B: shown as code\n</swimlanes-io>\n```\n\n"
        "```swimlanes-io\nShop -> PSP: charge\n```\n\n<swimlanes-io>\n"
        "   title: Istio &amp; Envoy\n   istiod -> sidecar: push xDS\n   in: Request\n"
        "     type: CDS\n   sidecar ~> istiod: ack\n</swimlanes-io>\n",
        encoding="utf-8",
    )
    out = tmp_path / "flows"
    done = volley_cli("import", str(page), "-o", f"{out}/")
    assert f"{page}:18:12: error: " in done.stderr  # the page's line and column
    assert sorted(p.name for p in out.iterdir()) == ["embed-1.volley"]
    fixed = page.read_text(encoding="utf-8").replace("~>", "-->")
    page.write_text(fixed, encoding="utf-8")
    done = volley_cli("import", str(page), "-o", f"{out}/")
    assert done.returncode == 0, done.stderr
    assert (out / "embed-2.volley").read_text(encoding="utf-8") == (
        "title: Istio & Envoy\n\nistiod -> sidecar: push xDS\nin: Request\n  type: CDS\n"
        "sidecar --> istiod: ack\n"
    )
    assert not (out / "embed-3.volley").exists()
    # one on a line of its own, and one left out in a comment, which the script never sees
    page.write_text(
        "# Embed\n\n<swimlanes-io>C -> D: inline</swimlanes-io>\n\n"
        "<!-- <swimlanes-io>\nE -> F: commented out\n</swimlanes-io> -->\n",
        encoding="utf-8",
    )
    done = volley_cli("import", str(page))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "C -> D: inline\n"
