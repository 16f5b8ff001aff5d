"""Bidi controls and invisible characters in names and labels are found, and shown as escapes,
except where right-to-left writing or emoji need them."""

from __future__ import annotations

import pytest

import volley
from volley.checks.bidi import hidden_characters, plainly_right_to_left, reveal

RLO, PDF, ZWSP, ZWJ = "\u202e", "\u202c", "\u200b", "\u200d"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (f"{RLO}Admin{PDF}", "\\u202eAdmin\\u202c"),  # drawn as "nimdA" otherwise
        (f"pay{RLO}lapyap.com", "pay\\u202elapyap.com"),  # a spoofed address
        ("user\u2067evil\u2069", "user\\u2067evil\\u2069"),  # an isolate
        (f"ad{ZWSP}min", "ad\\u200bmin"),  # looks like "admin"
        (f"ad{ZWJ}min", "ad\\u200dmin"),  # a joiner between Latin letters joins nothing
        ("ad\u180emin", "ad\\u180emin"),  # Mongolian's separator outside Mongolian: hidden
        ("ᠠ\u180e\u180eᠠ", "ᠠ\\u180e\\u180eᠠ"),  # two of them: not between two letters
        ("\u1811\u180e\u1812", "\u1811\\u180e\u1812"),  # between Mongolian digits
        (f"ok {ZWJ}", "ok \\u200d"),  # beside a space, with no Arabic letter on either side
        ("a\u2060b\ufeffc", "a\\u2060b\\ufeffc"),  # word joiner, a BOM inside the text
        ("\u3164", "\\u3164"),  # a Hangul filler: a name that looks blank
        ("bell\x07", "bell\\u0007"),  # a control character
        ("tag\U000e0041", "tag\\U000e0041"),  # a tag character outside a flag
        ("line\u2028break", "line\\u2028break"),
    ],
)
def test_hidden_characters_are_found_and_revealed(text: str, shown: str):
    assert hidden_characters(text)
    assert reveal(text) == shown
    assert not hidden_characters(reveal(text))  # what is shown holds none


@pytest.mark.parametrize(
    "text",
    [
        "GET /v1/users?page=2",
        "Ünïcödé, 日本語, emoji 🎉",
        "👨\u200d👩\u200d👧 family",  # joiners inside an emoji sequence
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f Scotland",  # a flag
        "می\u200cخواهم",  # Persian: a non-joiner between letters
        "ടോഗ്ഗിള്\u200d ചെയ്യുക",  # Malayalam's chillu, written LLA, virama, ZWJ (uBlock's ml)
        "தடையைச்\u200c செய்",  # Tamil: a non-joiner after a word's final virama
        "ബ്ലോക്ക്\u200c",  # at the end of the text
        "שלום \u202bעולם\u202c",  # Hebrew with an embedding: plainly right to left
        "مرحبا\u200f!",  # Arabic with a right-to-left mark
        "الحرف ب\u200d و \u200dب\u200d و \u200dب",  # a letter's forms, shown beside spaces
        "two\nlines\tand a tab",
        "ᠬᠠᠷ\u180eᠠ ᠮᠣᠩᠭᠣᠯ",  # Mongolian: the vowel separator picks a vowel's form
    ],
)
def test_writing_that_needs_them_is_left_alone(text: str):
    assert hidden_characters(text) == []
    assert reveal(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "ភាសា\u200bខ្មែរ\u200bមាន",  # Khmer's word breaks
        "ສະບາຍ\u200bດີ",  # Lao's
        "日本\u2060語",  # a word joiner between ideographs
        "עברית \u200f(RLM) and English",  # a mark placing the brackets in a mixed label
        "Call \u200eمرحبا\u200e now",
        "درخواست\u200c پرداخت",  # a Persian word's non-joiner typed before a space
    ],
)
def test_writing_marks_in_a_label_are_left_alone_but_not_in_a_name(text: str):
    """In a label they break a line, place punctuation or stop a join, as their writers
    meant; in a name they would make two names that look the same."""
    assert hidden_characters(text) == [] and reveal(text) == text
    assert hidden_characters(text, name=True)


@pytest.mark.parametrize("text", [f"ad{ZWSP}min", f"{ZWSP}ខ្មែរ", "English \u200f(RLM) only"])
def test_a_zero_width_space_among_latin_letters_or_a_mark_with_no_right_to_left_is_hidden(text):
    assert hidden_characters(text)


