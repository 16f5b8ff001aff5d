"""PNG and PDF draw Hebrew and Arabic as a browser draws the SVG: right to left, Arabic joined.

cairo draws text in the order it is stored, one glyph per character; volley hands it each
run of right-to-left text already in the order it is seen in. The pictures are compared with
the ones cairo draws, without that step, for the same letters typed in visual order: equal
only if volley turned the text round exactly.
"""

from __future__ import annotations

import html
import io
import re
import shutil
import subprocess
import unicodedata
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

import volley
from volley.api import layout
from volley.output import font_fallback, raster
from volley.output.rtl import marks_before_letters, visual_order
from volley.output.svg import render_svg

from .test_font_fallback import _has_font

needs_arabic = pytest.mark.skipif(
    not _has_font("", "\ufe8e"), reason="no font with Arabic's joined letter forms installed"
)


def _svgs(source: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The SVG made for a PNG of `source`, and the SVG cairo is given: after font fallback."""
    seen: list[tuple[str, str]] = []

    def recorded(svg: str) -> str:
        seen.append((svg, font_fallback.with_fallback_fonts(svg)))
        return seen[-1][1]

    monkeypatch.setattr(raster, "with_fallback_fonts", recorded)
    volley.render(source, format="png")
    (made_and_drawn,) = seen
    return made_and_drawn


def _drawn_svg(source: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The SVG as cairo is given it, for a PNG of `source`."""
    return _svgs(source, monkeypatch)[1]


def _drawn_label(label: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The text cairo is given for a message's label: its `<text>` leaves, tags taken out."""
    svg = _drawn_svg(f"A -> B: {label}", monkeypatch)
    (text,) = re.findall(r'<text class="label[^>]*>(.*?)</text>', svg)
    return html.unescape(re.sub(r"<[^>]*>", "", text))


def _without_reordering(monkeypatch: pytest.MonkeyPatch) -> None:
    """cairo drawing text as it is stored, as PNG and PDF did before right-to-left support."""
    monkeypatch.setattr(font_fallback, "has_right_to_left", lambda text: False)


def test_hebrew_is_handed_to_cairo_in_visual_order(monkeypatch):
    assert _drawn_label("שלום עולם", monkeypatch) == "םלוע םולש"


def test_an_all_hebrew_title_reads_right_to_left(monkeypatch):
    svg = _drawn_svg("title: שלום עולם!\nA -> B: hi", monkeypatch)
    # A Hebrew paragraph reads right to left: the "!" it ends with stands at its left end, as
    # the browser draws the SVG (whose text carries the paragraph's direction).
    assert ">!םלוע םולש</text>" in svg


def test_code_keeps_its_tokens_in_order_each_string_reading_its_own_way(monkeypatch):
    """Code reads left to right, as in an editor and the panel's raw view: each Hebrew string
    is turned in its place, the keys before their values (the whole run between the braces
    was turned, values before keys), and a label of code alone is no right-to-left
    paragraph (its braces were mirrored)."""
    code = '{"שם": "דוד", "עיר": "חיפה"}'
    made, _ = _svgs(f"A -> B: `{code}`\nnote A:\n```json\n{code}\n```\n", monkeypatch)
    isolated = (
        '\u2066{"\u2068שם\u2069": "\u2068דוד\u2069", "\u2068עיר\u2069": "\u2068חיפה\u2069"}\u2069'
    )
    assert html.unescape(made).count(isolated) == 2  # the label and the note's line
    assert _drawn_label(f"`{code}`", monkeypatch) == '{"םש": "דוד", "ריע": "הפיח"}'


def test_right_to_left_words_in_code_read_as_one_phrase(monkeypatch):
    """A code span's Hebrew words with only spaces between them were each set apart in its
    place, left to right, so that read from the right they came last word first; an editor
    reads them as one phrase. Quoted strings stay apart, each in its place."""
    assert _drawn_label("`# הערה בעברית כאן`", monkeypatch) == "# ןאכ תירבעב הרעה"
    assert _drawn_label('`"שם" "דוד"`', monkeypatch) == '"םש" "דוד"'


@needs_arabic
def test_italic_arabic_is_slanted_as_a_browser_slants_it(monkeypatch):
    """Arabic's fonts have no italic face: a browser slants the upright one, and so did PNG
    for Devanagari and Thai (shaped by HarfBuzz), but cairo drew Arabic upright, so an
    italic word, or a quote in a right-to-left note, lost its style in PNG and PDF. It is
    drawn from HarfBuzz's slanted outlines now; upright Arabic stays cairo's text."""
    italic = _drawn_svg("A -> B: *عربي مائل* x", monkeypatch)
    upright = _drawn_svg("A -> B: عربي مائل x", monkeypatch)
    assert "\ufe8e" in upright and "\ufe8e" not in italic  # ALEF's final form: as text
    assert italic.count("<path d=") > upright.count("<path d=")


@needs_arabic
def test_arabic_is_joined_and_reversed(monkeypatch):
    drawn = _drawn_label("مرحبا", monkeypatch)
    assert [unicodedata.name(ch) for ch in drawn] == [
        "ARABIC LETTER ALEF FINAL FORM",
        "ARABIC LETTER BEH MEDIAL FORM",
        "ARABIC LETTER HAH INITIAL FORM",
        "ARABIC LETTER REH FINAL FORM",
        "ARABIC LETTER MEEM INITIAL FORM",
    ]


@needs_arabic
def test_an_english_label_keeps_its_order_around_an_arabic_word(monkeypatch):
    drawn = _drawn_label("GET /users for مرحبا now", monkeypatch)
    assert drawn == "GET /users for \ufe8e\ufe92\ufea3\ufeae\ufee3 now"


@needs_arabic
def test_a_full_stop_after_a_styled_arabic_stretch_ends_the_line():
    """`Total **المبلغ** المطلوب 2024.`: the full stop reads with the paragraph's end, at the
    right, as a browser puts it; it went with its run to the Arabic stretch's left end."""
    svg = volley.render("A -> B: Total **المبلغ** المطلوب 2024.\n")
    label = re.search(r'<text class="label[^>]*>(.*?)</text>', svg, re.S)[1]
    runs = {
        html.unescape(t): float(x)
        for x, t in re.findall(r'<tspan x="([\d.]+)"[^>]*>([^<]*)<', label)
    }
    assert max(runs, key=runs.get).strip() == "."


def test_a_mark_ending_a_right_to_left_word_stays_on_its_letter():
    """`قُلْ **هُوَ** أَحَدٌ`: the mark ending the last word was cut off as a piece of its own
    (signs after the last letter), drawn as a box in PNG and apart from its word in SVG."""
    for label, last in (("قُلْ **هُوَ** أَحَدٌ", "أَحَدٌ"), ("**שָׁלוֹם** לְךָ", "לְךָ")):
        svg = volley.render(f"A -> B: {label}\n")
        drawn = re.search(r'<text class="label[^>]*>(.*?)</text>', svg, re.S)[1]
        found = re.findall(r"<tspan[^>]*>([^<]*)<", drawn)
        pieces = [html.unescape(t).strip(" \u2067\u2068\u2069") for t in found]  # less isolates
        assert last in pieces, pieces
        assert all(any(unicodedata.category(c)[0] == "L" for c in p) for p in pieces if p)


def test_brackets_and_numbers_in_arabic_read_as_in_a_browser(monkeypatch):
    # The number keeps its digits' order; the brackets, turned round, are drawn mirrored.
    assert _drawn_label("مرحبا (42)", monkeypatch) == "(42) \ufe8e\ufe92\ufea3\ufeae\ufee3"


def test_markup_characters_in_right_to_left_text_survive(monkeypatch):
    svg = _drawn_svg("A -> B: שלום & <b> \"x\" 'y'", monkeypatch)
    ET.fromstring(svg)  # still well-formed: every entity escaped whole
    (text,) = re.findall(r'<text class="label[^>]*>(.*?)</text>', svg)
    drawn = html.unescape(re.sub(r"<[^>]*>", "", text))
    # A paragraph that starts in Hebrew reads right to left: the English stretch `b> "x" 'y`
    # keeps its order at the left, the `<` between the two directions reads with the
    # paragraph (drawn mirrored), and so does the closing quote at its end.
    assert drawn == "'b> \"x\" 'y> & םולש"


def test_text_without_right_to_left_letters_is_left_alone(monkeypatch):
    made, drawn = _svgs("title: Dépôt café\nA -> B: naïve <ok> & ünïcode", monkeypatch)
    assert drawn == made


@needs_arabic
def test_joined_arabic_still_gets_a_font_that_has_it(monkeypatch):
    # The diagram's face (Liberation Sans) has no Arabic; the joined forms go to one that does.
    svg = _drawn_svg("A -> B: مرحبا", monkeypatch)
    assert re.search(r'<tspan font-family="[^"]+">\ufe8e\ufe92\ufea3\ufeae\ufee3</tspan>', svg)


def _png(source: str) -> bytes:
    return volley.render(source, format="png", scale=2)


def test_a_hebrew_png_is_the_picture_of_its_letters_in_visual_order(monkeypatch):
    drawn = _png("A -> B: שלום עולם")
    typed_reversed = _png("A -> B: םלוע םולש")
    assert drawn != typed_reversed, "the order of the letters shows in the picture"
    _without_reordering(monkeypatch)
    assert drawn == _png("A -> B: םלוע םולש")


def test_a_hebrew_pdf_is_the_page_of_its_letters_in_visual_order(monkeypatch):
    def page(source: str) -> bytes:  # (the document's title is the text as written)
        return re.sub(rb"/Title <[0-9A-F]*>", b"", volley.render(source, format="pdf"))

    drawn = page("title: שלום עולם\nA -> B: מה נשמע")
    _without_reordering(monkeypatch)
    assert drawn == page("title: םלוע םולש\nA -> B: עמשנ המ")


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler) not installed")
def test_a_hebrew_pdf_draws_as_its_letters_in_visual_order(monkeypatch, tmp_path):
    def page(source: str) -> bytes:
        pdf = tmp_path / "page.pdf"
        pdf.write_bytes(volley.render(source, format="pdf"))
        out = subprocess.run(["pdftoppm", "-r", "96", "-png", str(pdf)], capture_output=True)
        return Image.open(io.BytesIO(out.stdout)).convert("RGB").tobytes()

    drawn = page("A -> B: שלום")
    assert drawn != page("A -> B: םולש")
    _without_reordering(monkeypatch)
    assert drawn == page("A -> B: םולש")


def _title_columns(source: str) -> list[bytes]:
    """Each column of pixels at the top of the picture, where only the title is drawn."""
    image = Image.open(io.BytesIO(_png(source))).convert("L")
    return [image.crop((x, 0, x + 1, 2 * 60)).tobytes() for x in range(image.width)]


@needs_arabic
def test_arabic_vowel_marks_are_drawn_over_the_word_not_beside_it():
    # cairo draws a mark where the font's outline puts it: after or before its letter,
    # whichever side that font draws it on, or it lands past the end of the word.
    with_marks = _title_columns("title: شَدَّة\nA -> B: x")
    without = _title_columns("title: شدة\nA -> B: x")
    word = [x for x, column in enumerate(without) if min(column) < 128]
    assert with_marks != without, "the marks are drawn"
    inked = [x for x, column in enumerate(with_marks) if min(column) < 128]
    assert word[0] <= inked[0] and inked[-1] <= word[-1]


def _title_ink(source: str) -> list[tuple[int, int]]:
    """The (x, y) of every inked pixel at the top of the picture, where only the title is."""
    image = Image.open(io.BytesIO(_png(source))).convert("L")
    image = image.crop((0, 0, image.width, 2 * 60))
    pixels = image.load()
    return [(x, y) for x in range(image.width) for y in range(image.height) if pixels[x, y] < 160]


def test_a_hebrew_point_is_drawn_under_its_letter():
    """cairo drew a point from where the letter before it ends, between two letters: the
    font's own placing (HarfBuzz's) puts the qamats of "שָל" under the shin, which is drawn
    on the right."""
    plain = _title_ink("title: של\nA -> B: x")
    xs = [x for x, _ in plain]
    left, right, baseline = min(xs), max(xs), max(y for _, y in plain)
    below = [x for x, y in _title_ink("title: שָל\nA -> B: x") if y > baseline]
    assert below, "the point is drawn"
    middle = (min(below) + max(below)) / 2
    assert left + 0.5 * (right - left) < middle < left + 0.9 * (right - left)


def test_a_mark_no_letter_is_composed_with_is_drawn_over_its_letter():
    """Left to right too: cairo drew the diaeresis of "n̈" (Jacaltec, Malagasy) beside the n,
    HarfBuzz centres it over it, as a browser does."""
    letter = _title_ink("title: n\nA -> B: x")
    top = min(y for _, y in letter)
    above = [x for x, y in _title_ink("title: n\u0308\nA -> B: x") if y < top]
    assert above, "the mark is drawn"
    xs = [x for x, _ in letter]
    assert min(xs) <= min(above) and max(above) <= max(xs)


@pytest.mark.parametrize(
    ("word", "family"), [("ܫܠܡܐ", "Noto Sans Syriac"), ("ߞߊ߲ߜߊ", "Noto Sans NKo")]
)
def test_syriac_and_nko_letters_are_drawn_joined(word: str, family: str):
    """Scripts that join as Arabic does, which arabic-reshaper does not know: shaped by their
    font, a word is one stroke with no blank column inside it."""
    if not _has_font(family, word[0]):
        pytest.skip(f"no {family}")
    columns = sorted({x for x, _ in _title_ink(f"title: {word}\nA -> B: x")})
    assert columns[-1] - columns[0] + 1 == len(columns)


def test_marks_stay_on_their_letter():
    # Hebrew points come after their letter, in the order written, whatever the reversal did.
    shin, shin_dot, qamats = "\u05e9", "\u05c1", "\u05b8"
    word = f"{shin}{shin_dot}{qamats}\u05dc"  # "שָׁל"
    assert visual_order(word, lambda ch: True) == f"\u05dc{shin}{shin_dot}{qamats}"


def test_marks_a_font_draws_forward_go_before_their_letter():
    text = "\u05dc\u05e9\u05c1\u05b8"  # lamed, then shin with its two points
    assert marks_before_letters(text, lambda mark: True) == "\u05dc\u05c1\u05b8\u05e9"
    assert marks_before_letters(text, lambda mark: False) == text
    # A mark on a left-to-right letter is never moved.
    assert marks_before_letters("e\u0301", lambda mark: True) == "e\u0301"


def test_png_of_right_to_left_text_is_deterministic():
    source = "title: שלום\nA -> خادم: مرحبا (1) & <x>"
    assert _png(source) == _png(source)


def test_arabic_stays_unjoined_where_no_font_has_the_joined_forms():
    # Unjoined letters, still right to left, read better than empty boxes.
    assert visual_order("مرحبا", lambda ch: not 0xFB50 <= ord(ch) <= 0xFEFF) == "ابحرم"


def test_an_appendix_heading_between_right_to_left_names_runs_from_sender_to_receiver(
    monkeypatch,
):
    """Each name is isolated (FSI … PDI) from the arrow, and each is a run of its own, drawn
    right to left (RLI … PDI): in the SVG a browser does the rest; for cairo the text is put in
    visual order and the isolates, which it would draw as boxes, are left out."""
    source = "המשתמש -> השרת: בקשה\nin: Request\n  a: 1\n"
    svg = volley.render(source, format="svg", bodies="appendix")
    spans = re.findall(r'<tspan x="([\d.]+)"[^>]*>([^<]*)<', svg)
    placed = {text: float(x) for x, text in spans}
    assert placed["\u2067המשתמש\u2069"] < placed["→"] < placed["\u2067השרת\u2069"]
    drawn: list[str] = []

    def recorded(svg: str) -> str:
        drawn.append(font_fallback.with_fallback_fonts(svg))
        return drawn[-1]

    monkeypatch.setattr(raster, "with_fallback_fonts", recorded)
    volley.render(source, format="png", bodies="appendix")
    (cairo_svg,) = drawn
    assert not re.search("[\u2066-\u2069]", cairo_svg)
    heading = next(line for line in cairo_svg.split("\n") if "→" in line and "Request" in line)
    sender, receiver = "המשתמש"[::-1], "השרת"[::-1]  # each name's letters, right to left
    assert heading.index(sender) < heading.index("→") < heading.index(receiver)


@needs_arabic
def test_a_right_aligned_arabic_line_ends_where_the_browser_ends_it() -> None:
    """A right-to-left note line is drawn from the point it is aligned on. Its Arabic letters
    come from a fallback font whose widths are not the layout's, and cairosvg anchors a text
    by its first piece alone: the raster path measures the pieces and starts the line so that
    it ends there (it ended about 25 px short, each line of a note at another place)."""
    source = "A -> B: hi there friend\nnote A, B: مرحبا بالعالم\n"
    diagram = volley.parse(source)
    svg = render_svg(layout(diagram), diagram, id_prefix="v", raster=True)
    end = float(re.search(r'class="note-text[^>]*x="([0-9.]+)"[^>]*text-anchor="end"', svg)[1])
    drawn = font_fallback.with_fallback_fonts(svg)
    assert "text-anchor" not in re.search(r'<text class="note-text[^>]*>', drawn)[0]
    image = Image.open(io.BytesIO(volley.render(source, format="png"))).convert("L")
    note = re.search(r'class="paper[^"]*" d="M([0-9.]+) ([0-9.]+)', svg)
    top = int(float(note[2]))
    inked = [
        x
        for x in range(int(float(note[1])), image.width)
        for y in range(top + 8, top + 30)
        if image.getpixel((x, y)) < 100
    ]
    assert abs(max(inked) - end) <= 2


@pytest.mark.skipif(
    not font_fallback.family_for("\u0710"), reason="needs a font with Syriac letters"
)
def test_a_right_aligned_syriac_line_is_placed_by_its_joined_width() -> None:
    """Syriac joined is narrower than its letters apart: the line was placed by cairo's width
    of the letters and drawn as its shaped outlines, so it ran out of its note to the left."""
    source = "participant A\nparticipant B\nnote A: ܐܢܐ ܟܬܒܬ ܗܕܐ ܟܬܒܐ ܒܠܫܢܐ ܣܘܪܝܝܐ\n"
    diagram = volley.parse(source)
    svg = render_svg(layout(diagram), diagram, id_prefix="v", raster=True)
    end = float(re.search(r'class="note-text[^>]*x="([0-9.]+)"[^>]*text-anchor="end"', svg)[1])
    note = re.search(r'class="paper[^"]*" d="M([0-9.]+) ([0-9.]+)', svg)
    left, top = float(note[1]), int(float(note[2]))
    image = Image.open(io.BytesIO(volley.render(source, format="png"))).convert("L")
    inked = [
        x
        for x in range(0, image.width)
        for y in range(top + 8, top + 30)
        if image.getpixel((x, y)) < 100
    ]
    assert min(inked) > left and abs(max(inked) - end) <= 3


@needs_arabic
def test_the_runs_of_a_wrapped_mixed_arabic_line_stand_a_space_apart() -> None:
    """A right-to-left line of several runs (English words in an Arabic note, on a line of
    their own after wrapping): each run is drawn from its right end, where the run read before
    it ends. Drawn from its left, a joined Arabic run narrower than measured left three or
    four spaces between it and the English words, in the PNG and in Chromium alike."""
    source = (
        "participant U\nparticipant G\nU -> G: x\n"
        "note G: هذا ملاحظة طويلة باللغة العربية تحتوي على English words في المنتصف وأرقام 123\n"
    )
    diagram = volley.parse(source)
    svg = render_svg(layout(diagram), diagram, id_prefix="v")
    (baseline_text,) = re.findall(r'<tspan x="[0-9.]+" y="([0-9.]+)" [^>]*>English', svg)
    baseline = float(baseline_text)
    image = Image.open(io.BytesIO(volley.render(source, format="png", scale=2))).convert("L")
    band = range(int(2 * (baseline - 11)), int(2 * (baseline + 3)))
    inked = [x for x in range(image.width) if any(image.getpixel((x, y)) < 100 for y in band)]
    gaps = [b - a for a, b in zip(inked, inked[1:], strict=False) if b - a > 1]
    space = 2 * 13 * 0.28  # a space at the note's 13 px, twice over
    assert max(gaps) < 2 * space, gaps
