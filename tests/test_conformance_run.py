"""The main job, end to end: `rules-oracle run` on good, broken and odd engines."""

from __future__ import annotations

import json

import engine_sources
import pytest

from oracle.games.ti4.mutants import MUTANTS
from oracle.plugin.selection import selected_rules
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


@pytest.mark.parametrize("seed", [2, 4, 7])
def test_the_reference_engine_conforms_under_other_run_seeds(oracle, seed):
    """A scenario's cards are chosen by its seed; every choice must make a state the game's
    decks can hold. Why: with the deck's counts enforced, 'card D and 8 cards' of a 10-card
    deck failed to set up whenever D was bound to a card of three copies (seeds 2, 4, 7)."""
    run = oracle("run", "--seed", str(seed))
    assert run.code == 0, run.out[-3000:]
    assert not run.flagged()


def test_a_broken_engine_is_flagged_on_exactly_the_rules_it_breaks(oracle):
    """Named as package.module:factory; every other mutant is run by tests/test_selftest.py."""
    mutant = MUTANTS.no_hand_limit
    run = oracle("run", "--engine", "oracle.games.ti4.mutants:MUTANTS.no_hand_limit",
                 "--rule", "ti4")
    assert run.code == 1, run.out + run.err
    assert run.flagged() == set(mutant.breaks)
    assert [r["id"] for r in run.report["rules"]] == TI4_IDS


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
    run = oracle("run", "--engine", "crashing:factory", "--rule", "ti4:2.1", "--rule",
                 "ti4:note-5", "--rule", "ti4:2.3")
    assert run.code == 1
    assert run.status("ti4:2.1") == "error"
    # note-5's scenarios deal in the status phase, which ti4:2.1 governs (governs.yaml): the
    # crash there is charged to ti4:2.1, as an error, and note-5 is left unverified.
    assert run.status("ti4:note-5") == "blocked"
    assert run.status("ti4:2.3") == "pass"  # its scenarios run no status phase
    assert [r["id"] for r in run.report["rules"] if r["id"].startswith("ti4:")] == TI4_IDS
    errored = [s for r in run.report["rules"] for s in r["scenarios"]
               if s["status"] in ("error", "blocked")]
    assert errored and all("engine crashed mid-scenario" in s["message"] for s in errored)
    rule = next(r for r in run.report["rules"] if r["id"] == "ti4:2.1")
    charged = [s for s in rule["scenarios"] if s.get("charged_from")]
    assert charged and {s["status"] for s in charged} == {"error"}


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
    run = oracle("run", "--engine", "garbage:factory", "--rule", "ti4:note-3", "--rule",
                 "ti4:note-10")
    assert run.code == 1
    assert run.status("ti4:note-3") == "error"
    msgs = [s["message"] for r in run.report["rules"] if r["id"] == "ti4:note-3"
            for s in r["scenarios"]]
    assert any("protocol error: a reply must be a JSON object" in m for m in msgs)
    trade = [s["message"] for r in run.report["rules"] if r["id"] == "ti4:note-10"
             for s in r["scenarios"] if s["status"] == "error"]
    assert any("'view' is not a reply to 'act'" in m for m in trade)


def test_a_missing_capability_is_unsupported_not_fail(oracle, engine_module):
    engine_module("lacking", engine_sources.lacking("ti4/politics"))
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


def test_selecting_a_rule_runs_it_and_its_subrules_and_lists_its_games_rules(oracle):
    """Every rule of the selected game is listed (covered or not); another game's rules
    only with --all-games: `--rule ti4` does not list every EU rule as uncovered."""
    run = oracle("run", "--rule", "ti4:2.4")
    assert run.code == 0
    assert run.status("ti4:2.4") == "pass" and run.status("ti4:2.4.1") == "pass"
    assert run.status("ti4:2.1") == "uncovered"
    assert [r["id"] for r in run.report["rules"]] == TI4_IDS
    assert "eu-pop:" not in run.out and "24 rules:" in run.out
    reasons = {r["id"]: r.get("reason") for r in run.report["rules"]}
    assert reasons["ti4:2.1"] == "not selected in this run"
    every = oracle("run", "--rule", "ti4:2.4", "--all-games")
    assert len(every.report["rules"]) == sum(len(g.catalog.ids())
                                             for g in discover_games().values())


