"""PNG and PDF draw every script and emoji the machine has a font for, and say which it lacks."""

from __future__ import annotations

import io
import re
import shutil
import subprocess

import pytest
from PIL import Image

import volley
from volley.api import run
from volley.output.font_fallback import MissingGlyphWarning, missing_characters

from .conftest import volley_cli

# Unassigned code points: no font has a glyph for them, so cairo draws its empty box.
MISSING = ["\u0378", "\u0379"]


def _has_font(pattern: str, char: str) -> bool:
    if shutil.which("fc-list") is None:
        return False
    out = subprocess.run(
        ["fc-list", f"{pattern}:charset={ord(char):x}", "family"], capture_output=True, text=True
    ).stdout
    return bool(out.strip())


needs_cjk = pytest.mark.skipif(
    not _has_font("", "中"), reason="no CJK font installed (.ci/run installs fonts-noto-cjk)"
)
needs_emoji = pytest.mark.skipif(
    not _has_font("", "📦"), reason="no emoji font installed (.ci/run installs one)"
)


def _png(label: str) -> Image.Image:
    data = volley.render(f"A -> B: {label}", format="png", scale=2)
    return Image.open(io.BytesIO(data)).convert("RGB")


def _colourful_pixels(image: Image.Image) -> int:
    pixels = image.tobytes()
    triples = zip(pixels[0::3], pixels[1::3], pixels[2::3], strict=True)
    return sum(1 for r, g, b in triples if max(r, g, b) - min(r, g, b) > 80)


def test_missing_glyphs_all_draw_the_same_box():
    """The premise of the tests below: two characters no font has give the same picture."""
    with pytest.warns(MissingGlyphWarning):
        first = _png(MISSING[0])
    with pytest.warns(MissingGlyphWarning):
        second = _png(MISSING[1])
    assert first.tobytes() == second.tobytes()


@needs_cjk
def test_cjk_characters_are_drawn_not_boxed():
    with pytest.warns(MissingGlyphWarning):
        box = _png(MISSING[0])
    chinese, other = _png("中"), _png("文")
    assert chinese.tobytes() != box.tobytes()
    assert chinese.tobytes() != other.tobytes(), "two different glyphs, two different pictures"


@needs_emoji
def test_emoji_are_drawn_in_colour():
    plain = _colourful_pixels(_png("box"))
    emoji = _colourful_pixels(_png("📦"))
    assert emoji > plain + 20


@needs_cjk
@needs_emoji
def test_pdf_draws_them_too():
    pdf = volley.render("title: Dépôt 📦 中文\nA 📦 -> 中文: 日本", format="pdf")
    assert isinstance(pdf, bytes) and pdf.startswith(b"%PDF")
    assert b"NotoSansCJK" in pdf or b"Noto" in pdf, "the fallback font is embedded"


def test_the_warning_names_the_characters():
    with pytest.warns(MissingGlyphWarning, match="U\\+0378"):
        volley.render(f"A -> B: x {MISSING[0]} y", format="png")
    assert missing_characters(f"ok {MISSING[0]}{MISSING[0]} {MISSING[1]}") == MISSING


def test_svg_and_latin_text_are_left_alone():
    svg = volley.render("A -> B: Grüße, façade, Ωμέγα, Привет")
    assert "<tspan font-family" not in svg


def test_the_command_says_where_a_missing_glyph_is(tmp_path):
    """A volley warning with the file and line, not a Python warning with volley's source."""
    source = tmp_path / "glyphs.volley"
    source.write_text(f"A -> B: fine\nB -> A: x {MISSING[0]} y\n", encoding="utf-8")
    done = volley_cli("render", str(source), "-o", str(tmp_path / "out.png"))
    assert done.returncode == 0
    assert f"glyphs.volley:2: warning: no installed font has {MISSING[0]} (U+0378)" in done.stderr
    assert "MissingGlyphWarning" not in done.stderr and ".py:" not in done.stderr
    svg = volley_cli("render", str(source), "-o", str(tmp_path / "out.svg"))
    assert "no installed font" not in svg.stderr  # a browser picks its own fonts for SVG


def test_one_warning_names_every_missing_character_at_its_first_line():
    source = f"A -> B: ok\nB -> A: {MISSING[0]}\nA -> B: {MISSING[1]}\nB -> A: {MISSING[0]}\n"
    (warning,) = run(source, volley.Options(format="png")).warnings
    assert warning.line == 2 and warning.severity == "warning"
    assert "U+0378" in warning.message and "U+0379" in warning.message
    assert "on 3 lines" in warning.message
    assert not run(source).warnings  # SVG: the reader's browser picks the fonts


