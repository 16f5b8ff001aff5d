"""The pipeline (`volley.api`): one call for every front end, with the same answer from each."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from click.testing import CliRunner

import volley
from volley import api
from volley.checks.redact import redact_diagram
from volley.cli import main
from volley.model import Activation, Diagram, Message, Payload

LIVE = "s3cr3tV4lue9Q"
SECRET = f"""\
title: Sign in
Browser -> API: POST /login?access_token={LIVE}
in: Request
  Authorization: Bearer {LIVE}
API --> Browser: 200 OK {{fas-nope}}
"""


def test_run_gives_the_picture_the_warnings_and_the_diagram():
    result = api.run(SECRET)
    assert result.output == volley.render(SECRET)
    assert result.diagram.title == "Sign in"
    kinds = sorted((w.line, w.severity) for w in result.warnings)
    assert (5, "warning") in kinds  # the unknown icon
    assert (2, "warning") in kinds and (4, "warning") in kinds  # the two secrets
    assert all(LIVE not in (w.source_line or "") for w in result.warnings)


def test_check_is_the_parse_and_the_checks_without_drawing():
    checked = volley.check(SECRET)
    assert checked.diagram == volley.parse(SECRET)
    assert [w.message for w in checked.warnings] == [w.message for w in api.run(SECRET).warnings]
    with pytest.raises(volley.VolleyError, match="participant"):
        volley.check("A -> \n")


def test_redact_masks_the_picture_the_errors_and_turns_secret_warnings_into_notes():
    result = api.run(SECRET, volley.Options(redact=True))
    assert LIVE not in result.output and "&lt;redacted&gt;" in result.output
    assert LIVE in result.diagram.messages()[0].label  # the model as written is untouched
    secrets = [w for w in result.warnings if "live secret" in w.message]
    assert secrets and all(w.severity == "note" for w in secrets)
    assert all("--redact" not in w.message for w in secrets)
    assert "masked in the output" in secrets[0].message
    with pytest.raises(volley.VolleyError) as caught:
        api.run(f"A -> : password={LIVE}\n", volley.Options(redact=True))
    assert LIVE not in caught.value.format()


@pytest.mark.parametrize("text", [SECRET, "A -> B: hello\n"], ids=["secrets", "none"])
@pytest.mark.parametrize("redact", [False, True])
def test_a_render_looks_for_secrets_once(monkeypatch, text: str, redact: bool):
    """The check's look at the texts serves the warnings and the masking: a diagram holding
    none (whose findings count none) was looked at again by each."""
    from volley.checks import lint, secrets
    from volley.checks import redact as redaction

    made = []

    class Counted(secrets.DiagramSecrets):
        def __init__(self, diagram: Diagram) -> None:
            made.append(diagram)
            super().__init__(diagram)

    for module in (api, lint, redaction):
        monkeypatch.setattr(module, "DiagramSecrets", Counted, raising=False)
    monkeypatch.setattr(secrets, "DiagramSecrets", Counted)
    api.run(text, volley.Options(redact=redact))
    assert len(made) == 1


def test_check_file_names_the_file_and_redacts_its_errors(tmp_path: Path):
    path = tmp_path / "bad.volley"
    path.write_text(f"A -> : password={LIVE}\n", encoding="utf-8")
    with pytest.raises(volley.VolleyError) as caught:
        api.check_file(str(path), redact=True)
    assert caught.value.filename == str(path) and LIVE not in caught.value.format()


def test_a_redacted_errors_caret_stands_under_the_place_in_the_masked_line():
    """The column stays the file's (an editor goes there); the caret, under the quoted line
    as masked, stands under the character the error is about, not a secret's length on."""
    token = "ya29.a0AfH6SMBx7Q2kZ9pLmN4vR8sT1uW3yX5zA7bC9dE0fG2hI4jK6lM8nO"
    source = f"A -> B: ok\nA -> B GET /x?access_token={token} ->> C: y\n"
    with pytest.raises(volley.VolleyError) as caught:
        api.run(source, volley.Options(redact=True))
    error = caught.value
    written = source.split("\n")[1]
    assert error.column == written.index("->> C") + 1  # the file's column
    _, quoted, caret, *_ = error.format().split("\n")
    assert token not in quoted and "<redacted>" in quoted
    assert quoted[caret.index("^")] == "-" and quoted[caret.index("^") :].startswith("->> C")
    # without redaction, the same caret under the line as written
    with pytest.raises(volley.VolleyError) as plain:
        api.run(source)
    _, quoted, caret, *_ = plain.value.format().split("\n")
    assert quoted[caret.index("^") :].startswith("->> C")


