"""The capability map: what each capability gates, and what an engine's lack of one costs.

Why computed, not written down: a capability is what a step's ``@requires`` says its words
need (``oracle.scenario.requirements``), and the plugin checks those needs before a
scenario's first step. A hand-written table drifts from the steps; this one asks every
scenario of the suite (as a run collects it, outline rows included) the very question the
plugin asks, through the same vocabulary and matcher, so the map and a run cannot disagree.

Two views:

- **what the scenarios need** (no engine): each step's needs are computed with card
  variables left open (``Given card A is any "Action" card`` needs *some* modelled card of
  the class, written ``GAME/card/any "Action" card``), and each step is run once on the
  game's reference engine to record the requests it sends (``act draw``) or the part of the
  ``setup`` state it writes (``setup players[].hand``);
- **what an engine lacks**: each scenario's needs computed exactly as a run on that engine
  computes them (card variables bound among the cards it declares, by the run's seed), so
  the rules predicted ``unsupported`` are the rules a run reports ``unsupported`` for lack
  of a declaration (an engine may still answer ``unsupported`` to a request it declared).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from oracle.scenario.cards import CardTable
from oracle.scenario.outcomes import EngineLacks
from oracle.scenario.requirements import needs, played_variables
from oracle.suite.vocabulary import vocabulary_for

if TYPE_CHECKING:
    from oracle.mutants.harness import Case
    from oracle.scenario.world import ScenarioWorld
    from oracle.suite.games import Game

GATED_OPS = ("act", "choose")
"""The requests a step can be gated for (setup is listed by the fields a Given step writes;
observe and describe every engine answers)."""

NAME = "NAME"
"""How a capability family writes its open part: ``ti4/card/NAME``."""


def family(capability: str) -> str:
    """The pattern a capability belongs to: ``ti4/card/Sabotage`` -> ``ti4/card/NAME``;
    a capability of one or two parts (``ti4/draw``) is its own family."""
    parts = capability.split("/", 2)
    return f"{parts[0]}/{parts[1]}/{NAME}" if len(parts) == 3 else capability


def is_card_class(capability: str) -> bool:
    """``GAME/card/any "Action" card``: some card of a class, not one card."""
    return "/card/any " in capability


def unknown_declarations(game: Game, declared: Iterable[str]) -> dict[str, str]:
    """The declared capabilities of ``game``'s named families (``GAME/card/NAME``,
    ``ti4/law/NAME``, ...) whose name is not one of that kind the game knows (its facts,
    ``oracle.suite.facts``), each with why: a misspelt card, a made-up one, or a card class
    written where a card's name goes (``eu-pop/card/any reaction card``). Such a declaration
    gates nothing: the scenarios that need the card stay unsupported, silently."""
    from oracle.suite.facts import closest

    facts = game.facts
    found: dict[str, str] = {}
    for capability in sorted(set(declared)):
        parts = capability.split("/", 2)
        if len(parts) != 3 or parts[0] != game.id:
            continue
        kind, name = parts[1], parts[2]
        values = facts.values(kind)
        if values is None or name in values:
            continue
        why = f"no such {kind} in {game.id}"
        cls = name.removeprefix("any other ").removeprefix("any ")
        if kind == "card" and cls in game.plays["classes"]:
            members = class_cards(game, capability)
            why += (f": {name!r} is a card class, not a card; declare {game.id}/card/NAME for "
                    f"each card of it the engine models (its cards: "
                    f"{', '.join(members) or 'none'})")
        elif near := closest(name, values):
            why += f" (closest: {', '.join(near)})"
        elif kind == "card":
            why += f" (rules-oracle cards --game {game.id} lists its cards)"
        found[capability] = why
    return found


# -- asking the steps --------------------------------------------------------------------------


class _OpenCards(CardTable):
    """Card choices left open: ``any "Action" card`` binds to itself, so the need reads
    ``GAME/card/any "Action" card`` instead of whichever card one engine would get (a
    variable only held binds to a card: it needs none)."""

    def bind(self, ref: str, spec: str) -> str:
        spec = spec.strip()
        if spec.startswith("any ") and self.plays(ref):
            self.bindings[ref] = spec.replace("any other ", "any ", 1)
            return self.bindings[ref]
        return super().bind(ref, spec)


class _EngineCards(CardTable):
    """Card choices as a run on the engine makes them; a class with no card the engine
    models needs ``GAME/card/any ...`` (which no engine declares), where a run stops with
    ``EngineLacks``: both leave the scenario unsupported."""

    def bind(self, ref: str, spec: str) -> str:
        try:
            return super().bind(ref, spec)
        except EngineLacks:
            self.bindings[ref] = spec.strip().replace("any other ", "any ", 1)
            return self.bindings[ref]


@dataclass
class _Asker:
    """What ``needs`` reads of a world: its game and its card choices."""

    game: Game
    cards: CardTable

    def names(self, cards: Any) -> list[str]:
        """Card words as names, as ``ScenarioWorld.names`` (a step's needs may read the
        facts of the card a variable is bound to)."""
        return self.cards.names(cards)


def step_needs(game: Game, cards: CardTable, steps: Iterable[tuple[str, str]]
               ) -> list[tuple[str, ...]]:
    """Each step's needs, in order (card variables bound by earlier steps; those no step
    plays need nothing)."""
    steps = list(steps)
    cards.played = played_variables(game, steps)
    asker = cast("ScenarioWorld", _Asker(game, cards))
    return [tuple(needs(asker, [step])) for step in steps]


def case_needs(game: Game, case: Case, capabilities: frozenset[str] | None = None,
               base_seed: int = 0) -> tuple[str, ...]:
    """What a scenario needs: with ``capabilities`` (an engine's), as a run on that engine
    computes it; without, with card classes left open."""
    from oracle.scenario.seeds import scenario_seed

    if capabilities is None:
        cards: CardTable = _OpenCards(game, frozenset(), 0)
    else:
        cards = _EngineCards(game, capabilities,
                             scenario_seed(base_seed, game.id, case.test_name))
    found = step_needs(game, cards, case.steps)
    return tuple(dict.fromkeys(c for step in found for c in step))


# -- what each capability gates ----------------------------------------------------------------


@dataclass
class Gate:
    """One capability as a game's scenarios need it."""

    capability: str
    steps: set[str] = field(default_factory=set)  # step patterns, as a person writes them
    requests: set[str] = field(default_factory=set)
    scenarios: set[str] = field(default_factory=set)  # test names
    rules: set[str] = field(default_factory=set)  # rules of the scenarios it gates
    #: Rules every scenario of which needs it: unsupported on an engine without it.
    needed_by: set[str] = field(default_factory=set)


@dataclass
class GameMap:
    """A game's capabilities as its scenarios need them."""

    game: str
    scenarios: int
    rules: tuple[str, ...]  # testable rules with scenarios
    gates: dict[str, Gate]
    free: int  # scenarios needing no capability
    #: For each card class a scenario picks from (``GAME/card/any ...``): its cards a
    #: scenario may get (``class_cards``).
    members: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def families(self) -> dict[str, list[Gate]]:
        """Gates grouped by family, families in first-seen order, members by name."""
        out: dict[str, list[Gate]] = {}
        for gate in self.gates.values():
            out.setdefault(family(gate.capability), []).append(gate)
        return {k: sorted(v, key=lambda g: g.capability) for k, v in out.items()}


def game_map(game: Game, record_requests: bool = True) -> GameMap:
    """Every capability a game's scenarios need, with the steps and requests it gates."""
    from oracle.mutants.harness import game_cases

    words = vocabulary_for(game)
    cases = game_cases(game)
    sent = _requests_by_step(game, cases) if record_requests else {}
    gates: dict[str, Gate] = {}
    per_case: dict[str, set[str]] = {}
    for case in cases:
        per_step = step_needs(game, _OpenCards(game, frozenset(), 0), case.steps)
        per_case[case.test_name] = {c for step in per_step for c in step}
        for i, (step, caps) in enumerate(zip(case.steps, per_step, strict=True)):
            hits = words.match(*step)
            for capability in caps:
                gate = gates.setdefault(capability, Gate(capability))
                if hits:
                    gate.steps.add(f"{step[0].capitalize()} {hits[0].human}")
                gate.requests |= sent.get((case.test_name, i), set())
                gate.scenarios.add(case.test_name)
                gate.rules.update(case.rules)
    rules = _rules_with_cases(game, cases)
    for gate in gates.values():
        gate.needed_by = {r for r in gate.rules if r in rules and all(
            gate.capability in per_case[t] for t in rules[r])}
    free = sum(1 for caps in per_case.values() if not caps)
    members = {c: class_cards(game, c) for c in gates if is_card_class(c)}
    return GameMap(game.id, len(cases), tuple(rules), gates, free, members)


def class_cards(game: Game, capability: str) -> tuple[str, ...]:
    """The cards a scenario may get for ``GAME/card/any [other] CLASS``: the class's cards
    with a recipe (``plays.yaml``), as ``oracle.scenario.cards.CardTable.bind`` picks."""
    from oracle.scenario.cards import class_cards as cards_of

    cls = capability.split("/", 2)[2].removeprefix("any other ").removeprefix("any ")
    return tuple(cards_of(game, cls))


def _rules_with_cases(game: Game, cases: Iterable[Case]) -> dict[str, list[str]]:
    """Each testable catalog rule with scenarios: the test names of its scenarios."""
    testable = {r.id for r in game.catalog.rules if r.testable}
    out: dict[str, list[str]] = {}
    for case in cases:
        for rule in case.rules:
            if rule in testable:
                out.setdefault(rule, []).append(case.test_name)
    return out


def _requests_by_step(game: Game, cases: Iterable[Case]) -> dict[tuple[str, int], set[str]]:
    """What each step of each scenario sends, run once on the game's reference engine:
    ``act TYPE``, ``choose``, ``observe``, and for Given steps the setup fields they write.
    Empty when the game has no reference engine."""
    from oracle.engines import EngineClient, EngineSpec, factory_for, make_engine
    from oracle.probe.sent import Recorder
    from oracle.scenario.seeds import scenario_seed
    from oracle.scenario.world import ScenarioWorld

    if not game.reference_engine:
        return {}
    factory, label = factory_for(EngineSpec.parse(f"reference:{game.id}"), {game.id: game})
    words = vocabulary_for(game)
    out: dict[tuple[str, int], set[str]] = {}
    for case in cases:
        log: list[Mapping[str, Any]] = []
        client = EngineClient(Recorder(make_engine(factory, label), log), label)
        try:
            world = ScenarioWorld(game, client, scenario_seed(0, game.id, case.test_name),
                                  case.rules)
            world.prepare(list(case.steps))
            for i, (kind, text) in enumerate(case.steps):
                before, sent = setup_fields(world.state), len(log)
                words.run(world, kind, text)
                found = {f"setup {f[0]}" for f in setup_fields(world.state) - before}
                found |= {_request_name(r) for r in log[sent:] if r["op"] in GATED_OPS}
                out[(case.test_name, i)] = found
        except Exception:  # a step that needs what this run cannot give: nothing recorded
            continue
    return out


def setup_fields(state: Mapping[str, Any]) -> set[tuple[str, str]]:
    """The state's fields with their values: ``players[].hand`` per player, the rest by
    top-level key (a set difference gives the fields a step wrote)."""
    found: set[tuple[str, str]] = set()
    for key, value in state.items():
        if key == "players":
            found |= {(f"players[].{k}", json.dumps([p.get("name"), v], sort_keys=True))
                      for p in value for k, v in p.items() if k != "name"}
        else:
            found.add((key, json.dumps(value, sort_keys=True)))
    return found


def _request_name(request: Mapping[str, Any]) -> str:
    if request["op"] == "act":
        return f"act {request.get('action', {}).get('type', '?')}"
    return str(request["op"])


# -- what an engine lacks ----------------------------------------------------------------------


@dataclass
class Missing:
    """A capability an engine lacks, and what declaring it would change."""

    capability: str
    scenarios: int = 0  # scenarios waiting for it (perhaps among others)
    unlocks: set[str] = field(default_factory=set)  # rules it alone would get tested
    #: Unsupported rules whose fewest missing declarations include it.
    helps: set[str] = field(default_factory=set)
    leaves: set[str] = field(default_factory=set)  # unsupported rules it is a reason for

    @property
    def key(self) -> tuple[int, int, int, str]:
        return (-len(self.unlocks), -len(self.helps), -self.scenarios, self.capability)


@dataclass
class EngineGaps:
    """One game on one engine: what it declares, lacks, and the rules left unsupported."""

    game: str
    plays: bool
    declared: tuple[str, ...]
    scenarios: int
    runnable: int  # scenarios whose needs are all declared
    #: Rules every scenario of which lacks something, each with the fewest declarations
    #: that would get one of its scenarios run.
    unsupported: dict[str, tuple[str, ...]]
    missing: list[Missing]  # most unlocking first
    rules: int = 0  # testable rules with scenarios
    unused: tuple[str, ...] = ()  # declared, but no scenario needs it
    #: Whether the engine was asked which setup keys it takes (``refused`` is then what it
    #: refused, key path -> its answer), and its scenarios replayed: a scenario it answered
    #: ``unsupported`` is not counted runnable, and what it refused is listed among what it
    #: lacks (a refused key, a capability its answer named, or the request and its reason).
    keys_checked: bool = False
    refused: dict[str, str] = field(default_factory=dict)
    #: Declared names the game does not have (a made-up card, a card class written where a
    #: card's name goes), each with why: ``unknown_declarations``.
    unknown: dict[str, str] = field(default_factory=dict)
    #: For each card class it lacks (``GAME/card/any ...``), the cards it could declare.
    members: dict[str, tuple[str, ...]] = field(default_factory=dict)


def refused_key(path: str) -> str:
    """How a setup key an engine refused is listed among what it lacks."""
    return f"setup key {path!r} (refused)"


def engine_gaps(game: Game, declared: Iterable[str], plays: bool = True,
                base_seed: int = 0, refused: Mapping[str, str] | None = None,
                refusals: Mapping[str, tuple[str, ...]] | None = None) -> EngineGaps:
    """What one engine (its declared capabilities) lacks for one game's scenarios; with
    ``refused`` (the setup keys it refused, ``oracle.probe.smoke.suite_requests``) and
    ``refusals`` (per scenario's test name, what it refused when the scenario was replayed:
    ``oracle.probe.smoke.replay``), also the scenarios it answers ``unsupported``."""
    from oracle.mutants.harness import game_cases

    given = frozenset(declared)
    unknown = unknown_declarations(game, given)
    have = given - set(unknown)  # a made-up name or a class gates nothing
    cases = game_cases(game)
    rules = _rules_with_cases(game, cases)
    lacking: dict[str, tuple[str, ...]] = {}
    used: set[str] = set()
    for case in cases:
        wanted = case_needs(game, case, have, base_seed) if plays else ()
        used.update(wanted)
        if plays:  # a card of a class a scenario picks from is one it may get, any seed
            used.update(f"{game.id}/card/{card}" for need in case_needs(game, case)
                        if is_card_class(need)
                        for card in class_cards(game, need))
        lacking[case.test_name] = (
            (f"{game.id} (the engine does not play it)",) if not plays else
            tuple(c for c in wanted if c not in have) + (refusals or {}).get(case.test_name, ()))
    unsupported = {r: min((lacking[t] for t in tests), key=len)
                   for r, tests in rules.items() if all(lacking[t] for t in tests)}
    missing: dict[str, Missing] = {}
    for case in cases:
        for capability in lacking[case.test_name]:
            entry = missing.setdefault(capability, Missing(capability))
            entry.scenarios += 1
            stuck = [r for r in case.rules if r in unsupported]
            entry.leaves.update(stuck)
            if len(lacking[case.test_name]) == 1:
                entry.unlocks.update(stuck)
    for rule, fewest in unsupported.items():
        for capability in fewest:
            missing[capability].helps.add(rule)
    mine = tuple(sorted(c for c in given if c.startswith(f"{game.id}/")))
    return EngineGaps(game.id, plays, mine, len(cases),
                      sum(1 for v in lacking.values() if not v), unsupported,
                      sorted(missing.values(), key=lambda m: m.key), len(rules),
                      tuple(c for c in mine if c not in used and c not in unknown),
                      refused is not None, dict(refused or {}), unknown,
                      {c: class_cards(game, c) for c in missing if is_card_class(c)})