def test_selecting_an_unknown_rule_is_a_usage_error_offering_the_closest_ids(oracle, pytester):
    """Why: '--rule ti4:2.44' said only what ids look like, and named --oracle-rule, an
    option a rules-oracle user never typed."""
    run = oracle("run", "--rule", "ti4:2.44")
    assert run.code == 2
    assert "--rule ti4:2.44: no rule has this id; did you mean ti4:2.4, ti4:2.4.1" in run.err
    assert "--oracle-rule" not in run.out + run.err
    game = oracle("run", "--rule", "ti5")
    assert game.code == 2 and "did you mean ti4" in game.err
    plain = pytester.runpytest_inprocess("--oracle-engine=reference", "--oracle-rule=ti4:2.44",
                                         "-p", "no:cacheprovider")
    assert plain.ret == pytest.ExitCode.USAGE_ERROR  # and pytest users read --oracle-rule:
    with pytest.raises(pytest.UsageError, match=r"^--oracle-rule ti4:2\.44: no rule has"):
        selected_rules(["ti4:2.44"], discover_games())


def test_an_unknown_language_is_a_usage_error_listing_the_known_ones(oracle):
    """Why: '--lang fr' was accepted and silently showed the English texts."""
    run = oracle("run", "--rule", "ti4:2.4", "--lang", "fr")
    assert run.code == 2 and "--lang fr: no catalog has its rule texts in 'fr'; the " \
        "languages there are: en, ru" in run.err
    assert oracle("run", "--rule", "ti4:2.4", "--lang", "ru").code == 0


def test_the_markdown_report_is_written(oracle, pytester):
    md = pytester.path / "summary.md"
    run = oracle("run", "--engine", "oracle.games.ti4.mutants:MUTANTS.no_reshuffle",
                 "--rule", "ti4", "--markdown", str(md))
    assert run.code == 1
    text = md.read_text()
    assert text.index("### Failures") < text.index("| `ti4:note-4` | **fail** |")
    assert "ti4/drawing.feature:" in text
    assert "`ti4:note-11` untestable" in text
    # the passing rules come last, collapsed, so a long green list hides no red line
    assert text.index("<details><summary>22 rules pass</summary>") > text.index("### Failures")
    assert "| `ti4:2.4` | pass |" in text.split("<details>")[1]


def test_a_mutant_can_be_named_as_an_engine(oracle):
    run = oracle("run", "--engine", "mutant:deals_in_seat_order", "--rule", "ti4")
    assert run.code == 1
    assert run.flagged() == {"ti4:note-5"}


HANGING = '''
import time
from oracle.games.ti4.engine import ReferenceEngine

class Hanging(ReferenceEngine):
    hung = False  # once per run: one scenario pays the timeout, the rest run on

    def act_status_draw(self, action):
        if Hanging.hung:
            return super().act_status_draw(action)
        Hanging.hung = True
        while True:
            time.sleep(0.05)

def factory():
    return Hanging()
'''


def test_a_hanging_in_process_engine_errors_its_scenario_not_the_run(oracle, engine_module):
    engine_module("hanging", HANGING)
    # Only the first status-phase deal hangs, for the timeout: a second and a half, a
    # thousand times what any other in-process request takes, even on a loaded machine.
    run = oracle("run", "--engine", "hanging:factory", "--rule", "ti4:2.1", "--rule", "ti4:2.3",
                 "--timeout", "1.5")
    assert run.code == 1, run.out + run.err
    assert run.status("ti4:2.1") == "error"
    assert run.status("ti4:2.3") == "pass"  # the engine was replaced; later scenarios run
    statuses = [s["status"] for r in run.report["rules"] if r["id"] == "ti4:2.1"
                for s in r["scenarios"]]
    assert statuses.count("error") == 1 and statuses.count("pass") >= 1, statuses
    messages = [s["message"] for r in run.report["rules"] if r["id"] == "ti4:2.1"
                for s in r["scenarios"] if s["status"] == "error"]
    assert all("no answer to 'act' within 1.5 s" in m for m in messages)


def test_rerun_failed_runs_again_only_what_did_not_pass(oracle, pytester):
    """pytest's --lf for a report: failed, errored and blocked scenarios (Outline rows one
    by one), and every one when nothing failed; a report that cannot be read is exit 2."""
    first = oracle("run", "--engine", "mutant:hand_limit_off_by_one", "--rule", "ti4")
    (pytester.path / "r.json").write_text(json.dumps(first.report))
    again = {(s["location"], s["name"]) for s in first.scenarios()
             if s["status"] in ("fail", "error", "blocked")}
    assert first.scenarios("blocked") and len(again) < len(first.scenarios())
    rerun = oracle("run", "--engine", "mutant:hand_limit_off_by_one", "--rule", "ti4",
                   "--rerun-failed", "r.json")
    assert rerun.code == 1, rerun.out + rerun.err
    assert {(s["location"], s["name"]) for s in rerun.scenarios()} == again
    clean = oracle("run", "--rule", "ti4:2.1")
    (pytester.path / "ok.json").write_text(json.dumps(clean.report))
    every = oracle("run", "--rule", "ti4:2.1", "--rerun-failed", "ok.json")
    assert every.code == 0 and len(every.scenarios()) == len(clean.scenarios())
    assert oracle("run", "--rerun-failed", "missing.json").code == 2
