"""Stamps: the SVG's tags rendered once from the template, kept between runs, and filled."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import volley
import volley.output.stamps as stamps

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = (ROOT / "examples" / "mcp-tool-call.volley").read_text(encoding="utf-8")
# Names, labels, notes, links and ids a user wrote: none may reach the kept stamps.
PLANTED = (
    "title: Planted-title-7f3a\n"
    "Planted-sender-7f3a -> Planted-receiver-7f3a: Planted-label-7f3a [x](https://planted.example/7f3a)\n"
    "in:\n  planted-body: 7f3a\n"
    "note Planted-sender-7f3a: Planted-note-7f3a {fas-plug}\n"
    "  - Planted-bullet-7f3a\n"
    "  ```\n  planted-code-7f3a\n  ```\n"
    "=: Planted-section-7f3a\n-: Planted-line-7f3a\n--: Planted-dashed-7f3a\n"
    "_: Planted-thin-7f3a\n...: Planted-delay-7f3a\n"
    "if: Planted-block-7f3a\n"
    "  Planted-sender-7f3a -> Planted-sender-7f3a: **Planted-bold-7f3a** {fab-github}\n"
    "else: Planted-else-7f3a\n"
    "  Planted-receiver-7f3a --> Planted-sender-7f3a: ~~Planted-struck-7f3a~~ `c7f3a`\n"
    "end\n"
    "par: Planted-par-7f3a\nand: Planted-and-7f3a\n"
    "  Planted-sender-7f3a -> Planted-receiver-7f3a\nend\n"
)
SCRIPT = (
    "import sys, volley\n"
    "text = sys.stdin.read()\n"
    "prefix = sys.argv[1] if len(sys.argv) > 1 else None\n"
    "for theme in ('light', 'dark', 'auto'):\n"
    "    for bodies in ('markers', 'appendix'):\n"
    "        sys.stdout.write(\n"
    "            volley.render(text, format='svg', theme=theme, bodies=bodies, id_prefix=prefix)\n"
    "        )\n"
    "sys.stdout.write(volley.render(text, format='png')[:8].hex())\n"
    "sys.stderr.write(str('jinja2' in sys.modules))\n"
)


def _render(cache: Path, text: str, *args: str) -> tuple[str, bool]:
    """Every SVG of `text` from a fresh process with its own cache folder, and whether that
    process imported Jinja."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "HOME": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, *args],
        input=text,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr.endswith("True")


def _kept(cache: Path) -> Path:
    (path,) = (cache / "volley").glob("stamps-*.json")
    return path


def test_a_render_with_its_stamps_kept_does_not_import_jinja(tmp_path: Path) -> None:
    first, imported = _render(tmp_path, REFERENCE)
    assert imported  # the first render made the stamps
    again, imported = _render(tmp_path, REFERENCE)
    assert not imported
    assert again == first


def test_the_kept_stamps_hold_no_user_text(tmp_path: Path) -> None:
    svg, _ = _render(tmp_path, PLANTED, "Planted-id-7f3a")
    for planted in ("Planted-label-7f3a", "planted.example/7f3a", "Planted-else-7f3a"):
        assert planted in svg
    assert 'id="Planted-id-7f3a"' in svg and "Planted-id-7f3a-icon-fas-plug" in svg
    kept = _kept(tmp_path).read_text(encoding="utf-8")
    assert "7f3a" not in kept and "Planted" not in kept
    assert "icon-" not in kept and "fas-plug" not in kept and "github" not in kept
    # and the stamps of one picture serve another, made of other text
    other = PLANTED.replace("7f3a", "9c1d")
    assert _render(tmp_path, other) == (_render(tmp_path / "fresh", other)[0], False)


@pytest.mark.parametrize(
    "damage",
    [
        lambda p: p + "%s",  # a hole too many
        lambda p: p.replace("%s", "", 1) if "%s" in p else p + "%(x)s",  # one too few
        lambda p: p.replace("%s", "%(x)s"),  # by name where it is by position
    ],
    ids=["extra-hole", "missing-hole", "named-hole"],
)
def test_a_kept_stamp_that_does_not_fill_is_made_again(tmp_path: Path, damage) -> None:
    first, _ = _render(tmp_path, REFERENCE)
    path = _kept(tmp_path)
    kept = json.loads(path.read_text(encoding="utf-8"))
    damaged = {key: damage(pattern) for key, pattern in kept.items()}
    path.write_text(json.dumps(damaged), encoding="utf-8")
    again, imported = _render(tmp_path, REFERENCE)
    assert imported and again == first
    assert _render(tmp_path, REFERENCE) == (first, False)  # written right again
    written = json.loads(path.read_text(encoding="utf-8"))
    assert not [key for key, pattern in written.items() if pattern != kept.get(key, pattern)]


