"""Checks of what the scenarios say, before any engine runs: names, and contradictions.

Why: a writing mistake must never be blamed on an engine. A misspelt card used to reach the
engine, which could not set the scenario up, and the scenario ended ``error``; a misspelt law
was accepted silently; a player nobody listed failed in the middle of a scenario. So every
name a step mentions (cards, decks, laws, factions, technologies, unit types and references,
timing windows, phases, card classes, card variables, players) is checked against the game's
facts (``oracle.suite.facts``) and against what the scenario set up before it, with the file,
the line and the closest names.

And two scenarios that do the same thing (the same Given and When steps) but check opposite
outcomes (the same subject, a different value) cannot both be right: one of them is refused,
naming both. A ruling that supersedes, retires or replaces the other is no contradiction.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING

from oracle.suite.arguments import argument_of, kind_of, raw_arguments, references
from oracle.suite.dsl import parse_count, parse_pile
from oracle.suite.facts import closest
from oracle.suite.features import ScenarioDoc, StepLine
from oracle.suite.problems import Problem, ScenarioError

if TYPE_CHECKING:
    from oracle.suite.games import Game
    from oracle.suite.rulings import Rulings
    from oracle.suite.vocabulary import StepDef, Vocabulary


def check_names(scenario: ScenarioDoc, game: Game, words: Vocabulary) -> list[Problem]:
    """Every name a step of the scenario mentions is one the game, or the scenario, knows."""
    found: dict[tuple[int, str], Problem] = {}
    for run in scenario.rendered():
        players: list[str] | None = None
        variables: list[str] = []
        for written in run:
            text = words.english(written.text)  # a step in another language: its English
            hits = words.match(written.kind, text)
            if len(hits) != 1:
                continue  # the step checks say so
            named, unread = _named(hits[0], text, game)
            messages = [*unread, *(m for kind, value in named
                                   if (m := _name_problem(kind, value, game, players,
                                                          variables)))]
            for message in messages:
                found.setdefault((written.line, message),
                                 Problem(scenario.path, written.line, str(written), message))
            for kind, value in named:
                if kind == "new player":
                    players = [*(players or []), value]
                elif kind == "new card variable":
                    variables.append(value)
    return list(found.values())


REJECTED = "the action is rejected"
ALLOWED = "the action is allowed"
CITING = ", citing "


def is_rejection(text: str) -> bool:
    """Whether a (English) step expects the last action rejected, citing a rule or not."""
    return text == REJECTED or text.startswith(REJECTED + CITING)


def check_order(scenario: ScenarioDoc, words: Vocabulary) -> list[Problem]:
    """Steps in an order no engine can be blamed for: a Given step once the scenario has
    started (its first When or Then sets the game up), an outcome check before any action."""
    found: dict[tuple[int, str], Problem] = {}
    for run in scenario.rendered():
        started = acted = 0
        for step in run:
            message = ""
            if step.kind == "given" and started:
                message = (f"a Given step after the scenario started (line {started}: its "
                           "first When or Then step sets the game up); put every Given "
                           "step before the first When or Then step")
            elif step.kind == "then" and not acted and \
                    (is_rejection(words.english(step.text))
                     or words.english(step.text) == ALLOWED):
                message = (f"'{words.english(step.text)}' checks the engine's answer to an "
                           "action, and no When step before it sends one; add the When step "
                           "it is about")
            if message:
                found.setdefault((step.line, message),
                                 Problem(scenario.path, step.line, str(step), message))
            if step.kind in ("when", "then"):
                started = started or step.line
            acted = acted or step.kind == "when"
    return list(found.values())


_NAMED: dict[tuple[StepDef, str, Path], tuple[list[tuple[str, str]], list[str]]] = {}
"""What a step text names, by definition, text and game folder: the same steps recur in
every scenario (a Background, a deck), and reading them is most of these checks' cost."""


