r"""The part of PlantUML's preprocessor that documents written for it lean on, run before their
statements are read, so that a diagram imports as PlantUML draws it:

    !$name = "John"            a variable; `$name` in any later line is its value
    !$name ?= "John"           the same, unless it already has one
    !name = "John"             a variable without `$`: the word `name` in any later line
    !define HOST api.local     a word that stands for its text in any later line
    !undef HOST
    !if ($simplified != true)  the lines up to `!elseif`, `!else` or `!endif` only when true
    !ifdef HOST, !ifndef HOST  the same, on whether a variable or a word is defined
    !include common.iuml       that file's lines, when the caller gives a way to read files
    !procedure $call($a, $b)   lines that a line `$call(A, B)` stands for, with `$a` as A

An `!if`'s expression compares strings and whole numbers (`==`, `!=`, `<`, `<=`, `>`, `>=`),
joins them (`&&`, `||`, `!`, parentheses, `+` to join strings) and calls PlantUML's common
built-in functions (`%variable_exists("$x")`, `%not`, `%boolval`, `%strlen`, `%upper`, `%lower`,
`%intval`, `%string`, `%true()`, `%false()`). As in PlantUML, a word or a variable that names
nothing is itself (`false` is the text "false"), and only 0 and empty text are false, so
`!if $flag` is true for `!$flag = "false"`. An `!if` calling a function volley does not know is
read as true, with a comment. `$name##Service` joins a value to the words after it. A
procedure's arguments are its own variables (`!local` in it, `!global` for everyone's), and an
argument not given takes its default (`$b="x"`). What is left out of a false branch, and every
line the preprocessor takes, is kept as a comment where it stood; an `!if` left open ends with
the diagram, with a warning, as PlantUML reads it. A function, a macro with arguments, an
include of PlantUML's standard library or of a URL: none of these is run; their lines are
comments that say so, and the diagram is imported as far as its own lines go. `!pragma` and
`!theme` are statements about the page, left to the reader.
"""

from __future__ import annotations

import operator
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

_ASSIGN = re.compile(
    r"!(?:(?P<scope>global|local)[ \t]+)?(?P<name>\$?\w+)[ \t]*(?P<soft>\?)?=[ \t]*(?P<value>.*)",
    re.I,
)
_DEFINE = re.compile(
    r"!define[ \t]+(?P<name>\w+)(?P<args>\([^)]*\))?(?:[ \t]+(?P<value>.*))?", re.I
)
_UNDEF = re.compile(r"!undef[ \t]+(?P<name>\$?\w+)", re.I)
_IF = re.compile(r"!(?P<word>if|elseif)\b[ \t]*(?P<expression>.*)", re.I)
_IFDEF = re.compile(r"!(?P<word>ifn?def)[ \t]+(?P<name>\$?\w+)", re.I)
_ELSE = re.compile(r"!else\b.*", re.I)
_ENDIF = re.compile(r"!endif\b.*", re.I)
_INCLUDE = re.compile(r"!(?:include\w*|import)\b.*", re.I)
# A procedure or function, to its end: PlantUML calls it where a line names it
_DEFINITION = re.compile(
    r"!(?:(?:unquoted|final)[ \t]+)*(?P<word>procedure|function|definelong)\b.*", re.I
)
_DEFINITION_END = re.compile(r"!(?:end(?:procedure|function)|enddefinelong)\b.*", re.I)
# A procedure, which the preprocessor runs: its name and its parameters (`$a`, `$b="x"`)
_PROCEDURE = re.compile(
    r"!(?P<unquoted>unquoted[ \t]+)?(?:final[ \t]+)?procedure[ \t]+(?P<name>\$?\w+)"
    r"[ \t]*\((?P<parameters>[^)]*)\)[ \t]*",
    re.I,
)
_PARAMETER = re.compile(r"[ \t]*(?P<name>\$\w+)[ \t]*(?:=[ \t]*(?P<default>.*?))?[ \t]*")
_CALL = re.compile(r"(?P<name>\$?\w+)[ \t]*\((?P<arguments>.*)\)")
_NAMED_ARGUMENT = re.compile(r"[ \t]*(?P<name>\$\w+)[ \t]*=(?!=)[ \t]*(?P<value>.*)", re.S)
_MOST_CALLED_LINES = 100_000  # lines procedures stand for, in all: more is one calling itself
# The preprocessor's own words: any other `!` line (`!pragma`, `!theme`, which are about the
# page, or `!!! Important` in a note) is the diagram's, for the reader
_DIRECTIVE = re.compile(
    r"!(?:\$|\w+[ \t]*\??=|(?:if|ifdef|ifndef|elseif|else|endif|define|definelong"
    r"|enddefinelong|undef|include\w*|import|unquoted|final|procedure|endprocedure|function"
    r"|endfunction|return|log|dump_memory|assert|foreach|endfor|while|endwhile|local|global"
    r"|startsub|endsub)\b)",
    re.I,
)
_ONE_LINE = re.compile(r".*\)[ \t]*!return\b.*", re.I)  # `!function $f($a) !return $a + $a`
_TOKEN = re.compile(
    r'[ \t]*(?:"(?P<string>[^"]*)"|\'(?P<quoted>[^\']*)\'|(?P<number>\d+)(?!\w)'
    r"|(?P<function>[%$]\w+)(?=[ \t]*\()|(?P<variable>\$\w+)"
    r"|(?P<op>==|!=|<=|>=|&&|\|\||[<>!()+,])|(?P<word>[\w.-]+))",
    re.I,
)

