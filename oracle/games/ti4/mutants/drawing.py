"""Mutants of drawing and dealing: ti4:2.1, 2.2, 2.3, note-1, note-4, note-5, 5.1, 5.2.

Each is a slip an engine written elsewhere makes: a count off, a card taken from the wrong
end, a deal in the wrong order or at the wrong moment, a success reported with nothing done.
"""

from __future__ import annotations

from typing import Any

from oracle.games.kit.slips import returns
from oracle.games.ti4.engine import ReferenceEngine as Ref
from oracle.games.ti4.mutants.base import mutant
from oracle.mutants import Mutant

# -- ti4:2.1 ---------------------------------------------------------------------------------


def _status_draw_in_any_phase(self: Ref, action: Any) -> None:
    real, self.g.phase = self.g.phase, "status"
    try:
        Ref.act_status_draw(self, action)
    finally:
        self.g.phase = real


def _deal_to_empty_hands_only(self: Ref) -> list[tuple[str, int]]:
    return [(n, c) for n, c in Ref.status_dealing_queue(self) if not self.g.players[n].hand]


# -- ti4:2.2 ---------------------------------------------------------------------------------


def _free_politics_secondary(self: Ref, action: Any) -> None:
    player = self.player(action.get("player"))
    player.command_tokens["strategy"] = player.command_tokens.get("strategy", 0) + 1
    Ref.act_politics_secondary(self, action)


def _secondary_keeps_token(self: Ref, action: Any) -> None:
    Ref.act_politics_secondary(self, action)
    self.player(action.get("player")).command_tokens["strategy"] += 1


def _holder_uses_secondary(self: Ref, action: Any) -> None:
    player = self.player(action.get("player"))
    held, player.strategy_cards = player.strategy_cards, []
    try:
        Ref.act_politics_secondary(self, action)
    finally:
        player.strategy_cards = held


def _secondary_any_time(self: Ref, card: str) -> bool:
    return True


def _neural_motivator_on_politics(self: Ref, player: Any) -> int:
    return self.POLITICS_DRAW + (self.NEURAL_MOTIVATOR in player.technologies)


def _politics_in_initiative_order(self: Ref, active: Any, followers: list[Any]) -> list[Any]:
    return sorted(followers, key=lambda f: self.g.initiative.index(f.name))


# -- ti4:2.3 ---------------------------------------------------------------------------------


def _draw_ignores_count(self: Ref, action: Any) -> None:
    Ref.act_draw(self, {**action, "count": 1})


def _draw_from_bottom(self: Ref, count: int) -> list[str]:
    self.g.draw.reverse()
    try:
        return Ref.take_from_deck(self, count)
    finally:
        self.g.draw.reverse()


def _draw_does_nothing(self: Ref, action: Any) -> None:
    self.player(action.get("player"))
    self.emit("drew", player=action.get("player"), count=action.get("count", 1))


def _drawn_card_stays_in_deck(self: Ref, count: int) -> list[str]:
    taken = Ref.take_from_deck(self, count)
    self.g.draw.extend(taken)
    return taken


# -- ti4:note-1 ------------------------------------------------------------------------------


def _first_in_initiative_starts_with_two(self: Ref, player: Any) -> int:
    return 2 if player.name == self.g.initiative[0] else 0


# -- ti4:note-4 ------------------------------------------------------------------------------


def _reshuffle_keeps_discard(self: Ref) -> None:
    game = self.g
    if not game.draw and game.discard:
        game.draw = list(game.discard)
        game.rng.shuffle(game.draw)


def _reshuffle_after_the_draw(self: Ref, count: int) -> list[str]:
    taken = []
    for _ in range(count):
        if not self.g.draw:
            break
        taken.append(self.g.draw.pop(0))
    if taken:
        self.reshuffle_if_depleted()
    return taken


# -- ti4:note-5, note-5.1, note-5.2 ----------------------------------------------------------


def _seat_order(self: Ref) -> list[str]:
    return list(self.g.seats)


def _reverse_initiative(self: Ref) -> list[str]:
    return list(reversed(self.g.initiative))


def _clockwise_from_first(self: Ref) -> list[str]:
    seats, first = self.g.seats, self.g.initiative[0]
    start = seats.index(first)
    return seats[start:] + seats[:start]


