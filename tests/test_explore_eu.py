"""Exploring EU: The Price of Power: the reference engine keeps every invariant; mutants whose
broken rule an invariant covers are found, shrunk and written as scenarios under that rule."""

from __future__ import annotations

import pytest
from hypothesis import Phase, settings

import oracle.steps.common
import oracle.steps.eu_pop  # noqa: F401
from oracle.engines import EngineClient
from oracle.explore import default_budget, explore, load_model
from oracle.games.eu_pop.engine import factory as reference
from oracle.mutants import find_mutant
from oracle.suite.games import bundled_features_dir, discover_games


@pytest.fixture(scope="module")
def eu(tmp_path_factory):
    """The bundled EU game on its own (other bundled games do not matter here)."""
    root = tmp_path_factory.mktemp("games")
    (root / "eu-pop").symlink_to(bundled_features_dir() / "eu-pop")
    return discover_games([root])["eu-pop"]


def test_the_reference_engine_keeps_every_invariant(eu):
    result = explore(eu, EngineClient(reference(), "reference"), 0, default_budget(12))
    assert result.errors == []
    assert len(result.findings) == len(load_model(eu).invariants())
    assert all(f is None for f in result.findings.values()), {
        k: f.message + "\n" + f.scenario for k, f in result.findings.items() if f}
    # One search checks every invariant on every state: 12 games of up to 50 moves.
    assert result.moves > 400
    assert set(result.exercised) == set(result.findings)
    assert {result.status(n) for n in result.findings} <= {"pass", "uncovered"}
    assert result.exercised["cards are conserved"] > 400
    print(f"explored {result.moves} moves in {result.seconds:.1f} s: "
          f"{result.moves / result.seconds:.0f} moves/s")


#: Games a search may play to find its mutant: each is found in nearly every random run
#: within it (``benchmarks/explore_reliability.py``), in 10 to 25 games on average, so a
#: search that stops at its finding seldom plays them all. Why not 40: Hypothesis plays a
#: few games on each table it draws (its simplest, then copies of parts of it), so 40 games
#: are about 10 tables, and a derandomised run of another Hypothesis version missed one.
FOUND_WITHIN = 150


@pytest.mark.parametrize("mutant, invariant, rule, then", [
    ("hands_shown_to_all", "hands are hidden from other viewers",
     "eu-pop:6.cards-in-hand.1", "sees none of the cards in"),
    ("discard_piles_hidden", "discard piles are public", "eu-pop:6.decks.3", "as seen by"),
    ("display_also_discarded", "cards are conserved", "eu-pop:6.action-cards.6",
     "discard pile is "),
    # The engine allows what the rules forbid: the scenario stops there and says so.
    ("step_c_in_any_phase", "the hand limit waits for phase 5 step c",
     "eu-pop:6.cards-in-hand.2", "Then the action is rejected"),
    ("limit_checked_on_draw", "the hand limit waits for phase 5 step c",
     "eu-pop:6.cards-in-hand.2", "no decision is pending"),
    ("step_c_first_player_only", "phase 5 step c brings every hand down to 5",
     "eu-pop:4.5.c.1", "must keep 5 cards"),
    ("costs_go_negative", "monarch power is never gained from a cost",
     "eu-pop:6.action-cards.5", "power"),
    ("duplicate_displays", "at most 2 display cards, never 2 of the same",
     "eu-pop:6.2.display.9", "Then the action is rejected"),
    ("no_display_limit", "a third display card makes its player choose one to discard",
     "eu-pop:6.2.display.10", "must discard 1 card"),
    ("countered_cost_refunded", "a countered card's cost stays paid", "eu-pop:6.2.covert.3",
     'cancels it with "Counterespionage"'),
])
def test_a_mutant_is_found_and_written_as_a_scenario(eu, mutant, invariant, rule, then):
    """Found, and written as a scenario that fails the mutant under its rule. Unshrunk (the
    shrink phase is left out) but for the first and the third mutant: shrinking was 95% of
    these tests' time, and what it does to a game is tested on those two and in
    tests/test_explore.py."""
    _, broken = find_mutant([eu], mutant)
    shrunk = mutant in ("hands_shown_to_all", "display_also_discarded")
    budget = default_budget(FOUND_WITHIN) if shrunk else settings(
        default_budget(FOUND_WITHIN), phases=[Phase.explicit, Phase.reuse, Phase.generate])
    result = explore(eu, EngineClient(broken(), mutant), 0, budget, {invariant})
    finding = result.findings[invariant]
    assert finding is not None, f"{mutant} survived exploration"
    assert finding.confirmed, finding.scenario
    assert finding.scenario.splitlines()[0].split() == [f"@{r}" for r in finding.rules]
    assert f"@{rule}" in finding.scenario.splitlines()[0]
    assert set(finding.rules) & set(broken.breaks)
    assert "Scenario: Explored:" in finding.scenario
    assert then in finding.scenario, finding.scenario
    assert "And the shuffle seed is 0" in finding.scenario
    if shrunk:  # a setup and the few moves that show the slip
        assert len(finding.scenario.splitlines()) <= 18, finding.scenario


def test_every_invariant_cites_catalog_rules(eu):
    ids = set(eu.catalog.ids())
    names = [inv.name for inv in load_model(eu).invariants()]
    assert len(set(names)) == len(names)
    for inv in load_model(eu).invariants():
        assert inv.rules and set(inv.rules) <= ids, inv



def test_an_engine_hiding_the_size_of_hands_breaks_no_invariant(eu):
    """Why: --explore failed 6.cards-in-hand.1 on an engine that shows other viewers a
    hand's count as null ("Bob is not shown how many cards Alice holds"), which
    docs/protocol.md allows: the chapter keeps the cards secret and says nothing of the
    size. Exploration checks the cards only; an engine showing them is still caught above."""
    from oracle.games.eu_pop.engine import ReferenceEngine

    class HandSizeHidden(ReferenceEngine):
        def visible_hand_count(self, viewer, owner):
            return len(owner.hand) if viewer in ("*", owner.name) else None

    result = explore(eu, EngineClient(HandSizeHidden(), "size hidden"), 0, default_budget(4))
    assert result.errors == []
    assert not [f for f in result.findings.values() if f], {
        k: f.message for k, f in result.findings.items() if f}
    assert result.exercised["hands are hidden from other viewers"] > 0
