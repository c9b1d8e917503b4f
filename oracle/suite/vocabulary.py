"""The step vocabulary of a game: its step definitions, indexed once, matched one way.

Why one matcher: the suite checks (is a step matched, by one definition only?), exploration
(run a step by its text), ``rules-oracle steps`` (list them) and the tests all ask the same
question of the same definitions; answering it in one place means they cannot disagree.
A game's vocabulary is the shared steps (``oracle.steps.common``) plus its own module
(``steps:`` in its ``game.yaml``); another game's steps are not in it, so two games may use
the same phrase.
"""

from __future__ import annotations

import difflib
import functools
import inspect
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from oracle.suite.phrasings import Phrasings
from oracle.suite.problems import ScenarioError
from oracle.suite.stepdefs import StepDefinition, literal_hint, step_definitions

if TYPE_CHECKING:
    from oracle.suite.games import Game

COMMON_STEPS = "oracle.steps.common"
"""The module of the steps every game shares."""


@dataclass(frozen=True, eq=False)
class StepDef:
    """One step definition: which kind of step it answers, its pattern, where it lives."""

    context: StepDefinition

    @property
    def kind(self) -> str | None:
        """"given", "when", "then", or None for a step of any kind."""
        return self.context.type

    @property
    def pattern(self) -> str:
        return str(self.context.parser.name)

    @property
    def function(self) -> Callable[..., Any]:
        return self.context.step_func

    @property
    def where(self) -> str:
        return f"{self.function.__module__}.{self.function.__name__}"

    @property
    def doc(self) -> str:
        """The first paragraph of the definition's docstring, on one line."""
        text = (self.function.__doc__ or "").strip().split("\n\n")[0]
        if text.lstrip().startswith("Example:"):
            return ""
        return " ".join(text.split())

    @property
    def examples(self) -> list[str]:
        """The docstring's ``Example:`` lines: whole steps, keyword first, as a committee
        would write them."""
        lines = (self.function.__doc__ or "").splitlines()
        return [line.strip().removeprefix("Example:").strip() for line in lines
                if line.strip().startswith("Example:")]

    @property
    def human(self) -> str:
        return humanize(self.pattern)

    def answers(self, kind: str) -> bool:
        return self.kind in (kind, None)

    def matches(self, text: str) -> bool:
        return bool(self.context.parser.is_matching(text))

    def arguments(self, text: str) -> dict[str, Any]:
        """The step's arguments parsed from ``text``, converted as the definition asks."""
        raw = self.context.parser.parse_arguments(text) or {}
        params = _parameters(self.function)
        convert = self.context.converters
        return {k: convert.get(k, lambda v: v)(v) for k, v in raw.items() if k in params}


class Vocabulary:
    """The step definitions of some modules, matched by kind and text.

    Matching is indexed: each definition's literal text (``literal_hint``) rules it out
    without running its regex when the step does not contain it, and each (kind, text) is
    matched once per process. So a step costs about the same with 50 definitions as with
    500, where pytest-bdd alone tries every definition on every step.
    """

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = tuple(modules)
        self.defs = tuple(StepDef(c) for c in step_definitions(self.modules))
        self._by_kind = {kind: [(literal_hint(d.context), d) for d in self.defs
                                if d.answers(kind)] for kind in ("given", "when", "then")}
        self._matched: dict[tuple[str, str], tuple[StepDef, ...]] = {}
        self.phrasings = Phrasings(self.modules)

    def english(self, text: str) -> str:
        """The English step a step in another language stands for (``oracle.suite
        .phrasings``); an English step as it is."""
        return self.phrasings.english(text)

    def of_kind(self, kind: str) -> list[StepDef]:
        return [d for d in self.defs if d.answers(kind)]

    def match(self, kind: str, text: str) -> list[StepDef]:
        """Every definition of this kind whose pattern matches ``text`` (one, normally)."""
        text = self.english(text)
        key = (kind, text)
        hits = self._matched.get(key)
        if hits is None:
            if len(self._matched) >= _MATCHES_KEPT:  # exploration makes endless new texts
                self._matched.clear()
            candidates = self._by_kind.get(kind)
            if candidates is None:
                candidates = [(None, d) for d in self.of_kind(kind)]
            hits = self._matched[key] = tuple(
                d for hint, d in candidates if _may_match(hint, text) and d.matches(text))
        return list(hits)

    def closest(self, kind: str, text: str, n: int = 3) -> list[str]:
        """The steps of this kind a person most likely meant, written as a person would."""
        return [d.human for d in self.ranked(kind, text)[:n]]

    def ranked(self, kind: str, text: str) -> list[StepDef]:
        """The definitions of this kind, the likeliest meant by ``text`` first: those sharing
        its verb (``plays`` in ``Alice plays "Spy" on Bob``), then its shape (starting with a
        name or not), then the most words in common, then the most alike as text."""
        unique: dict[str, StepDef] = {}
        for d in self.of_kind(kind):
            unique.setdefault(d.human, d)
        verb, words, shape = _head_word(text), _words(text), _shape(text)

        def score(d: StepDef) -> tuple[bool, bool, float, float]:
            literal = _words(re.sub(r"<[^>]*>", " ", d.human))
            starts_with_value = d.human.startswith("<")
            shared = len(words & literal) / max(len(words | literal), 1)
            return (verb in literal, starts_with_value == _starts_with_name(text), shared,
                    difflib.SequenceMatcher(None, shape, d.human).ratio())

        return sorted(unique.values(), key=score, reverse=True)

    @staticmethod
    def matched_prefix(step: StepDef, text: str) -> str:
        """How much of ``text`` a definition's pattern reads from its start ('' if none): for
        'the play step reads up to here' hints."""
        regex = getattr(step.context.parser, "regex", None)
        if not isinstance(regex, re.Pattern):
            return ""
        m = regex.match(text)
        return text[:m.end()] if m else ""

    def run(self, world: Any, kind: str, text: str,
            fixture: Callable[[str], Any] | None = None) -> None:
        """Run one step text through its definition, exactly as a feature file would.

        Parameters the text does not give are fixtures: ``oracle_world`` is ``world``, and
        any other is asked of ``fixture`` (pytest's ``request.getfixturevalue``) if given.
        ``world`` is the scenario's ``oracle.scenario.world.ScenarioWorld``, a layer above
        this one, which the step definitions use; the vocabulary only hands it on.
        """
        hits = self.match(kind, text)
        if not hits:
            raise ScenarioError(f"no {kind} step matches {text!r}")
        step, text = hits[0], self.english(text)
        kwargs = step.arguments(text)
        for name in _required(step.function) - kwargs.keys():
            if name == "oracle_world":
                kwargs[name] = world
            elif fixture is not None:
                kwargs[name] = fixture(name)
            else:
                raise ScenarioError(f"the step definition {step.where} asks for {name!r}; "
                                    "a step definition gets oracle_world and the values "
                                    "its pattern parses")
        if "oracle_world" in _parameters(step.function):
            kwargs.setdefault("oracle_world", world)
        step.function(**kwargs)


