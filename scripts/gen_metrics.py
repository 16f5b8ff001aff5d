"""Write volley/layout/metrics_data.py from the Liberation fonts, and Noto's for other scripts.

Layout measures text with these tables instead of reading fonts at render time, so a diagram
lays out the same on every machine. Liberation Sans has Arial's advance widths, which is why
the SVG can name Arial first and still match what was measured. For the scripts Liberation
lacks (Indic, Southeast Asian, Arabic, Georgian, Ethiopic ...), the "fallback" table holds the
advances of Noto Sans's font for each, or DejaVu Sans's where wider ("fallback-bold", their
bold faces'), which is what Linux, Android and ChromeOS draw them with: closer to any
system's font for them than one average width for every character.

Usage: python scripts/gen_metrics.py [FONT_DIR [NOTO_DIR [DEJAVU_DIR]]]
(Noto: Debian's fonts-noto-core; DejaVu: fonts-dejavu-core)
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Mapping
from itertools import takewhile
from pathlib import Path
from statistics import fmean

import uharfbuzz as hb
from fontTools.ttLib import TTFont

FONT_DIR = Path("/usr/share/fonts/truetype/liberation2")
NOTO_DIR = Path("/usr/share/fonts/truetype/noto")
# DejaVu Sans, which fontconfig puts before Noto for some of those scripts (Arabic, Armenian,
# Georgian ...) on Linux: a letter both have gets the wider of the two, never too little room.
DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
# Noto Sans fonts for the living scripts Liberation Sans lacks, each NotoSans<name>-Regular.ttf
# (or NotoSerif<name>, for Tibetan, which Noto draws in a serif face only); a code point two of
# them have takes the first one's width.
NOTO_SCRIPTS = (
    "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu", "Kannada",
    "Malayalam", "Sinhala", "Thai", "Lao", "Khmer", "Myanmar", "Arabic", "Syriac", "Thaana",
    "NKo", "Hebrew", "Armenian", "Georgian", "Ethiopic", "Cherokee", "CanadianAboriginal",
    "Mongolian", "Tifinagh", "Javanese", "Balinese", "Sundanese", "OlChiki", "Adlam", "Vai",
    "TaiTham", "NewTaiLue", "Tibetan", "EgyptianHieroglyphs", "Cuneiform",
)  # fmt: skip
# Scripts measured but not named in the pictures' font-family, which every SVG carries: rare in
# diagrams, they are left to the browser's own choice, as Chinese and Japanese are (on Linux,
# these same fonts).
MEASURED_ONLY = ("TaiTham", "NewTaiLue", "Tibetan", "EgyptianHieroglyphs", "Cuneiform")
# The scripts whose letters join the letters beside them, each drawn in one of up to four forms
# (alone, first, inside and last in a word) whose widths differ by half: each form is measured
# (`joining_forms`), and the layout picks the one a letter's neighbours give it.
JOINING_SCRIPTS = ("Arabic", "Syriac", "NKo", "Mongolian", "Adlam")
ZWJ = 0x200D  # stands for a neighbour the letter joins, when shaping a form
# Noto's fonts for the symbols no script has (arrows, mathematical operators and letters,
# technical signs), each NotoSans<name>-Regular.ttf: with DejaVu Sans, what a system draws them
# with when the named fonts lack them.
NOTO_SYMBOLS = ("Math", "Symbols", "Symbols2")
# Chinese and Japanese punctuation (、。「」《》), which Mongolian's font has too, drawn for
# its vertical text: named before the browser's own choice, it would draw every Chinese and
# Japanese comma and full stop askew. Such a font is left to the browser, which picks it for
# its script anyway.
SHARES_CJK_PUNCTUATION = {0x3001, 0x3002, 0x300A, 0x300B, 0x300C, 0x300D}
OUT = Path(__file__).resolve().parent.parent / "volley" / "layout" / "metrics_data.py"

FACES = {
    "sans": "LiberationSans-Regular",
    "sans-bold": "LiberationSans-Bold",
    "sans-italic": "LiberationSans-Italic",
    "sans-bolditalic": "LiberationSans-BoldItalic",
    "mono": "LiberationMono-Regular",
}
# Faces measured by another face's table, because their advances are the same (checked).
SAME_ADVANCES = {"LiberationMono-Bold": "mono", "LiberationMono-Italic": "mono"}

# Two characters per width (0..4095 thousandths of an em), three per run start; a character
# wider than MOST (﷽, the basmala, is 7.22 em) is listed apart in WIDER.
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/"
RUN_MARK = "~"
CHUNK = 88  # characters of encoded data per source line
MOST = 64 * 64 - 1  # the widest width two digits hold

# Left out of the tables so that the measuring code sees them and applies its emoji rules.
SEQUENCE_CHARS = set(range(0xFE00, 0xFE10)) | {0x200D}


def encode(value: int, digits: int) -> str:
    out = []
    for _ in range(digits):
        out.append(ALPHABET[value % 64])
        value //= 64
    if value:
        raise ValueError("value too large to encode")
    return "".join(reversed(out))


def widths(font: TTFont) -> dict[int, int]:
    """Advance width of every mapped code point, in thousandths of an em."""
    upem = font["head"].unitsPerEm
    hmtx = font["hmtx"]
    table = {}
    for cp, glyph in font.getBestCmap().items():
        if cp < 0x20 or 0x7F <= cp < 0xA0 or cp in SEQUENCE_CHARS:
            continue
        # Marks and format characters take no room once shaped, whatever the hmtx says (the
        # few marks a script draws beside their letter are measured apart: `mark_widths`).
        if unicodedata.category(chr(cp)) in ("Mn", "Me", "Cf"):
            table[cp] = 0
        else:
            table[cp] = round(hmtx[glyph][0] * 1000 / upem)
    return table


def encode_runs(table: Mapping[int, int | tuple[int, ...]]) -> str:
    """Runs of consecutive code points: a mark, the first code point, then each one's value:
    a width (two digits), or a joining letter's `joining_forms` (one digit, then four widths)."""
    parts = []
    prev = None
    for cp in sorted(table):
        if prev is None or cp != prev + 1:
            parts.append(RUN_MARK + encode(cp, 3))
        value = table[cp]
        if isinstance(value, int):
            parts.append(encode(value, 2))
        else:
            joins, *forms = value
            parts.append(encode(joins, 1) + "".join(encode(w, 2) for w in forms))
        prev = cp
    return "".join(parts)


