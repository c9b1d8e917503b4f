"""``rules-oracle coverage``, from the outside: a toy game whose catalog has sentences (one
waived, one of an untestable rule, context chapters), whose scenarios cite them, with a
mutant, a committee's rulings and engines of its own; the command in-process, its JSON
checked against the schema, its Markdown and terminal table read, its page in Chromium.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest
from browser import console_errors, load, screenshot, visible_rows
from test_suite_checks import CARDS, TOY_ENGINE

from oracle.protocol.validate import problems

MANIFEST = ("id: toy\ntitle: Toy\ncatalog: catalog.yaml\ncards: cards.yaml\n"
            "reference_engine: toyengine:factory\nmutants: toymutants:ALL\n")
CATALOG = """\
game: toy
title: Toy rules
rules:
  - id: '1'
    text: A draw takes the top card of the deck. The deck lies face down.
    sentences:
      - {n: 1, text: A draw takes the top card of the deck.}
      - {n: 2, text: The deck lies face down., waiver: no view tells face down from face up}
  - id: '2'
    text: Players start with no cards. A hand is kept secret.
    sentences:
      - {n: 1, text: Players start with no cards.}
      - {n: 2, text: A hand is kept secret.}
  - id: '3'
    text: See the other page.
    testable: false
    untestable_reason: a pointer to another page
context:
  - id: '90'
    title: Turn order
    items:
      - {id: '90', text: Players take turns clockwise.}
      - {id: '90.1', text: The first player draws first., label: Step 1}
"""
FEATURES = """\
Feature: Toy drawing
  Background:
    Given the players are Ann and Ben

  @toy:1
  Rule: 1 A draw takes the top card
    Cites: toy:1#1 "takes the top card"

    Scenario: Drawing takes the top card
      Given the main deck is "Ace", "King" and "Queen"
      When Ann draws 1 main card
      Then Ann holds "Ace"
      And the main deck is "King" and "Queen"

  @toy:2
  Rule: 2 Players start with no cards

    Scenario: Nobody starts with a card
      Cites: toy:2#1
      Cites: toy:90.1#1
      Then Ann holds no cards

    Scenario: Nobody starts with a card, says Ben
      Then Ben holds no cards
"""
COUNCIL = """\
Feature: Toy council
  Background:
    Given the players are Ann and Ben

  @toy:2
  Rule: 2 the council on secret hands
    Ruling: r1
    Source: Toy FAQ 1
    Date: 2024-01-02
    Authority: Toy council
    Status: pending
    Cites: toy:2#2

    Scenario: Ben sees how many cards Ann holds, not which
      Given Ann holds "Ace"
      Then Ann holds 1 hidden card as seen by Ben

    Scenario: A probe every engine disagrees with
      Given Ann holds "King"
      Then Ann holds "Ace"

  @toy:1
  Rule: 1 the council on two draws
    Ruling: r2
    Source: Toy FAQ 2
    Date: 2024-01-03
    Authority: Toy council
    Status: official
    Cites: toy:1#1

    Scenario Outline: Drawing <n> cards takes the <n> top cards
      Given the main deck is "Ace", "King" and "Queen"
      When Ann draws <n> main cards
      Then Ann holds <held>

      Examples:
        | n | held              |
        | 1 | "Ace"             |
        | 2 | "Ace" and "King"  |
