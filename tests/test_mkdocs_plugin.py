"""Real `mkdocs build --strict` runs of small sites, under the default theme and mkdocs-material.

Each build is a subprocess, as a user would run it, so the entry point, the fence registration
and MkDocs' own link checks are all exercised. The sites live in `tests/sites/`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

SITES = Path(__file__).parent / "sites"
ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "NO_COLOR": "1"}
MATERIAL = """
theme:
  name: material
  features:
    - navigation.instant
  palette:
    - scheme: default
      toggle: {icon: material/weather-night, name: Dark}
    - scheme: slate
      toggle: {icon: material/weather-sunny, name: Light}
"""


def build(site: Path, *, strict: bool = True) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mkdocs", "build", "-f", str(site / "mkdocs.yml")]
    command += ["-d", str(site / "site")]
    if strict:
        command.append("--strict")
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env=ENV)


def copy_site(name: str, tmp_path: Path, extra: str = "") -> Path:
    site = tmp_path / name
    shutil.copytree(SITES / name, site)
    if extra:
        config = site / "mkdocs.yml"
        config.write_text(config.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return site


def diagrams(html: str) -> list[str]:
    """The opening tag of every diagram on a page."""
    return re.findall(r'<div class="volley-diagram[^"]*"[^>]*>', html)


def has_text(html: str, text: str) -> bool:
    """Whether `text` is a text node (not hidden in an attribute or in JSON)."""
    return re.search(r">[^<]*" + re.escape(text) + r"[^<]*<", html) is not None


@pytest.fixture(scope="module", params=["mkdocs", "material"])
def built(request, tmp_path_factory) -> Path:
    site = copy_site("basic", tmp_path_factory.mktemp(request.param))
    if request.param == "material":
        config = site / "mkdocs.yml"
        config.write_text(config.read_text(encoding="utf-8") + MATERIAL, encoding="utf-8")
    result = build(site)
    assert result.returncode == 0, result.stderr
    assert "WARNING -" not in result.stderr, result.stderr
    return site / "site"


def test_every_fence_becomes_a_diagram(built):
    page = (built / "index.html").read_text(encoding="utf-8")
    found = diagrams(page)
    # plain, in a list, in an admonition, in a tab (four backticks), static, from a file
    assert len(found) == 6, found
    assert sum("volley-static" in tag for tag in found) == 1
    assert page.count('class="vl-data"') == 5  # the static picture carries no viewer data
    for label in ("POST /login", "GET /app.js", "poll", "call", "run nightly", "POST /token"):
        assert has_text(page, label), label
    assert "open issues" in page  # the JSON body inside the four-backtick fence
    assert "```volley" not in page and "language-volley" not in page
    assert re.search(r"<code>.*print.*Browser -&gt; API", page, re.S)  # other code stays code


def test_the_viewer_is_two_site_files_every_page_links(built):
    from volley.output.html import html_assets

    page = (built / "index.html").read_text(encoding="utf-8")
    css = re.findall(r'<link [^>]*href="(assets/volley/volley-\w+\.css)"', page)
    js = re.findall(r'<script src="(assets/volley/volley-\w+\.js)"', page)
    assert len(css) == 1 and len(js) == 1, (css, js)
    assert (built / css[0]).read_text(encoding="utf-8") == html_assets()[0]
    assert (built / js[0]).read_text(encoding="utf-8") == html_assets()[1]
    assert "volley-assets" not in page  # no inline script: `script-src 'self'` serves the page
    nested = (built / "guide" / "embed" / "index.html").read_text(encoding="utf-8")
    assert f'href="../../{css[0]}"' in nested  # linked as the theme links its own files
    assert 'id="fences-everywhere"' in page  # heading ids and the table of contents stay clean
    # the palette follows mkdocs-material's scheme attribute
    assert "[data-md-color-scheme=slate]" in (built / css[0]).read_text(encoding="utf-8")


def test_files_embed_relative_to_the_page(built):
    page = (built / "guide" / "embed" / "index.html").read_text(encoding="utf-8")
    found = diagrams(page)
    assert len(found) == 2
    anchors = [re.search(r'data-anchor="([^"]*)"', tag)[1] for tag in found]
    assert anchors == ["refresh-", "refresh-2-"]  # the same file twice gets distinct ids
    assert has_text(page, "POST /token")
    assert "<img" not in page.split('<div class="volley-diagram', 1)[1].split("</div>", 1)[0]


def test_material_palette_and_instant_navigation(built):
    page = (built / "index.html").read_text(encoding="utf-8")
    if "data-md-color-scheme" not in page:
        pytest.skip("default theme")
    assert 'data-theme="auto"' in page
    (script,) = re.findall(r'<script src="(assets/volley/volley-\w+\.js)"', page)
    viewer = (built / script).read_text(encoding="utf-8")
    assert "document$" in viewer  # the viewer re-scans after an instant page change


def test_broken_diagram_fails_strict_build_naming_page_and_lines(tmp_path):
    site = copy_site("broken", tmp_path)
    result = build(site)
    assert result.returncode != 0
    assert "Doc file 'bad.md', line 11 (line 2 of the diagram)" in result.stderr
    assert "is not an arrow" in result.stderr
    assert "Doc file 'missing.md', line 3, embedding 'flows/gone.volley'" in result.stderr
    assert "cannot embed flows/gone.volley: no such file" in result.stderr

    lenient = build(site, strict=False)
    assert lenient.returncode == 0, lenient.stderr
    page = (site / "site" / "bad" / "index.html").read_text(encoding="utf-8")
    assert 'class="volley-error"' in page
    assert "bad.md:11:8" in page
    assert "&lt;b&gt;not&lt;/b&gt;" in page and "<b>not</b>" not in page
    # a file that is not there: the box names the page's line that embeds it
    missing = (site / "site" / "missing" / "index.html").read_text(encoding="utf-8")
    assert "missing.md:3: error: cannot embed flows/gone.volley: no such file" in missing


def test_fail_on_error_fails_the_build_once_every_page_is_read(tmp_path):
    site = copy_site("broken", tmp_path)
    config = site / "mkdocs.yml"
    config.write_text(
        config.read_text(encoding="utf-8").replace(
            "  - volley\n", "  - volley:\n      fail_on_error: true\n"
        ),
        encoding="utf-8",
    )
    result = build(site, strict=False)
    assert result.returncode != 0
    assert "ERROR" in result.stderr and "bad.md" in result.stderr
    # every page is read before the build fails: each broken diagram is said, in one summary
    assert "could not be drawn, in 'bad.md' (" in result.stderr and "'missing.md' (" in (
        result.stderr
    )


def test_the_projects_own_docs_build_strict(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"]
        + ["-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path / "site")],
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
    )
    assert result.returncode == 0, result.stderr
    examples = (tmp_path / "site" / "examples" / "index.html").read_text(encoding="utf-8")
    assert len(diagrams(examples)) == len(list((ROOT / "examples").glob("*.volley")))
    syntax = (tmp_path / "site" / "syntax" / "index.html").read_text(encoding="utf-8")
    assert len(diagrams(syntax)) >= 6


# --- what a docs site publishes ------------------------------------------------------------------

LIVE = "s3cr3tV4lue9Q"
PAY = """\
title: Pay
Shop -> Bank: POST /charge
Bank --> Shop: 201 Created
Shop -> Shop: mark paid
"""


def write_site(root: Path, config: str, pages: dict[str, str]) -> Path:
    (root / "docs").mkdir(parents=True)
    (root / "mkdocs.yml").write_text("site_name: volley site\n" + config, encoding="utf-8")
    for name, text in pages.items():
        path = root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def published(site: Path) -> dict[str, str]:
    """Every file of the built site that is text, by its path inside the site."""
    files = {}
    for path in sorted((site / "site").rglob("*")):
        if path.is_file():
            files[path.relative_to(site / "site").as_posix()] = path.read_bytes().decode(
                "utf-8", "replace"
            )
    return files


ANCHORS = """
plugins:
  - search
  - volley