_MATCHES_KEPT = 50_000
"""How many (kind, text) matches a vocabulary remembers before starting afresh."""


def _may_match(hint: tuple[str, tuple[str, ...]] | None, text: str) -> bool:
    """False when ``text`` lacks literal text every match needs (so the regex cannot match)."""
    if hint is None:
        return True
    prefix, needed = hint
    return text.startswith(prefix) and all(part in text for part in needed)


@functools.cache
def vocabulary(modules: tuple[str, ...]) -> Vocabulary:
    """The vocabulary of these step modules (built once per process)."""
    return Vocabulary(modules)


def step_modules(game: Game) -> tuple[str, ...]:
    """The step modules a game's scenarios may use: the shared ones, then its own."""
    return tuple(dict.fromkeys([COMMON_STEPS, *([game.steps] if game.steps else [])]))


def vocabulary_for(game: Game) -> Vocabulary:
    return vocabulary(step_modules(game))


def every_step_module(games: Iterable[Game]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m for g in games for m in step_modules(g)))


_STOP = frozenset({"the", "a", "an", "all", "no", "is", "it", "of", "and", "s"})


def _words(text: str) -> set[str]:
    """The lower-case words of a text, quoted names and stop words left out."""
    text = re.sub(r'"[^"]*"', " ", text)
    return {w for w in re.findall(r"[a-z]+", text.lower()) if w not in _STOP}


def _starts_with_name(text: str) -> bool:
    return bool(re.match(r"[A-Z][\w'-]*\b", text)) and not text.startswith(("The ", "A "))


def _head_word(text: str) -> str:
    """The step's verb, or its first word that is not a name or an article."""
    rest = re.sub(r"^[A-Z][\w'-]*(?:'s)?\s+", "", text) if _starts_with_name(text) else text
    return next((w for w in re.findall(r"[a-z]+", rest.lower()) if w not in _STOP), "")


def _shape(text: str) -> str:
    """A step text written like a pattern: quoted names and names become <values>."""
    text = re.sub(r'"[^"]*"', "<card>", text)
    text = re.sub(r"\b[A-Z][\w'-]*\b", "<player>", text)
    return re.sub(r"\b\d+\b", "<count>", text)


@functools.cache
def _parameters(func: Callable[..., Any]) -> frozenset[str]:
    return frozenset(inspect.signature(func).parameters)


@functools.cache
def _required(func: Callable[..., Any]) -> frozenset[str]:
    """Parameters without a default: pytest-bdd asks for these as fixtures if unparsed."""
    return frozenset(
        name for name, p in inspect.signature(func).parameters.items()
        if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))


def humanize(pattern: str) -> str:
    """A step regex as a person would write the step, for 'did you mean' lists and
    ``rules-oracle steps``: ``<name>`` a value, ``[...]`` optional, ``(a|b)`` a choice."""
    def group(m: re.Match[str]) -> str:
        """A literal (or a choice of literals) stays itself; a pattern becomes <name>."""
        body = re.sub(r"(\w)\?", r"(\1)", m.group(2))
        words = body.split("|")
        if all(re.fullmatch(r"[\w ,'\"()-]+", w) for w in words):
            shown = body if len(words) == 1 else f"({body})"
        else:
            shown = f"<{m.group(1)}>"
        return f"[{shown.strip()}] " if m.group(3) else shown

    text = re.sub(r"\(\?P<(\w+)>([^()]*(?:\([^()]*\)[^()]*)*)\)(\?)?", group, pattern)
    previous = None
    while previous != text:  # innermost groups first
        previous = text
        text = re.sub(r"\(\?:((?:[^()]|\([^()?]*\))*)\)\?", r"[\1]", text)
        text = re.sub(r"\(\?:((?:[^()]|\([^()?]*\))*)\)", r"(\1)", text)
        text = re.sub(r"(\w)\?", r"(\1)", text)
    return text.replace("\\", "")
