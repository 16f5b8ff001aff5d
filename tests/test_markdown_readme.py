"""README mode: `volley render README.md` keeps SVGs and image links beside ```volley blocks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from volley.cli import main
from volley.docs.readme import render_markdown, scan
from volley.errors import VolleyError

README = """\
# Demo

Intro with a `code span` and an ![image](logo.png).

## Login flow

```volley
title: **Login**
Browser -> API: POST /login
API --> Browser: 200 OK
```

```python
print("```volley")
```

- A step in a list:

  ```volley name="cdn"
  Browser -> CDN: GET /app.js
  ```

<details><summary>Source</summary>

````volley
Agent -> Tools: call
in: Arguments
```json
{"q": 1}
```
````

</details>

## Login flow

    ```volley
    A -> B: an indented code block, shown as code
    ```

> ```volley
> Quoted -> Block: in a quote
> ```
"""

REGION = re.compile(
    r"^(?:\r?\n(?=<!-- volley:begin))?[ >]*<!-- volley:begin [^\n]*-->.*?<!-- volley:end -->\r?\n",
    re.S | re.M,
)


def write(tmp_path, text: str, newline: str = "\n"):
    path = tmp_path / "README.md"
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    return path


def without_regions(data: bytes) -> bytes:
    """The file with every generated region (and the blank line a `</details>` needs) removed."""
    return REGION.sub("", data.decode("utf-8")).encode("utf-8")


def test_render_then_nothing_to_do(tmp_path):
    path = write(tmp_path, README)
    changes = render_markdown(path)
    assert any("wrote" in change and "login-flow.svg" in change for change in changes)
    after = path.read_bytes()
    svgs = {p.name: p.read_bytes() for p in (tmp_path / "diagrams").iterdir()}
    assert sorted(svgs) == ["cdn.svg", "login-flow-2.svg", "login-flow-3.svg", "login-flow.svg"]
    assert render_markdown(path) == []  # idempotent
    assert path.read_bytes() == after
    assert {p.name: p.read_bytes() for p in (tmp_path / "diagrams").iterdir()} == svgs


def test_links_land_right_after_their_blocks(tmp_path):
    path = write(tmp_path, README)
    render_markdown(path)
    text = path.read_text(encoding="utf-8")
    assert "```\n<!-- volley:begin login-flow -->\n![Login](diagrams/login-flow.svg)\n" in text
    assert "  ```\n  <!-- volley:begin cdn -->\n  ![Cdn](diagrams/cdn.svg)\n" in text
    assert "</details>\n\n<!-- volley:begin login-flow-2 -->" in text  # shown, not folded
    assert "> ```\n> <!-- volley:begin login-flow-3 -->\n" in text
    assert "an indented code block, shown as code\n    ```\n\n" in text  # not a diagram


def test_crlf_file_is_unchanged_outside_the_markers(tmp_path):
    path = write(tmp_path, README, newline="\r\n")
    original = path.read_bytes()
    render_markdown(path)
    after = path.read_bytes()
    assert after != original
    assert b"\n" not in after.replace(b"\r\n", b"")  # every new line ends the file's way
    assert without_regions(after) == original


def test_a_byte_order_mark_keeps_the_first_heading_a_heading(tmp_path):
    """A file saved with a BOM (Windows' Notepad) lost its first heading to it: the picture
    was named "diagram", its alt text "Diagram"."""
    path = write(tmp_path, "\ufeff# Login flow\n\n```volley\nA -> B: hi\n```\n")
    render_markdown(path)
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf# Login flow\n")  # the file keeps its mark
    assert b"![Login flow](diagrams/login-flow.svg)" in data
    # nor is the mark indentation of a fence on the first line: its region stands at the edge
    path.write_bytes(b"\xef\xbb\xbf```volley\nA -> B: hi\n```\n")
    render_markdown(path)
    assert b"\n<!-- volley:begin " in path.read_bytes()


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le"])
def test_a_file_in_utf16_is_written_back_in_it(tmp_path, codec: str):
    """A README saved as UTF-16 (as Windows tools write it) was rewritten as UTF-8 without a
    word: every byte of it changed."""
    import codecs

    mark = {"utf-16-le": codecs.BOM_UTF16_LE, "utf-16-be": codecs.BOM_UTF16_BE}
    bom = mark.get(codec, codecs.BOM_UTF32_LE)
    path = tmp_path / "README.md"
    path.write_bytes(bom + "# Login\n\n```volley\nA -> B: hi\n```\n".encode(codec))
    render_markdown(path)
    data = path.read_bytes()
    assert data.startswith(bom)
    assert "![Login](diagrams/login.svg)" in data[len(bom) :].decode(codec)
    assert render_markdown(path, check=True) == []


def test_no_final_newline_is_kept(tmp_path):
    path = write(tmp_path, "# Last\n\n```volley\nA -> B\n```")
    render_markdown(path)
    text = path.read_text(encoding="utf-8")
    assert text.endswith(
        "```\n<!-- volley:begin last -->\n![Last](diagrams/last.svg)\n<!-- volley:end -->"
    )
    assert render_markdown(path) == []


