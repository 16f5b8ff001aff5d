"""Real `sphinx-build` runs of the small projects in tests/sites/sphinx/.

`basic` has a diagram inline in reStructuredText, one in a file, and ```volley fences in a
MyST Markdown page; `broken` has each kind of mistake. The HTML is opened in Chromium, where
clicking an arrow opens its panel.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_parser")

import volley  # noqa: E402

from .test_secrets import LIVE  # noqa: E402

SITES = Path(__file__).parent / "sites" / "sphinx"

# a static diagram's wrapper, as a page holds it
STATIC = 'class="volley-diagram volley-static tex2jax_ignore mathjax_ignore"'


def sphinx_build(site: str, builder: str, out: Path, *flags: str) -> subprocess.CompletedProcess:
    """Build a copy of the site (so the checkout stays clean) with the real command."""
    source = out / "src"
    shutil.copytree(SITES / site, source)
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "--keep-going", "-q", *flags, "-b", builder]
        + [str(source), str(out / builder)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


@pytest.fixture(scope="module")
def html(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sphinx-html")
    result = sphinx_build("basic", "html", out, "-W")
    assert result.returncode == 0, result.stderr
    return out / "html"


@pytest.fixture(scope="module")
def broken(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path_factory.mktemp("sphinx-broken")
    return sphinx_build("broken", "html", out), out / "html"


def test_rst_directive_draws_a_clickable_diagram_named_for_deep_links(html):
    page = (html / "index.html").read_text()
    assert page.count('class="volley-diagram') == 2  # and the static one below it
    assert page.count(STATIC) == 1
    assert 'id="login"' in page  # the :name: option is the id prefix
    assert "POST /login" in page


def test_a_file_diagram_with_interactive_false_is_a_static_picture(html):
    """Inline on an HTML page, drawn light in the wrapper whose theme the page's stylesheet
    reads (as MkDocs has it), so that it follows a site's own light/dark switch; no script."""
    page = (html / "index.html").read_text()
    static = re.search(
        r'<div class="volley-diagram volley-static tex2jax_ignore mathjax_ignore"'
        r' data-theme="dark" role="figure"'
        r' aria-label="Checkout"[^>]*>(<svg.*?</svg>\n?)</div>',
        page,
        re.S,
    )
    assert static, page
    source = (SITES / "basic" / "flows" / "checkout.volley").read_text()
    prefix = re.search(r'<svg[^>]* id="([^"]+)-svg"', static[1])[1]
    assert static[1] == volley.render(source, format="svg", theme="light", id_prefix=prefix)
    assert "<title" in static[1] and "vl-data" not in static[1]


def test_myst_fences_are_diagrams_with_options(html):
    page = (html / "markdown.html").read_text()
    assert page.count('class="volley-diagram') == 2
    assert 'id="with-options"' in page
    assert "since" in page and "yesterday" in page  # :bodies: appendix lists the body
    assert "highlight-volley" not in page  # no fence was left as a code block


def test_css_and_js_once_per_page_with_diagrams_and_none_elsewhere(html):
    for name in ("index.html", "markdown.html"):
        page = (html / name).read_text()
        assert page.count('href="_static/volley.css') == 1, name
        assert page.count('src="_static/volley.js') == 1, name
    assert "volley.js" not in (html / "genindex.html").read_text()
    # The viewer's own files (read afresh: this process may hold an older copy in its cache).
    assert "__volleyViewer" in (html / "_static" / "volley.js").read_text()
    assert ".volley-diagram" in (html / "_static" / "volley.css").read_text()


def test_the_viewers_files_are_linked_with_a_checksum_of_what_they_hold(html):
    """A reader's browser fetches the script anew when a new volley changes it: linked without
    a checksum, or with the previous build's, a page could run an older viewer on data it
    cannot read."""
    page = (html / "index.html").read_text()
    for name, attribute in (("volley.js", "src"), ("volley.css", "href")):
        assert re.search(rf'{attribute}="_static/{name}\?v=[0-9a-f]+"', page), name


def test_the_search_finds_the_labels_not_the_note_for_readers_without_scripts(html):
    """Every page with a clickable diagram gave the search the note's words ("arrows carry
    requests and responses: turn on JavaScript")."""
    index = (html / "searchindex.js").read_text()
    terms = json.loads(index[index.index("(") + 1 : index.rindex(")")])["terms"]
    assert "login" in terms  # a label's word (POST /login)
    assert not {"turn", "click", "carri"} & set(terms)


def test_code_blocks_in_volley_are_highlighted_by_its_lexer(html):
    page = (html / "index.html").read_text()
    assert '<span class="nc">Worker</span>' in page
    assert '<span class="o">-&gt;</span>' in page


