"""`volley parse` and `volley check` as a user runs them: output, stderr and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from volley.api import render as volley_render
from volley.cli import main

from .conftest import EXAMPLES


def run(*args: str, stdin: str | None = None, env: dict | None = None):
    return CliRunner().invoke(main, list(args), input=stdin, env=env or {"NO_COLOR": "1"})


def test_parse_prints_the_contract_json():
    result = run("parse", str(EXAMPLES / "mcp-tool-call.volley"))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"title", "participants", "items"} <= set(data)  # extra keys may be added
    message = data["items"][2]
    assert set(message) >= {
        "type",
        "line",
        "from",
        "to",
        "arrow",
        "label",
        "number",
        "request",
        "response",
    }
    assert set(message["request"]) == {"label", "lang", "body", "form"}
    assert (message["from"], message["to"], message["arrow"]) == ("Agent", "MCP Server", "->")


def test_parse_reads_stdin():
    result = run("parse", "-", stdin="A <-- B: hi\n")
    assert result.exit_code == 0
    item = json.loads(result.stdout)["items"][0]
    assert (item["from"], item["to"], item["arrow"], item["label"]) == ("A", "B", "<--", "hi")


def test_parse_error_exits_1_with_located_message(tmp_path):
    bad = tmp_path / "bad.volley"
    bad.write_text("title: x\nAgent ~> B\n")
    result = run("parse", str(bad))
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"{bad}:2:7: error:" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_all_valid_exits_0(tmp_path):
    good = tmp_path / "good.volley"
    good.write_text("A -> B\n")
    result = run("check", str(good), str(EXAMPLES / "mcp-tool-call.volley"))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""


def test_every_example_checks_clean_without_warnings():
    """Examples are what users copy: no errors, no unknown icons, no secret-looking values."""
    examples = sorted(str(path) for path in EXAMPLES.glob("*.volley"))
    result = run("check", *examples)
    assert result.exit_code == 0 and result.stderr == ""


def test_check_reports_every_failing_file(tmp_path):
    one = tmp_path / "one.volley"
    two = tmp_path / "two.volley"
    good = tmp_path / "good.volley"
    one.write_text("A -> B\nend\n")
    two.write_text("if ok\nA -> B\nelse if: no\nend\n")
    good.write_text("if: x\nA -> B\n")  # a block open at the end: a warning, not an error
    result = run("check", str(one), str(good), str(two))
    assert result.exit_code == 1
    assert f"{one}:2:1: error: end without an open block" in result.stderr
    assert f'{two}:1:3: error: expected ":" after "if"' in result.stderr
    assert 'did you mean "if: ok"?' in result.stderr
    assert f'{two}:3:1: error: volley has no "else if"' in result.stderr
    assert "2 errors" in result.stderr
    assert f"{good}:1:1: warning: this if: block is never closed" in result.stderr
    assert "2 of 3 files with errors" in result.stderr


def test_check_warns_on_unknown_and_pro_icons_without_failing(tmp_path):
    path = tmp_path / "icons.volley"
    path.write_text("=: {fas-plugg} Connecting\nA -> B: {fal-bolt} zap\n")
    result = run("check", str(path))
    assert result.exit_code == 0
    assert f"{path}:1:4: warning:" in result.stderr and "fas-plugg" in result.stderr
    assert f"{path}:2:9: warning:" in result.stderr and "Pro" in result.stderr


def test_usage_errors_exit_2(tmp_path):
    assert run("check").exit_code == 2
    assert run("parse", str(tmp_path / "missing.volley")).exit_code in (1, 2)
    assert run("frobnicate").exit_code == 2


def test_missing_file_is_a_clear_error(tmp_path):
    result = run("check", str(tmp_path / "nope.volley"))
    assert result.exit_code == 1
    assert "cannot read" in result.stderr and "Traceback" not in result.stderr


def test_a_picture_given_as_a_diagram_is_one_error_that_says_what_it_is(tmp_path):
    """`volley check flow.png` (or the SVG volley drew) said "save the file as UTF-8", or
    quoted the SVG's tags as participants."""
    svg = tmp_path / "flow.svg"
    svg.write_text(volley_render("A -> B: hi\n"), encoding="utf-8")
    png = tmp_path / "flow.png"
    png.write_bytes(volley_render("A -> B: hi\n", format="png"))
    result = run("check", str(svg), str(png))
    assert result.exit_code == 1
    assert f"{svg}:1:1: error: this is an SVG picture, not a volley diagram" in result.stderr
    assert f"{png}: error: this is a PNG image, not text\n" in result.stderr
    assert "UTF-8" not in result.stderr
    imported = run("import", str(png))
    assert f"{png}: error: this is a PNG image, not text\n" in imported.stderr
    assert "or captured traffic (a HAR file" in imported.stderr
    # a diagram whose first name merely looks like a tag is still a diagram
    assert run("check", "-", stdin="<svg> -> B: hi\n").exit_code == 0
    xml = run("check", "-", stdin='<?xml version="1.0"?>\n<definitions/>\n')
    assert "error: this is an XML file, not a volley diagram" in xml.stderr


