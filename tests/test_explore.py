"""Exploration: Hypothesis finds what no scenario that ran checks, and says it in Gherkin."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import oracle.steps.common
import oracle.steps.ti4  # noqa: F401
from oracle.engines import EngineClient
from oracle.explore import default_budget, explore, load_model
from oracle.games.ti4.engine import ReferenceEngine
from oracle.games.ti4.engine import factory as reference
from oracle.mutants import find_mutant
from oracle.plugin.collect import explore_verdicts
from oracle.protocol import validate as schemas
from oracle.report.build import build_report
from oracle.report.formats.markdown import render_markdown
from oracle.report.formats.table import render_table
from oracle.report.model import Status
from oracle.suite.games import bundled_features_dir, discover_games


@pytest.fixture(scope="module")
def ti4(tmp_path_factory):
    """The bundled TI4 game on its own (other bundled games do not matter here)."""
    root = tmp_path_factory.mktemp("games")
    (root / "ti4").symlink_to(bundled_features_dir() / "ti4")
    return discover_games([root])["ti4"]


def test_the_reference_engine_keeps_every_invariant(ti4):
    result = explore(ti4, EngineClient(reference(), "reference"), 0, default_budget(25))
    assert result.errors == []
    assert result.findings and all(f is None for f in result.findings.values()), result.findings
    assert result.moves > 100


@pytest.mark.parametrize("mutant, invariant, rule, then", [
    ("no_hand_limit", "the hand limit holds after every resolution", "ti4:2.4",
     "must keep 7 cards"),
    ("no_reshuffle", "a depleted deck is reshuffled at once", "ti4:note-4",
     "the action discard pile is empty"),
    ("hand_shown_to_all", "hands are hidden from other viewers", "ti4:2.5",
     "hidden card"),
    ("players_start_with_a_card", "players start with zero cards", "ti4:note-1",
     "holds no cards"),
])
def test_a_mutant_is_found_and_written_as_a_scenario(ti4, mutant, invariant, rule, then):
    _, broken = find_mutant([ti4], mutant)
    result = explore(ti4, EngineClient(broken(), mutant), 0, default_budget(40), {invariant})
    finding = result.findings[invariant]
    assert finding is not None, f"{mutant} survived exploration"
    assert finding.confirmed
    assert f"@{rule}" in finding.scenario.splitlines()[0]
    assert "Scenario: Explored:" in finding.scenario
    assert then in finding.scenario
    assert "And the shuffle seed is 0" in finding.scenario


def test_every_invariant_cites_catalog_rules(ti4):
    ids = set(ti4.catalog.ids())
    for inv in load_model(ti4).invariants():
        assert inv.rules and set(inv.rules) <= ids, inv


class _LeakyWithoutTransactions(ReferenceEngine):
    """Lacks an optional capability (transactions), and loses every card it discards."""

    def capabilities(self) -> list[str]:
        return [c for c in super().capabilities() if c != "ti4/transactions"]

    def discard_card(self, card: str) -> None:
        pass


class _WithoutDraws(ReferenceEngine):
    def capabilities(self) -> list[str]:
        return [c for c in super().capabilities() if c != "ti4/draw"]


class _CrashesOnReveal(ReferenceEngine):
    def act_reveal(self, action):  # type: ignore[no-untyped-def]
        if action.get("cards"):
            raise RuntimeError("the reveal handler crashed")
        super().act_reveal(action)


def test_a_missing_capability_skips_moves_never_the_invariant(ti4):
    """The engine cannot trade: those moves are skipped and counted; conservation is still
    searched, broken and reported with the states that exercised each invariant."""
    result = explore(ti4, EngineClient(_LeakyWithoutTransactions(), "leaky"), 0,
                     default_budget(30))
    finding = result.findings["cards are conserved"]
    assert finding is not None and finding.confirmed, result.findings
    assert "@ti4:2.3" in finding.scenario.splitlines()[0]
    assert "transaction" not in finding.scenario
    assert result.skipped_moves["ti4/transactions"] > 0
    assert "needing ti4/transactions" in result.skipped()
    verdicts = {v.name: v for v in explore_verdicts("ti4", result, ())}
    conservation = verdicts["explore: cards are conserved"]
    assert conservation.status == Status.FAIL and conservation.exercised > 0
    held = verdicts["explore: hand sizes are public"]
    assert held.status == Status.PASS and held.exercised > 0
    assert f"held over {held.exercised} explored state(s)" in held.message
    assert "ti4/transactions" in held.message


def test_an_invariant_no_move_exercised_is_uncovered_not_passed(ti4):
    """Without draws, no draw ever empties the deck: the reshuffle is never tested."""
    result = explore(ti4, EngineClient(_WithoutDraws(), "no draws"), 0, default_budget(10))
    assert result.skipped_moves["ti4/draw"] > 0
    verdicts = {v.name: v for v in explore_verdicts("ti4", result, ())}
    reshuffle = verdicts["explore: a depleted deck is reshuffled at once"]
    assert (reshuffle.status, reshuffle.exercised) == (Status.UNCOVERED, 0)
    assert reshuffle.message.startswith("not exercised")
    assert verdicts["explore: hand sizes are public"].status == Status.PASS
    # The rule it stands for is uncovered in the report (in JSON, the table and Markdown).
    report = build_report([ti4.catalog], verdicts.values(), {"spec": "no draws"})
    note4 = next(r for r in report.rules if r.id == "ti4:note-4")
    assert note4.status == Status.UNCOVERED and note4.reason.startswith("not exercised")
    assert schemas.problems("report", report.to_json()) == []
    line = "uncovered, exercised by 0 explored state(s): explore: a depleted deck is reshuffled"
    assert line in render_table(report, width=200)
    assert line in render_markdown(report)


def test_an_engine_fault_carries_its_shrunk_game_and_seed(ti4):
    # Games of up to 8 moves: a reveal comes early, and each shrink replays less (the
    # shrunk game is the same as with 50).
    result = explore(ti4, EngineClient(_CrashesOnReveal(), "crashes"), 7,
                     settings(default_budget(6), stateful_step_count=8))
    assert len(result.errors) == 1, [e.message for e in result.errors]
    error = result.errors[0]
    assert error.confirmed
    assert "the reveal handler crashed" in error.message
    assert "And the shuffle seed is 7" in error.scenario
    assert ' reveals "' in error.scenario.rstrip().splitlines()[-2]
    # The fault ends its games; the invariants are still judged on the rest.
    assert all(f is None for f in result.findings.values())
    verdicts = explore_verdicts("ti4", result, ())
    assert [v.status for v in verdicts].count(Status.ERROR) == 1
    # (Eight moves a game need not empty the deck: an invariant no state exercised is
    # uncovered, never failed.)
    judged = {v.status for v in verdicts if v.exercised is not None}
    assert Status.PASS in judged and judged <= {Status.PASS, Status.UNCOVERED}, judged
    # One bug, one rule: a crash on a reveal is charged to the rule that states revealing,
    # not to every invariant the reveal exercises (six rules before).
    assert [v.rules for v in verdicts if v.status == Status.ERROR] == [("ti4:note-3",)]


_COUNTS = {f["name"]: int(f["count"]) for f in discover_games()["ti4"].cards["action"]}
_AIMED = {"Lucky Shot": "unit", "Direct Hit": "unit", "Repeal Law": "law",
          "Insubordination": "player"}


class _Strict(ReferenceEngine):
    """The reference engine behind an adapter that answers ``errored`` where docs/protocol.md
    allows it: a state with more copies of a card than the card facts give ("Copies"), and a
    play without the target its card needs ("Which reply": a missing field)."""

    def handle(self, request):  # type: ignore[no-untyped-def]
        import json

        if request["op"] == "setup":
            text = json.dumps(request["state"])
            over = [n for n, k in _COUNTS.items() if text.count(json.dumps(n)) > k]
            if over:
                return {"reply": "errored", "message": f"more copies than the deck has: {over}"}
        action = request.get("action") or {}
        need = _AIMED.get(action.get("card", "")) if action.get("type") == "play" else None
        if need and need not in (action.get("targets") or {}):
            return {"reply": "errored", "message": f"{action['card']} needs targets.{need}"}
        return super().handle(request)


def test_exploration_sends_only_what_an_engine_may_not_refuse_as_malformed(ti4):
    """Why: an outside engine checking the card counts, as the protocol page allows, ended
    every search at its first table (tables drawn from the seven modelled cards held many a
    single-copy card twice), an error charged to the eight rules the invariants check; and
    with no unit on the table a Lucky Shot was played with no target, a missing field, which
    that engine answered ``errored``, charged to ti4:2.7. Tables keep within the counts (the
    spare copies are cards the engine does not model) and a play names an absent target."""
    result = explore(ti4, EngineClient(_Strict(), "strict"), 0, default_budget(25))
    assert result.errors == [], [e.message for e in result.errors]
    assert result.findings and all(f is None for f in result.findings.values()), result.findings
    assert result.moves > 100


def _crashing_on(decision: str, engine: type) -> type:
    """The reference engine, crashing whenever a player answers a ``decision``."""
    class Crashes(engine):  # type: ignore[misc, valid-type]
        def choose(self, player, choice):  # type: ignore[no-untyped-def]
            if decision in choice:
                raise RuntimeError(f"the {decision} handler crashed")
            super().choose(player, choice)

    return Crashes


@pytest.mark.parametrize("game_id, decision, rule, invariant", [
    ("ti4", "keep", "ti4:2.4", "the hand limit holds after every resolution"),
    ("eu-pop", "discard", "eu-pop:6.2.display.10",
     "a third display card makes its player choose one to discard")])
def test_a_fault_answering_a_decision_is_charged_to_the_rule_that_states_the_answer(
        game_id, decision, rule, invariant):
    """A crash answering a decision (the hand limit's keep; a third Display Card's discard)
    is charged to the rule that states that answer alone, by the model's ``answer_rules``;
    without them, the TI4 crash was charged to 2.3, 2.7, 2.5 and note-2, not even 2.4."""
    import importlib

    game = discover_games()[game_id]
    module = importlib.import_module(game.reference_engine.partition(":")[0])
    engine = _crashing_on(decision, module.ReferenceEngine)()
    # Searched: the invariant of the rule stating the decision (a fault shows whichever
    # invariants are searched; one is cheaper over the 60 games a decision needs to come up
    # in nearly every random run, benchmarks/explore_reliability.py).
    result = explore(game, EngineClient(engine, "crashes"), 0, default_budget(60), {invariant})
    assert len(result.errors) == 1, [e.message for e in result.errors]
    assert f"the {decision} handler crashed" in result.errors[0].message
    verdicts = explore_verdicts(game_id, result, ())
    assert [v.rules for v in verdicts if v.status == Status.ERROR] == [(rule,)]


@pytest.mark.parametrize("game_id", ["ti4", "eu-pop"])
def test_each_move_rule_is_a_catalog_rule_for_an_action_the_game_has(game_id):
    """A model's ``move_rules`` name rules of its catalog, for action types its reference
    engine answers (a typo would charge a fault to a rule no report lists)."""
    import importlib

    from oracle.explore.model import answer_rules_of, move_rules_of

    game = discover_games()[game_id]
    rules = move_rules_of(load_model(game))
    module, _, name = game.reference_engine.partition(":")
    actions = set(getattr(importlib.import_module(module), name).ACTIONS)
    assert rules and set(rules.values()) <= {r.id for r in game.catalog.rules}
    assert set(rules) <= actions | {"choose"}, set(rules) - actions
    answers = answer_rules_of(load_model(game))  # per kind of decision (docs/protocol.md)
    assert answers and set(answers.values()) <= {r.id for r in game.catalog.rules}
    assert set(answers) <= {"keep", "discard"}


def _plain(value) -> bool:  # type: ignore[no-untyped-def]
    if isinstance(value, dict):
        return all(type(k) is str and _plain(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    return value is None or type(value) in (str, int, float, bool)


def _scribble(value) -> None:  # type: ignore[no-untyped-def]
    """Change every list and dict inside ``value`` (as an oracle bug might)."""
    for item in list(value.values() if isinstance(value, dict) else value):
        if isinstance(item, dict | list):
            _scribble(item)
    value.clear()


@pytest.mark.parametrize("game_id", ["ti4", "eu-pop"])
def test_the_bundled_engines_views_share_nothing(game_id):
    """The client does not copy their views (``fresh_views``): each must be plain JSON data
    built afresh, so that changing one changes neither the engine nor the next view."""
    from oracle.games.eu_pop.engine import factory as eu_reference

    engine = reference() if game_id == "ti4" else eu_reference()
    assert engine.fresh_views
    players = [{"name": n, "hand": ["Sabotage" if game_id == "ti4" else "Spy Network"]}
               for n in ("Alice", "Bob")]
    state = {"players": players, "phase": "action", "active_player": "Alice"}
    if game_id == "ti4":
        state["units"] = [{"id": "d1", "owner": "Bob", "type": "destroyer", "tags": ["x"]}]
        state["laws"] = ["Minister of Commerce"]
    assert engine.handle({"op": "setup", "game": game_id, "seed": 0,
                          "state": state})["reply"] == "ready"
    for viewer in ("*", "Alice", "Bob", None):
        first = engine.handle({"op": "observe", "viewer": viewer})["view"]
        again = engine.handle({"op": "observe", "viewer": viewer})["view"]
        assert _plain(first) and first == again and first is not again
        _scribble(first)
        assert engine.handle({"op": "observe", "viewer": viewer})["view"] == again


def test_the_counterexample_round_trips_through_a_feature_file(oracle, pytester, monkeypatch):
    """Found with the mutant's own scenarios deselected; printed as a scenario, not a
    traceback; emitted; fails the mutant; passes the reference engine. Nothing else is
    written into the current directory (no .hypothesis/)."""
    # Why: pytest-benchmark, where the machine has it installed, makes its own
    # .benchmarks/ folder in every run; that is the plugin's doing, not the oracle's.
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:benchmark")
    out = pytester.path / "found"
    before = sorted(p.name for p in pytester.path.iterdir())
    run = oracle("run", "--engine", "mutant:lazy_reshuffle", "--rule", "ti4:2.1",
                 "--explore", "--explore-examples", "30", "--explore-out", str(out))
    assert run.code == 1, run.out + run.err
    assert sorted(p.name for p in pytester.path.iterdir()) == sorted(
        [*before, "found", "report.json"])
    # Why: about 800 lines of pluggy traceback came before the counterexample.
    assert "exploration of ti4 found rule violations:" in run.out
    assert "Scenario: Explored: a depleted deck is reshuffled at once" in run.out
    assert "pluggy" not in run.out and "hypothesis/" not in run.out
    assert "explore ti4: [1/30] game 1: 7 invariant(s) searched" in run.out  # progress
    failures = run.out.split("= FAILURES =")[1].split("rules-oracle conformance")[0]
    assert len(failures.splitlines()) < 80
    assert "explore eu-pop" not in run.out  # only the selected game is explored
    assert run.status("ti4:2.1") == "pass"
    assert run.status("ti4:note-4") == "fail"  # only exploration ran for note-4
    note4 = next(r for r in run.report["rules"] if r["id"] == "ti4:note-4")
    assert [s["name"] for s in note4["scenarios"]] == ["explore: a depleted deck is "
                                                      "reshuffled at once"]
    files = sorted(Path(out, "ti4").glob("explored-*.feature"))
    assert [f.name for f in files] == ["explored-a-depleted-deck-is-reshuffled-at-once.feature"]
    assert "@ti4:note-4" in files[0].read_text()

    on_mutant = oracle("run", "--engine", "mutant:lazy_reshuffle", "--features", str(out),
                       "--rule", "ti4:note-4", "-k", "explored")
    assert on_mutant.code == 1 and on_mutant.flagged() == {"ti4:note-4"}
    on_reference = oracle("run", "--features", str(out), "--rule", "ti4:note-4",
                          "-k", "explored")
    assert on_reference.code == 0, on_reference.out
    assert on_reference.status("ti4:note-4") == "pass"


def test_the_shrinker_deletes_what_the_slip_does_not_need_within_its_budget():
    """A synthetic slip: it shows once 'draw' and then 'play' were played on a table that
    holds "B". The shrinker keeps only those, deterministically, and stops at its budget
    with the best game so far."""
    from oracle.explore.shrink import ShrinkBudget, shrink

    def attempt(given: list[str], moves: list[str]) -> list[str] | None:
        if not any('"B"' in g for g in given) or "draw" not in moves:
            return None
        after = moves[moves.index("draw"):]
        return moves[:moves.index("draw") + after.index("play") + 1] if "play" in after \
            else None

    given = ["the players are Alice and Bob", 'Alice holds "A", "B" and "C"', "it is noon"]
    moves = ["pass", "draw", "pass", "reveal", "play", "pass", "pass"]
    shrunk = shrink(given, moves, attempt)
    assert shrunk.moves == ["draw", "play"] and not shrunk.exhausted
    assert shrunk.given == ["the players are Alice and Bob", 'Alice holds "B"']
    again = shrink(given, moves, attempt)
    assert (again.given, again.moves, again.replays) == (shrunk.given, shrunk.moves,
                                                         shrunk.replays)
    cut = shrink(given, moves, attempt, ShrinkBudget(replays=2))
    assert cut.exhausted and cut.replays == 2 and "draw" in cut.moves
    assert not shrink(given, ["pass"], attempt).reproduced


@given(st.lists(st.sampled_from(["draw", "play", "reject", "take back", "then", "read"]),
                max_size=30))
@example(["draw", "then", "read", "take back", "take back", "reject", "then", "read"])
@settings(max_examples=150, deadline=None)
def test_the_accepted_moves_memo_is_the_rescan_it_replaces(ops):
    """``accepted_moves`` reads each line once, kept in the game's memo: whatever lines
    were added, rejected or taken back between reads (as the search does), it gives what
    rescanning every line gives (the scan the models made before it, for each question).
    The example is the game that a memo telling "unchanged" by its last line missed: two
    lines taken back and two others added, the last the same text object as before."""
    from oracle.explore import REJECTED_LINE, Explored
    from oracle.games.kit.explore import accepted_moves

    explored = Explored(None, [])  # type: ignore[arg-type]  # only its lines are read
    lines = explored.lines
    for n, op in enumerate(ops):
        if op in ("draw", "play"):
            lines.append(f"When Alice {op}s {n}")
        elif op == "reject":
            lines.append(REJECTED_LINE)
        elif op == "take back" and lines:
            explored.take_back()
        elif op == "then":
            lines.append("Then Alice holds 1 card")
        rescan = [text.removeprefix("When ") for i, text in enumerate(lines)
                  if text.startswith("When ") and lines[i + 1:i + 2] != [REJECTED_LINE]]
        if op == "read" or n == len(ops) - 1:
            assert accepted_moves(explored) == rescan