def _named(definition: StepDef, text: str, game: Game
           ) -> tuple[list[tuple[str, str]], list[str]]:
    """What a step's arguments name ((kind, value) pairs), and why an argument cannot be
    read."""
    key = (definition, text, game.folder)
    done = _NAMED.get(key)
    if done is not None:
        return done
    named: list[tuple[str, str]] = []
    unread: list[str] = []
    for name, raw in raw_arguments(definition, text).items():
        argument = argument_of(definition, name, game)
        if argument is None:
            continue
        try:
            named += references(game, argument, raw)
        except ScenarioError as exc:
            kind = kind_of(argument.kind, game)
            grammar = f" ({argument.kind}: {kind.grammar})" if kind else ""
            unread.append(f"cannot read <{name}> {raw!r}: {exc}{grammar}")
    if len(_NAMED) > 50_000:
        _NAMED.clear()
    _NAMED[key] = (named, unread)
    return named, unread


def _name_problem(kind: str, value: str, game: Game, players: list[str] | None,
                  variables: list[str]) -> str | None:
    if kind == "player":
        if players is None:
            return (f"{value!r} is not a player: no step lists the players before this one; "
                    f"add 'Given the players are {value}, ...' (or put it in the Background)")
        if value not in players:
            near = closest(value, players)
            return (f"{value!r} is not a player of this scenario (players: "
                    f"{', '.join(players)})" + (f"; did you mean {near[0]}?" if near else ""))
        return None
    if kind == "new player":
        return f"player {value!r} is listed twice" if players and value in players else None
    if kind == "card variable":
        if value not in variables:
            return (f"card {value} is not bound before this step; write 'Given card {value} "
                    "is any \"Action\" card' (or a quoted card) before using it")
        return None
    if kind == "new card variable":
        return None
    if kind == "rule":
        return _rule_problem(value, game)
    return game.facts.problem(kind, value)


def _rule_problem(value: str, game: Game) -> str | None:
    """A cited rule is a rule of the game's catalog (or one of its sentences, ``#N``), or an
    id a committee namespace adds (``ti4:council:ID``, declared by a ruling)."""
    rule_id = value.partition("#")[0]
    ids = game.catalog.ids()
    if rule_id in ids or (rule_id.startswith(f"{game.id}:") and rule_id.count(":") >= 2):
        return None
    near = closest(rule_id, ids)
    return (f"{value!r} is not a rule of {game.id} (write the id as a tag does: "
            f"{game.id}:RULE)" + (f"; did you mean {' or '.join(near)}?" if near else ""))


def check_contradictions(scenarios: Iterable[ScenarioDoc], game: Game, words: Vocabulary,
                         rulings: Rulings) -> list[Problem]:
    """Two scenarios that do the same and check opposite outcomes: the second is refused."""
    groups: dict[tuple[object, ...], list[tuple[ScenarioDoc, list[tuple[int, StepLine]]]]] = {}
    for scenario in scenarios:
        if rulings.retired(scenario, game.id) is not None:
            continue  # it no longer runs
        for written in scenario.rendered():
            run = [_in_english(s, words) for s in written]
            givens = tuple(sorted(s.text for s in run if s.kind == "given"))
            whens = tuple(s.text for s in run if s.kind == "when")
            thens, stage = [], 0
            for s in run:
                stage += s.kind == "when"
                if s.kind == "then":
                    thens.append((stage, s))
            groups.setdefault((givens, whens), []).append((scenario, thens))
    problems = []
    for group in groups.values():
        if not _may_clash([thens for _, thens in group], words, game):
            continue
        for (a, a_thens), (b, b_thens) in combinations(group, 2):
            if _linked(a, b, rulings):
                continue
            clash = _clash(a_thens, b_thens, words, game)
            if clash is not None:
                first, second = clash
                same = a is b
                problems.append(Problem(
                    b.path, second.line, str(second),
                    (f"two rows of this outline give the same Given and When steps but "
                     f"contradicting Then steps ('{first}' in another row)" if same else
                     f"this scenario ({b.name!r}) and {a.name!r} ({a.path}:{first.line}) "
                     f"give the same Given and When steps but contradicting Then steps: "
                     f"'{first}' there, '{second}' here")
                    + ". Both cannot be right: fix one, or if one is a ruling that overturns "
                    "the other, say so in it ('Replaces: NAME' with a 'Reason:', or "
                    "'Status: superseded by ID'; docs/rulings.md)"))
    return problems