Value = str | int
_COMPARISONS = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


class PreprocessorError(ValueError):
    """A directive the preprocessor cannot run (its message says why)."""


class NotIncluded(PreprocessorError):
    """A file an `!include` names that cannot be read (its message says why)."""


class UnknownFunction(PreprocessorError):
    """An expression calls a function volley does not run: PlantUML's own, or the diagram's."""


# PlantUML's built-in functions that `!if` lines call, on their arguments and the variables
_BUILTINS: dict[str, Callable[[list[Value], dict[str, Value]], Value]] = {
    "%true": lambda args, _: 1,
    "%false": lambda args, _: 0,
    "%not": lambda args, _: int(not _truth(args[0])),
    "%boolval": lambda args, _: int(_truth(args[0])),
    "%strlen": lambda args, _: len(str(args[0])),
    "%upper": lambda args, _: str(args[0]).upper(),
    "%lower": lambda args, _: str(args[0]).lower(),
    "%string": lambda args, _: str(args[0]),
    "%intval": lambda args, _: int(str(args[0]).strip() or 0),
    "%variable_exists": lambda args, variables: int(str(args[0]) in variables),
}


@dataclass
class Preprocessed:
    """The lines PlantUML reads after its preprocessor, each with its index in the source
    (`kept`), and what the preprocessor took, as comments at a source index: the words, and
    whether volley draws the diagram otherwise than PlantUML for it (an include not read)."""

    lines: list[str] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    included: set[int] = field(default_factory=set)  # the lines (in `lines`) of included files
    # each with its index, words, whether volley draws otherwise, and whether an included file
    # holds it
    comments: list[tuple[int, str, bool, bool]] = field(default_factory=list)
    problems: list[tuple[int, str]] = field(default_factory=list)
    warnings: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class _Procedure:
    """A procedure: its parameters, each with its default (None: it must be given), whether
    its arguments are written without quotes (`!unquoted procedure`), and its lines."""

    parameters: list[tuple[str, str | None]]
    unquoted: bool
    lines: list[str] = field(default_factory=list)

    def scope(
        self, arguments: str, variables: dict[str, Value], defines: dict[str, str]
    ) -> dict[str, Value]:
        """The procedure's own variables for a call with these arguments."""
        given = _arguments(arguments)
        scope: dict[str, Value] = {}
        names = [name for name, _ in self.parameters]
        for position, argument in enumerate(given):
            named = _NAMED_ARGUMENT.fullmatch(argument)
            if named is not None and named["name"] in names:
                name, argument = named["name"], named["value"]
            elif position < len(names):
                name = names[position]
            else:
                raise PreprocessorError(f"too many arguments: it takes {len(names)}")
            scope[name] = self.value(argument, variables, defines)
        for name, default in self.parameters:
            if name not in scope:
                if default is None:
                    raise PreprocessorError(f"no value given for {name}")
                scope[name] = self.value(default, variables, defines)
        return scope

    def value(self, argument: str, variables: dict[str, Value], defines: dict[str, str]) -> Value:
        """An argument's value: an expression, or (unquoted) the words as written."""
        argument = argument.strip()
        if self.unquoted and not argument.startswith(('"', "'")):
            return _substituted(argument, variables, defines)
        return _evaluate(argument, variables, defines) if argument else ""


