"""A swimlanes.io share link is a source: given on the command line, or alone in a file or a
docs block, it is read as the diagram it carries, and errors count that diagram's lines."""

from __future__ import annotations

import json
import logging
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import volley
from tests.test_import_swimlanes import LINKS, link_in, make_link
from tests.test_markdown_fences import converter
from volley.cli import main
from volley.docs.readme import render_markdown
from volley.errors import VolleyError, VolleyErrors
from volley.swimlanes_links import decode_link

# Real links, with where they were found (see tests/cases/swimlanes-links/README.md).
WELCOME = link_in(LINKS / "verkstedt-welcome.txt")
DAEMON = link_in(LINKS / "fiberplane-daemon-providers.txt")
# What the welcome link draws: its diagram, whose link to the site's gallery is made whole.
WELCOME_DRAWN = decode_link(WELCOME).replace("](/gallery/", "](https://swimlanes.io/gallery/")
BROKEN = make_link("Alice -> Bob: hi\nAlice -> : oops\nBob -> Alice: ok\nBob ~> Alice: no\n")


def run(*args: str, cwd: Path | None = None):
    old = os.getcwd()
    os.chdir(cwd or old)
    try:
        return CliRunner().invoke(main, list(args), env={"NO_COLOR": "1"})
    finally:
        os.chdir(old)


