"""What a developer reads in the terminal: each failure readable where it is printed, with
the command that reproduces it; quiet and verbose runs; the version; only the selected
games."""

from __future__ import annotations

import shlex

import pytest

from oracle.report.judge import Exit

RULING = """\
Feature: A committee's ruling that goes wrong before the engine is reached
  @ti4:2.4
  Rule: 2.4 hand limit
    Cites: ti4:2.4#2

    Scenario: A ruling that names card A twice
      Given the players are Alice and Bob
      And card A is any "Action" card
      And card A is "Sabotage"
      When Alice draws 1 action card
      Then Alice holds 1 card
"""
# (A player nobody listed, as this used to say, is now refused by the suite checks.)


def test_a_failure_shows_the_step_expected_actual_exchanges_seed_and_command(oracle, pytester):
    """Why: pytest-internal tracebacks instead of the failing step; a reproduce command that
    left out --features and other options, so it selected nothing."""
    pytester.mkdir("rulings")
    pytester.makefile(".yaml", known="known_failures:\n  - rule: ti4:2.1\n    reason: x\n")
    args = ["--engine", "mutant:lazy_reshuffle", "--rule", "ti4:note-4", "--seed", "3",
            "--timeout", "7", "--strict-protocol", "--expectations", "known.yaml"]
    run = oracle("run", *args)
    assert run.code == Exit.FAILED, run.out + run.err
    out = run.out
    assert "ti4:note-4 fail: Drawing the last card reshuffles the discard pile immediately " \
           "(ti4/drawing.feature:" in out
    assert "failing step: line " in out and "what went wrong: the action deck has 0 card(s); " \
                                             "expected 3" in out
    assert "last exchanges with the engine in this scenario:" in out
    assert '> {"op": "act", "action": {"type": "draw"' in out
    assert "scenario seed " in out and "(run seed 3)" in out
    assert "_pytest" not in out and "pluggy" not in out and "Traceback" not in out
    command = next(line.split("reproduce: ", 1)[1] for line in out.splitlines()
                   if "reproduce: " in line)
    for option in ("--seed 3", "--timeout 7", "--strict-protocol",
                   "--expectations known.yaml", "--engine mutant:lazy_reshuffle"):
        assert option in command, command
    again = oracle(*shlex.split(command)[1:])  # the command runs that scenario, and fails it
    assert again.code == Exit.FAILED, again.out
    assert [s["name"] for s in again.scenarios()] == [
        "Drawing the last card reshuffles the discard pile immediately"]


def test_the_reproduce_command_keeps_the_features_folder(oracle, pytester):
    (pytester.mkdir("rulings") / "ti4").mkdir()
    (pytester.path / "rulings" / "ti4" / "ruling.feature").write_text(RULING)
    run = oracle("run", "--features", "rulings", "--rule", "ti4:2.4")
    assert run.code == Exit.FAILED, run.out + run.err
    [bad] = run.scenarios("error")
    assert bad["name"] == "A ruling that names card A twice"
    command = next(line.split("reproduce: ", 1)[1] for line in bad["message"].splitlines()
                   if line.startswith("reproduce: "))
    assert "--features rulings" in command
    again = oracle(*shlex.split(command)[1:])
    assert [s["name"] for s in again.scenarios()] == [bad["name"]]


def test_a_scenario_failing_before_the_engine_shows_no_other_scenarios_exchanges(oracle,
                                                                              pytester):
    """Why: it showed the previous scenario's exchanges and seed."""
    (pytester.mkdir("rulings") / "ti4").mkdir()
    (pytester.path / "rulings" / "ti4" / "ruling.feature").write_text(RULING)
    run = oracle("run", "--features", "rulings", "--rule", "ti4:2.4")
    [bad] = run.scenarios("error")
    assert 'card A is already any "Action" card' in bad["message"]
    assert "ended before it exchanged anything with the engine" in bad["message"]
    assert "last exchanges" not in bad["message"] and '"op"' not in bad["message"]
    seeds = [line for s in run.scenarios() for line in s["message"].splitlines()
             if "scenario seed" in line]
    assert len(seeds) == 1 and len(set(seeds)) == 1


def test_quiet_verbose_and_version(oracle, ti4_scenarios):
    quiet = oracle("run", "-q", "--engine", "mutant:lazy_reshuffle", "--rule", "ti4")
    assert quiet.code == Exit.FAILED
    table = quiet.out.split("rules-oracle conformance")[1]
    assert "ti4:note-4" in table and "ti4:2.4 " not in table  # only what does not pass
    assert "24 rules: 22 pass, 1 fail, 1 untestable" in table
    verbose = oracle("run", "-v", "--rule", "ti4:2.4.1")
    assert verbose.code == Exit.OK
    assert verbose.out.count("PASSED") == ti4_scenarios("ti4:2.4.1")
    version = oracle("--version", report=False)
    assert version.code == 0 and version.out.startswith("rules-oracle ")
    assert "adapter protocol 1" in version.out