validation:
  anchors: warn
"""


def test_deep_links_to_messages_pass_anchor_validation(tmp_path):
    pages = {
        "index.md": f"# Pay\n\n```volley name=pay\n{PAY}```\n\nSee [the answer](#pay-message-2).\n",
        "other.md": "# Other\n\n[Charge](index.md#pay-message-1), [mark](index.md#pay-message-3)\n",
    }
    site = write_site(tmp_path / "ok", ANCHORS, pages)
    result = build(site)
    assert result.returncode == 0, result.stderr
    assert "WARNING" not in result.stderr, result.stderr
    page = (site / "site" / "index.html").read_text(encoding="utf-8")
    assert 'data-anchor="pay-"' in page  # the bare name=pay was read, not turned into code
    # the diagram is named like the heading over it, and the heading keeps its id alone
    ids = re.findall(r'\sid="([^"]+)"', page)
    assert sorted({i for i in ids if ids.count(i) > 1}) == [] and "pay" in ids, ids

    pages["other.md"] += "[None such](index.md#pay-message-4)\n"
    wrong = build(write_site(tmp_path / "wrong", ANCHORS, pages))
    assert wrong.returncode != 0 and "pay-message-4" in wrong.stderr


def test_a_fence_that_names_a_file_draws_it_as_readme_mode_and_myst_do(tmp_path):
    """```volley flows/login.volley (and MyST's ```{volley}) were no fence to superfences: the
    line was shown as text and the next diagram swallowed into code, with no warning."""
    pages = {
        "index.md": "# Login\n\n```volley flows/login.volley\n```\n\n"
        "```{volley} flows/login.volley theme=dark\n```\n\n```volley\nA -> B: inline\n```\n",
        "flows/login.volley": "Browser -> API: POST /login\n",
    }
    site = write_site(tmp_path / "files", "plugins:\n  - volley\n", pages)
    result = build(site)
    assert result.returncode == 0, result.stderr
    html = (site / "site" / "index.html").read_text(encoding="utf-8")
    opened = diagrams(html)
    assert len(opened) == 3 and "```" not in html
    assert html.count("POST /login") >= 2 and "inline" in html
    assert "vl-theme-dark" in opened[1] or 'data-theme="dark"' in opened[1], opened[1]


def test_myst_option_lines_set_a_fence_as_sphinx_and_readme_mode_read_them(tmp_path):
    """A page shared with a Sphinx (MyST) site writes its options as `:theme: dark` lines: the
    diagram was an error at `:`, and a file fence with them "holds a diagram"."""
    pages = {
        "index.md": "# Login\n\n```{volley}\n:theme: dark\n:name: inline\n\nA -> B: inline\n```"
        "\n\n```{volley} flows/login.volley\n:theme: dark\n```\n\n```volley\n:thme: dark\n\n"
        "A -> B: x\n```\n\n```volley\n:theme: dark\n\nA -> : y\n```\n",
        "flows/login.volley": "Browser -> API: POST /login\n",
    }
    site = write_site(tmp_path / "myst", "plugins:\n  - volley\n", pages)
    result = build(site, strict=False)
    html = (site / "site" / "index.html").read_text(encoding="utf-8")
    opened = diagrams(html)
    assert len(opened) == 2 and "POST /login" in html and 'data-anchor="inline-"' in opened[0]
    assert all('data-theme="dark"' in tag for tag in opened), opened
    # an option misspelt is said at the fence (and draws nothing); a mistake in the diagram
    # at its own line
    assert 'line 14: unknown option "thme" on the ```volley fence' in result.stderr
    assert "line 23 (line 1 of the diagram): expected the name" in result.stderr


def test_a_fence_that_names_a_file_in_a_container_or_with_spaces_or_a_name_is_drawn(tmp_path):
    """In an admonition or a tab the fence is indented code to a page scanner: it was not
    rewritten, and superfences dropped it with every fence after it; a path with a space was
    cut at the space; `name=` gave way to the file's stem."""
    mark = "```volley flows/login.volley\n    ```"
    pages = {
        "index.md": f'# Login\n\n!!! note\n    {mark}\n\n=== "Tab"\n\n    {mark}\n\n'
        "```volley my flows/a b.volley name=custom\n```\n\n```volley\nA -> B: after\n```\n",
        "flows/login.volley": "Browser -> API: POST /login\n",
        "my flows/a b.volley": "A -> B: spaced\n",
    }
    config = "plugins:\n  - volley\nmarkdown_extensions:\n  - admonition\n"
    config += "  - pymdownx.tabbed:\n      alternate_style: true\n"
    site = write_site(tmp_path / "nested", config, pages)
    result = build(site)
    assert result.returncode == 0, result.stderr
    html = (site / "site" / "index.html").read_text(encoding="utf-8")
    assert len(diagrams(html)) == 4 and "```" not in html
    assert "spaced" in html and "after" in html and 'id="custom-title"' in html