def _arguments(written: str) -> list[str]:
    """A call's arguments: split at the commas outside quotes and parentheses."""
    out: list[str] = []
    depth, quote, start = 0, "", 0
    for at, ch in enumerate(written):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(written[start:at])
            start = at + 1
    out.append(written[start:])
    return out if written.strip() else []


@dataclass
class _Branch:
    """An `!if` open: whether the lines read now are PlantUML's, whether one of its branches
    was already taken, and where it started."""

    active: bool
    taken: bool
    start: int
    outer: bool  # whether the lines around the `!if` are read at all

    def otherwise(self) -> None:
        """`!else` (or an `!elseif` read as true): read unless a branch before was."""
        self.active, self.taken = self.outer and not self.taken, True


# Reads an included file: its name as written and the file that names it (None: the diagram's
# own), to its key (where it is) and its lines; a PreprocessorError says why it cannot
Includer = Callable[[str, "str | None"], tuple[str, list[str]]]
_INCLUDED = re.compile(
    r"!include(?P<how>_once|_many)?[ \t]+(?!\w+://)(?P<path>[^<>!]+?)[ \t]*", re.I
)
_MOST_INCLUDES = 10_000  # files read in all: more is an `!include_many` that includes itself


def preprocess(lines: list[str], include: Includer | None = None) -> Preprocessed:
    """Run PlantUML's preprocessor over a diagram's lines; `include` reads the files its
    `!include` lines name (none are read without it: a server never reads its disk for a
    diagram it was sent)."""
    out = Preprocessed()
    variables: dict[str, Value] = {}
    defines: dict[str, str] = {}
    branches: list[_Branch] = []
    definition: int | None = None  # the line a procedure, function or long macro started on
    procedures: dict[str, _Procedure] = {}
    defining: _Procedure | None = None  # the procedure whose lines are read now
    called = 0  # lines procedures stood for
    commented = False  # inside a `/' … '/` comment, which the preprocessor does not read
    commented_in: str | None = None  # the file that comment is in: it ends with that file
    # each line to read, with its index in the diagram (an included line: its `!include`'s, a
    # procedure's: its call's), the file it comes from (None: the diagram itself), and the
    # variables of the procedure call it is in (None: it is in none)
    queue: deque[tuple[int, str, str | None, dict[str, Value] | None]] = deque(
        (index, line, None, None) for index, line in enumerate(lines)
    )
    seen: dict[str, int] = {}
    while queue:
        index, line, origin, scope = queue.popleft()
        from_file = origin is not None  # a line of a file the diagram includes
        text = line.strip()
        known = variables if scope is None else variables | scope  # what the line can name
        # (the innermost `!if` says: an inner branch is off whenever its outer one is)
        reading = branches[-1].active if branches else True
        if commented and origin != commented_in:
            # An included file that ends inside a comment: PlantUML reads each file on its
            # own, so the comment ends with it, and the lines after the `!include` are read.
            commented = False
            if reading:
                _keep(out, index, "'/", from_file)
        if commented or text.startswith("/'"):
            if not commented:
                commented_in = origin
            commented = "'/" not in (text[2:] if not commented else text)
            if reading:
                _keep(out, index, line, from_file)
            else:
                out.comments.append((index, text, False, from_file))
            continue
        if definition is not None:
            out.comments.append((index, text, False, from_file))
            if _DEFINITION_END.fullmatch(text):
                definition = defining = None
            elif defining is not None:
                defining.lines.append(line)
            continue
        call = _CALL.fullmatch(text) if reading else None
        if call is not None and call["name"] in procedures:
            procedure = procedures[call["name"]]
            out.comments.append((index, text, False, from_file))
            try:
                called_scope = procedure.scope(call["arguments"], known, defines)
            except PreprocessorError as exc:
                out.problems.append((index, f"cannot call {call['name']}: {exc}"))
                continue
            called += len(procedure.lines)
            if called > _MOST_CALLED_LINES:
                out.problems.append((index, "too many procedure calls (one that calls itself?)"))
                return out
            queue.extendleft(
                (index, row, origin, called_scope) for row in reversed(procedure.lines)
            )
            continue
        if not _DIRECTIVE.match(text):
            if reading:
                _keep(out, index, _substituted(line, known, defines), from_file)
            elif text:
                out.comments.append((index, text, False, from_file))
            continue
        try:
            if (found := _IF.fullmatch(text)) is not None or _IFDEF.fullmatch(text):
                if found is not None and found["word"].lower() == "elseif":
                    _else_if(branches, found["expression"], known, defines)
                else:  # one that cannot be read is false, so that its `!endif` ends it
                    branches.append(_Branch(False, True, index, reading))
                    branches[-1] = _opened(text, known, defines, index, reading)
            elif _ELSE.fullmatch(text):
                if not branches:
                    raise PreprocessorError("!else without an !if before it")
                branches[-1].otherwise()
            elif _ENDIF.fullmatch(text):
                if not branches:
                    raise PreprocessorError("!endif without an !if to end")
                branches.pop()
            elif not reading:
                pass
            elif (found := _ASSIGN.fullmatch(text)) is not None:
                # in a procedure, its arguments and its `!local` variables are its own
                kind = (found["scope"] or "").lower()
                own = kind != "global" and (kind == "local" or found["name"] in (scope or ()))
                names = scope if own and scope is not None else variables
                if not (found["soft"] and found["name"] in known):
                    names[found["name"]] = _evaluate(found["value"], known, defines)
            elif (found := _DEFINE.fullmatch(text)) is not None and not found["args"]:
                defines[found["name"]] = found["value"] or ""
            elif (found := _UNDEF.fullmatch(text)) is not None:
                variables.pop(found["name"], None)
                defines.pop(found["name"], None)
            elif (found := _INCLUDED.fullmatch(text)) is not None and include is not None:
                path = _substituted(found["path"], known, defines).strip("\"'")
                key, included = include(path, origin)
                how = (found["how"] or "").lower()  # plain: once, quietly; `_many`: each time
                if key in seen and how == "_once":
                    raise PreprocessorError(f"{found['path']} is included a second time")
                if sum(seen.values()) >= _MOST_INCLUDES:
                    raise PreprocessorError("too many files included (one that includes itself?)")
                if key not in seen or how == "_many":
                    seen[key] = seen.get(key, 0) + 1
                    queue.extendleft((index, row, key, scope) for row in reversed(included))
            elif _INCLUDE.fullmatch(text):
                _not_included(out, index, text, _unread(text, include), from_file)
                continue
            elif (found := _PROCEDURE.fullmatch(text)) is not None:
                definition = index  # its lines are the procedure's, whatever its parameters
                defining = procedures[found["name"]] = _Procedure(
                    _parameters(found["parameters"]), bool(found["unquoted"])
                )
            elif (found := _DEFINITION.fullmatch(text)) is not None or _DEFINE.fullmatch(text):
                what = found["word"].lower() if found is not None else "macro"
                out.comments.append(
                    (
                        index,
                        f"{text} (a {what}, which volley does not run)",
                        True,
                        from_file,
                    )
                )
                definition = index if found is not None and not _ONE_LINE.fullmatch(text) else None
                continue
            else:
                out.comments.append((index, f"{text} (PlantUML's preprocessor)", True, from_file))
                continue
        except NotIncluded as exc:
            _not_included(out, index, text, str(exc), from_file)
            continue
        except UnknownFunction as exc:
            if branches and branches[-1].start == index:  # an `!if` read as true
                branches[-1] = _Branch(reading, True, index, reading)
            elif branches and _IF.fullmatch(text):  # an `!elseif`, true unless one was
                branches[-1].otherwise()
            said = "the lines under it are read" if _IF.fullmatch(text) else "it has no value"
            out.comments.append(
                (index, f"{text} (volley does not run {exc}: {said})", True, from_file)
            )
            continue
        except PreprocessorError as exc:
            out.problems.append((index, str(exc)))
        out.comments.append((index, text, False, from_file))
    for branch in branches:  # PlantUML reads its lines to the end of the diagram
        out.warnings.append(
            (branch.start, "this !if is never closed; it ends at the end of the diagram")
        )
    if definition is not None:
        out.problems.append((definition, "this definition is never closed; expected its !end"))
    return out


