"""A shrunk game as a scenario of the project's DSL, its Then lines taken from the reference
engine.

Why: the moves are step texts, so a counterexample is already Gherkin; what it lacks is what
the rules say should be seen, and the game's reference engine says that. A finding's Then
lines are kept only if they fail on the engine under test, and it is ``confirmed`` when the
whole scenario passes on a fresh reference engine and fails on the engine. An engine fault
is written the same way, up to the move the engine failed on, so that it can be reproduced.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oracle.engines import ConnectOptions, EngineClient, EngineSpec, connect
from oracle.explore.model import REJECTED_LINE, Explored, Invariant, run_step
from oracle.explore.search import Broken, Faulted, Slip
from oracle.protocol import Rejected
from oracle.scenario.outcomes import EngineFault, EngineLacks, RuleViolation, ScenarioError
from oracle.scenario.world import ScenarioWorld
from oracle.suite.games import Game

_UNREPLAYABLE = (RuleViolation, EngineFault, EngineLacks, ScenarioError)


@dataclass
class Finding:
    """A broken invariant (or an engine fault), as a ready-to-paste scenario."""

    name: str
    rules: tuple[str, ...]
    message: str
    scenario: str
    #: The Then lines pass on the reference engine and fail on the engine (a fault: the
    #: engine fails the scenario's last move again when it is replayed).
    confirmed: bool
    invariant: Invariant | None = None

    def feature(self, game: Game) -> str:
        return (f"Feature: Explored counterexamples for {game.title}\n"
                f"  Found by `rules-oracle run --explore`; shrunk by Hypothesis.\n\n"
                + textwrap.indent(self.scenario, "  ") + "\n")


def _reference_world(game: Game, seed: int) -> ScenarioWorld:
    if not game.reference_engine:
        raise EngineLacks(f"{game.id} has no reference engine to say what should be seen")
    client = connect(EngineSpec("reference", game.id), {game.id: game},
                     ConnectOptions(guard=False))
    return ScenarioWorld(game, client, seed)


def _replay(world: ScenarioWorld, given: list[str], lines: list[str]) -> None:
    """Run a scenario's steps; a rejection that changed the game (the world raises on the
    move) is left for the "Then the action is rejected" line after it, as on the engine."""
    for text in given:
        run_step(world, "given", text)
    world.start()
    for line in lines:
        kind, _, text = line.partition(" ")
        if kind != "When":
            run_step(world, "then", text)
            continue
        try:
            run_step(world, "when", text)
        except RuleViolation:
            if not (world.last and isinstance(world.last.reply, Rejected)):
                raise


def _reconcile(world: ScenarioWorld, given: list[str],
               lines: list[str]) -> tuple[list[str], list[str]]:
    """Replay on the reference engine up to the first move it judges otherwise than the
    engine did: the lines up to there, and the Then lines the rules require at once.

    A move the engine allowed and the rules forbid ends the scenario with "Then the action
    is rejected"; one the engine rejected and the rules allow ends it with that move (its
    Then lines say what should be seen after it). Either way the rest of the game no longer
    replays on the reference engine, and is not needed to show the slip.
    """
    for text in given:
        run_step(world, "given", text)
    world.start()
    kept: list[str] = []
    for i, line in enumerate(lines):
        kind, _, text = line.partition(" ")
        kept.append(line)
        if kind != "When":
            run_step(world, "then", text)
            continue
        last = world.last
        run_step(world, "when", text)
        rejected = world.last is not last and isinstance(
            world.last.reply if world.last else None, Rejected)
        said = lines[i + 1: i + 2] == [REJECTED_LINE]
        if rejected and not said:
            world.expect_rejected()
            return kept, [REJECTED_LINE.removeprefix("Then ")]
        if said and not rejected:
            return kept, []
    return kept, []


def _fails(world: ScenarioWorld, then: str) -> bool:
    try:
        run_step(world, "then", then)
    except (RuleViolation, EngineFault):
        return True
    return False


def render_finding(game: Game, broken: Broken, seed: int, client: EngineClient) -> Finding:
    """The shrunk counterexample as a scenario whose Then lines say what the rules require."""
    inv = broken.invariant
    then: list[str] = []
    confirmed = False
    try:
        reference = _reference_world(game, seed)
        lines, required = _reconcile(reference, broken.given, broken.lines)
        candidates = required + inv.then(Explored(reference, broken.given, lines), reference)
        engine = ScenarioWorld(game, client, seed)
        _replay(engine, broken.given, lines)
        then = [t for t in candidates if _fails(engine, t)]
        # Confirmed: the whole scenario passes on a fresh reference engine, and fails here.
        again = _reference_world(game, seed)
        _replay(again, broken.given, lines)
        confirmed = bool(then) and not any(_fails(again, t) for t in then)
    except _UNREPLAYABLE as exc:
        lines = broken.lines
        then = [f"# could not derive the expected outcome: {exc}"]
    name = f"Explored: {inv.name} (seed {seed}, {len(lines)} step(s))"
    return Finding(f"explore: {inv.name}", broken.rules, broken.message,
                   scenario(broken.rules, name, broken.given, lines, then, seed,
                            cites=rule_sentences(game, broken.rules)), confirmed, inv)


def render_fault(game: Game, fault: Faulted, seed: int, client: EngineClient,
                 invariants: Sequence[Invariant],
                 move_rules: Mapping[str, str] | None = None,
                 answer_rules: Mapping[str, str] | None = None) -> Finding:
    """An engine fault as the shrunk scenario that makes it, charged to one rule where that
    can be told: the rules of the invariant whose look failed; else the rule that states the
    failed move's requests when the reference engine plays it, all of one rule (an action's
    type in ``move_rules``; an answer's decision, ``keep`` or ``discard``, in
    ``answer_rules``); else the invariants that move exercises there (all of them, if the
    reference cannot play the game)."""
    rules: tuple[str, ...]
    if fault.invariant:
        rules = fault.invariant.rules
    else:
        sent, exercised = _last_move(game, fault, seed, invariants)
        stated = {(answer_rules or {}).get(decision or "", "") if kind == "choose"
                  else (move_rules or {}).get(kind, "") for kind, decision in sent}
        if len(stated) == 1 and "" not in stated:
            rules = tuple(stated)
        else:
            rules = tuple(dict.fromkeys(r for inv in exercised or invariants
                                        for r in inv.rules))
    confirmed = False
    try:  # confirmed: the engine fails the same game again
        world = ScenarioWorld(game, client, seed)
        _replay(world, fault.given, fault.lines)
        if fault.invariant:
            fault.invariant.check(Explored(world, fault.given, fault.lines))
    except (EngineFault, ScenarioError):
        confirmed = True
    except (RuleViolation, EngineLacks):
        pass
    where = fault.lines[-1].removeprefix("When ") if fault.lines else "setup"
    comment = [f"# the engine failed here ({where}): {_one_line(fault.message)}"]
    name = f"Explored: the engine failed a move (seed {seed}, {len(fault.lines)} step(s))"
    return Finding("explore: the engine answers every move", rules, fault.message,
                   scenario(rules, name, fault.given, fault.lines, comment, seed, then_kind=False,
                            cites=rule_sentences(game, rules)),
                   confirmed)


def _answered(action: Mapping[str, Any], before: Mapping[str, Any]) -> str | None:
    """The kind of decision an answer's player owed before it (the first one listed)."""
    player = action.get("player")
    return next((p.get("decision") for p in before.get("pending") or []
                 if isinstance(p, Mapping) and p.get("player") == player), None)


