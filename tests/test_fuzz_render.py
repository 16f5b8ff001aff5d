"""Every valid diagram renders to well-formed, inert SVG and HTML, the same bytes every time.

The diagrams come from the grammar strategy and from mutated examples, with the hostile corpus
and XML-forbidden, bidi, combining and CJK characters mixed into every text.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import volley
from volley.errors import VolleyError

from .fuzz_strategies import (
    FUZZ,
    NONCHARACTERS,
    XML_FORBIDDEN,
    check_parse,
    check_render,
    check_svg,
    diagram_text,
    example_texts,
    mutated_example,
    url_is_safe,
)

OPTIONS = st.fixed_dictionaries(
    {
        "theme": st.sampled_from(["light", "dark", "auto"]),
        "bodies": st.sampled_from(["markers", "appendix", "none"]),
    }
)


def _valid(text: str):
    result = check_parse(text)
    assume(not isinstance(result, VolleyError))
    return result


@FUZZ
@given(diagram_text(), OPTIONS)
def test_generated_diagrams_render_well_formed_deterministic_svg(text: str, options: dict):
    check_render(_valid(text), "svg", **options)


@FUZZ
@given(mutated_example(), OPTIONS)
def test_mutated_examples_render_well_formed_deterministic_svg(text: str, options: dict):
    check_render(_valid(text), "svg", **options)


@settings(FUZZ, max_examples=max(FUZZ.max_examples // 2, 1))  # the HTML costs four SVGs
@given(diagram_text(), st.booleans(), st.sampled_from(["light", "dark", "auto"]))
def test_generated_diagrams_render_well_formed_deterministic_html(
    text: str, fragment: bool, theme: str
):
    check_render(_valid(text), "html", fragment=fragment, theme=theme)


@pytest.mark.filterwarnings("ignore::volley.output.font_fallback.MissingGlyphWarning")
@settings(FUZZ, max_examples=max(FUZZ.max_examples // 8, 1))  # a PNG and a PDF cost many SVGs
@given(diagram_text(), st.sampled_from(["png", "pdf"]))
def test_generated_diagrams_draw_the_same_png_and_pdf_every_time(text: str, fmt: str):
    """The raster path cuts, measures, shapes and pictures text (emoji, Indic, right to left)
    before cairo draws it: whatever the text, it draws, and the same bytes twice."""
    check_render(_valid(text), fmt)


@pytest.mark.parametrize("fmt", ["svg", "html", "png", "pdf"])
def test_every_example_renders_in_every_format(fmt: str):
    for text in example_texts():
        check_render(volley.parse(text), fmt, bodies="appendix")


@pytest.mark.parametrize("char", XML_FORBIDDEN, ids=[f"U+{ord(c):04X}" for c in XML_FORBIDDEN])
def test_one_forbidden_character_is_replaced_visibly_and_breaks_nothing(char: str):
    text = (
        f"title: t{char}t\nA{char} -> B: x{char}y\nin: R{char}\n```json\n"
        f'{{"k{char}": "v{char}"}}\n```\nnote A{char}: n{char}\nloop: l{char}\n=: d{char}\nend\n'
    )
    diagram = volley.parse(text)
    svg = check_render(diagram, "svg", bodies="appendix")
    assert "\ufffd" in svg  # in the body, drawn as written but for what XML cannot hold
    # Names and labels show a control character as its escape (volley.checks.bidi.reveal).
    shown = ("\ufffd", f"\\u{ord(char):04x}")
    for word in ("x", "y", "t", "n", "l", "d"):
        assert f">{word}" in svg or any(
            f"{word}{mark}" in svg or f"{mark}{word}" in svg for mark in shown
        )
    check_render(diagram, "html")
    assert volley.render(diagram, format="png")[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("char", NONCHARACTERS, ids=[f"U+{ord(c):04X}" for c in NONCHARACTERS])
@pytest.mark.parametrize("fmt", ["png", "pdf"])
def test_a_noncharacter_does_not_cost_the_raster_picture(char: str, fmt: str):
    text = f"title: t{char}\nA{char} -> B: x{char}y\nin: R\n  k{char}: v{char}\nnote A: n{char}\n"
    out = volley.render(text, format=fmt, bodies="appendix")
    assert out.startswith(b"\x89PNG" if fmt == "png" else b"%PDF")


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://a.b", True),
        ("#x", True),
        ("docs/page.html", True),
        ("mailto:a@b", True),
        ("javascript:x", False),
        ("JaVaScRiPt:x", False),
        ("java\tscript:x", False),
        ("  javascript:x", False),
        ("\x01javascript:x", False),
        ("data:text/html,x", False),
        ("//other.example/x", True),
        ("vbscript:x", False),
    ],
)
def test_the_url_oracle_reads_urls_like_a_browser(url: str, safe: bool):
    assert url_is_safe(url) == safe


def test_the_svg_oracle_catches_what_it_is_for():
    good = volley.render("A -> B: [x](https://a.b)")
    check_svg(good)
    for bad in (
        good.replace("<title", "<script>1</script><title", 1),
        good.replace('class="volley"', 'class="volley" onload="x"', 1),
        good.replace('href="https://a.b"', 'href="javascript:x"', 1),
        good.replace("<title", "<title>\x01</title><title", 1),
        good.replace("</svg>", "", 1),
    ):
        with pytest.raises((AssertionError, SyntaxError)):
            check_svg(bad)


def test_volley_render_stays_callable_after_its_package_is_imported():
    import volley.output.html
    import volley.output.svg  # noqa: F401

    assert callable(volley.render)
    assert volley.render("A -> B") == volley.render("A -> B")