@pytest.mark.parametrize(
    ("fence", "said"),
    [
        (
            "```volley flows/login.volley\nA -> B: both\n```",
            "names a file (flows/login.volley) and holds",
        ),
        ("```volley flows/missing.volley\n```", "cannot embed flows/missing.volley: no such file"),
    ],
)
def test_a_fence_that_names_a_file_wrongly_says_so(tmp_path, fence, said):
    pages = {"index.md": f"# Login\n\n{fence}\n", "flows/login.volley": "A -> B: x\n"}
    result = build(write_site(tmp_path / "wrong", "plugins:\n  - volley\n", pages))
    assert result.returncode != 0 and said in result.stderr and "line 3" in result.stderr


def test_an_embedded_link_to_another_file_or_a_nul_is_an_error_box_not_a_leak(tmp_path):
    """A `.volley` link to a `.env` had its first line quoted in the page, the search index
    and the log; a NUL in the path (`a%00.volley`) ended the build with a traceback."""
    pages = {"index.md": "# P\n\n![x](flows/a.volley)\n\n![y](b%00.volley)\n"}
    site = write_site(tmp_path / "links", "plugins:\n  - volley\n", pages)
    (tmp_path / "secret.env").write_text("TOKEN=Z9LEAKEDzz\n")
    (site / "docs" / "flows").mkdir()
    (site / "docs" / "flows" / "a.volley").symlink_to(tmp_path / "secret.env")
    result = build(site, strict=False)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert "cannot embed flows/a.volley: it links to a file that is no .volley file" in (
        result.stderr
    )
    assert "cannot embed b%00.volley: not a file name" in result.stderr
    built = "".join(p.read_text(encoding="utf-8") for p in (site / "site").rglob("*.html"))
    assert "Z9LEAKED" not in built + result.stderr


def test_a_fence_superfences_cannot_read_is_a_warning_not_silence(tmp_path):
    """A line superfences refuses (`@x`) made the fence, and the diagram after it, text, and
    `--strict` passed. A file's name holding "name" or an `=` is read whole."""
    odd = "# P\n\n```volley @x\nA -> B: one\n```\n\n```volley\nA -> B: two\n```\n"
    result = build(write_site(tmp_path / "odd", "plugins:\n  - volley\n", {"index.md": odd}))
    assert result.returncode != 0
    assert "the ```volley fences on lines 3, 7 were not read as fences" in result.stderr
    last = "# P\n\n```volley\nA -> B: one\n```\n\n```volley @x\nA -> B: two\n```\n"
    result = build(write_site(tmp_path / "last", "plugins:\n  - volley\n", {"index.md": last}))
    assert "the ```volley fence on line 7 was not read as a fence" in result.stderr  # not 3
    pages = {
        "index.md": "# P\n\n```volley flows/a=b.volley\n```\n\n"
        "```volley flows/the name.volley\n```\n",
        "flows/a=b.volley": "A -> B: equals\n",
        "flows/the name.volley": "A -> B: named\n",
    }
    site = write_site(tmp_path / "names", "plugins:\n  - volley\n", pages)
    assert build(site).returncode == 0
    html = (site / "site" / "index.html").read_text(encoding="utf-8")
    assert len(diagrams(html)) == 2 and "equals" in html and "named" in html


def test_a_fence_named_as_an_embedded_file_is_a_warning_naming_the_links_each_answers(tmp_path):
    """`![Login](flows/login.volley)` is named "login", as a fence `name="login"` is: the fence,
    drawn first, keeps the name, and the file's diagram is said to answer #login-2-…"""
    pages = {
        "index.md": "# Login\n\n![Login](flows/login.volley)\n\n"
        '```volley name="login"\nA -> B: two\n```\n',
        "flows/login.volley": "A -> B: one\n",
    }
    result = build(write_site(tmp_path / "named", ANCHORS, pages), strict=False)
    assert result.returncode == 0, result.stderr
    assert (
        "embedding 'flows/login.volley': the diagram name \"login\" is used twice on this page; "
        "the links of this one are #login-2-message-N"
    ) in result.stderr


