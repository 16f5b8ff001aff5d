"""Stamps: the SVG's tags rendered once from the template, kept between runs, and filled."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import volley
from volley.render import stamps

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = (ROOT / "examples" / "mcp-tool-call.volley").read_text(encoding="utf-8")
# Names, labels, notes and links a user wrote: none may reach the kept stamps.
PLANTED = (
    "title: Planted-title-7f3a\n"
    "Planted-sender-7f3a -> Planted-receiver-7f3a: Planted-label-7f3a [x](https://planted.example/7f3a)\n"
    "in:\n  planted-body: 7f3a\n"
    "note Planted-sender-7f3a: Planted-note-7f3a {fas-plug}\n"
    "=: Planted-section-7f3a\n"
    "if: Planted-block-7f3a\n"
    "  Planted-sender-7f3a -> Planted-sender-7f3a: **Planted-bold-7f3a**\n"
    "end\n"
)
SCRIPT = (
    "import sys, volley\n"
    "text = sys.stdin.read()\n"
    "for theme in ('light', 'dark', 'auto'):\n"
    "    for bodies in ('markers', 'appendix'):\n"
    "        sys.stdout.write(volley.render(text, format='svg', theme=theme, bodies=bodies))\n"
    "sys.stdout.write(volley.render(text, format='png')[:8].hex())\n"
    "sys.stderr.write(str('jinja2' in sys.modules))\n"
)


def _render(cache: Path, text: str) -> tuple[str, bool]:
    """Every SVG of `text` from a fresh process with its own cache folder, and whether that
    process imported Jinja."""
    env = {"XDG_CACHE_HOME": str(cache), "HOME": str(cache), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], input=text, env=env, capture_output=True, text=True
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
    svg, _ = _render(tmp_path, PLANTED)
    assert "Planted-label-7f3a" in svg and "planted.example/7f3a" in svg
    kept = _kept(tmp_path).read_text(encoding="utf-8")
    assert "7f3a" not in kept and "Planted" not in kept
    assert '"p"' not in kept  # nor a picture's id prefix
    # and the stamps of one picture serve another, made of other text
    other = PLANTED.replace("7f3a", "9c1d")
    assert _render(tmp_path, other) == (_render(tmp_path / "fresh", other)[0], False)


@pytest.mark.parametrize(
    "damage",
    ["", "{", "[]", '{"a": 1}', "\x00\xff", json.dumps({"('box', False, ())": ["x"]})],
)
def test_a_damaged_stamps_file_is_rebuilt_not_trusted(tmp_path: Path, damage: str) -> None:
    first, _ = _render(tmp_path, REFERENCE)
    path = _kept(tmp_path)
    path.write_text(damage, encoding="utf-8", errors="surrogateescape")
    again, imported = _render(tmp_path, REFERENCE)
    assert imported and again == first
    assert json.loads(path.read_text(encoding="utf-8"))  # written whole again


def test_without_a_cache_folder_nothing_is_kept_and_the_picture_is_the_same(
    tmp_path: Path,
) -> None:
    cached, _ = _render(tmp_path / "a", REFERENCE)
    blocked = tmp_path / "b"
    blocked.write_text("a file where the cache folder would go")
    assert _render(blocked, REFERENCE)[0] == cached


def test_user_text_in_the_picture_is_escaped_once() -> None:
    svg = volley.render(
        'title: a < b & "c"\nA <x> -> B & co: 1 < 2 & [l](https://e.example/?a=1&b=2)\n'
    )
    assert "<title" in svg and "a &lt; b &amp; &#34;c&#34;</title>" in svg
    assert 'data-from="A &lt;x&gt;" data-to="B &amp; co"' in svg
    assert ">1 &lt; 2 &amp;</tspan>" in svg
    assert '<a xlink:href="https://e.example/?a=1&amp;b=2">' in svg
    assert "&amp;amp;" not in svg and "&amp;lt;" not in svg


def test_a_named_stamp_prints_a_hole_as_often_as_the_template_does() -> None:
    pattern = stamps.named_stamp(
        "document", font="F", text_rendering=None, css=None, defs=None, background_y=None,
        heading=None, appendix=None, bg="#fff",
    )  # fmt: skip
    assert pattern.count("%(p)s") == 5 and pattern.count("%(w)s") == 2
    assert "<style>" not in pattern and "<defs>" not in pattern


def test_a_stamp_keeps_a_percent_sign_of_the_template_as_text() -> None:
    pattern = stamps.named_stamp(
        "document", font="50%", text_rendering=None, css=None, defs=None, background_y=None,
        heading=None, appendix=None, bg="#fff",
    )  # fmt: skip
    assert 'width="100%%"' in pattern and 'font-family="50%%"' in pattern
    values = dict.fromkeys(
        ["p", "w", "h", "top", "title", "desc", "lifelines", "blocks", "dividers",
         "participants", "messages", "notes"], "",
    )  # fmt: skip
    assert 'font-family="50%"' in pattern % values


def test_a_positional_stamp_must_print_each_hole_once_in_order() -> None:
    with pytest.raises(ValueError, match="once, in order"):
        stamps.stamp("document", "F", None, None, None, None, None, None, "#fff")
