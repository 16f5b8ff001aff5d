"""The public fence formatter and validator, used through pymdownx.superfences without MkDocs."""

from __future__ import annotations

import logging
import re

import markdown
import pytest

import volley.docs.fences as fences
from volley.api import default_id_prefix
from volley.docs.fences import DiagramSite, Settings, fence_formatter, fence_validator

GOOD = "```volley\nA -> B: hello\n```\n"


def converter() -> markdown.Markdown:
    return markdown.Markdown(
        extensions=["toc", "pymdownx.superfences"],
        extension_configs={
            "pymdownx.superfences": {
                "custom_fences": [
                    {
                        "name": "volley",
                        "class": "volley",
                        "validator": fence_validator,
                        "format": fence_formatter,
                    }
                ]
            }
        },
    )


def test_assets_once_per_conversion_even_when_the_instance_is_reused():
    md = converter()
    first = md.convert(f"# One\n\n{GOOD}\n{GOOD}")
    assert '<h1 id="one">' in first  # the assets stay out of what toc reads
    assert first.count('class="volley-diagram tex2jax_ignore mathjax_ignore"') == 2
    assert first.count('<script class="volley-assets">') == 1
    second = md.reset().convert(GOOD)
    assert second.count('<script class="volley-assets">') == 1
    assert "volley-assets" not in md.reset().convert("no diagrams here")


def test_the_same_diagram_twice_gets_distinct_ids():
    page = converter().convert(f"{GOOD}\n{GOOD}")
    anchors = [part.split('"', 1)[0] for part in page.split('data-anchor="')[1:]]
    assert len(anchors) == 2 and anchors[0] != anchors[1]


def test_broken_diagram_is_an_escaped_error_box_and_a_warning(caplog):
    text = "Intro\n\n```volley\nA -> B: fine\nA ~> B: <script>alert(1)</script>\n```\n"
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.volley"):
        page = converter().convert(text)
    assert 'class="volley-error"' in page
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "volley-assets" not in page  # nothing drawn, nothing to load
    (record,) = caplog.records
    assert "line 5 (line 2 of the diagram)" in record.getMessage()
    # superfences alone does not say which page: the log says how to have it named
    assert record.getMessage().startswith(
        "volley: A page (add the volley plugin to mkdocs.yml to have it named), line 5"
    )


def test_fence_options_override_the_site_and_typos_show():
    page = converter().convert('```volley interactive="false"\nA -> B: still\n```\n')
    assert "volley-static" in page and "vl-data" not in page
    assert '<script class="volley-assets">' not in page  # a static picture needs no script
    page = converter().convert('```volley theme="purple"\nA -> B\n```\n')
    assert 'class="volley-error"' in page and "theme=" in page


def test_settings_merge_checks_values():
    assert Settings().merged({"bodies": "appendix", "redact": "yes"}) == Settings(
        bodies="appendix", redact=True
    )
    with pytest.raises(fences.VolleyError, match="not one of"):
        Settings().merged({"theme": "purple"})
    with pytest.raises(fences.VolleyError) as typo:
        Settings().merged({"theme": "drak"})
    assert typo.value.hint == 'did you mean "dark"?'  # a value a letter off, as a name is
    # a flag alone in superfences' braced form (```{ .volley redact }) comes as None
    assert Settings().merged({"redact": None}) == Settings(redact=True)
    # `alt` names a static picture for readers who cannot see it, as Sphinx's `:alt:` does
    assert Settings().merged({"alt": "Login flow", "theme": "dark"}) == Settings(
        theme="dark", alt="Login flow"
    )
    # a name volley does not know is an error: `redcat` must not publish what it would mask
    with pytest.raises(fences.VolleyError) as info:
        Settings().merged({"theme": "dark", "redcat": "true"})
    assert info.value.message == 'unknown option "redcat" on the ```volley fence'
    assert info.value.hint.startswith('did you mean "redact"? options are: name, theme')