@pytest.mark.parametrize("flag", ["-q", "-v"])
def test_quiet_and_verbose_do_not_change_the_report(oracle, flag):
    plain = oracle("run", "--rule", "ti4:note-4")
    other = oracle("run", flag, "--rule", "ti4:note-4")

    def shape(run):
        return [(r["id"], r["status"], [s["name"] for s in r["scenarios"]])
                for r in run.report["rules"]]

    assert shape(other) == shape(plain)
    assert plain.status("ti4:note-4") == "pass"


NO_DISPLAYS = '''
from oracle.games.eu_pop.engine import ReferenceEngine

class NoDisplays(ReferenceEngine):
    """Models every card but the Display Cards."""
    def modelled_cards(self):
        return [c for c in super().modelled_cards()
                if "display" not in self.facts[c].kinds]
'''


def test_the_table_shows_what_of_a_rule_did_not_run_and_why_in_full(oracle, engine_module,
                                                                      pytester):
    """Why (an outside developer's report): 6.decks.4 showed 'pass 2 0' with 2 of its 4
    scenarios never run; the reasons were cut to '[...]' in the table and missing from the
    Markdown report; 'other reasons' followed nothing it was other than."""
    engine_module("nodisplays", NO_DISPLAYS)
    run = oracle("run", "--engine", "nodisplays:NoDisplays", "--rule", "eu-pop",
                 "--markdown", "report.md")
    assert run.report is not None, run.out + run.err
    rule = next(r for r in run.report["rules"] if r["id"] == "eu-pop:6.action-cards.2")
    statuses = [s["status"] for s in rule["scenarios"]]
    unsupported = statuses.count("unsupported")
    assert rule["status"] == "pass" and unsupported, statuses
    table = run.out.split("rules-oracle conformance", 1)[1]
    assert "rule  " in table and " pass fail unsup  text" in table
    row = next(line for line in table.splitlines() if line.startswith(rule["id"]))
    assert row.split()[1:5] == ["pass", str(statuses.count("pass")), "0", str(unsupported)]
    flat = " ".join(table.split())
    reason = ("card A is any display card: the engine models no such card (declare "
              "eu-pop/card/NAME for one of: Royal Manufactory, Grand Archive, Spy Network, "
              "Standing Army)")
    assert (f"└ {unsupported} of {len(statuses)} scenarios not run (unsupported): {reason}"
            in flat), table
    assert "[...]" not in table and "other reasons" not in table
    assert "unsupported: " in flat and " scenarios (not run) why, most common first" in flat
    markdown = (pytester.path / "report.md").read_text()
    line = next(ln for ln in markdown.splitlines() if ln.startswith(f"| `{rule['id']}` |"))
    cells = [c.strip() for c in line.strip("|").split(" | ")]
    assert cells[2:5] == [str(statuses.count("pass")), "0", str(unsupported)], line
    assert cells[-1] == (f"{unsupported} of {len(statuses)} scenarios not run (unsupported): "
                         f"{reason}"), line
    assert "| why not tested |" in markdown


REJECTS_CHOICES = '''
from oracle.games.eu_pop.engine import ReferenceEngine

class RejectsChoices(ReferenceEngine):
    """Rejects every answer to a decision, changing nothing."""
    def handle(self, request):
        if request["op"] == "choose":
            return {"reply": "rejected", "reason": "no decision to make"}
        return super().handle(request)
'''


def test_a_refused_choice_is_reported_at_the_step_that_made_it(oracle, engine_module):
    """Why: a refused 'When Alice keeps ...' was reported at the next Then line, while the
    When step showed 'passed'. The rejection is found at the next step (only then is it
    known that no 'Then the action is rejected' follows), but it happened at the When step."""
    engine_module("rejects", REJECTS_CHOICES)
    run = oracle("run", "--engine", "rejects:RejectsChoices", "--rule", "eu-pop:4.5.c.2")
    failed = [s for s in run.scenarios() if s["status"] == "fail"  # found at a later step
              and "the scenario expects it to be allowed" in s["message"]]
    assert failed, run.out
    for scenario in failed:
        first = scenario["message"].splitlines()[0]
        [sent] = [s for s in scenario["steps"] if s["status"] == "failed"]
        assert first == f"line {sent['line']}: {sent['keyword']} {sent['text']}", scenario
        assert " keep" in sent["text"] or " discard" in sent["text"], sent
        after = scenario["steps"][scenario["steps"].index(sent) + 1:]
        before = scenario["steps"][:scenario["steps"].index(sent)]
        assert after and {s["status"] for s in after} == {"skipped"}, scenario["steps"]
        assert {s["status"] for s in before} == {"passed"}, scenario["steps"]
    assert f"failing step: {failed[0]['message'].splitlines()[0]}" in run.out
