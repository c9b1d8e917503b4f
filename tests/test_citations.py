"""Every expectation cites the sentence it rests on: the suite checks refuse what does not.

A small game of its own (a manifest saying ``cites: required``, a catalog whose rules are
split into sentences, one waived, with a Russian translation and a context chapter) shows
each refusal with its file, line and fix; two of them go through ``rules-oracle run`` as a
rules committee would meet them (exit 2 before any engine runs), the rest call the suite
checks in-process. The bundled games' own citations are checked by every run of the suite.
"""

from __future__ import annotations

import pytest
from test_suite_checks import CATALOG as PLAIN_CATALOG
from test_suite_checks import GOOD as PLAIN_GOOD
from test_suite_checks import write_toy

from oracle.protocol import validate as schemas
from oracle.suite.games import discover_games
from oracle.suite.lint import check_suite

MANIFEST = "id: toy\ntitle: Toy\ncatalog: catalog.yaml\ncards: cards.yaml\ncites: required\n"
#: The toy catalog of tests/test_suite_checks.py, its rule 1 split into three sentences (the
#: first translated, the third waived), and a context chapter.
CATALOG = PLAIN_CATALOG.replace("""\
    text: A draw takes the top card of the deck.
    testable: true
""", """\
    text: A draw takes the top card of the deck. The card goes into the hand. Shuffle well.
    testable: true
    sentences:
      - n: 1
        text: A draw takes the top card of the deck.
        translations: {ru: Игрок берёт верхнюю карту колоды.}
      - {n: 2, text: The card goes into the player’s hand — at once.}
      - {n: 3, text: Shuffle well., waiver: no engine shows how well it shuffled}
""") + """\
context:
  - id: '9'
    title: Turn order
    items:
      - {id: '9.1', text: Players draw in seat order.}
"""
#: The toy features of tests/test_suite_checks.py, citing: the Rule: block's line for each of
#: its scenarios, a scenario's own lines (one of them a context sentence) added to it.
GOOD = PLAIN_GOOD.replace("""\
  Rule: 1 A draw takes the top card
""", """\
  Rule: 1 A draw takes the top card
    Cites: toy:1#1 "takes the top card"
""").replace("""\
    Scenario: Drawing takes the top card
""", """\
    Scenario: Drawing takes the top card
      Cites: toy:1#2 "goes into the player's hand - at once"
      Cites: toy:9.1#1
""").replace("""\
    Scenario: Nobody starts with a card
""", """\
    Scenario: Nobody starts with a card
      Cites: toy:2#1
""")


@pytest.fixture
def toy(pytester, engine_module):
    """The toy game, citing; a function to (re)write its feature file."""
    return write_toy(pytester, engine_module, MANIFEST, CATALOG, GOOD)


def problems(pytester) -> list[str]:
    games = discover_games([pytester.path / "games"])
    return [str(p) for p in check_suite([games["toy"]], games).problems]


def test_cited_scenarios_pass_and_their_reports_carry_the_anchors(oracle, toy):
    run = oracle("run", "--features", "games", "--engine", "toyengine:factory",
                 "--rule", "toy")
    assert run.code == 0, run.out + run.err
    scenarios = {s["name"]: s for s in run.scenarios()}
    # The Rule: block's lines first, then the scenario's own, each once.
    assert scenarios["Drawing takes the top card"]["cites"] == ["toy:1#1", "toy:1#2",
                                                               "toy:9.1#1"]
    assert scenarios["Nobody starts with a card"]["cites"] == ["toy:2#1"]
    assert schemas.problems("report", run.report) == []
    broken = {**run.report, "rules": [{**r, "scenarios": [{**sc, "cites": ["toy:1"]}
                                                           for sc in r["scenarios"]]}
                                      for r in run.report["rules"]]}
    assert any("cites" in p for p in schemas.problems("report", broken))  # an anchor, or none


def test_a_scenario_that_cites_nothing_is_refused_with_its_rules_sentences(oracle, toy):
    toy(GOOD.replace("      Cites: toy:2#1\n", ""))
    run = oracle("run", "--features", "games", "--engine", "toyengine:factory")
    assert run.code == 2 and run.report is None, run.out + run.err
    assert ("toy.feature:21: this scenario cites no sentence of the rules; add a 'Cites: "
            "ANCHOR' line" in run.err)
    assert 'Cites: toy:2#1 "Players start with no cards."' in run.err  # the fix, ready
    assert "Scenario: Nobody starts with a card" in run.err


def test_a_quote_not_in_its_sentence_is_refused_showing_the_sentence(oracle, toy):
    toy(GOOD.replace('"takes the top card"', '"takes the bottom card"'))
    run = oracle("run", "--features", "games", "--engine", "toyengine:factory")
    assert run.code == 2, run.out + run.err
    assert ("toy.feature:7: the quote 'takes the bottom card' is not in toy:1#1; it reads: "
            "'A draw takes the top card of the deck.'" in run.err)
    assert 'Cites: toy:1#1 "takes the bottom card"' in run.err
    # Said once, though the Rule: block's line is each of its scenarios' citation.
    assert run.err.count("takes the bottom card' is not in") == 1