def test_a_name_written_on_a_fence_is_its_own_whatever_is_drawn_before_it(tmp_path):
    """A fence that embeds flows/login.volley, drawn first, took "login", and the fence
    written `name="login"` further down answered #login-2-…; the warnings named the image's
    line for the fence's embed and the other way round."""
    pages = {
        "index.md": "# T\n\n![Login](flows/login.volley)\n\n```volley flows/login.volley\n```\n\n"
        '```volley name="login"\nC -> D: chosen\n```\n',
        "flows/login.volley": "A -> B: from the file\n",
    }
    result = build(write_site(tmp_path / "chosen", ANCHORS, pages), strict=False)
    assert result.returncode == 0, result.stderr
    html = (tmp_path / "chosen" / "site" / "index.html").read_text(encoding="utf-8")
    ids = re.findall(r'id="(login(?:-\d)?)-svg"', html)  # in page order
    assert ids[2] == "login" and sorted(ids[:2]) == ["login-2", "login-3"]
    chosen = html[html.index('id="login-svg"') :]
    assert "chosen" in chosen[: chosen.index("</svg>")]  # the fence's own diagram
    said = dict(re.findall(r"line (\d+), embedding .*? are #(login-\d)-", result.stderr))
    assert said == {"3": ids[0], "5": ids[1]}  # each warning at its own embed


def test_redact_publishes_no_secret_in_any_file(tmp_path):
    secret = f"title: Login\nBrowser -> API: POST /login?access_token={LIVE}\n"
    pages = {
        "index.md": f"# Login\n\n![Login](flows/login.volley)\n\n```volley\n{secret}```\n",
        "flows/login.volley": secret,
    }
    config = "plugins:\n  - search\n  - volley:\n      redact: true\n"
    site = write_site(tmp_path / "redacted", config, pages)
    result = build(site)
    assert result.returncode == 0, result.stderr
    files = published(site)
    assert "index.html" in files and "search/search_index.json" in files
    assert "redacted" in files["index.html"]
    assert [name for name, text in files.items() if LIVE in text] == []
    assert not any(name.endswith(".volley") for name in files)

    asked = config.replace("redact: true", "redact: true\n      publish_sources: true")
    site = write_site(tmp_path / "asked", asked, pages)
    assert build(site).returncode == 0
    assert [name for name, text in published(site).items() if LIVE in text] == [
        "flows/login.volley"
    ]


def test_a_fence_that_asks_for_redact_publishes_neither_its_file_nor_a_hash_of_a_secret(
    tmp_path,
):
    """A fence's own `redact` masked the picture, but the file it embeds was copied into the
    site as written; the ids were a hash of the fence's text as written, so a masked card code
    could be found again by hashing a thousand guesses."""
    secret = f"Browser -> API: POST /login?access_token={LIVE}\n"

    def card(cvv: str) -> str:
        return f'```volley redact\nShop -> PSP: charge\nin: Request\n  {{"cvv": "{cvv}"}}\n```\n\n'

    pages = {
        "index.md": "# Login\n\n```volley flows/login.volley redact\n```\n\n"
        + card("731")
        + card("732"),
        "flows/login.volley": secret,
    }
    site = write_site(tmp_path / "fence", "plugins:\n  - volley\n", pages)
    result = build(site, strict=False)
    assert result.returncode == 0, result.stderr
    files = published(site)
    assert [name for name, text in files.items() if LIVE in text] == []
    assert "flows/login.volley" not in files and not re.search(r"cvv\W+731", files["index.html"])
    first, second = re.findall(r'data-anchor="(v[0-9a-f]+(?:-2)?)-"', files["index.html"])
    assert second == f"{first}-2"  # the two differ in the masked code alone


def test_a_fence_line_superfences_cannot_read_stops_a_build_that_redacts(tmp_path):
    """An unread fence line turns the next ```volley block into a code block of its text, which
    no masking reaches: with `redact: true` that published the token as written."""
    token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    page = (
        "# T\n\n```volley #x\nA -> B: x\n```\n\n"
        f"```volley\nA -> B: s\nin: R\n  Authorization: Bearer {token}\n```\n"
    )
    config = "plugins:\n  - volley:\n      redact: true\n"
    site = write_site(tmp_path / "unread", config, {"index.md": page})
    result = build(site, strict=False)
    assert result.returncode != 0 and not (site / "site" / "index.html").exists()
    assert "the ```volley fences on lines 3, 7 were not read as fences" in result.stderr
    assert "with redact on, the page would publish that text unmasked" in result.stderr
    # without redact it is a warning, as before; a fence's own `redact` stops the build too
    plain = write_site(tmp_path / "plain", "plugins:\n  - volley\n", {"index.md": page})
    assert build(plain, strict=False).returncode == 0
    asked = page.replace("```volley\nA -> B: s", "```volley redact\nA -> B: s")
    fenced = write_site(tmp_path / "fenced", "plugins:\n  - volley\n", {"index.md": asked})
    assert build(fenced, strict=False).returncode != 0
    # so does a MyST `:redact:` line at the top of a block; `redact=false` asks for none
    myst = page.replace("```volley\nA -> B: s", "```volley\n:redact:\n\nA -> B: s")
    lined = write_site(tmp_path / "myst", "plugins:\n  - volley\n", {"index.md": myst})
    assert build(lined, strict=False).returncode != 0
    said_no = page.replace("```volley #x", "```volley #x redact=false")
    declined = write_site(tmp_path / "no", "plugins:\n  - volley\n", {"index.md": said_no})
    assert build(declined, strict=False).returncode == 0


