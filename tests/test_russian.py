"""Russian features (``# language: ru``): the same step definitions through their Russian
phrasings, the same per-rule verdicts as the English scenarios they translate, on the
reference engine and on every TI4 mutant; ``--lang ru`` shows the Russian texts (28.x).
"""

from __future__ import annotations

import functools
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from oracle.games.ti4.mutants import ALL as TI4_MUTANTS
from oracle.mutants.harness import game_cases, mutant_outcomes, rule_statuses, trace_cases
from oracle.report.build import rule_status
from oracle.report.model import Status
from oracle.suite.features import read_feature
from oracle.suite.games import bundled_features_dir, discover_games
from oracle.suite.lint import rule_tags
from oracle.suite.vocabulary import vocabulary_for

ROOT = Path(__file__).resolve().parent.parent
RUSSIAN = ROOT / "examples" / "russian"
RU_FILE = "action-cards-ru.feature"


def scenarios_by_rule(paths: list[Path]) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for path in paths:
        for scenario in read_feature(path).scenarios:
            for rule in rule_tags(scenario.tag_names):
                counts[rule] += 1
    return counts


RU_COUNTS = scenarios_by_rule(sorted(RUSSIAN.glob("ti4/*.feature")))
RULES = sorted(RU_COUNTS)


def test_the_russian_folder_translates_every_scenario_of_every_rule():
    """Every TI4 rule a scenario checks has all its scenarios in Russian too."""
    english = scenarios_by_rule(discover_games()["ti4"].feature_files())
    assert set(RULES) == set(english)
    assert {r: english[r] for r in RULES} == dict(RU_COUNTS)


def test_a_russian_step_is_the_english_step_it_stands_for():
    words = vocabulary_for(discover_games()["ti4"])
    assert words.english('у Alice на руке "Sabotage" и 2 скрытые карты с точки зрения '
                         "зрителя") == 'Alice holds "Sabotage" and 2 hidden cards as seen by ' \
                                      "a spectator"
    assert words.english("Alice берёт 2 карты действий") == "Alice draws 2 action cards"
    english = 'Alice holds "Sabotage"'
    assert words.english(english) is english  # English never looks at the table
    [ru] = words.match("then", 'у Alice на руке "Sabotage"')
    assert [ru] == words.match("then", english)  # one definition, two phrasings


def verdicts_by_language(report: dict) -> dict[str, dict[str, Status]]:
    """Each selected rule's status computed from its English and its Russian scenarios
    apart (failures charged to it included)."""
    statuses: dict[str, dict[str, list[Status]]] = {"en": defaultdict(list),
                                                    "ru": defaultdict(list)}
    for rule in report["rules"]:
        for s in rule["scenarios"]:
            lang = "ru" if RU_FILE in s["location"] else "en"
            statuses[lang][rule["id"]].append(Status(s["status"]))
    return {lang: {r: rule_status(True, statuses[lang][r]) for r in RULES}
            for lang in statuses}


def test_russian_and_english_give_the_same_verdicts_on_the_reference_engine(pytester):
    """A real run (pytest, the plugin, the report) of both languages' scenarios."""
    result = pytester.runpytest_inprocess(
        "--oracle-engine=reference", f"--oracle-features={RUSSIAN}", "--oracle-json=r.json",
        *(f"--oracle-rule={r}" for r in RULES), "-p", "no:cacheprovider", "-q")
    report = json.loads((pytester.path / "r.json").read_text())
    by_language = verdicts_by_language(report)
    assert by_language["ru"] == by_language["en"], result.stdout.str()
    assert set(by_language["ru"].values()) == {Status.PASS}
    ran = {s["location"] for r in report["rules"] for s in r["scenarios"]}
    assert any(RU_FILE in where for where in ran) and any(RU_FILE not in w for w in ran)


@functools.cache
def _both_languages() -> tuple[Any, dict[str, Any], Any]:
    """TI4 with the Russian folder beside the English features, and the scenarios of the
    translated rules, in both languages, traced on a recording reference engine (once per
    xdist worker): the Russian scenarios are compared with the English ones they
    translate, not with the rest of the suite."""
    games = discover_games([bundled_features_dir(), RUSSIAN])
    game = games["ti4"]
    cases = [c for c in game_cases(game) if set(c.rules) & set(RULES)]
    return game, games, trace_cases(game, TI4_MUTANTS[0].base, cases)


