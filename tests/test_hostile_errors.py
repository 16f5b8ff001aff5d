"""Error messages quote the user's text; what they print must not act on the reader's terminal."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import volley
from volley.cli import main
from volley.errors import hidden

# An escape sequence that clears the screen, a right-to-left override, a bell, a C1 control.
QUOTED = ["\x1b[2J\x1b[31m", "\u202eevil", "\x07", "\x9b31m", "\u2028"]


@pytest.mark.parametrize("bad", QUOTED, ids=["ansi", "rlo", "bell", "c1", "line-sep"])
@pytest.mark.parametrize(
    "template",
    [
        "A{bad} ~> B\n",  # quoted in the message and in the source line
        "A -> B\nin: x{bad}\n",  # quoted in the source line only
        "A{bad} -> \n",
    ],
)
def test_errors_show_control_and_bidi_characters_visibly(tmp_path, template: str, bad: str):
    text = template.format(bad=bad)
    with pytest.raises(volley.VolleyError) as caught:
        volley.parse(text)
    shown = caught.value.format()
    hidden_chars = [ch for ch in bad if hidden(ch)]
    assert hidden_chars and not any(ch in shown for ch in hidden_chars)
    assert f"\\u{ord(hidden_chars[0]):04x}" in shown  # as the picture shows it

    path = tmp_path / f"bad{bad}.volley"
    path.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)], env={"NO_COLOR": "1"})
    assert result.exit_code == 1
    assert not any(ch in result.stderr for ch in hidden_chars)


def test_colour_codes_are_still_the_ones_volley_writes(tmp_path):
    path = tmp_path / "bad.volley"
    path.write_text("A\x1b[2J ~> B\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)], env={"FORCE_COLOR": "1"})
    assert "\x1b[1;31merror" in result.stderr
    assert "\x1b[2J" not in result.stderr


def test_a_line_break_in_a_files_name_prints_no_line_of_its_own(tmp_path):
    """A name holding a line break printed a second line that read as a message of its own
    (`fake.volley:1:1: error: …`); other control characters were escapes already."""
    path = tmp_path / "evil\nfake.volley"
    path.write_text("A ~> B\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)], env={"NO_COLOR": "1"})
    assert f"{tmp_path}/evil\\u000afake.volley:1:3: error:" in result.stderr
    fine = tmp_path / "ok\nx.volley"
    fine.write_text("A -> B\n", encoding="utf-8")
    written = CliRunner().invoke(main, ["render", str(fine)], env={"NO_COLOR": "1"})
    assert written.exit_code == 0 and "ok\\u000ax.svg" in written.stderr
    assert all(line.startswith(str(tmp_path)) for line in written.stderr.splitlines())
    # nor in the words of a message that names it (there is no such file)
    missing = CliRunner().invoke(main, ["check", str(tmp_path / "gone\nx.volley:1:1: error: y")])
    assert len([line for line in missing.stderr.splitlines() if ": error:" in line]) == 1
    # nor in a usage error's, nor where a write failed (a file where its folder would be)
    usage = CliRunner().invoke(main, ["render", str(fine), "-o", "a\nb.txt"])
    assert usage.exit_code == 2 and "-o a\\u000ab.txt names a .txt file" in usage.stderr
    twice = CliRunner().invoke(main, ["render", str(fine), str(path), "-o", "out\nx.svg"])
    assert twice.exit_code == 2 and "such as -o out\\u000ax/" in twice.stderr
    empty = tmp_path / "emp\nty"
    empty.mkdir()
    none = CliRunner().invoke(main, ["check", str(empty)])
    assert none.exit_code == 2 and "emp\\u000aty" in none.stderr and "emp\nty" not in none.stderr
    a_file = tmp_path / "a\nfile"
    a_file.write_text("", encoding="utf-8")
    failed = CliRunner().invoke(main, ["render", str(fine), "-o", str(a_file / "x.svg")])
    assert failed.exit_code == 1 and "is a file, not a folder" in failed.stderr
    assert "a\\u000afile" in failed.stderr and "a\nfile" not in failed.stderr