def test_every_error_of_a_block_is_said_with_a_count(tmp_path):
    """A block's first error alone was said (and no count): the pre-commit hook's user fixed
    one, ran it again, and found the next, where a .volley file's are said at once."""
    path = write(tmp_path, "# T\n\n```volley\nA ~> B: bad\nif ok\nend\nend\n```\n")
    for command in (["check"], ["render"], ["render", "--check"]):
        result = CliRunner().invoke(main, [*command, str(path)])
        assert result.exit_code == 1, result.output
        for place in (":4:3: error:", ":5:3: error:", ":7:1: error: end without an open block"):
            assert f"{path}{place}" in result.stderr, (command, result.stderr)
    assert (
        "\n3 errors\n1 of 1 file with errors"
        in CliRunner().invoke(main, ["check", str(path)]).stderr
    )
    # so many that reading stopped: said, as for a .volley file, where it stopped
    many = "".join(f"A ~> B: {n}\n" for n in range(40))
    path.write_text(f"# T\n\n```volley\n{many}```\n", encoding="utf-8")
    said = CliRunner().invoke(main, ["check", str(path)]).stderr
    assert f"{path}:28: note: volley stopped reading this diagram at line 28" in said


def test_a_file_with_bytes_not_utf8_has_every_error_said_and_is_not_written(tmp_path):
    """Its first bad byte alone was said; and written back, its bytes would be lost to U+FFFD."""
    path = tmp_path / "README.md"
    data = b"# T caf\xe9\n\n```volley\nA -> B: ok\n```\n\n```volley\nB ~> A\n```\n"
    path.write_bytes(data)
    checked = CliRunner().invoke(main, ["check", str(path)])
    assert checked.exit_code == 1
    assert f"{path}:1:8: error: this line is not valid UTF-8" in checked.stderr
    assert f'{path}:8:3: error: "~>" is not an arrow' in checked.stderr
    drawn = CliRunner().invoke(main, ["render", str(path)])
    assert (
        drawn.exit_code == 1 and "the file is not valid UTF-8: nothing is written" in drawn.stderr
    )
    assert path.read_bytes() == data and not (tmp_path / "diagrams").exists()


def test_check_writes_nothing_and_lists_what_is_stale(tmp_path):
    path = write(tmp_path, README)
    runner = CliRunner()
    result = runner.invoke(main, ["render", "--check", str(path)])
    assert result.exit_code == 1
    assert "login-flow.svg is missing" in result.output
    assert not (tmp_path / "diagrams").exists() and path.read_text(encoding="utf-8") == README

    assert runner.invoke(main, ["render", str(path)]).exit_code == 0
    result = runner.invoke(main, ["render", "--check", str(path)])
    assert result.exit_code == 0, result.output
    assert result.output == ""

    edited = path.read_text(encoding="utf-8").replace("POST /login", "POST /session")
    path.write_text(edited, encoding="utf-8")
    result = runner.invoke(main, ["render", "--check", str(path)])
    assert result.exit_code == 1
    assert "login-flow.svg is out of date" in result.output
    assert path.read_text(encoding="utf-8") == edited


def test_svgs_follow_githubs_rules(tmp_path):
    path = write(tmp_path, README)
    render_markdown(path)
    svg = (tmp_path / "diagrams" / "login-flow.svg").read_text(encoding="utf-8")
    assert "<script" not in svg and "@import" not in svg and "@font-face" not in svg
    assert "prefers-color-scheme: dark" in svg  # follows the reader's colour scheme
    assert re.search(r">[^<]*POST /login[^<]*<", svg)


def test_names_come_from_the_author_not_the_position(tmp_path):
    path = write(tmp_path, "# A\n\n```volley\nA -> B\n```\n\n# B\n\n```volley\nB -> C\n```\n")
    render_markdown(path)
    first = (tmp_path / "diagrams" / "b.svg").read_bytes()
    text = path.read_text(encoding="utf-8")
    path.write_text("# New\n\n```volley\nX -> Y\n```\n\n" + text, encoding="utf-8")
    render_markdown(path)
    assert (tmp_path / "diagrams" / "b.svg").read_bytes() == first
    assert (tmp_path / "diagrams" / "new.svg").exists()


def test_a_heading_in_another_script_names_its_picture(tmp_path):
    """`## Вход` and `## 国際化 🚀` name their pictures as a Latin heading does (they used to be
    `diagram.svg` and `diagram-2.svg`, renamed by a diagram added above); a Latin heading's
    accents are left out as before (`Café` gives `cafe`)."""
    text = "## Вход\n\n```volley\nA -> B\n```\n\n## 国際化 🚀\n\n```volley\nB -> C\n```\n"
    path = write(tmp_path, text + "## Café\n\n```volley\nC -> D\n```\n")
    render_markdown(path)
    names = sorted(p.name for p in (tmp_path / "diagrams").iterdir())
    assert names == sorted(["вход.svg", "国際化.svg", "cafe.svg"])
    first = (tmp_path / "diagrams" / "国際化.svg").read_bytes()
    path.write_text("## Новый\n\n```volley\nX -> Y\n```\n\n" + text, encoding="utf-8")
    render_markdown(path)
    assert (tmp_path / "diagrams" / "国際化.svg").read_bytes() == first
    assert "![" in path.read_text(encoding="utf-8").split("## 国際化")[1]


