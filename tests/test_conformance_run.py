"""The main job, end to end: `rules-oracle run` on good, broken and odd engines."""

from __future__ import annotations

import json

import pytest

from oracle.games.ti4.mutants import ALL as ALL_MUTANTS
from oracle.games.ti4.mutants import MUTANTS
from oracle.suite.games import discover_games

TI4_IDS = discover_games()["ti4"].catalog.ids()


def test_reference_engine_conforms_on_every_rule(oracle):
    run = oracle("run")
    assert run.code == 0, run.out + run.err
    ids = [r["id"] for r in run.report["rules"]]
    assert [i for i in ids if i.startswith("ti4:")] == TI4_IDS
    assert len(TI4_IDS) == 24
    every_game = [i for g in discover_games().values() for i in g.catalog.ids()]
    assert [r["id"] for r in run.report["rules"]] == every_game
    for rule in run.report["rules"]:
        if rule["status"] == "untestable":
            assert rule["reason"], rule
            assert rule["id"] != "ti4:2.4"
        else:
            assert rule["status"] == "pass", rule
            assert rule["scenarios"] and all(s["status"] == "pass" for s in rule["scenarios"])
    assert "rules-oracle conformance" in run.out and "ti4:2.4.1" in run.out


@pytest.mark.parametrize("name", ["no_hand_limit", "hand_shown_to_all", "lazy_reshuffle"])
def test_a_broken_engine_is_flagged_on_exactly_the_rules_it_breaks(oracle, name):
    mutant = getattr(MUTANTS, name)
    run = oracle("run", "--engine", f"oracle.games.ti4.mutants:MUTANTS.{name}")
    assert run.code == 1, run.out + run.err
    assert run.flagged() == set(mutant.breaks)
    assert [r["id"] for r in run.report["rules"] if r["id"].startswith("ti4:")] == TI4_IDS


def test_selftest_kills_every_mutant_with_no_false_flags(oracle, pytester):
    """The kill matrix: every mutant of every game flags exactly the ids it declares."""
    out = pytester.path / "selftest.json"
    run = oracle("selftest", "--json", str(out))
    assert run.code == 0, run.out + run.err
    matrix = json.loads(out.read_text())
    assert matrix["summary"]["ok"] is True
    assert matrix["summary"]["ids_without_mutant"] == []
    names = {m["name"] for m in matrix["mutants"]}
    assert {m.name for m in ALL_MUTANTS} <= names
    for row in matrix["mutants"]:
        assert row["killed"] and not row["false_flags"], row
        assert sorted(row["flagged"]) == sorted(row["breaks"]), row
    testable = {r.id for g in discover_games().values() for r in g.catalog.rules if r.testable}
    assert testable <= {b for row in matrix["mutants"] for b in row["breaks"]}


def test_a_failure_says_which_step_and_how_to_reproduce(oracle):
    run = oracle("run", "--engine", "oracle.games.ti4.mutants:MUTANTS.no_reshuffle")
    failed = [s for r in run.report["rules"] for s in r["scenarios"] if s["status"] == "fail"]
    assert failed
    message = failed[0]["message"]
    assert message.startswith("line ")
    assert "reproduce: rules-oracle run --engine oracle.games.ti4.mutants:MUTANTS.no_reshuffle" \
        in message
    assert "scenario seed" in message and failed[0]["location"].startswith("ti4/drawing.feature:")


CRASHING = '''
from oracle.games.ti4.engine import ReferenceEngine

class Crashing(ReferenceEngine):
    def act_status_draw(self, action):
        raise RuntimeError("status phase exploded")

def factory():
    engine = Crashing()
    inner = engine.handle
    def handle(request):
        if request.get("op") == "act" and request["action"].get("type") == "status_draw":
            raise RuntimeError("engine crashed mid-scenario")
        return inner(request)
    engine.handle = handle
    return engine
'''


def test_a_crashing_engine_errors_its_scenarios_and_the_run_goes_on(oracle, engine_module):
    engine_module("crashing", CRASHING)
    run = oracle("run", "--engine", "crashing:factory")
    assert run.code == 1
    assert run.status("ti4:2.1") == "error"
    assert run.status("ti4:note-5") == "error"
    assert run.status("ti4:2.4") == "pass"
    assert [r["id"] for r in run.report["rules"] if r["id"].startswith("ti4:")] == TI4_IDS
    errored = [s for r in run.report["rules"] for s in r["scenarios"] if s["status"] == "error"]
    assert all("engine crashed mid-scenario" in s["message"] for s in errored)


GARBAGE = '''
from oracle.games.ti4.engine import factory as reference

def factory():
    engine = reference()
    inner = engine.handle
    def handle(request):
        if request.get("op") == "act" and request["action"].get("type") == "reveal":
            return ["not", "a", "reply"]
        if request.get("op") == "act" and request["action"].get("type") == "trade":
            return {"reply": "view", "view": {}}
        return inner(request)
    engine.handle = handle
    return engine
'''


def test_protocol_garbage_is_an_error_with_the_reason(oracle, engine_module):
    engine_module("garbage", GARBAGE)
    run = oracle("run", "--engine", "garbage:factory")
    assert run.code == 1
    assert run.status("ti4:note-3") == "error"
    msgs = [s["message"] for r in run.report["rules"] if r["id"] == "ti4:note-3"
            for s in r["scenarios"]]
    assert any("protocol error: a reply must be a JSON object" in m for m in msgs)
    trade = [s["message"] for r in run.report["rules"] if r["id"] == "ti4:note-10"
             for s in r["scenarios"] if s["status"] == "error"]
    assert any("'view' is not a reply to 'act'" in m for m in trade)


