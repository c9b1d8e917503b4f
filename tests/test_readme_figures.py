"""The README's figures are the suite's: rules, scenarios, mutants and tests, counted.

Why: the README said 59 TI4 scenarios and 157 mutants long after there were 121 and 220; a
figure a newcomer reads first must not drift. Each figure is found by the sentence that
states it and compared with what the code counts now.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from oracle.mutants import game_mutants
from oracle.mutants.harness import game_cases
from oracle.suite.games import discover_games

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
GAMES = discover_games()


def _figures(pattern: str) -> list[tuple[int, ...]]:
    """Every match of ``pattern`` (its spaces match any run of blanks and line breaks), each
    as the numbers it captures; the pattern must match at least once."""
    found = re.findall(pattern.replace(" ", r"\s+"), README)
    assert found, f"the README no longer says {pattern!r}: update this test with it"
    return [tuple(int(n.replace(",", "")) for n in (f if isinstance(f, tuple) else (f,)))
            for f in found]


FIX = "a figure in README.md is stale (left: the README's, right: the suite's); fix the README"


def _counts(game: str) -> tuple[int, int, int, int]:
    """A game's rules, testable rules, scenarios (an Outline's rows each, as a run counts
    them) and untestable rules."""
    rules = GAMES[game].catalog.rules
    testable = sum(1 for r in rules if r.testable)
    return len(rules), testable, len(game_cases(GAMES[game])), len(rules) - testable


def test_the_games_rules_and_scenarios():
    assert _figures(r"Twilight Imperium 4\*\*, [^:]+: (\d+) rules and notes, (\d+) tested by "
                    r"(\d+) scenarios, (\d+) untestable") == [_counts("ti4")], FIX
    assert _figures(r"(\d+) rule statements with ids of our own, (\d+) tested by (\d+) "
                    r"scenarios, (\d+) untestable") == [_counts("eu-pop")], FIX
    every = [_counts(g) for g in GAMES]
    rules, testable = sum(c[0] for c in every), sum(c[1] for c in every)
    assert _figures(r"\n(\d+) rules: (\d+) pass, (\d+) untestable\n") == [
        (rules, testable, rules - testable)], FIX


def test_every_count_of_mutants():
    per_game = {g: len(game_mutants(GAMES[g])) for g in GAMES}
    total = sum(per_game.values())
    assert set(_figures(r"(\d+) mutants\b")) == {(total,)}, FIX
    assert _figures(r"\*mutants\* \((\d+) in all") == [(total,)], FIX
    assert _figures(r"Today: (\d+) mutants \(TI4 (\d+), EU (\d+)") == [
        (total, per_game["ti4"], per_game["eu-pop"])], FIX


def test_the_count_of_tests(request):
    """Within a tenth of the tests collected: a test added needs no README change, a
    hundred do. Only where this session collected the whole suite (no -k, -m or paths)."""
    config = request.config
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS or config.option.keyword \
            or config.option.markexpr:
        pytest.skip("only a run of the whole suite knows how many tests it has")
    (said,), = _figures(r"The suite has about ([\d,]+) tests")
    collected = len(request.session.items)
    assert abs(said - collected) <= collected / 10, (
        f"the README says about {said} tests; there are {collected}")
