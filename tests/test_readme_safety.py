"""README mode on a stranger's checkout: it writes nothing outside the Markdown file's tree,
never through a symbolic link, reads Markdown as CommonMark does, and never deletes or rewrites
text it did not write itself (issue 19)."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from volley.cli import main
from volley.docs.readme import render_markdown, scan
from volley.errors import VolleyError

BLOCK = "# Login\n\n```volley\nA -> B: hi\n```\n"


def write(folder, text: str, name: str = "README.md"):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# --- symbolic links and the tree ------------------------------------------------------------


def test_an_svg_that_is_a_link_is_not_written_through(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n", encoding="utf-8")
    repo = tmp_path / "repo"
    (repo / "diagrams").mkdir(parents=True)
    os.symlink(outside, repo / "diagrams" / "login.svg")
    path = write(repo, BLOCK)
    with pytest.raises(VolleyError, match="symbolic link") as refused:
        render_markdown(path)
    assert refused.value.hint is not None and "replace the link with a file" in refused.value.hint
    assert outside.read_text(encoding="utf-8") == "precious\n"
    assert os.path.islink(repo / "diagrams" / "login.svg")


def test_a_folder_named_as_the_picture_is_said_to_be_one(tmp_path):
    """The hint said to replace "the link" with a file, where there is no link."""
    repo = tmp_path / "repo"
    (repo / "diagrams" / "login.svg").mkdir(parents=True)
    path = write(repo, BLOCK)
    with pytest.raises(VolleyError, match="a folder, not a file") as refused:
        render_markdown(path)
    assert (
        refused.value.hint
        == "README mode writes the picture under that name: move the folder aside"
    )


def test_a_diagrams_folder_linking_elsewhere_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    repo = tmp_path / "repo"
    repo.mkdir()
    os.symlink(elsewhere, repo / "diagrams")
    path = write(repo, BLOCK)
    with pytest.raises(VolleyError, match="outside"):
        render_markdown(path)
    assert list(elsewhere.iterdir()) == []


def test_a_markdown_file_that_is_a_link_is_not_rewritten(tmp_path):
    outside = write(tmp_path, BLOCK, "notes.md")
    repo = tmp_path / "repo"
    repo.mkdir()
    os.symlink(outside, repo / "README.md")
    with pytest.raises(VolleyError, match="symbolic link"):
        render_markdown(repo / "README.md")
    assert outside.read_text(encoding="utf-8") == BLOCK


def test_the_pre_commit_hook_refuses_a_linked_svg_with_a_clear_error(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_text("precious\n", encoding="utf-8")
    repo = tmp_path / "repo"
    (repo / "diagrams").mkdir(parents=True)
    os.symlink(outside, repo / "diagrams" / "login.svg")
    write(repo, BLOCK)
    result = CliRunner().invoke(main, ["render", str(repo / "README.md")])  # the hook's entry
    assert result.exit_code != 0
    assert "symbolic link" in result.output and "Traceback" not in result.output
    assert outside.read_text(encoding="utf-8") == "precious\n"


# --- CommonMark: what is a diagram ------------------------------------------------------------


@pytest.mark.parametrize(
    "markdown",
    [
        "Code:\n\n    ```volley\n    A -> B\n    ```\n",  # an indented code block
        "<div>\n```volley\nA -> B\n```\n</div>\n",  # an HTML block
        "<pre>\n```volley\nA -> B\n```\n</pre>\n",  # <pre>, blank lines or not
        "<pre>\n\n```volley\nA -> B\n```\n\n</pre>\n",
        "~~~markdown\n```volley\nA -> B\n```\n~~~\n",  # a fence inside another fence
    ],
)
def test_a_fence_shown_as_code_or_html_is_not_a_diagram(tmp_path, markdown):
    assert scan(markdown, "x.md").blocks == []
    path = write(tmp_path, markdown)
    assert render_markdown(path) == []
    assert path.read_text(encoding="utf-8") == markdown
    assert not (tmp_path / "diagrams").exists()


def test_a_fence_in_a_quote_is_read_as_commonmark_reads_it(tmp_path):
    markdown = "> ```volley\n> A -> B: quoted\n>\n> B --> A\n> ```\n"
    found = scan(markdown, "x.md")
    assert [block.source for block in found.blocks] == ["A -> B: quoted\n\nB --> A"]
    path = write(tmp_path, markdown)
    render_markdown(path)
    assert "> <!-- volley:begin diagram -->\n" in path.read_text(encoding="utf-8")


def test_an_unclosed_fence_in_a_quote_ends_with_the_quote(tmp_path):
    markdown = "> ```python\n> print(1)\n\n# Real\n\n```volley\nA -> B\n```\n"
    found = scan(markdown, "x.md")
    assert [block.heading for block in found.blocks] == ["Real"]
    path = write(tmp_path, markdown)
    render_markdown(path)
    assert (tmp_path / "diagrams" / "real.svg").exists()


def test_an_unclosed_volley_fence_in_a_quote_is_reported_and_later_blocks_still_render(tmp_path):
    markdown = "> ```volley\n> A -> B\n\n# Real\n\n```volley\nA -> B\n```\n"
    path = write(tmp_path, markdown)
    reported = []
    with pytest.raises(VolleyError, match="1 diagram"):
        render_markdown(path, report=reported.append)
    assert [(d.line, "never closed" in d.message) for d in reported] == [(1, True)]
    assert (tmp_path / "diagrams" / "real.svg").exists()


@pytest.mark.parametrize("shown", ["```volley", "> ~~~~ {.volley name=x}"])
def test_an_unclosed_fence_that_swallows_a_volley_block_is_reported(shown):
    found = scan(f"```python\nprint(1)\n\n{shown}\nA -> B\n", "x.md")
    assert found.blocks == []
    assert [(p.line, "read as part of it" in p.message) for p in found.problems] == [(1, True)]
    assert scan("```python\nprint(1)\n```volley-like\n", "x.md").problems == []


# --- never deletes or rewrites what it did not write ----------------------------------------

DOCUMENTED_MARKERS = [
    # markers shown as documentation: indented code, <pre>, a fenced block
    "How it looks:\n\n    <!-- volley:begin login -->\n    ![Login](diagrams/login.svg)\n"
    "    <!-- volley:end -->\n",
    "<pre>\n<!-- volley:begin login -->\n![Login](diagrams/login.svg)\n<!-- volley:end -->\n"
    "</pre>\n",
    "```markdown\n<!-- volley:begin login -->\n![Login](diagrams/login.svg)\n"
    "<!-- volley:end -->\n```\n",
]


@pytest.mark.parametrize("shown", DOCUMENTED_MARKERS)
def test_markers_shown_as_documentation_stay_as_they_are(tmp_path, shown):
    markdown = "# Usage\n\n" + shown + "\n# Login\n\n```volley\nA -> B\n```\n"
    path = write(tmp_path, markdown)
    render_markdown(path)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Usage\n\n" + shown + "\n# Login\n\n```volley\nA -> B\n```\n")
    assert text.count("volley:begin login") == 2  # the documented one, and the block's own


@pytest.mark.parametrize("shown", DOCUMENTED_MARKERS)
def test_documented_markers_after_a_block_are_not_its_region(tmp_path, shown):
    markdown = "# Login\n\n```volley\nA -> B\n```\n\n" + shown
    path = write(tmp_path, markdown)
    render_markdown(path)
    assert shown in path.read_text(encoding="utf-8")


def test_text_a_person_wrote_between_markers_is_not_deleted(tmp_path):
    markdown = (
        "Intro\n\n<!-- volley:begin old -->\nMy own notes, which matter.\n<!-- volley:end -->\n"
    )
    path = write(tmp_path, markdown)
    render_markdown(path)
    assert path.read_text(encoding="utf-8") == markdown


def test_a_link_after_details_changes_how_nothing_after_it_is_read(tmp_path):
    # `</details>` runs on to a blank line as HTML: the ```volley after it is HTML text. A link
    # written after `</details>` would bring a blank line and turn it into a second diagram.
    markdown = "```volley\nA -> B: hello\n```\n</details>\n```volley\nA -> B: hello\n```\n"
    path = write(tmp_path, markdown)
    render_markdown(path)
    assert render_markdown(path, check=True) == []
    assert len(scan(path.read_text(encoding="utf-8"), "x.md").blocks) == 1
