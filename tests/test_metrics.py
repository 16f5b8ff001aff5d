"""Text measurement and wrapping: widths must be the fonts' own, and wrapping must hold them."""

from __future__ import annotations

import importlib.util
import subprocess
import unicodedata
from pathlib import Path

import pytest

from volley.layout import metrics
from volley.layout.metrics import line_height, text_width
from volley.layout.textwrap import (
    CODE_SCALE,
    break_units,
    measure_spans,
    span_width,
    wrap_spans,
)
from volley.text.inline import IconRef, Span, parse_inline

ROOT = Path(__file__).resolve().parent.parent


def font_file(pattern: str) -> Path | None:
    """The file fontconfig picks for `pattern` ("Liberation Sans:bold"), if it is that family
    (fontconfig falls back to another family when the one asked for is not installed)."""
    family = pattern.split(":")[0]
    try:
        found = subprocess.run(
            ["fc-match", "-f", "%{family}\t%{file}", pattern],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None
    families, _, file = found.partition("\t")
    return Path(file) if family in families.split(",") and file else None


def needs_font(pattern: str):
    return pytest.mark.skipif(
        font_file(pattern) is None, reason=f"fontconfig finds no {pattern} (fc-match)"
    )


def _font_width(pattern: str, text: str, size: float) -> float:
    from fontTools.ttLib import TTFont

    font = TTFont(font_file(pattern))
    cmap, hmtx, upem = font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm
    return sum(hmtx[cmap[ord(ch)]][0] for ch in text) * size / upem


# Advance widths of Arial / Liberation Sans in font units (2048 to the em).
@pytest.mark.parametrize(
    ("text", "units"), [("W", 1933), ("i", 455), ("m", 1706), (" ", 569), ("0123456789", 11390)]
)
def test_known_sans_widths(text: str, units: int) -> None:
    assert text_width(text, 2048) == pytest.approx(units, abs=len(text))


def test_relative_widths() -> None:
    assert text_width("W", 14) > text_width("i", 14)
    assert text_width("Hello", 14, bold=True) > text_width("Hello", 14)
    assert text_width("abc", 28) == pytest.approx(2 * text_width("abc", 14))
    assert text_width("", 14) == 0
    # Every character of the mono face has the same advance, 0.6 em.
    assert text_width("iiii", 10, mono=True) == pytest.approx(text_width("WWWW", 10, mono=True))
    assert text_width("iiii", 10, mono=True) == pytest.approx(24, abs=0.01)
    # Mono italic has the regular advances.
    assert text_width("x", 10, mono=True, italic=True) == text_width("x", 10, mono=True)


FACES = [
    ("Liberation Sans", {}),
    ("Liberation Sans:bold", {"bold": True}),
    ("Liberation Sans:italic", {"italic": True}),
    ("Liberation Sans:bold:italic", {"bold": True, "italic": True}),
    ("Liberation Mono", {"mono": True}),
    ("Liberation Mono:bold", {"mono": True, "bold": True}),
    ("Liberation Mono:italic", {"mono": True, "italic": True}),
    ("Liberation Mono:bold:italic", {"mono": True, "bold": True, "italic": True}),
]


@pytest.mark.parametrize(
    ("pattern", "style"), [pytest.param(*face, marks=needs_font(face[0])) for face in FACES]
)
def test_widths_match_font_files(pattern: str, style: dict) -> None:
    sample = "POST /mcp HTTP/1.1 — Größe: ½ € «Ωμέγα» Привет → ─┼─ ™ Łódź ǅ"
    expected = _font_width(pattern, sample, 1000)
    # Tables keep thousandths of an em: at most half a unit of rounding per character.
    assert text_width(sample, 1000, **style) == pytest.approx(expected, abs=0.5 * len(sample))


@needs_font("Liberation Sans")
@needs_font("Noto Sans Devanagari")
@needs_font("DejaVu Sans")
@needs_font("DejaVu Math TeX Gyre")
def test_generated_table_is_current() -> None:
    spec = importlib.util.spec_from_file_location("gen_metrics", ROOT / "scripts/gen_metrics.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    committed = (ROOT / "volley/layout/metrics_data.py").read_text(encoding="utf-8")
    font_dir = font_file("Liberation Sans").parent
    noto_dir = font_file("Noto Sans Devanagari").parent
    dejavu_dir = font_file("DejaVu Sans").parent
    assert module.render(font_dir, noto_dir, dejavu_dir) == committed, "run scripts/gen_metrics.py"


@needs_font("Noto Sans Devanagari")
@pytest.mark.parametrize(
    ("words", "family"),
    [
        ("नमस्ते दुनिया", "Noto Sans Devanagari"),
        ("বাংলা ভাষা", "Noto Sans Bengali"),
        ("தமிழ் மொழி", "Noto Sans Tamil"),  # wider than the Latin average: it overlapped
        ("สวัสดีครับ ภาษาไทย", "Noto Sans Thai"),
        ("ქართული ენა", "Noto Sans Georgian"),
        ("ሰላም ለዓለም", "Noto Sans Ethiopic"),
        ("السلام عليكم", "Noto Sans Arabic"),  # letters as wide as they are joined
        # vowel signs Unicode calls non-spacing but drawn beside their letter: they were
        # measured as taking no room
        ("కాఫీ తోట కొలత", "Noto Sans Telugu"),
        ("ಕೌಶಲ ಮೌನ ಬಂದಿದೆ", "Noto Sans Kannada"),
        ("കുറുക്കൻ", "Noto Sans Malayalam"),
        # a consonant after a coeng or a stacker is drawn under the one before it
        ("ខ្មែរ ស្រី ការឆ្លើយតប", "Noto Sans Khmer"),
        ("ကမ္ဘာ ကု", "Noto Sans Myanmar"),
    ],
)
def test_other_scripts_are_measured_near_what_their_fonts_draw(words: str, family: str) -> None:
    """Scripts Liberation lacks are measured with the widths of the fonts Linux, Android and
    ChromeOS draw them with (Noto Sans's, DejaVu Sans's where it is wider): within a quarter
    of the widest of them, shaped, never much narrower (a label measured narrower than it is
    drawn runs into what is beside it)."""
    drawn = _widest(family, words, bold=False)
    assert drawn * 0.97 <= text_width(words, 1000) <= drawn * 1.25


def _widest(family: str, words: str, *, bold: bool) -> float:
    """The widest of `family` and DejaVu Sans (if it has every letter) drawing the words."""
    from volley.output.shaping import text_font

    drawn = []
    for name in (family, "DejaVu Sans"):
        font = text_font(name, bold, False)
        assert font is not None
        if all(font.get_nominal_glyph(ord(ch)) for ch in words if not ch.isspace()):
            drawn.append(_shaped_width(font, words, 1000))
    return max(drawn)


@needs_font("Noto Sans Devanagari:bold")
@pytest.mark.parametrize(
    ("words", "family"),
    [("लॉगिन प्रक्रिया", "Noto Sans Devanagari"), ("عريض", "Noto Sans Arabic")],
)
def test_bold_in_other_scripts_is_measured_from_their_bold_faces(words: str, family: str) -> None:
    """A bold word set with the regular widths ran into the word after it."""
    drawn = _widest(family, words, bold=True)
    # Arabic's letters are measured at their joined forms' mean width: a word may come out a
    # few percent either side of its own
    assert drawn * 0.95 <= text_width(words, 1000, bold=True) <= drawn * 1.25


@needs_font("Noto Sans Devanagari")
@pytest.mark.parametrize(
    ("words", "family"),
    [
        ("प्रमाणीकरण सफल, स्वतंत्रता", "Noto Sans Devanagari"),
        ("স্বাধীনতা সংগ্রাম পরীক্ষা", "Noto Sans Bengali"),
        ("પ્રમાણીકરણ સફળ, સ્વતંત્રતા", "Noto Sans Gujarati"),
        ("ਪ੍ਰਮਾਣਿਕਤਾ ਸਫਲ", "Noto Sans Gurmukhi"),
        ("ଅନୁରୋଧ ପଠାନ୍ତୁ ସ୍ୱାଧୀନତା", "Noto Sans Oriya"),
        ("ప్రామాణీకరణ విజయవంతం", "Noto Sans Telugu"),
        ("ದೃಢೀಕರಣ ಯಶಸ್ವಿಯಾಗಿದೆ", "Noto Sans Kannada"),
        # Telugu's subjoined consonant reaches out beside the one above it; Kannada's RA that
        # starts a cluster is the small arkavattu after a whole consonant (overflowed boxes)
        ("సర్వర్ ద్వారం స్వాగతం", "Noto Sans Telugu"),
        ("ಧರ್ಮ ಪರ್ಯಾಯ ಕಾರ್ಯಾಲಯ", "Noto Sans Kannada"),
    ],
)
def test_conjuncts_are_measured_as_they_are_drawn(words: str, family: str) -> None:
    """A consonant before a virama and another consonant takes its half form, or the one after
    goes under it: measured letter by letter, such words came out a third to a half wider
    than drawn, their boxes half empty."""
    drawn = _widest(family, words, bold=False)
    assert drawn * 0.97 <= text_width(words, 1000) <= drawn * 1.1


def test_a_conjunct_is_of_one_script_and_passes_over_a_nukta() -> None:
    """A virama joins the letters of its own script only: Chinese after a Telugu virama is a
    letter of its own; a nukta on the first consonant (`ज़्य`) leaves it a half form."""
    assert text_width("క్中", 14) == text_width("క్", 14) + text_width("中", 14)
    assert text_width("ज़्यादा", 14) == text_width("ज्यादा", 14)


@needs_font("Noto Sans Arabic")
@needs_font("Noto Sans Syriac")
@pytest.mark.parametrize("bold", [False, True], ids=["regular", "bold"])
@pytest.mark.parametrize(
    ("words", "family"),
    [
        ("تحقق من التوقيع والصلاحية", "Noto Sans Arabic"),
        ("درخواست کاربر را به سرور بفرستید", "Noto Sans Arabic"),  # Persian
        ("سرور کو رسائی ٹوکن بھیجیں", "Noto Sans Arabic"),  # Urdu: was measured a quarter wider
        ("مُحَمَّد رَسُولُ", "Noto Sans Arabic"),  # vowel marks between joined letters
        ("ܫܠܡܐ ܥܠܡܐ ܡܫܝܚܐ", "Noto Sans Syriac"),
        ("ᠮᠣᠩᠭᠣᠯ ᠬᠡᠯᠡ ᠪᠢᠴᠢᠭ", "Noto Sans Mongolian"),  # was measured half as wide again
    ],
)
def test_joining_scripts_are_measured_in_the_forms_their_letters_take(
    words: str, family: str, bold: bool
) -> None:
    """Arabic's letters (and Syriac's, Mongolian's) take a first, inside or last form where
    they join a neighbour, up to half as wide as alone: each is measured in its own, so a label
    is as wide as it is drawn, with no gap after a bold word in a line of Arabic."""
    drawn = _widest(family, words, bold=bold)
    assert drawn * 0.95 <= text_width(words, 1000, bold=bold) <= drawn * 1.06


def test_what_parts_or_joins_arabic_letters_is_read_as_unicode_says() -> None:
    beh, alef = "\u0628", "\u0627"
    alone = text_width(beh, 1000)
    assert text_width(beh * 3, 1000) < 3 * alone  # joined, narrower
    assert text_width(f"{beh}\u200c{beh}", 1000) == 2 * alone  # a ZWNJ parts them
    assert text_width(f"{beh} {beh}", 1000) == 2 * alone + text_width(" ", 1000)
    # a mark between two letters does not part them; the alef joins only the letter before,
    # so the beh after it stands alone
    assert text_width(f"{beh}\u064e{beh}", 1000) == text_width(beh * 2, 1000)
    assert text_width(f"{beh}{alef}{beh}", 1000) == text_width(f"{beh}{alef}", 1000) + alone


def _shaped_width(font, text: str, size: float) -> float:
    import uharfbuzz as hb

    buffer = hb.Buffer()
    buffer.add_str(text)
    buffer.guess_segment_properties()
    hb.shape(font, buffer, {})
    return sum(p.x_advance for p in buffer.glyph_positions) * size / font.face.upem


@needs_font("Noto Sans Math")
@needs_font("DejaVu Math TeX Gyre")
@pytest.mark.parametrize("words", ["⟶⟶⟶ ⇶⇶ ⇒", "⊕⊗⊢⊨ ℝℕℤ ∮∯", "𝕳𝖊𝖑𝖑𝖔 𝓗𝓮𝓵𝓵𝓸 𝛼𝛽"])
def test_symbols_no_script_has_are_measured_as_wide_as_their_widest_font(words: str) -> None:
    """Arrows and mathematical signs and letters that Liberation lacks were measured as one
    average letter each, and a note of long arrows ran past its box by half its width:
    whichever font a system draws them with, they now have room."""
    from volley.output.shaping import text_font

    fonts = ("Noto Sans Math", "DejaVu Sans", "DejaVu Math TeX Gyre", "Noto Sans Symbols 2")
    drawn = []
    for name in fonts:
        font = text_font(name, False, False)
        if font is not None and all(font.get_nominal_glyph(ord(ch)) for ch in words.split()[0]):
            drawn.append(_shaped_width(font, words, 1000))
    assert drawn
    assert max(drawn) * 0.97 <= text_width(words, 1000) <= max(drawn) * 1.25


@needs_font("Noto Sans Arabic")
@pytest.mark.parametrize("bold", [False, True])
def test_the_basmala_is_measured_as_its_font_draws_it(bold: bool) -> None:
    """U+FDFD is one character 7.2 em wide (7.9 in bold), more than the packed tables' two
    digits hold: it was measured 4.1 em, and a name holding it ran into the next lane."""
    from volley.output.shaping import text_font

    font = text_font("Noto Sans Arabic", bold, False)
    assert font is not None
    assert text_width("\ufdfd", 1000, bold=bold) == pytest.approx(
        _shaped_width(font, "\ufdfd", 1000), rel=0.01
    )


def test_the_two_and_three_em_dashes_are_as_wide_as_their_names_say() -> None:
    assert text_width("\u2e3a", 10) == 20 and text_width("\u2e3b", 10) == 30


@needs_font("Noto Sans Mongolian")
def test_no_family_named_before_the_browsers_own_draws_chinese_or_japanese_punctuation() -> None:
    """Noto Sans Mongolian has 、 and 。, drawn for vertical Mongolian: named in the SVG's
    font list it drew every Chinese and Japanese comma and full stop askew in a browser."""
    from volley.layout.metrics_data import FALLBACK_FAMILIES
    from volley.output.shaping import text_font

    assert len(FALLBACK_FAMILIES) > 20
    for family in FALLBACK_FAMILIES:
        font = text_font(family, False, False)
        assert font is not None, family
        assert not any(font.get_nominal_glyph(cp) for cp in (0x3001, 0x3002)), family


def test_wide_characters_are_one_em_and_emoji_as_wide_as_emoji_fonts_draw_them() -> None:
    assert text_width("中", 20) == 20
    assert text_width("日本語", 10) == 30
    assert text_width("Ａ", 10) == 10  # fullwidth form
    assert text_width("한", 10) == 10
    assert text_width("😀", 20) == 25  # Noto Color Emoji's are 1.245 em
    assert text_width("🚀", 10, bold=True) == 12.5


def test_emoji_sequences_count_as_one() -> None:
    one = text_width("😀", 10)
    assert text_width("👨\u200d👩\u200d👧\u200d👦", 10) == pytest.approx(one)  # ZWJ family
    assert text_width("❤️\u200d🔥", 10) == pytest.approx(one)  # VS16 and ZWJ
    assert text_width("👍🏽", 10) == pytest.approx(one)  # skin tone modifier
    assert text_width("🇩🇪", 10) == pytest.approx(one)  # regional indicator pair
    assert text_width("🇩🇪🇫🇷", 10) == pytest.approx(2 * one)
    assert text_width("1️⃣", 10) == pytest.approx(one)  # keycap
    assert text_width("a😀b", 10) == pytest.approx(text_width("ab", 10) + one)


def test_marks_and_invisible_characters_take_no_room() -> None:
    assert text_width("e\u0301", 10) == pytest.approx(text_width("e", 10))
    assert text_width("a\u200bb", 10) == pytest.approx(text_width("ab", 10))
    assert text_width("\u200d\ufe0f", 10) == 0
    assert text_width("\u0300", 10) == 0


def test_unknown_characters_use_the_average_width() -> None:
    average = metrics._SANS["average"]
    assert text_width("\ua6a0", 10) == pytest.approx(average * 10)  # Bamum: in no table
    assert text_width("x\ua6a0", 10) == pytest.approx(text_width("x", 10) + average * 10)
    assert text_width("\u0915", 10) == pytest.approx(7.62)  # Devanagari KA, as Noto draws it


def test_constants() -> None:
    assert "Arial" in metrics.FONT_FAMILY and "Liberation Sans" in metrics.FONT_FAMILY
    assert metrics.MONO_FAMILY.startswith("'Liberation Mono'")
    assert abs(metrics.ASCENT - 1854 / 2048) < 1e-4
    assert abs(metrics.DESCENT - 434 / 2048) < 1e-4
    assert 0.6 < metrics.CAP_HEIGHT < metrics.ASCENT
    assert line_height(16) == pytest.approx(16 * metrics.LINE_HEIGHT)
    assert line_height(16) > 16 * (metrics.ASCENT + metrics.DESCENT)


def test_a_label_measures_as_the_sum_of_its_parts() -> None:
    """No kerning: a label is as wide wherever it is split, so wrapping never changes widths."""
    for label in ["POST /mcp (initialize)", "Größe → Łódź", "AVA To", "中文 and 😀 emoji"]:
        whole = text_width(label, 14)
        for cut in range(1, len(label)):
            parts = text_width(label[:cut], 14) + text_width(label[cut:], 14)
            assert parts == pytest.approx(whole, abs=1e-9), (label, cut)


# --- measuring spans -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "POST /mcp tools/call",
        "initialize (protocolVersion 2025-06-18)",
        '{"jsonrpc": "2.0", "id": 1}',
        "Authorization: Bearer <token>",
        "200 OK · text/event-stream",
    ],
)
def test_a_width_is_the_same_on_every_python(text: str) -> None:
    """A text's width is the exact sum of its letters' widths, whatever order they are added
    in: Python 3.12 changed how `sum` adds floats, and the last digit of a coordinate in the
    SVG moved with it, so one diagram gave different bytes on two machines."""
    spans = [Span(ch, bold=k % 2 == 1) for k, ch in enumerate(text)]  # a span a letter
    assert text_width(text, 13) == text_width(text[::-1], 13)
    assert measure_spans(spans, 13) == measure_spans(spans[::-1], 13)