def _last_move(game: Game, slip: Slip, seed: int, invariants: Sequence[Invariant]
               ) -> tuple[list[tuple[str, str | None]], list[Invariant]]:
    """What the slip's last move does on the reference engine: the requests it sends, each
    as its action type and, for an answer (``choose``), the kind of the decision it answers;
    and the invariants it exercises."""
    if not slip.lines:
        return [], []
    try:
        world = _reference_world(game, seed)
        *before, last = slip.lines
        _replay(world, slip.given, before)
        explored = Explored(world, slip.given, list(before), moves=len(before))
        explored.moving()
        sent = len(world.history)
        run_step(world, "when", last.removeprefix("When "))
        explored.lines.append(last)
        explored.moves += 1
        explored.last_rejected = len(world.history) > sent and isinstance(
            world.last.reply if world.last else None, Rejected)
        requests = [(kind, _answered(action, before) if kind == "choose" else None)
                    for _, kind, action, _, before, _ in world.history[sent:]]
        if explored.last_rejected:
            world.expect_rejected()
        return requests, [inv for inv in invariants if inv.check(explored) is not None]
    except _UNREPLAYABLE:
        return [], []


def _one_line(text: str) -> str:
    return " ".join(text.split())[:300]


def scenario(rules: Sequence[str], name: str, given: list[str], lines: list[str],
             then: list[str], seed: int, *, then_kind: bool = True,
             cites: Sequence[str] = ()) -> str:
    """The scenario's text: tags, name, the sentences it cites, Given lines with the shuffle
    seed, the moves, then ``then`` (Then lines, or comments when ``then_kind`` is False)."""
    steps = _keywords([("Given", g) for g in [*given, f"the shuffle seed is {seed}"]]
                      + [tuple(line.split(" ", 1)) for line in lines]  # type: ignore[misc]
                      + ([("Then", t) for t in then] if then_kind else []))
    tail = [] if then_kind else [f"  {c}" for c in then]
    tags = " ".join(f"@{r}" for r in rules)
    body = "\n".join([*(f"  Cites: {c}" for c in cites), *(f"  {s}" for s in steps), *tail])
    return f"{tags}\nScenario: {name}\n{body}"


def rule_sentences(game: Game, rules: Sequence[str]) -> list[str]:
    """The sentences a scenario charged to ``rules`` cites: every sentence of each of them
    that is not waived (an invariant stands for its rules as a whole)."""
    return [s.anchor for rule in rules if (found := game.catalog.get(rule)) is not None
            for s in found.sentences if not s.waived]


def _keywords(steps: list[tuple[str, str]]) -> list[str]:
    """Gherkin style: a step of the same kind as the one before it starts with And."""
    out, previous = [], ""
    for kind, text in steps:
        out.append(f"{'And' if kind == previous else kind} {text}")
        previous = kind
    return out