def _neural_motivator_second_pass(self: Ref) -> list[tuple[str, int]]:
    order = self.dealing_order()
    counts = {n: self.status_draw_count(self.g.players[n]) for n in order}
    return [(n, 1) for n in order] + [(n, counts[n] - 1) for n in order if counts[n] > 1]


def _neural_motivator_dealt_first(self: Ref) -> list[tuple[str, int]]:
    queue = Ref.status_dealing_queue(self)
    return sorted(queue, key=lambda entry: entry[1] == self.STATUS_DRAW)


def _neural_motivator_first_round_only(self: Ref, player: Any) -> int:
    if self.g.round > 1:
        return self.STATUS_DRAW
    return Ref.status_draw_count(self, player)


def _deal_waits_only_for_limit(self: Ref) -> bool:
    return any(p.decision == "keep" for p in self.g.pending)


def _scheming_discards_at_once(self: Ref, player: Any, count: int) -> None:
    if count <= 0:
        return
    extra = self.scheming_extra(player)
    drawn = self.take_from_deck(count + extra)
    player.hand.extend(drawn)
    if extra and drawn:
        self.discard_card(player.hand.pop())  # the engine picks the card, not the player
    self.hand_changed(player)


def _deal_one_draw_per_card(self: Ref, name: str, count: int) -> list[tuple[str, int]]:
    return [(name, 1)] * count  # each card of a player's turn in a deal a draw of its own


def _scheming_per_card(self: Ref, player: Any, count: int) -> None:
    if count <= 0:
        return
    extra = self.scheming_extra(player) * count  # one per card drawn, not one per draw
    self.draw_cards(player, count + extra, extra)