def test_broken_diagrams_are_warnings_with_file_and_line(broken):
    result, _html = broken
    log = result.stderr
    assert re.search(r"index\.rst:7: WARNING: volley: \"~>\" is not an arrow", log), log
    assert 'did you mean "->"?' in log
    assert re.search(r"markdown\.md:7: WARNING: volley: \"~>\" is not an arrow", log), log
    assert re.search(r"index\.rst:15: WARNING: volley: cannot read flows/missing\.volley", log)
    # An embedded file's mistake points into the file, and says which page embeds it.
    assert re.search(r"flows/bad\.volley:2: WARNING: volley: .*\(embedded at index\.rst:19\)", log)
    assert 'index.rst:23: WARNING: volley: :theme: neon: "neon" unknown; choose from' in log
    # an `.. include::`d part's mistake is at the part's own line, and those after it at the
    # page's (they were at the lines of the page with the part written into it)
    assert re.search(r"flows/part\.txt:6: WARNING: volley: \"~>\"", log), log
    assert re.search(r"index\.rst:34: WARNING: volley: \"~>\"", log), log


def test_broken_diagrams_show_the_error_in_their_place(broken):
    _result, html = broken
    page = (html / "markdown.html").read_text()
    assert "This volley diagram could not be drawn" in page
    assert "markdown.md:7:3: error: &quot;~&gt;&quot; is not an arrow" in page or (
        'markdown.md:7:3: error: "~&gt;" is not an arrow' in page
    )
    # an option's value volley does not take: said in its place too (docutils' own error left
    # the page without the diagram and without a word there)
    index = (html / "index.html").read_text()
    assert 'index.rst:23: error: :theme: neon: "neon" unknown' in index.replace("&quot;", '"')


def test_the_error_box_of_a_page_in_a_folder_names_it_from_the_source_folder(tmp_path):
    """`guide/index.rst`'s box said `index.rst:9:3`, which reads as the root page's."""
    site = write_site(
        tmp_path / "site", {"index.rst": "Home\n====\n\n.. toctree::\n\n   guide/index\n"}
    )
    (site / "guide").mkdir()
    (site / "guide" / "index.rst").write_text(
        "Guide\n=====\n\n.. volley::\n\n   A -> B: ok\n   A ~> B: wavy\n", encoding="utf-8"
    )
    build_site(site, tmp_path / "out")
    page = (tmp_path / "out" / "guide" / "index.html").read_text()
    assert "guide/index.rst:7:3: error:" in page and str(site) not in page


def test_warnings_fail_a_build_with_W(tmp_path):
    result = sphinx_build("broken", "html", tmp_path, "-W")
    assert result.returncode != 0
    assert "volley" in result.stderr


def test_latex_gets_png_pictures_and_text_gets_the_source(tmp_path):
    latex = sphinx_build("basic", "latex", tmp_path, "-W")
    assert latex.returncode == 0, latex.stderr
    tex = next((tmp_path / "latex").glob("*.tex")).read_text()
    found = re.findall(
        r"\\sphinxincludegraphics\[width=(\d+)\\sphinxpxdimen\]\{\{([0-9a-f]+)\}\.png\}", tex
    )
    assert len(found) == 4  # the inline, the file and the two fences
    for width, name in found:
        png = (tmp_path / "latex" / f"{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG")
        # drawn at twice its size, shown at its own: not stretched to the line's width
        assert abs(int(width) * 2 - int.from_bytes(png[16:20], "big")) <= 1
    text_dir = tmp_path / "text-build"
    text = sphinx_build("basic", "text", text_dir, "-W")
    assert text.returncode == 0, text.stderr
    written = (text_dir / "text" / "index.txt").read_text()
    assert "Browser -> API: POST /login" in written


def test_a_file_and_inline_text_at_once_is_an_error(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "conf.py").write_text('extensions = ["volley.docs.sphinx"]\n')
    (site / "index.rst").write_text(
        "Title\n=====\n\n.. volley:: flows/login.volley\n\n   A -> B\n", encoding="utf-8"
    )
    result = build_site(site, tmp_path / "out")
    assert (
        'index.rst:4: WARNING: volley: ".. volley::" takes a file or the diagram\'s text, not both'
        in (result.stderr)
    )
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "This volley diagram could not be drawn" in page  # in its place, as any error


def test_a_myst_fence_that_names_a_file_takes_options_after_it(tmp_path):
    """```volley flows/login.volley theme=dark dropped the path: "needs a file or the
    diagram's text"."""
    myst = "# Files\n\n```volley flows/login.volley theme=dark\n```\n\n"
    myst += "```{volley} my flows/a b.volley\n```\n"
    index = "Title\n=====\n\n.. toctree::\n\n   markdown\n\n.. volley:: my flows/a b.volley\n"
    site = write_site(tmp_path / "site", {"index.rst": index, "markdown.md": myst})
    (site / "flows").mkdir()
    (site / "flows" / "login.volley").write_text("A -> B: from the file\n", encoding="utf-8")
    (site / "my flows").mkdir()  # a name with spaces, as a directive's argument may hold
    (site / "my flows" / "a b.volley").write_text("A -> B: spaced\n", encoding="utf-8")
    result = build_site(site, tmp_path / "out")
    assert "ERROR" not in result.stderr and "WARNING" not in result.stderr, result.stderr
    html = (tmp_path / "out" / "markdown.html").read_text(encoding="utf-8")
    assert "from the file" in html and "spaced" in html
    assert "spaced" in (tmp_path / "out" / "index.html").read_text(encoding="utf-8")


