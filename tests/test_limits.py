"""Pathological input answers with a result or a limit error that says how to raise the limit.

No test here is timed: `scripts/fuzz.py --scaling` measures how time grows with size. These
only prove each case completes, and that every limit is named with its way out.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import volley
import volley.api
from volley.cli import main
from volley.limits import MAX_DEPTH

RAISED = volley.Limits(
    input_bytes=50_000_000,
    messages=1_000_000,
    depth=MAX_DEPTH,
    label_chars=10_000_000,
    participants=100_000,
)


def nested(depth: int, kind: str = "loop") -> str:
    other = {"if": "else: other\nA -> B\n", "par": "and: other\nB -> A\n"}.get(kind, "")
    return f"{kind}: level\n" * depth + "A -> B: deep\n" + f"{other}end\n" * depth


# Inline markup and grammar terminals against input built to make a scanner backtrack.
PATHOLOGICAL = {
    "50k stars": "A -> B: " + "*" * 50_000,
    "20k icon openers": "A -> B: " + "{fas-" * 20_000,
    "underscores": "A -> B: " + "_a" * 25_000,
    "backticks": "A -> B: " + "`" * 50_000,
    "link openers": "A -> B: " + "[x](" * 20_000,
    "strikes": "A -> B: " + "~~" * 25_000,
    "backslashes": "A -> B: " + "\\" * 50_000,
    "line breaks": "A -> B: " + "\\n" * 25_000,
    "brackets": "A -> B: " + "[" * 50_000 + "]" * 50_000,
    "1 MB label": "A -> B: " + "word " * 200_000,
    "long name": "x" * 100_000 + " -> B: x",
    "arrow-like name": "A" + " -" * 50_000 + " -> B",
    "note bullets": "note A: list\n" + "  - item *x*\n" * 5_000,
    "title of spaces": "title: " + " " * 1_000_000 + "x",
    "1000 comment lines": "// x\n" * 1_000 + "A -> B",
}


@pytest.mark.parametrize("text", PATHOLOGICAL.values(), ids=PATHOLOGICAL.keys())
def test_pathological_labels_fail_clearly_by_default_and_render_when_allowed(text: str):
    try:
        volley.parse(text)
    except volley.VolleyError as exc:
        assert "limit" in exc.message and exc.hint and "--max-" in exc.hint
    diagram = volley.parse(text, limits=RAISED)
    assert volley.render(diagram).startswith("<svg")


def test_500_nested_blocks_are_refused_with_the_option_to_raise_the_limit():
    with pytest.raises(volley.VolleyError) as caught:
        volley.parse(nested(500))
    assert "nested 101 deep; the limit is 100" in caught.value.message
    assert "--max-depth" in (caught.value.hint or "")
    assert caught.value.line == 101


@pytest.mark.parametrize("asked", [MAX_DEPTH, 10_000])
def test_depth_has_a_ceiling_that_no_option_passes(asked: int):
    with pytest.raises(volley.VolleyError) as caught:
        volley.parse(nested(500), limits=volley.Limits(depth=asked))
    assert f"nested {MAX_DEPTH + 1} deep; the limit is {MAX_DEPTH}" in caught.value.message
    assert "no option goes higher" in (caught.value.hint or "")


def _deep_stack(frames: int, call):
    """Run `call` under `frames` extra Python frames, as a docs build or web server would."""
    return call() if frames == 0 else _deep_stack(frames - 1, call)


@pytest.mark.parametrize("kind", ["loop", "if", "par"])
def test_the_deepest_allowed_nesting_renders_everywhere(kind: str):
    diagram = volley.parse(nested(MAX_DEPTH, kind), limits=RAISED)
    _deep_stack(200, lambda: diagram.to_json())
    for fmt in ("svg", "html", "png"):
        _deep_stack(200, lambda fmt=fmt: volley.render(diagram, format=fmt, bodies="appendix"))


def test_2000_participants_render():
    text = "".join(f"P{i} -> P{i + 1}: m\n" for i in range(1999))
    diagram = volley.parse(text)
    assert len(diagram.participants) == 2000
    assert volley.render(diagram).startswith("<svg")


def run(*args: str):
    return CliRunner().invoke(main, list(args), env={"NO_COLOR": "1"})


LIMITED = [
    ("--max-input-bytes", "100", "A -> B: " + "x" * 192, "the input's 200 bytes, over the limit"),
    ("--max-messages", "3", "A -> B\n" * 4, "4 messages, over the limit of 3"),
    ("--max-depth", "2", nested(3), "blocks nested 3 deep; the limit is 2"),
    ("--max-label-chars", "5", "A -> B: 123456", "a text of 6 characters, over the limit of 5"),
    ("--max-participants", "2", "A -> B\nB -> C", "big.volley:2:1: error: 3 participants, over"),
]


@pytest.mark.parametrize(("option", "value", "text", "message"), LIMITED)
@pytest.mark.parametrize("command", ["check", "parse", "render"])
def test_every_limit_names_itself_and_the_option_that_raises_it(
    tmp_path, command: str, option: str, value: str, text: str, message: str
):
    path = tmp_path / "big.volley"
    path.write_text(text, encoding="utf-8")
    out = ["-o", str(tmp_path / "big.svg")] if command == "render" else []
    refused = run(command, option, value, str(path), *out)
    assert refused.exit_code == 1
    assert message in refused.stderr and option in refused.stderr
    assert "Traceback" not in refused.stderr
    assert not (tmp_path / "big.svg").exists()
    raised = run(command, option, str(int(value) * 1000), str(path), *out)
    assert raised.exit_code == 0, raised.stderr


# --- pictures too big for a raster -----------------------------------------------------------


def test_a_png_taller_than_cairo_allows_is_a_clear_error_not_a_blank_image(tmp_path):
    path = tmp_path / "long.volley"
    path.write_text("A -> B: ping\nB --> A: pong\n" * 60, encoding="utf-8")
    out = tmp_path / "long.png"
    result = run("render", str(path), "-o", str(out), "--scale", "20")
    assert result.exit_code == 1
    assert "32,767" in result.stderr
    assert "lower the scale" in result.stderr and "SVG" in result.stderr
    assert "PDF, which splits a tall picture over pages" in result.stderr
    assert not out.exists()
    fits = run("render", str(path), "-o", str(out), "--scale", "1")
    assert fits.exit_code == 0 and out.read_bytes().startswith(b"\x89PNG")


def test_a_png_wider_than_cairo_allows_is_a_clear_error():
    text = "".join(f"P{i} -> P{i + 1}\n" for i in range(400))
    with pytest.raises(volley.VolleyError) as caught:
        volley.render(text, format="png")
    assert "32,767" in caught.value.message and "lower the scale" in (caught.value.hint or "")
    assert "fits a wide one to its page" in (caught.value.hint or "")


# --- what the picture may become (issue 19: render bombs) ------------------------------------


def test_a_short_text_of_many_dividers_is_refused_before_layout():
    text = "A -> B\n" + "_:\n" * 120_000  # 360 KB that would draw 120,000 full-width bands
    with pytest.raises(volley.VolleyError) as caught:
        volley.render(text, format="svg")
    assert "--max-items" in (caught.value.hint or "")
    assert "items" in caught.value.message


def test_check_refuses_too_many_items_too_pointing_at_the_first_past_the_limit(tmp_path):
    """`volley check --max-items` listed the option and checked nothing; the error had no
    column or line to show."""
    path = tmp_path / "many.volley"
    path.write_text("A -> B: 1\nif: x\n  A -> B: 2\nend\n")
    with pytest.raises(volley.VolleyError) as caught:
        volley.check(path.read_text(), filename=str(path), limits=volley.Limits(items=3))
    error = caught.value
    assert (error.line, error.column, error.source_line) == (3, 1, "  A -> B: 2")
    assert error.message == "4 items (messages, notes, dividers, blocks), over the limit of 3"
    with pytest.raises(volley.VolleyError):  # parse itself counts them, for fmt and parse too
        volley.parse(path.read_text(), limits=volley.Limits(items=3))
    diagram = volley.parse(path.read_text())  # a diagram made in Python is checked as drawn
    with pytest.raises(volley.VolleyError):
        volley.render(diagram, limits=volley.Limits(items=3))


def test_notes_count_as_items():
    text = "A -> B\n" + "note A: n\n" * 30
    with pytest.raises(volley.VolleyError, match="items"):
        volley.render(text, format="svg", limits=volley.Limits(items=20))
    volley.render(text, format="svg", limits=volley.Limits(items=40))


def wide_and_tall() -> str:
    """A few KB that lay out as a picture thousands of pixels a side."""
    lanes = [f"P{i}" for i in range(40)]
    rows = [f"{a} -> {b}: call" for a, b in zip(lanes, lanes[1:], strict=False)] * 3
    return "\n".join([f"{lanes[0]} -> {lanes[-1]}: across", *rows]) + "\n"


def test_a_png_at_a_large_scale_is_refused_before_cairo_allocates():
    text = wide_and_tall()
    assert len(text) < 4_000
    picture = volley.api.layout(text)
    assert picture.width * picture.height * 3.99**2 > volley.Limits().pixels
    with pytest.raises(volley.VolleyError) as caught:
        volley.render(text, format="png", scale=3.99)
    assert "pixels" in caught.value.message and "--max-pixels" in (caught.value.hint or "")


def test_the_pixel_limit_can_be_raised_and_lowered():
    with pytest.raises(volley.VolleyError, match="pixels"):
        volley.render("A -> B\n", format="png", limits=volley.Limits(pixels=1_000))
    png = volley.render("A -> B\n", format="png", limits=volley.Limits(pixels=10_000_000))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("fmt", ["png", "pdf"])
@pytest.mark.parametrize("scale", [1e-9, 0.0, -1.0, float("inf"), float("nan")])
def test_a_scale_that_draws_nothing_is_a_clear_error(fmt, scale):
    with pytest.raises(volley.VolleyError) as caught:
        volley.render("A -> B\n", format=fmt, scale=scale)
    assert "scale" in caught.value.message


def test_a_pdf_of_more_pages_than_the_limit_is_refused():
    text = "A -> B: ping\nB --> A: pong\n" * 300
    with pytest.raises(volley.VolleyError) as caught:
        volley.render(text, format="pdf", limits=volley.Limits(pdf_pages=1))
    assert "pages" in caught.value.message and "--max-pdf-pages" in (caught.value.hint or "")


@pytest.mark.parametrize("fmt", ["svg", "html"])
def test_an_svg_or_html_over_the_output_limit_is_refused(fmt):
    with pytest.raises(volley.VolleyError) as caught:
        volley.render("A -> B: hi\n", format=fmt, limits=volley.Limits(output_bytes=1_000))
    assert "--max-output-bytes" in (caught.value.hint or "")


def test_every_limit_has_an_option_and_a_line_in_the_docs():
    import dataclasses

    from volley.cli import LIMIT_OPTIONS

    from .conftest import ROOT

    docs = (ROOT / "docs" / "syntax.md").read_text(encoding="utf-8")
    options = {field: name for name, field, _ in LIMIT_OPTIONS}
    for field in dataclasses.fields(volley.Limits):
        assert field.name in options, f"no --max-… option for {field.name}"
        assert f"`{options[field.name]}`" in docs, f"{options[field.name]} is not documented"


def test_the_command_line_raises_the_picture_limits(tmp_path):
    source = tmp_path / "a.volley"
    source.write_text("A -> B\n", encoding="utf-8")
    out = tmp_path / "a.png"
    refused = CliRunner().invoke(
        main, ["render", str(source), "-o", str(out), "--max-pixels", "10"]
    )
    assert refused.exit_code != 0 and "--max-pixels" in refused.output
    assert not out.exists()
    done = CliRunner().invoke(
        main, ["render", str(source), "-o", str(out), "--max-pixels", "10000000"]
    )
    assert done.exit_code == 0, done.output


def test_each_pdf_page_draws_only_its_own_stretch_of_the_lifelines():
    """A dotted lifeline is drawn dot by dot: drawn whole on every page, it made a long PDF's
    time grow with the square of its length (4,000 messages 56 s, 2,000 messages 10 s)."""
    from volley.layout.engine import layout_diagram
    from volley.output import pdf

    picture = layout_diagram(volley.parse("A -> B: ping\nB --> A: pong\n" * 400))
    pages = pdf.paginate(picture, 2_000)
    assert len(pages) > 5
    for page, part in zip(pages, pdf.page_layouts(picture, pages), strict=True):
        for line in part.lifelines:
            for top, bottom in line.segments:
                assert page.top - 20 <= top and bottom <= page.bottom + 20
