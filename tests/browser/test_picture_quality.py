"""What a designer would see in Chromium: no lifeline through any text, no text over text.

Each picture is drawn twice with its text hidden, once with its lifelines and once without;
inside each text's box (`getBBox()` of each `<text>`, as the browser measured it) the two must
be the same pixels, or a lifeline shows through that text. The boxes themselves must not
overlap. Over every example and a set of stress diagrams: long labels, nested blocks, notes,
activations, self messages, CJK, emoji, a generated diagram of a hundred messages, and a
dozen diagrams drawn (the same each run) from the fuzz strategies.
"""

from __future__ import annotations

import importlib.util
import io
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings

import volley
from volley.api import layout as lay_out
from volley.errors import VolleyError

from ..fuzz_strategies import diagram_text

pytestmark = pytest.mark.browser
ROOT = Path(__file__).parent.parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.volley"))
INSET = 1.0  # a box's outer pixel is shared with antialiased neighbours
OVERLAP_SLACK = 0.5

STRESS = {
    "long-labels": (
        "A -> B: GET /callback?code=SplxlOBeZQQYbYS6WxSbIA&state=af0ifjsldkj&scope=openid%20"
        "profile%20email then a few more words that wrap\n"
        "B -> C: `inline code that runs on` and **bold** and a {fas-plug} icon\n"
        "C --> A: 200 OK\nnote A, C: A note over three lanes, long enough to wrap onto a second"
        " line and a third, with `code` in it.\n"
    ),
    "nested-blocks": (
        "A -> B: start\nloop: every minute, until the queue is empty\n  if: the token is fresh\n"
        "    B -> C: call\n    par: fan out\n      C -> D: one\n    and:\n      C -> E: two\n"
        "    end\n  else: the token expired\n    B -> A: refresh\n  else: no token\n"
        "    B --> A: 401\n  end\nend\nD -> E: after\n"
    ),
    "activations-self": (
        "A ->+ B: open\nB ->+ B: think about the request for a while\nB -> C: ask\n"
        "C -> C: a self message on the rightmost lane with a long label\nC --> B: answer\n"
        "B -->- B: done\nB -->- A: result\nnote B: between the bars\n"
    ),
    "cjk-emoji": (
        "title: 注文の流れ 📦\norder: 利用者, 网关 🚪, Dépôt 📦, 서버\n"
        "利用者 -> 网关 🚪: 注文を送信する 🛒\n网关 🚪 -> Dépôt 📦: 在庫を確認 ✅\n"
        "Dépôt 📦 -> 서버: 주문 확인 요청\n서버 --> 利用者: 完了しました 🎉\n"
        "note 网关 🚪, 서버: 中文、日本語、한국어 and emoji 👍 together\n"
    ),
    "dividers-notes": (
        "A -> B: one\n-: Phase two\nB -> C: two\n...: an hour later\nnote A: left\n"
        "--: dashed\nnote C: right side note\n=: {fas-robot} Section band\n_: thin\n"
        "C --> A: three\n"
    ),
}


def _generated() -> str:
    """A hundred-message diagram from the benchmarks' generator (sections, notes, blocks)."""
    spec = importlib.util.spec_from_file_location("generate", ROOT / "benchmarks" / "generate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("generate", module)  # its dataclasses look themselves up there
    spec.loader.exec_module(module)
    return module.VolleyWriter(module.script(100)).text()


def _sources() -> list[tuple[str, str]]:
    out = [(path.stem, path.read_text(encoding="utf-8")) for path in EXAMPLES]
    out += list(STRESS.items())
    out.append(("generated-100", _generated()))
    return out


MEASURE = """() => {
  const svg = document.querySelector('svg');
  const origin = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('text')].map((t) => {
    const b = t.getBBox();
    const m = t.getCTM();
    return [b.x * m.a + m.e, b.y * m.d + m.f, b.width * m.a, b.height * m.d,
            (t.textContent || '').slice(0, 40), t.getAttribute('class') || ''];
  });
}"""


def _shot(page, css: str):
    from PIL import Image

    page.evaluate("css => { document.getElementById('hide').textContent = css; }", css)
    svg = page.locator("svg")
    return Image.open(io.BytesIO(svg.screenshot(animations="disabled"))).convert("RGB")


def _overlaps(a, b) -> bool:
    return (
        min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0]) > OVERLAP_SLACK
        and min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1]) > OVERLAP_SLACK
    )


