"""The TI4 deal's diagnostics judge what their sentence states, and nothing when they cannot
read the views: built by hand, the transitions of a status phase's deal.

Why by hand: the moments these tests hold (a deal paused within a Neural Motivator player's
turn, a view without a hand's cards) are rare in a scenario and exact here.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from oracle.games.ti4.diagnostics import (
    DIAGNOSTICS,
    neural_motivator_deal,
    neural_motivator_resumed,
    scheming,
)
from oracle.scenario.diagnosis import Transition, diagnose

GIVEN = {"players": [{"name": "Alice", "technologies": ["Neural Motivator"]},
                     {"name": "Bob"}, {"name": "Carol"}],
         "initiative": ["Alice", "Bob", "Carol"]}
DECK = ["A", "B", "C", "D", "E"]
FULL = [f"x{n}" for n in range(7)]


def view(alice, bob, carol, deck, pending=()):
    return {"players": {"Alice": {"hand": {"cards": alice}}, "Bob": {"hand": {"cards": bob}},
                        "Carol": {"hand": {"cards": carol}}},
            "decks": {"action": {"draw": deck, "discard": []}},
            "pending": [{"player": p, "decision": "keep", "count": 7} for p in pending]}


def deal(alice_after, deck_after, pending=("Alice",)):
    return Transition('the status phase step "Draw Action Cards" is resolved', "status_draw",
                      {"type": "status_draw"}, True, view(FULL, [], [], DECK),
                      view(alice_after, [], [], deck_after, pending), GIVEN)


def keep(before, after):
    return Transition("Alice keeps 7 cards", "choose", {"type": "choose", "player": "Alice"},
                      True, before, after, GIVEN)


def test_a_deal_paused_for_the_neural_motivator_player_after_one_card_is_no_verdict_yet():
    paused = deal([*FULL, "A"], DECK[1:])
    assert neural_motivator_deal([paused], 0) is None
    # It goes on to Bob without Alice's second card: note-5.1 is broken now.
    on = keep(paused.after, view(FULL, ["B"], ["C"], DECK[3:]))
    assert "Bob, Carol drew before their second" in neural_motivator_resumed([paused, on], 1)
    # Alice's second card first (a draw of its own, and the limit again): note-5.1 holds.
    second = keep(paused.after, view([*FULL[:6], "A", "B"], [], [], DECK[2:], ("Alice",)))
    assert neural_motivator_resumed([paused, second], 1) is None


def test_a_deal_that_went_on_past_one_card_breaks_note_5_1_at_once():
    went_on = replace(deal([*FULL, "A"], DECK[1:]),
                      after=view([*FULL, "A"], ["B"], ["C"], DECK[3:], ("Alice",)))
    assert "received 1 card, not both" in neural_motivator_deal([went_on], 0)


def test_an_unreadable_view_is_no_verdict_on_the_deal():
    """A hand the referee's view does not show (an engine error) is not "the deal is wrong":
    the diagnostics asking raise with the check and the action named, and nothing is
    charged."""
    blind = deal([*FULL, "A", "B"], DECK[2:], ())
    blind.after["players"]["Bob"]["hand"]["cards"] = None
    with pytest.raises(ValueError, match="draw_from_top cannot be told from the views"):
        neural_motivator_deal([blind], 0)
    with pytest.raises(ValueError, match="Draw Action Cards"):
        scheming([blind], 0)
    assert diagnose([blind], DIAGNOSTICS, {"neural-motivator": "ti4:note-5.1",
                                           "scheming": "ti4:note-5.2"}.get) is None
