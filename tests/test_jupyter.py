"""A real notebook, executed by nbclient in a real kernel: diagrams are the cells' outputs."""

from __future__ import annotations

import re

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

import volley  # noqa: E402
from volley.api import default_id_prefix  # noqa: E402
from volley.docs.jupyter import NotebookDiagram, show  # noqa: E402
from volley.options import OptionError  # noqa: E402

LOGIN = (
    "title: Sign in\nBrowser -> API: POST /login\nin: Request\n  user: ada\nAPI --> Browser: 200 OK"
)
# A payload of 30 lines, so a cap on the appendix shows.
LONG = "A -> B: POST /x\nin: Body\n" + "".join(f"  line{n:02d}: v{n}\n" for n in range(1, 31))

CELLS = [
    "%load_ext volley.docs.jupyter",
    f"%%volley --name login --theme dark\n{LOGIN}",
    'import volley\nvolley.parse("A -> B: parsed")',
    'from volley.docs.jupyter import show\nshow("A -> B: {fas-nope} shown", bodies="none")',
    "%%volley\nAgent -> Server: ok\nAgent ~> Server: POST /mcp",
    "%%volley --theme neon\nA -> B",
    f"%%volley --bodies appendix --appendix-lines 5\n{LONG}",
    f"%%volley --appendix-lines 5\n{LONG}",
    f"%%volley --bodies appendix --appendix-lines 0\n{LONG}",
    f"%%volley --bodies appendix --appendix-lines five\n{LONG}",
    'show("Agent ~> Server: POST /mcp")',
    "%%volley --name \"Login flow\" --theme 'dark'\nA -> B: quoted as a shell quotes",
    '%%volley --name "login\nA -> B',
    "%%volley --redcat\nA -> B",
]


@pytest.fixture(scope="module")
def executed() -> list:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    client = nbclient.NotebookClient(
        notebook, timeout=120, kernel_name="python3", allow_errors=True
    )
    client.execute()
    return [cell.outputs for cell in notebook.cells]


def result(outputs: list) -> dict:
    (found,) = [output for output in outputs if output.output_type == "execute_result"]
    return found.data


def test_a_volley_cell_shows_the_clickable_viewer_and_a_static_svg(executed):
    data = result(executed[1])
    html, svg = data["text/html"], data["image/svg+xml"]
    assert 'class="volley-diagram' in html
    assert 'id="login-svg"' in html  # --name is the id prefix of the deep links
    assert "<script" in html and "<style" in html  # each output brings its viewer
    assert 'data-theme="dark"' in html
    assert svg.startswith("<svg") and "POST /login" in svg
    # the picture of the cell's text, each message's line counted from the %%volley line, its
    # ids apart from the viewer's
    still = volley.render("\n" + LOGIN, format="svg", theme="dark", id_prefix="login-still")
    assert svg == still


def test_a_parsed_diagram_displays_itself_once_the_extension_is_loaded(executed):
    data = result(executed[2])
    assert "parsed" in data["text/html"] and 'class="volley-diagram' in data["text/html"]
    assert data["image/svg+xml"].startswith("<svg")
    # the text the notebook keeps beside it names it (it was the model's whole repr)
    assert data["text/plain"].startswith("<volley diagram") and len(data["text/plain"]) < 100


def test_show_renders_text_and_prints_its_warnings(executed):
    data = result(executed[3])
    assert "shown" in data["image/svg+xml"]
    (stderr,) = [o for o in executed[3] if o.output_type == "stream" and o.name == "stderr"]
    assert "fas-nope" in stderr.text and "warning" in stderr.text


def stderr(outputs: list) -> str:
    return "".join(o.text for o in outputs if o.output_type == "stream" and o.name == "stderr")


def test_the_cell_output_names_the_diagram_in_plain_text(executed):
    assert result(executed[1])["text/plain"] == "<volley diagram 'Sign in': 2 messages>"


def test_a_mistake_in_a_cell_is_a_usage_error_with_a_caret_and_no_traceback(executed):
    """Its line is counted as the notebook numbers the cell's lines: `%%volley` is line 1."""
    text = stderr(executed[4])
    assert 'UsageError: cell:3:7: error: "~>" is not an arrow' in text
    assert "Agent ~> Server: POST /mcp" in text and "^" in text
    assert "Traceback" not in text and not any(o.output_type == "error" for o in executed[4])


def test_a_mistake_in_a_diagram_shown_from_code_is_the_error_not_a_stack(executed):
    (error,) = [output for output in executed[10] if output.output_type == "error"]
    assert error.ename == "VolleyErrors" or error.ename == "VolleyError"
    shown = "\n".join(error.traceback)
    assert 'error: "~>" is not an arrow' in shown and "^" in shown
    assert "Traceback" not in shown and "File " not in shown and "jupyter.py" not in shown


def test_a_bad_option_is_a_usage_error_naming_the_choices(executed):
    text = stderr(executed[5])
    assert "UsageError" in text and "neon" in text and "'dark'" in text


def test_a_misspelt_option_is_a_usage_error_naming_the_one_meant(executed):
    """argparse said "unrecognized arguments: --redcat", where every other front end names
    the option most likely meant."""
    text = stderr(executed[13])
    assert 'unknown option "--redcat" on the %%volley line (did you mean "--redact"?' in text
    assert "Traceback" not in text