def _keep(out: Preprocessed, index: int, line: str, from_file: bool) -> None:
    """A line PlantUML reads, from the diagram's line `index` (or the file it includes there:
    `from_file`)."""
    if from_file:
        out.included.add(len(out.lines))
    out.lines.append(line)
    out.kept.append(index)


def _not_included(out: Preprocessed, index: int, text: str, why: str, from_file: bool) -> None:
    """An include not read: a comment where it stood, and a warning, since whatever the file
    defines (a colour's name, a participant) is missing from what follows."""
    out.comments.append((index, f"{text} ({why})", True, from_file))
    # (one an included file names is said to be that one: the line is the outer include's)
    which = f"{text.strip()}, in the file this includes, is" if from_file else "this file is"
    out.warnings.append(
        (
            index,
            f"{which} not read: {why}; what it holds (a skin's `autonumber`, a "
            "participant, a procedure) is missing from the diagram",
        )
    )


def _parameters(written: str) -> list[tuple[str, str | None]]:
    """A procedure's parameters, each with its default as written (None: none)."""
    out: list[tuple[str, str | None]] = []
    for parameter in _arguments(written):
        found = _PARAMETER.fullmatch(parameter)
        if found is None:
            raise PreprocessorError(f"cannot read the parameter {parameter.strip()!r}")
        out.append((found["name"], found["default"]))
    return out