def test_other_markdown_files_prefix_their_pictures(tmp_path):
    path = tmp_path / "guide.md"
    path.write_text("# Setup\n\n```volley\nA -> B\n```\n", encoding="utf-8")
    render_markdown(path)
    assert (tmp_path / "diagrams" / "guide-setup.svg").exists()


def test_duplicate_explicit_names_are_an_error(tmp_path):
    path = write(tmp_path, '```volley name="x"\nA -> B\n```\n\n```volley name="x"\nB -> C\n```\n')
    with pytest.raises(VolleyError, match='"x" is used twice'):
        render_markdown(path)


def test_a_broken_block_is_reported_at_its_readme_line_and_left_alone(tmp_path):
    path = write(tmp_path, "# Ok\n\n```volley\nA -> B\n```\n\n# Bad\n\n```volley\nA ~> B\n```\n")
    reported = []
    with pytest.raises(VolleyError) as raised:
        render_markdown(path, report=reported.append)
    assert (
        raised.value.message == "1 diagram has errors; it is left as it was, the others are drawn"
    )
    with pytest.raises(VolleyError) as checked:
        render_markdown(path, check=True)
    assert checked.value.message == "1 diagram has errors; the others were checked"
    assert [(d.line, d.column) for d in reported] == [(10, 3)]
    text = path.read_text(encoding="utf-8")
    assert "volley:begin ok" in text and "volley:begin bad" not in text


def test_a_block_cut_short_by_its_own_fence_suggests_four_backticks(tmp_path):
    path = write(tmp_path, '```volley\nA -> B\nin: Body\n```json\n{"a": 1}\n```\nB --> A\n```\n')
    reported = []
    with pytest.raises(VolleyError, match="1 diagram"):
        render_markdown(path, report=reported.append)
    assert [d.line for d in reported] == [4]
    assert "never closed" in reported[0].message
    assert "four backticks (````volley" in (reported[0].hint or "")


def test_a_removed_block_takes_its_link_with_it(tmp_path):
    path = write(tmp_path, "# Gone\n\n```volley\nA -> B\n```\n\nAfter.\n")
    render_markdown(path)
    text = path.read_text(encoding="utf-8")
    start, end = text.index("```volley"), text.index("```\n<!--") + 4
    path.write_text(text[:start] + text[end:], encoding="utf-8")
    assert any("removed" in change for change in render_markdown(path))
    assert path.read_text(encoding="utf-8") == "# Gone\n\n\nAfter.\n"


def test_scan_skips_fences_inside_other_fences():
    found = scan("````markdown\n```volley\nA -> B\n```\n````\n", "x.md")
    assert found.blocks == []


def test_pre_commit_hooks_run_real_commands():
    import yaml

    from .conftest import ROOT

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert {hook["id"] for hook in hooks} == {
        "volley-check",
        "volley-markdown",
        "volley-markdown-check",
    }
    for hook in hooks:
        program, command, *flags = hook["entry"].split()
        assert program == "volley" and command in main.commands
        assert all(flag in {p.opts[0] for p in main.commands[command].params} for flag in flags)
        assert re.compile(hook["files"])


def render_one_broken(tmp_path, text: str, picture: str) -> tuple[Path, str, list]:
    """A README whose one broken block fails the render: its path, the `picture` drawn from
    another block, and every problem told."""
    path = write(tmp_path, text)
    said: list = []
    with pytest.raises(VolleyError, match="1 diagram"):
        render_markdown(path, report=said.append)
    return path, (tmp_path / "diagrams" / picture).read_text(encoding="utf-8"), said


def test_options_on_the_fence_line_shape_that_picture(tmp_path):
    """```volley theme=dark bodies=appendix draws that block so, as MkDocs draws it; `--check`
    then reads the same options from the file. A bad value is an error at the fence line."""
    import volley

    source = "A -> B: hi\nin: Body\n  since: yesterday\n"
    text = (
        f"# Demo\n\n```volley theme=dark bodies=appendix\n{source}```\n\n"
        "```volley theme=neon\nA -> B\n```\n"
    )
    path, svg, said = render_one_broken(tmp_path, text, "demo.svg")
    expected = volley.render(
        source, format="svg", theme="dark", bodies="appendix", id_prefix="demo"
    )
    assert svg == expected
    assert [(d.line, d.severity) for d in said] == [(9, "error")]
    assert "neon" in said[0].message
    path.write_text(path.read_text(encoding="utf-8").replace("neon", "light"), encoding="utf-8")
    render_markdown(path, report=said.append)
    assert render_markdown(path, check=True, report=said.append) == []


