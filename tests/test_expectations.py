"""Per-engine expectations: known failures report xfail, stale ones xpass, and a baseline
written from a run makes the next run on the same engine green."""

from __future__ import annotations

import functools
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from oracle.mutants import game_mutants
from oracle.mutants.harness import game_cases, mutant_outcomes, trace_cases
from oracle.report.build import build_report
from oracle.report.expectations import Expectations, from_report, load_expectations
from oracle.report.judge import Exit, judge
from oracle.report.model import Report, ScenarioVerdict, Status
from oracle.suite.games import discover_games


def test_known_failures_written_from_a_report_make_the_run_green(oracle, pytester):
    first = oracle("run", "--engine", "mutant:lazy_reshuffle", "--rule", "ti4:note-4",
                   "--rule", "ti4:2.4")
    assert first.code == 1
    (pytester.path / "r.json").write_text(__import__("json").dumps(first.report))
    made = oracle("expectations", "--from", "r.json", "--out", "known.yaml")
    assert made.code == 0, made.err
    text = (pytester.path / "known.yaml").read_text()
    assert "rule: ti4:note-4" in text and "reason:" in text
    assert "scenario: Drawing the last card reshuffles the discard pile immediately" in text
    again = oracle("run", "--engine", "mutant:lazy_reshuffle", "--rule", "ti4:note-4",
                   "--expectations", "known.yaml")
    assert again.code == 0, again.out
    assert again.status("ti4:note-4") == "xfail"
    statuses = {s["status"] for r in again.report["rules"] if r["id"] == "ti4:note-4"
                for s in r["scenarios"]}
    assert "xfail" in statuses


def test_a_known_failure_that_passes_is_xpass_and_fails_strict_runs(oracle, pytester):
    pytester.makefile(".yaml", known="known_failures:\n  - rule: ti4:note-4\n"
                                     "    reason: reshuffle is lazy\n")
    lenient = oracle("run", "--rule", "ti4:note-4", "--expectations", "known.yaml")
    assert lenient.code == 0
    assert lenient.status("ti4:note-4") == "xpass"
    assert "known failures that pass now" in lenient.out
    strict = oracle("run", "--rule", "ti4:note-4", "--expectations", "known.yaml",
                    "--strict-expectations")
    assert strict.code == 1
    assert strict.status("ti4:note-4") == "xpass"


def test_a_known_failure_can_name_one_scenario(oracle, pytester):
    pytester.makefile(".yaml", known=(
        "known_failures:\n"
        "  - scenario: Drawing the last card reshuffles the discard pile immediately\n"
        "    reason: lazy reshuffle\n"))
    run = oracle("run", "--engine", "mutant:lazy_reshuffle", "--rule", "ti4:note-4",
                 "--expectations", "known.yaml", "--strict-expectations")
    assert run.code == 0, run.out
    scenarios = {s["name"]: s["status"] for r in run.report["rules"] if r["id"] == "ti4:note-4"
                 for s in r["scenarios"]}
    assert scenarios["Drawing the last card reshuffles the discard pile immediately"] == "xfail"
    assert set(scenarios.values()) == {"xfail", "pass"}


def test_a_malformed_expectations_file_is_a_usage_error_with_its_line(oracle, pytester):
    pytester.makefile(".yaml", known="known_failures:\n  - rule: ti4:2.4\n    reason: x\n"
                                     "  - rule: ti4:9.9\n    reason: y\n")
    run = oracle("run", "--rule", "ti4", "--expectations", "known.yaml")
    assert run.code == 2
    assert "known.yaml:4: 'ti4:9.9' is not a rule id" in run.err
    pytester.makefile(".yaml", known="known_failures:\n  - rule: ti4:2.4\n")
    run = oracle("run", "--rule", "ti4", "--expectations", "known.yaml")
    assert run.code == 2 and "known.yaml:2: say why" in run.err


def test_a_new_failure_in_a_rule_with_a_known_failure_turns_the_run_red(oracle, pytester):
    """Why: expectations were written per rule, so a new regression in a rule that already
    had a known failure stayed xfail, even with --strict-expectations."""
    known = oracle("run", "--engine", "mutant:no_hand_limit", "--rule", "ti4:2.4",
                   "-k", "chooses_the_seven_cards")
    assert known.code == 1
    (pytester.path / "r.json").write_text(__import__("json").dumps(known.report))
    assert oracle("expectations", "--from", "r.json", "--out", "known.yaml").code == 0
    text = (pytester.path / "known.yaml").read_text()
    assert text.count("- rule: ti4:2.4") == len(known.scenarios("fail")) == 1
    everything = oracle("run", "--engine", "mutant:no_hand_limit", "--rule", "ti4:2.4",
                        "--expectations", "known.yaml", "--strict-expectations")
    assert everything.code == 1, everything.out
    statuses = {s["status"] for s in everything.scenarios()}
    assert {"xfail", "fail"} <= statuses
    assert everything.status("ti4:2.4") == "fail"


# -- baselines that hold: the round trip on every mutant ---------------------------------------

GAMES = discover_games()
MUTANTS = [(game.id, m) for game in GAMES.values() for m in game_mutants(game)]


@functools.cache
def _traces(game: str, base: type) -> Any:
    """Every scenario of a game on a recording reference engine (once per xdist worker)."""
    return trace_cases(GAMES[game], base, game_cases(GAMES[game]))