def test_a_file_named_as_another_tools_diagram_gets_one_error_that_says_so(tmp_path):
    """A `.. uml::` body saved as flow.puml has no @startuml: it was 28 errors naming
    PlantUML's habits, none saying that volley import reads it."""
    body = "autoactivate on\nAlice -> Bob : hi\nreturn ok\nnote right\n  words\nend note\n"
    path = tmp_path / "flow.puml"
    path.write_text(body, encoding="utf-8")
    result = run("check", str(path))
    assert result.exit_code == 1
    assert (
        f"{path}:1:1: error: this is named as a PlantUML diagram (.puml) and does not read as "
        "volley; volley import converts it"
    ) in result.stderr
    assert result.stderr.count("error:") == 1 and "1 error\n" in result.stderr
    # named as a volley diagram, its mistakes are each said
    (tmp_path / "flow.volley").write_text(body, encoding="utf-8")
    assert run("check", str(tmp_path / "flow.volley")).stderr.count("error:") > 2
    # a Mermaid-named file that reads as volley is volley, and one with a mistake of its own
    # (no habit of Mermaid's) keeps its error: import would send it back to check
    (tmp_path / "ok.mmd").write_text("A -> B: fine\n", encoding="utf-8")
    assert run("check", str(tmp_path / "ok.mmd")).exit_code == 0
    (tmp_path / "stray.mmd").write_text("A -> B: fine\nend\n", encoding="utf-8")
    stray = run("check", str(tmp_path / "stray.mmd"))
    assert "stray.mmd:2:1: error: end without an open block" in stray.stderr
    imported = run("import", str(path), "-o", str(tmp_path / "out.volley"))
    assert imported.exit_code == 0, imported.stderr


def test_invalid_utf8_file(tmp_path):
    path = tmp_path / "latin1.volley"
    path.write_bytes("A -> B: caf\xe9\n".encode("latin-1"))
    result = run("check", str(path))
    assert result.exit_code == 1
    assert f"{path}:1:12: error: this line is not valid UTF-8 (byte 0xe9" in result.stderr
    assert "save the file as UTF-8" in result.stderr
    assert result.stderr.splitlines()[-2:] == ["1 error", "1 of 1 file with errors"]
    # the lines past it are read on, the byte as U+FFFD: the other mistakes are said at once
    path.write_bytes(b"A -> B: caf\xe9\nC ~> D\n")
    result = run("check", str(path))
    assert "latin1.volley:2:3: error:" in result.stderr and "2 errors" in result.stderr
    assert run("render", str(path)).exit_code == 1 and not path.with_suffix(".svg").exists()


