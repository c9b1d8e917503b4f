"""A suite that would lose a rule silently is refused before anything runs.

Each test writes a small game of its own (a folder with a manifest, a
catalog and features, run with --features), which also shows that the core
knows no particular game.
"""

from __future__ import annotations

import os
import textwrap

import pytest

MANIFEST = "id: toy\ntitle: Toy\ncatalog: catalog.yaml\ncards: cards.yaml\n"
CATALOG = """\
game: toy
title: Toy rules
rules:
  - id: '1'
    text: A draw takes the top card of the deck.
    testable: true
  - id: '2'
    text: Players start with no cards.
    testable: true
  - id: '3'
    text: See the other page.
    testable: false
    untestable_reason: a pointer to another page
"""
CARDS = """\
game: toy
decks:
  main:
    - {name: Ace, count: 1}
    - {name: King, count: 1}
    - {name: Queen, count: 1}
"""
GOOD = """\
Feature: Toy drawing
  Background:
    Given the players are Ann and Ben

  @toy:1
  Rule: 1 A draw takes the top card

    Scenario: Drawing takes the top card
      Given the main deck is "Ace", "King" and "Queen"
      When Ann draws 1 main card
      Then Ann holds "Ace"
      And Ann holds 1 hidden card as seen by Ben
      And the main deck is "King" and "Queen"

  @toy:2
  Rule: 2 Players start with no cards

    Scenario: Nobody starts with a card
      Then Ann holds no cards
"""

TOY_ENGINE = '''
"""A whole engine for the toy game in a few lines: proof the core needs no TI4."""
import copy

class Toy:
    def __init__(self, lose_top_card=False):
        self.lose_top_card = lose_top_card

    def handle(self, request):
        op = request["op"]
        if op == "describe":
            return {"reply": "described", "engine": {"name": "toy", "version": "1",
                    "protocol": 1, "games": [{"game": "toy"}],
                    "capabilities": ["toy/draw", "toy/card/Ace", "toy/card/King",
                                     "toy/card/Queen"]}}
        if op == "setup":
            if request["game"] != "toy":
                return {"reply": "unsupported", "reason": "plays only toy"}
            state = request["state"]
            self.hands = {p["name"]: list(p.get("hand", [])) for p in state["players"]}
            deck = state.get("decks", {}).get("main", {})
            self.draw, self.discard = list(deck.get("draw", [])), list(deck.get("discard", []))
            return {"reply": "ready"}
        if op == "act":
            action = request["action"]
            if action["type"] != "draw":
                return {"reply": "unsupported", "reason": action["type"]}
            for _ in range(action["count"]):
                if self.lose_top_card and self.draw:
                    self.draw.pop(0)
                if self.draw:
                    self.hands[action["player"]].append(self.draw.pop(0))
            return {"reply": "accepted"}
        if op == "observe":
            viewer = request["viewer"]
            return {"reply": "view", "view": {
                "players": {n: {"hand": {"count": len(h),
                                         "cards": h if viewer in (n, "*") else []}}
                            for n, h in self.hands.items()},
                "decks": {"main": {"draw": {"count": len(self.draw),
                                            "cards": list(self.draw)},
                                   "discard": list(self.discard)}}}}
        return {"reply": "errored", "message": "unknown op " + op}

def factory():
    return Toy()

def broken():
    return Toy(lose_top_card=True)
'''


def write_toy(pytester, engine_module, manifest: str = MANIFEST, catalog: str = CATALOG,
              good: str = GOOD):
    """Write the toy game folder (under ``games/``); return a function to (re)write its
    feature file."""
    engine_module("toyengine", TOY_ENGINE)
    folder = pytester.mkdir("games").joinpath("toy")
    folder.mkdir()
    (folder / "game.yaml").write_text(manifest)
    (folder / "catalog.yaml").write_text(catalog, encoding="utf-8")
    (folder / "cards.yaml").write_text(CARDS)

    def features(text: str = good, name: str = "toy.feature") -> None:
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")

    features()
    return features


@pytest.fixture
def toy(pytester, engine_module):
    """The toy game folder; a function to (re)write its feature file."""
    return write_toy(pytester, engine_module)


def run_toy(oracle, engine="toyengine:factory"):
    return oracle("run", "--features", "games", "--engine", engine)


def test_a_new_game_runs_with_only_data_and_an_engine(oracle, toy):
    run = run_toy(oracle)
    assert run.code == 0, run.out + run.err
    assert run.status("toy:1") == "pass" and run.status("toy:2") == "pass"
    assert run.status("toy:3") == "untestable"
    assert run.status("ti4:2.4") == "unsupported"  # the toy engine does not play TI4