def test_superfences_braced_form_takes_a_flag_written_alone(tmp_path):
    """```{ .volley redact } hands `redact` over as None: the formatter failed on it, and
    the block was shown as inline code, token and all."""
    token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    page = (
        f"# T\n\n```{{ .volley redact }}\nA -> B: s\nin: R\n  Authorization: Bearer {token}\n```\n"
    )
    site = write_site(tmp_path / "braced", "plugins:\n  - volley\n", {"index.md": page})
    assert build(site).returncode == 0
    html = (site / "site" / "index.html").read_text(encoding="utf-8")
    assert (
        len(diagrams(html)) == 1 and token not in html and "Bearer \\u003credacted\\u003e" in html
    )


SEARCHED = """\
title: Refund
Shop -> Bank: POST /refund
  in: json
    {"reason": "duplicatecharge", "amount": 1200}
Bank --> Shop: 201 Created
  out: json
    {
      "refund": {
        "id": "rfnested",
        "note": "spaced    out"
      }
    }
"""


# A plugin that rewrites each page's HTML as mkdocs-glightbox does (`attr=""`), and one that
# reads each page's content as mkdocs-print-site-plugin does, to make a page of them all.
REWRITING_HOOKS = """
import re

from mkdocs.plugins import event_priority

contents = []


@event_priority(-50)
def on_page_content(html, page, config, files):
    return re.sub(r"data-search-exclude>", 'data-search-exclude="">', html)


def on_page_context(context, page, config, nav):
    contents.append(page.content)
    return context


def on_post_build(config):
    with open(config.site_dir + "/all.html", "w", encoding="utf-8") as handle:
        handle.write("".join(contents))
"""


@pytest.mark.parametrize("theme", ["mkdocs", "readthedocs"])
def test_search_indexes_the_labels_drawn_not_the_viewers_data(tmp_path, theme):
    """MkDocs' own search knows no mark to leave an element out: its index held every key and
    body of the viewer's JSON, and the note for readers without scripts. The pages keep them
    whole, as other plugins that rewrite a page or gather its content see it."""
    pages = {"index.md": f"# Refunds\n\nHow a refund goes.\n\n```volley\n{SEARCHED}```\n"}
    config = f"theme:\n  name: {theme}\nplugins:\n  - search\n  - volley\nhooks:\n  - hooks.py\n"
    site = write_site(tmp_path / theme, config, pages)
    (site / "hooks.py").write_text(REWRITING_HOOKS, encoding="utf-8")
    result = build(site)
    assert result.returncode == 0, result.stderr
    files = published(site)
    index = files["search/search_index.json"]
    assert "POST /refund" in index and "How a refund goes" in index  # the page and its labels
    assert "duplicatecharge" not in index and "payloads" not in index  # not the viewer's JSON
    assert "rfnested" not in index  # an indented body too, whose spaces the search collapses
    assert "turn on JavaScript" not in index
    for page in ("index.html", "all.html"):  # the page written, and its content gathered
        data = re.findall(r'<template class="vl-data"[^>]*>([^<]*)</template>', files[page])
        assert len(data) == 1 and "duplicatecharge" in data[0]  # the page carries it
        assert json.loads(data[0])["messages"][0]["payloads"]


def hooked_site(folder: Path, pages: dict[str, str], hooks: str) -> Path:
    """A site with the volley plugin and `hooks` standing in for another plugin."""
    site = write_site(folder, "plugins:\n  - volley\nhooks:\n  - hooks.py\n", pages)
    (site / "hooks.py").write_text(hooks, encoding="utf-8")
    return site


# What mkdocs-minify-plugin's htmlmin does to a page's text: a run of spaces becomes one.
MINIFYING_HOOKS = """
import re


def on_post_page(output, page, config):
    return re.sub(r"  +", " ", output)
"""


def test_a_minified_page_keeps_each_body_as_written(tmp_path):
    """A minifier that collapses runs of spaces (mkdocs-minify-plugin) changed the bodies the
    viewer shows and copies (`"spaced    out"`, every indentation): the page's data holds no
    two spaces together, and reads back whole."""
    pages = {"index.md": f"# Refunds\n\n```volley\n{SEARCHED}```\n"}
    site = hooked_site(tmp_path / "minified", pages, MINIFYING_HOOKS)
    result = build(site)
    assert result.returncode == 0, result.stderr
    page = published(site)["index.html"]
    (data,) = re.findall(r'<template class="vl-data"[^>]*>([^<]*)</template>', page)
    body = json.loads(data)["messages"][1]["payloads"][0]["body"]
    assert '"note": "spaced    out"' in body and '\n    "id": "rfnested",' in body


def test_a_misspelt_plugin_option_stops_the_build_and_names_the_one_meant(tmp_path):
    """MkDocs only warns about a name a plugin does not know: `redcat: true` published the
    token it was meant to mask."""
    page = "# Secret\n\n```volley\nA -> B: token ghp_16C7e42F292c6912E7710c838347Ae178B4a\n```\n"
    site = write_site(
        tmp_path / "typo", "plugins:\n  - volley:\n      redcat: true\n", {"index.md": page}
    )
    result = build(site, strict=False)
    assert result.returncode != 0 and not (site / "site" / "index.html").exists()
    assert 'unknown option "redcat"' in result.stderr and 'did you mean "redact"?' in result.stderr