def test_measure_spans_uses_each_style() -> None:
    spans = [Span("a "), Span("bold", bold=True), Span(" "), Span("code", code=True)]
    expected = (
        text_width("a ", 14)
        + text_width("bold", 14, bold=True)
        + text_width(" ", 14)
        + text_width("code", 14 * CODE_SCALE, mono=True)
    )
    assert measure_spans(spans, 14) == pytest.approx(expected)
    assert measure_spans([Span("code", code=True)], 14, mono_size=12) == pytest.approx(
        text_width("code", 12, mono=True)
    )


def test_icon_width_follows_the_viewbox() -> None:
    plug = Span("", icon=IconRef("fas", "plug", 1.0, "{fas-plug}"))  # viewBox 384 x 512
    assert span_width(plug, 16) == pytest.approx(16 * 384 / 512)
    big = Span("", icon=IconRef("fas", "plug", 2.0, "{fas-plug fa-2x}"))
    assert span_width(big, 16) == pytest.approx(2 * 16 * 384 / 512)
    missing = Span("", icon=IconRef("fas", "no-such-icon", 1.0, "{fas-no-such-icon}"))
    assert span_width(missing, 16) == pytest.approx(16)


# --- wrapping --------------------------------------------------------------------------------


def _texts(lines) -> list[str]:
    return ["".join(span.text for span in line.spans) for line in lines]