LACKING = '''
from oracle.games.ti4.engine import ReferenceEngine

class NoPolitics(ReferenceEngine):
    def capabilities(self):
        return [c for c in super().capabilities() if c != "ti4/politics"]

def factory():
    return NoPolitics()
'''


def test_a_missing_capability_is_unsupported_not_fail(oracle, engine_module):
    engine_module("lacking", LACKING)
    run = oracle("run", "--engine", "lacking:factory", "--rule", "ti4")
    assert run.code == 0, run.out
    assert run.status("ti4:2.2") == "unsupported"
    assert run.status("ti4:2.1") == "pass"
    assert run.report["summary"]["unsupported"] == 1


@pytest.mark.parametrize("spec, says", [
    ("nonsense", "is not an engine spec"),
    ("no_such_module_xyz:factory", "cannot import"),
    ("oracle.games.ti4.engine:nope", "has no attribute"),
    ("reference:chess", "no bundled game"),
])
def test_a_bad_engine_spec_is_a_usage_error(oracle, spec, says):
    run = oracle("run", "--engine", spec)
    assert run.code == 2
    assert says in run.out + run.err
    assert run.report is None


def test_selecting_a_rule_runs_it_and_its_subrules_and_lists_every_rule(oracle):
    run = oracle("run", "--rule", "ti4:2.4")
    assert run.code == 0
    assert run.status("ti4:2.4") == "pass" and run.status("ti4:2.4.1") == "pass"
    assert run.status("ti4:2.1") == "uncovered"
    assert len(run.report["rules"]) == sum(len(g.catalog.ids()) for g in discover_games().values())
    reasons = {r["id"]: r.get("reason") for r in run.report["rules"]}
    assert reasons["ti4:2.1"] == "not selected in this run"


def test_selecting_an_unknown_rule_is_a_usage_error(oracle):
    run = oracle("run", "--rule", "ti4:9.9")
    assert run.code == 2 and "no such rule id" in run.out + run.err


def test_the_report_survives_xdist(oracle):
    serial = oracle("run")
    parallel = oracle("run", "--", "-n", "2")
    assert parallel.code == 0, parallel.out + parallel.err
    assert "bringing up nodes" in parallel.out
    simplify = lambda run: {r["id"]: (r["status"], len(r["scenarios"]))  # noqa: E731
                            for r in run.report["rules"]}
    assert simplify(parallel) == simplify(serial)


def test_the_markdown_report_is_written(oracle, pytester):
    md = pytester.path / "summary.md"
    run = oracle("run", "--engine", "oracle.games.ti4.mutants:MUTANTS.no_reshuffle",
                 "--markdown", str(md))
    assert run.code == 1
    text = md.read_text()
    assert "| `ti4:note-4` | **fail** |" in text
    assert "### Failures" in text and "ti4/drawing.feature:" in text
    assert "`ti4:note-11` untestable" in text


def test_a_mutant_can_be_named_as_an_engine(oracle):
    run = oracle("run", "--engine", "mutant:deals_in_seat_order", "--rule", "ti4")
    assert run.code == 1
    assert run.flagged() == {"ti4:note-5"}


def test_selftest_reports_a_surviving_mutant(oracle, pytester):
    """A mutant whose rule no scenario checks survives, and selftest says so (exit 1)."""
    games = pytester.mkdir("games")
    toy = games / "toy"
    toy.mkdir()
    (toy / "game.yaml").write_text(
        "id: toy\ncatalog: catalog.yaml\nreference_engine: oracle.games.ti4.engine:factory\n"
        "mutants: toymutants:ALL\n")
    (toy / "catalog.yaml").write_text(
        "game: toy\nrules:\n  - {id: '1', text: A rule., testable: true}\n")
    (toy / "t.feature").write_text(
        "Feature: t\n  @toy:1\n  Scenario: Nothing much\n    Given the players are Ann\n")
    pytester.makepyfile(toymutants='''
from oracle.games.ti4.engine import ReferenceEngine
from oracle.mutants import Mutant
ALL = (Mutant("toy_noop", ("toy:1",), "changes nothing the scenario looks at",
              ReferenceEngine, {"BASE_HAND_LIMIT": 3}),)
''')
    run = oracle("selftest", "--features", "games", "--game", "toy")
    assert run.code == 1
    assert "toy_noop" in run.out and "SURVIVED" in run.out


HANGING = '''
import time
from oracle.games.ti4.engine import ReferenceEngine

class Hanging(ReferenceEngine):
    def act_status_draw(self, action):
        while True:
            time.sleep(0.05)

def factory():
    return Hanging()
'''


def test_a_hanging_in_process_engine_errors_its_scenario_not_the_run(oracle, engine_module):
    engine_module("hanging", HANGING)
    run = oracle("run", "--engine", "hanging:factory", "--rule", "ti4", "--timeout", "0.5")
    assert run.code == 1
    assert run.status("ti4:2.1") == "error"
    assert run.status("ti4:2.3") == "pass"  # the engine was replaced; later scenarios run
    messages = [s["message"] for r in run.report["rules"] if r["id"] == "ti4:2.1"
                for s in r["scenarios"] if s["status"] == "error"]
    assert messages and all("no answer to 'act' within 0.5 s" in m for m in messages)
