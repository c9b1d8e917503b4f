"""Each scenario as a run has it: its test's name, and its steps once per example row.

A run collects a feature file as a test module of pytest-bdd's ``scenario`` tests
(``oracle.plugin.collect``); the kill matrix's harness (``oracle.mutants.harness``) runs the
same scenarios without pytest. Both must give a scenario the same name (its seed derives
from it) and the same steps, so both read them here, from the oracle's own parse
(``oracle.suite.features``):

- a test is named as pytest-bdd's ``scenarios`` names one: ``test_`` and the scenario's name
  made a Python name, with ``_1``, ``_2``... when two names meet (a test checks the two
  agree on the bundled suite);
- an outline gives one run per example row, its ``<placeholders>`` filled in as pytest-bdd
  fills them (a placeholder the row lacks stays as written), its parametrisation id the
  row's values joined by ``-``; the background's steps come first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from oracle.suite.features import ScenarioDoc, read_feature

__all__ = ["RenderedScenario", "python_names", "render", "rendered_scenarios", "row_name",
           "test_names"]

_NOT_A_NAME = re.compile(r"\W")
_LEADING_DIGITS = re.compile(r"^\d+_*")
_PLACEHOLDER = re.compile(r"<(.+?)>")


def python_names(name: str) -> Iterator[str]:
    """The test-function names a scenario may take, first choice first."""
    base = _LEADING_DIGITS.sub("", _NOT_A_NAME.sub("", name.replace(" ", "_"))).lower()
    yield f"test_{base}"
    index = 0
    while True:
        index += 1
        yield f"test_{base}_{index}"


def test_names(path: Path) -> dict[str, str]:
    """Each scenario's test-function name in its feature file's module: the first free one,
    in file order, over every scenario whatever the selection (so a name, and the seed it
    gives, does not depend on which scenarios run)."""
    names: dict[str, str] = {}
    for scenario in read_feature(path).scenarios:
        taken = set(names.values())
        names[scenario.name] = next(n for n in python_names(scenario.name) if n not in taken)
    return names


def render(text: str, row: Mapping[str, str]) -> str:
    """A step's text with the row's values in its ``<placeholders>``."""
    return _PLACEHOLDER.sub(lambda m: row.get(m.group(1), m.group(0)), text)


def row_name(name: str, row: Mapping[str, str] | None) -> str:
    """How the report names one row of a Scenario Outline: each row is a scenario of its
    own, named by its values ("Name [Bob | rejected]")."""
    return f"{name} [{' | '.join(row.values())}]" if row else name


@dataclass(frozen=True)
class RenderedScenario:
    """One runnable scenario: an outline gives one per example row.

    ``steps`` are (kind, text, line) with the background first and ``<placeholders>``
    filled in; ``example_id`` is the row's parametrisation id (``None`` for a plain
    scenario), which pytest appends to the test name in brackets.
    """

    name: str
    line: int
    example_id: str | None
    steps: tuple[tuple[str, str, int], ...]
    row: tuple[tuple[str, str], ...] = ()  # the example row's (column, value) pairs


def rendered_scenarios(doc: ScenarioDoc) -> list[RenderedScenario]:
    """The runs of one scenario: once, or once per example row."""
    rows: list[tuple[str | None, dict[str, str]]] = [
        ("-".join(dict(row).values()), dict(row)) for row in doc.examples]
    return [RenderedScenario(
        render(doc.name, row), doc.line, example_id,
        tuple((s.kind, render(s.text, row), s.line) for s in doc.steps), tuple(row.items()))
        for example_id, row in rows or [(None, {})]]