# The vertical metrics are hhea's, which is what browsers use on every platform for these fonts
# (usWin* agree with them); "average" is OS/2 xAvgCharWidth, used for characters not in a table.
METRIC_FIELDS = ("ascent", "descent", "line_gap", "cap_height", "x_height", "average")


def face_metrics(font: TTFont) -> tuple[float, ...]:
    upem = font["head"].unitsPerEm
    hhea, os2 = font["hhea"], font["OS/2"]
    values = (
        hhea.ascent,
        -hhea.descent,
        hhea.lineGap,
        os2.sCapHeight,
        os2.sxHeight,
        os2.xAvgCharWidth,
    )
    return tuple(round(value / upem, 4) for value in values)


def joined_widths(table: dict[int, int]) -> dict[int, int]:
    """Arabic letters as wide as they are inside words: the mean of their initial, medial and
    final forms (Arabic Presentation Forms-B) where the font has them, not their isolated
    form, which is what the cmap gives for the letter and is far wider."""
    forms: dict[int, list[int]] = {}
    for cp in range(0xFE70, 0xFF00):
        kind, _, base = unicodedata.decomposition(chr(cp)).partition(" ")
        if kind in ("<initial>", "<medial>", "<final>") and cp in table and " " not in base:
            forms.setdefault(int(base, 16), []).append(table[cp])
    return {base: round(sum(ws) / len(ws)) for base, ws in forms.items() if base in table}


