"""Bidi controls and invisible characters: warned by check, drawn as escapes, never hidden."""

from __future__ import annotations

import pytest

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


def test_a_soft_hyphen_inside_a_labels_word_is_drawn_as_nothing_and_in_a_name_shown():
    """Text from a CMS marks where its long words may break: a label drew each as `\u00ad`,
    with a warning; cairo drew it as a hyphen. In a participant's name, which it could make
    look like another's, it is still shown as its escape."""
    text = "A -> B: a very\u00adlong\u00adword\nad\u00admin -> A: x\n"
    warned = [w.line for w in check(text).warnings if "SOFT HYPHEN" in w.message]
    assert warned == [2]
    svg = volley.render(text)
    assert "very\u00adlong\u00adword" in svg and "ad\\u00admin" in svg
    from volley.output.font_fallback import with_fallback_fonts

    drawn = with_fallback_fonts(svg).partition("</desc>")[2]
    assert ">a verylongword<" in drawn  # what cairo draws: no hyphen


def test_the_model_keeps_what_was_written():
    diagram = volley.parse(SPOOFED)
    assert diagram.participants[0] == f"{RLO}Admin{PDF}"
    assert volley.render("A -> B: plain") == volley.render(volley.parse("A -> B: plain"))


def test_names_that_differ_only_in_a_space_that_is_not_plain_are_warned_about():
    """A no-break space pasted from a web page makes a second lane that looks like the first;
    each name that holds one is named, at the space. A name alone with one is no look-alike."""
    text = "MCP\u00a0Server -> B\nMCP Server -> B\nMCP\u2009Server -> B\nX\u00a0Y -> B\n"
    warnings = check(text, filename="f.volley").warnings
    assert [(w.line, w.column) for w in warnings] == [(1, 4), (3, 4)]
    assert warnings[0].message == (
        '"MCP\u00a0Server" looks like "MCP Server" but is another participant: it holds '
        "U+00A0 NO-BREAK SPACE, not a plain space"
    )
    assert "U+2009 THIN SPACE" in warnings[1].message


def test_names_that_differ_only_in_doubled_spaces_are_warned_about():
    """`MCP  Server` draws as `MCP Server`: a second lane that looks like the first."""
    text = "MCP Server -> X: a\nMCP  Server -> X: b\nA  B -> X: alone\n"
    (warning,) = check(text, filename="f.volley").warnings
    assert (warning.line, warning.column) == (2, 4)
    assert warning.message == (
        '"MCP  Server" looks like "MCP Server" but is another participant: it holds 2 spaces '
        "together where the other has one"
    )


def test_a_name_like_another_participants_label_is_warned_about():
    """`participant A as Alice`, then `Alice -> B`: two boxes that both say Alice (Mermaid
    draws them too); the warning says to write A."""
    text = "participant A as Alice\nAlice -> B: hi\nA -> B: yo\n"
    (warning,) = check(text, filename="f.volley").warnings
    assert (warning.line, warning.column) == (2, 1)
    assert '"Alice" is another participant than A' in warning.message
    assert warning.hint.endswith("write A")
    assert check("participant A as A\nA -> B: hi\n").warnings == []
    # both lanes written on purpose (one IRS per tier, as PlantUML's import writes them): no
    # warning whose advice would merge them
    tiers = "participant IRSTier1 as IRS\norder: IRS, IRSTier1\n\nIRS -> IRSTier1: notify\n"
    assert check(tiers).warnings == []
    assert (
        check("participant IRS\nparticipant IRSTier1 as IRS\nIRS -> IRSTier1: x\n").warnings == []
    )