def _in_english(step: StepLine, words: Vocabulary) -> StepLine:
    text = words.english(step.text)
    return step if text == step.text else replace(step, text=text)


def _may_clash(group: list[list[tuple[int, StepLine]]], words: Vocabulary, game: Game) -> bool:
    """Whether any two of a group's lists of checks contradict, compared once per distinct
    list: copies of a scenario (a suite of thousands, an outline's rows) check the same
    things, and a list never contradicts itself."""
    distinct = {tuple((stage, s.text) for stage, s in thens): thens for thens in group}
    return any(_clash(a, b, words, game) is not None or _clash(b, a, words, game) is not None
               for a, b in combinations(distinct.values(), 2))


def _linked(a: ScenarioDoc, b: ScenarioDoc, rulings: Rulings) -> bool:
    """Whether one scenario's ruling overturns the other (supersedes, retires, replaces)."""
    ra, rb = rulings.of(a), rulings.of(b)
    if ra is not None and rb is not None and ra.id != rb.id and (
            ra.superseded_by == rb.id or rb.superseded_by == ra.id):
        return True
    return any(r is not None and any(t.scenario == other.name for t in r.retires)
               for r, other in ((ra, b), (rb, a)))


def _clash(a: list[tuple[int, StepLine]], b: list[tuple[int, StepLine]], words: Vocabulary,
           game: Game) -> tuple[StepLine, StepLine] | None:
    # A check both scenarios make at the same stage is no side of a contradiction: a
    # scenario asserting two checks says they can hold together.
    said_a = {(stage, s.text) for stage, s in a}
    said_b = {(stage, s.text) for stage, s in b}
    for stage, first in a:
        for other_stage, second in b:
            if stage == other_stage and first.text != second.text \
                    and (stage, first.text) not in said_b \
                    and (stage, second.text) not in said_a \
                    and _contradict(first, second, words, game):
                return first, second
    return None


def _contradict(first: StepLine, second: StepLine, words: Vocabulary, game: Game) -> bool:
    """Same definition, same subject, a different value asserted."""
    hits_a, hits_b = words.match("then", first.text), words.match("then", second.text)
    if len(hits_a) != 1 or hits_a != hits_b:
        return False
    definition = hits_a[0]
    raw_a = definition.context.parser.parse_arguments(first.text) or {}
    raw_b = definition.context.parser.parse_arguments(second.text) or {}
    differs = False
    for name in raw_a.keys() | raw_b.keys():
        argument = argument_of(definition, name, game)
        value_a, value_b = raw_a.get(name), raw_b.get(name)
        if argument is None or not argument.asserts:
            if value_a != value_b:
                return False  # about something else
            continue
        if value_a != value_b and _values_differ(argument.kind, value_a, value_b):
            differs = True
    return differs


def _values_differ(kind: str, a: str | None, b: str | None) -> bool:
    if a is None or b is None:
        return kind == "choice"  # 'is (not )?in play': left out is a value; else unsaid
    try:
        if kind == "count":
            return parse_count(a) != parse_count(b)
        if kind == "pile":
            pa, pb = parse_pile(a), parse_pile(b)
            if pa.count != pb.count:
                return True
            if any(p.hidden or p.others or not p.names_matter for p in (pa, pb)):
                return False  # one of them leaves names open: both may hold
            if pa.any_order or pb.any_order:
                return Counter(pa.cards) != Counter(pb.cards)
            return pa.cards != pb.cards
    except ScenarioError:
        return False
    return True