def joining_forms(path: Path) -> dict[int, tuple[int, int, int, int, int]]:
    """Each letter of the font that joins a neighbour: (joins, alone, first, inside, last),
    its widths in thousandths of an em as HarfBuzz shapes it alone and with a ZWJ (which joins
    as a letter would) after, on both sides and before it. `joins` is 1 for a letter with a
    last form, which joins the letter before it, plus 2 for one with a first form, which joins
    the letter after (Arabic's alef has only a last form: it never joins the next letter); a
    form it lacks is its lone one."""
    face = hb.Face(hb.Blob.from_file_path(str(path)))
    font = hb.Font(face)

    def form(codepoints: list[int]) -> tuple[tuple[int, ...], int]:
        """The letter's glyphs, and their advance, the ZWJs left out once they have acted."""
        buffer = hb.Buffer()
        buffer.add_codepoints(codepoints)
        buffer.guess_segment_properties()
        buffer.flags = hb.BufferFlags.REMOVE_DEFAULT_IGNORABLES
        hb.shape(font, buffer)
        glyphs = tuple(info.codepoint for info in buffer.glyph_infos)
        return glyphs, sum(position.x_advance for position in buffer.glyph_positions)

    out: dict[int, tuple[int, int, int, int, int]] = {}
    for cp in sorted(TTFont(path).getBestCmap()):
        if unicodedata.category(chr(cp)) not in ("Lo", "Lm"):
            continue
        alone, first = form([cp]), form([cp, ZWJ])
        inside, last = form([ZWJ, cp, ZWJ]), form([ZWJ, cp])
        joins = (last[0] != alone[0]) + 2 * (first[0] != alone[0])
        if joins:
            widths = (alone[1], first[1], inside[1], last[1])
            out[cp] = (joins, *(round(w * 1000 / face.upem) for w in widths))
    return out


def joining_widths(noto_dir: Path, dejavu_dir: Path, weight: str) -> dict[int, tuple[int, ...]]:
    """`joining_forms` of the joining scripts' Noto fonts of `weight`; where DejaVu Sans of
    that weight has the letter too, each form as wide as the wider of the two draws it (as
    `fallback_widths` takes the wider width)."""
    table: dict[int, tuple[int, ...]] = {}
    for name in JOINING_SCRIPTS:
        for cp, forms in joining_forms(_face(noto_dir, name, weight)).items():
            table.setdefault(cp, forms)
    dejavu = dejavu_dir / f"DejaVuSans{'-Bold' if weight == 'Bold' else ''}.ttf"
    dejavu_alone = widths(TTFont(dejavu))
    dejavu_forms = joining_forms(dejavu)
    for cp, (joins, *mine) in table.items():
        if cp in dejavu_alone:
            _, *theirs = dejavu_forms.get(cp, (0, *[dejavu_alone[cp]] * 4))
            table[cp] = (joins, *map(max, mine, theirs))
    return table


def mark_widths(path: Path, table: dict[int, int]) -> dict[int, int]:
    """The room each mark of a script's font takes once shaped after a letter, where that is
    not none: most marks sit on their letter, but some vowel signs and viramas that Unicode
    calls non-spacing are drawn beside it (Telugu ా, Kannada ೌ, Malayalam ു). Measured with
    HarfBuzz as what the mark adds to each letter of its block it may follow (one that needs no
    dotted circle; the letter's own form may change too), and the median of those kept: a
    mark drawn beside a few letters and below the rest (Myanmar ု) stays below."""
    face = hb.Face(hb.Blob.from_file_path(str(path)))
    font = hb.Font(face)
    dotted = font.get_nominal_glyph(0x25CC)

    def shaped(text: str) -> tuple[int, set[int]]:
        buffer = hb.Buffer()
        buffer.add_str(text)
        buffer.guess_segment_properties()
        hb.shape(font, buffer)
        advance = sum(position.x_advance for position in buffer.glyph_positions)
        return advance, {info.codepoint for info in buffer.glyph_infos}

    out: dict[int, int] = {}
    for cp in sorted(table):
        if unicodedata.category(chr(cp)) not in ("Mn", "Mc", "Me"):
            continue
        added = []
        for letter in _bases(cp & ~0x7F, table):
            with_mark, glyphs = shaped(chr(letter) + chr(cp))
            if dotted is None or dotted not in glyphs:
                added.append(max(with_mark - shaped(chr(letter))[0], 0))
        if added:
            out[cp] = round(fmean(added) * 1000 / face.upem)
    return out


