"""Feature files as Gherkin documents, parsed by the official parser once per content.

The parser is Cucumber's own (``gherkin-official``, the one pytest-bdd uses too), through its
public API; a document is its AST as it gives it: plain dicts and lists in the shape of
Cucumber's messages (``feature``, ``children``, ``scenario``, ``steps``, ``location``...),
with every line number. ``oracle.suite.features`` reads it into the oracle's own model.

Why a cache: parsing is most of what a run does before its first scenario (about 10 ms a
file). A document is kept in the cache folder (``oracle.suite.cache``) under the hash of the
file's bytes and of the parser's code; not in memory: ``oracle.suite.features`` reads it once
into its own model, and nothing reads it again (a 5,000-scenario suite's documents are about
40 MB).
"""

from __future__ import annotations

import functools
import os
import re
import sys
from pathlib import Path
from typing import Any

from oracle.suite import cache

__all__ = ["Document", "GherkinSyntaxError", "gherkin_document"]

Document = dict[str, Any]
"""A Gherkin document as the official parser gives it."""


class GherkinSyntaxError(Exception):
    """A feature file that does not parse: the line, its text, and what was expected."""

    def __init__(self, line: int, text: str, message: str) -> None:
        super().__init__(message)
        self.line, self.text, self.message = line, text, message


def gherkin_document(path: Path) -> Document:
    """The Gherkin document of a feature file (``GherkinSyntaxError`` when it does not
    parse), parsed once per content: kept in the cache folder."""
    data = path.read_bytes()
    key = cache.content_key(data, *_parser_versions())
    doc = cache.load("gherkin-ast", key)
    if not isinstance(doc, dict):
        doc = _parse(data.decode("utf-8"))
        cache.store("gherkin-ast", key, doc)
    return doc


def _parse(text: str) -> Document:
    from gherkin.errors import CompositeParserException, ParserError, ParserException
    from gherkin.parser import Parser

    try:
        return Parser().parse(text)
    except ParserError as exc:
        first = exc.errors[0] if isinstance(exc, CompositeParserException) and exc.errors \
            else exc
        line = first.location.get("line", 0) if isinstance(first, ParserException) else 0
        lines = text.splitlines()
        shown = lines[line - 1] if 0 < line <= len(lines) else ""
        raise GherkinSyntaxError(line, shown, _readable(str(first.args[0]))) from exc


_TOKENS = {
    "#EOF": "the end of the file", "#Empty": "an empty line", "#Comment": "a # comment",
    "#TagLine": "a @tag", "#FeatureLine": "Feature:", "#RuleLine": "Rule:",
    "#BackgroundLine": "Background:", "#ScenarioLine": "Scenario:",
    "#ExamplesLine": "Examples:", "#StepLine": "a step (Given, When, Then, And, But)",
    "#DocStringSeparator": 'a doc string (""")', "#TableRow": "a table row (| ... |)",
    "#Language": "a # language: line", "#Other": "a description line",
}


def _readable(message: str) -> str:
    """The parser's message without its ``(line:column):`` prefix, its token names in words:
    ``expected: a step (Given, When, Then, And, But), Scenario:, ...; got 'Oops'``."""
    message = re.sub(r"^\(\d+:\d+\):\s*", "", message)
    message = re.sub(r"#\w+", lambda m: _TOKENS.get(m.group(0), m.group(0)), message)
    return message.replace(", got '", "; got '")


@functools.cache
def _parser_versions() -> tuple[str, ...]:
    """What identifies the parser's code: its files, sizes and times (a version change
    replaces them), and the Python that pickles the documents."""
    import gherkin.parser

    stat = os.stat(gherkin.parser.__file__ or "")
    return (sys.version, f"{gherkin.parser.__file__}:{stat.st_size}:{stat.st_mtime_ns}")