def test_short_line_is_not_wrapped() -> None:
    [line] = wrap_spans(parse_inline("Agent -> **Server**"), 500, 14)
    assert line.width == pytest.approx(measure_spans(line.spans, 14))
    assert [span.bold for span in line.spans] == [False, True]


def test_wraps_at_spaces_within_the_width() -> None:
    text = "the quick brown fox jumps over the lazy dog " * 3
    lines = wrap_spans(parse_inline(text.strip()), 120, 14)
    assert len(lines) > 2
    for line in lines:
        assert line.width <= 120
        assert line.width == pytest.approx(measure_spans(line.spans, 14))
        assert not _texts([line])[0].startswith(" ") and not _texts([line])[0].endswith(" ")
    assert " ".join(_texts(lines)) == text.strip()


def test_styles_survive_wrapping() -> None:
    lines = wrap_spans(parse_inline("plain words then **bold words here** and `code`"), 90, 14)
    bold = [span.text for line in lines for span in line.spans if span.bold]
    assert " ".join(bold).split() == ["bold", "words", "here"]
    assert [span.text for line in lines for span in line.spans if span.code] == ["code"]


def test_long_token_breaks_between_characters() -> None:
    url = "https://example.com/" + "abcdefghij" * 10
    lines = wrap_spans(parse_inline(f"see {url}"), 100, 14)
    assert _texts(lines)[0] == "see"
    assert "".join(_texts(lines)[1:]) == url
    assert all(line.width <= 100 for line in lines)