def _bases(block: int, table: dict[int, int]) -> list[int]:
    """The letters of a block a mark may follow. In the Brahmic scripts a vowel sign follows a
    consonant: the letters from KA to the first sign after it (a block's later letters are
    other languages' extensions); elsewhere every letter of the block."""
    letters = [c for c in range(block, block + 0x80) if c in table and chr(c).isalpha()]
    ka = [c for c in letters if unicodedata.name(chr(c)).endswith(" LETTER KA")]
    if not ka:
        return letters
    run = takewhile(lambda c: c in letters or c not in table, range(ka[0], block + 0x80))
    return [c for c in run if c in letters]


def fallback_widths(
    noto_dir: Path, dejavu_dir: Path, covered: dict[int, int], weight: str
) -> dict[int, int]:
    """Widths from Noto's fonts of `weight` ("Regular", "Bold"; a script with no such face
    has its Regular one, which a browser emboldens in place) for the code points Liberation
    Sans does not have (`covered`), leaving East Asian wide characters to the layout's own
    rule (an em each); where DejaVu Sans of that weight is wider, its width."""
    table: dict[int, int] = {}
    for name in NOTO_SCRIPTS:
        path = _face(noto_dir, name, weight)
        font = widths(TTFont(path))
        font.update(joined_widths(font))
        font.update(mark_widths(path, font))
        for cp, width in font.items():
            wide = unicodedata.east_asian_width(chr(cp)) in ("W", "F")
            if cp > 0x7F and cp not in covered and cp not in table and not wide:
                table[cp] = width
    dejavu = widths(TTFont(dejavu_dir / f"DejaVuSans{'-Bold' if weight == 'Bold' else ''}.ttf"))
    dejavu.update(joined_widths(dejavu))
    for cp, width in dejavu.items():
        if cp in table:
            table[cp] = max(table[cp], width)
    # The symbols: as wide as the widest font that has them, since which one a system picks
    # is its own choice (⟶ is 1.4 em in Noto Sans Math; the average width was half of that).
    symbols: dict[int, int] = {}
    fonts = [widths(TTFont(_face(noto_dir, name, weight))) for name in NOTO_SYMBOLS]
    fonts += [dejavu, widths(TTFont(dejavu_dir / "DejaVuMathTeXGyre.ttf"))]
    for font in fonts:
        for cp, width in font.items():
            wide = unicodedata.east_asian_width(chr(cp)) in ("W", "F")
            if cp > 0x7F and cp not in covered and cp not in table and not wide:
                symbols[cp] = max(symbols.get(cp, 0), width)
    table.update(symbols)
    return table


def _face(noto_dir: Path, name: str, weight: str) -> Path:
    """Noto Sans <name> of `weight`, or its Regular face where it has no such weight."""
    for style in ("Sans", "Serif"):
        for face in (weight, "Regular"):
            path = noto_dir / f"Noto{style}{name}-{face}.ttf"
            if path.exists():
                return path
    return noto_dir / f"NotoSans{name}-Regular.ttf"


