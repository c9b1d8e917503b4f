"""A disagreement is charged to the rule whose sentence states it: games the differential
search found (shrunk), replayed on the reference engine and on a mutant, each charged to the
one rule the mutant breaks, never to the rule a refusal happens to cite or to the rule that
states the move; and reference against reference agrees on the same game.

Why fixed games and not a search: which game a search finds first depends on the model's
whole distribution; the charge of a given game does not, and is what these tests hold
(``benchmarks/diff_sweep.py`` measures the search).
"""

from __future__ import annotations

import pytest

import oracle.steps.common  # noqa: F401
from oracle.engines import ConnectOptions, EngineClient, EngineSpec, connect
from oracle.explore import load_model
from oracle.explore.differential import DiffSearch, Disagreed, render
from oracle.mutants import find_mutant
from oracle.suite.games import discover_games

GAMES = discover_games()

CASES = [
    # Politics as one deal serves the followers clockwise, whatever order they are named in.
    ("ti4", "politics_deal_in_named_order", "ti4:2.2", True,
     ["it is the action phase, Alice's turn", 'the action deck is "Morale Boost"',
      'the action discard pile is "Morale Boost" and "Morale Boost"',
      "Alice has the Politics strategy card"],
     ["Alice resolves the primary ability of Politics, choosing Bob as speaker, and Carol "
      "and Bob resolve its secondary ability"]),
    # A cancelled card's cost is not paid: the planets stay readied.
    ("ti4", "costs_paid_when_cancelled", "ti4:2.8", True,
     ["it is the action phase, Alice's turn", 'Alice holds "Impersonation"',
      'Bob holds "Sabotage"',
      'Alice controls the planet "Arinam" with 1 resources and 2 influence',
      'Alice controls the planet "Lodor" with 3 resources and 1 influence'],
     ['Alice plays "Impersonation" spending the planets "Arinam" and "Lodor" and Bob cancels '
      'it with "Sabotage"']),
    # A discard to the hand limit of a card with a component action is a timing event.
    ("ti4", "hand_limit_discards_open_no_window", "ti4:2.6", False,
     ['Carol holds "Direct Hit", "Sabotage", "Direct Hit", "Morale Boost", '
      '"Insubordination", "Morale Boost", "Sabotage" and "Insubordination"'],
     ["Carol keeps 7 cards"]),
    # Scheming draws one more card for a draw, not one per card drawn.
    ("ti4", "scheming_per_card", "ti4:note-5.2", True,
     ["it is the action phase, Alice's turn", "Bob is the Yssaril player",
      'the action deck is "Sabotage", "Lucky Shot", "Bribery", "Morale Boost", "Spy" and '
      '"Veto"'],
     ["Bob draws 2 action cards"]),
    # A Neural Motivator player dealt before the first in initiative order still draws both
    # cards together (note-5.1 holds): their turn is out of the order (note-5).
    ("ti4", "neural_motivator_dealt_first", "ti4:note-5", True,
     ["it is the status phase", 'Bob has researched "Neural Motivator"',
      'the action deck is "Sabotage", "Lucky Shot", "Bribery", "Morale Boost", "Spy" and '
      '"Veto"'],
     ['the status phase step "Draw Action Cards" is resolved']),
    # Alice's two Neural Motivator cards show what a turn of two is: Bob, the Yssaril player
    # with Neural Motivator too, is asked to discard after two cards, not all three (note-5.2,
    # not Neural Motivator ignored, note-5.1).
    ("ti4", "deal_one_draw_per_card", "ti4:note-5.2", True,
     ["it is the status phase", 'Alice has researched "Neural Motivator"',
      "Bob is the Yssaril player", 'Bob has researched "Neural Motivator"',
      'the action deck is "Sabotage", "Lucky Shot", "Bribery", "Morale Boost", "Spy" and '
      '"Veto"'],
     ['the status phase step "Draw Action Cards" is resolved']),
    # The same in a Politics deal: Alice's two cards show the count.
    ("ti4", "deal_one_draw_per_card", "ti4:note-5.2", True,
     ["it is the action phase, Alice's turn", "Alice has the Politics strategy card",
      "Bob is the Yssaril player",
      'the action deck is "Sabotage", "Lucky Shot", "Bribery", "Morale Boost", "Spy", "Veto" '
      'and "Upgrade"'],
     ["Alice resolves the primary ability of Politics, choosing Bob as speaker, and Bob and "
      "Carol resolve its secondary ability"]),
    # A Politics deal that ran the deck out waits for Alice's discard, then reshuffles and
    # goes on (note-4), which the answer's rule (2.4) does not state.
    ("ti4", "no_reshuffle", "ti4:note-4", True,
     ["it is the action phase, Alice's turn",
      'Alice holds "Repeal Law", "Lucky Shot", "Sabotage" and "Archaeological Expedition"',
      'Bob holds "Assassinate Representative", "Insubordination", "Morale Boost" and '
      '"Sabotage"',
      'the action deck is "Confounding Legal Text", "Confusing Legal Text" and '
      '"Construction Rider"', "Alice has the Politics strategy card",
      "Bob is the Yssaril player", 'the law "Executive Sanctions" is in play'],
     ["Bob keeps 3 cards", "Bob draws 1 action card", "Alice keeps 3 cards",
      'Bob discards "Assassinate Representative"', "Bob keeps 3 cards",
      "Alice resolves the primary ability of Politics, choosing Bob as speaker, and Carol and "
      "Bob resolve its secondary ability", "Alice keeps 3 cards"]),
    # The set-up's hold is 4, not the hand limit checked outside Step C.
    ("eu-pop", "setup_hold_at_the_hand_limit", "eu-pop:6.cards-in-hand.2", True,
     ["it is the draw phase"],
     ["the set-up draw is resolved, each player choosing military, diplomatic and "
      "administrative for their 3 other cards", "the set-up hold is resolved"]),
    # A Display Card's Action marked as a Battle Action is one: used off its player's Turn.
    ("eu-pop", "display_marks_ignored", "eu-pop:6.2.display.6", True,
     ["it is the cleanup phase", 'Alice has "Standing Army" on display with 1 charge',
      "Bob attacks Alice and Carol in a battle"],
     ['Alice uses "Drill Regiments"']),
    # Carol's Reaction in Bob's Turn does not take it.
    ("eu-pop", "reactions_take_the_turn", "eu-pop:6.2.reactions.1", True,
     ['Bob has "Grand Archive" on display with 3 charges',
      'Carol has "Standing Army" on display with 2 charges'],
     ["Alice ends their turn", 'Carol uses "Rapid Muster"', 'Bob uses "Catalogue Records"']),
    # The active player's Reaction leaves their Turn going on.
    ("eu-pop", "reaction_ends_the_turn", "eu-pop:6.2.reactions.1", False,
     ['Carol holds "Grand Archive", "Royal Decree", "Royal Manufactory", "Royal Decree", '
      '"Tax Reform" and "Court Intrigue"'],
     ["Alice draws 2 diplomatic cards", "Alice ends their turn", "Bob ends their turn",
      'Carol starts playing "Court Intrigue"']),
    # Another player's copy of a Display Card does not stop one's own.
    ("eu-pop", "duplicate_anywhere", "eu-pop:6.2.display.9", True,
     ['Alice holds "Grand Archive"', 'Carol holds "Grand Archive"'],
     ['Alice plays "Grand Archive"', "Alice ends their turn", "Bob ends their turn",
      'Carol plays "Grand Archive"']),
    # The dice a Battle Action gave stay when the next adds its own.
    ("eu-pop", "dice_replaced", "eu-pop:6.2.battle.4", False,
     ['the administrative deck is "Tax Reform"',
      'Alice has "Standing Army" on display with 2 charges',
      "Bob attacks Alice and Carol in a battle"],
     ["Alice draws 1 military card", 'Alice plays "Bold Gambit" choosing a cavalry die',
      'Alice uses "Drill Regiments"']),
    # A play refused while its player holds 6 cards, which the same game with 5 allows: the
    # hand limit checked outside Step C, not the Reaction's moment the refusal looks like.
    ("eu-pop", "oversized_hand_cannot_play", "eu-pop:6.cards-in-hand.2", True,
     ['Bob holds "Royal Decree", "Counterespionage", "Counterespionage", "Court Intrigue", '
      '"Counterespionage" and "Counterespionage"'],
     ['Bob plays "Court Intrigue"']),
    # The same, the hand grown by draws (the game with the last draw left out allows it),
    # not the rule that states a play.
    ("eu-pop", "oversized_hand_cannot_play", "eu-pop:6.cards-in-hand.2", True,
     ['the diplomatic deck is "Counterespionage"'],
     ["Alice draws 1 military card", "Alice draws 2 military cards",
      "Alice draws 1 military card", "Alice draws 2 administrative cards",
      "Alice draws 2 diplomatic cards", 'Alice plays "Forced March"']),
    # A Reaction refused off its player's Turn while they hold 6 cards, which the game with 5
    # refuses too: the Reaction's rule, not the hand's size.
    ("eu-pop", "reactions_on_own_turn", "eu-pop:6.2.reactions.1", True,
     ['Bob holds "Royal Decree", "Counterespionage", "Counterespionage", "Court Intrigue", '
      '"Counterespionage" and "Counterespionage"'],
     ['Bob plays "Court Intrigue"']),
]


