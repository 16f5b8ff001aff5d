"""The VS Code extension in editors/vscode: its manifest, language configuration and grammar.

The grammar runs in the engine VS Code itself uses (the npm packages vscode-textmate and
vscode-oniguruma, installed into a temporary folder; the tests skip without npm or the
registry). The parser is the oracle: on every example each element it reads starts with the
scope its kind should have, and no line of a payload body is read as volley.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import volley

from .conftest import EXAMPLES, ROOT, parsed_items

EXTENSION = ROOT / "editors" / "vscode"
GRAMMAR = EXTENSION / "syntaxes" / "volley.tmLanguage.json"
MARKDOWN_GRAMMAR = EXTENSION / "syntaxes" / "volley.markdown.tmLanguage.json"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.volley"))

# Loads the grammars (other languages' grammars as empty stand-ins, as VS Code would supply
# them) and prints, per file, each line's tokens as [text, scopes].
TOKENIZE = r"""
const fs = require("fs");
const path = require("path");
const tm = require("vscode-textmate");
const onig = require("vscode-oniguruma");
const [grammars, ...files] = process.argv.slice(2);
const known = JSON.parse(grammars);  // scope name -> grammar file
const onigFolder = path.dirname(require.resolve("vscode-oniguruma"));
const wasm = fs.readFileSync(path.join(onigFolder, "onig.wasm"));
const registry = new tm.Registry({
  onigLib: onig.loadWASM(wasm.buffer).then(() => ({
    createOnigScanner: (patterns) => new onig.OnigScanner(patterns),
    createOnigString: (text) => new onig.OnigString(text),
  })),
  loadGrammar: async (scope) => known[scope]
    ? tm.parseRawGrammar(fs.readFileSync(known[scope], "utf8"), known[scope])
    : tm.parseRawGrammar(JSON.stringify({ scopeName: scope, patterns: [] }), scope + ".json"),
  getInjections: (scope) => scope === "text.html.markdown" ? ["markdown.volley.codeblock"] : [],
});
(async () => {
  const out = {};
  for (const file of files) {
    const scope = file.endsWith(".md") ? "text.html.markdown" : "source.volley";
    const grammar = await registry.loadGrammar(scope);
    let stack = tm.INITIAL;
    out[file] = fs.readFileSync(file, "utf8").split(/\r?\n/).map((line) => {
      const result = grammar.tokenizeLine(line, stack);
      stack = result.ruleStack;
      return result.tokens.map((t) => [line.slice(t.startIndex, t.endIndex), t.scopes.slice(1)]);
    });
  }
  process.stdout.write(JSON.stringify(out));
})();
"""


@pytest.fixture(scope="module")
def tokenizer(tmp_path_factory):
    """A function from files to {file: [[ [text, scopes], … ] per line]}."""
    if not (shutil.which("node") and shutil.which("npm")):
        pytest.skip("node and npm are needed to run the grammar in VS Code's engine")
    folder = tmp_path_factory.mktemp("vscode-textmate")
    installed = subprocess.run(
        ["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(folder)]
        + ["vscode-textmate@9", "vscode-oniguruma@2"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if installed.returncode != 0:
        pytest.skip(f"could not install vscode-textmate from npm: {installed.stderr[-300:]}")
    script = folder / "tokenize.js"
    script.write_text(TOKENIZE)
    grammars = json.dumps(
        {"source.volley": str(GRAMMAR), "markdown.volley.codeblock": str(MARKDOWN_GRAMMAR)}
    )

    def tokenize(*files: Path) -> dict[str, list]:
        result = subprocess.run(
            ["node", str(script), grammars, *map(str, files)],
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
            cwd=folder,
        )
        return json.loads(result.stdout)

    return tokenize


@pytest.fixture(scope="module")
def example_tokens(tokenizer) -> dict[str, list]:
    return tokenizer(*EXAMPLE_FILES)


def first_scope(line_tokens: list) -> str:
    """The innermost scope of the first token on a line that is not blank."""
    for text, scopes in line_tokens:
        if text.strip():
            return scopes[-1] if scopes else ""
    return ""


FIRST_SCOPE = {
    "message": "entity.name.type.participant.volley",
    "note": "keyword.other.note.volley",
    "block": "keyword.control.block.volley",
    "divider": "keyword.operator.divider.volley",
}


# --- the manifest and the language configuration ----------------------------------------------


def test_manifest_names_the_language_its_files_and_existing_grammars():
    manifest = json.loads((EXTENSION / "package.json").read_text())
    (language,) = manifest["contributes"]["languages"]
    assert language["id"] == "volley" and language["extensions"] == [".volley"]
    assert (EXTENSION / language["configuration"]).is_file()
    grammars = manifest["contributes"]["grammars"]
    for grammar in grammars:
        declared = json.loads((EXTENSION / grammar["path"]).read_text())
        assert declared["scopeName"] == grammar["scopeName"]
    main = next(grammar for grammar in grammars if grammar.get("language") == "volley")
    # Every embedded block the grammar can open is mapped to a VS Code language.
    content_names = set(
        re.findall(r'"contentName": "(meta\.embedded\.block\.[a-z]+)"', GRAMMAR.read_text())
    )
    assert content_names == set(main["embeddedLanguages"])


def test_the_comment_the_configuration_toggles_is_volleys_comment():
    config = json.loads((EXTENSION / "language-configuration.json").read_text())
    comment = config["comments"]["lineComment"]
    toggled = f"{comment} A -> B: hidden\nC -> D: shown\n"
    assert [item["to"] for item in volley.parse(toggled).to_json()["items"]] == ["D"]


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_folding_markers_open_at_every_block_and_close_at_its_end(path):
    config = json.loads((EXTENSION / "language-configuration.json").read_text())
    start = re.compile(config["folding"]["markers"]["start"])
    end = re.compile(config["folding"]["markers"]["end"])
    source = path.read_text(encoding="utf-8")
    lines = source.split("\n")
    parsed = volley.parse(source).to_json()
    blocks = [item for item in parsed_items(parsed) if item["type"] == "block"]
    blocks += parsed.get("boxes", [])  # a box of participants folds as a block does
    for block in blocks:
        assert start.search(lines[block["line"] - 1]), lines[block["line"] - 1]
    assert sum(1 for line in lines if start.search(line)) == len(blocks)
    assert sum(1 for line in lines if end.search(line)) == len(blocks)


# --- the grammar, in VS Code's engine -----------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_every_element_starts_with_the_scope_of_its_kind(path, example_tokens):
    source = path.read_text(encoding="utf-8")
    lines = example_tokens[str(path)]
    parsed = volley.parse(source).to_json()
    checked = 0
    for item in parsed_items(parsed):
        if item["type"] in FIRST_SCOPE:
            line = item["line"]
            assert first_scope(lines[line - 1]) == FIRST_SCOPE[item["type"]], (
                line,
                lines[line - 1],
            )
            checked += 1
    assert checked >= 3
    if parsed["title"]:
        assert first_scope(lines[0]) == "keyword.other.directive.volley"


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_payload_bodies_are_bodies_not_volley(path, example_tokens):
    """Every line of every payload body is inside a fence or the payload's indented body,
    and nothing in one gets a volley element's scope."""
    source = path.read_text(encoding="utf-8")
    lines = example_tokens[str(path)]
    source_lines = source.split("\n")
    element_scopes = {*FIRST_SCOPE.values(), "keyword.operator.arrow.volley"}
    bodies = 0
    for item in parsed_items(volley.parse(source).to_json()):
        for payload in (item.get("request"), item.get("response")):
            if not payload or not payload["body"]:
                continue
            first = payload["body"].split("\n")[0]
            start = next(
                number
                for number in range(item["line"] + 1, len(source_lines) + 1)
                if first.strip() and first.strip() in source_lines[number - 1]
            )
            for number in range(start, start + payload["body"].count("\n") + 1):
                for text, scopes in lines[number - 1]:
                    if not text.strip():
                        continue
                    assert scopes, (number, text)
                    assert scopes[0] in ("markup.fenced_code.block.volley", "meta.payload.volley")
                    assert not element_scopes & set(scopes), (number, text, scopes)
                bodies += 1
    assert bodies