def test_a_binary_file_is_said_to_be_one_without_quoting_its_bytes(tmp_path):
    """`volley check` of a program quoted ~1,500 characters of escapes, the caret at column 126."""
    path = tmp_path / "ls.volley"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 16 + b"\xd0\x8f\xff" + b"x" * 200)
    result = run("check", str(path))
    assert result.exit_code == 1
    assert f"{path}:1:8: error: this is a binary file (it holds NUL bytes), not text" in (
        result.stderr
    )
    assert "\\u0000" not in result.stderr and len(result.stderr) < 400
    assert "give the .volley file" in result.stderr
    # import reads other tools' diagrams and traffic, and its hint names them (not .volley)
    imported = run("import", str(path))
    assert imported.exit_code == 1 and "this is a binary file" in imported.stderr
    assert "give a diagram's text (Mermaid, PlantUML" in imported.stderr
    assert ".volley" not in imported.stderr.replace(str(path), "")
    # a text file with a stray NUL and a byte not UTF-8: where the NUL is, to find it by
    path.write_bytes(b"A -> B: hi\nB -> A: o\x00k\xff\n")
    assert f"{path}:2:10: error: this is a binary file" in run("check", str(path)).stderr


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_its_mark_is_said_to_be_so_not_binary(tmp_path, codec):
    path = tmp_path / "u16.volley"
    path.write_bytes("title: Café\nA -> B: hi\n".encode(codec))
    result = run("check", str(path))
    assert result.exit_code == 1
    assert "it reads as UTF-16 without a byte-order mark" in result.stderr
    assert "save the file as UTF-8" in result.stderr and "binary" not in result.stderr


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be", "utf-32"])
def test_a_file_in_utf16_or_utf32_with_its_mark_is_read(tmp_path, codec):
    """Windows PowerShell 5 writes UTF-16 with a byte-order mark when output goes to a file
    (`volley import` of a log saved so, a diagram written by a script)."""
    text = "title: Café ☕\nA -> B: héllo 🚀\n"
    data = text.encode(codec)
    if codec == "utf-16-be":
        data = b"\xfe\xff" + data  # the codec alone writes no mark
    path = tmp_path / "windows.volley"
    path.write_bytes(data)
    result = run("render", str(path), "-o", str(tmp_path / "out.svg"))
    assert result.exit_code == 0, result.stderr
    assert "héllo 🚀" in (tmp_path / "out.svg").read_text(encoding="utf-8")
    # a mark that the rest of the file belies is an error, not text read as something else
    path.write_bytes(b"\xff\xfe" + "A -> B".encode("utf-16-le") + b"\x00\xd8")
    result = run("check", str(path))
    assert result.exit_code == 1 and "Traceback" not in result.stderr
    assert "not valid UTF-16, as its byte-order mark says it is" in result.stderr


def test_color_only_on_a_terminal_and_never_with_no_color(tmp_path):
    path = tmp_path / "bad.volley"
    path.write_text("A ~> B\n")
    assert "\x1b[" not in run("check", str(path)).stderr
    forced = run("check", str(path), env={"FORCE_COLOR": "1"})
    assert "\x1b[" in forced.stderr
    both = run("check", str(path), env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert "\x1b[" not in both.stderr


def test_limits_are_named_with_the_option_to_raise_them(tmp_path):
    path = tmp_path / "many.volley"
    path.write_text("A -> B\n" * 11)
    result = run("check", "--max-messages", "10", str(path))
    assert result.exit_code == 1
    assert "11 messages, over the limit of 10" in result.stderr
    assert "--max-messages" in result.stderr


def test_an_endless_input_stops_at_the_size_limit():
    result = run("check", "--max-input-bytes", "1000", "/dev/zero")
    assert result.exit_code == 1
    assert ", over the limit of 1,000" in result.stderr and "--max-input-bytes" in result.stderr


def test_console_script_entry_point_runs():
    result = subprocess.run(
        [sys.executable, "-m", "volley", "parse", "-"],
        input="A -> B\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0 and json.loads(result.stdout)["participants"] == ["A", "B"]


def test_rendering_a_mermaid_file_names_the_import_that_converts_it(tmp_path):
    """The hint is a command to copy: the file's own name, beside it, for the written text, and
    `-` for text on stdin."""
    source = tmp_path / "login-flow.mmd"
    source.write_text("sequenceDiagram\n  A->>B: hi\n", encoding="utf-8")
    result = run("render", str(source), "-o", str(tmp_path / "x.svg"))
    assert result.exit_code == 1
    out = tmp_path / "login-flow.volley"  # beside the source
    assert f"run: volley import {source} -o {out}, then edit and render {out}" in result.output
    spaced = tmp_path / "my flow.mmd"  # a name with a space is quoted, as a shell needs it
    spaced.write_text("sequenceDiagram\n  A->>B: hi\n", encoding="utf-8")
    said = run("check", str(spaced)).output
    assert f"run: volley import '{spaced}' -o '{tmp_path / 'my flow.volley'}'" in said
    page = tmp_path / "README.md"  # a block of a page: its text alone is what import reads
    page.write_text("# Flow\n\n```volley\nsequenceDiagram\nA->>B: x\n```\n", encoding="utf-8")
    block = run("check", str(page)).output
    assert f"run: volley import - -o {tmp_path / 'diagram.volley'} (the block's text" in block
    piped = run("render", "-", "-o", str(tmp_path / "x.svg"), stdin="sequenceDiagram\nA->>B: x\n")
    assert "run: volley import - -o diagram.volley" in piped.output
    assert not (tmp_path / "x.svg").exists()
