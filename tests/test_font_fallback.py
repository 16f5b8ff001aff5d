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
    """A ZWJ sequence, a flag and a skin tone are one picture as wide as the layout measured
    it (1.25 em), as a browser draws them, not their parts side by side."""
    (one,) = _pictures(sequence)
    assert 'width="17.5"' in one  # as the layout measured it: 1.25 em of a 14 px label
    assert len(_pictures(parts)) == len(parts.split())


@needs_emoji
def test_the_emoji_selector_leaves_no_gap_and_a_keycap_is_drawn() -> None:
    """`❤️` is the heart emoji and the text goes on right after it (the selector took an emoji's
    width of blank before), and `1️⃣` is the keycap emoji, not a digit and two empty boxes."""
    raster = _raster("\u2764\ufe0f heart")
    (picture,) = _images_x(raster)
    after = float(re.search(r'<tspan x="([0-9.]+)">heart<', raster)[1])
    assert after - picture == pytest.approx(1.25 * 14 + 3.89, abs=0.3)  # the emoji, a space
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


@needs_cjk
def test_text_cairo_draws_right_stays_text() -> None:
    """Chinese, and Latin with accents, need no shaping: they stay text, which a PDF reader
    can select."""
    raster = _raster("中文 and Łódź café")
    assert "中文" in raster and "Łódź café" in raster
    assert "<path d=" not in raster  # the outlines of shaped text; the picture's own are classed


def _ink_width(title: str) -> int:
    """How wide a title's ink is in the PNG: the title stands alone above the participants."""
    image = _title_png(title)
    width, height = image.size
    pixels = image.load()
    assert pixels is not None
    columns = [x for x in range(width) if any(sum(pixels[x, y]) < 600 for y in range(height))]
    return columns[-1] - columns[0] + 1


def _title_png(title: str) -> Image.Image:
    data = volley.render(f"title: {title}\nA -> B", format="png", scale=2)
    image = Image.open(io.BytesIO(data)).convert("RGB")
    return image.crop((0, 0, image.size[0], 110))  # the title's band, above the boxes


@needs_indic_and_thai
def test_a_conjunct_is_drawn_as_one_glyph() -> None:
    """क्ष is one glyph about a letter wide, not क, a virama and ष side by side."""
    assert _ink_width("\u0915\u094d\u0937") < 0.75 * (_ink_width("\u0915") + _ink_width("\u0937"))


def _images_x(raster: str) -> list[float]:
    return [float(x) for x in re.findall(r'<image x="([0-9.]+)"', raster)]


@needs_emoji
def test_text_after_a_picture_goes_where_the_characters_end_not_their_markup() -> None:
    """`&`, `<` and `"` are one character each (their escaped forms are five): the flag after
    them is where it would be after `+` (a glyph about as wide), not pushed right."""
    with_markup = _images_x(_raster('\U0001f600 A & B <"> \U0001f1ef\U0001f1f5 C'))
    plain = _images_x(_raster("\U0001f600 A + B +++ \U0001f1ef\U0001f1f5 C"))
    assert len(with_markup) == len(plain) == 2
    assert with_markup[1] - with_markup[0] == pytest.approx(plain[1] - plain[0], abs=4)


@needs_emoji
def test_code_around_an_emoji_is_measured_in_its_monospace_face() -> None:
    raster = _raster("`\U0001f600 wwwwwwwwiiiiiiii \U0001f600 end`")
    first, second = _images_x(raster)
    size = float(
        re.search(r'<tspan[^>]*font-family="[^"]*Mono[^"]*" font-size="([0-9.]+)"', raster)[1]
    )
    assert second - first == pytest.approx((1.25 + 18 * 0.6) * size, abs=1.5)


@needs_emoji
def test_emoji_selectors_marks_and_tags_stay_with_their_character() -> None:
    """A letter before the emoji selector stays a letter (the emoji font has none); a mark
    after an emoji is part of its picture; England's flag is one picture, not a black flag
    and six boxes."""
    raster = _raster("\u00e9\ufe0fb \U0001f600\u0301x")  # (after a Latin letter: an escape)
    assert "\u00e9\ufe0fb" in raster and len(_images_x(raster)) == 1
    england = "\U0001f3f4" + "".join(chr(0xE0000 + ord(c)) for c in "gbeng") + "\U000e007f"
    assert len(_images_x(_raster(f"go {england} now"))) == 1


@needs_indic_and_thai
def test_a_line_with_right_to_left_text_still_shapes_its_other_scripts() -> None:
    raster = _raster(
        "\u0939\u093f\u0928\u094d\u0926\u0940 \u0627\u0644\u0639\u0631\u0628\u064a\u0629"
    )
    assert '<path d="M' in raster