def test_a_fence_option_volley_does_not_know_is_an_error_and_draws_nothing(tmp_path):
    """`redcat` on a fence was a warning, and the diagram was published unmasked."""
    token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
    page = f"# Typos\n\n```volley redcat\nA -> B: token {token}\n```\n"
    site = write_site(tmp_path / "typos", "plugins:\n  - volley\n", {"index.md": page})
    strict = build(site)
    assert strict.returncode != 0
    assert 'unknown option "redcat" on the ```volley fence' in strict.stderr
    assert 'did you mean "redact"?' in strict.stderr
    assert "Doc file 'index.md', line 3" in strict.stderr
    lenient = build(site, strict=False)
    assert lenient.returncode == 0
    html = (site / "site" / "index.html").read_text(encoding="utf-8")
    assert diagrams(html) == [] and 'class="volley-error"' in html and token not in html


def test_an_option_written_alone_or_a_quote_left_open_is_a_build_warning(tmp_path):
    """`theme` alone needs a value (superfences hands it over as `theme="theme"`, and `name`
    alone named the diagram "name"); `theme="dark` made the line no fence, the diagram inline
    code, with no word said."""
    page = (
        "# Options\n\n```volley theme\nA -> B: one\n```\n\n```volley name\nA -> B: two\n```"
        '\n\n```volley theme="dark\nA -> B: three\n```\n\n'
        '```volley name="a name/with#hash"\nA -> B: four\n```\n\n'
        '```volley name="\'90s checkout" theme\nA -> B: five\n```\n\n'
        '```volley name="my theme flow"\nA -> B: six\n```\n\n'
        "```volley name=seven name=other\nA -> B: seven\n```\n"
    )
    site = write_site(tmp_path / "options", "plugins:\n  - volley\n", {"index.md": page})
    result = build(site, strict=False)
    # superfences keeps the last of two, in silence: which was meant cannot be told
    assert "line 27: the option name is given twice on this ```volley fence line" in (result.stderr)
    assert "line 3: theme on the ```volley fence needs a value: theme=…" in result.stderr
    assert "line 7: name on the ```volley fence needs a value: name=…" in result.stderr
    assert 'line 11: theme="dark on the ```volley fence opens a quote it does not close' in (
        result.stderr
    )
    html = (site / "site" / "index.html").read_text(encoding="utf-8")
    assert "line 19: theme on the ```volley fence needs a value" in result.stderr
    assert len(diagrams(html)) == 2 and "<code>volley" not in html  # the 4th and 6th drawn


def test_a_fence_cut_short_by_an_inner_fence_suggests_four_backticks(tmp_path):
    diagram = 'A -> B: POST /x\nin: Body\n```json\n{"a": 1}\n```\nB --> A: ok\n'
    page = f"# Nested\n\n```volley\n{diagram}```\n"
    site = write_site(tmp_path / "nested", "plugins:\n  - volley\n", {"index.md": page})
    result = build(site, strict=False)
    assert "never closed" in result.stderr and "four backticks (````volley" in result.stderr


def test_published_errors_hold_no_absolute_path(tmp_path):
    site = copy_site("broken", tmp_path)
    result = build(site, strict=False)
    assert "cannot embed flows/gone.volley: no such file (docs/flows/gone.volley)" in result.stderr
    for name, text in published(site).items():
        assert str(tmp_path) not in text, name


def test_a_site_without_pymdown_extensions_gets_one_line_naming_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    import importlib.util

    from mkdocs.exceptions import PluginError

    from volley.docs.mkdocs_plugin import MISSING_EXTRA, VolleyPlugin

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pymdownx" else real(name, *a)
    )
    with pytest.raises(PluginError) as caught:
        VolleyPlugin().on_config(object())
    assert str(caught.value) == MISSING_EXTRA
    assert "pip install 'volley-diagrams[mkdocs]'" in MISSING_EXTRA


def scripts(files: dict[str, str]) -> list[str]:
    """The viewer's script files a built site holds."""
    return [path for path in files if re.fullmatch(r"assets/volley/volley-\w+\.js", path)]


def test_a_site_of_static_diagrams_loads_no_script_unless_a_fence_asks(tmp_path):
    """`interactive: false`: pages link the stylesheet (the diagrams' colours) and no script,
    and the site holds none; one fence with `interactive=true` brings the script back."""
    static = "plugins:\n  - volley:\n      interactive: false\n"
    pages = {"index.md": f"# Pay\n\n```volley\n{PAY}```\n", "other.md": "# Other\n\nText.\n"}
    site = write_site(tmp_path / "static", static, pages)
    assert build(site).returncode == 0
    files = published(site)
    assert "volley-static" in files["index.html"]
    assert not scripts(files)
    for page in ("index.html", "other/index.html"):
        assert re.search(r'href="[./]*assets/volley/volley-\w+\.css"', files[page])
        assert not re.search(r"assets/volley/volley-\w+\.js", files[page])

    pages["other.md"] += f"\n```volley interactive=true\n{PAY}```\n"
    site = write_site(tmp_path / "one", static, pages)
    assert build(site).returncode == 0
    files = published(site)
    (script,) = scripts(files)
    assert f'<script src="../{script}"' in files["other/index.html"]
    assert "volley-diagram" in files["other/index.html"]


# --- appendix_lines -------------------------------------------------------------------------------

LONG = "A -> B: POST /x\nin: Body\n" + "".join(f"  line{n:02d}: v{n}\n" for n in range(1, 31))
CAPPED = "plugins:\n  - volley:\n      bodies: appendix\n      appendix_lines: 5\n"


def listed(html: str, line: str) -> bool:
    """Whether an appendix draws `line` (the viewer's data holds every line, quoted)."""
    return f">{line}<" in html