def test_a_long_token_breaks_after_a_dot_or_slash_of_a_full_enough_line() -> None:
    host = "ec2-203-0-113-25.compute-1.amazonaws.example.internal.corp"
    lines = wrap_spans([[Span(host)]], 150, 14)
    texts = _texts(lines)
    assert "".join(texts) == host and len(texts) > 1
    assert all(text[-1] in "./-" for text in texts[:-1])
    assert all(line.width >= 75 for line in lines[:-1])  # half full at least
    assert all(line.width <= 150 for line in lines)


def test_a_token_without_a_break_character_late_enough_breaks_where_the_line_is_full() -> None:
    token = "a." + "b" * 60  # a dot, but too early: the line would be nearly empty
    lines = wrap_spans([[Span(token)]], 150, 14)
    assert _texts(lines)[0] != "a."
    assert "".join(_texts(lines)) == token


@pytest.mark.parametrize("width", [74, 146, 148, 150, 200])
def test_a_line_broken_inside_a_word_never_starts_with_the_dot_it_breaks_after(width) -> None:
    token = "a" * 20 + "." + "b" * 41 + "." + "c" * 20
    lines = _texts(wrap_spans([[Span(token)]], width, 13))
    assert "".join(lines) == token
    assert not any(line.startswith(".") for line in lines), lines


