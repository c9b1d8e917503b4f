"""The decorators a steps module defines its steps with, and the definitions they record.

A steps module writes its steps as it would for pytest-bdd, importing the decorators from
here rather than from ``pytest_bdd`` (same arguments)::

    from oracle.suite.stepdefs import given, parsers, then, when

    @given(parsers.re(r"the players are (?P<names>.+)"))
    def _players(oracle_world, names): ...

Why the oracle's own decorators: the vocabulary (``oracle.suite.vocabulary``) lists, checks
and runs a game's step definitions by their text, so it must know each definition's kind,
parser and function. pytest-bdd keeps those in a registry of its own that only private
names reach. Each decorator here records the definition on its module (``STEPS``) and hands
the function on to pytest-bdd's public decorator of the same name, so a steps module is still
a pytest-bdd steps module (a plain pytest-bdd test module may import its steps). A module
that uses pytest-bdd's decorators directly is refused with what to import instead
(``step_definitions``), rather than seen as having no steps.

``literal_hint`` reads the literal text a definition's pattern requires, which lets the
vocabulary rule most definitions out of a step without running their regexes.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

import pytest_bdd
from pytest_bdd import parsers

__all__ = ["STEPS", "StepDefinition", "StepModuleError", "given", "literal_hint", "parsers",
           "regex_literals", "step", "step_definitions", "then", "when"]

F = TypeVar("F", bound=Callable[..., Any])
Kind = Literal["given", "when", "then"]

STEPS = "__oracle_steps__"
"""The attribute of a steps module listing its step definitions, in definition order."""


@dataclass(frozen=True, eq=False)
class StepDefinition:
    """One step definition: the kind of step it answers (None: any kind), how it reads a
    step's text, and the function it runs (named as pytest-bdd names them)."""

    type: Kind | None
    step_func: Callable[..., Any]
    parser: parsers.StepParser
    converters: dict[str, Callable[[str], Any]] = field(default_factory=dict)
    target_fixture: str | None = None


class StepModuleError(Exception):
    """A steps module the oracle cannot read; the message says what to change."""


def step(name: str | parsers.StepParser, type_: Kind | None = None,
         converters: dict[str, Callable[[str], Any]] | None = None,
         target_fixture: str | None = None, stacklevel: int = 1) -> Callable[[F], F]:
    """A step definition of kind ``type_`` (any kind when None): pytest-bdd's ``step``, with
    the definition also recorded on the function's module for the vocabulary."""
    parser = name if isinstance(name, parsers.StepParser) else parsers.string(name)
    # pytest-bdd puts its fixture in the namespace of the frame that applies its decorator,
    # ``stacklevel`` frames up: ours applies it, one frame below the steps module.
    bdd = pytest_bdd.step(parser, type_, converters=converters, target_fixture=target_fixture,
                          stacklevel=stacklevel + 1)

    def decorator(func: F) -> F:
        definition = StepDefinition(type_, func, parser, dict(converters or {}), target_fixture)
        # The module's own namespace (a module imported again starts a new list).
        func.__globals__.setdefault(STEPS, []).append(definition)
        return bdd(func)

    return decorator


def given(name: str | parsers.StepParser,
          converters: dict[str, Callable[[str], Any]] | None = None,
          target_fixture: str | None = None, stacklevel: int = 1) -> Callable[[F], F]:
    """A Given step definition (pytest-bdd's ``given``, recorded for the vocabulary)."""
    return step(name, "given", converters, target_fixture, stacklevel)


def when(name: str | parsers.StepParser,
         converters: dict[str, Callable[[str], Any]] | None = None,
         target_fixture: str | None = None, stacklevel: int = 1) -> Callable[[F], F]:
    """A When step definition (pytest-bdd's ``when``, recorded for the vocabulary)."""
    return step(name, "when", converters, target_fixture, stacklevel)