def test_markup_characters_before_an_emoji_selector_draw() -> None:
    """`&` and `"` before U+FE0F are text, drawn: they broke the raster SVG's markup."""
    for label in ("a &\ufe0f b", 'a "\u20e3 b', "a <\ufe0f b"):
        assert volley.render(f"A -> B: {label}", format="png").startswith(b"\x89PNG")


@needs_emoji
def test_an_emoji_sequence_between_right_to_left_words_stays_one_picture() -> None:
    """Reordering a right-to-left line moves 👩‍💻 whole (the reshaper kept its joiner, and the
    reordering did not reverse its parts), so it is one picture, as a browser draws it."""
    hello, world = "\u0645\u0631\u062d\u0628\u0627", "\u0628\u0627\u0644\u0639\u0627\u0644\u0645"
    raster = _raster(f"{hello} \U0001f469\u200d\U0001f4bb {world}")
    assert len(_images_x(raster)) == 1


@needs_emoji
@pytest.mark.parametrize(
    "emoji", ["\u00a9\ufe0f", "\u2122\ufe0f", "#\ufe0f\u20e3", "*\u20e3", "1\ufe0f\u20e3"]
)
def test_a_symbol_or_keycap_emoji_between_right_to_left_words_stays_one_picture(emoji) -> None:
    """©️, ™️ and the keycaps on # and * are neutral to the reordering: reversed with their
    selector and frame, they were drawn as a text © beside a blank, or a # beside an empty
    keycap. Each is one picture, as a browser draws it; a digit's keycap already was."""
    hello, world = "\u0645\u0631\u062d\u0628\u0627", "\u0628\u0627\u0644\u0639\u0627\u0644\u0645"
    for label in (f"{hello} {emoji} {world}", f"{hello} {emoji}", f"{emoji}{hello}"):
        raster = _raster(label)
        text = re.sub("<[^>]*>", "", raster[raster.index('<text class="label') :])
        assert len(_images_x(raster)) == 1
        assert emoji[0] not in text  # no part of it drawn as text


@needs_emoji
def test_symbols_are_emoji_where_unicode_presents_them_so() -> None:
    """⭐ ⌛ ✅ are emoji by default (Unicode's Emoji_Presentation), as a browser draws them;
    ⌨ ✂ ➡ are text unless U+FE0F asks for their emoji."""
    assert len(_pictures("\u2b50 \u231b \u2705")) == 3
    assert len(_pictures("\u2328 \u2702 \u27a1")) == 0
    assert len(_pictures("\u2702\ufe0f")) == 1


needs_arabic_and_tamil = pytest.mark.skipif(
    not (_has_font("", "\u0645") and _has_font("", "\u0b95")),
    reason="no Arabic or Tamil font installed (.ci/run installs fonts-noto-core)",
)


@needs_arabic_and_tamil
def test_arabic_indic_digits_keep_their_order() -> None:
    """٤٢ is forty-two in the picture too: the pieces are in the order they are seen in, and
    shaping them as right to left again turned them round."""
    raster = _raster("\u0631\u0642\u0645 \u0664\u0662 and order \u0664\u0662 ok")
    label = raster[raster.index('<text class="label') :].split("</text>")[0]
    assert label.count("\u0664\u0662") == 2 and "\u0662\u0664" not in raster


@needs_arabic_and_tamil
def test_a_word_stays_in_the_font_that_has_its_letters() -> None:
    """Tamil's வ is in fontconfig's Grantha font first: drawn there, apart from its vowel sign,
    the sign came out on a dotted circle. The word stays in one font, as in a browser."""
    raster = _raster("\u0b95\u0b9f\u0bb5\u0bc1\u0b9a\u0bcd\u0b9a\u0bca\u0bb2\u0bcd")
    assert "Grantha" not in raster
    assert raster.count('<path d="M') == 1  # the word, shaped as one piece


@needs_arabic_and_tamil
def test_a_style_whose_face_lacks_the_letters_is_left_off() -> None:
    """Italic Arabic: the family holding the letters has them only upright, so they are drawn
    upright, not as the empty boxes of its italic face; italic Devanagari is slanted as
    fontconfig says (a face made from the upright one), drawn from HarfBuzz's outlines."""
    from volley.output.font_fallback import _lacks, _pieces

    (family, word), *_ = _pieces("\u0645\u0627\u0626\u0644")
    raster = _raster("*\u0645\u0627\u0626\u0644* hi")
    assert ('font-style="normal"' in raster) == _lacks(family, word, False, True)
    assert '<path d="M' in _raster("*\u0924\u0940\u0928* tries")  # तीन: no reordering, slanted


