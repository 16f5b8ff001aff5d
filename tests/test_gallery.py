"""Template pages: every example as a page to learn from, and a static gallery to publish."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from volley.cli import main
from volley.docs.gallery import build_gallery, load_templates, read_about, title_of
from volley.editor_links import decode
from volley.errors import VolleyError

from .conftest import EXAMPLES


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("gallery")
    build_gallery(EXAMPLES, out, editor_url="https://editor.example/")
    return out


def _text(page: str) -> str:
    """What a reader sees, roughly: tags dropped, entities decoded, white space folded."""
    page = re.sub(r"<(head|script|style|svg|template)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"</?(code|a|span)\b[^>]*>", "", page)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_every_example_gets_a_page_its_source_and_its_picture(site: Path):
    for source in EXAMPLES.glob("*.volley"):
        assert (site / f"{source.stem}.html").exists()
        assert (site / f"{source.stem}.volley").read_text() == source.read_text()
        assert (site / f"{source.stem}.svg").read_text().startswith("<svg")
    index = (site / "index.html").read_text()
    for source in EXAMPLES.glob("*.volley"):
        assert f'href="{source.stem}.html"' in index


def test_the_mcp_template_reads_as_the_template_page_does(site: Path):
    page = (site / "mcp-tool-call.html").read_text()
    text = _text(page)
    order = [
        "AI agents template",
        "MCP tool call over Streamable HTTP",
        "An agent connects to a remote MCP server, lists its tools and calls one",
        "Open this template in the editor",
        "Click any arrow to see its request and response as a table or the raw body.",
        "Step by step",
        "The agent sends initialize as a JSON-RPC 2.0 POST to /mcp",
        "Easy to get wrong",
        "Send Accept: application/json, text/event-stream.",
        "The source",
        "The whole diagram is this plain text.",
        "mcp-tool-call.volley",
        "Related",
    ]
    at = 0
    for phrase in order:  # each after the one before
        found = text.find(phrase, at)
        assert found >= 0, f"{phrase!r} missing after position {at}"
        at = found + len(phrase)
    steps = re.search(r"<h2>Step by step</h2>\s*<ol>(.*?)</ol>", page, re.S)
    assert steps is not None and steps.group(1).count("<li>") == 6
    pitfalls = re.search(r"<h2>Easy to get wrong</h2>\s*<ul>(.*?)</ul>", page, re.S)
    assert pitfalls is not None and pitfalls.group(1).count("<li>") == 3


def test_the_page_holds_the_clickable_diagram_once_with_its_viewer(site: Path):
    page = (site / "mcp-tool-call.html").read_text()
    assert page.count('class="volley-assets"') == 2  # the viewer's stylesheet and script, once
    assert page.count("<svg") >= 1 and "t-mcp-tool-call" in page
    assert "download href" in page or "download>" in page


def test_the_editor_link_carries_the_whole_source(site: Path):
    page = (site / "mcp-tool-call.html").read_text()
    link = re.search(r'href="https://editor\.example/#([^"]+)"', page)
    assert link is not None
    assert decode(html.unescape(link.group(1))) == (EXAMPLES / "mcp-tool-call.volley").read_text()


def test_related_templates_link_to_pages_that_exist(site: Path):
    page = (site / "mcp-tool-call.html").read_text()
    related = page.split("<h2>Related</h2>", 1)[1]
    links = re.findall(r'href="([a-z0-9-]+)\.html"', related)
    assert links and "mcp-stdio" in links
    for slug in links:
        assert (site / f"{slug}.html").exists()


def test_without_an_editor_there_are_no_editor_links(tmp_path: Path):
    build_gallery(EXAMPLES, tmp_path)
    page = (tmp_path / "mcp-tool-call.html").read_text()
    assert "Open this template in the editor" not in page
    assert "Download mcp-tool-call.volley" in _text(page)


def template(tmp_path: Path, name: str, source: str, about: str) -> Path:
    """A folder of one template, NAME.volley with its NAME.about.md."""
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / f"{name}.volley").write_text(source)
    (folder / f"{name}.about.md").write_text(about)
    return folder


def test_user_text_on_a_page_is_text(tmp_path: Path):
    folder = template(
        tmp_path,
        "evil",
        'title: <script>alert(1)</script>\nA -> B: "><img src=x>\n',
        "---\ncategory: <b>bold</b>\nsummary: <script>alert(2)</script>\n---\n"
        "## Step by step\n- `<img onerror=x>` and <i>\n",
    )
    build_gallery(folder, tmp_path / "out", editor_url='"><script>alert(3)</script>')
    page = (tmp_path / "out" / "evil.html").read_text()
    assert "<script>alert" not in page
    assert "<img" not in page.replace("<img onerror", "")  # nothing made into an element
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in page
    assert "<code>&lt;img onerror=x&gt;</code>" in page


def test_a_summary_and_a_description_show_their_code_spans(tmp_path: Path):
    """The bundled HAR template's summary showed its backticks."""
    about = "---\nsummary: made with `volley import` <b>\ndescription: an `A` to `B`\n---\n"
    folder = template(tmp_path, "t", "title: T\nA -> B: x\n", about)
    build_gallery(folder, tmp_path / "out")
    page = (tmp_path / "out" / "t.html").read_text()
    index = (tmp_path / "out" / "index.html").read_text()
    assert (
        "made with <code>volley import</code> &lt;b&gt;" in page and "`volley import`" not in page
    )
    assert "made with <code>volley import</code>" in index
    assert "an <code>A</code> to <code>B</code>" in page
    assert '<meta name="description" content="made with volley import &lt;b&gt;">' in page