def test_render_takes_the_link_and_draws_what_it_carries(tmp_path: Path):
    out = tmp_path / "welcome.svg"
    result = run("render", WELCOME, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == volley.render(WELCOME_DRAWN)
    assert result.output == f"<link>: wrote {out}\n"  # not the whole link again


def test_a_link_copied_without_its_scheme_is_the_link_too(tmp_path: Path):
    result = run("parse", DAEMON.removeprefix("https://"), "--indent", "0")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == volley.parse(decode_link(DAEMON)).to_json()


def test_without_o_a_link_has_no_file_to_be_written_beside():
    result = run("render", WELCOME)
    assert result.exit_code == 2
    assert "a swimlanes.io link has no file to write its picture beside: give -o FILE" in (
        result.output
    )


def test_into_a_folder_each_link_is_named_by_itself(tmp_path: Path):
    (tmp_path / "a.volley").write_text("A -> B: x\n", encoding="utf-8")
    out = tmp_path / "out"
    result = run("render", str(tmp_path / "a.volley"), WELCOME, DAEMON, "-o", f"{out}/")
    assert result.exit_code == 0, result.output
    names = sorted(path.name for path in out.iterdir())
    assert names[0] == "a.svg" and len(names) == 3
    assert all(re.fullmatch(r"swimlanes-[0-9a-f]{8}\.svg", name) for name in names[1:])


def test_a_folder_called_swimlanes_io_holds_files_not_a_link(tmp_path: Path):
    (tmp_path / "swimlanes.io").mkdir()
    result = run("check", "swimlanes.io/missing.volley", cwd=tmp_path)
    assert result.exit_code == 1
    assert "cannot read swimlanes.io/missing.volley" in result.output


def test_a_file_holding_only_a_link_is_the_diagram_it_carries(tmp_path: Path):
    source = tmp_path / "flow.volley"
    source.write_text(f"\n  {WELCOME}  \n\n", encoding="utf-8")
    result = run("render", str(source), "-f", "html", "-o", str(tmp_path / "flow.html"))
    assert result.exit_code == 0, result.output
    page = (tmp_path / "flow.html").read_text(encoding="utf-8")
    assert page == volley.render(WELCOME_DRAWN, format="html")


@pytest.mark.parametrize(
    "written",
    [
        WELCOME.removeprefix("https://"),
        f"<{WELCOME}>",
        f"<{WELCOME.removeprefix('https://')}>",
        f"\ufeff{WELCOME}",  # saved by an editor that starts a file with a byte order mark
    ],
    ids=["no scheme", "angle brackets", "both", "byte order mark"],
)
def test_a_file_holding_a_link_as_address_bars_and_markdown_write_it(tmp_path, written):
    source = tmp_path / "flow.txt"
    source.write_text(written + "\n", encoding="utf-8")
    result = run("render", str(source), "-o", str(tmp_path / "flow.svg"))
    assert result.exit_code == 0, result.output
    assert (tmp_path / "flow.svg").read_text() == volley.render(WELCOME_DRAWN)
    with pytest.raises(volley.VolleyError):  # an unclosed bracket: no link, nor a diagram
        volley.check(f"<{WELCOME}")


def test_errors_name_the_links_diagram_and_count_its_lines(tmp_path: Path):
    source = tmp_path / "broken.volley"
    source.write_text(BROKEN + "\n", encoding="utf-8")
    result = run("check", str(source))
    assert result.exit_code == 1
    name = f"{source} (the diagram in its link)"
    assert f"{name}:2:10: error: expected the name of a participant" in result.output
    assert f"{name}:4:5: error:" in result.output
    assert "  Alice -> : oops\n" in result.output  # the carried line, quoted with its caret
    assert "2 errors" in result.output
    on_the_line = run("check", BROKEN)
    assert "<link>:2:10: error:" in on_the_line.output and on_the_line.exit_code == 1


def test_a_link_to_a_saved_diagram_says_it_carries_none(tmp_path: Path):
    source = tmp_path / "saved.volley"
    source.write_text("https://swimlanes.io/d/abc123\n", encoding="utf-8")
    result = run("check", str(source))
    assert result.exit_code == 1
    assert f"{source}:1:1: error: this link names a diagram saved on swimlanes.io" in (
        result.output
    )


def test_fmt_leaves_a_link_alone_and_names_import(tmp_path: Path):
    source = tmp_path / "flow.volley"
    source.write_text(WELCOME + "\n", encoding="utf-8")
    result = run("fmt", str(source))
    assert result.exit_code == 1
    assert "a swimlanes.io link holds the diagram, not text that can be formatted" in (
        result.output
    )
    # beside it, not over it: the link is the only copy of the diagram
    assert f"volley import {source} -o {tmp_path / 'flow.imported.volley'}" in result.output
    assert source.read_text(encoding="utf-8") == WELCOME + "\n"


def test_the_library_reads_a_link_as_its_diagram():
    assert volley.render(WELCOME) == volley.render(WELCOME_DRAWN)
    checked = volley.check(DAEMON)
    assert checked.diagram.to_json() == volley.parse(decode_link(DAEMON)).to_json()
    with pytest.raises(VolleyErrors) as caught:
        volley.check(BROKEN, filename="x.volley")
    assert [error.line for error in caught.value.errors] == [2, 4]
    assert caught.value.filename == "x.volley (the diagram in its link)"


def test_a_links_diagram_points_its_root_links_at_swimlanes_io():
    """Written on swimlanes.io, `[icons](/gallery/font-awesome)` meant that site's page; drawn
    from the link anywhere else, it still does. A file's own root links are its own."""
    text = "title: See [icons](/gallery/font-awesome)\nA -> B: [`/x`](/docs/x)\n"
    svg = volley.render(make_link(text))
    assert 'href="https://swimlanes.io/gallery/font-awesome"' in svg
    assert 'href="https://swimlanes.io/docs/x"' in svg
    assert 'href="/gallery/font-awesome"' in volley.render(text)
    linked = volley.check(make_link(text)).diagram
    assert linked.title == "See [icons](https://swimlanes.io/gallery/font-awesome)"


def test_redact_masks_what_a_link_carries():
    secret = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    link = make_link(f"A -> B: call\nin:\n  Authorization: Bearer {secret}\n")
    assert secret in volley.render(link, format="html")
    assert secret not in volley.render(link, format="html", redact=True)
    broken = make_link(f"A -> B: call\nA -> : token {secret}\n")
    with pytest.raises(VolleyError) as caught:
        volley.render(broken, redact=True)
    assert secret not in caught.value.format()


def test_readme_mode_draws_a_block_holding_a_link(tmp_path: Path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# Flow\n\n```volley\n{WELCOME}\n```\n", encoding="utf-8")
    said: list[str] = []
    render_markdown(readme, report=lambda d: said.append(d.format()))
    assert said == []
    assert (tmp_path / "diagrams" / "flow.svg").is_file()


def test_readme_mode_errors_in_a_link_count_the_links_lines(tmp_path: Path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# Flow\n\n```volley\n{BROKEN}\n```\n", encoding="utf-8")
    said: list[str] = []
    with pytest.raises(VolleyError, match="1 diagram has errors"):
        render_markdown(readme, report=lambda d: said.append(d.format()))
    assert said and said[0].startswith(f"{readme} (the diagram in the link on line 4):2:10: error:")


def test_a_docs_page_points_at_the_block_holding_a_broken_link(caplog):
    page = f"Intro\n\n```volley\n{BROKEN}\n```\n"
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.volley"):
        converter().convert(page)
    messages = [record.getMessage() for record in caplog.records]
    assert messages and "line 4 (line 2 of the diagram in its link)" in messages[0]  # the link
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.volley"):
        box = converter().convert(page)
    assert "(the diagram in the link on line 4):2:10: error:" in box  # the box says the same
    good = converter().convert(f"```volley\n{WELCOME}\n```\n")
    assert 'class="volley-diagram tex2jax_ignore mathjax_ignore"' in good


def test_sphinx_draws_a_link_and_points_at_it_when_its_diagram_is_broken(tmp_path: Path):
    from tests.test_sphinx import build_site, indented, write_site

    rst = (
        f"Flows\n=====\n\n.. volley::\n\n{indented(WELCOME)}\n"
        f".. volley::\n\n{indented(BROKEN)}\n"
        ".. volley:: broken.volley\n"
    )
    site = write_site(tmp_path / "site", {"index.rst": rst, "broken.volley": BROKEN + "\n"})
    log = build_site(site, tmp_path / "out", "--keep-going").stderr
    assert "index.rst:10: WARNING: volley: expected the name of a participant" in log, log
    assert "(line 2 of the diagram in its link)" in log
    # a file holding the link: its line 1, the link's diagram's line 2 (no "broken.volley.rst")
    assert "broken.volley:1: WARNING: volley: expected the name of a participant" in log, log
    assert ".volley.rst" not in log
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert page.count('class="volley-diagram') >= 1
    assert "index.rst (the diagram in the link on line 10):2:10: error:" in page  # its box


def test_a_link_carrying_mermaid_is_one_error_and_import_converts_it(tmp_path: Path):
    """People paste Mermaid into swimlanes.io's editor and share the link."""
    link = make_link("sequenceDiagram\n    participant A\n    A->>B: hi\n")
    source = tmp_path / "flow.link"
    source.write_text(link + "\n", encoding="utf-8")
    result = run("check", str(source))
    assert result.exit_code == 1
    assert (
        f"{source}:1:1: error: this link's text starts with sequenceDiagram (as a Mermaid "
        "sequence diagram does), not volley; volley import converts it"
    ) in result.output
    out = tmp_path / "flow.volley"  # beside the source, wherever the command runs
    assert f"run: volley import {source} -o {out}, then edit and render {out}" in result.output
    imported = run("import", str(source), "-o", str(out))
    assert imported.exit_code == 0, imported.output
    assert out.read_text(encoding="utf-8") == "A -> B: hi\n"


def test_a_link_under_mermaids_header_in_swimlanes_syntax_is_drawn_as_import_reads_it(tmp_path):
    """swimlanes.io's editor draws its own syntax under a `sequenceDiagram` line, and a project
    published such a link as its architecture: `import` read it as swimlanes.io text while
    `render` and `check` refused it as Mermaid."""
    text = "sequenceDiagram\n  participant Shop\n  Shop->>Stripe: POST /v1/payment_intents\n"
    text += "if: asynchronous webhook\n  Stripe -> Shop: payment_intent.succeeded\nend\n"
    link = make_link(text)
    out = tmp_path / "shop.svg"
    drawn = run("render", link, "-o", str(out))
    assert drawn.exit_code == 0, drawn.output
    assert "<link>:1:1: warning: this text starts with Mermaid's header but goes on in " in (
        drawn.output
    )
    assert "(line 4: if: asynchronous webhook)" in drawn.output
    svg = out.read_text(encoding="utf-8")
    assert "payment_intent.succeeded" in svg and "sequenceDiagram" not in svg
    checked = volley.check(link)
    assert run("import", link, "-o", str(tmp_path / "shop.volley")).exit_code == 0
    imported = volley.parse((tmp_path / "shop.volley").read_text(encoding="utf-8"))
    assert (
        [m.label for m in checked.diagram.messages()]
        == [m.label for m in imported.messages()]
        == ["POST /v1/payment_intents", "payment_intent.succeeded"]
    )


def test_an_embedded_file_holding_a_link_counts_the_links_lines_not_the_files():
    from volley import api
    from volley.docs.fences import Location, Problem

    with pytest.raises(VolleyErrors) as caught:
        api.check(BROKEN + "\n", filename="docs/flow.volley")
    said = Problem(caught.value.errors[0].diagnostic, Location("guide.md", 7, "flow.volley"))
    assert said.message().startswith(
        "Doc file 'guide.md', line 7, embedding 'flow.volley' "
        "(line 2 of the diagram in its link): expected the name of a participant"
    )