@needs_arabic_and_tamil
def test_a_letter_goes_with_its_mark_to_the_font_that_has_both() -> None:
    """பொருள் at the start of a label: fontconfig draws ப in Grantha first, which lacks the
    vowel sign ொ: drawn apart, the sign was a box. Letter and sign go to Noto Sans Tamil."""
    from volley.output.font_fallback import _pieces

    for word in ("\u0baa\u0bca\u0bb0\u0bc1\u0bb3\u0bcd", "\u0baa\u0bcb", "\u0bb5\u0bbe"):
        assert "Grantha" not in _raster(f"{word} x"), word
        families = {family for family, _ in _pieces(word)}
        assert len(families) == 1 and "Grantha" not in str(families), (word, families)


@needs_arabic_and_tamil
def test_a_zero_width_non_joiner_is_shaped_with_its_persian_word() -> None:
    """می‌خواهم: Persian writes U+200C inside words; cairo drew it as a bar."""
    from volley.output.font_fallback import _pieces

    ((_, word),) = _pieces("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645")
    assert "\u200c" in word


def test_accents_typed_after_their_letters_are_composed_for_the_raster() -> None:
    """`e` + U+0301 (as macOS copies text): cairo put the lone accent beside its letter."""
    from volley.output.raster import _safe

    svg = volley.render("A -> B: Vie\u0323\u0302t \u0415\u0308", format="svg")
    drawn = _safe(svg).decode("utf-8")
    assert "Vi\u1ec7t \u0401" in drawn and "\u0301" not in drawn


def test_a_piece_in_a_family_drawn_plain_is_shaped_from_its_regular_face(monkeypatch) -> None:
    """A delay's label is italic: Arabic-Indic and Persian digits, ٪ and ، in a family with no
    italic face for them were shaped in its oblique face all the same, which drew its empty
    boxes in their place. They are shaped from the regular face, which has them, slanted and
    thickened as a browser makes the face (`made`)."""
    from volley.output import font_fallback

    asked: list[tuple[bool, bool, bool]] = []
    monkeypatch.setattr(
        font_fallback,
        "outlines",
        lambda family, piece, bold, italic, made=False: asked.append((bold, italic, made)),
    )
    measure = font_fallback._Measure(14.0, True, True, plain=frozenset({"Some Sans"}))
    font_fallback._glyphs("Some Sans", "\u0661\u0662", measure)
    font_fallback._glyphs("Other Sans", "\u0661\u0662", measure)
    assert asked == [(True, True, True), (True, True, False)]


@needs_arabic_and_tamil
def test_a_non_joiner_before_a_space_draws_nothing() -> None:
    """درخواست‌ پرداخت: a Persian word's non-joiner typed before the space; cairo drew DejaVu's
    sign for it, a bar."""
    assert _png("\u062f\u0631\u062e\u0648\u0627\u0633\u062a\u200c \u067e\u0631").tobytes() == (
        _png("\u062f\u0631\u062e\u0648\u0627\u0633\u062a \u067e\u0631").tobytes()
    )


@pytest.mark.parametrize("char", ["\u0c95", "\u0a97", "\u0d9a", "\u0e81", "\u0561", "\u10d0"])
def test_a_script_is_drawn_in_the_family_the_svg_names_for_it(char: str) -> None:
    """Kannada ಕ, Gujarati ગ, Sinhala ක, Lao ກ, Armenian ա, Georgian ა: a browser draws each in
    the first family the SVG's font-family names that has it, its Noto Sans; PNG and PDF drew
    them in fontconfig's first choice (Noto Serif, DejaVu Sans), another look."""
    from volley.layout.metrics_data import FALLBACK_FAMILIES
    from volley.output.font_fallback import family_for

    named = [family for family in FALLBACK_FAMILIES if _has_font(family, char)]
    if not named:
        pytest.skip("no Noto Sans font for the script installed")
    assert family_for(char) == named[0]


@pytest.mark.skipif(not _has_font("", "\u182a"), reason="no Mongolian font installed")
def test_the_mongolian_vowel_separator_is_drawn_with_the_letters_it_parts() -> None:
    """`ᠪᠠᠢᠨ᠎ᠠ`: the separator, a format character, was left to the diagram's face, which
    has no glyph for it: an empty box between its letters in the PNG and the PDF."""
    word = "\u182a\u1820\u1822\u1828\u180e\u1820"
    drawn = _raster(f"go {word}").partition("</desc>")[2]
    assert "\u180e" not in drawn  # shaped into the word's outline, not left to cairo's text