def test_redaction_is_a_model_step_that_passes_every_item_through():
    diagram = Diagram(
        participants=["A", "B"],
        items=[
            Activation(1, "A", True),
            Message(
                2,
                "A",
                "B",
                "->",
                f"token={LIVE}",
                request=Payload("in", None, f"password: {LIVE}", "indented", 3),
            ),
            Activation(5, "A", False),
        ],
    )
    before = dataclasses.replace(diagram, items=list(diagram.items))
    masked = redact_diagram(diagram)
    assert diagram == before
    assert [type(item) for item in masked.items] == [Activation, Message, Activation]
    message = masked.items[1]
    assert LIVE not in message.label and LIVE not in message.request.body


def test_a_parsed_diagram_and_its_text_draw_the_same_bytes():
    for fmt in ("svg", "html"):
        assert volley.render(SECRET, fmt) == volley.render(volley.parse(SECRET), fmt)


def test_every_front_end_draws_what_the_pipeline_draws(tmp_path: Path):
    """The command line and README mode write the bytes `volley.render` returns."""
    source = tmp_path / "flow.volley"
    source.write_text(SECRET, encoding="utf-8")
    done = CliRunner().invoke(main, ["render", str(source), "--redact", "-q"])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "flow.svg").read_text(encoding="utf-8") == volley.render(SECRET, redact=True)

    readme = tmp_path / "README.md"
    readme.write_text(f"# Sign in\n\n```volley\n{SECRET}```\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["render", str(readme), "-q"])
    assert done.exit_code == 0, done.output
    drawn = (tmp_path / "diagrams" / "sign-in.svg").read_text(encoding="utf-8")
    assert drawn == volley.render(SECRET, theme="auto", id_prefix="sign-in")


def test_the_server_draws_what_the_pipeline_draws():
    pytest.importorskip("starlette")
    pytest.importorskip("httpx2")
    from starlette.testclient import TestClient

    from volley.server import create_app

    with TestClient(create_app(examples=None)) as client:
        svg = client.post("/render?format=svg", content=SECRET.encode())
        page = client.post("/render?format=html&theme=dark", content=SECRET.encode())
    assert svg.status_code == 200 and svg.text == volley.render(SECRET)
    assert page.status_code == 200 and page.text == volley.render(SECRET, "html", theme="dark")


def test_the_markdown_fences_draw_what_the_pipeline_draws():
    pytest.importorskip("pymdownx")
    from volley.docs.fences import Settings, _render

    fragment = _render(SECRET, Settings(), "login", None)
    assert fragment.html == volley.render(
        SECRET, "html", fragment=True, include_assets=False, theme="auto", id_prefix="login"
    )
    static = _render(SECRET, Settings(interactive=False, theme="dark"), "login", None)
    assert volley.render(SECRET, id_prefix="login") in static.html
    assert [w.message for w in fragment.diagnostics] == [
        w.message for w in volley.check(SECRET).warnings
    ]


@pytest.mark.parametrize("call", ["parse", "check"])
def test_bytes_are_refused_with_the_way_to_read_them(call: str) -> None:
    with pytest.raises(TypeError, match="decode bytes with volley.decode first"):
        getattr(volley, call)(b"A -> B: hi")


def test_option_words_on_the_command_line_take_any_case(tmp_path) -> None:
    source = tmp_path / "flow.volley"
    source.write_text("A -> B: hi\n")
    out = tmp_path / "flow.svg"
    done = CliRunner().invoke(
        main, ["render", str(source), "--format", "SVG", "--theme", "Dark", "-o", str(out)]
    )
    assert done.exit_code == 0, done.output
    assert out.read_bytes() == volley.render("A -> B: hi\n", theme="dark").encode()


def test_reading_a_diagram_loads_no_importer(reference_text: str) -> None:
    """Every diagram read is asked whether it is a swimlanes.io link; the answer comes from a
    module of its own: the importers (their registry, their patterns) load only for a link
    that holds another tool's text, or for `volley import`."""
    import subprocess
    import sys

    code = (
        "import sys, volley\n"
        "from volley.api import check\n"
        "text = sys.stdin.read()\n"
        "check(text)\n"
        "volley.render(text, format='html')\n"
        "assert not [m for m in sys.modules if m.startswith('volley.importers')], sys.modules\n"
    )
    root = Path(__file__).resolve().parents[1]
    subprocess.run(
        [sys.executable, "-c", code], input=reference_text, text=True, check=True, cwd=root
    )