def _unread(text: str, include: Includer | None) -> str:
    """Why an included file is not read."""
    if "<" in text:
        return "PlantUML's standard library, which volley does not have"
    if re.search(r"includeurl|https?:", text, re.I):
        return "a file on the web, which volley does not fetch"
    if include is None:
        return "a file volley reads only when it imports a diagram from a file"
    return "a file volley does not read"


def _opened(
    text: str, variables: dict[str, Value], defines: dict[str, str], index: int, reading: bool
) -> _Branch:
    """The branch an `!if`, `!ifdef` or `!ifndef` opens."""
    found = _IFDEF.fullmatch(text)
    if found is not None:
        defined = found["name"] in variables or found["name"] in defines
        true = defined if found["word"].lower() == "ifdef" else not defined
    else:
        matched = _IF.fullmatch(text)
        assert matched is not None
        true = reading and _truth(_evaluate(matched["expression"], variables, defines))
    return _Branch(reading and true, true, index, reading)


def _else_if(
    branches: list[_Branch],
    expression: str,
    variables: dict[str, Value],
    defines: dict[str, str],
) -> None:
    if not branches:
        raise PreprocessorError("!elseif without an !if before it")
    branch = branches[-1]
    branch.active = False
    if branch.taken or not branch.outer:
        return
    branch.active = branch.taken = _truth(_evaluate(expression, variables, defines))


def _substituted(line: str, variables: dict[str, Value], defines: dict[str, str]) -> str:
    """A line with each variable's value in its place (`##` after one joins it to what
    follows), then each defined word's text; a comment line (`'`) as it is."""
    if line.lstrip().startswith("'"):
        return line
    line = _VARIABLE.sub(
        lambda found: str(variables[found[1]]) if found[1] in variables else found[0], line
    )
    words = {name: str(value) for name, value in variables.items() if name[0] != "$"} | defines
    if words:
        pattern = "|".join(map(re.escape, sorted(words, key=len, reverse=True)))
        line = re.sub(rf"\b({pattern})\b(?:##)?", lambda found: words[found[1]], line)
    return line


