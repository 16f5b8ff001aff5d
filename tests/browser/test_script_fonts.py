"""Other scripts in Chromium: drawn with the fonts their widths were measured with.

On Debian with Noto's fonts, Chromium's own fallback drew a Tamil word that starts with "பி"
as empty boxes (it picked Noto Sans Grantha, which has the letter but not its vowel sign), in
the picture, in code and in the panel. The font stacks name the script fonts after the Latin
ones, so a browser that has them uses them. Which fonts Chromium used for a node is what its
DevTools protocol reports (`CSS.getPlatformFontsForNode`).
"""

from __future__ import annotations

import pytest

from volley.api import render

from ..test_metrics import needs_font

pytestmark = [pytest.mark.browser, needs_font("Noto Sans Tamil")]

TAMIL = "பிழை"
SOURCE = f"""A -> B: {TAMIL}
in: {TAMIL}
```json
{{"{TAMIL}": "{TAMIL}"}}
```
B --> A: `{TAMIL}`
"""


def _fonts_of_nodes(page, word: str = TAMIL) -> dict[str, set[str]]:
    """For each innermost element whose text is `word`, the font families Chromium drew it
    with, keyed by its tag and a count."""
    session = page.context.new_cdp_session(page)
    session.send("DOM.enable")
    session.send("CSS.enable")
    root = session.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    page.evaluate(
        """word => { let n = 0;  // the isolates code's Hebrew or Arabic is set in are unseen
            const seen = el => el.textContent.replace(/[\u2066-\u2069]/g, '').trim();
            for (const el of document.querySelectorAll('*')) {
              const inner = [...el.children].some(c => seen(c) === word);
              if (seen(el) === word && !inner)
                el.setAttribute('data-word', el.tagName + '#' + n++);
            } }""",
        word,
    )
    found = session.send("DOM.querySelectorAll", {"nodeId": root, "selector": "[data-word]"})
    fonts = {}
    for node in found["nodeIds"]:
        name = session.send("DOM.getAttributes", {"nodeId": node})["attributes"]
        key = name[name.index("data-word") + 1]
        used = session.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        fonts[key] = {font["familyName"] for font in used}
    return fonts


def test_the_picture_draws_a_tamil_label_and_code_with_the_tamil_font(open_page) -> None:
    page = open_page(render(SOURCE), name="tamil.svg")
    fonts = _fonts_of_nodes(page)
    assert len(fonts) >= 2  # the label and the code run
    assert all(used == {"Noto Sans Tamil"} for used in fonts.values()), fonts


def test_the_panel_draws_tamil_with_the_tamil_font(open_page) -> None:
    page = open_page(render(SOURCE, format="html"))
    page.click('[data-message="1"]')
    page.wait_for_selector(".vl-title")
    fonts = _fonts_of_nodes(page)
    assert len(fonts) >= 4  # the picture's label, the panel's title, tab and table cells
    assert all(used == {"Noto Sans Tamil"} for used in fonts.values()), fonts


ARABIC = "الخادم"


@needs_font("Noto Sans Arabic")
def test_arabic_in_code_is_drawn_with_the_font_that_measured_it(open_page) -> None:
    """DejaVu Sans Mono has Arabic letters of its own, drawn at a monospace advance, a quarter
    wider than Noto Sans Arabic's that measured them: named before the script fonts, it drew
    code holding Arabic past its grey background and over the words after it."""
    source = f"A -> B: run `{ARABIC}` now\nnote A: the `{ARABIC}` server\n"
    page = open_page(render(source), name="arabic.svg")
    fonts = _fonts_of_nodes(page, ARABIC)
    assert len(fonts) >= 2  # the label's code run and the note's
    assert all(used == {"Noto Sans Arabic"} for used in fonts.values()), fonts