def test_a_declaration_in_the_other_tools_order_is_warned_about_with_the_fix_that_works():
    """`participant Bank as b`, then `b -> c`: WebSequenceDiagrams' and PlantUML's order (the
    label first). Writing Bank, as the warning said, kept the lanes labelled b; the name that
    the messages use goes first."""
    text = "participant Bank as b\nparticipant CRM as c\nb -> c: hello\n"
    first, second = check(text, filename="f.volley").warnings
    assert first.hint.startswith(
        'the name comes first, its label after "as": write "participant b as Bank"'
    )
    assert '"participant c as CRM"' in second.hint
    (mermaid,) = check("participant GW as API Gateway\nA -> API Gateway: x\n").warnings
    assert mermaid.hint.endswith("write GW")  # Mermaid's order, the label used by mistake
    fixed = "participant b as Bank\nparticipant c as CRM\nb -> c: hello\n"
    assert check(fixed).warnings == [] and check(fixed).diagram.participants == ["b", "c"]


def test_a_no_break_space_between_words_is_an_error_that_names_it():
    """`A ->\u00a0B` fails where it looks right: the error says which character it is, and the
    line is read on as if it were a plain space, so a later mistake is still found."""
    with pytest.raises(volley.VolleyError) as info:
        volley.parse("A\u00a0->\u00a0B: x\nC ~> D\n", "f.volley")
    first, second = info.value.errors
    assert (first.line, first.column) == (1, 2)  # the first of them
    assert first.message.startswith("U+00A0 NO-BREAK SPACE stands where volley reads only")
    assert second.line == 2


def test_a_full_width_colon_in_a_name_is_warned_about():
    (warning,) = check("A -> B\uff1a\u5168\u89d2\n", filename="f.volley").warnings
    assert (warning.line, warning.column) == (1, 7)
    assert (
        "full-width colon" in warning.message
        and warning.hint == 'write a plain ":" before the label'
    )


def test_a_look_alike_name_is_found_wherever_it_is_named_and_a_control_character_is_no_space():
    text = "participant MCP Server\nA -> MCP\u00a0Server\nnote MCP\u2009Server: x\n"
    warnings = check(text, filename="f.volley").warnings
    assert [(w.line, w.column) for w in warnings] == [(2, 9), (3, 9)]
    assert all('looks like "MCP Server"' in w.message for w in warnings)
    # NEL (a mojibake "…") is a control character, warned as one, not a space
    (control,) = check("A -> MCP\u0085Server\nA -> MCP Server\n").warnings
    assert "a control character" in control.message


def test_a_no_break_space_after_a_keyword_is_named_but_one_in_a_label_is_text():
    with pytest.raises(volley.VolleyError) as info:
        volley.parse("title\u00a0Login\nparticipant\u00a0A\nA -> B: x\u00a0y\n", "f.volley")
    assert [(e.line, e.column) for e in info.value.errors] == [(1, 6), (2, 12)]
    assert volley.parse("A -> B: x\u00a0y\n").messages()[0].label == "x\u00a0y"


def test_a_look_alike_name_only_declared_is_pointed_at_its_declaration():
    """A participant declared and never used is still a lane: its warning shows the line that
    declares it, with the caret at the odd space."""
    text = "A -> MCP Server: hi\nparticipant MCP\u00a0Server as The server\n"
    (warning,) = check(text, filename="f.volley").warnings
    assert (warning.line, warning.column) == (2, 16)
    assert warning.source_line == "participant MCP\u00a0Server as The server"
    # a name used before it is declared is pointed at where it is first named
    text = "B -> X\u00a0Y: hi\nparticipant X Y\nparticipant X\u00a0Y\n"
    (warning,) = check(text, filename="f.volley").warnings
    assert (warning.line, warning.column) == (1, 7)


def test_a_sign_drawn_under_digits_is_warned_of_as_what_it_is():
    """U+0600 ARABIC NUMBER SIGN is a sign fonts draw under the digits after it, not a
    character that draws nothing, as the warning said."""
    (warning,) = check("A -> B: رقم \u0600١٢٣\n").warnings
    assert "U+0600 ARABIC NUMBER SIGN, a sign drawn under the digits after it" in warning.message
    assert "\\u0600" in volley.render("A -> B: رقم \u0600١٢٣\n")