def test_appendix_lines_caps_bodies_site_wide_and_per_fence(tmp_path):
    pages = {
        "index.md": f"# Site\n\n```volley\n{LONG}```\n",
        "fence.md": f"# Fence\n\n```volley appendix_lines=8 interactive=false\n{LONG}```\n",
        "markers.md": f"# Markers\n\n```volley bodies=markers\n{LONG}```\n",
    }
    site = write_site(tmp_path / "capped", CAPPED, pages)
    result = build(site)
    assert result.returncode == 0, result.stderr
    html = (site / "site" / "index.html").read_text(encoding="utf-8")
    assert "25 more lines not shown (5 of 30)" in html
    assert listed(html, "line05") and not listed(html, "line06") and not listed(html, "line30")
    fence = (site / "site" / "fence" / "index.html").read_text(encoding="utf-8")
    assert "volley-static" in fence and "22 more lines not shown (8 of 30)" in fence
    assert listed(fence, "line08") and not listed(fence, "line30")
    markers = (site / "site" / "markers" / "index.html").read_text(encoding="utf-8")
    assert len(diagrams(markers)) == 1 and "more lines not shown" not in markers


def test_a_bad_appendix_lines_fails_the_build_and_shows_why(tmp_path):
    pages = {
        "index.md": f"# Bad\n\n```volley bodies=appendix appendix_lines=lots\n{LONG}```\n",
        "alone.md": f"# Alone\n\n```volley appendix_lines=4\n{LONG}```\n",
    }
    site = write_site(tmp_path / "bad", "plugins:\n  - volley\n", pages)
    strict = build(site)
    assert strict.returncode != 0
    assert "Doc file 'index.md', line 3" in strict.stderr
    assert 'appendix_lines="lots" on the ```volley fence is not a whole number' in strict.stderr
    assert 'appendix_lines applies to bodies "appendix" only, not to "markers"' in strict.stderr
    assert build(site, strict=False).returncode == 0
    for page in ("index.html", "alone/index.html"):
        html = (site / "site" / page).read_text(encoding="utf-8")
        assert 'class="volley-error"' in html and not diagrams(html), page

    config = "plugins:\n  - volley:\n      bodies: appendix\n      appendix_lines: 0\n"
    site = write_site(tmp_path / "zero", config, {"index.md": "# Zero\n"})
    result = build(site)
    assert result.returncode != 0
    assert "appendix_lines must be at least 1, not 0" in result.stderr


@pytest.mark.parametrize(
    ("theme", "options", "expected"),
    [
        ("readthedocs", "", "light"),  # no dark mode: a dark reader would get dark on white
        ("mkdocs", "", "auto"),  # its colour mode switch is followed
        ("readthedocs", "\n      theme: auto", "auto"),  # asked for
    ],
)
def test_the_default_theme_follows_the_site_theme(tmp_path, theme, options, expected):
    page = "# Flow\n\n```volley\nA -> B: hi\n```\n"
    config = f"theme:\n  name: {theme}\nplugins:\n  - volley:{options or ' {}'}\n"
    site = write_site(tmp_path / "site", config, {"index.md": page})
    result = build(site)
    assert result.returncode == 0, result.stderr
    html = (site / "site" / "index.html").read_text(encoding="utf-8")
    (tag,) = diagrams(html)
    assert f'data-theme="{expected}"' in tag


def test_material_without_a_palette_draws_its_diagrams_light(tmp_path):
    """Material with no `palette` has no dark mode: its pages stay white and set no scheme.
    An auto diagram there followed the reader's system instead, and drew dark on white."""
    site = copy_site("basic", tmp_path, "\ntheme:\n  name: material\n")
    result = build(site)
    assert result.returncode == 0, result.stderr
    page = (site / "site" / "index.html").read_text(encoding="utf-8")
    themes = {re.search(r'data-theme="(\w+)"', tag)[1] for tag in diagrams(page)}
    assert themes == {"light"}


# What mkdocs-static-i18n does with every file of the site, after every other plugin: it reads
# the file's source path (`is_relative_to(file.abs_src_path, docs_dir)`).
SOURCE_PATH_HOOKS = """
import os

from mkdocs.plugins import event_priority


@event_priority(-100)
def on_files(files, config):
    for file in files:
        if file.src_uri.startswith("assets/volley/"):
            os.path.relpath(file.abs_src_path, config.docs_dir)  # TypeError on None
            with open(file.abs_src_path, encoding="utf-8") as handle:
                assert handle.read() == file.content_string
    return files
"""


def test_the_viewers_files_have_a_source_path_as_every_file_of_a_site_has(tmp_path):
    """mkdocs-static-i18n reads every file's source path, and volley's stylesheet and script
    had none (`File.generated(content=…)`): a site with both did not build at all."""
    pages = {"index.md": f"# Pay\n\n```volley\n{PAY}```\n"}
    site = hooked_site(tmp_path / "paths", pages, SOURCE_PATH_HOOKS)
    result = build(site)
    assert result.returncode == 0, result.stderr
    built = (site / "site" / "assets" / "volley").iterdir()
    assert sorted(path.suffix for path in built) == [".css", ".js"]  # names end in a digest