MUTANTS: tuple[Mutant, ...] = (
    # ti4:2.1
    mutant("status_draw_in_any_phase", ("2.1",),
           "the status phase's draw step can be run in any phase",
           act_status_draw=_status_draw_in_any_phase),
    mutant("status_draws_two", ("2.1",),
           "the status phase deals two cards to every player", STATUS_DRAW=2),
    mutant("status_draw_deals_nothing", ("2.1",),
           "the status phase's draw step is accepted and deals nobody a card",
           status_dealing_queue=lambda self: []),
    mutant("status_deal_skips_holders", ("2.1",),
           "the status phase deals only to players whose hand is empty",
           status_dealing_queue=_deal_to_empty_hands_only),
    mutant("status_steps_in_any_order", ("2.1",),
           "the status phase's steps may be resolved in any order, action cards drawn after "
           "later steps",
           status_step_ready=lambda self, step: None),
    # ti4:2.2
    mutant("free_politics_secondary", ("2.2",),
           "Politics' secondary ability costs no strategy token",
           act_politics_secondary=_free_politics_secondary),
    mutant("politics_secondary_keeps_token", ("2.2",),
           "Politics' secondary ability checks for a strategy token but never spends it",
           act_politics_secondary=_secondary_keeps_token),
    mutant("politics_holder_uses_secondary", ("2.2",),
           "the player holding Politics may resolve its secondary ability too",
           act_politics_secondary=_holder_uses_secondary),
    mutant("politics_secondary_before_primary", ("2.2",),
           "Politics' secondary ability may be resolved before (or without) the primary",
           secondary_open=_secondary_any_time),
    mutant("politics_draws_one", ("2.2",),
           "Politics draws one action card, not two", POLITICS_DRAW=1),
    mutant("neural_motivator_on_politics", ("2.2",),
           "Neural Motivator adds a card to Politics draws too",
           politics_draw_count=_neural_motivator_on_politics),
    mutant("politics_deal_in_initiative_order", ("2.2",),
           "Politics' secondary ability is dealt in initiative order, not clockwise",
           politics_order=_politics_in_initiative_order),
    mutant("politics_deal_in_named_order", ("2.2",),
           "Politics' secondary ability is dealt in the order the players answered",
           politics_order=lambda self, active, followers: list(followers)),
    # ti4:2.3
    mutant("draw_ignores_count", ("2.3",),
           "a game effect that draws several cards draws only one",
           act_draw=_draw_ignores_count),
    mutant("draw_from_bottom", ("2.3",),
           "every draw takes cards from the bottom of the deck",
           take_from_deck=_draw_from_bottom),
    mutant("draw_does_nothing", ("2.3",),
           "a game effect's draw is accepted and leaves the deck and the hand as they were",
           act_draw=_draw_does_nothing),
    mutant("drawn_card_stays_in_deck", ("2.3",),
           "a drawn card is copied into the hand and also put back under the deck",
           take_from_deck=_drawn_card_stays_in_deck),
    # ti4:note-1
    mutant("players_start_with_a_card", ("note-1",),
           "each player is dealt one action card at the start of the game",
           STARTING_HAND_SIZE=1),
    mutant("players_start_with_a_full_hand", ("note-1",),
           "each player starts the game with a hand of seven action cards",
           STARTING_HAND_SIZE=7),
    mutant("first_player_starts_with_two", ("note-1",),
           "the first player in initiative order starts the game with two action cards",
           starting_hand_size=_first_in_initiative_starts_with_two),
    # ti4:note-4
    mutant("no_reshuffle", ("note-4",),
           "a depleted deck is never rebuilt from the discard pile",
           reshuffle_if_depleted=lambda self: None),
    mutant("lazy_reshuffle", ("note-4",),
           "a depleted deck is rebuilt only at the next draw, not at once",
           after_deck_change=lambda self: None),
    mutant("reshuffle_keeps_discard", ("note-4",),
           "the reshuffled deck is a copy of the discard pile, which stays where it was",
           reshuffle_if_depleted=_reshuffle_keeps_discard),
    mutant("deal_reshuffles_before_discards", ("note-4",),
           "a deal that empties the deck reshuffles at once, before those dealt from it "
           "discard down to their hand limit",
           reshuffle_waits=returns(False)),
    mutant("reshuffle_after_the_draw", ("note-4",),
           "a draw that empties the deck stops there; the deck is rebuilt after it",
           take_from_deck=_reshuffle_after_the_draw),
    # ti4:note-5
    mutant("deals_in_seat_order", ("note-5",),
           "several players are dealt cards in seat order, not initiative order",
           dealing_order=_seat_order),
    mutant("deals_in_reverse_initiative", ("note-5",),
           "several players are dealt cards from the last in initiative order",
           dealing_order=_reverse_initiative),
    mutant("deals_clockwise_from_first", ("note-5",),
           "the deal starts with the first player in initiative order, then goes clockwise",
           dealing_order=_clockwise_from_first),
    # Each Neural Motivator player still draws both cards before the next player in order
    # (ti4:note-5.1#1 holds); what breaks is the place of their turn: "dealt out in initiative
    # order" (ti4:note-5#1).
    mutant("neural_motivator_dealt_first", ("note-5",),
           "Neural Motivator players are dealt before everybody else",
           status_dealing_queue=_neural_motivator_dealt_first),
    # ti4:note-5.1
    mutant("neural_motivator_second_pass", ("note-5.1",),
           "the Neural Motivator card is dealt after everybody else's first card",
           status_dealing_queue=_neural_motivator_second_pass),
    mutant("neural_motivator_ignored", ("note-5.1",),
           "Neural Motivator adds no card in the status phase",
           NEURAL_MOTIVATOR_STATUS_DRAW=1),
    mutant("neural_motivator_first_status_phase_only", ("note-5.1",),
           "Neural Motivator adds a card in the game's first status phase only",
           status_draw_count=_neural_motivator_first_round_only),
    # ti4:note-5.2
    mutant("scheming_after_everyone", ("note-5.2",),
           "the deal goes on while the Yssaril player still owes the Scheming discard",
           dealing_paused=_deal_waits_only_for_limit),
    mutant("scheming_per_card", ("note-5.2",),
           "Scheming adds one card for each card drawn, not one for each draw",
           player_draws=_scheming_per_card),
    mutant("deal_one_draw_per_card", ("note-5.2",),
           "a deal gives a player their cards one draw at a time (Neural Motivator's two, "
           "Politics' two): Scheming adds a card and a discard to each",
           deal_entries=_deal_one_draw_per_card),
    mutant("scheming_draws_no_extra", ("note-5.2",),
           "the Yssaril player draws like everybody else, with no Scheming card",
           SCHEMING_EXTRA=0),
    mutant("scheming_discards_at_once", ("note-5.2",),
           "Scheming's discard is made by the engine (the last card drawn), not chosen",
           player_draws=_scheming_discards_at_once),
)