def test_renders_are_cached_by_content_and_options(monkeypatch):
    calls = []
    real = fences._render

    def counting(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(fences, "_render", counting)
    site = DiagramSite()
    for _ in range(3):
        md = converter()
        site.install(md)
        md.convert(GOOD)
        site.sweep()
    assert len(calls) == 1
    md = converter()
    site.install(md)
    md.convert('```volley bodies="appendix"\nA -> B: hello\n```\n')
    assert len(calls) == 2


# A payload of 30 lines, so a cap on the appendix shows.
LONG = "A -> B: POST /x\nin: Body\n" + "".join(f"  line{n:02d}: v{n}\n" for n in range(1, 31))


def listed(page: str, line: str) -> bool:
    """Whether an appendix draws `line` (the panel's data holds every line, quoted)."""
    return f">{line}<" in page


@pytest.mark.parametrize("interactive", ["true", "false"])
def test_appendix_lines_on_a_fence_caps_each_listed_body(interactive):
    # the plain fence line, as superfences reads it without the plugin's help
    fence = f'```volley bodies="appendix" appendix_lines="5" interactive="{interactive}"\n'
    page = converter().convert(f"{fence}{LONG}```\n")
    assert 'class="volley-error"' not in page
    assert listed(page, "line05") and not listed(page, "line06")
    assert not listed(page, "line30")
    assert "25 more lines not shown (5 of 30)" in page


def test_a_sites_appendix_lines_caps_the_diagrams_that_list_bodies():
    site = DiagramSite(Settings(appendix_lines=4))
    md = converter()
    site.install(md)
    page = md.convert(f'```volley bodies="appendix"\n{LONG}```\n\n```volley\n{LONG}```\n')
    assert 'class="volley-error"' not in page  # the markers diagram has nothing to cap
    assert page.count("26 more lines not shown (4 of 30)") == 1
    page = md.reset().convert(f'```volley bodies="appendix" appendix_lines="9"\n{LONG}```\n')
    assert "21 more lines not shown (9 of 30)" in page  # the fence's own wins


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ('bodies="appendix" appendix_lines="many"', 'appendix_lines="many" on the ```volley fence'),
        ('bodies="appendix" appendix_lines="-2"', "is not a whole number of 1 or more"),
        ('bodies="appendix" appendix_lines="0"', "appendix_lines must be at least 1, not 0"),
        (
            'appendix_lines="5"',
            'appendix_lines applies to bodies "appendix" only, not to "markers"',
        ),
    ],
)
def test_a_bad_appendix_lines_is_an_error_box(options, said, caplog):
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.volley"):
        page = converter().convert(f"```volley {options}\n{LONG}```\n")
    assert 'class="volley-error"' in page and "volley-diagram" not in page
    assert said in page  # the box's text is escaped without touching quotes
    (record,) = caplog.records
    assert said in record.getMessage()


def test_appendix_lines_is_checked_by_the_options_rule():
    assert Settings().merged({"bodies": "appendix", "appendix_lines": "12"}) == Settings(
        bodies="appendix", appendix_lines=12
    )
    with pytest.raises(fences.OptionError, match='only, not to "none"') as caught:
        Settings().merged({"bodies": "none", "appendix_lines": "3"})
    assert isinstance(caught.value, fences.VolleyError)
    with pytest.raises(fences.VolleyError, match="not a whole number"):
        Settings().merged({"bodies": "appendix", "appendix_lines": "1_0"})


def test_an_error_box_wraps_its_words_and_keeps_the_quoted_line_and_caret_whole():
    """On a narrow page the message and the hint wrap; the quoted line and its caret stay
    as they are (the caret under its character), scrolling sideways when long."""
    page = converter().convert("```volley\nAgent ~> Model: a long label\n```\n")
    said, quoted, hint = re.findall(r'<pre style="([^"]*)">(.*?)</pre>', page, re.S)
    assert "white-space:pre-wrap" in said[0] and "is not an arrow" in said[1]
    assert "white-space:pre;" in quoted[0]
    assert quoted[1].split("\n") == ["  Agent ~&gt; Model: a long label", "        ^"]
    assert "white-space:pre-wrap" in hint[0] and hint[1] == 'did you mean "-&gt;"?'


def test_a_name_used_twice_on_a_page_is_a_warning_and_an_unnamed_prefix_is_the_texts(caplog):
    """`name="dup"` twice: the second's links are #dup-2-message-N, which a warning says; an
    unnamed diagram's prefix comes from its text alone, so links to it hold when the site's
    theme changes."""
    text = '```volley name="dup"\nA -> B: one\n```\n\n```volley name="dup"\nA -> B: two\n```\n'
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.volley"):
        converter().convert(text)
    (record,) = caplog.records
    assert 'the diagram name "dup" is used twice on this page' in record.getMessage()
    assert "#dup-2-message-N" in record.getMessage()
    plain = "```volley\nA -> B: one\n```\n"
    dark = '```volley theme="dark"\nA -> B: one\n```\n'
    prefixes = [re.search(r'id="(v[0-9a-f]{10})', converter().convert(t))[1] for t in (plain, dark)]
    assert prefixes[0] == prefixes[1] == default_id_prefix("A -> B: one")


def test_a_static_pictures_alt_names_it_for_readers_who_cannot_see_it() -> None:
    page = converter().convert('```volley alt="Login flow" interactive="false"\nA -> B\n```\n')
    assert 'role="figure" aria-label="Login flow"' in page
    # as a MyST page writes it, an option line at the top of the block (it was left out)
    myst = "```volley\n:interactive: false\n:alt: Login flow\n\nA -> B\n```\n"
    assert 'role="figure" aria-label="Login flow"' in converter().convert(myst)
