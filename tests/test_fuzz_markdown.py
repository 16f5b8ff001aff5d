"""README mode never changes a byte outside its marker regions, whatever the Markdown holds.

Markdown files are generated from headings, prose, other code fences, quotes, lists,
`<details>`, stray and stale marker comments, CRLF and LF endings, a missing final newline,
hostile text, and ```volley blocks (valid, broken, named, unnamed).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import example, given
from hypothesis import strategies as st

from volley.docs.readme import HTML_COMMENTS, render_markdown, split_lines
from volley.errors import VolleyError
from volley.text.fences import fence_open

from .fuzz_strategies import FUZZ, hostile_strings

PROSE = [
    "# Login", "## Login flow", "Some text with `code` and a [link](https://a.b).", "", "   ",
    "> a quote", "- a list item", "1. first", "    indented code", "<details>", "</details>",
    "<summary>Source</summary>", "```python", "print('```volley')", "```", "~~~", "---",
    "<!-- volley:begin stale -->", "![old](diagrams/old.svg)", "<!-- volley:end -->",
    "<!-- a comment -->", "Café ☕ 漢字 \u202e", "\t",
]  # fmt: skip
DIAGRAMS = [
    ["A -> B: hello"],
    ["title: Sign in", "Browser -> API: POST /login", "API --> Browser: 200"],
    ["A ~> B"],  # broken
    ["if: open", "A -> B"],  # broken: never closed
    ["A -> B: **bold** {fas-plug}", "note A: n"],
]


@st.composite
def volley_block(draw: st.DrawFn) -> list[str]:
    fence = draw(st.sampled_from(["```", "````", "~~~"]))
    info = draw(
        st.sampled_from(["volley", "volley ", "{.volley}", "volley name=login", "volley x"])
    )
    prefix = draw(st.sampled_from(["", "", "> ", "  "]))
    body = draw(st.sampled_from(DIAGRAMS))
    return [prefix + fence + info, *(prefix + line for line in body), prefix + fence]


@st.composite
def markdown(draw: st.DrawFn) -> str:
    parts: list[list[str]] = draw(
        st.lists(
            st.one_of(
                st.sampled_from(PROSE).map(lambda line: [line]),
                st.sampled_from(hostile_strings()).map(lambda line: [line]),
                volley_block(),
            ),
            max_size=12,
        )
    )
    lines = [line for part in parts for line in part]
    endings = draw(st.lists(st.sampled_from(["\n", "\r\n"]), min_size=len(lines)))
    text = "".join(line + end for line, end in zip(lines, endings, strict=False))
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    return text


def outside_regions(text: str) -> list[str]:
    """The file's lines (with their endings) that no marker region holds.

    A region is a begin marker and the end marker within the next 19 lines, with no other
    begin marker or code fence between; a marker without its pair is ordinary text. A blank
    line right before a region counts as the region's: README mode writes one after
    `</details>`, since an HTML block runs on until a blank line and would swallow the link.
    """
    lines = split_lines(text)
    kept: list[str] = []
    index = 0
    while index < len(lines):
        end = _region_end(lines, index)
        if end is None:
            kept.append(lines[index].text + lines[index].eol)
            index += 1
            continue
        if kept and not kept[-1].strip():
            kept.pop()
        index = end + 1
    return kept


def _region_end(lines: list, start: int) -> int | None:
    if not HTML_COMMENTS.begin_line.match(lines[start].text):
        return None
    for end in range(start + 1, min(start + 20, len(lines))):
        if HTML_COMMENTS.end_line.match(lines[end].text):
            return end
        if HTML_COMMENTS.begin_line.match(lines[end].text) or fence_open(
            lines[end].text.lstrip(" \t>")
        ):
            return None
    return None


def _render(path: Path, check: bool = False) -> list[str] | None:
    try:
        return render_markdown(path, check=check, options={"theme": "light"})
    except VolleyError:
        return None


@FUZZ
@given(markdown())
# `---` after a generated end marker once read as a setext heading, renaming the next diagram.
@example("```volley\nA -> B: hello\n```\n---\n```volley\nA -> B: hello\n```\n")
@example("```volley\nA -> B\n```\n</details>\n# Login\n")
@example("<!-- volley:begin stale -->\n```volley\nA -> B: hello\n```\n# Login")
def test_readme_mode_changes_nothing_outside_its_markers(text: str):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "README.md"
        path.write_bytes(text.encode("utf-8"))
        _render(path)
        after = path.read_bytes().decode("utf-8")
        before_lines, after_lines = outside_regions(text), outside_regions(after)
        if before_lines and after_lines and before_lines[-1] != after_lines[-1]:
            # A region added after a last line without an ending gives that line one.
            assert after_lines[-1] == before_lines[-1] + after_lines[-1][len(before_lines[-1]) :]
            assert after_lines[-1].rstrip("\r\n") == before_lines[-1]
            before_lines, after_lines = before_lines[:-1], after_lines[:-1]
        assert after_lines == before_lines
        # A second run has nothing left to do, and --check agrees.
        if _render(path, check=True) is not None:
            assert _render(path, check=True) == []
            assert path.read_bytes().decode("utf-8") == after