INDEX_WITH_MARKDOWN = "Title\n=====\n\n.. toctree::\n\n   markdown\n"


def test_an_option_alone_or_a_quote_left_open_on_the_fence_line_says_so(tmp_path):
    """`theme` alone is an option that needs a value, not a file named "theme"."""
    myst = (
        '# Fences\n\n```volley theme\nA -> B: one\n```\n\n```volley theme="dark\nA -> B: two\n```\n'
        "\n```volley redact redact=false\nA -> B: three\n```\n"
    )
    site = write_site(tmp_path / "site", {"index.rst": INDEX_WITH_MARKDOWN, "markdown.md": myst})
    result = build_site(site, tmp_path / "out")
    log = result.stderr
    assert "markdown.md:3: WARNING: volley: theme on the fence line needs a value: theme=…" in log
    assert 'markdown.md:7: WARNING: volley: theme="dark on the fence line opens a quote it' in log
    assert "markdown.md:11: WARNING: volley: the option redact is given twice on the fence" in log
    page = (tmp_path / "out" / "markdown.html").read_text(encoding="utf-8")
    assert page.count("This volley diagram could not be drawn") == 3


def test_a_misspelt_option_is_refused_in_the_diagrams_place_with_what_was_meant(tmp_path):
    """MyST dropped an unknown `:redcat:` line with a warning of its own and the diagram was
    drawn with its secret unmasked; docutils dropped the diagram of an rST `:theem:` without a
    word in the page; ```volley redcat was read as a file's name."""
    secret = f"in: Request\n  Authorization: Bearer {LIVE}\n"
    myst = (
        f"# Options\n\n```volley\n:redcat:\n\nA -> B: pay\n{secret}```\n\n"
        f"```volley redcat\nA -> B: pay\n{secret}```\n"
    )
    rst = INDEX_WITH_MARKDOWN + "\n.. volley::\n   :theem: dark\n\n   A -> B: hi\n"
    rst += "\n.. volley::\n   :class: wide\n\n   A -> B: classed\n"  # every directive's
    site = write_site(tmp_path / "site", {"index.rst": rst, "markdown.md": myst})
    result = build_site(site, tmp_path / "out")
    log = result.stderr
    assert 'markdown.md:3: WARNING: volley: unknown option "redcat" (did you mean "redact"?' in log
    assert (
        'markdown.md:11: WARNING: volley: unknown option "redcat" on the fence line (did you'
        in (log)
    )
    assert 'index.rst:8: WARNING: volley: unknown option "theem" (did you mean "theme"?' in log
    page = (tmp_path / "out" / "markdown.html").read_text(encoding="utf-8")
    assert LIVE not in page and page.count("This volley diagram could not be drawn") == 2
    # `redcat` most likely meant `redact`: the page's source, which holds the secret, is not
    # published beside it, on the fence line too (its words were read away before the error)
    assert not (tmp_path / "out" / "_sources" / "markdown.md.txt").exists()
    fences = "\n".join(
        f"```volley {line}\nA -> B: pay\n{secret}```\n"
        for line in ("redcat", "rdct=1", "theme=neon redact", "redact=maybe")
    )
    pages = {"index.rst": "T\n=\n\n.. toctree::\n\n   fences\n", "fences.md": f"# F\n\n{fences}"}
    build_site(write_site(tmp_path / "fenced", pages), tmp_path / "fenced-out")
    published = tmp_path / "fenced-out" / "_sources"
    assert (published / "index.rst.txt").exists() and not (published / "fences.md.txt").exists()
    index = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "This volley diagram could not be drawn" in index
    assert re.search(r'<div class="[^"]*\bwide\b[^"]*"', index) and "classed" in index


def test_a_redact_diagram_that_cannot_be_drawn_publishes_no_page_source(tmp_path):
    """A `:redact:` diagram with a mistake was an error box, masked, beside a published copy
    of the page's source (`_sources/`) holding its secret as written."""
    myst = (
        "# Pay\n\n```volley\n:redact:\n\nA -> B: pay\nin: Request\n"
        f"  Authorization: Bearer {LIVE}\nA ~> B: oops\n```\n"
    )
    site = write_site(tmp_path / "site", {"index.rst": INDEX_WITH_MARKDOWN, "markdown.md": myst})
    result = build_site(site, tmp_path / "out")
    assert "is not an arrow" in result.stderr
    published = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert not any(LIVE in p.read_text(encoding="utf-8", errors="replace") for p in published)
    assert not (tmp_path / "out" / "_sources" / "markdown.md.txt").exists()
    assert (tmp_path / "out" / "_sources" / "index.rst.txt").exists()  # the other page's stays


