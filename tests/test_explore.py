"""Exploration: Hypothesis finds what no scenario that ran checks, and says it in Gherkin."""

from __future__ import annotations

from pathlib import Path

import pytest

import oracle.steps.common
import oracle.steps.ti4  # noqa: F401
from oracle.engines import EngineClient
from oracle.explore import default_budget, explore, load_model
from oracle.games.ti4.engine import factory as reference
from oracle.mutants import find_mutant
from oracle.suite.games import bundled_features_dir, discover_games


@pytest.fixture(scope="module")
def ti4(tmp_path_factory):
    """The bundled TI4 game on its own (other bundled games do not matter here)."""
    root = tmp_path_factory.mktemp("games")
    (root / "ti4").symlink_to(bundled_features_dir() / "ti4")
    return discover_games([root])["ti4"]


def test_the_reference_engine_keeps_every_invariant(ti4):
    result = explore(ti4, EngineClient(reference(), "reference"), 0, default_budget(25))
    assert result.errors == {}
    assert result.findings and all(f is None for f in result.findings.values()), result.findings
    assert result.moves > 100


@pytest.mark.parametrize("mutant, invariant, rule, then", [
    ("no_hand_limit", "the hand limit holds after every resolution", "ti4:2.4",
     "must keep 7 cards"),
    ("no_reshuffle", "a depleted deck is reshuffled at once", "ti4:note-4",
     "the action discard pile is empty"),
    ("hand_shown_to_all", "hands are hidden from other viewers", "ti4:2.5",
     "hidden card"),
    ("players_start_with_a_card", "players start with zero cards", "ti4:note-1",
     "holds no cards"),
])
def test_a_mutant_is_found_and_written_as_a_scenario(ti4, mutant, invariant, rule, then):
    _, broken = find_mutant([ti4], mutant)
    result = explore(ti4, EngineClient(broken(), mutant), 0, default_budget(40), {invariant})
    finding = result.findings[invariant]
    assert finding is not None, f"{mutant} survived exploration"
    assert finding.confirmed
    assert f"@{rule}" in finding.scenario.splitlines()[0]
    assert "Scenario: Explored:" in finding.scenario
    assert then in finding.scenario
    assert "And the shuffle seed is 0" in finding.scenario


def test_every_invariant_cites_catalog_rules(ti4):
    ids = set(ti4.catalog.ids())
    for inv in load_model(ti4).invariants():
        assert inv.rules and set(inv.rules) <= ids, inv


def test_the_counterexample_round_trips_through_a_feature_file(oracle, pytester, monkeypatch):
    """Found with the mutant's own scenarios deselected; printed as a scenario, not a
    traceback; emitted; fails the mutant; passes the reference engine. Nothing else is
    written into the current directory (no .hypothesis/)."""
    # Why: pytest-benchmark, where the machine has it installed, makes its own
    # .benchmarks/ folder in every run; that is the plugin's doing, not the oracle's.
    monkeypatch.setenv("PYTEST_ADDOPTS", "-p no:benchmark")
    # The Gherkin parse cache lives in ~/.cache/rules-oracle, and pytester makes HOME
    # the scratch folder: point it elsewhere, as a real user's HOME is.
    monkeypatch.setenv("XDG_CACHE_HOME", str(pytester.path.parent / "xdg-cache"))
    out = pytester.path / "found"
    before = sorted(p.name for p in pytester.path.iterdir())
    run = oracle("run", "--engine", "mutant:lazy_reshuffle", "--rule", "ti4:2.1",
                 "--explore", "--explore-examples", "30", "--explore-out", str(out))
    assert run.code == 1, run.out + run.err
    assert sorted(p.name for p in pytester.path.iterdir()) == sorted(
        [*before, "found", "report.json"])
    # Why: about 800 lines of pluggy traceback came before the counterexample.
    assert "exploration of ti4 found rule violations:" in run.out
    assert "Scenario: Explored: a depleted deck is reshuffled at once" in run.out
    assert "pluggy" not in run.out and "hypothesis/" not in run.out
    assert "explore ti4: [1/" in run.out  # progress: one line per invariant
    failures = run.out.split("= FAILURES =")[1].split("rules-oracle conformance")[0]
    assert len(failures.splitlines()) < 80
    assert "explore eu-pop" not in run.out  # only the selected game is explored
    assert run.status("ti4:2.1") == "pass"
    assert run.status("ti4:note-4") == "fail"  # only exploration ran for note-4
    note4 = next(r for r in run.report["rules"] if r["id"] == "ti4:note-4")
    assert [s["name"] for s in note4["scenarios"]] == ["explore: a depleted deck is "
                                                      "reshuffled at once"]
    files = sorted(Path(out, "ti4").glob("explored-*.feature"))
    assert [f.name for f in files] == ["explored-a-depleted-deck-is-reshuffled-at-once.feature"]
    assert "@ti4:note-4" in files[0].read_text()

    on_mutant = oracle("run", "--engine", "mutant:lazy_reshuffle", "--features", str(out),
                       "--rule", "ti4:note-4", "-k", "explored")
    assert on_mutant.code == 1 and on_mutant.flagged() == {"ti4:note-4"}
    on_reference = oracle("run", "--features", str(out), "--rule", "ti4:note-4",
                          "-k", "explored")
    assert on_reference.code == 0, on_reference.out
    assert on_reference.status("ti4:note-4") == "pass"