def test_mkdocs_serve_watches_the_folders_of_files_embedded_from_outside_docs(tmp_path):
    """A file outside docs_dir that a page embeds, even one a rebuild embeds for the first time
    or one not written yet, makes `mkdocs serve` rebuild when it changes or appears."""
    from mkdocs.commands.build import build as build_site
    from mkdocs.config import load_config

    class Server:  # what the plugin asks of `mkdocs serve`'s server
        def __init__(self) -> None:
            self.watched: list[tuple[str, bool]] = []

        def watch(self, path: str, *, recursive: bool = True) -> None:
            self.watched.append((path, recursive))

    (tmp_path / "flows").mkdir()
    (tmp_path / "flows" / "login.volley").write_text("A -> B: login\n", encoding="utf-8")
    (tmp_path / "later").mkdir()
    page = "# Flows\n\n![Login](../../flows/login.volley)\n"
    site = write_site(tmp_path / "site", "plugins:\n  - volley\n", {"index.md": page})
    config = load_config(str(site / "mkdocs.yml"), site_dir=str(site / "site"))
    plugin = config.plugins["volley"]
    build_site(config)
    server = Server()
    plugin.on_serve(server, config, None)
    assert server.watched == [(str(tmp_path / "flows"), False)]
    (site / "docs" / "index.md").write_text(
        page + "\n![Soon](../../later/soon.volley)\n", encoding="utf-8"
    )
    build_site(config)  # as `mkdocs serve` rebuilds: the same plugin, a page changed
    assert server.watched[1:] == [(str(tmp_path / "later"), False)]


def test_a_published_source_that_holds_a_live_secret_is_said_to(tmp_path):
    """`publish_sources` copies the .volley files as written, embedded or not: one that holds
    what looks like a live secret is a build warning, so that it is not published unseen
    (under redact too, where a page only notes what its picture masks)."""
    token = "ghp_" + "a1B2" * 9
    flow = f"A -> B: call\nin: Headers\n  Authorization: Bearer {token}\n"
    pages = {
        "index.md": "# Home\n\n![Shown](flows/shown.volley)\n",
        "flows/secret.volley": flow,
        "flows/shown.volley": flow,
    }
    site = write_site(tmp_path / "open", "plugins:\n  - volley\n", pages)
    result = build(site, strict=False)
    said = "flows/secret.volley is published as it is, and holds 1 value that looks like a"
    assert said in result.stderr and "or set redact: true" in result.stderr
    assert "flows/shown.volley is published as it is" in result.stderr  # embedded or not
    assert token in (site / "site" / "flows" / "secret.volley").read_text(encoding="utf-8")
    config = "plugins:\n  - volley:\n      redact: true\n"
    masked = write_site(tmp_path / "masked", config, pages)
    assert "is published as it is" not in build(masked, strict=False).stderr
    assert not (masked / "site" / "flows" / "secret.volley").exists()
    both = write_site(tmp_path / "both", config + "      publish_sources: true\n", pages)
    asked = build(both)  # published as asked: a note, which --strict lets pass
    assert asked.returncode == 0 and "INFO" in asked.stderr
    assert "or leave the sources out (publish_sources: false)" in asked.stderr


def test_fail_on_error_counts_each_build_on_its_own(tmp_path):
    """A build stopped part way (by another plugin, a theme) leaves no broken page behind for
    the next rebuild of `mkdocs serve` to fail on."""
    from mkdocs.commands.build import build as build_site
    from mkdocs.config import load_config

    config_text = "plugins:\n  - volley:\n      fail_on_error: true\n"
    site = write_site(
        tmp_path / "s", config_text, {"index.md": "# Fine\n\n```volley\nA -> B\n```\n"}
    )
    config = load_config(str(site / "mkdocs.yml"), site_dir=str(site / "site"))
    plugin = config.plugins["volley"]
    plugin.failed_pages = {"gone.md": 1}  # as a build stopped before its end leaves them
    build_site(config)  # no PluginError: this build's pages are all fine


def test_a_diagram_after_a_snippet_is_at_its_own_line(tmp_path):
    """pymdownx.snippets puts a file's lines into the page before superfences reads it: a
    diagram below an included part was reported lines below the end of the page, and one
    that came in with the part at a line of the page that does not hold it."""
    part = "Intro\n\n```volley\nA -> B: ok\nA ~> B: in the part\n```\n"
    page = '# Page\n\n--8<-- "part.md"\n\n```volley\nC ~> D: on line 6\n```\n'
    config = (  # the base path as mkdocs reads it: from the folder it runs in
        "plugins:\n  - volley\nmarkdown_extensions:\n  - pymdownx.snippets:\n"
        f"      base_path: [{tmp_path / 'snippets' / 'snippets'}]\n      check_paths: true\n"
    )
    site = write_site(tmp_path / "snippets", config, {"index.md": page})
    (site / "snippets").mkdir()
    (site / "snippets" / "part.md").write_text(part, encoding="utf-8")
    result = build(site, strict=False)
    assert result.returncode == 0, result.stderr
    assert "Doc file 'index.md', line 6 (line 1 of the diagram)" in result.stderr
    # the part's own diagram has no line of the page
    assert "Doc file 'index.md' (line 2 of the diagram)" in result.stderr


def test_an_empty_fence_is_at_its_own_line(tmp_path):
    """Superfences hands over an empty fence and one holding a blank line alike (""): the
    empty one's warning named no line of the page, and the other's was taken by it."""
    page = "# Page\n\nText.\n\n```volley\n```\n\nMore.\n\n```volley\n\n```\n"
    site = write_site(tmp_path / "empty", "plugins:\n  - volley\n", {"index.md": page})
    result = build(site, strict=False)
    assert result.returncode == 0, result.stderr
    empty = "the diagram is empty: nothing is drawn"
    assert f"Doc file 'index.md', line 6 (line 1 of the diagram): {empty}" in result.stderr
    assert f"Doc file 'index.md', line 11 (line 1 of the diagram): {empty}" in result.stderr
