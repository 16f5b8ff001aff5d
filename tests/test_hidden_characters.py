"""Bidi controls and invisible characters: warned by check, drawn as escapes, never hidden."""

from __future__ import annotations

import volley
from volley.api import check

RLO, PDF, ZWSP = "\u202e", "\u202c", "\u200b"
SPOOFED = f"title: Admin{RLO} panel\n{RLO}Admin{PDF} -> B: ok{ZWSP}ay\nnote: مرحبا\n"


def test_check_warns_for_each_hidden_character_with_its_place():
    warnings = check(SPOOFED, filename="spoof.volley").warnings
    found = {(w.line, w.column, w.message.split(",")[0]) for w in warnings}
    assert (1, 13, "the text holds U+202E RIGHT-TO-LEFT OVERRIDE") in found
    assert (2, 1, "the text holds U+202E RIGHT-TO-LEFT OVERRIDE") in found
    assert (2, 7, "the text holds U+202C POP DIRECTIONAL FORMATTING") in found
    assert (2, 17, "the text holds U+200B ZERO WIDTH SPACE") in found
    assert all(w.severity == "warning" for w in warnings)


def test_right_to_left_text_is_not_warned_about():
    assert check("A -> B: ok\nnote: \u202bمرحبا\u202c\n").warnings == []


def test_the_picture_shows_escapes_not_reordered_text():
    svg = volley.render(SPOOFED)
    assert RLO not in svg and ZWSP not in svg and PDF not in svg
    assert "\\u202eAdmin\\u202c" in svg
    assert "ok\\u200bay" in svg
    assert "مرحبا" in svg
    html = volley.render(SPOOFED, format="html")
    assert RLO not in html and ZWSP not in html


def test_the_model_keeps_what_was_written():
    diagram = volley.parse(SPOOFED)
    assert diagram.participants[0] == f"{RLO}Admin{PDF}"
    assert volley.render("A -> B: plain") == volley.render(volley.parse("A -> B: plain"))