def then(name: str | parsers.StepParser,
         converters: dict[str, Callable[[str], Any]] | None = None,
         target_fixture: str | None = None, stacklevel: int = 1) -> Callable[[F], F]:
    """A Then step definition (pytest-bdd's ``then``, recorded for the vocabulary)."""
    return step(name, "then", converters, target_fixture, stacklevel)


_BDD_DECORATORS = {id(pytest_bdd.given): "given", id(pytest_bdd.when): "when",
                   id(pytest_bdd.then): "then", id(pytest_bdd.step): "step"}


def step_definitions(modules: Iterable[str]) -> list[StepDefinition]:
    """Every step definition of these modules (imported here), in definition order.

    A module holding pytest-bdd's own decorators is refused (``StepModuleError``): its
    steps would be invisible to the vocabulary, and every step of the game unmatched."""
    out: list[StepDefinition] = []
    for name in dict.fromkeys(modules):
        namespace = vars(importlib.import_module(name))
        direct = sorted({_BDD_DECORATORS[id(v)] for v in namespace.values()
                         if id(v) in _BDD_DECORATORS})
        if direct:
            raise StepModuleError(
                f"the steps module {name} imports {', '.join(direct)} from pytest_bdd: the "
                "oracle cannot see step definitions made with pytest-bdd's decorators; "
                f"write 'from oracle.suite.stepdefs import {', '.join(direct)}' instead "
                "(the same decorators, with the same arguments)")
        out += namespace.get(STEPS, [])
    return out


def literal_hint(definition: StepDefinition) -> tuple[str, tuple[str, ...]] | None:
    """Literal text any step a definition matches must hold: ``(prefix, parts)``, the text it
    starts with and text it contains; None when that cannot be told (then try the regex).

    Read from ``parsers.re`` patterns (pytest-bdd matches them in full) and exact strings;
    anything unexpected (another parser, case-insensitive or verbose flags) gives None, so
    a change in pytest-bdd costs speed, never a match.
    """
    parser = definition.parser
    if type(parser) is parsers.string:
        return str(parser.name), ()
    regex = getattr(parser, "regex", None)
    if type(parser) is not parsers.re or not isinstance(regex, re.Pattern) \
            or regex.flags & (re.IGNORECASE | re.VERBOSE):
        return None
    return regex_literals(regex.pattern)


def regex_literals(pattern: str) -> tuple[str, tuple[str, ...]] | None:
    """``(prefix, parts)`` of a regex matched in full: the literal text it starts with, and
    the runs of literal text outside any group, which every match contains. None for a
    top-level alternation. Conservative: anything unclear ends a run of literal text."""
    runs: list[str] = []
    run, prefix, depth, i = "", None, 0, 0

    def end_run() -> None:
        nonlocal run, prefix
        if prefix is None:
            prefix = run
        if run:
            runs.append(run)
        run = ""

    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            escaped = pattern[i + 1:i + 2]
            literal = escaped and not escaped.isalnum()
            i += 2
            if depth == 0:
                if literal and not _quantified(pattern, i):
                    run += escaped
                else:
                    end_run()
            continue
        if c == "[":
            i = _class_end(pattern, i)
            if depth == 0:
                end_run()
            continue
        i += 1
        if c == "(":
            if depth == 0:
                end_run()
            depth += 1
        elif c == ")":
            depth -= 1
        elif depth:
            continue
        elif c == "|":
            return None
        elif c in ".^$*+?{}" or _quantified(pattern, i):
            end_run()
        else:
            run += c
    end_run()
    return prefix or "", tuple(runs)


def _quantified(pattern: str, i: int) -> bool:
    """Whether the element ending just before ``i`` is followed by a quantifier."""
    return pattern[i:i + 1] in ("*", "+", "?", "{")


def _class_end(pattern: str, i: int) -> int:
    """The index just after the character class starting at ``pattern[i] == "["``."""
    j = i + 1
    if pattern[j:j + 1] == "^":
        j += 1
    if pattern[j:j + 1] == "]":
        j += 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1