def test_an_image_of_a_volley_file_is_an_error_that_names_the_directive(tmp_path):
    """`![checkout](flows/checkout.volley)`, which MkDocs draws, was copied as an image: a
    broken one on the page, and `\\sphinxincludegraphics{{checkout}.volley}` in LaTeX."""
    myst = "# Images\n\nBefore.\n\n![checkout](flows/checkout.volley)\n"
    rst = INDEX_WITH_MARKDOWN + "\n.. image:: flows/checkout.volley\n"
    site = write_site(tmp_path / "site", {"index.rst": rst, "markdown.md": myst})
    (site / "flows").mkdir()
    (site / "flows" / "checkout.volley").write_text("A -> B: hi\n", encoding="utf-8")
    result = build_site(site, tmp_path / "out")
    said = (
        "WARNING: volley: an image of flows/checkout.volley draws nothing in Sphinx (draw it "
        "with ```{volley} flows/checkout.volley``` (.. volley:: flows/checkout.volley in "
    )
    assert f"markdown.md:5: {said}" in result.stderr and f"index.rst:8: {said}" in result.stderr
    page = (tmp_path / "out" / "markdown.html").read_text(encoding="utf-8")
    assert "This volley diagram could not be drawn" in page and "<img" not in page
    assert not (tmp_path / "out" / "_images").exists()
    build_site(site, tmp_path / "latex", builder="latex")
    tex = next((tmp_path / "latex").glob("*.tex")).read_text(encoding="utf-8")
    assert "includegraphics" not in tex
    assert "markdown.md:5: error: an image of flows/checkout.volley" in tex
    assert "\\PYG{" not in tex  # the error's words as written, not coloured as Python


def test_options_on_the_fence_line_as_github_and_mkdocs_write_them(tmp_path):
    """```volley theme=dark in a MyST page (or `.. volley:: theme=dark`) means the options;
    a diagram naming no theme is light under alabaster, which has no dark mode."""
    myst = (
        '# Fences\n\n```volley name="my flow" theme=dark bodies=appendix\n'
        "A -> B: hi\nin: Body\n  since: yesterday\n```\n\n"
        "```volley colour=red\nA -> B: plain\n```\n\n"
        "```volley redact bodies=appendix\nA -> B: pay\nin: Headers\n"
        f"  Authorization: Bearer {LIVE}\n```\n"
    )
    rst = (
        "Title\n=====\n\n.. toctree::\n\n   markdown\n\n"
        ".. volley:: interactive=false\n\n   A -> B\n"
    )
    site = write_site(tmp_path / "site", {"index.rst": rst, "markdown.md": myst})
    result = build_site(site, tmp_path / "out")
    assert 'unknown option "colour" on the fence line (options are: alt,' in result.stderr
    page = (tmp_path / "out" / "markdown.html").read_text()
    first, second = re.findall(r'<div class="volley-diagram[^>]*>', page)  # not `colour=`
    assert 'data-theme="dark"' in first and "yesterday" in page  # the appendix lists the body
    assert 'data-anchor="my-flow-"' in first  # a quoted value with a space: no file name
    assert 'data-theme="light"' in second  # the site theme's default
    assert LIVE not in page and "Bearer &lt;redacted&gt;" in page  # `redact` alone is a flag
    assert "volley-static" in (tmp_path / "out" / "index.html").read_text()  # interactive=false
    # the page's source, which Sphinx publishes beside it, holds what the picture masks: a
    # page with a redacted diagram publishes none (the index, with none, still does)
    published = [path.name for path in (tmp_path / "out" / "_sources").iterdir()]
    assert published == ["index.rst.txt"] and "_sources/markdown" not in page


def test_adding_redact_and_building_again_removes_the_source_an_earlier_build_published(
    tmp_path,
):
    """The warning says to turn on redact; Sphinx then rebuilds the page alone and leaves the
    rest of the output as it was: the copy of the source the first build published, with the
    live token in it, is removed, not left at its address."""
    diagram = f"A -> B: pay\nin: Headers\n  Authorization: Bearer {LIVE}\n"
    rst = "Title\n=====\n\n.. toctree::\n\n   markdown\n\n.. volley::\n\n" + indented(diagram)
    site = write_site(tmp_path / "site", {"index.rst": rst, "markdown.md": "# Empty\n"})
    first = build_site(site, tmp_path / "out")
    assert "looks like a live secret" in first.stderr
    assert (tmp_path / "out" / "_sources" / "index.rst.txt").exists()
    (site / "index.rst").write_text(rst.replace(".. volley::\n", ".. volley::\n   :redact:\n"))
    again = build_site(site, tmp_path / "out")
    assert again.returncode == 0, again.stderr
    published = sorted(path.name for path in (tmp_path / "out" / "_sources").iterdir())
    assert published == ["markdown.md.txt"]
    assert not [
        p
        for p in (tmp_path / "out").rglob("*")
        if p.is_file() and LIVE in p.read_text(errors="replace")
    ]