def test_quotes_dashes_apostrophes_and_spaces_are_normalised(toy, pytester):
    # The catalog has "player’s hand — at once"; the feature "player's hand - at once",
    # and here a no-break space and typographic quotes around the quote.
    toy(GOOD.replace('"goes into the player\'s hand - at once"',
                     "“goes into the player’s\u00a0hand – at once”"))
    assert problems(pytester) == []


@pytest.mark.parametrize(("cites", "expected"), [
    ("toy:1#7", "toy.feature:10: toy:1 has no sentence #7; its sentences: toy:1#1 'A draw "
                "takes the top card of the deck.'; toy:1#2"),
    ("toy:12#1", "toy.feature:10: toy:12#1 is no sentence of the toy catalog; the closest "
                 "anchors: toy:2#1, toy:1#1"),
    ("toy:1", "toy.feature:10: 'toy:1' is not a sentence anchor: write GAME:RULE#N"),
    ("toy:1#1, toy:1#2", "cite one anchor per line"),
    ("toy:1#1 takes the top card", "only a short quote between double quotes may follow"),
    ("toy:1#3", "toy.feature:10: toy:1#3 is waived: no engine shows how well it shuffled. "
                "No scenario can check it"),
    ("toy:3#1", "toy:3#1 is waived: a pointer to another page"),
    ("chess:1#1", "unknown game 'chess' in chess:1#1"),
])
def test_a_citation_naming_no_citable_sentence_is_refused(toy, pytester, cites, expected):
    toy(GOOD.replace('toy:1#2 "goes into the player\'s hand - at once"', cites))
    found = problems(pytester)
    assert any(expected in p for p in found), "\n".join(found)


def test_a_scenario_citing_no_sentence_of_its_rule_is_refused(toy, pytester):
    toy(GOOD.replace("      Cites: toy:2#1\n", "      Cites: toy:9.1#1\n"))
    found = problems(pytester)
    assert any("toy.feature:21: this scenario is tagged @toy:2 but cites no sentence of it"
               in p and 'Cites: toy:2#1 "Players start with no cards."' in p for p in found), \
        "\n".join(found)


def test_every_sentence_of_a_testable_rule_is_cited_or_waived(toy, pytester):
    toy(GOOD.replace("      Cites: toy:1#2 \"goes into the player's hand - at once\"\n", ""))
    found = problems(pytester)
    assert found == [next(p for p in found if "catalog.yaml:1: sentence toy:1#2 is cited by "
                                               "no scenario and not waived" in p)], found


def test_a_ruling_cites_the_sentence_it_refines(toy, pytester):
    ruling = GOOD.replace("  Rule: 2 Players start with no cards\n", (
        "  Rule: 2 Players start with no cards\n    Ruling: r1\n    Source: FAQ 1\n"
        "    Date: 2024-01-02\n    Authority: The Toy Council\n    Status: official\n"))
    toy(ruling.replace("      Cites: toy:2#1\n", "      Cites: toy:1#1\n"))
    found = problems(pytester)
    assert any("this ruling is tagged @toy:2 but cites no sentence of it (a ruling cites the "
               "sentence it refines, beside its own 'Source:')" in p for p in found), found
    toy(ruling)
    assert problems(pytester) == []


def test_a_quote_is_checked_in_the_scenarios_language(toy, pytester):
    """A Russian scenario quotes the Russian text of a sentence the translation has, and
    the English of one it lacks."""
    russian = ("# language: ru\nФункция: Взятие\n\n  @toy:1\n  Правило: 1\n"
               "    Cites: toy:1#1 \"{first}\"\n    Cites: toy:1#2 \"{second}\"\n\n"
               "    Сценарий: Взятие по-русски\n      Тогда у Ann на руке нет карт\n")
    toy(russian.format(first="берёт верхнюю карту", second="goes into the player"),
        name="ru.feature")
    assert not [p for p in problems(pytester) if "ru.feature" in p and "the quote" in p]
    toy(russian.format(first="takes the top card", second="goes into the player"),
        name="ru.feature")
    found = [p for p in problems(pytester) if "ru.feature" in p and "the quote" in p]
    assert len(found) == 1 and ("ru.feature:6: the quote 'takes the top card' is not in "
                                "toy:1#1; its ru text reads: 'Игрок берёт верхнюю карту "
                                "колоды.'") in found[0], found


def test_without_the_manifest_switch_only_written_citations_are_checked(toy, pytester):
    manifest = pytester.path / "games" / "toy" / "game.yaml"
    manifest.write_text(MANIFEST.replace("cites: required\n", ""))
    toy(GOOD.replace("      Cites: toy:2#1\n", ""))
    assert problems(pytester) == []  # an uncited scenario is fine here...
    toy(GOOD.replace('"takes the top card"', '"takes the bottom card"'))
    assert any("is not in toy:1#1" in p for p in problems(pytester))  # ...a wrong quote not
    manifest.write_text(MANIFEST.replace("cites: required", "cites: requried"))
    with pytest.raises(Exception, match=r"game\.yaml:5: 'requried' at cites is not one of "
                       r"required, optional; did you mean 'required'"):
        problems(pytester)