def _report(game: str, outcomes: Any, known: Expectations | None = None) -> Report:
    """The report a run with these outcomes (and this expectations file) builds."""
    verdicts = [o.verdict() for o in outcomes]
    if known is not None:
        verdicts = [known.apply(v)[0] for v in verdicts]
    return build_report([GAMES[game].catalog], verdicts, {"spec": "test"},
                        expected_to_fail=known.whole_rules() if known else None)


def _baseline(game: str, report: Report, path: Path) -> Expectations:
    path.write_text(from_report(report), encoding="utf-8")
    return load_expectations(path, GAMES[game].catalog.ids())


@pytest.mark.parametrize("game, mutant", MUTANTS, ids=[f"{g}/{m.name}" for g, m in MUTANTS])
def test_a_baseline_from_a_run_makes_the_next_run_on_that_engine_green(game, mutant, tmp_path):
    """Why: the file left out blocked scenarios, so a mutant whose break blocks other
    rules' scenarios (ti4/hand_limit_off_by_one: 12 xfailed, 9 failed) never went green.
    In this process through the harness (the same outcomes a run gives, see
    test_selftest), built into reports by the run's own functions."""
    outcomes, _ = mutant_outcomes(GAMES[game], GAMES, mutant, _traces(game, mutant.base))
    first = _report(game, outcomes)
    assert judge(first)[0] == Exit.FAILED
    known = _baseline(game, first, tmp_path / "known.yaml")
    not_passing = [o for o in outcomes if o.status != Status.PASS
                   and o.status != Status.UNSUPPORTED]
    assert len(known.entries) == len(not_passing)
    again = _report(game, outcomes, known)
    assert judge(again, strict_expectations=True) == (Exit.OK, []), mutant.name
    charged = [s for r in again.rules for s in r.scenarios if not s.blocked_by]
    assert {s.status for s in charged} <= {Status.PASS, Status.XFAIL}
    assert sum(s.status == Status.XFAIL for s in charged) >= len(not_passing)


def test_a_known_failure_that_passes_again_is_xpass_and_a_new_one_fails(tmp_path):
    """The other two halves of a baseline: on the fixed engine every entry is ``xpass``
    (strict runs fail, so the file is kept honest); a failure the file does not list turns
    the run red, a blocked scenario included."""
    mutant = next(m for g, m in MUTANTS if m.name == "hand_limit_off_by_one")
    outcomes, _ = mutant_outcomes(GAMES["ti4"], GAMES, mutant, _traces("ti4", mutant.base))
    known = _baseline("ti4", _report("ti4", outcomes), tmp_path / "known.yaml")
    reference = [o for o, _ in _traces("ti4", mutant.base).values()]
    fixed = _report("ti4", reference, known)
    xpass = [s.name for r in fixed.rules for s in r.scenarios if s.status == Status.XPASS]
    assert sorted(xpass) == sorted(e.scenario for e in known.entries)
    assert judge(fixed)[0] == Exit.OK
    assert judge(fixed, strict_expectations=True)[0] == Exit.FAILED
    blocked = next(o for o in outcomes if o.status == Status.BLOCKED)
    fewer = Expectations(known.path, tuple(e for e in known.entries
                                           if e.scenario != blocked.case.name))
    red = _report("ti4", outcomes, fewer)
    assert judge(red)[0] == Exit.FAILED
    assert [s.name for s in red.rule("ti4:2.4").scenarios  # type: ignore[union-attr]
            if s.status == Status.FAIL] == [blocked.case.name]


def test_a_scenario_known_as_blocked_that_fails_its_own_rule_is_a_new_failure(tmp_path):
    """A baseline lists a blocked scenario under the rule that blocked it: when that rule
    is fixed and the scenario now fails its own rule, that is news, not a known failure."""
    path = tmp_path / "known.yaml"
    path.write_text("known_failures:\n  - rule: ti4:2.4\n    scenario: S\n    reason: r\n")
    known = load_expectations(path, GAMES["ti4"].catalog.ids())
    blocked = ScenarioVerdict("S", "ti4", ("ti4:2.4.1",), Status.BLOCKED, "f:1",
                              blocked_by="ti4:2.4")
    assert known.apply(blocked)[0].status == Status.XFAIL
    assert known.apply(replace(blocked, status=Status.FAIL, blocked_by=None))[1] is None
    assert known.apply(replace(blocked, status=Status.PASS, blocked_by=None)
                       )[0].status == Status.XPASS


@pytest.mark.parametrize("engine", ["mutant:ti4/hand_limit_off_by_one",
                                    "mutant:eu-pop/discard_to_administrative"])
def test_the_readme_round_trip_is_green_on_a_cascading_mutant(oracle, pytester, engine):
    """The README's three commands, as a user runs them, on mutants whose break blocks
    other rules' scenarios: the baseline run is green under --strict-expectations, and
    the blocked rules stay blocked (their own rules untested), the charge xfail."""
    game = engine.partition(":")[2].partition("/")[0]
    first = oracle("run", "--engine", engine, "--rule", game)
    assert first.code == 1 and first.scenarios("blocked"), first.out
    (pytester.path / "r.json").write_text(json.dumps(first.report))
    assert oracle("expectations", "--from", "r.json", "--out", "known.yaml").code == 0
    again = oracle("run", "--engine", engine, "--rule", game, "--expectations", "known.yaml",
                   "--strict-expectations")
    assert again.code == 0, again.out
    blocked = {r["id"] for r in first.report["rules"] if r["status"] == "blocked"}
    assert blocked and blocked == {r["id"] for r in again.report["rules"]
                                   if r["status"] == "blocked"}
    assert {s["status"] for s in again.scenarios() if s.get("charged_from")} == {"xfail"}