def _client(game_id: str) -> EngineClient:
    return connect(EngineSpec.parse("reference"), {game_id: GAMES[game_id]},
                   ConnectOptions(guard=False))


def _disagreement(game_id: str, second: EngineClient, given: list[str],
                  moves: list[str]) -> tuple[DiffSearch, Disagreed | None]:
    game = GAMES[game_id]
    search = DiffSearch(game, load_model(game), _client(game_id), second, 0,
                        ("reference", "second"))
    given = ["the players are Alice, Bob and Carol", *given]
    try:
        duel = search.set_up(given)
        assert duel is not None and search.check(duel)
        for move in moves:
            assert search.play(duel, move), move
            assert search.check(duel), move
    except Disagreed as found:
        return search, found
    return search, None


@pytest.mark.parametrize("game_id, mutant, rule, confirmed, given, moves", CASES,
                         ids=[f"{c[1]}-{n}" for n, c in enumerate(CASES)])
def test_a_disagreement_is_charged_to_the_rule_its_mutant_breaks(
        game_id, mutant, rule, confirmed, given, moves):
    _, broken = find_mutant([GAMES[game_id]], mutant)
    assert rule in broken.breaks
    search, found = _disagreement(game_id, EngineClient(broken(), mutant), given, moves)
    assert found is not None, f"{mutant} agrees with the reference engine on this game"
    assert found.rules == (rule,), (found.rules, found.why, str(found))
    assert found.lines[-1] in (f"When {moves[-1]}", "Then the action is rejected")
    finding = render(search, found)
    assert finding.confirmed is confirmed, finding.scenario
    assert _disagreement(game_id, _client(game_id), given, moves)[1] is None