def test_a_flag_written_alone_on_the_fence_line_is_on_and_another_word_is_named(tmp_path):
    """```volley redact masks the picture, as `redact=true` does (a bare word used to be
    dropped, and the secret written into the committed SVG); a word volley does not know is
    an unknown option, an error that names the option meant."""
    secret = "Bearer s3cr3tV4lue9Q"
    text = (
        f"# Pay\n\n```volley redact bodies=appendix\nA -> B: pay\nin: Headers\n"
        f"  Authorization: {secret}\n```\n\n"
        "## Other\n\n```volley bogus theme\nA -> B\n```\n"
    )
    _, svg, said = render_one_broken(tmp_path, text, "pay.svg")
    assert secret not in svg and "Bearer &lt;redacted&gt;" in svg
    problems = [(d.line, d.severity, d.message) for d in said if d.line == 11]
    assert [severity for _, severity, _ in problems] == ["error"]
    # it points at its option on the fence line: ```volley bogus theme
    assert [d.column for d in said if d.line == 11] == [11]
    # not inside another option's quoted value
    said = []
    quoted = '```volley name="my theme" theme=drak'
    with pytest.raises(VolleyError):
        (tmp_path / "quoted").mkdir()
        render_markdown(write(tmp_path / "quoted", f"# A\n\n{quoted}\nA -> B\n```\n"),
                        report=said.append)  # fmt: skip
    assert [d.column for d in said] == [quoted.index("theme=") + 1]
    assert problems[0][2] == 'unknown option "bogus" on the ```volley fence'
    # `name` alone is said once, with the other options; a quote left open is said as such
    # an option given twice is said at its second writing: which was meant cannot be told
    text = (
        '# A\n\n```volley name\nA -> B\n```\n\n# B\n\n```volley theme="dark\nA -> B\n```\n'
        "\n```volley name=login name=other\nA -> B\n```\n"
    )
    said = []
    with pytest.raises(VolleyError, match="3 diagrams"):
        (tmp_path / "two").mkdir()
        render_markdown(write(tmp_path / "two", text), report=said.append)
    assert [(d.line, d.message) for d in said if d.severity == "error"] == [  # page order
        (3, "name on the ```volley fence needs a value: name=…"),
        (9, 'theme="dark on the ```volley fence opens a quote it does not close'),
        (13, "the option name is given twice on this ```volley fence line"),
    ]
    assert [d.column for d in said if d.line == 13] == [len("```volley name=login ") + 1]
    assert not [d for d in said if d.severity == "note"]  # a broken block is still one


def test_checking_a_myst_page_reads_its_option_lines_and_file_blocks(tmp_path):
    """A Sphinx site's Markdown pages write options as `:key: value` lines at the top of a
    block, and name a file with ```{volley} path; `volley check --markdown` reads both."""
    from volley.docs.readme import check_markdown

    (tmp_path / "flows").mkdir()
    (tmp_path / "flows" / "login.volley").write_text("A -> B: hi\nB ~> A\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n```volley\n:theme: dark\n:appendix-lines: 3\n:bodies: appendix\n:alt: Login\n"
        "\nA -> B: hi\nB -> A: ok\n```\n\n```{volley} flows/login.volley\n:redact:\n```\n",
        encoding="utf-8",
    )
    said: list = []
    assert check_markdown(page, report=said.append) == 1  # the file's mistake, nothing else
    (problem,) = said
    assert problem.filename.endswith("login.volley") and problem.line == 2


def test_a_block_of_snippets_lines_is_noted_not_failed(tmp_path):
    """`--8<-- "flow.volley"` in a ```volley block is how a Material site shares a diagram's
    file: MkDocs draws it, but `volley check --markdown` failed the page (and CI with it)."""
    from volley.docs.readme import check_markdown

    page = tmp_path / "index.md"
    page.write_text(
        '# Page\n\n```volley\n--8<-- "flow.volley"\n```\n\n```volley\nA -> B: hi\n```\n',
        encoding="utf-8",
    )
    said: list = []
    assert check_markdown(page, report=said.append) == 0
    (note,) = said
    assert (note.severity, note.line) == ("note", 3)
    assert "flow.volley, which pymdownx.snippets puts in" in note.message
    assert note.hint == "check the file itself: volley check flow.volley"
    page.write_text("```volley\n--8<-- x\nA -> B: hi\n```\n", encoding="utf-8")
    assert check_markdown(page, report=said.append) == 1  # not snippets' lines alone
    # the block form, and a file's lines taken by number
    said.clear()
    page.write_text(
        '```volley\n--8<--\nflows/a.volley\n--8<--\n```\n\n```volley\n--8<-- "b.volley:3:8"\n```\n',
        encoding="utf-8",
    )
    assert check_markdown(page, report=said.append) == 0
    assert [note.hint for note in said] == [
        "check the file itself: volley check flows/a.volley",
        "check the file itself: volley check b.volley",
    ]