def test_a_suite_that_passed_is_not_checked_again_until_a_file_changes(oracle, toy, pytester,
                                                                       monkeypatch):
    """The checks' clean result is remembered (oracle.suite.checked) by the files' contents:
    any edit checks again, even one that keeps the file's size and modification time; the
    same bytes written again are the suite that passed; and a suite with a problem is never
    served from memory."""
    from oracle.suite import checked, lint

    monkeypatch.setenv("RULES_ORACLE_CACHE_DIR", str(pytester.path / "cache"))
    calls = []
    real = lint.check_suite

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr("oracle.plugin.run.check_suite", counted)
    assert run_toy(oracle).code == 0 and len(calls) == 1
    assert run_toy(oracle).code == 0 and len(calls) == 1  # unchanged: remembered
    toy(GOOD.replace("Ann holds no cards", "Ann juggles no cards"))
    for _ in range(2):  # a problem: checked, and refused, every time
        run = run_toy(oracle)
        assert run.code == 2 and "Ann juggles no cards" in run.err, run.out + run.err
    assert len(calls) == 3
    toy()  # the clean file again, written anew: the suite that passed
    assert run_toy(oracle).code == 0 and len(calls) == 3
    feature = pytester.path / "games" / "toy" / "toy.feature"
    stat = feature.stat()
    same_size = GOOD.replace("Nobody starts with a card", "Nobody begins with a card")
    assert len(same_size) == len(GOOD)
    toy(same_size)  # an edit that keeps the file's size and modification time
    os.utime(feature, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert run_toy(oracle).code == 0 and len(calls) == 4  # checked again
    monkeypatch.setenv("RULES_ORACLE_CACHE_DIR", "off")
    assert checked.fingerprint([], {}, None) is None and not checked.passed_before(None)


def test_the_toy_scenario_fails_an_engine_that_breaks_its_rule(oracle, toy):
    run = run_toy(oracle, "toyengine:broken")
    assert run.code == 1
    assert run.flagged() == {"toy:1"}


def test_two_scenarios_with_one_name_are_refused(oracle, toy):
    toy(GOOD + "\n    Scenario: Nobody starts with a card\n      Then Ann holds no cards\n")
    run = run_toy(oracle)
    assert run.code == 2
    assert "a second scenario named 'Nobody starts with a card'" in run.out + run.err
    assert "toy.feature:18)" in run.out + run.err  # where the first one is


def test_the_same_name_in_two_files_is_refused(oracle, toy):
    toy(GOOD.replace("@toy:1", "@toy:2").split("  @toy:2\n  Rule: 2")[0], name="again.feature")
    run = run_toy(oracle)
    assert run.code == 2 and "a second scenario named 'Drawing takes the top card'" in run.err


def test_an_unknown_rule_tag_is_refused_with_the_closest_ids(oracle, toy):
    toy(GOOD.replace("@toy:2", "@toy:22"))
    run = run_toy(oracle)
    assert run.code == 2
    assert "toy.feature:15: toy:22 is not a rule id of the toy catalog; did you mean toy:2" \
        in run.err


def test_a_scenario_citing_no_rule_is_refused(oracle, toy):
    toy("Feature: more\n  Scenario: Orphan\n    Then Ann holds no cards\n", name="more.feature")
    run = run_toy(oracle)
    assert run.code == 2 and "this scenario cites no rule" in run.err


def test_a_rule_without_scenario_or_untestable_mark_is_refused(oracle, toy):
    toy(GOOD.split("  @toy:2")[0])
    run = run_toy(oracle)
    assert run.code == 2
    assert "rule toy:2 has no scenario and is not marked untestable" in run.err


def test_a_step_with_no_definition_is_refused_with_the_closest_steps(oracle, toy):
    toy(GOOD.replace("When Ann draws 1 main card", "When Ann draw one main card"))
    run = run_toy(oracle)
    assert run.code == 2
    assert "toy.feature:10: no when step matches this text" in run.err
    assert "When Ann draw one main card" in run.err
    assert "<player> draws <count> <deck> card" in run.err


def test_a_feature_file_that_does_not_parse_is_refused(oracle, toy):
    toy("Feature: broken\n  Scenario: x\n    Given the players are Ann\n  Oops not gherkin\n",
        name="broken.feature")
    run = run_toy(oracle)
    assert run.code == 2 and "broken.feature:4: the feature file does not parse" in run.err


def test_a_step_matching_two_definitions_is_refused(oracle, toy, pytester):
    """All games' step modules load together: a phrase two definitions accept is ambiguous."""
    pytester.makepyfile(toysteps='''
from oracle.suite.stepdefs import given

@given("the players are Ann and Ben")
def _special(oracle_world):
    oracle_world.add_players(["Ann", "Ben"])
''')
    manifest = pytester.path / "games" / "toy" / "game.yaml"
    manifest.write_text(MANIFEST + "steps: toysteps\n")
    run = run_toy(oracle)
    assert run.code == 2
    assert "toy.feature:3: this text matches 2 given step definitions" in run.err


def test_a_citation_of_a_rule_the_game_does_not_have_is_refused(oracle, toy):
    toy(GOOD + "\n    Scenario: Drawing from nothing\n"
        "      When Ann draws 1 main card\n"
        "      Then the action is rejected, citing toy:22\n")
    run = run_toy(oracle)
    assert run.code == 2
    assert "'toy:22' is not a rule of toy" in run.err and "did you mean toy:2" in run.err


@pytest.mark.parametrize("text", ["toy:1", "toy:1#1", "toy:council:extra"])
def test_a_citation_may_name_a_rule_a_sentence_or_a_committee_id(oracle, toy, text):
    toy(GOOD + "\n    Scenario: Drawing from nothing\n"
        "      Twin: Drawing takes the top card\n"
        "      When Ann draws 1 main card\n"
        f"      Then the action is rejected, citing {text}\n")
    run = run_toy(oracle)
    assert "is not a rule of toy" not in run.err