def test_options_quoted_as_a_shell_quotes_them_are_their_values(executed):
    """IPython's split keeps the quotes: `--name 'login'` named ids `v-login--`, and
    `--theme 'dark'` was no theme."""
    html = result(executed[11])["text/html"]
    assert 'id="Login-flow-svg"' in html and 'data-theme="dark"' in html
    text = stderr(executed[12])
    assert "UsageError" in text and "No closing quotation" in text and "Traceback" not in text


def test_a_broken_diagram_stops_run_all():
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in (CELLS[0], CELLS[4], "1")]
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3")
    with pytest.raises(nbclient.exceptions.CellExecutionError):
        client.execute()
    assert notebook.cells[2].outputs == []  # the cell after it never ran


def test_show_without_a_notebook():
    shown = show(LOGIN, theme="light", name="x")
    assert isinstance(shown, NotebookDiagram)
    assert 'id="x-svg"' in shown._repr_html_()
    assert shown._repr_svg_() == volley.render(LOGIN, format="svg", id_prefix="x-still")
    with pytest.raises(volley.VolleyError):
        show("A ~> B")
    with pytest.raises(volley.VolleyError):
        show(LOGIN, theme="neon")


def listed(picture: str, line: str) -> bool:
    """Whether an appendix draws `line` (the viewer's data holds every line, quoted)."""
    return f">{line}<" in picture


def test_appendix_lines_caps_each_body_in_both_pictures(executed):
    data = result(executed[6])
    for kind in ("text/html", "image/svg+xml"):
        picture = data[kind]
        assert "25 more lines not shown (5 of 30)" in picture, kind
        assert listed(picture, "line05") and not listed(picture, "line06"), kind
        assert not listed(picture, "line30"), kind
    still = default_id_prefix(volley.parse("\n" + LONG)) + "-still"
    drawn = volley.render("\n" + LONG, bodies="appendix", appendix_lines=5, id_prefix=still)
    assert data["image/svg+xml"] == drawn


@pytest.mark.parametrize(
    ("cell", "said"),
    [
        (7, '--appendix-lines applies to bodies "appendix" only, not to "markers"'),
        (8, "--appendix-lines must be at least 1, not 0"),
        (9, "argument --appendix-lines: invalid int value: 'five'"),
    ],
)
def test_a_bad_appendix_lines_is_a_usage_error(executed, cell, said):
    text = stderr(executed[cell])
    assert "UsageError" in text and said in text
    assert "Traceback" not in text and not any(o.output_type == "error" for o in executed[cell])


def test_show_takes_appendix_lines():
    shown = show(LONG, bodies="appendix", appendix_lines=4)
    assert "26 more lines not shown (4 of 30)" in shown._repr_svg_()
    assert "26 more lines not shown (4 of 30)" in shown._repr_html_()
    with pytest.raises(OptionError, match='appendix_lines applies to bodies "appendix"'):
        show(LONG, appendix_lines=4)
    with pytest.raises(OptionError, match="at least 1"):
        show(LONG, bodies="appendix", appendix_lines=0)


def test_a_secret_masked_as_asked_is_a_plain_note_not_a_problem(capsys):
    """Under redact, a masked secret is a note: printed to stdout, which a notebook shows as
    plain output, not to stderr, which it shows as an error's box; a warning stays there."""
    show("A -> B: call\nin: Body\n  token: ghp_" + "a1" * 18 + "\n", redact=True)
    said = capsys.readouterr()
    assert "note:" in said.out and "masked" in said.out and said.err == ""
    show("A -> B: {fas-nope} hi\n")
    assert "warning" in capsys.readouterr().err


def test_a_redacted_diagrams_text_output_holds_its_title_masked():
    """IPython keeps the repr as every output's text/plain, in the .ipynb file too."""
    key = "AKIA9T7S614DOJC3H6GQ"
    source = f"title: Rotate {key}\nA -> B: hi\n"
    assert repr(show(source, redact=True)) == "<volley diagram 'Rotate <redacted>': 1 message>"
    assert key in repr(show(source))


def test_the_same_diagram_shown_twice_in_a_kernel_has_ids_of_its_own() -> None:
    """Two cells drawing one diagram gave a page of the notebook the same ids twice: a deep
    link (`#…-message-1`) opened the first. A named one keeps its name."""
    text = "A -> B: the same in two cells\n"
    first, second = show(text)._repr_html_(), show(text)._repr_html_()
    ids = [re.search(r'id="([^"]+)-svg"', html)[1] for html in (first, second)]
    assert ids[1] == f"{ids[0]}-2"
    # the still picture beside each viewer (a front end may show both) has ids of its own
    shown = [show(text) for _ in range(2)]
    pages = [part for diagram in shown for part in (diagram._repr_html_(), diagram._repr_svg_())]
    held = [set(re.findall(r' id="([^"]+)"', page)) for page in pages]
    assert all(not (a & b) for k, a in enumerate(held) for b in held[k + 1 :])
    named = show(text, name="login")._repr_html_()
    assert 'id="login-svg"' in named and 'id="login-svg"' in show(text, name="login")._repr_html_()