def _pictures(label: str) -> list[str]:
    """The emoji pictures the raster path draws for a label: each `<image>` tag."""
    from volley.output.font_fallback import with_fallback_fonts

    svg = volley.render(f"A -> B: {label}", theme="light")
    return re.findall(r"<image [^>]*>", with_fallback_fonts(svg))


@needs_emoji
@pytest.mark.parametrize(
    ("sequence", "parts"),
    [
        ("\U0001f469\u200d\U0001f4bb", "\U0001f469 \U0001f4bb"),  # woman technologist
        ("\U0001f1ef\U0001f1f5", "\U0001f1ef \U0001f1f5"),  # the flag of Japan
        ("\U0001f44d\U0001f3fd", "\U0001f44d \U0001f3fd"),  # thumbs up, medium skin tone
        ("\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f468 \U0001f469 \U0001f467"),
    ],
)
def test_an_emoji_written_as_a_sequence_is_drawn_as_one(sequence: str, parts: str) -> None:
    """A ZWJ sequence, a flag and a skin tone are one picture an em wide, as a browser draws
    them, not their parts side by side."""
    (one,) = _pictures(sequence)
    assert 'width="17.5"' in one  # as the layout measured it: 1.25 em of a 14 px label
    assert len(_pictures(parts)) == len(parts.split())


@needs_emoji
def test_the_emoji_selector_leaves_no_gap_and_a_keycap_is_drawn() -> None:
    """`❤️` draws as `❤` does (the selector took an emoji's width of blank before), and `1️⃣`
    is the keycap emoji, not a digit and two empty boxes."""
    assert _png("\u2764\ufe0f heart").tobytes() == _png("\u2764 heart").tobytes()
    assert len(_pictures("1\ufe0f\u20e3 and #\ufe0f\u20e3 and \u00a9\ufe0f")) == 3
    assert len(_pictures("1 and # and \u00a9")) == 0  # text, unless the selector asks


@needs_emoji
def test_emoji_pictures_stand_beside_their_text_and_reach_the_pdf() -> None:
    from volley.output.font_fallback import with_fallback_fonts

    svg = volley.render("A -> B: go \U0001f680 now", theme="light")
    raster = with_fallback_fonts(svg)
    text = raster[raster.index('<text class="label') :]
    assert "\U0001f680" not in text and "go" in text and "now" in text
    assert text.index("</text>") < text.index("<image ")  # an image may not be inside a text
    pdf = volley.render("A -> B: go \U0001f680 now", format="pdf")
    assert b"/Subtype /Image" in pdf


needs_indic_and_thai = pytest.mark.skipif(
    not (_has_font("", "क") and _has_font("", "ก")),
    reason="no Devanagari or Thai font installed (.ci/run installs fonts-noto-core)",
)


def _raster(label: str) -> str:
    from volley.output.font_fallback import with_fallback_fonts

    return with_fallback_fonts(volley.render(f"A -> B: {label}", theme="light"))


@needs_indic_and_thai
@pytest.mark.parametrize(
    "words",
    [
        "\u0915\u093f",  # कि: the vowel sign is drawn before the consonant it follows
        "\u0915\u094d\u0937",  # क्ष: two consonants and a virama make one conjunct
        "\u0e19\u0e49\u0e33",  # น้ำ: Thai's tone mark sits above the vowel above the letter
    ],
)
def test_scripts_whose_letters_change_when_they_meet_are_drawn_shaped(words: str) -> None:
    """Drawn as the font shapes them (outlines), as a browser draws them, not letter by
    letter; the text around them stays text."""
    raster = _raster(f"say {words} now")
    label = raster[raster.index('<text class="label') :]
    text, after = label.split("</text>", 1)
    assert words not in text and "say" in text and "now" in text
    assert re.match(r'\s*<path d="M[^"]+" fill="#[0-9a-f]{6}"/>', after)
    assert _png(words).tobytes() != _png("".join(f"{ch} " for ch in words)).tobytes()


@needs_cjk
def test_text_cairo_draws_right_stays_text() -> None:
    """Chinese, and Latin with accents, need no shaping: they stay text, which a PDF reader
    can select."""
    raster = _raster("中文 and Łódź café")
    assert "中文" in raster and "Łódź café" in raster
    assert "<path d=" not in raster  # the outlines of shaped text; the picture's own are classed