def test_arrows_names_labels_and_inline_markup(tokenizer, tmp_path):
    flow = tmp_path / "flow.volley"
    flow.write_text(
        "title: **Sign** in\n"
        "// a comment\n"
        "A <-->> B: both {fas-plug} `code`\n"
        "x-ray -x Server: lost\n"
        "activate Server\n"
        "note A, B: *over* both\n"
        "autonumber 10\n"
        "autonumber off\n"
    )
    lines = tokenizer(flow)[str(flow)]

    def scopes_of(number: int) -> dict[str, str]:
        return {text: scopes[-1] for text, scopes in lines[number - 1] if text.strip()}

    assert scopes_of(1)["**Sign**"] == "markup.bold.volley"
    assert scopes_of(2) == {
        "//": "punctuation.definition.comment.volley",
        " a comment": "comment.line.double-slash.volley",
    }
    third = scopes_of(3)
    assert third["<-->>"] == "keyword.operator.arrow.volley"
    assert third["{fas-plug}"] == "constant.other.icon.volley"
    assert third["`code`"] == "markup.inline.raw.volley"
    fourth = scopes_of(4)
    assert fourth["x-ray"] == "entity.name.type.participant.volley"
    assert fourth["-x"] == "keyword.operator.arrow.volley"
    assert scopes_of(5)["Server"] == "entity.name.type.participant.volley"
    assert scopes_of(6)["B"] == "entity.name.type.participant.volley"
    assert scopes_of(6)["*over*"] == "markup.italic.volley"
    assert scopes_of(7)["10"] == "constant.numeric.volley"
    assert scopes_of(8)["off"] == "constant.language.volley"


