"""volley.Options: every render option named once, checked when made, never quietly ignored."""

from __future__ import annotations

import pytest

import volley
from volley.options import BODIES, FORMATS, THEMES, OptionError, Options, UnknownOptionError


def test_a_misspelt_option_is_an_error_that_names_the_right_one():
    with pytest.raises(UnknownOptionError) as caught:
        volley.render("A -> B", redcat=True)
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, volley.VolleyError)
    assert '"redcat"' in str(caught.value) and 'did you mean "redact"' in str(caught.value)
    with pytest.raises(TypeError, match="redcat"):
        Options.of(redcat=True)


def test_an_unknown_name_far_from_any_option_lists_them_all():
    with pytest.raises(UnknownOptionError) as caught:
        volley.render("A -> B", colour="red")
    assert "did you mean" not in str(caught.value)
    assert "format, theme, bodies" in str(caught.value)


@pytest.mark.parametrize(
    ("names", "words"),
    [
        ({"format": "gif"}, 'unknown format "gif"'),
        ({"theme": "neon"}, 'unknown theme "neon"'),
        ({"bodies": "all"}, 'unknown bodies "all"'),
        ({"fragment": True}, "fragment applies to html only, not to svg"),
        ({"format": "png", "fragment": True}, "fragment applies to html only, not to png"),
        ({"format": "html", "include_assets": False}, "include_assets applies to an HTML fragment"),
        ({"scale": 2.0}, "scale sizes png and pdf only, not svg"),
        ({"format": "html", "scale": 2.0}, "scale sizes png and pdf only, not html"),
        ({"format": "png", "theme": "auto"}, 'theme "auto" does not apply to png'),
        ({"format": "pdf", "theme": "auto"}, 'theme "auto" does not apply to pdf'),
        ({"format": "png", "scale": 0}, "scale must be a positive number"),
        ({"format": "png", "scale": float("nan")}, "scale must be a positive number"),
        ({"format": "png", "scale": "2"}, "scale must be a number"),
        ({"redact": "yes"}, "redact must be True or False"),
        ({"limits": {"messages": 3}}, "limits must be a volley.Limits"),
    ],
)
def test_a_value_that_does_not_fit_is_refused_with_its_reason(names, words):
    with pytest.raises(OptionError) as caught:
        Options(**names)
    assert words in str(caught.value)
    with pytest.raises(OptionError):  # the same through the one call
        volley.render("A -> B", **names)


def test_options_that_apply_are_accepted_and_the_theme_follows_the_format():
    assert Options().resolved_theme == "light"
    assert Options(format="html").resolved_theme == "auto"
    assert Options(format="png", theme="dark", scale=2).resolved_theme == "dark"
    html = Options(format="html", fragment=True, include_assets=False, theme="auto")
    assert html.updated(theme="dark").theme == "dark" and html.fragment


def test_updated_is_checked_like_a_new_options():
    with pytest.raises(OptionError, match="fragment"):
        Options(format="html", fragment=True).updated(format="svg")
    with pytest.raises(UnknownOptionError, match="redcat"):
        Options().updated(redcat=True)


def test_the_vocabularies_are_what_the_pipeline_draws():
    for fmt in FORMATS:
        assert volley.render("A -> B", format=fmt)
    for theme in THEMES:
        assert volley.render("A -> B", format="html", theme=theme)
    for bodies in BODIES:
        assert volley.render("A -> B", bodies=bodies)


def test_an_options_value_and_single_names_combine():
    options = Options(format="html", theme="dark")
    assert volley.render("A -> B", options=options) == volley.render(
        "A -> B", format="html", theme="dark"
    )
    assert volley.render("A -> B", "svg", options=options).startswith("<svg")