def test_chinese_and_japanese_break_between_characters_but_not_before_closing_marks() -> None:
    text = "サーバーは認証を行いトークンを返します。「ユーザー」の情報（名前）を確認します。" * 3
    lines = wrap_spans([[Span(text)]], 200, 14)
    texts = _texts(lines)
    assert "".join(texts) == text and len(texts) > 3
    assert all(line.width <= 200 for line in lines)
    assert not any(t[0] in "ー。、」）ッュ" for t in texts[1:])  # kinsoku: never starts a line
    assert not any(t[-1] in "「（" for t in texts)  # nor ends one
    assert break_units("hello-world.example") == ["hello-world.example"]  # no CJK: one unit
    assert break_units("用户（名前）") == ["用", "户", "（名", "前）"]


def test_thai_wraps_between_words() -> None:
    """Thai has no spaces between words: a line breaks between two words, never inside one
    (ดำเนินการ, "to proceed", was cut after its first syllable)."""
    words = ["ระบบ", "จะ", "ตรวจสอบ", "ข้อมูล", "ที่", "ได้รับ", "ก่อน", "ที่", "จะ", "ดำเนินการ"]
    text = "".join(words) * 2
    lines = wrap_spans([[Span(text)]], 260, 14)
    texts = _texts(lines)
    assert "".join(texts) == text and len(texts) > 2
    assert all(line.width <= 260 for line in lines)
    for before, after in zip(texts, texts[1:], strict=False):
        assert not (before.endswith("ดำ") and after.startswith("เนิน")), texts
    assert break_units("ก่อนที่จะดำเนินการ")[-2:] == ["ดำเนิน", "การ"]
    assert break_units("token=abc") == ["token=abc"]


