"""The kill matrix: every mutant of every game is flagged on exactly the rules it breaks.

Run in this process through the harness (``oracle.mutants.harness``), one test per mutant so
that pytest-xdist spreads them over the cores. Two further tests keep the harness honest:
it gives the statuses a real pytest run gives, and leaving out the scenarios a mutant
cannot reach changes no verdict.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from oracle.mutants import game_mutants
from oracle.mutants.harness import (
    game_cases,
    mutant_outcomes,
    prunable_names,
    recording_class,
    trace_cases,
)
from oracle.mutants.selftest import kill_row
from oracle.suite.games import discover_games

GAMES = discover_games()
ROOT = Path(__file__).resolve().parent.parent
MUTANTS = [(game.id, m.name) for game in GAMES.values() for m in game_mutants(game)]


def mutant(game: str, name: str) -> Any:
    return next(m for m in game_mutants(GAMES[game]) if m.name == name)


@functools.cache
def traces(game: str, base: type) -> Any:
    """Every scenario of a game on a recording reference engine (once per xdist worker)."""
    return trace_cases(GAMES[game], base, game_cases(GAMES[game]))


def test_the_reference_engines_pass_every_scenario_in_the_harness():
    for game in GAMES.values():
        base = game_mutants(game)[0].base
        statuses = {o.status for o, _ in traces(game.id, base).values()}
        assert statuses == {"pass"}, game.id


@pytest.mark.parametrize("game, name", MUTANTS, ids=[f"{g}/{n}" for g, n in MUTANTS])
def test_every_mutant_is_flagged_on_exactly_the_rules_it_breaks(game, name):
    m = mutant(game, name)
    row = kill_row(GAMES[game], GAMES, m, traces(game, m.base))
    assert not row.problem, row.problem
    assert sorted(row.flagged) == sorted(row.breaks), (
        f"{game}/{name} ({row.change}): breaks {row.breaks}, flagged {row.flagged}")


def test_every_testable_id_of_every_game_has_a_mutant():
    for game in GAMES.values():
        testable = {r.id for r in game.catalog.rules if r.testable}
        declared = {b for m in game_mutants(game) for b in m.breaks}
        assert testable <= declared, (game.id, sorted(testable - declared))
        assert declared <= testable, (game.id, sorted(declared - testable))


@pytest.mark.parametrize("game, name", MUTANTS[::12], ids=[f"{g}/{n}" for g, n in MUTANTS[::12]])
def test_running_only_the_reachable_scenarios_changes_no_status(game, name):
    """Pruning is exact: a sample of mutants, run on every scenario and on the reachable
    ones only, give every scenario the same status."""
    m = mutant(game, name)
    pruned, ran = mutant_outcomes(GAMES[game], GAMES, m, traces(game, m.base))
    full, every = mutant_outcomes(GAMES[game], GAMES, m, None)
    assert every == len(game_cases(GAMES[game])) and ran <= every
    assert [(o.case.name, o.status) for o in pruned] == [(o.case.name, o.status) for o in full]


def test_the_recording_engine_sees_every_way_a_method_is_reached():
    class Base:
        LIMIT = 7

        def handle(self, op):
            return getattr(self, f"op_{op}")()

        def op_a(self):
            return self.helper() + self.prop

        def op_b(self):
            return self.static(1) + self.klass()

        def helper(self):
            return 1

        @property
        def prop(self):
            return 2

        @staticmethod
        def static(x):
            return x

        @classmethod
        def klass(cls):
            return cls.LIMIT

    calls: set[str] = set()
    engine = recording_class(Base, calls)()
    assert engine.handle("a") == 3
    assert calls == {"handle", "op_a", "helper", "prop"}
    calls.clear()
    assert engine.handle("b") == 8
    assert calls == {"handle", "op_b", "static", "klass"}
    from oracle.mutants import Mutant

    assert prunable_names(Mutant("m", (), "", Base, {"op_a": lambda self: 0})) == {"op_a"}
    assert prunable_names(Mutant("m", (), "", Base, {"LIMIT": 3})) is None


@pytest.mark.parametrize("engine", ["mutant:ti4/lazy_reshuffle", "mutant:eu-pop/" +
                                    game_mutants(GAMES["eu-pop"])[0].name])
def test_the_harness_gives_the_statuses_of_a_real_run(pytester, engine):
    """The same scenarios, seeds and verdicts as ``pytest --oracle-engine``."""
    game = engine.partition(":")[2].partition("/")[0]
    result = pytester.runpytest_inprocess(f"--oracle-engine={engine}", f"--oracle-rule={game}",
                                          "--oracle-json=r.json", "-p", "no:cacheprovider")
    assert result.ret == 1, result.stdout.str()
    report = json.loads((pytester.path / "r.json").read_text())
    real = sorted((s["location"], s["name"], s["status"]) for r in report["rules"]
                  for s in r["scenarios"])
    m = mutant(game, engine.rpartition("/")[2])
    outcomes, _ = mutant_outcomes(GAMES[game], GAMES, m, None)
    harness = sorted((o.case.location, o.case.name, str(o.status)) for o in outcomes
                     for _ in o.case.rules)
    assert harness == real


def test_selftest_reports_a_surviving_mutant_with_progress(oracle, pytester):
    """A mutant whose rule no scenario checks survives, and selftest says so (exit 1),
    one line per mutant as it goes, then the matrix."""
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
    run = oracle("selftest", "--features", "games", "--game", "toy", "--json", "k.json")
    assert run.code == 1, run.out + run.err
    assert "[1/1] toy/toy_noop: SURVIVED" in run.out
    assert any(line.split()[:3] == ["toy_noop", "toy", "SURVIVED"]
               for line in run.out.splitlines())
    matrix = json.loads((pytester.path / "k.json").read_text())
    assert matrix["summary"]["survived"] == 1 and matrix["mutants"][0]["missed"] == ["toy:1"]


def test_selftest_list_names_every_mutant_with_its_game_and_ids_and_runs_none(oracle):
    """What a ruling's author checks a scenario against: ``--engine mutant:GAME/NAME``."""
    run = oracle("selftest", "--list", "--game", "ti4")
    assert run.code == 0, run.out + run.err
    lines = run.out.splitlines()
    mutants = game_mutants(GAMES["ti4"])
    assert lines[0] == f"ti4: {len(mutants)} mutants"
    for m in mutants:
        assert f"  mutant:ti4/{m.name}  breaks {', '.join(m.breaks)}" in lines
    assert "eu-pop" not in run.out and "killed" not in run.out
    refused = oracle("selftest", "--list", "--json", "k.json")
    assert refused.code == 2 and "give one or the other" in refused.err


def test_a_committee_folder_s_probes_flag_nothing_in_the_kill_matrix():
    """The example council's superseded and pending rulings on 2.6.2 fail on the reference
    engine itself, as on every mutant: like a run, the kill matrix charges them to nobody."""
    from oracle.suite.games import bundled_features_dir

    council = discover_games([bundled_features_dir(),
                              ROOT / "examples" / "council-rulings"])
    game = council["ti4"]
    m = mutant("ti4", "lazy_reshuffle")
    assert "ti4:2.6.2" not in m.breaks
    row = kill_row(game, council, m, trace_cases(game, m.base, game_cases(game)))
    assert sorted(row.flagged) == sorted(m.breaks), row
    assert {c.name for c in game_cases(game) if c.probe} == {
        "Only one Direct Hit may be played in a window",
        "A card cancelled in a window still counts as played in it"}
