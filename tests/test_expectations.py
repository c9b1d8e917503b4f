"""Per-engine expectations: known failures report xfail, stale ones xpass."""

from __future__ import annotations


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