@pytest.mark.parametrize(
    "address", ["javascript:alert(1)", "data:text/html,x", "ftp://x/", "//evil.example/",
                "http://[oops/", "https://"]
)  # fmt: skip
def test_an_editor_address_that_is_no_web_address_is_refused(tmp_path: Path, address: str):
    """Every page links to it: `javascript:` would run in a reader's browser."""
    result = CliRunner().invoke(main, ["gallery", "-o", str(tmp_path), "--editor-url", address])
    assert result.exit_code == 2 and "is no web address" in result.output
    assert not list(tmp_path.iterdir())
    fine = CliRunner().invoke(main, ["gallery", "-o", str(tmp_path), "--editor-url", "/editor/"])
    assert fine.exit_code == 0, fine.output


def test_about_files_are_read_strictly():
    about = read_about("---\nCategory: Auth\nrelated: a, b\n---\n## Easy to get wrong\n- x\n", "f")
    assert about["category"] == "Auth" and about["pitfalls"] == ["x"] and about["steps"] == []
    with pytest.raises(VolleyError, match="never closed"):
        read_about("---\ncategory: x\n", "f.about.md")
    with pytest.raises(VolleyError, match="f.about.md:2: expected `key: value`"):
        read_about("---\njust words\n---\n", "f.about.md")


def test_a_template_without_an_about_file_still_gets_a_page(tmp_path: Path):
    (tmp_path / "plain-flow.volley").write_text("A -> B: hi\n")
    templates = load_templates(tmp_path)
    assert templates["plain-flow"].title == "Plain flow"
    assert templates["plain-flow"].category == "Examples"


def test_an_about_file_may_title_a_diagram_that_has_no_title(tmp_path: Path):
    """An import kept as it came has no `title:`; its about file names its page."""
    (tmp_path / "har-capture.volley").write_text("Client -> API: GET /\n")
    (tmp_path / "har-capture.about.md").write_text("---\ntitle: A browser session\n---\n")
    assert load_templates(tmp_path)["har-capture"].title == "A browser session"


def test_an_about_title_does_not_override_the_diagrams_own(tmp_path: Path):
    (tmp_path / "flow.volley").write_text("title: Its own\nA -> B: hi\n")
    (tmp_path / "flow.about.md").write_text("---\ntitle: Another\n---\n")
    assert load_templates(tmp_path)["flow"].title == "Its own"


