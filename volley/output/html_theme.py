"""The viewer's colours as CSS variables, light and dark, written once and switched by selector.

The page follows one of three switches: `data-theme` on the diagram (light, dark, auto), the
reader's `prefers-color-scheme` when auto, and, when auto inside a docs site, the site's own
colour switch on an ancestor: mkdocs-material's palette (`data-md-color-scheme`), the MkDocs
theme's colour mode (Bootstrap's `data-bs-theme`), and `data-theme` as furo and the PyData
Sphinx theme set it; in a notebook, JupyterLab's theme (`data-jp-theme-light`) and VS Code's
(`vscode-dark` on the output's body). A site's switch wins over the reader's setting, as the
site's own colours do. On paper an auto diagram is light whatever the reader's setting (the
reader's dark screen is no dark page, and a printer leaves out backgrounds, leaving the dark
palette's light words on white). Pure CSS would need the dark block once per switch; generating it
keeps one definition per palette. The drawing's role classes (`vf-ROLE` fill, `vs-ROLE`
stroke, from `themes.py`) are mapped to variables here too, so the SVG switches with the
panel.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from volley.layout.metrics import SCRIPT_FAMILIES
from volley.output.themes import DARK, LIGHT

if TYPE_CHECKING:
    from volley.output.tints import Fill

# Panel and page colours. Value kinds and syntax tokens share a hue per type, so a string is
# the same green in the table as in the raw body. Text keeps WCAG's 4.5:1 against the panel
# (`faint`, the paired reply's `pair`); a code comment's colour is the faint one by convention.
UI_LIGHT: Mapping[str, str] = {
    "fg": "#0f172a",
    "muted": "#475569",
    "faint": "#64748b",
    "panel": "#ffffff",
    "panel-2": "#f8fafc",
    "zebra": "#f8fafc",
    "border": "#e2e8f0",
    "border-faint": "#eef2f6",
    "accent": "#4f46e5",
    "accent-fg": "#ffffff",
    "accent-soft": "#eef2ff",
    "pair": "#5b5ff0",
    "seg": "#f1f5f9",
    "code-bg": "#f8fafc",
    "notice-bg": "#fffbeb",
    "notice-fg": "#92400e",
    "notice-border": "#fde68a",
    "in": "#0369a1",
    "in-bg": "#e0f2fe",
    "out": "#047857",
    "out-bg": "#d1fae5",
    "key": "#334155",
    "string": "#047857",
    "number": "#b45309",
    "boolean": "#7c3aed",
    "null": "#64748b",
    "t-key": "#1d4ed8",
    "t-attr": "#0e7490",
    "t-method": "#be185d",
    "t-target": "#0f172a",
    "t-kw": "#7c3aed",
    "t-reason": "#047857",
    "t-val": "#334155",
    "t-pun": "#64748b",
    "t-com": "#94a3b8",
    "ok": "#047857",
    "ok-bg": "#d1fae5",
    "redirect": "#1d4ed8",
    "redirect-bg": "#dbeafe",
    "warn": "#b45309",
    "warn-bg": "#fef3c7",
    "error": "#b91c1c",
    "error-bg": "#fee2e2",
    "shadow": "0 1px 2px rgba(15,23,42,.06), 0 12px 32px -12px rgba(15,23,42,.18)",
}

UI_DARK: Mapping[str, str] = {
    "fg": "#e2e8f0",
    "muted": "#94a3b8",
    "faint": "#7c8aa0",
    "panel": "#131c2e",
    "panel-2": "#182236",
    "zebra": "#172033",
    "border": "#263248",
    "border-faint": "#1e293b",
    "accent": "#a5b4fc",
    "accent-fg": "#1e1b4b",
    "accent-soft": "rgba(129,140,248,.16)",
    "pair": "#818cf8",
    "seg": "#0f172a",
    "code-bg": "#0c1424",
    "notice-bg": "rgba(251,191,36,.08)",
    "notice-fg": "#fcd34d",
    "notice-border": "rgba(251,191,36,.25)",
    "in": "#7dd3fc",
    "in-bg": "rgba(56,189,248,.14)",
    "out": "#6ee7b7",
    "out-bg": "rgba(52,211,153,.14)",
    "key": "#cbd5e1",
    "string": "#6ee7b7",
    "number": "#fcd34d",
    "boolean": "#c4b5fd",
    "null": "#94a3b8",
    "t-key": "#93c5fd",
    "t-attr": "#67e8f9",
    "t-method": "#f9a8d4",
    "t-target": "#e2e8f0",
    "t-kw": "#c4b5fd",
    "t-reason": "#6ee7b7",
    "t-val": "#cbd5e1",
    "t-pun": "#94a3b8",
    "t-com": "#64748b",
    "ok": "#6ee7b7",
    "ok-bg": "rgba(52,211,153,.14)",
    "redirect": "#93c5fd",
    "redirect-bg": "rgba(96,165,250,.14)",
    "warn": "#fcd34d",
    "warn-bg": "rgba(251,191,36,.14)",
    "error": "#fca5a5",
    "error-bg": "rgba(248,113,113,.14)",
    "shadow": "0 1px 2px rgba(0,0,0,.4), 0 12px 32px -12px rgba(0,0,0,.6)",
}

ROOT = ".volley-diagram"
# The drawing's background follows `--vl-bg`, which a host page may point at its own colour.
_PAGE_ROLES = {"bg": "var(--vl-bg)"}
# Docs sites' own colour switches, on an ancestor of the diagram: mkdocs-material's palette,
# the MkDocs theme's colour mode (Bootstrap), furo's and the PyData Sphinx theme's `data-theme`;
# and a notebook's: JupyterLab's (and Notebook 7's) theme, VS Code's in its notebook outputs.
_SITE_DARK = (
    "[data-md-color-scheme=slate]",
    "[data-bs-theme=dark]",
    "[data-theme=dark]",
    "[data-jp-theme-light=false]",
    ".vscode-dark",
)
_SITE_LIGHT = (
    "[data-md-color-scheme=default]",
    "[data-bs-theme=light]",
    "[data-theme=light]",
    "[data-jp-theme-light=true]",
    ".vscode-light",
)
# The docs themes that set one of those switches: MkDocs' material and mkdocs, Sphinx's furo,
# PyData and Book themes.
_THEMES_WITH_A_SWITCH = frozenset(
    {"material", "mkdocs", "furo", "pydata_sphinx_theme", "sphinx_book_theme"}
)


def site_default_theme(site_theme: str | None) -> str:
    """A diagram's theme when it names none, on a docs site of the theme named: auto (the
    reader's colour scheme, and the site's own switch) where the site has a dark mode whose
    switch the page follows, else light, since a diagram turning dark on a page that stays
    white reads as a mistake."""
    return "auto" if site_theme in _THEMES_WITH_A_SWITCH else "light"


def _declarations(ui: Mapping[str, str], svg: Mapping[str, str], scheme: str) -> str:
    names = [f"--vl-{name}:{value};" for name, value in ui.items()]
    names += [f"--vl-svg-{role}:{colour};" for role, colour in svg.items()]
    names.append(f"--vl-bg:{svg['bg']};color-scheme:{scheme};")
    return "".join(names)


def _page_root(diagram: str) -> str:
    """The root of a page of its own (`volley render -o x.html`) whose diagram `diagram` is."""
    return f"html:has(> body > main > {diagram}.vl-page)"


def theme_css() -> str:
    """Variables for both palettes under every switch, and the role classes that use them."""
    light = _declarations(UI_LIGHT, LIGHT, "light")
    dark = _declarations(UI_DARK, DARK, "dark")
    auto = f"{ROOT}[data-theme=auto]"
    dark_page = _page_root(f"{ROOT}[data-theme=dark]")
    site_dark = ",".join(f"{switch} {auto}" for switch in _SITE_DARK)
    site_light = ",".join(f"{switch} {auto}" for switch in _SITE_LIGHT)
    rules = [
        f"{ROOT}{{{light}}}",
        f"{ROOT}[data-theme=dark]{{{dark}}}",
        f"@media screen and (prefers-color-scheme:dark){{{auto}{{{dark}}}}}",
        f"{site_dark}{{{dark}}}",
        f"{site_light}{{{light}}}",
        # Inside mkdocs-material, the MkDocs theme (Bootstrap's colour modes), furo, the PyData
        # theme and JupyterLab, an auto diagram sits on the site's own page colour (a navy
        # card on its grey dark page).
        f"[data-md-color-scheme] {auto}{{--vl-bg:var(--md-default-bg-color)}}",
        f"[data-bs-theme] {auto}{{--vl-bg:var(--bs-body-bg,var(--vl-svg-bg))}}",
        f"[data-theme] {auto}{{--vl-bg:var(--color-background-primary,"
        "var(--pst-color-background,var(--vl-svg-bg)))}",
        f"[data-jp-theme-light] {auto}{{--vl-bg:var(--jp-layout-color0,var(--vl-svg-bg))}}",
        # A page of its own in the dark: the window's canvas is its colour too (the browser's
        # own dark grey differs). Printed, it keeps its backgrounds (its light text would be
        # lost without them), on white paper (the browser printed its grey canvas around it).
        f"{dark_page}{{background:{DARK['bg']};"
        "-webkit-print-color-adjust:exact;print-color-adjust:exact}",
        f"@media print{{{dark_page}{{color-scheme:light}}}}",
        "@media screen and (prefers-color-scheme:dark){"
        f"{_page_root(auto)}{{background:{DARK['bg']}}}}}",
        # Not a colour: the fonts other scripts are drawn with, which volley.css names after
        # the page's own (a browser's fallback can pick one that draws empty boxes).
        f"{ROOT}{{--vl-scripts:{SCRIPT_FAMILIES}}}",
    ]
    for role in LIGHT:
        value = _PAGE_ROLES.get(role, f"var(--vl-svg-{role})")
        rules.append(f"{ROOT} .vf-{role}{{fill:{value}}}")
        rules.append(f"{ROOT} .vs-{role}{{stroke:{value}}}")
    return "\n".join(rules) + "\n"


def tint_css(scope: str, fills: Sequence[Fill]) -> str:
    """The dark colours of one diagram's rects under every switch that turns the page dark
    (their light colours are the drawing's attributes), scoped to the drawing's id `scope`."""
    auto = f"{ROOT}[data-theme=auto] #{scope}"
    dark = [f"{ROOT}[data-theme=dark] #{scope}", *(f"{s} {auto}" for s in _SITE_DARK)]
    light = [f"{s} {auto}" for s in _SITE_LIGHT]  # a site's light switch over the reader's
    rules = []
    for fill in fills:
        rules.append(",".join(f"{where} .{fill.cls}" for where in dark) + f"{{fill:{fill.dark}}}")
        dark_rect = f"{auto} .{fill.cls}{{fill:{fill.dark}}}"
        rules.append(f"@media screen and (prefers-color-scheme:dark){{{dark_rect}}}")
        rules.append(",".join(f"{where} .{fill.cls}" for where in light) + f"{{fill:{fill.light}}}")
    return "\n".join(rules)