def test_a_cluster_is_never_split() -> None:
    family = "👨\u200d👩\u200d👧"
    lines = wrap_spans([[Span(family * 6)]], 25, 10)
    assert all(text.count("\u200d") % 2 == 0 for text in _texts(lines))
    assert "".join(_texts(lines)) == family * 6


@pytest.mark.parametrize(
    "word",
    ["क्षत्रिय", "किकिकि", "กำลังกำ", "\u1100\u1161\u11a8" * 3, "🇯🇵👍🏽1️⃣", "cafe\u0301"],
)
def test_a_break_inside_a_word_never_splits_a_letter(word: str) -> None:
    """Marks and spacing vowel signs stay with their base, a consonant after a virama with
    the conjunct it makes, Hangul jamo with their syllable, emoji sequences whole."""
    text = word * 8
    lines = wrap_spans([[Span(text)]], 40, 14)
    texts = _texts(lines)
    assert "".join(texts) == text and len(texts) > 1
    for piece in texts[1:]:
        first = piece[0]
        assert unicodedata.category(first)[0] != "M", (piece, texts)
        assert first not in "\u0e33\u1161\u11a8\U0001f3fd\ufe0f\u20e3\U0001f1f5"
    assert all(unicodedata.combining(t[-1]) != 9 for t in texts)  # nor ends inside a conjunct


