"""Font Awesome Free lookup: what exists, renames, Pro prefixes and near misses."""

from __future__ import annotations

import pytest

import volley
from volley.text.icons import Icon, check_icon, load_icon, resolve_icon
from volley.text.inline import IconRef, icon_refs


def ref(source: str) -> IconRef:
    [found] = icon_refs(source)
    return found


@pytest.mark.parametrize(
    ("prefix", "name"),
    [("fas", "plug"), ("fas", "robot"), ("fab", "github"), ("far", "envelope"), ("fas", "bolt")],
)
def test_free_icons_load(prefix: str, name: str) -> None:
    icon = load_icon(prefix, name)
    assert isinstance(icon, Icon)
    assert icon.height == 512 and 0 < icon.width <= 640
    assert icon.path.startswith("M") and "<" not in icon.path and '"' not in icon.path
    assert check_icon(ref(f"{{{prefix}-{name}}}")) is None


def test_plug_drawing() -> None:
    icon = load_icon("fas", "plug")
    assert (icon.width, icon.height) == (384, 512)
    assert load_icon("fas", "plug") is icon  # cached


def test_long_prefixes_are_accepted() -> None:
    assert load_icon("fa-solid", "plug") == load_icon("fas", "plug")
    assert load_icon("fa-brands", "github") == load_icon("fab", "github")
    assert check_icon(ref("{fa-solid fa-robot}")) is None


def test_renamed_icons_follow_their_aliases() -> None:
    assert load_icon("fas", "sign-out-alt") == load_icon("fas", "right-from-bracket")
    assert load_icon("fas", "home") == load_icon("fas", "house")


def test_far_bolt_is_not_free_but_is_drawn_solid() -> None:
    # Font Awesome Free has the bolt only in the solid style.
    assert load_icon("far", "bolt") is None
    assert resolve_icon(ref("{far-bolt}")) == load_icon("fas", "bolt")
    assert check_icon(ref("{far-bolt}")) == (
        '"{far-bolt}" is not in Font Awesome Free; drawn as {fas-bolt}'
    )


def test_brand_written_as_solid_is_drawn_as_the_brand() -> None:
    assert resolve_icon(ref("{fas-github}")) == load_icon("fab", "github")
    assert "drawn as {fab-github}" in check_icon(ref("{fas-github}"))


def test_unknown_icon_with_suggestion() -> None:
    assert resolve_icon(ref("{fas-plugg}")) is None
    assert check_icon(ref("{fas-plugg}")) == 'unknown icon "{fas-plugg}"; did you mean {fas-plug}?'
    assert check_icon(ref("{fab-gitub fa-lg}")) == (
        'unknown icon "{fab-gitub fa-lg}"; did you mean {fab-github}?'
    )
    # two letters swapped: the icon with those letters, not the one a letter away (plus)
    assert check_icon(ref("{fas-plgu}")).endswith("did you mean {fas-plug}?")
    # letters moved further than that are no swap: the nearest icon still (not broom, eraser)
    assert check_icon(ref("{fas-robom}")).endswith("did you mean {fas-robot}?")
    assert check_icon(ref("{fas-seraer}")).endswith("did you mean {fas-server}?")


def test_unknown_icon_without_suggestion() -> None:
    assert check_icon(ref("{fas-qqqqqqqqqqqqqq}")) == 'unknown icon "{fas-qqqqqqqqqqqqqq}"'


@pytest.mark.parametrize("prefix", ["fal", "fad", "fat", "fass"])
def test_pro_prefixes(prefix: str) -> None:
    message = check_icon(ref(f"{{{prefix}-zzzzzzzzzzzz}}"))
    assert message == (
        f'"{{{prefix}-zzzzzzzzzzzz}}" is a Font Awesome Pro icon; only Font Awesome Free icons'
        " are bundled (use fas-, far- or fab-)"
    )
    assert load_icon(prefix, "plug") is None


def test_pro_icon_with_a_free_twin_is_drawn_as_the_free_one() -> None:
    assert resolve_icon(ref("{fal-plug}")) == load_icon("fas", "plug")
    assert check_icon(ref("{fal-plug}")).endswith("; drawn as {fas-plug}")


@pytest.mark.parametrize(
    "name", ["../solid/plug", "plug/../../x", "PLUG", "plug.svg", "", "-plug", "a b"]
)
def test_names_cannot_leave_the_icon_folder(name: str) -> None:
    assert load_icon("fas", name) is None


def test_unknown_prefix_loads_nothing() -> None:
    assert load_icon("fax", "plug") is None


def test_an_icon_in_a_participants_name_is_pointed_out_as_drawn_as_written() -> None:
    checked = volley.check("participant D as {fas-user} Icon user\nD -> E: w {fas-check}\n")
    [warning] = checked.warnings  # the label's icon is drawn: no word about it
    assert (warning.line, warning.column) == (1, 18)
    assert warning.message.startswith("a participant's name is drawn as written: {fas-user}")


def test_font_awesomes_rotate_and_flip_classes_turn_the_icon_in_every_format() -> None:
    """`{fas-arrow-right fa-rotate-90}` (a swimlanes.io diagram's arrow pointing down) was
    drawn pointing right: the class was ignored. It turns the icon about its centre, in the
    picture, in PNG (the same SVG) and in the viewer's panel; its place on the line stays."""
    import re

    assert ref("{fas-arrow-right fa-rotate-90 fa-lg}") == IconRef(
        "fas", "arrow-right", 1.25, "{fas-arrow-right fa-rotate-90 fa-lg}", "rotate-90"
    )
    # as Font Awesome's stylesheet combines its classes: both flips flip both ways, a flip
    # wins over a rotation, and of two rotations the one it defines last
    assert ref("{fas-a fa-flip-horizontal fa-flip-vertical}").turn == "flip-both"
    assert ref("{fas-a fa-rotate-90 fa-flip-horizontal}").turn == "flip-horizontal"
    assert ref("{fas-a fa-rotate-180 fa-rotate-90}").turn == "rotate-180"
    text = (
        "A -> B: a {fas-arrow-right} b {fas-arrow-right fa-rotate-90} "
        "c {fas-arrow-right fa-flip-horizontal} d {fas-arrow-right fa-flip-both}\n"
    )
    uses = re.findall(r"<use class=\"icon[^>]*>", volley.render(text))

    def centre(use: str) -> tuple[float, float]:
        x, y, w, h = (
            float(re.search(f' {k}="([\\d.]+)"', use)[1]) for k in ("x", "y", "width", "height")
        )
        return x + w / 2, y + h / 2

    def turn(use: str) -> list[float]:
        found = re.search(r'transform="(\w+)\(([^)]*)\)"', use)
        return (
            []
            if found is None
            else [*([0.0] if found[1] == "rotate" else []), *map(float, found[2].split())]
        )

    assert turn(uses[0]) == []
    cx, cy = centre(uses[1])
    assert turn(uses[1]) == pytest.approx([0, 90, cx, cy], abs=0.01)  # rotate(90 cx cy)
    cx, cy = centre(uses[2])
    assert turn(uses[2]) == pytest.approx([-1, 0, 0, 1, 2 * cx, 0], abs=0.02)
    cx, cy = centre(uses[3])
    assert turn(uses[3]) == pytest.approx([-1, 0, 0, -1, 2 * cx, 2 * cy], abs=0.02)
    unturned = volley.render(text.replace(" fa-rotate-90", ""))
    assert re.findall(r'x="[\d.]+"', unturned) == re.findall(r'x="[\d.]+"', volley.render(text))
    page = volley.render(text, format="html")
    assert '"turn":"rotate-90"' in page and '"turn":"flip-both"' in page
