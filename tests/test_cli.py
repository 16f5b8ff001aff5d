"""The command line's manners: folders as inputs, -o that says what it will do, usage errors
(exit 2) that say why, one line per file written, help with examples, -V."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import volley
from volley.cli import main

FLOW = "A -> B: hello\nB --> A: hi\n"
README = "# Sign in\n\n```volley\nA -> B: hello\n```\n"


def run(*args: str, cwd: Path | None = None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(main, list(args), env={"NO_COLOR": "1"})
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(main, list(args), env={"NO_COLOR": "1"})
    finally:
        os.chdir(old)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """docs/ with diagrams at two depths, a hidden folder, Markdown with and without diagrams."""
    docs = tmp_path / "docs"
    (docs / "flows").mkdir(parents=True)
    (docs / ".cache").mkdir()
    (docs / "a.volley").write_text(FLOW, encoding="utf-8")
    (docs / "flows" / "b.volley").write_text(FLOW, encoding="utf-8")
    (docs / ".cache" / "broken.volley").write_text("A ->\n", encoding="utf-8")
    (docs / "guide.md").write_text(README, encoding="utf-8")
    (docs / "plain.md").write_text("# Nothing to draw\n", encoding="utf-8")
    return tmp_path


def usage_error(result, *words: str) -> None:
    assert result.exit_code == 2, result.output
    assert "Error:" in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr


# --- folders as inputs ------------------------------------------------------------------------


def test_check_takes_a_folder_and_finds_every_volley_file_below_it(tree: Path):
    (tree / "docs" / "flows" / "c.volley").write_text("A ->\n", encoding="utf-8")
    result = run("check", "docs", cwd=tree)
    assert result.exit_code == 1
    assert os.path.join("docs", "flows", "c.volley") + ":1:" in result.stderr
    assert "1 of 3 files with errors" in result.stderr  # a.volley, b.volley, c.volley
    assert ".cache" not in result.stderr  # hidden folders are skipped
    # render says it too, after the pictures of the others (it said nothing)
    drawn = run("render", "docs", "-o", "out/", cwd=tree)
    assert drawn.exit_code == 1 and drawn.stderr.endswith("1 of 3 files with errors\n")


def test_a_folder_given_to_parse_or_import_is_a_usage_error(tmp_path: Path):
    """`parse DIR` was a usage error and `import DIR` a failed read (exit 1)."""
    for command in ("parse", "import"):
        result = run(command, str(tmp_path))
        assert result.exit_code == 2, (command, result.output)
    assert f"{tmp_path} is a folder; import reads one file" in run("import", str(tmp_path)).stderr


@pytest.mark.parametrize("command", ["check", "fmt", "render"])
def test_standard_input_is_read_once(command: str):
    """`volley check - -` read what was piped as the first input and nothing as the second,
    which it then warned was an empty diagram."""
    result = CliRunner().invoke(main, [command, "-", "-"], input=FLOW)
    assert result.exit_code == 2
    assert "- (standard input) is given more than once" in result.stderr
    assert result.stdout == ""


def test_a_folder_check_skips_dependencies_and_built_sites(tree: Path):
    """node_modules, Sphinx's _build and MkDocs' site (beside mkdocs.yml) hold what tools
    made: copies of the sources, checked twice, or other projects' files."""
    docs = tree / "docs"
    (docs / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    for built in ("node_modules/pkg", "_build/html", "site/flows"):
        (docs / built).mkdir(parents=True)
        (docs / built / "copy.volley").write_text("A ->\n", encoding="utf-8")
    result = run("check", "docs", cwd=tree)
    assert result.exit_code == 0, result.stderr


def test_check_takes_markdown_files_with_diagrams_when_asked(tree: Path):
    (tree / "docs" / "guide.md").write_text("# Broken\n\n```volley\nA ->\n```\n", "utf-8")
    assert run("check", "docs", cwd=tree).exit_code == 0  # Markdown is not looked at
    result = run("check", "--markdown", "docs", cwd=tree)
    assert result.exit_code == 1
    assert os.path.join("docs", "guide.md") + ":4:" in result.stderr  # the line in the file
    assert "1 of 3 files with errors" in result.stderr  # plain.md holds no diagram


def test_check_reads_the_blocks_of_a_markdown_file_named_on_the_command_line(tmp_path: Path):
    (tmp_path / "README.md").write_text(README, encoding="utf-8")
    assert run("check", "README.md", cwd=tmp_path).exit_code == 0


def test_a_folder_without_diagrams_is_a_usage_error(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    usage_error(run("check", "empty", cwd=tmp_path), "no .volley files below the folder empty")
    usage_error(run("render", "empty", cwd=tmp_path), "--markdown")


def test_render_of_a_folder_into_a_folder_keeps_the_layout_below_it(tree: Path):
    result = run("render", "docs", "-o", "site/", cwd=tree)
    assert result.exit_code == 0, result.output
    assert (tree / "site" / "a.svg").exists() and (tree / "site" / "flows" / "b.svg").exists()
    assert not (tree / "site" / "guide.svg").exists()
    written = result.stderr.strip().split("\n")
    assert written == [
        f"{os.path.join('docs', 'a.volley')}: wrote {os.path.join('site', 'a.svg')}",
        f"{os.path.join('docs', 'flows', 'b.volley')}: wrote "
        f"{os.path.join('site', 'flows', 'b.svg')}",
    ]


def test_render_of_a_folder_with_markdown_runs_readme_mode_for_it(tree: Path):
    result = run("render", "--markdown", "docs", cwd=tree)
    assert result.exit_code == 0, result.output
    assert (tree / "docs" / "a.svg").exists() and (tree / "docs" / "flows" / "b.svg").exists()
    assert (tree / "docs" / "diagrams" / "guide-sign-in.svg").exists()
    assert "volley:begin sign-in" in (tree / "docs" / "guide.md").read_text(encoding="utf-8")


# --- where -o writes ----------------------------------------------------------------------------


def test_o_with_a_slash_creates_the_folder(tmp_path: Path):
    (tmp_path / "flow.volley").write_text(FLOW, encoding="utf-8")
    result = run("render", "flow.volley", "-o", "out/pictures/", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "pictures" / "flow.svg").read_text() == volley.render(FLOW)


def test_o_with_a_file_in_a_missing_folder_creates_the_folder_once_the_picture_is_drawn(
    tmp_path: Path,
):
    (tmp_path / "flow.volley").write_text(FLOW, encoding="utf-8")
    (tmp_path / "bad.volley").write_text("A ~> B\n", encoding="utf-8")
    result = run("render", "flow.volley", "-o", "new/sub/flow.png", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "new" / "sub" / "flow.png").read_bytes().startswith(b"\x89PNG")
    assert run("render", "bad.volley", "-o", "other/bad.svg", cwd=tmp_path).exit_code == 1
    assert not (tmp_path / "other").exists()  # a failed render leaves nothing behind


def test_import_o_with_a_file_in_a_missing_folder_creates_the_folder(tmp_path: Path):
    (tmp_path / "flow.mmd").write_text("sequenceDiagram\nA->>B: hi\n", encoding="utf-8")
    result = run("import", "flow.mmd", "-o", "new/flow.volley", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "new" / "flow.volley").read_text() == "A -> B: hi\n"


def test_fmt_takes_a_folder_as_check_does_and_refuses_a_markdown_page_in_one_error(
    tmp_path: Path,
):
    (tmp_path / "flows" / "sub").mkdir(parents=True)
    (tmp_path / "flows" / "a.volley").write_text("A->B:x\n", encoding="utf-8")
    (tmp_path / "flows" / "sub" / "b.volley").write_text("A -> B: y\n", encoding="utf-8")
    checked = run("fmt", "--check", "flows", cwd=tmp_path)
    assert checked.exit_code == 1
    assert checked.output == (
        f"would reformat {os.path.join('flows', 'a.volley')}\n1 of 2 files would be reformatted\n"
    )
    assert run("fmt", "flows", cwd=tmp_path).exit_code == 0
    assert (tmp_path / "flows" / "a.volley").read_text() == "A -> B: x\n"
    (tmp_path / "README.md").write_text("# Flow\n\n```volley\nA->B: x\n```\n")
    for command in ("fmt", "parse"):
        refused = run(command, "README.md", cwd=tmp_path)
        assert refused.exit_code == 1
        assert refused.output.startswith("README.md: error: volley ")
        assert "not Markdown pages\n  volley check README.md checks its ```volley blocks" in (
            refused.output
        )
    assert (tmp_path / "README.md").read_text() == "# Flow\n\n```volley\nA->B: x\n```\n"
    # a link below the folder to a file outside it is not followed there
    (tmp_path / "outside.volley").write_text("A->B:out\n", encoding="utf-8")
    (tmp_path / "flows" / "link.volley").symlink_to(tmp_path / "outside.volley")
    linked = run("fmt", "flows", cwd=tmp_path)
    assert linked.exit_code == 1 and "would be written outside" in linked.output
    assert (tmp_path / "outside.volley").read_text() == "A->B:out\n"


def test_several_inputs_go_into_a_folder_made_for_them(tmp_path: Path):
    for name in ("one", "two"):
        (tmp_path / f"{name}.volley").write_text(FLOW, encoding="utf-8")
    result = run("render", "one.volley", "two.volley", "-o", "out", "-f", "png", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "one.png").read_bytes().startswith(b"\x89PNG")
    usage_error(
        run("render", "one.volley", "two.volley", "-o", "both.svg", cwd=tmp_path),
        "-o both.svg names one file, but there are 2 diagrams",
    )
    usage_error(run("render", "one.volley", "two.volley", "-o", "-", cwd=tmp_path), "-o -")


def test_two_inputs_that_would_share_an_output_are_refused(tmp_path: Path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "flow.volley").write_text(FLOW, encoding="utf-8")
    result = run("render", "a/flow.volley", "b/flow.volley", "-o", "out/", cwd=tmp_path)
    usage_error(result, "would both be written to")
    assert not (tmp_path / "out").exists()


# --- formats, extensions and options that do not apply -----------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-o", "flow.jpg"], ["-o flow.jpg names a .jpg file", ".svg, .png, .pdf, .html"]),
        (["-o", "flow"], ["a file without an extension", "end -o with / for a folder"]),
        (["-o", "flow.svg", "-f", "png"], ["-f png contradicts -o flow.svg", "flow.png"]),
        (["--fragment"], ["--fragment applies to html only, not to svg"]),
        (["-f", "png", "--fragment"], ["--fragment applies to html only, not to png"]),
        (["-o", "flow.png", "--theme", "auto"], ['--theme "auto" does not apply to png']),
        (["-f", "pdf", "--theme", "auto"], ['--theme "auto" does not apply to pdf']),
        (["--scale", "2"], ["--scale sizes png and pdf only, not svg"]),
        (["-f", "html", "--scale", "1"], ["--scale sizes png and pdf only, not html"]),
        (["--check"], ["--check works on Markdown files only"]),
    ],
)
def test_a_contradiction_is_a_usage_error_that_says_why(tmp_path: Path, args, words):
    (tmp_path / "flow.volley").write_text(FLOW, encoding="utf-8")
    usage_error(run("render", "flow.volley", *args, cwd=tmp_path), *words)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flow.volley"]  # nothing written


