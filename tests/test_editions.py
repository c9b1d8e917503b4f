"""``rules-oracle run --edition NAME``: the suite and rulings as of one edition of the rules.

Why: the Russian translation is an older, shorter edition of the TI4 section (28.x, four
notes fewer). Run as of it, a scenario resting on a sentence it lacks cannot be tested
against it: ``untestable: not in this edition``, never run, never a pass. The scenarios
expected untestable here are found by a plain scan of the feature files (test_drift.citing),
not by the code under test.
"""

from __future__ import annotations

from pathlib import Path

from test_citations import CATALOG, GOOD, MANIFEST
from test_drift import RUSSIAN, citing
from test_suite_checks import write_toy

from oracle.report.model import load_report

REPO = Path(__file__).resolve().parents[1]
LACKED = ("ti4:note-2#1", "ti4:note-5.1#1", "ti4:note-5.2#1")


def test_as_of_the_russian_edition(oracle, pytester) -> None:
    run = oracle("run", "--rule", "ti4", "--features", str(RUSSIAN), "--edition", "ru")
    assert run.code == 0, run.out + run.err
    assert "ti4 as of edition ru" in run.out
    untestable = {s["name"].partition(" [")[0] for s in run.scenarios("untestable")}
    expected = set().union(*(citing(a, REPO / "features" / "ti4", RUSSIAN) for a in LACKED))
    assert untestable == expected and len(expected) >= 8
    for scenario in run.scenarios("untestable"):
        assert scenario["message"].startswith("not in this edition: ru lacks ti4:note-")
        assert "steps" not in scenario  # never run: no step
    rules = {r["id"]: r for r in run.report["rules"]}  # type: ignore[index]
    for rule in ("ti4:note-2", "ti4:note-5.1", "ti4:note-5.2", "ti4:note-11"):
        assert rules[rule]["status"] == "untestable", rule
        assert rules[rule]["reason"] == "not in this edition: ru lacks it"
    assert rules["ti4:2.4"]["status"] == "pass"
    assert rules["ti4:2.4"]["text"].startswith("28.4 У каждого игрока")
    assert rules["ti4:note-3"]["text"].startswith("comment 2 ")
    assert run.report["engine"]["editions"] == {"ti4": "ru"}  # type: ignore[index]
    load_report(pytester.path / "report.json")  # valid against the report schema


def test_as_of_a_rendering_every_sentence_runs_in_its_wording(oracle) -> None:
    run = oracle("run", "--rule", "ti4:2.4", "--edition", "ti4:lrr-wiki")
    assert run.code == 0, run.out + run.err
    assert not run.scenarios("untestable")
    (rule,) = [r for r in run.report["rules"] if r["id"] == "ti4:2.4"]  # type: ignore[index]
    assert rule["text"].startswith("Each player’s hand can have a maximum of seven action "
                                   "cards . If a player")


def test_an_edition_no_game_has_is_refused_with_the_ones_there_are(oracle) -> None:
    run = oracle("run", "--edition", "fr")
    assert run.code == 2
    assert "--edition fr: no game has an edition named 'fr'" in run.err
    assert "ti4: lrr, lrr-wiki, lrr-site, ru" in run.err and "eu-pop: rulebook" in run.err


def test_a_scenario_resting_on_a_sentence_the_edition_lacks(oracle, pytester,
                                                            engine_module) -> None:
    """A toy translation that lacks the second sentence of rule 1: the scenario citing it is
    untestable, the rule's other scenario still runs and decides the rule."""
    catalog = CATALOG.replace("title: Toy rules\n", "title: Toy rules\neditions:\n"
                              "  - {name: en, source: toy.yaml, role: canonical, lang: en}\n"
                              "  - {name: ru, source: toy.ru.md, role: translation, lang: ru}\n")
    catalog = catalog.replace("  - id: '2'\n    text: Players start with no cards.\n",
                              "  - id: '2'\n    text: Players start with no cards.\n"
                              "    translation: {lang: ru, ref: '9.2', text: Без карт.}\n")
    features = write_toy(pytester, engine_module, MANIFEST, catalog, GOOD)
    features(GOOD.replace("""\
    Scenario: Nobody starts with a card
      Cites: toy:2#1
      Then Ann holds no cards
""", """\
    Scenario: Nobody starts with a card
      Cites: toy:2#1
      Then Ann holds no cards

    Scenario: Nobody starts with a card, the second sentence of rule 1 says so
      Cites: toy:2#1
      Cites: toy:1#2
      Then Ann holds no cards
"""))
    run = oracle("run", "--features", "games", "--engine", "toyengine:factory", "--rule", "toy",
                 "--edition", "toy:ru")
    assert run.code == 0, run.out + run.err
    statuses = {s["name"]: s["status"] for s in run.scenarios()}
    assert statuses == {
        "Drawing takes the top card": "untestable",  # cites toy:1#2, which ru lacks
        "Nobody starts with a card": "pass",
        "Nobody starts with a card, the second sentence of rule 1 says so": "untestable"}
    rules = {r["id"]: r for r in run.report["rules"]}  # type: ignore[index]
    assert rules["toy:2"]["status"] == "pass" and rules["toy:2"]["text"] == "9.2 Без карт."
    assert rules["toy:1"]["status"] == "untestable"
    assert rules["toy:1"]["reason"].startswith("not in this edition: ru lacks toy:1#2")