def test_each_line_gets_at_least_one_character() -> None:
    lines = wrap_spans([[Span("WWW")]], 1, 14)
    assert _texts(lines) == ["W", "W", "W"]


def test_breaks_and_empty_lines_are_kept() -> None:
    lines = wrap_spans(parse_inline(r"one\n\ntwo"), 200, 14)
    assert _texts(lines) == ["one", "", "two"]
    assert lines[1].width == 0


def test_long_texts_wrap_into_full_lines() -> None:
    words = ("word " * 20_000).strip()
    lines = wrap_spans(parse_inline(words), 300, 14)
    assert " ".join(_texts(lines)) == words
    assert all(line.width <= 300 for line in lines)
    per_line = len(_texts(lines)[0].split())  # every line but the last as full as the first
    assert all(len(text.split()) == per_line for text in _texts(lines)[:-1])
    assert text_width("word " * per_line + "word", 14) > 300
    letters = wrap_spans([[Span("x" * 50_000)]], 300, 14)
    assert "".join(_texts(letters)) == "x" * 50_000
    assert all(300 - text_width("x", 14) < line.width <= 300 for line in letters[:-1])


def test_threads_measuring_fresh_characters_agree() -> None:
    """Width tables decode a run of characters on first use; a thread that meets the run while
    another decodes it must still get the font's width, not the estimate for unknown glyphs."""
    import sys
    import threading

    text = "".join(chr(c) for c in range(0xA1, 0x24F))  # Latin-1 and Latin Extended
    expected = [text_width(ch, 14) for ch in text]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        for _ in range(5):
            metrics._tables.clear()  # as a fresh process: no run decoded yet
            metrics.measurer.cache_clear()  # (nor a measurer holding a table)
            results: list[list[float]] = []

            def measure(into: list[list[float]] = results) -> None:
                into.append([text_width(c, 14) for c in text])

            threads = [threading.Thread(target=measure) for _ in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert len(results) == 8
            assert all(result == expected for result in results)
    finally:
        sys.setswitchinterval(interval)


def test_khmer_lao_and_myanmar_wrap_at_their_zero_width_spaces() -> None:
    """They are written without spaces; a zero-width space marks a word's end, where a line may
    break (it was drawn as an escape, and no line broke there)."""
    words = ["ភាសា", "ខ្មែរ", "មាន", "ដក", "ឃ្លា", "តិច", "ណាស់"] * 4
    text = "\u200b".join(words)
    texts = _texts(wrap_spans([[Span(text)]], 150, 14))
    assert "".join(texts) == text and len(texts) > 2
    assert all(t.replace("\u200b", "") in "".join(words) and t[0] != "\u200b" for t in texts)
    for line in texts[:-1]:
        assert line.endswith("\u200b")  # each break at a word's end
    assert break_units("ສະບາຍ\u200bດີ") == ["ສະບາຍ\u200b", "ດີ"]


def test_a_syllable_keeps_its_final_and_its_following_vowel() -> None:
    """Myanmar's final consonant, killed by asat, ends the syllable before it (`လုပ်`, not
    `လု|ပ်`); Thai's and Lao's vowels written after their consonant (າ ະ า ะ) never start a
    line."""
    from volley.layout.textwrap import clusters as split_clusters

    assert split_clusters("လုပ်ဆောင်") == ["လုပ်", "ဆောင်"]
    assert split_clusters("ສະບາ") == ["ສະ", "ບາ"] and split_clusters("กะปา") == ["กะ", "ปา"]
    assert split_clusters("မြန်မာ") == ["မြန်", "မာ"]
    assert split_clusters("ကြည့်သင့်") == ["ကြည့်", "သင့်"]  # the dot below before the asat


@pytest.mark.parametrize("letter", ["\u0f40", "\u1a20", "\u1980"])  # Tibetan, Tai Tham, New Tai Lue
def test_tibetan_tai_tham_and_new_tai_lue_letters_are_measured_from_their_fonts(letter) -> None:
    """They were given the average letter's width, about four fifths of what their fonts draw:
    a long word ran past its arrow, a name out of its box."""
    from volley.layout.metrics import _table

    for table in ("fallback", "fallback-bold"):
        assert _table(table).width(letter) is not None
    assert text_width(letter * 10, 10) > text_width("a" * 10, 10) * 1.15


def test_a_tai_tham_consonant_after_sakot_is_measured_as_written() -> None:
    """ᨸ᩠ᨸ: in Noto's font a third of the consonants after the sakot take room beside the one
    before; measured as none, a name ran out of its box."""
    assert text_width("\u1a38\u1a60\u1a38", 10) >= text_width("\u1a38\u1a38", 10)


@pytest.mark.parametrize(("text", "em"), [("\U00013000", 0.9), ("\U00012038", 1.05)])
def test_hieroglyphs_and_cuneiform_are_measured_as_noto_draws_them(text: str, em: float) -> None:
    """Egyptian hieroglyphs and cuneiform were given an average letter's width, about half of
    what is drawn: names and notes spilled out of their boxes and off the picture."""
    from volley.layout.metrics import text_width

    assert text_width(text, 100) == pytest.approx(100 * em, abs=3)


def test_a_symbol_that_is_no_emoji_is_measured_as_text_is_drawn():
    """✓, ★ and ⌘ stand in the blocks where some symbols are emoji, and were measured as wide
    as a colour emoji (1.25 em); no emoji font has them, a text font draws them, narrower: a
    code span holding ✓ had empty tint after it. The emoji there (✅, ✔, ⭐) keep an emoji's
    room."""
    from volley.layout.metrics import EMOJI_EM, is_emoji

    assert not any(is_emoji(ord(ch)) for ch in "✓✗★⌘➜☐")
    assert all(is_emoji(ord(ch)) for ch in "✅✔⭐⌛☎❤➡")
    # and one drawn as emoji by default beyond those blocks (◽, geometric shapes) too
    assert is_emoji(0x25FD)
    assert text_width("✓", 14) < EMOJI_EM * 14 == text_width("✅", 14)