def _statuses_by_language(outcomes: list[Any]) -> dict[str, dict[str, Status]]:
    """Each of RULES' status from its English and its Russian scenarios apart (a blocked
    scenario charging the rule that blocked it, as in a report)."""
    found = {lang: rule_statuses(o for o in outcomes
                                 if (RU_FILE in o.case.location) == (lang == "ru"))
             for lang in ("en", "ru")}
    return {lang: {r: found[lang].get(r, rule_status(True, [])) for r in RULES}
            for lang in found}


@pytest.mark.parametrize("name", [m.name for m in TI4_MUTANTS])
def test_russian_and_english_give_the_same_verdicts_on_every_mutant(name):
    """Through the kill matrix's harness (each scenario as a run renders it, through the
    same steps, seeds and verdicts; ``tests/test_selftest.py`` holds it to real runs), so
    that all of TI4's mutants fit in the suite's time: a scenario that reaches none of a
    mutant's methods keeps the reference engine's outcome."""
    game, games, traces = _both_languages()
    mutant = next(m for m in TI4_MUTANTS if m.name == name)
    outcomes, _ = mutant_outcomes(game, games, mutant, traces, cases=list(traces))
    by_language = _statuses_by_language(outcomes)
    assert by_language["ru"] == by_language["en"], name
    broken = set(mutant.breaks) & set(RULES)
    if broken:  # a mutant of these rules is caught in Russian too (blocked ones charged)
        assert {by_language["ru"][r] for r in broken} & {Status.FAIL, Status.ERROR}, broken


def test_lang_ru_shows_the_russian_texts_and_numbers(pytester):
    result = pytester.runpytest_inprocess(
        "--oracle-engine=reference", f"--oracle-features={RUSSIAN}", "--oracle-json=r.json",
        "--oracle-markdown=r.md", "--oracle-rule=ti4:2.3", "--oracle-lang=ru", "-p",
        "no:cacheprovider")
    assert result.ret == 0, result.stdout.str()
    report = json.loads((pytester.path / "r.json").read_text())
    texts = {r["id"]: r["text"] for r in report["rules"]}
    assert texts["ti4:2.3"].startswith("28.3 Когда игрок берёт карту действия")
    assert texts["ti4:2.4.1"].startswith("28.4 а) ")
    assert "28.3 Когда игрок берёт" in (pytester.path / "r.md").read_text()
    result.stdout.fnmatch_lines(["*ti4:2.3 *pass*28.3 Когда игрок*"])


def test_a_russian_rejection_needs_its_twin_too(tmp_path):
    from oracle.suite.games import bundled_features_dir
    from oracle.suite.lint import check_suite, check_twins

    folder = tmp_path / "ru" / "ti4"
    folder.mkdir(parents=True)
    (folder / "twin.feature").write_text(
        "# language: ru\nФункция: без близнеца\n\n  @ti4:2.4\n  Правило: 28.4\n"
        "    Cites: ti4:2.4#2 \"выбрать 7 карт\"\n\n"
        "    Сценарий: Оставить шесть карт нельзя\n      Дано игроки: Alice и Bob\n"
        "      И у Alice на руке 7 карт\n      И колода действий: \"Sabotage\" и 2 другие "
        "карты\n      Когда Alice берёт 1 карту действия\n      И Alice оставляет 6 карт\n"
        "      Тогда действие отклонено\n", encoding="utf-8")
    games = discover_games([bundled_features_dir(), tmp_path / "ru"])
    assert games["ti4"].twins_required  # TI4's manifest says 'twins: required'
    # So the suite check refuses it before any engine runs, and nothing else of the file.
    [refused] = check_suite(games.values(), games).problems
    assert "this scenario expects a rejection but has no twin" in refused.message
    assert (refused.path.name, refused.line) == ("twin.feature", 8)
    # Read in English, the Russian outcome step counts as the rejection it is.
    scenarios = read_feature(folder / "twin.feature").scenarios
    assert check_twins(list(scenarios)) == []  # unread, it would pass unnoticed
    [problem] = check_twins(list(scenarios), vocabulary_for(games["ti4"]))
    assert "this scenario expects a rejection but has no twin" in problem.message
    assert problem.line == 8