def test_a_fence_that_names_a_file_takes_options_after_it(tmp_path):
    """```volley flows/login.volley theme=dark read the path as an unknown option and wrote
    an empty picture for the README to show."""
    (tmp_path / "flows").mkdir()
    (tmp_path / "flows" / "login.volley").write_text("A -> B: from the file\n", encoding="utf-8")
    readme = tmp_path / "README.md"
    readme.write_text("# Login\n\n```volley flows/login.volley theme=dark\n```\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["render", str(readme)])
    assert result.exit_code == 0 and "unknown option" not in result.output, result.output
    svg = (tmp_path / "diagrams" / "login.svg").read_text(encoding="utf-8")
    assert "from the file" in svg and "#1e293b" in svg  # drawn, in the dark theme


@pytest.mark.parametrize(
    ("fence", "said"),
    [
        ("```volley ../flows/login.volley\nA -> B: both\n```", "and holds a diagram"),
        ("```volley /etc/hosts.volley\n```", "names /etc/hosts.volley, outside the folder"),
        ("```volley ../../outside.volley\n```", "outside the folder volley runs in"),
        ("```volley ../.env\n```", "names ../.env, which is not a .volley file"),
        ("```volley ../flows/loop.volley\n```", "names ../flows/loop.volley, which cannot"),
    ],
)
def test_a_fence_that_names_a_file_wrongly_is_an_error_that_reads_nothing(
    tmp_path, monkeypatch, fence, said
):
    """A hook or a CI job draws the pictures of pages it did not write: a fence naming any file
    on the machine had its first line quoted in the log, or its diagram committed."""
    project = tmp_path / "project"
    (project / "flows").mkdir(parents=True)
    (project / "flows" / "login.volley").write_text("A -> B: x\n", encoding="utf-8")
    (tmp_path / "outside.volley").write_text("A -> B: secret\n", encoding="utf-8")
    (project / ".env").write_text("AWS_SECRET=secret\n", encoding="utf-8")
    (project / "flows" / "loop.volley").symlink_to("loop.volley")  # a link to itself
    readme = project / "docs" / "README.md"
    readme.parent.mkdir()
    readme.write_text(f"# X\n\n{fence}\n", encoding="utf-8")
    monkeypatch.chdir(project)
    result = CliRunner().invoke(main, ["render", str(readme)])
    assert result.exit_code == 1 and said in result.output, result.output
    assert "secret" not in result.output and not (readme.parent / "diagrams").exists()
    readme.write_text("# X\n\n```volley ../flows/login.volley\n```\n", encoding="utf-8")
    assert CliRunner().invoke(main, ["render", str(readme)]).exit_code == 0  # the project's


def test_with_a_broken_block_what_was_made_of_the_others_is_said(tmp_path, monkeypatch):
    """The other pictures were written and linked in silence: no "wrote" line, as there is
    when every block reads."""
    page = "# G\n\n## A\n\n```volley\nA -> B: x\n```\n\n"
    page += "## B\n\n```volley theme=purple\nA -> B: y\n```\n"
    (tmp_path / "g.md").write_text(page, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["render", "g.md"])
    assert result.exit_code == 1
    said = result.output.splitlines()
    assert "g.md: wrote diagrams/g-a.svg" in said and (tmp_path / "diagrams" / "g-a.svg").exists()
    assert said.index("g.md: wrote diagrams/g-a.svg") < said.index(
        "g.md: error: 1 diagram has errors; it is left as it was, the others are drawn"
    )


def test_a_fence_naming_a_link_to_another_file_reads_nothing(tmp_path, monkeypatch):
    """`flows/x.volley` a link to the project's `.env`: its name passed, and the error quoted
    the secret's line."""
    (tmp_path / ".env").write_text("AWS_SECRET=Z9LEAKEDzz\n", encoding="utf-8")
    (tmp_path / "x.volley").symlink_to(tmp_path / ".env")
    (tmp_path / "README.md").write_text("# X\n\n```volley x.volley\n```\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["render", "README.md"])
    assert result.exit_code == 1 and "names x.volley, which is not a .volley file" in result.output
    assert "Z9LEAKED" not in result.output and not (tmp_path / "diagrams").exists()


def test_a_fence_naming_a_file_that_cannot_be_read_points_at_the_fence(tmp_path, monkeypatch):
    """The error named the missing file alone: a page with twenty fences left the reader to
    find which one named it."""
    readme = tmp_path / "README.md"
    readme.write_text("# X\n\n```volley\nA -> B: x\n```\n\n```volley gone.volley\n```\n")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["check", "README.md"])
    assert result.exit_code == 1
    assert "README.md:7:11: error: cannot read " in result.output, result.output
    assert "  ```volley gone.volley\n            ^" in result.output


@pytest.mark.parametrize("command", ["render", "check"])
def test_a_page_of_mermaid_diagrams_only_points_to_the_importer(tmp_path, command):
    """Not silence: a Mermaid user's README has ```mermaid blocks, which volley does not draw;
    a note (not a failure) says how to make ```volley blocks of them."""
    page = "# Flows\n\n```mermaid\nsequenceDiagram\n  A->>B: hi\n```\n\n"
    page += "```mermaid\nflowchart\n```\n"
    path = write(tmp_path, page)
    result = CliRunner().invoke(main, [command, str(path)])
    assert result.exit_code == 0
    assert f"{path}:3:1: note: no ```volley block here, only 1 ```mermaid sequence diagram" in (
        result.output
    )
    assert f"volley import {path} -o flows/" in result.output
    assert not (tmp_path / "diagrams").exists()
    # a page with neither was named to be drawn: it says so (it said nothing)
    plain = write(tmp_path, "# Nothing to draw\n")
    said = CliRunner().invoke(main, [command, str(plain)])
    assert said.exit_code == 0
    assert said.output.startswith(f"{plain}: note: no ```volley block here: nothing to draw\n")


def test_the_alt_text_is_the_heading_as_written_when_the_diagram_has_no_title(tmp_path):
    page = "# Doc\n\n## HTTP API\n\n```volley\nA -> B: hi\n```\n\n## Überblick: Café & API\n\n"
    page += "```volley\nA -> B: x\n```\n"
    path = write(tmp_path, page)
    render_markdown(path)
    text = path.read_text(encoding="utf-8")
    assert "![HTTP API](diagrams/http-api.svg)" in text
    assert "![Überblick: Café & API](diagrams/uberblick-cafe-api.svg)" in text


def test_a_redacted_blocks_title_names_no_file_id_or_alt_text_with_its_secret(tmp_path):
    """With no heading above it, a block's picture was named after its title as written:
    the key it masked was in the file's name, every id in it, and the image's alt text."""
    key = "AKIA9T7S614DOJC3H6GQ"
    path = write(tmp_path, f"Intro.\n\n```volley redact\ntitle: Rotate {key}\nA -> B: hi\n```\n")
    render_markdown(path)
    (picture,) = (tmp_path / "diagrams").iterdir()
    (region,) = REGION.findall(path.read_text(encoding="utf-8"))  # what render wrote
    assert key.lower() not in picture.name.lower() and key.lower() not in region.lower()
    assert key.lower() not in picture.read_text(encoding="utf-8").lower()
    assert "![Rotate <redacted>](diagrams/" in region


def test_check_of_a_folder_checks_its_markdown_and_passes_over_its_diagram_files(
    tmp_path, monkeypatch
):
    """`volley render --check --markdown .` refused a project with any .volley file in it
    ("--check works on Markdown files only"), so a CI job had to list every README."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "flows").mkdir()
    (tmp_path / "flows" / "login.volley").write_text("A -> B\n", encoding="utf-8")
    write(tmp_path, "# R\n\n```volley\nA -> B: hi\n```\n")
    runner = CliRunner()
    stale = runner.invoke(main, ["render", "--check", "--markdown", "."])
    assert stale.exit_code == 1 and "diagrams/r.svg is missing" in stale.output
    assert runner.invoke(main, ["render", "--markdown", "."]).exit_code == 0
    fresh = runner.invoke(main, ["render", "--check", "--markdown", "."])
    assert fresh.exit_code == 0, fresh.output
    named = runner.invoke(main, ["render", "--check", "flows/login.volley"])  # said, as before
    assert named.exit_code == 2 and "works on Markdown files only" in named.output
    folder = runner.invoke(main, ["render", "--check", "flows"])
    assert folder.exit_code == 2 and "there are none with ```volley blocks below flows" in (
        folder.output
    )


def test_a_pictures_name_comes_from_its_title_as_written_without_redact(tmp_path):
    """Names were taken from the title with its hidden characters shown as escapes
    (`log-u200bin-flow.svg` for "Log\u200bin flow"), so existing pictures went stale."""
    path = write(tmp_path, "Intro\n\n```volley\ntitle: Log\u200bin flow\nA -> B: pay\n```\n")
    render_markdown(path)
    assert [p.name for p in (tmp_path / "diagrams").iterdir()] == ["login-flow.svg"]


def test_a_fence_may_carry_sphinx_alt_and_name_its_file_with_file(tmp_path):
    """`alt="…"` (Sphinx's) and `file="…"` (MkDocs') were unknown options: not drawn."""
    (tmp_path / "f.volley").write_text("A -> B: from the file\n", encoding="utf-8")
    path = write(
        tmp_path,
        '# Login\n\n```volley alt="Login flow"\nA -> B: hi\n```\n\n'
        '## File\n\n```volley file="f.volley"\n```\n',
    )
    render_markdown(path)
    assert "from the file" in (tmp_path / "diagrams" / "file.svg").read_text(encoding="utf-8")
    assert (tmp_path / "diagrams" / "login.svg").exists()
    assert "![Login flow](diagrams/login.svg)" in path.read_text(encoding="utf-8")  # its alt


def test_when_every_block_is_broken_no_others_are_said_to_be_drawn(tmp_path):
    path = write(tmp_path, "# A\n\n```volley\nA ~> B\n```\n\n# B\n\n```volley\nB ~> C\n```\n")
    with pytest.raises(VolleyError) as raised:
        render_markdown(path, report=[].append)
    assert raised.value.message == "2 diagrams have errors; they are left as they were"
    assert not (tmp_path / "diagrams").exists()


def test_a_files_warnings_are_said_once_however_many_fences_draw_it(tmp_path):
    from volley.docs.readme import check_markdown

    (tmp_path / "flows").mkdir()
    (tmp_path / "flows" / "login.volley").write_text("A -> B: hi\nactivate Q\n", encoding="utf-8")
    page = tmp_path / "index.md"
    page.write_text(
        "# D\n\n```volley flows/login.volley\n```\n\n"
        "```volley flows/login.volley theme=dark\n```\n",
        encoding="utf-8",
    )
    said: list = []
    check_markdown(page, report=said.append)
    assert [(d.filename.endswith("login.volley"), d.line) for d in said] == [(True, 2)]


def test_a_begin_marker_left_without_its_end_is_an_error_and_the_readme_is_kept(tmp_path):
    """Its end deleted, a region would be written anew above the old one: the README would
    show the picture twice. Rendering stops, the file as it was."""
    text = (
        "# T\n\n```volley\nA -> B: hi\n```\n\n<!-- volley:begin t -->\n"
        "![T](diagrams/t.svg)\n\nMore text.\n"
    )
    path = write(tmp_path, text)
    said: list = []
    with pytest.raises(VolleyError, match="1 diagram has errors"):
        render_markdown(path, report=said.append)
    assert [(d.line, d.column, d.message) for d in said] == [
        (7, 1, "this volley:begin marker has no volley:end after its image")
    ]
    assert said[0].hint == "add a line <!-- volley:end --> after the image line (or delete it)"
    assert path.read_text(encoding="utf-8") == text and not (tmp_path / "diagrams").exists()


def test_a_capitalised_volley_fence_is_said_not_to_be_drawn(tmp_path):
    """```Volley is no diagram to volley (GitHub colours it as one): a warning says so, in
    place of the note that the file holds no diagram."""
    path = write(tmp_path, "# T\n\n```Volley\nA -> B: hi\n```\n")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0
    assert "README.md:3:1: warning: this ```Volley block is not drawn" in result.output
    assert "no ```volley block here" not in result.output
    # a folder's Markdown file holding only such a block is read too, to say so
    result = CliRunner().invoke(main, ["check", "--markdown", str(tmp_path)])
    assert "warning: this ```Volley block is not drawn" in result.output


def test_front_matter_is_no_heading(tmp_path):
    """A page's YAML front matter (Jekyll, Hugo, Docusaurus, MkDocs) ends with `---`, which
    CommonMark reads as underlining its last line: a diagram under no heading was named
    `title-login-guide-sidebar-position-2`, its image's text "title: Login guide
    sidebar_position: 2". Unclosed, the `---` is a rule, and the lines after it Markdown."""
    page = tmp_path / "guide.md"
    page.write_text(
        "---\ntitle: Login guide\nsidebar_position: 2\n---\n\n```volley\nA -> B: hi\n```\n\n"
        "## Sign out\n\n```volley\nA -> B: bye\n```\n",
        encoding="utf-8",
    )
    render_markdown(page)
    text = page.read_text(encoding="utf-8")
    assert "![Diagram](diagrams/guide-diagram.svg)" in text
    assert "![Sign out](diagrams/guide-sign-out.svg)" in text
    page.write_text("---\n## Setup\n```volley\nA -> B: hi\n```\n", encoding="utf-8")
    render_markdown(page)
    assert "![Setup](diagrams/guide-setup.svg)" in page.read_text(encoding="utf-8")
    # a page that opens with a rule, and has another below: Markdown between, not YAML keys
    page.write_text("---\n\nIntro.\n\n```volley\nA -> B: hi\n```\n\n---\n", encoding="utf-8")
    render_markdown(page)
    assert "![Diagram](diagrams/guide-diagram.svg)" in page.read_text(encoding="utf-8")


MDX = """\
---
title: Login
---
import Tabs from '@theme/Tabs';

## Login flow

```volley
Browser -> API: POST /login
API --> Browser: 200 OK
```

<details>
<summary>Source</summary>

```volley name="tools"
Agent -> Tools: call
```

</details>

> ```volley name="quoted"
> Quoted -> Block: in a quote
> ```

<Tabs>Text</Tabs>
"""
# Where the MDX compiler is: .ci/run installs it, as a Docusaurus, Starlight or Nextra site has it.
MDX_COMPILER = Path(__file__).resolve().parent.parent / ".ci" / "mdx" / "node_modules" / "@mdx-js"


def test_an_mdx_page_gets_its_links_between_mdx_comments(tmp_path):
    """MDX pages (Docusaurus, Starlight, Nextra) do not compile with an HTML comment in them:
    their regions are marked with MDX's comments, read back, kept, removed as the README's."""
    page = tmp_path / "intro.mdx"
    page.write_text(MDX, encoding="utf-8")
    render_markdown(page)
    text = page.read_text(encoding="utf-8")
    assert "<!--" not in text
    assert (
        "```\n{/* volley:begin login-flow */}\n![Login flow](diagrams/intro-login-flow.svg)\n"
        "{/* volley:end */}\n" in text
    )
    assert "</details>\n\n{/* volley:begin tools */}\n![Tools](diagrams/intro-tools.svg)" in text
    assert "> ```\n> {/* volley:begin quoted */}\n" in text
    assert render_markdown(page) == [] and page.read_text(encoding="utf-8") == text
    page.write_text(text.replace('```volley name="tools"', "```text"), encoding="utf-8")
    assert any("removed the image link" in change for change in render_markdown(page))
    assert "volley:begin tools" not in page.read_text(encoding="utf-8")
    # an end marker lost: said in MDX's words, no second region written above it
    broken = MDX.replace("```\n\n<details>", "```\n{/* volley:begin login-flow */}\n\n<details>")
    page.write_text(broken, encoding="utf-8")
    said: list = []
    with pytest.raises(VolleyError):
        render_markdown(page, report=said.append)
    assert [(d.line, d.column, d.hint) for d in said] == [
        (12, 1, "add a line {/* volley:end */} after the image line (or delete it)")
    ]
    assert page.read_text(encoding="utf-8").count("volley:begin login-flow") == 1  # none added


def test_quarto_and_mdx_pages_are_markdown_to_every_command(tmp_path):
    """`volley render page.mdx` read the page as a diagram (five errors for its headings,
    imports and fences); a Quarto page keeps HTML's comments, which pandoc reads."""
    (tmp_path / "intro.mdx").write_text(MDX, encoding="utf-8")
    (tmp_path / "report.qmd").write_text("## Flow\n\n```volley\nA -> B: hi\n```\n")
    result = CliRunner().invoke(main, ["check", "--markdown", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "3 files" not in result.output and "error" not in result.output
    for name in ("intro.mdx", "report.qmd"):
        result = CliRunner().invoke(main, ["render", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
    assert "<!-- volley:begin flow -->" in (tmp_path / "report.qmd").read_text()
    assert result.exit_code == 0 and (tmp_path / "diagrams" / "report-flow.svg").is_file()


@pytest.mark.skipif(not MDX_COMPILER.is_dir(), reason="no MDX compiler: .ci/run installs it")
def test_an_mdx_page_with_its_links_compiles(tmp_path):
    """The page README mode wrote, compiled by MDX's own compiler (@mdx-js/mdx, as Docusaurus
    compiles it): it compiles, and holds every picture; the same page with HTML comments
    does not."""
    import subprocess

    page = tmp_path / "intro.mdx"
    page.write_text(MDX, encoding="utf-8")
    render_markdown(page)
    script = (
        f"import {{compile}} from {str(MDX_COMPILER / 'mdx' / 'index.js')!r};"
        "import {readFileSync} from 'node:fs';"
        "try { const js = String(await compile(readFileSync(process.argv[1], 'utf8')));"
        "  console.log((js.match(/diagrams\\/[\\w-]+\\.svg/g) || []).sort().join(' ')) }"
        "catch (e) { console.log('FAILED: ' + e.message) }"
    )

    def compiled(path: Path) -> str:
        args = ["node", "--input-type=module", "-e", script, str(path)]
        return subprocess.run(args, capture_output=True, text=True, check=True).stdout.strip()

    assert compiled(page) == (
        "diagrams/intro-login-flow.svg diagrams/intro-quoted.svg diagrams/intro-tools.svg"
    )
    html_comments = page.read_text(encoding="utf-8").replace("{/*", "<!--").replace("*/}", "-->")
    page.write_text(html_comments, encoding="utf-8")
    assert compiled(page).startswith("FAILED")


def test_a_page_renamed_to_mdx_has_its_html_comment_region_replaced(tmp_path):
    """A README-mode page renamed from .md to .mdx kept its `<!-- … -->` region (which MDX does
    not compile) and got a second region, in MDX's comments, above it: the picture twice."""
    page = tmp_path / "r.md"
    page.write_text("# R\n\n```volley\nA -> B: hi\n```\n", encoding="utf-8")
    render_markdown(page)
    renamed = page.rename(tmp_path / "r.mdx")
    changes = render_markdown(renamed)
    text = renamed.read_text(encoding="utf-8")
    assert "<!--" not in text and text.count("volley:begin") == 1
    assert "{/* volley:begin r */}\n![R](diagrams/r-r.svg)\n{/* volley:end */}\n" in text
    assert any("updated the image link" in change for change in changes)


def test_a_myst_alt_line_is_the_pictures_text(tmp_path):
    """`:alt:` at the top of a block, as MyST pages write it, was left out: the image's text
    was the heading's."""
    path = write(tmp_path, "# Flow\n\n```volley\n:alt: Sign-in, step by step\n\nA -> B: hi\n```\n")
    render_markdown(path)
    assert "![Sign-in, step by step](diagrams/flow.svg)" in path.read_text(encoding="utf-8")