def test_every_bundled_example_has_a_title_and_a_summary():
    """A title of its own or its about file's, never the file name in words."""
    for template in load_templates(EXAMPLES).values():
        assert template.title != title_of("", template.slug), template.slug
        assert template.summary, template.slug


def test_the_command_writes_the_gallery(tmp_path: Path):
    result = CliRunner().invoke(main, ["gallery", str(EXAMPLES), "-o", str(tmp_path / "g")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "g" / "index.html").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    result = CliRunner().invoke(main, ["gallery", str(empty), "-o", str(tmp_path / "h")])
    assert result.exit_code == 1
    assert "no .volley templates" in result.output


def test_broken_templates_are_named_each_with_its_errors_and_nothing_is_written(tmp_path: Path):
    folder = tmp_path / "flows"
    folder.mkdir()
    (folder / "good.volley").write_text("A -> B: ok\n")
    (folder / "broken.volley").write_text("A -> B: x\nA ~> B: y\n")
    (folder / "worse.volley").write_text("A => => B\n")
    result = CliRunner().invoke(main, ["gallery", str(folder), "-o", str(tmp_path / "out")])
    assert result.exit_code == 1
    said = result.output.splitlines()
    assert said[0] == f'{folder / "broken.volley"}:2:3: error: "~>" is not an arrow; ' + (
        'expected an arrow such as -> or --> after "A"'
    )
    assert any(line.startswith(f"{folder / 'worse.volley'}:1:3: error:") for line in said)
    assert said[-1] == "2 errors"
    assert not (tmp_path / "out").exists()


def test_volley_serve_shows_the_same_pages_with_links_to_its_editor():
    from starlette.testclient import TestClient

    from volley.server import create_app

    client = TestClient(create_app(None, examples=EXAMPLES))
    index = client.get("/gallery/")
    assert index.status_code == 200 and 'href="mcp-tool-call.html"' in index.text
    page = client.get("/gallery/mcp-tool-call.html")
    assert page.status_code == 200
    assert "Open this template in the editor" in page.text
    link = re.search(r'href="/#([^"]+)"', page.text)
    assert link is not None
    assert decode(html.unescape(link.group(1))) == (EXAMPLES / "mcp-tool-call.volley").read_text()
    assert "script-src 'unsafe-inline'" in page.headers["content-security-policy"]
    source = client.get("/gallery/mcp-tool-call.volley")
    assert source.text == (EXAMPLES / "mcp-tool-call.volley").read_text()
    assert client.get("/gallery/mcp-tool-call.svg").text.startswith("<svg")
    assert client.get("/gallery/..%2F..%2Fpyproject.toml").status_code == 404
    assert client.get("/gallery/nothing.html").status_code == 404


def test_every_page_carries_its_stylesheet_as_written(site: Path):
    """The pages' own CSS reaches the browser as CSS: quoted font names escaped as `&#34;`
    would make it drop every rule that names a font."""
    css = (Path(__file__).resolve().parent.parent / "templates/gallery/gallery.css").read_text()
    for page in [site / "index.html", *site.glob("*.html")]:
        styles = re.findall(r"<style>(.*?)</style>", page.read_text(), flags=re.S)
        assert css in styles, page.name


def test_a_related_name_that_is_no_template_is_an_error_and_nothing_is_written(tmp_path: Path):
    flows = tmp_path / "flows"
    flows.mkdir()
    (flows / "sign-in.volley").write_text("A -> B: hi\n", encoding="utf-8")
    (flows / "sign-in.about.md").write_text("---\nrelated: sign-out\n---\n", encoding="utf-8")
    out = tmp_path / "public"
    done = CliRunner().invoke(main, ["gallery", str(flows), "-o", str(out)])
    assert done.exit_code == 1
    assert f"sign-in.about.md: error: related: sign-out is no template in {flows}" in done.output
    assert not out.exists()