def test_right_to_left_text_with_latin_letters_is_not_plainly_right_to_left():
    assert plainly_right_to_left("שלום")
    assert not plainly_right_to_left(f"שלום {RLO}Admin")
    # a label of a right-to-left mark alone draws nothing: no right-to-left letter keeps it
    assert not plainly_right_to_left("\u200f") and reveal("\u200f") == "\\u200f"
    # a left-to-right mark in Hebrew is no right-to-left writing: `שלום` and `שלום‎` differ
    assert not plainly_right_to_left("שלום\u200e") and hidden_characters("שלום\u200e", name=True)
    assert reveal(f"שלום {RLO}Admin") == "שלום \\u202eAdmin"
    assert not plainly_right_to_left("123 !")  # no letters at all


def test_a_hidden_character_says_what_it_is():
    (found,) = hidden_characters(f"x{RLO}y")
    assert (found.index, found.code, found.kind) == (1, "U+202E", "bidi")
    assert found.describe() == "U+202E RIGHT-TO-LEFT OVERRIDE, which reorders the text around it"
    (bell,) = hidden_characters("\x07")
    assert bell.describe() == "U+0007, a control character"


def test_a_non_joiner_that_changes_nothing_in_a_name_is_pointed_out():
    """In a label it is writing; in a participant's name it makes two names that look alike."""
    checked = volley.check("A -> ബ്ലോക്ക്: one\nA -> ബ്ലോക്ക്\u200c: two\n")
    assert len(checked.diagram.participants) == 3
    (warning,) = checked.warnings
    assert warning.line == 2 and "U+200C" in warning.message
    assert volley.check("A -> B: ബ്ലോക്ക്\u200c ചെയ്യുന്നത്\n").warnings == []


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("מחיר \u202e100", "מחיר \\u202e100"),  # drawn as "מחיר 001": digits turned around
        ("מחיר \u202dשלום\u202c", "מחיר \\u202dשלום\u202c"),  # Hebrew letters drawn backwards
        ("سعر \u202e٤٥\u202c", "سعر \\u202e٤٥\u202c"),  # Arabic-Indic digits too
    ],
)
def test_an_override_that_turns_right_to_left_text_around_is_shown(text: str, shown: str):
    """Plainly right-to-left text keeps its bidi controls, but an override that draws what it
    covers in another order than the text alone would is a way to spoof it."""
    assert plainly_right_to_left(text)
    assert reveal(text) == shown


@pytest.mark.parametrize(
    "text",
    [
        "מחיר \u202eשלום\u202c 100",  # right-to-left letters stay as they were
        "טלפון \u202d+972-3-1234567\u202c",  # a phone number kept in order, as it is written
        "\u2067מחיר \u202eשלום\u2069 100",  # the isolate's end ends the override before 100
        "שלום \u202eשלום\n100",  # a line break ends every override: 100 is a paragraph apart
    ],
)
def test_an_override_that_changes_nothing_drawn_is_writing(text: str):
    assert reveal(text) == text


def test_an_override_still_open_past_an_embedding_inside_it_is_seen():
    """The first PDF closes the embedding, not the override, which turns 100 into 001."""
    text = "מחיר \u202e\u202bשלום\u202c 100\u202c"
    assert reveal(text) == "מחיר \\u202e\u202bשלום\u202c 100\u202c"


def test_each_line_of_a_note_is_a_paragraph_of_its_own():
    """What `volley check` says of a note, line by line, and what the picture shows agree:
    a right-to-left line keeps its mark beside a line of Latin letters."""
    note = "שלום\u200f!\nhello \u200fworld"
    assert reveal(note) == "שלום\u200f!\nhello \\u200fworld"
    assert [h.index for h in hidden_characters(note)] == [note.rindex("\u200f")]


@pytest.mark.parametrize(
    "text",
    [
        "Pay \u200f5\u200f00 USD to \u05e9",  # drawn "Pay 005 USD": a mark splits the digits
        "\u05d8\u05d5\u05e7\u05df ghp_A1b2\u200eE5f6",  # a mark inside a token
        "\u0645\u0631\u062d\u0628\u0627 1\u061c000",
    ],
)
def test_a_mark_inside_a_run_of_latin_letters_or_digits_is_shown(text: str):
    """Kept, it splits the run: digits are drawn turned round, a token is hidden in two."""
    assert [hidden.kind for hidden in hidden_characters(text)] == ["bidi"]


@pytest.mark.parametrize("text", ["ghp_A1\u034fb2", "pass\ufe0fword", "tok\U000e0100en"])
def test_a_mark_on_a_latin_letter_that_draws_nothing_is_shown(text: str):
    """A combining grapheme joiner or a variation selector on a Latin letter changes nothing
    drawn; an emoji's (`❤\ufe0f`, the keycap `1\ufe0f\u20e3`) and an ideograph's are writing."""
    assert [hidden.kind for hidden in hidden_characters(text)] == ["invisible"]
    assert hidden_characters("\u2764\ufe0f 1\ufe0f\u20e3 \u845b\U000e0100") == []