SOURCES = _sources()


def _faults(context, svg: str) -> tuple[list[str], list[str]]:
    """The texts a lifeline shows through, and the pairs of texts that overlap."""
    from PIL import ImageChops

    page = context.new_page()
    page.set_content(
        '<!doctype html><html><head><style id="hide"></style>'
        "<style>body{margin:0;background:#fff}</style></head>"
        f"<body>{svg}</body></html>"
    )
    boxes = page.evaluate(MEASURE)
    # The screenshot's pixels start at the picture's corner; the boxes are in page pixels.
    corner = page.evaluate(
        "() => { const r = document.querySelector('svg').getBoundingClientRect();"
        " return [r.x, r.y]; }"
    )
    hidden = "svg text { visibility: hidden }"
    with_lines = _shot(page, hidden)
    without = _shot(page, hidden + " svg .lifeline { display: none }")
    page.close()
    diff = ImageChops.difference(with_lines, without)
    crossed = []
    for x, y, w, h, words, cls in boxes:
        left, top = x - corner[0] + INSET, y - corner[1] + INSET
        area = (round(left), round(top), int(left + w - 2 * INSET), int(top + h - 2 * INSET))
        if area[2] > area[0] and area[3] > area[1] and diff.crop(area).getbbox() is not None:
            crossed.append(f"{cls}: {words!r}")
    ordered = sorted(boxes, key=lambda b: b[1])
    clashes = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b[1] >= a[1] + a[3]:
                break
            if _overlaps(a, b):
                clashes.append(f"{a[4]!r} / {b[4]!r}")
    return crossed, clashes


@pytest.mark.parametrize(("name", "source"), SOURCES, ids=[n for n, _ in SOURCES])
def test_no_lifeline_through_text_and_no_text_over_text(context, name: str, source: str) -> None:
    bodies = "appendix" if name.startswith("mcp") else "markers"
    crossed, clashes = _faults(context, volley.render(source, theme="light", bodies=bodies))
    assert crossed == [], f"{name}: a lifeline shows inside these texts"
    assert clashes == [], f"{name}: texts overlap"


@settings(
    max_examples=12,
    derandomize=True,  # the same diagrams every run: a browser test is no fuzz campaign
    database=None,
    phases=[Phase.generate],
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(text=diagram_text())
def test_generated_diagrams_keep_text_clear(context, text: str) -> None:
    """Diagrams drawn from the fuzz strategies: odd names, markup, nesting, bodies."""
    try:
        svg = volley.render(text, theme="light")
    except VolleyError:
        return  # a diagram that does not parse has no picture
    crossed, clashes = _faults(context, svg)
    assert crossed == [] and clashes == [], (text, crossed, clashes)


def test_the_check_sees_a_planted_fault(context) -> None:
    """A text laid over a lifeline, and a second text over the first, are both found."""
    layout = lay_out(STRESS["long-labels"])
    x, y = layout.lifelines[1].x, layout.lifelines[1].segments[0][0] + 30
    planted = (
        f'<text x="{x - 30}" y="{y}" font-size="14">planted</text>'
        f'<text x="{x - 10}" y="{y + 2}" font-size="14">second</text></svg>'
    )
    svg = volley.render(STRESS["long-labels"], theme="light").replace("</svg>", planted)
    crossed, clashes = _faults(context, svg)
    assert any("planted" in c for c in crossed) and any("second" in c for c in crossed)
    assert clashes == ["'planted' / 'second'"]