def test_without_a_cache_folder_nothing_is_kept_and_the_picture_is_the_same(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from volley import resources
    import volley.output.svg as svg

    expected = volley.render(REFERENCE, theme="auto")
    monkeypatch.setattr(resources, "cache_dir", lambda: None)
    monkeypatch.setattr(stamps, "_STAMPS", stamps._Stamps())
    monkeypatch.setattr(svg, "_BY_PALETTE", {})
    assert volley.render(REFERENCE, theme="auto") == expected
    assert stamps._STAMPS.kept and stamps._STAMPS.path() is None


def test_user_text_in_the_picture_is_escaped_once() -> None:
    svg = volley.render(
        'title: a < b & "c"\nA <x> -> B & co: 1 < 2 & [l](https://e.example/?a=1&b=2)\n'
    )
    assert "<title" in svg and "a &lt; b &amp; &#34;c&#34;</title>" in svg
    assert 'data-from="A &lt;x&gt;" data-to="B &amp; co"' in svg
    assert ">1 &lt; 2 &amp;</tspan>" in svg
    assert '<a xlink:href="https://e.example/?a=1&amp;b=2">' in svg
    assert "&amp;amp;" not in svg and "&amp;lt;" not in svg


def _document(font: str) -> str:
    """The `document` stamp with every optional part left out."""
    return stamps.named_stamp(
        "document", font=font, text_rendering=None, css=None, defs=None, background_y=None,
        heading=None, appendix=None, bg="#fff",
    )  # fmt: skip


def test_a_named_stamp_prints_a_hole_as_often_as_the_template_does() -> None:
    pattern = _document("F")
    assert pattern.count("%(p)s") == 5 and pattern.count("%(w)s") == 2
    assert "<style>" not in pattern and "<defs>" not in pattern


def test_a_stamp_keeps_a_percent_sign_of_the_template_as_text() -> None:
    pattern = _document("50%")
    assert 'width="100%%"' in pattern and 'font-family="50%%"' in pattern
    values = dict.fromkeys(
        ["p", "w", "h", "top", "title", "desc", "lifelines", "blocks", "dividers",
         "participants", "messages", "notes"], "",
    )  # fmt: skip
    assert 'font-family="50%"' in pattern % values


def test_a_positional_stamp_must_print_each_hole_once_in_order() -> None:
    with pytest.raises(ValueError, match="once, in order"):
        stamps.stamp("document", "F", None, None, None, None, None, None, "#fff")


def test_escape_is_autoescapes_escaping() -> None:
    from markupsafe import escape as markupsafe_escape

    from volley.output.svg import escape

    lines = (ROOT / "tests" / "hostile" / "strings.txt").read_text(encoding="utf-8").splitlines()
    for text in [*lines, "&amp;", "a'b\"c", "<>&'\"" * 3, "", "plain", "\u2028 é 😀 &#39;"]:
        assert escape(text) == str(markupsafe_escape(text)), text


HOSTILE = "<b>&\"'x</b>"


def test_every_text_a_user_wrote_reads_back_as_written() -> None:
    """An XML parser gets back each text exactly as written, and no element from it."""
    from xml.etree import ElementTree

    h = HOSTILE
    text = (
        f"title: {h} title\n{h} A -> {h} B: {h} label [{h} link](https://e.example/?a=1&b=2)\n"
        f"in:\n  key: {h}\nnote {h} A: {h} note\n  - {h} bullet\n"
        f"=: {h} section\n-: {h} line\n...: {h} delay\n"
        f"if: {h} if\n  {h} B -> {h} B: {h} self\nelse: {h} else\nend\n"
    )
    for bodies in ("markers", "appendix"):
        svg = volley.render(text, theme="auto", bodies=bodies)
        root = ElementTree.fromstring(svg)
        assert not [e for e in root.iter() if e.tag.endswith("}b") or e.tag == "b"]
        texts = "\n".join(
            "".join(e.itertext()) for e in root.iter("{http://www.w3.org/2000/svg}text")
        )
        for what in ("title", "label", "link", "note", "bullet", "section", "line", "delay",
                     "if", "self", "else"):  # fmt: skip
            assert f"{h} {what}" in texts, what
        names = {e.get("data-name") for e in root.iter() if e.get("data-name")}
        assert names == {f"{h} A", f"{h} B"}
        assert any(e.get("data-over") == f"{h} A" for e in root.iter())
        assert any(e.get("data-from") == f"{h} A" for e in root.iter())
        assert "https://e.example/?a=1&b=2" in {
            e.get("{http://www.w3.org/1999/xlink}href") for e in root.iter()
        }
        desc = root.find("{http://www.w3.org/2000/svg}desc")
        assert desc is not None and f"{h} A to {h} B: {h} label" in desc.text
    assert f"key: {h}" in "".join(
        ElementTree.fromstring(volley.render(text, bodies="appendix")).itertext()
    )


def test_a_diagram_built_in_python_cannot_put_markup_where_numbers_go() -> None:
    from volley.model import Block, Branch, Diagram, Divider, Message, Note

    planted = '"><script>alert(1)</script>'
    for item in (
        Note(line=planted, over=["A"], text="n"),  # type: ignore[arg-type]
        Divider(line=planted, style="regular", label="d"),  # type: ignore[arg-type]
        Block(line=planted, kind="if", branches=[Branch("x")]),  # type: ignore[arg-type]
        Message(line=planted, sender="A", receiver="B", arrow="->"),  # type: ignore[arg-type]
    ):
        with pytest.raises(ValueError, match="line number"):
            volley.render(Diagram(participants=["A", "B"], items=[item]))
    with pytest.raises(ValueError, match="divider's style"):
        volley.render(Diagram(items=[Divider(line=1, style=planted)]))  # type: ignore[arg-type]
    kind = volley.render(Diagram(items=[Block(line=1, kind=planted, branches=[Branch("x")])]))  # type: ignore[arg-type]
    assert "<script>" not in kind and 'class="block block-&#34;&gt;&lt;script&gt;' in kind