def render(font_dir: Path, noto_dir: Path, dejavu_dir: Path = DEJAVU_DIR) -> str:
    lines = [
        '"""Advance widths of the Liberation fonts, and of Noto Sans or DejaVu Sans for other',
        'scripts ("fallback"), in thousandths of an em.',
        "",
        "Generated by scripts/gen_metrics.py; do not edit. Each face is a string of runs: a "
        f'"{RUN_MARK}",',
        "the run's first code point (3 digits), then two digits per width, digits in ALPHABET.",
        '"""',
        "",
        f'ALPHABET = "{ALPHABET}"',
        f'RUN_MARK = "{RUN_MARK}"',
        "",
        "# In em, per face: " + ", ".join(METRIC_FIELDS) + ".",
        "METRIC_FIELDS = (" + ", ".join(f'"{name}"' for name in METRIC_FIELDS) + ")",
        "METRICS = {",
    ]
    data = []
    for key, filename in FACES.items():
        font = TTFont(font_dir / f"{filename}.ttf")
        lines.append(f'    "{key}": {face_metrics(font)!r},')
        encoded = encode_runs(widths(font))
        data.append(f'    "{key}": (')
        for start in range(0, len(encoded), CHUNK):
            data.append(f'        "{encoded[start : start + CHUNK]}"')
        data.append("    ),")
    for filename, key in SAME_ADVANCES.items():
        font = TTFont(font_dir / f"{filename}.ttf")
        if widths(font) != widths(TTFont(font_dir / f"{FACES[key]}.ttf")):
            raise SystemExit(f"{filename} no longer has the advances of {FACES[key]}")
    liberation = widths(TTFont(font_dir / f"{FACES['sans']}.ttf"))
    wider: dict[str, dict[int, int]] = {}
    for key, weight in (("fallback", "Regular"), ("fallback-bold", "Bold")):
        table = fallback_widths(noto_dir, dejavu_dir, liberation, weight)
        wider[key] = {cp: width for cp, width in table.items() if width > MOST}
        encoded = encode_runs({cp: min(width, MOST) for cp, width in table.items()})
        data.append(f'    "{key}": (')
        for start in range(0, len(encoded), CHUNK):
            data.append(f'        "{encoded[start : start + CHUNK]}"')
        data.append("    ),")
    lines.append("}")
    lines.append("")
    lines.append("# The joining scripts' letters, in runs as above: for each, one digit (1: it")
    lines.append("# joins the letter before; +2: the letter after), then its widths alone, first,")
    lines.append("# inside and last in a word (see joining_forms).")
    lines.append("JOINING = {")
    for key, weight in (("fallback", "Regular"), ("fallback-bold", "Bold")):
        encoded = encode_runs(joining_widths(noto_dir, dejavu_dir, weight))
        lines.append(f'    "{key}": (')
        for start in range(0, len(encoded), CHUNK):
            lines.append(f'        "{encoded[start : start + CHUNK]}"')
        lines.append("    ),")
    lines.append("}")
    lines.append("")
    lines.append("# The families whose widths the fallback tables hold, one a script, that a")
    lines.append("# browser is told to try before its own choice (see SHARES_CJK_PUNCTUATION).")
    lines.append("FALLBACK_FAMILIES = (")
    for name in (name for name in NOTO_SCRIPTS if name not in MEASURED_ONLY):
        font = TTFont(_face(noto_dir, name, "Regular"))
        if not SHARES_CJK_PUNCTUATION & set(font.getBestCmap()):
            lines.append(f'    "{font["name"].getBestFamilyName()}",')
    lines.append(")")
    lines.append("")
    lines.append("WIDTHS = {")
    lines.extend(data)
    lines.append("}")
    lines.append("")
    lines.append(f"# The few characters wider than two digits hold ({MOST / 1000} em), by code")
    lines.append("# point: their WIDTHS hold that most.")
    lines.append("WIDER = {")
    for key, table in wider.items():
        shown = ", ".join(f"0x{cp:04X}: {width}" for cp, width in sorted(table.items()))
        lines.append(f'    "{key}": {{{shown}}},')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    font_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else FONT_DIR
    noto_dir = Path(sys.argv[2]) if len(sys.argv) > 2 else NOTO_DIR
    dejavu_dir = Path(sys.argv[3]) if len(sys.argv) > 3 else DEJAVU_DIR
    OUT.write_text(render(font_dir, noto_dir, dejavu_dir), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