def test_redact_holds_when_myst_cannot_read_the_option_block(tmp_path):
    """MyST drops every option of a fence whose option block it cannot read (it warns
    "Invalid options format"); the `:redact:` written there still masks the picture."""
    body = f"A -> B: pay\nin: Headers\n  Authorization: Bearer {LIVE}\n```\n"
    myst = (
        f'# Fences\n\n```{{volley}}\n:alt: "Login" flow\n:redact:\n{body}\n'
        f'```{{volley}}\n---\nalt: "open\nredact: true\n---\n{body}\n'
        f'```{{volley}}\n:alt: "Login" flow\n:redact: false\n{body}'
    )
    site = write_site(tmp_path / "site", {"index.rst": INDEX_WITH_MARKDOWN, "markdown.md": myst})
    result = build_site(site, tmp_path / "out")
    assert result.stderr.count("Invalid options format") == 3
    page = (tmp_path / "out" / "markdown.html").read_text()
    first, second, third = page.split('class="volley-diagram')[1:]
    assert LIVE not in first + second and "redacted" in first and "redacted" in second
    assert LIVE in third  # `:redact: false` says no


AKIA = "AKIA9T7S614DOJC3H6GQ"


def test_a_redacted_diagrams_title_and_ids_publish_nothing_it_masks(tmp_path):
    """The alt text, a :ref:'s words (on other pages too) and the search index took the title
    as written; the ids were a hash of the diagram as written, so a masked code could be
    found again by hashing guesses."""

    def diagram(cvv: str, options: str) -> str:
        body = f'title: Rotate {AKIA}\nShop -> PSP: charge\nin: Request\n  {{"cvv": "{cvv}"}}\n'
        return f".. volley::\n   :redact:\n{options}   :interactive: false\n\n{indented(body)}"

    index = (
        "Title\n=====\n\n"
        + diagram("731", "   :name: deploy\n")
        + "\n"
        + diagram("732", "")
        + "\n"
        + diagram("733", "")
        + "\nSee :ref:`deploy`.\n"
    )
    site = write_site(tmp_path / "site", {"index.rst": index})
    result = build_site(site, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    search = (tmp_path / "out" / "searchindex.js").read_text(encoding="utf-8")
    assert AKIA not in page and AKIA.lower() not in search.lower() and "731" not in page
    assert 'aria-label="Rotate &lt;redacted&gt;"' in page
    # the two unnamed ones differ in their cvv alone: one prefix, the second's numbered
    first, second = re.findall(r'id="(v[0-9a-f]+(?:-2)?)-svg"', page)
    assert second == f"{first}-2"


def test_a_directive_reads_only_a_volley_file(tmp_path):
    """`.. volley:: ../.env` read any file, and the error quoted its first line."""
    (tmp_path / "secret.env").write_text("TOKEN=Z9LEAKEDzz\n")
    rst = "Title\n=====\n\n.. volley:: ../secret.env\n\n.. volley:: link.volley\n"
    site = write_site(tmp_path / "site", {"index.rst": rst})
    (site / "link.volley").symlink_to(tmp_path / "secret.env")
    result = build_site(site, tmp_path / "out")
    page = (tmp_path / "out" / "index.html").read_text()
    assert "cannot read ../secret.env: it is no .volley file" in page
    assert "cannot read link.volley: it is no .volley file" in page
    assert "Z9LEAKED" not in page + result.stderr


def test_clicking_an_arrow_on_the_built_page_opens_its_panel(html, browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto((html / "markdown.html").as_uri())
        diagram = page.locator(".volley-diagram").nth(1)
        diagram.locator('[data-message="1"]').first.click()
        panel = diagram.locator(".vl-panel")
        panel.wait_for(state="visible")
        assert panel.locator(".vl-title").inner_text() == "run nightly"
        assert panel.locator("td", has_text="yesterday").count() == 1
        assert page.evaluate("location.hash") == "#with-options-message-1"
    finally:
        context.close()
    assert errors == []


LONG = "A -> B: POST /x\nin: Body\n" + "".join(f"  line{n:02d}: v{n}\n" for n in range(1, 31))


def write_site(folder: Path, pages: dict[str, str]) -> Path:
    folder.mkdir()
    (folder / "conf.py").write_text(
        'extensions = ["myst_parser", "volley.docs.sphinx"]\n'
        'source_suffix = {".rst": "restructuredtext", ".md": "markdown"}\n'
    )
    for name, text in pages.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def build_site(
    folder: Path, out: Path, *flags: str, builder: str = "html"
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", *flags, "-b", builder, str(folder), str(out)],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )


def indented(text: str) -> str:
    return "".join(f"   {line}\n" for line in text.splitlines())


def listed(page: str, line: str) -> bool:
    """Whether an appendix draws `line` (the viewer's data holds every line, quoted)."""
    return f">{line}<" in page


def test_appendix_lines_caps_each_body_in_rst_and_myst(tmp_path):
    rst = (
        "Capped\n======\n\n.. toctree::\n\n   markdown\n\n"
        f".. volley::\n   :bodies: appendix\n   :appendix-lines: 5\n\n{indented(LONG)}"
    )
    myst = (
        "# In Markdown\n\n```volley\n:bodies: appendix\n:appendix-lines: 3\n"
        f":interactive: false\n\n{LONG}```\n"
    )
    site = write_site(tmp_path / "site", {"index.rst": rst, "markdown.md": myst})
    result = build_site(site, tmp_path / "out", "-W")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "out" / "index.html").read_text()
    assert page.count('class="volley-diagram') == 1
    assert "25 more lines not shown (5 of 30)" in page
    assert listed(page, "line05") and not listed(page, "line06") and not listed(page, "line30")
    static = re.search(
        r'<div class="volley-diagram volley-static tex2jax_ignore mathjax_ignore"'
        r"[^>]*>(<svg.*?</svg>\n?)</div>",
        (tmp_path / "out" / "markdown.html").read_text(),
        re.S,
    )
    assert static
    svg = static[1]
    assert "27 more lines not shown (3 of 30)" in svg
    assert listed(svg, "line03") and not listed(svg, "line04")


def test_a_bad_appendix_lines_is_an_error_at_its_line(tmp_path):
    rst = (
        "Bad\n===\n\n"
        f".. volley::\n   :bodies: appendix\n   :appendix-lines: 0\n\n{indented(LONG)}\n"
        f".. volley::\n   :appendix-lines: 4\n\n{indented(LONG)}"
    )
    site = write_site(tmp_path / "site", {"index.rst": rst})
    result = build_site(site, tmp_path / "out", "--keep-going")
    log = result.stderr
    assert "index.rst:4: WARNING: volley: :appendix-lines: 0: negative or zero value" in log
    assert re.search(
        r'index\.rst:41: WARNING: volley: :appendix-lines: applies to bodies "appendix" only, '
        r'not to "markers" \(it caps the bodies listed under the picture\)',
        log,
    ), log
    page = (tmp_path / "out" / "index.html").read_text()
    assert "volley-diagram" not in page
    assert build_site(site, tmp_path / "strict", "-W").returncode != 0


def test_a_named_diagram_is_a_target_for_ref(tmp_path):
    """`:name: login` names a target, as for any directive: :ref:`login` links to the diagram
    with its title as the text, from another page too."""
    rst = (
        "Guide\n=====\n\n.. toctree::\n\n   other\n\n.. volley::\n   :name: login\n\n"
        "   title: Sign in\n   A -> B: hi\n\n"
        ".. volley::\n   :name: Token Flow\n   :interactive: false\n\n   A -> B: token\n"
    )
    other = "Other\n=====\n\nSee :ref:`login` and :ref:`the token <token flow>`.\n"
    site = write_site(tmp_path / "site", {"index.rst": rst, "other.rst": other})
    result = build_site(site, tmp_path / "out", "-W")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "out" / "other.html").read_text()
    assert re.search(r'<a class="reference internal" href="index.html#login"[^>]*>.*Sign in', page)
    assert 'href="index.html#token-flow"' in page and "the token" in page
    index = (tmp_path / "out" / "index.html").read_text()
    assert index.count('id="login"') == 1  # the diagram's wrapper carries it, and only it
    assert 'id="token-flow"' in index  # so does the static picture's
    ids = re.findall(r'\sid="([^"]+)"', index)
    assert sorted({i for i in ids if ids.count(i) > 1}) == [], ids


DEEP_LINKED = {
    "index.md": "# Home\n\n```{toctree}\nother\n```\n\n```volley name=login\n"
    "Browser -> API: POST /login\nAPI --> Browser: 200\n```\n\n"
    "```volley name=refresh\nA -> B: refresh\n```\n\n"
    "See [the answer](#login-message-2) and [the refresh](#refresh-message-1).\n",
    "other.md": "# Other\n\nSee [the login answer](index.md#login-message-2).\n",
}


def test_deep_links_to_messages_resolve_in_myst_pages_on_and_across_pages(tmp_path):
    """A message's deep link is an anchor MyST resolves, on the page and from another:
    `-W` builds passed only without links to the diagrams the docs say to link to."""
    site = write_site(tmp_path / "site", DEEP_LINKED)
    result = build_site(site, tmp_path / "out", "-W")
    assert result.returncode == 0, result.stderr
    index = (tmp_path / "out" / "index.html").read_text()
    other = (tmp_path / "out" / "other.html").read_text()
    assert 'href="#login-message-2"' in index and 'href="#refresh-message-1"' in index
    assert 'href="index.html#login-message-2"' in other
    ids = re.findall(r'\sid="([^"]+)"', index)
    assert {"login-message-1", "login-message-2", "refresh-message-1"} <= set(ids)
    assert sorted({i for i in ids if ids.count(i) > 1}) == [], ids
    assert 'data-anchor="refresh-"' in index  # the links the viewer writes


def test_an_embedded_file_is_named_by_its_file_as_mkdocs_names_it(tmp_path):
    """```{volley} flows/intl.volley links as #intl-message-1, in Sphinx as in MkDocs, and
    the link outlives an edit to the file (it was a digest of the file's text)."""
    site = write_site(
        tmp_path / "site",
        {"index.md": "# Home\n\n```volley flows/intl.volley\n```\n\nSee [it](#intl-message-1).\n"},
    )
    (site / "flows").mkdir()
    (site / "flows" / "intl.volley").write_text("A -> B: hello\n", encoding="utf-8")
    result = build_site(site, tmp_path / "out", "-W")
    assert result.returncode == 0, result.stderr
    index = (tmp_path / "out" / "index.html").read_text()
    assert 'data-anchor="intl-"' in index and 'id="intl-message-1"' in index


def test_deep_links_to_messages_land_on_the_figure_in_latex(tmp_path):
    site = write_site(tmp_path / "site", DEEP_LINKED)
    result = build_site(site, tmp_path / "out", "-W", builder="latex")
    assert result.returncode == 0, result.stderr
    (tex,) = (tmp_path / "out").glob("*.tex")
    text = tex.read_text(encoding="utf-8")
    assert "\\hyperref[\\detokenize{index:login-message-2}]" in text
    assert "\\label{\\detokenize{index:login-message-2}}" in text


def test_a_diagram_named_like_its_section_leaves_the_section_its_id(tmp_path):
    """`:name: login` under a section "Login": each element keeps an id of its own, and the
    section's and the diagram's links land on them."""
    rst = (
        "Guide\n=====\n\nLogin\n-----\n\n.. volley::\n   :name: login\n\n"
        "   A -> B: hi\n\nSee :ref:`login`.\n"
    )
    site = write_site(tmp_path / "site", {"index.rst": rst})
    result = build_site(site, tmp_path / "out", "-W")
    assert result.returncode == 0, result.stderr
    index = (tmp_path / "out" / "index.html").read_text()
    ids = re.findall(r'\sid="([^"]+)"', index)
    assert sorted({i for i in ids if ids.count(i) > 1}) == [], ids
    assert "login-svg" in ids and "login-panel" in ids  # the deep links' prefix is the name
    link = re.search(r'<a class="reference internal" href="#([^"]+)"', index)
    assert link is not None
    assert re.search(rf'<div class="volley[^"]*" id="{link[1]}"', index), link[1]


def test_numref_to_a_diagram_reads_diagram_n(tmp_path):
    """Numbered like a figure: `:numref:` gives "Diagram 1" without a numfig_format of the
    site's own (Sphinx has formats for its figures and tables only)."""
    unnamed = ".. volley::\n\n   A -> B: no name\n\n"  # counted by nothing a reader sees
    rst = f"Flows\n=====\n\n{unnamed}{unnamed}.. volley::\n   :name: refresh\n\n   A -> B: x\n\n"
    site = write_site(tmp_path / "site", {"index.rst": rst + "See :numref:`refresh`.\n"})
    result = build_site(site, tmp_path / "out", "-W", "-D", "numfig=1")
    assert result.returncode == 0, result.stderr
    # the diagrams without a name are not counted: the named one is the first, as in LaTeX,
    # where it is the one figure
    assert "Diagram 1" in (tmp_path / "out" / "index.html").read_text()


def test_a_named_diagram_is_a_numbered_figure_in_latex_that_references_reach(tmp_path):
    """LaTeX writes a target's label after a caption, which numbers it: a named diagram is a
    figure with its title as the caption, so :numref: and :ref: find it in the PDF, not "??".
    A diagram without a name stays a picture in the text, as it was."""
    rst = (
        "Flows\n=====\n\n.. volley::\n   :name: refresh\n\n   title: Token refresh\n"
        "   A -> B: refresh\n\n.. volley::\n\n   A -> B: unnamed\n\n"
        "See :numref:`refresh` and :ref:`refresh`.\n"
    )
    site = write_site(tmp_path / "site", {"index.rst": rst})
    result = build_site(site, tmp_path / "out", "-W", "-D", "numfig=1", builder="latex")
    assert result.returncode == 0, result.stderr
    tex = next((tmp_path / "out").glob("*.tex")).read_text()
    assert tex.count("\\begin{figure}") == 1 and tex.count("sphinxincludegraphics") == 2
    assert "\\caption{Token refresh}\\label{\\detokenize{index:refresh}}" in tex
    assert "Diagram \\ref{\\detokenize{index:refresh}}" in tex


def test_an_epub_has_its_diagrams_inline_and_no_second_copy(tmp_path):
    """The pictures were files in the doctree folder, which a build without -d keeps inside
    the output, so the epub listed every picture twice."""
    result = sphinx_build("basic", "epub", tmp_path)
    assert result.returncode == 0, result.stderr
    out = tmp_path / "epub"
    assert ".svg" not in (out / "content.opf").read_text()
    page = (out / "index.xhtml").read_text()
    assert page.count(STATIC) == 2 and "<script" not in page
    assert "volley.css" not in page  # nothing it does not hold


def test_an_epub_page_with_a_diagram_says_it_holds_svg(tmp_path):
    """EPUB 3 wants `properties="svg"` on each page that holds inline SVG (epubcheck's
    OPF-014); Sphinx writes none, in content.opf and in the book."""
    import zipfile

    result = sphinx_build("basic", "epub", tmp_path)
    assert result.returncode == 0, result.stderr
    out = tmp_path / "epub"
    [book] = out.glob("*.epub")
    for manifest in (
        (out / "content.opf").read_text(),
        zipfile.ZipFile(book).read("content.opf").decode(),
    ):
        pages = dict(
            re.findall(
                r'<item [^>]*?href="([^"]+\.xhtml)"[^>]*?((?: properties="[^"]*")?) */>', manifest
            )
        )
        assert pages["index.xhtml"] == ' properties="svg"'
        assert pages["genindex.xhtml"] == ""  # a page without a picture says nothing


def test_an_epub_draws_a_diagram_in_the_theme_its_directive_asks_for(tmp_path):
    """An epub has no stylesheet of volley's, which re-colours an HTML page's pictures: a
    `:theme: dark` diagram (and ```` ```volley theme=dark ````) was drawn light there."""
    site = write_site(
        tmp_path / "site",
        {
            "index.rst": "T\n=\n\n.. toctree::\n\n   page\n\n.. volley::\n   :theme: dark\n\n"
            "   A -> B: hi\n\n.. volley::\n\n   C -> D: plain\n",
            "page.md": "# P\n\n```volley theme=dark\nE -> F: md\n```\n",
        },
    )
    result = build_site(site, tmp_path / "out", "-d", str(tmp_path / "trees"), builder="epub")
    assert result.returncode == 0, result.stderr
    index = (tmp_path / "out" / "index.xhtml").read_text(encoding="utf-8")
    backgrounds = re.findall(r'class="background[^"]*"[^>]*fill="([^"]+)"', index)
    assert backgrounds == ["#0f172a", "#ffffff"]  # dark as asked; light by default
    page = (tmp_path / "out" / "page.xhtml").read_text(encoding="utf-8")
    assert re.findall(r'class="background[^"]*"[^>]*fill="([^"]+)"', page) == ["#0f172a"]


def test_an_empty_fence_in_a_myst_page_is_named_as_the_page_writes_it(tmp_path):
    site = write_site(
        tmp_path / "site",
        {"index.rst": "T\n=\n\n.. toctree::\n\n   page\n", "page.md": "# P\n\n```volley\n```\n"},
    )
    result = build_site(site, tmp_path / "out")
    assert '"```volley" needs a file or the diagram\'s text' in result.stderr


def test_the_search_index_holds_the_labels_drawn_not_the_viewers_data(html):
    """Sphinx reads raw HTML for its search, tags taken out: the viewer's JSON filled it with
    its keys ("hastabl", "bodyreason") and escapes ("u003cscript")."""
    index = (html / "searchindex.js").read_text(encoding="utf-8").lower()
    assert '"night":' in index  # a label the picture draws (`run nightly`), stemmed
    for word in ("hastabl", "bodyreason", "u003c", "aria"):
        assert word not in index, word
    page = (html / "markdown.html").read_text(encoding="utf-8")
    assert page.count('<template class="vl-data"') == 2  # the viewer still has its data


def test_one_diagram_on_several_pages_of_a_singlehtml_build_keeps_ids_unique(tmp_path, browser):
    """singlehtml writes every page into one: the same diagram on three pages repeated every
    id, and a click on the third opened the first one's panel."""
    site = write_site(
        tmp_path / "site",
        {
            "index.rst": "T\n=\n\n.. toctree::\n\n   page\n   other\n\n"
            ".. volley::\n\n   A -> B: hi\n",
            "page.md": "# P\n\n```volley\nA -> B: hi\n```\n",
            "other.rst": "Q\n=\n\n.. volley::\n\n   A -> B: hi\n",
        },
    )
    result = build_site(site, tmp_path / "out", builder="singlehtml")
    assert result.returncode == 0, result.stderr
    built = tmp_path / "out" / "index.html"
    ids = re.findall(r'\sid="([^"]+)"', built.read_text(encoding="utf-8"))
    assert len(ids) == len(set(ids))
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(built.as_uri())
        third = page.locator(".volley-diagram").nth(2)
        third.locator('[data-message="1"]').first.click()
        third.locator(".vl-panel").wait_for(state="visible")
        assert page.locator(".vl-panel:visible").count() == 1
        assert page.evaluate("location.hash").endswith("-3-message-1")
    finally:
        context.close()


def test_a_singlehtml_page_numbers_a_diagram_repeated_across_pages_on(tmp_path):
    """A page's own second copy of a diagram is `-2`; on the one page singlehtml writes, after
    another page's copy, it became `-2-2`, where the docs promise `-3`."""
    site = write_site(
        tmp_path / "site",
        {
            "index.rst": "T\n=\n\n.. toctree::\n\n   page\n\n"
            ".. volley::\n\n   A -> B: hi\n\n.. volley::\n\n   A -> B: hi\n",
            "page.md": "# P\n\n```volley\nA -> B: hi\n```\n",
        },
    )
    result = build_site(site, tmp_path / "out", builder="singlehtml")
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    anchors = re.findall(r'<div class="volley-diagram[^>]*\sdata-anchor="([^"]+)-"', html)
    assert len(anchors) == 3
    assert [a.removeprefix(anchors[0]) for a in anchors] == ["", "-2", "-3"]