def test_an_input_that_may_not_be_read_is_said_among_the_others_errors(tmp_path, monkeypatch):
    """click refused the whole command up front ("Path 'secret.volley' is not readable", exit
    2) when one input of several could not be read, and said nothing of the others' errors."""
    for name, text in (("a.volley", "A ~> B\n"), ("secret.volley", FLOW), ("c.volley", "C ->\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    real_access, real_open = os.access, open

    def refused(path, *args, **kwargs):  # as for a file of another user's, chmod 600
        if "secret" in str(path):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(
        os, "access", lambda p, m, **k: "secret" not in str(p) and real_access(p, m)
    )
    monkeypatch.setattr("builtins.open", refused)
    result = run("check", "a.volley", "secret.volley", "c.volley", cwd=tmp_path)
    assert result.exit_code == 1, result.output
    assert "a.volley:1:3: error" in result.stderr and "c.volley:1:5: error" in result.stderr
    assert "secret.volley: error: cannot read secret.volley: Permission denied" in result.stderr
    assert "3 of 3 files with errors" in result.stderr


def test_no_output_is_written_over_its_own_input(tmp_path: Path):
    """A diagram saved under a picture's name (`volley render flow.svg`), `-o` naming the
    input, or a link to it: the diagram was replaced by its picture, without a word."""
    saved = tmp_path / "flow.svg"
    saved.write_text(FLOW, encoding="utf-8")
    usage_error(run("render", "flow.svg", cwd=tmp_path), "writing flow.svg would replace the input")
    (tmp_path / "src.volley").write_text(FLOW, encoding="utf-8")
    (tmp_path / "out.svg").symlink_to("src.volley")
    linked = run("render", "src.volley", "-o", "out.svg", cwd=tmp_path)
    usage_error(linked, "would replace the input src.volley (as out.svg)")
    mermaid = tmp_path / "m.mmd"
    mermaid.write_text("sequenceDiagram\n  A->>B: hi\n", encoding="utf-8")
    usage_error(run("import", "m.mmd", "-o", "m.mmd", cwd=tmp_path), "would replace the input")
    saved_as = tmp_path / "flow.volley"  # a Mermaid file saved under volley's name, into its folder
    saved_as.write_text("sequenceDiagram\n  A->>B: hi\n", encoding="utf-8")
    usage_error(run("import", "flow.volley", "-o", "./", cwd=tmp_path), "would replace the input")
    assert saved_as.read_text(encoding="utf-8").startswith("sequenceDiagram")
    # volley text is no picture: `import -o pic.svg` is refused too
    usage_error(
        run("import", "m.mmd", "-o", "pic.svg", cwd=tmp_path),
        "-o pic.svg names a .svg file, but this writes .volley text",
        "pic.volley",
    )
    assert saved.read_text(encoding="utf-8") == FLOW
    assert (tmp_path / "src.volley").read_text(encoding="utf-8") == FLOW
    assert mermaid.read_text(encoding="utf-8") == "sequenceDiagram\n  A->>B: hi\n"
    assert not (tmp_path / "pic.svg").exists()


@pytest.mark.parametrize(
    "command", [["render", "flow.volley"], ["import", "flow.volley"], ["gallery", "."]]
)
def test_an_empty_output_names_nothing_and_is_said_so(tmp_path: Path, command):
    """`-o ""` (a shell variable never set) was taken for no -o: the picture went beside."""
    (tmp_path / "flow.volley").write_text(FLOW, encoding="utf-8")
    usage_error(run(*command, "-o", "", cwd=tmp_path), "it names no file or folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["flow.volley"]


def test_a_folder_named_like_a_picture_is_not_written_into_as_svg(tmp_path: Path):
    (tmp_path / "flow.volley").write_text(FLOW, encoding="utf-8")
    (tmp_path / "flow.pdf").mkdir()
    usage_error(
        run("render", "flow.volley", "-o", "flow.pdf", cwd=tmp_path),
        "-o flow.pdf is a folder, not a .pdf file",
        "-o flow.pdf/ -f pdf",
    )
    assert list((tmp_path / "flow.pdf").iterdir()) == []
    result = run("render", "flow.volley", "-o", "flow.pdf", "-f", "pdf", cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert (tmp_path / "flow.pdf" / "flow.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    ("args", "flag"),
    [
        (["-o", "out.svg"], "-o"),
        (["-f", "png"], "-f"),
        (["--scale", "2"], "--scale"),
        (["--fragment"], "--fragment"),
    ],
)
def test_picture_options_do_not_apply_to_readme_mode(tmp_path: Path, args, flag):
    (tmp_path / "README.md").write_text(README, encoding="utf-8")
    result = run("render", "README.md", *args, cwd=tmp_path)
    usage_error(result, f"{flag} does not apply to the Markdown file README.md")
    assert not (tmp_path / "diagrams").exists()


def test_the_format_comes_from_the_extension(tmp_path: Path):
    (tmp_path / "flow.volley").write_text(FLOW, encoding="utf-8")
    for name, start in (("f.png", b"\x89PNG"), ("f.pdf", b"%PDF"), ("f.html", b"<!DOCTYPE")):
        assert run("render", "flow.volley", "-o", name, cwd=tmp_path).exit_code == 0
        assert (tmp_path / name).read_bytes().startswith(start)
    agreed = run("render", "flow.volley", "-o", "g.png", "-f", "png", "--scale", "2", cwd=tmp_path)
    assert agreed.exit_code == 0, agreed.output


# --- what is printed ----------------------------------------------------------------------------


def test_one_line_per_written_file_on_stderr_in_every_mode_and_q_silences_it(tmp_path: Path):
    (tmp_path / "flow.volley").write_text(FLOW, encoding="utf-8")
    (tmp_path / "README.md").write_text(README, encoding="utf-8")
    done = run("render", "flow.volley", "README.md", cwd=tmp_path)
    assert done.exit_code == 0, done.output
    assert done.stdout == ""
    assert done.stderr.split("\n")[:2] == [
        "flow.volley: wrote flow.svg",
        "README.md: wrote diagrams/sign-in.svg",
    ]
    (tmp_path / "flow.svg").unlink()
    (tmp_path / "diagrams" / "sign-in.svg").unlink()
    quiet = run("render", "-q", "flow.volley", "README.md", cwd=tmp_path)
    assert quiet.exit_code == 0 and quiet.stdout == "" and quiet.stderr == ""
    assert (tmp_path / "flow.svg").exists() and (tmp_path / "diagrams" / "sign-in.svg").exists()


def test_q_keeps_warnings_and_the_check_verdict(tmp_path: Path):
    (tmp_path / "flow.volley").write_text("A -> B: {fas-nope}\n", encoding="utf-8")
    result = run("render", "-q", "flow.volley", cwd=tmp_path)
    assert result.exit_code == 0 and "warning:" in result.stderr and "wrote" not in result.stderr
    (tmp_path / "README.md").write_text(README, encoding="utf-8")
    stale = run("render", "-q", "--check", "README.md", cwd=tmp_path)
    assert stale.exit_code == 1 and "is missing" in stale.stderr


def test_stdout_gets_the_picture_and_nothing_else(tmp_path: Path):
    (tmp_path / "flow.volley").write_text(FLOW, encoding="utf-8")
    result = run("render", "flow.volley", "-o", "-", cwd=tmp_path)
    assert result.exit_code == 0 and result.stdout == volley.render(FLOW) and result.stderr == ""


def test_redact_turns_the_secret_warning_into_a_note_without_the_old_hint(tmp_path: Path):
    (tmp_path / "flow.volley").write_text(
        "A -> B: POST /login\nin:\n  Authorization: Bearer s3cr3tV4lue9Q\n", encoding="utf-8"
    )
    plain = run("render", "flow.volley", "-q", cwd=tmp_path)
    assert "warning:" in plain.stderr and "--redact on the command line" in plain.stderr
    # the quoted line is masked; the warning says the file is not
    assert "Bearer <redacted>" in plain.stderr and "the file still holds it" in plain.stderr
    masked = run("render", "flow.volley", "-q", "--redact", cwd=tmp_path)
    assert masked.exit_code == 0
    assert "note:" in masked.stderr and "masked in the output" in masked.stderr
    assert "--redact" not in masked.stderr and "s3cr3tV4lue9Q" not in masked.stderr
    assert "s3cr3tV4lue9Q" not in (tmp_path / "flow.svg").read_text(encoding="utf-8")


def test_binary_output_to_a_terminal_is_refused(tmp_path: Path):
    (tmp_path / "flow.volley").write_text(FLOW, encoding="utf-8")
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "volley", "render", "flow.volley", "-o", "-", "-f", "png"],
            stdout=follower,
            stderr=subprocess.PIPE,
            cwd=tmp_path,
            timeout=120,
        )
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 2
    assert b"refusing to write PNG bytes to a terminal" in done.stderr
    piped = subprocess.run(
        [sys.executable, "-m", "volley", "render", "flow.volley", "-o", "-", "-f", "png"],
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert piped.returncode == 0 and piped.stdout.startswith(b"\x89PNG")


# --- help and version ---------------------------------------------------------------------------


@pytest.mark.parametrize("command", sorted(main.commands))
def test_every_command_has_help_with_examples(command: str):
    result = run(command, "--help")
    assert result.exit_code == 0
    assert "Examples:" in result.stdout and f"volley {command} " in result.stdout


def test_serve_describes_host_and_port():
    text = " ".join(run("serve", "-h").stdout.split())
    assert "--host TEXT Address to listen on" in text
    assert "--port INTEGER RANGE Port to listen on; 0 picks a free one" in text


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_version(flag: str):
    result = run(flag)
    assert result.exit_code == 0 and result.stdout == f"volley, version {volley.__version__}\n"


def test_a_path_that_names_no_file_is_an_error_that_says_so():
    result = run("check", "no/such/flow.volley")
    assert result.exit_code == 1
    assert "no/such/flow.volley: error: cannot read no/such/flow.volley: No such file" in (
        result.output
    )


def test_a_picture_too_big_to_paint_names_its_file(tmp_path: Path):
    tall = tmp_path / "tall.volley"
    tall.write_text("A -> B: x\n" + "".join(f"note: line {n}\n" for n in range(3000)))
    result = run("render", str(tall), "-o", str(tmp_path / "tall.png"))
    assert result.exit_code == 1
    assert f"{tall}: error: the PNG would be 300 × " in result.output
    assert not (tmp_path / "tall.png").exists()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_warnings_that_cannot_be_written_do_not_cost_the_picture(tmp_path):
    """stderr on a full disk (or a pipe closed early, `2>&1 | head -1`): the warnings are
    lost, the picture is written, and the command succeeds."""
    source = tmp_path / "flow.volley"
    source.write_text("A -> B: {fas-no-such-icon} hi\n")
    target = tmp_path / "flow.svg"
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "volley", "render", str(source), "-o", str(target)],
            stderr=full,
            stdout=subprocess.PIPE,
        )
    assert done.returncode == 0
    assert target.read_text().startswith("<svg")
    first, second = tmp_path / "a.volley", tmp_path / "b.volley"
    first.write_text("A->B: x\n")
    second.write_text("C->D: y\n")
    with open("/dev/full", "w") as full:  # fmt says "reformatted …" for each file
        done = subprocess.run(
            [sys.executable, "-m", "volley", "fmt", str(first), str(second)], stderr=full
        )
    assert done.returncode == 0 and second.read_text() == "C -> D: y\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_result_that_cannot_be_written_to_stdout_is_an_error(tmp_path):
    """`volley parse` or `render -o -` into a full disk (or a closed pipe) fails and says
    so: the output is never lost in silence, nor blamed on the input file."""
    source = tmp_path / "flow.volley"
    source.write_text("A -> B: hi\n")
    for args in (["parse", str(source)], ["render", str(source), "-o", "-"]):
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [sys.executable, "-m", "volley", *args], stdout=full, stderr=subprocess.PIPE
            )
        assert done.returncode == 1, args
        assert b"cannot write standard output: No space left on device" in done.stderr
