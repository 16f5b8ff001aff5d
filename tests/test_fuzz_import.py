"""Importing real Markdown, PlantUML, HAR, trace and JSON-RPC log files, mutated: `.volley`
that parses, or a clear error.

Bounded for CI (profile `volley-ci`); `scripts/fuzz.py` runs the same invariants for longer.
"""

from __future__ import annotations

from hypothesis import given

from .fuzz_strategies import (
    FUZZ,
    check_import,
    mutated_capture,
    mutated_log,
    mutated_markdown,
    mutated_plantuml,
)


@FUZZ
@given(mutated_markdown())
def test_mutated_markdown_imports_as_diagrams_that_parse_or_a_clear_error(text: str) -> None:
    check_import(text, "mermaid")


@FUZZ
@given(mutated_plantuml())
def test_mutated_plantuml_imports_as_diagrams_that_parse_or_a_clear_error(text: str) -> None:
    check_import(text, "plantuml")


@FUZZ
@given(mutated_capture())
def test_mutated_captures_import_as_diagrams_that_parse_or_a_clear_error(
    capture: tuple[str, str],
) -> None:
    source, text = capture
    check_import(text, source)


@FUZZ
@given(mutated_capture())
def test_mutated_captures_are_told_apart_or_refused_clearly(capture: tuple[str, str]) -> None:
    _source, text = capture
    check_import(text)  # the importer detect picks, or "cannot tell what format this is"


@FUZZ
@given(mutated_log())
def test_mutated_logs_import_as_diagrams_that_parse_or_a_clear_error(text: str) -> None:
    check_import(text, "jsonrpc")