def test_a_rect_is_a_block_keyword_and_its_colour_a_colour(tokenizer, tmp_path):
    flow = tmp_path / "flow.volley"
    flow.write_text("rect rgb(200, 220, 255)\nA -> B: hi\nend\nrect -> B: a message\n")
    lines = tokenizer(flow)[str(flow)]
    first = {text: scopes[-1] for text, scopes in lines[0] if text.strip()}
    assert first == {
        "rect": "keyword.control.block.volley",
        "rgb(200, 220, 255)": "constant.other.color.volley",
    }
    assert first_scope(lines[3]) == "entity.name.type.participant.volley"  # a name "rect"
    configuration = json.loads((EXTENSION / "language-configuration.json").read_text())
    folds = re.compile(configuration["folding"]["markers"]["start"])
    indents = re.compile(configuration["indentationRules"]["increaseIndentPattern"])
    for line in ("rect rgb(200, 220, 255)", "Rect", "  rect: #abc"):
        assert folds.search(line) and indents.search(line), line
    assert not folds.search("rect -> B: a message") and not folds.search("rectangle")


def test_volley_blocks_in_markdown_are_highlighted_as_volley(tokenizer, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# Flow\n\n```volley\nA -> B: hi\n```\n\nA -> B is prose here.\n")
    lines = tokenizer(readme)[str(readme)]
    inside = {text: scopes for text, scopes in lines[3] if text.strip()}
    assert "source.volley" not in str(lines[6])  # after the block, Markdown again
    assert inside["->"][-1] == "keyword.operator.arrow.volley"
    assert "meta.embedded.block.volley" in inside["->"]


def test_a_tables_rows_in_a_note_are_its_text(tokenizer, tmp_path):
    """A row that starts with a pipe, a delimiter row, and each line with a pipe after the
    delimiter row (a cell may hold an arrow) are the note's text, as the parser reads them;
    after a list item or a blank line the table is over and a line with an arrow is a
    message again."""
    flow = tmp_path / "flow.volley"
    flow.write_text(
        "A -> B: go\nnote:\n| Client -> API | `call` |\n--:|:-:\n1 | A -> B: x\n- list\n"
        "C | D -> B: z\nnote A: a | b\n--|--\n2 | A -> B: q\n\nE -> A: ok\n"
    )
    lines = tokenizer(flow)[str(flow)]
    for number in (3, 4, 5, 9, 10):
        assert first_scope(lines[number - 1]) == "string.unquoted.note.volley", number
    for number in (1, 7, 12):
        assert first_scope(lines[number - 1]) == FIRST_SCOPE["message"], number
    third = {text: scopes[-1] for text, scopes in lines[2] if text.strip()}
    assert third["`call`"] == "markup.inline.raw.volley"


def test_a_blocks_word_without_its_colon_opens_a_block_where_the_parser_reads_one(
    tokenizer, tmp_path
):
    """`group Login`, `loop every 30 s`, `alt ok` open blocks without a colon, as the parser
    reads them; a line holding an arrow after such a word is a message from a lane so named."""
    flow = tmp_path / "flow.volley"
    flow.write_text("group Login\nloop\nalt ok\nLoop back -> B: x\nend\nend\nend\n")
    lines = tokenizer(flow)[str(flow)]
    assert [first_scope(lines[k]) for k in range(4)] == [
        "keyword.control.block.volley",
        "keyword.control.block.volley",
        "keyword.control.block.volley",
        "entity.name.type.participant.volley",
    ]
    assert [item["type"] for item in volley.parse(flow.read_text()).to_json()["items"]] == ["block"]
    configuration = json.loads((EXTENSION / "language-configuration.json").read_text())
    folds = re.compile(configuration["folding"]["markers"]["start"])
    indents = re.compile(configuration["indentationRules"]["increaseIndentPattern"])
    for line in ("group Login", "loop", "Alt ok", "critical: x", "if: ok"):
        assert folds.search(line) and indents.search(line), line
    for line in ("Loop back -> B: x", "if ok", "grouping", "Group -> B"):
        assert not folds.search(line) and not indents.search(line), line