"""
MUTANTS = '''
from oracle.mutants import Mutant
from toyengine import Toy


def _skips(self, request):
    if request["op"] == "act" and self.draw:
        self.draw.pop(0)
    return Toy.handle(self, request)


ALL = (Mutant("skips_the_top_card", ("toy:1",), "a draw skips the top card", Toy,
              {"handle": _skips}),)
'''


@pytest.fixture
def toy(pytester, engine_module) -> Path:
    """The toy game and a committee folder; returns the scratch folder."""
    engine_module("toyengine", TOY_ENGINE)
    engine_module("toymutants", MUTANTS)
    folder = pytester.mkdir("games").joinpath("toy")
    folder.mkdir()
    for name, text in (("game.yaml", MANIFEST), ("catalog.yaml", CATALOG),
                       ("cards.yaml", CARDS), ("toy.feature", FEATURES)):
        (folder / name).write_text(textwrap.dedent(text))
    council = pytester.mkdir("council").joinpath("toy")
    council.mkdir()
    (council / "council.feature").write_text(COUNCIL)
    return pytester.path


def coverage(oracle, toy: Path, *args: str) -> tuple[object, dict, dict[str, str]]:
    """``rules-oracle coverage`` of the toy game with every format; (run, JSON, texts)."""
    out = {f: toy / f"c.{f}" for f in ("json", "md", "html")}
    run = oracle("coverage", "--features", "games", "--features", "council", "--game", "toy",
                 "--json", str(out["json"]), "--markdown", str(out["md"]),
                 "--html", str(out["html"]), *args)
    assert out["json"].exists(), run.out + run.err
    return run, json.loads(out["json"].read_text()), {f: p.read_text() for f, p in out.items()}


def test_each_sentence_with_what_checks_it_and_the_totals(oracle, toy):
    run, data, texts = coverage(oracle, toy)
    assert run.code == 1, run.out + run.err  # toy:2#2 is uncovered
    assert problems("coverage", data) == []
    assert data["games"] == {"toy": {
        "title": "Toy rules", "sentences": 5, "covered": 2, "waived": 2, "uncovered": 1,
        "context": 2, "context_cited": 1, "uncited_scenarios": 1,
        "covered_without_mutant": 1}}
    sentences = {s["anchor"]: s for s in data["sentences"]}
    assert list(sentences) == ["toy:1#1", "toy:1#2", "toy:2#1", "toy:2#2", "toy:3#1"]
    assert {a: s["status"] for a, s in sentences.items()} == {
        "toy:1#1": "covered", "toy:1#2": "waived", "toy:2#1": "covered",
        "toy:2#2": "uncovered", "toy:3#1": "waived"}
    drawing = sentences["toy:1#1"]
    assert [(s["name"], s.get("ruling")) for s in drawing["scenarios"]] == [
        ("Drawing takes the top card", None),
        ("Drawing <n> cards takes the <n> top cards", "toy:1/r2")]
    assert drawing["mutants"] == ["toy/skips_the_top_card"]
    assert all(s["mutants"] == ["toy/skips_the_top_card"] for s in drawing["scenarios"])
    assert drawing["rulings"] == [{"id": "toy:1/r2", "standing": "official", "probe": False,
                                   "source": "Toy FAQ 2"}]
    assert sentences["toy:2#1"]["mutants"] == []  # no mutant fails it: said, not hidden
    assert sentences["toy:1#2"]["reason"] == "no view tells face down from face up"
    assert sentences["toy:3#1"]["reason"] == "a pointer to another page"
    secret = sentences["toy:2#2"]  # a pending ruling cites it: a probe covers nothing
    assert secret["reason"].startswith("only rulings that are probes")
    assert [r["id"] for r in secret["rulings"]] == ["toy:2/r1"]
    assert [s["probe"] for s in secret["scenarios"]] == [True, True]
    # It fails on the mutant because it fails on every engine: no kill of the mutant's.
    assert secret["scenarios"][1]["mutants"] == []
    context = {s["anchor"]: s for s in data["context"]}
    assert {a: (s["status"], len(s["scenarios"])) for a, s in context.items()} == {
        "toy:90#1": ("context", 0), "toy:90.1#1": ("context", 1)}
    assert context["toy:90.1#1"]["label"] == "Step 1"
    assert context["toy:90.1#1"]["chapter_title"] == "Turn order"
    assert [u["name"] for u in data["uncited"]] == ["Nobody starts with a card, says Ben"]
    assert "verdict" not in drawing  # no engine, no verdicts

    # The terminal: totals, then what the suite does not check, and what no mutant backs.
    assert "toy" in run.out and "uncovered (1):" in run.out
    assert "toy:2#2  A hand is kept secret." in run.out
    assert "covered, but no mutant fails a scenario citing it (1):" in run.out
    assert "5 sentences: 2 covered, 2 waived, 1 uncovered; 2 context sentences (1 cited)" \
        in run.out
    ids = re.findall(r' id="([^"]+)"', texts["html"])
    assert len(ids) == len(set(ids)), "every element id of the page once"
    md = texts["md"]
    assert "| Toy rules (`toy`) | 5 | 2 | 2 | **1** | 2 (1) | 1 |" in md
    assert "| `toy:2#2` | A hand is kept secret. | only rulings that are probes" in md


def test_with_an_engine_each_scenario_shows_its_verdict(oracle, toy):
    run, data, _ = coverage(oracle, toy, "--engine", "toyengine:broken", "--no-mutants")
    assert run.code == 1  # coverage, not conformance: toy:2#2 is uncovered, whatever fails
    assert data["mutants"] is None and data["engine"]["spec"] == "toyengine:broken"
    assert data["engine"]["exit_code"] == 1
    sentences = {s["anchor"]: s for s in data["sentences"]}
    drawing = sentences["toy:1#1"]
    assert drawing["verdict"] == "fail"
    assert [v for s in drawing["scenarios"] for v in s["verdicts"]] == [
        {"name": "Drawing takes the top card", "status": "fail"},
        {"name": "Drawing <n> cards takes the <n> top cards [1 | \"Ace\"]", "status": "fail"},
        {"name": "Drawing <n> cards takes the <n> top cards [2 | \"Ace\" and \"King\"]",
         "status": "fail"}]
    assert sentences["toy:2#1"]["verdict"] == "pass"
    assert "covered_without_mutant" not in data["games"]["toy"]
    assert problems("coverage", data) == []


def test_a_complete_suite_exits_0_and_bad_input_2(oracle, toy):
    feature = toy / "council" / "toy" / "council.feature"
    feature.write_text(COUNCIL.replace("Status: pending", "Status: official"))
    run, data, texts = coverage(oracle, toy, "--no-mutants")
    assert run.code == 0, run.out + run.err
    assert data["games"]["toy"]["uncovered"] == 0
    assert "every sentence of every testable rule is covered or waived" in texts["html"]
    assert oracle("coverage", "--game", "nope", "--no-mutants").code == 2
    feature.write_text("Feature: broken\n  Scenario: x\n    Given the players are Ann\n"
                       "  Oops not gherkin\n")
    broken = oracle("coverage", "--features", "games", "--features", "council",
                    "--no-mutants")
    assert broken.code == 2, broken.out + broken.err
    assert "council.feature:4: the feature file does not parse" in broken.err


def test_the_bundled_suite_covers_every_sentence_or_waives_it(oracle, tmp_path):
    """Every catalog sentence is listed once, the totals are those of the list, and every
    sentence of every testable rule of both games is covered or waived (issue 19); no
    mutants, kept quick (the selftest's tests run them)."""
    from oracle.suite.games import discover_games

    out = tmp_path / "c.json"
    run = oracle("coverage", "--no-mutants", "--json", str(out))
    data = json.loads(out.read_text())
    assert problems("coverage", data) == []
    games = discover_games()
    for game_id, game in games.items():
        rules = [s.anchor for r in game.catalog.rules for s in r.sentences]
        listed = [s for s in data["sentences"] if s["anchor"].startswith(f"{game_id}:")]
        assert [s["anchor"] for s in listed] == rules
        totals = data["games"][game_id]
        assert totals["sentences"] == len(rules) == sum(
            totals[k] for k in ("covered", "waived", "uncovered"))
        for status in ("covered", "waived", "uncovered"):
            assert totals[status] == sum(1 for s in listed if s["status"] == status)
        assert totals["context"] == sum(len(i.sentences) for i in game.catalog.context_items)
    uncovered = [s["anchor"] for s in data["sentences"] if s["status"] == "uncovered"]
    assert uncovered == [] and run.code == 0, run.out
    assert set(data["games"]) == {"ti4", "eu-pop"} and data["uncited"] == []


# -- the page, in Chromium ------------------------------------------------------------------


def test_the_coverage_page_in_chromium(browser, oracle, toy, tmp_path):
    from selenium.webdriver.common.by import By

    _, data, _ = coverage(oracle, toy, "--engine", "toyengine:factory")
    page = toy / "c.html"
    assert load(browser, page) == []
    totals = browser.find_element(By.CSS_SELECTOR, "table.totals").text
    assert "Toy rules toy 5 2 2 1 2 (1) 1 1" in totals.replace("\n", " ")
    rows = {s["anchor"]: s for s in data["sentences"]}
    assert sorted(visible_rows(browser)) == sorted(rows)
    # The uncovered sentence stands out: its row is marked, and says nothing checks it.
    secret = browser.find_element(By.ID, "toy:2#2")
    assert "s-uncovered" in secret.get_attribute("class")
    assert secret.value_of_css_property("border-left-color") == "rgba(207, 34, 46, 1)"
    covered = browser.find_element(By.ID, "toy:1#1")
    assert covered.value_of_css_property("border-left-color") != \
        secret.value_of_css_property("border-left-color")
    # Each sentence with its scenarios beside it (not under it), as Catala lays out law.
    words = covered.find_element(By.CSS_SELECTOR, ".words")
    checks = covered.find_element(By.CSS_SELECTOR, ".checks")
    assert checks.location["x"] > words.location["x"] + words.size["width"] - 1
    assert "Drawing takes the top card" in checks.text and "pass" in checks.text
    bar = browser.find_element(By.ID, "filters")
    bar.find_element(By.CSS_SELECTOR, "button[data-pick=uncovered]").click()
    assert visible_rows(browser) == ["toy:2#2"]
    assert browser.find_element(By.ID, "shown").text == "1"
    hidden = browser.find_element(By.ID, "g/toy:1")  # a rule with nothing left to show
    assert not hidden.is_displayed()
    screenshot(browser, tmp_path / "coverage.png")
    bar.find_element(By.CSS_SELECTOR, "button[data-pick=all]").click()
    assert sorted(visible_rows(browser)) == sorted(rows)
    # Context sentences are listed apart, never among the rows the filters count.
    context = browser.find_element(By.ID, "toy:90.1#1")
    assert context.is_displayed() and "Nobody starts with a card" in context.text
    assert context.get_attribute("data-row") is None
    assert console_errors(browser) == []