def _truth(value: Value) -> bool:
    """PlantUML's TValue.toBoolean: a number is true unless 0, text unless empty."""
    return value != 0 if isinstance(value, int) else value != ""


_VARIABLE = re.compile(r"(\$\w+)(?:##)?")


def _evaluate(expression: str, variables: dict[str, Value], defines: dict[str, str]) -> Value:
    """The value of an expression of `!if` or of an assignment."""
    tokens: list[tuple[str, str]] = []
    done = 0
    text = expression.rstrip()
    while done < len(text):
        found = _TOKEN.match(text, done)
        if found is None or found.end() == done:
            raise PreprocessorError(
                f"cannot read {text[done:].strip()!r} in {expression.strip()!r}"
            )
        kind = next(k for k, v in found.groupdict().items() if v is not None)
        tokens.append((kind, found[kind]))
        done = found.end()
    if not tokens:
        raise PreprocessorError("expected an expression")
    parser = _Expression(tokens, variables, defines)
    try:
        value = parser.either()
    except RecursionError:
        raise PreprocessorError(f"{expression.strip()!r} is nested too deeply") from None
    if parser.at < len(tokens):
        raise PreprocessorError(f"cannot read {expression.strip()!r}")
    return value


@dataclass
class _Expression:
    """A recursive descent over the tokens of an expression, lowest precedence first."""

    tokens: list[tuple[str, str]]
    variables: dict[str, Value]
    defines: dict[str, str]
    at: int = 0

    def peek(self) -> str | None:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        if self.at >= len(self.tokens):
            raise PreprocessorError("the expression ends too soon")
        self.at += 1
        return self.tokens[self.at - 1]

    def either(self) -> Value:
        return self.chained("||", self.both, lambda a, b: _truth(a) or _truth(b))

    def both(self) -> Value:
        return self.chained("&&", self.negated, lambda a, b: _truth(a) and _truth(b))

    def chained(
        self, joint: str, operand: Callable[[], Value], join: Callable[[Value, Value], bool]
    ) -> Value:
        """Operands joined by `joint` (`||`, `&&`), from the left."""
        value = operand()
        while self.peek() == joint:
            self.take()
            value = int(join(value, operand()))
        return value

    def negated(self) -> Value:
        if self.peek() == "!":
            self.take()
            return int(not _truth(self.negated()))
        return self.compared()

    def compared(self) -> Value:
        left = self.joined()
        compare = self.peek()
        if compare not in _COMPARISONS:
            return left
        self.take()
        right = self.joined()
        if not (isinstance(left, int) and isinstance(right, int)):
            left, right = str(left), str(right)  # compared as text unless both are numbers
        return int(_COMPARISONS[compare](left, right))

    def joined(self) -> Value:
        value = self.atom()
        while self.peek() == "+":
            self.take()
            right = self.atom()
            if isinstance(value, int) and isinstance(right, int):
                value += right
            else:
                value = f"{value}{right}"
        return value

    def atom(self) -> Value:
        kind, text = self.take()
        if kind == "op" and text == "(":
            value = self.either()
            if self.take()[1] != ")":
                raise PreprocessorError("expected )")
            return value
        if kind == "op":
            raise PreprocessorError(f"expected a value, not {text}")
        if kind == "number":
            return int(text)
        if kind == "function":
            return self.call(text)
        if kind == "variable":  # one with no value is its name, as in PlantUML
            return self.variables.get(text, text)
        if kind == "word":
            return self.variables.get(text, self.defines.get(text, text))
        return text

    def call(self, name: str) -> Value:
        """A function's value, its arguments read between the parentheses."""
        self.take()  # (
        args: list[Value] = []
        while self.peek() != ")":
            args.append(self.either())
            if self.peek() == ",":
                self.take()
            elif self.peek() != ")":
                raise PreprocessorError(f"expected , or ) in the arguments of {name}")
        self.take()  # )
        builtin = _BUILTINS.get(name.lower())
        if builtin is None:
            raise UnknownFunction(f"{name}(…)")
        try:
            return builtin(args, self.variables)
        except (IndexError, ValueError):
            raise PreprocessorError(f"cannot call {name} with {len(args)} argument(s)") from None
