"""EU mutants of plays, costs, characters, hands, decks and Step C, going wrong the way
engines written by other people do (``oracle.games.eu_pop.mutants`` says how)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from oracle.games.eu_pop.cards import DECKS
from oracle.games.eu_pop.engine import (
    Pending,
    PlayerState,
    PlayRecord,
)
from oracle.games.eu_pop.engine.state import TURN
from oracle.games.eu_pop.mutants.making import KEEPS_CHANGES, Ref, mutant
from oracle.games.kit import REFEREE, Rejected, Rejection
from oracle.games.kit.slips import returns
from oracle.mutants import Mutant

# -- turns and costs ------------------------------------------------------------------------------


def _turn_of_anyone(self: Ref, name: str, doing: str, rule_id: str = TURN) -> Rejection | None:
    if rule_id != TURN:
        return Ref.check_turn(self, name, doing, rule_id)
    real, self.g.active_player = self.g.active_player, name
    try:
        return Ref.check_turn(self, name, doing, rule_id)
    finally:
        self.g.active_player = real


def _turn_in_any_phase(self: Ref, name: str, doing: str, rule_id: str = TURN) -> Rejection | None:
    if rule_id == TURN and self.g.phase != "action":
        return self.check_nothing_being_played(doing)
    return Ref.check_turn(self, name, doing, rule_id)


def _cost_from_richest_pool(self: Ref, player: PlayerState, fact: Any) -> dict[str, int]:
    kind = max(sorted(player.power), key=lambda k: player.power[k])
    return {kind: self.reduced(fact.cost, player.cost_reductions.get(kind, 0)),
            "ducats": self.ducat_cost(player, fact)}


def _power_not_checked(self: Ref, player: PlayerState, cost: dict[str, int],
                       what: str) -> Rejection | None:
    if what.strip("'") in self.facts:  # a card, not an Action on a Display Card
        cost = {k: v for k, v in cost.items() if k == "ducats"}
    return Ref.check_can_pay(self, player, cost, what)


def _ducats_not_checked(self: Ref, player: PlayerState, cost: dict[str, int],
                        what: str) -> Rejection | None:
    return Ref.check_can_pay(self, player, {k: v for k, v in cost.items() if k != "ducats"},
                             what)


def _ducat_cost_unclamped(self: Ref, player: PlayerState, fact: Any) -> int:
    return int(fact.ducats) - player.cost_reductions.get("ducats", 0)


def _action_cost_unclamped(self: Ref, player: PlayerState, action: Any) -> dict[str, int]:
    return {action.power: action.cost - player.cost_reductions.get(action.power, 0)}


def _ducats_taken_before_refusal(self: Ref, player: PlayerState, cost: dict[str, int],
                                 what: str) -> Rejection | None:
    if cost.get("ducats", 0) > player.ducats:
        player.ducats = 0
    return Ref.check_can_pay(self, player, cost, what)


def _card_effect_doubled(self: Ref, record: PlayRecord) -> int:
    gain = Ref.effect_ducats(self, record)
    return 2 * gain if record.action is None else gain


def _effect_when_played(self: Ref, player: PlayerState, record: PlayRecord, kinds: Any,
                        takes_turn: bool, icons: Any) -> None:
    Ref.start(self, player, record, kinds, takes_turn, icons)
    player.ducats += Ref.effect_ducats(self, record)


def _resolved_cards_vanish(self: Ref, record: PlayRecord) -> None:
    fact = self.facts[record.card]
    if self.is_display(fact):
        self.place_on_display(self.g.players[record.player], fact)


# -- appointing -----------------------------------------------------------------------------------


def _displays_not_appointed(self: Ref, fact: Any) -> Rejection | None:
    if self.is_display(fact):
        return Rejection(f"{fact.name!r} is a Display Card: it is played for its Action")
    return None


def _marked_cards_not_appointed(self: Ref, fact: Any) -> Rejection | None:
    if fact.kinds & {"reaction", "battle_action", "covert"}:
        return Rejection(f"{fact.name!r} is marked: it is played for its Action")
    return None


def _appointed_card_discarded(self: Ref, player: PlayerState, fact: Any) -> None:
    player.hand.remove(fact.name)
    self.discard_card(fact.name)


def _appoint_changes_nothing(self: Ref, player: PlayerState, fact: Any) -> None:
    self.emit("appointed", player=player.name, card=fact.name, role=fact.character)


def _roles_swapped(self: Ref, fact: Any) -> str:
    return "advisor" if fact.character == "leader" else "leader"


def _display_play_appoints(self: Ref, record: PlayRecord) -> None:
    Ref.finish_card(self, record)
    fact = self.facts[record.card]
    if self.is_display(fact):
        player = self.g.players[record.player]
        (player.leaders if fact.character == "leader" else player.advisors).append(fact.name)


def _appoint_off_turn(self: Ref, action: Any) -> None:
    player = self.player(action.get("player"))
    real = (self.g.phase, self.g.active_player)
    self.g.phase, self.g.active_player = "action", player.name
    try:
        Ref.act_appoint(self, action)
    finally:
        self.g.phase, self.g.active_player = real


# -- hands and decks ------------------------------------------------------------------------------


def _hands_shown_to_spectators(self: Ref, viewer: str | None, owner: PlayerState) -> list[str]:
    return list(owner.hand) if viewer in (REFEREE, owner.name, None) else []


def _hands_shown_to_players(self: Ref, viewer: str | None, owner: PlayerState) -> list[str]:
    return list(owner.hand) if viewer is not None else []


def _oversized_hand_cannot_play(self: Ref, player: PlayerState, kinds: frozenset[str],
                                what: str, takes_turn: bool, rule_id: str) -> Rejection | None:
    if len(player.hand) > self.HAND_LIMIT:
        return Rejection(f"{player.name} holds more than {self.HAND_LIMIT} cards")
    return Ref.check_timing(self, player, kinds, what, takes_turn, rule_id)


def _draw_from_bottom(self: Ref, deck: str, n: int) -> list[str]:
    taken: list[str] = []
    for _ in range(n):
        self.rebuild_if_needed(deck)
        pile = self.g.decks[deck]
        if not pile.draw:
            break
        taken.append(pile.draw.pop())
    return taken


def _draw_from_the_next_deck(self: Ref, action: Any) -> None:
    deck = action.get("deck")
    if deck in DECKS:
        action = {**action, "deck": DECKS[(DECKS.index(deck) + 1) % len(DECKS)]}
    Ref.act_draw(self, action)


def _discard_to_administrative(self: Ref, card: str) -> None:
    self.g.decks["administrative"].discard.insert(0, card)


def _discard_second_from_top(self: Ref, card: str) -> None:
    self.g.decks[self.deck_of(card)].discard.insert(1, card)


def _discard_top_only(self: Ref, viewer: str | None, deck: str) -> list[str]:
    pile = list(self.g.decks[deck].discard)
    return pile if viewer == REFEREE else pile[:1]


def _discards_hidden_from_spectators(self: Ref, viewer: str | None, deck: str) -> list[str]:
    return list(self.g.decks[deck].discard) if viewer is not None else []


def _rebuild_leaving_bottom_five(self: Ref, deck: str) -> None:
    pile = self.g.decks[deck]
    keep = self.discards_left_out(pile)
    if keep:
        pile.draw, pile.discard = pile.discard[:-keep], pile.discard[-keep:]
    else:
        pile.draw, pile.discard = pile.discard, []
    self.g.rng.shuffle(pile.draw)


def _leave_four(self: Ref, pile: Any) -> int:
    return 4 if len(pile.discard) > self.REBUILD_LEAVES else 0


def _small_pile_not_rebuilt(self: Ref, pile: Any) -> int:
    return self.REBUILD_LEAVES if len(pile.discard) > self.REBUILD_LEAVES else len(pile.discard)


def _small_pile_leaves_one(self: Ref, pile: Any) -> int:
    return self.REBUILD_LEAVES if len(pile.discard) > self.REBUILD_LEAVES else 1


# -- Phase 5, Step C ------------------------------------------------------------------------------


def _last_player_only(self: Ref) -> list[str]:
    return list(self.g.seats[-1:])


def _step_c_asks_everyone(self: Ref, action: Any) -> None:
    Ref.act_discard_down(self, action)
    for name in self.players_in_step_c():
        if self.pending_for(name) is None and self.g.players[name].hand:
            self.add_pending(Pending(name, "keep", self.HAND_LIMIT, "hand"))


def _step_c_keeps_four(self: Ref, pending: Pending) -> None:
    if pending.decision == "keep":
        pending.count = self.HAND_LIMIT - 1
    Ref.add_pending(self, pending)


def _step_c_discards_displays(self: Ref, action: Any) -> None:
    Ref.act_discard_down(self, action)
    for name in self.players_in_step_c():
        player = self.g.players[name]
        while player.display and len(player.hand) + len(player.display) > self.HAND_LIMIT:
            self.discard_display(player, player.display[0])


def _refused_keep_discards(self: Ref, player: PlayerState, choice: Any) -> None:
    try:
        Ref.choose(self, player, choice)
    except Rejected:
        pending = self.pending_for(player.name)
        if pending is not None and pending.source == "hand":
            kept = [str(c) for c in choice.get("keep") or []]
            for card in [c for c in player.hand if c not in kept]:
                player.hand.remove(card)
                self.discard_card(card)
        raise


def _refused_appoint_loses_card(self: Ref, action: Any) -> None:
    try:
        Ref.act_appoint(self, action)
    except Rejected:
        player, card = self.g.players.get(action.get("player")), action.get("card")
        if player is not None and card in player.hand:
            player.hand.remove(card)
        raise


def _keep_any_number(self: Ref, player: PlayerState, choice: Any) -> None:
    pending = self.owed_decision(player.name)
    keep = list(choice.get("keep") or [])
    held = Counter(player.hand)
    if pending.source == "hand" and keep and not Counter(keep) - held:
        self.g.pending.remove(pending)
        self.keep_cards(player, keep)
        return
    Ref.choose(self, player, choice)


def _discard_the_chosen(self: Ref, player: PlayerState, keep: list[str]) -> None:
    rest = list(player.hand)
    for card in keep:
        rest.remove(card)
    Ref.keep_cards(self, player, rest)


def _displays_shrink_the_keep(self: Ref, pending: Pending) -> None:
    if pending.decision == "keep" and self.g.phase == "cleanup":  # Step C's keep
        shown = len(self.g.players[pending.player].display)
        pending.count = max(0, self.HAND_LIMIT - shown)
    Ref.add_pending(self, pending)


HANDS: tuple[Mutant, ...] = (
    mutant("play_on_anyones_turn", ("6.action-cards.2",),
           "any player may play a card for its Action on another player's Turn",
           check_turn=_turn_of_anyone),
    mutant("play_in_any_phase", ("6.action-cards.2",),
           "a card is played for its Action in any phase, not only the Action Phase",
           check_turn=_turn_in_any_phase),
    mutant("cost_from_richest_pool", ("6.action-cards.3",),
           "a card's Monarch Power cost is paid from the player's largest pool",
           card_cost=_cost_from_richest_pool),
    mutant("power_not_checked", ("6.action-cards.3",),
           "a card is played without enough Monarch Power (the pool goes negative)",
           check_can_pay=_power_not_checked),
    mutant("ducats_not_checked", ("6.action-cards.4",),
           "a card is played without enough Ducats (the Ducats go negative)",
           check_can_pay=_ducats_not_checked),
    mutant("ducat_cost_doubled", ("6.action-cards.4",), "a card's Ducat cost is charged twice",
           ducat_cost=lambda self, player, fact: 2 * Ref.ducat_cost(self, player, fact)),
    mutant("ducat_costs_go_negative", ("6.action-cards.5",),
           "a Ducat cost reduced below 0 is paid as a negative amount (Monarch Power is not)",
           ducat_cost=_ducat_cost_unclamped),
    mutant("action_costs_go_negative", ("6.action-cards.5",),
           "the cost of an Action on a Display Card reduced below 0 gives Monarch Power",
           action_cost=_action_cost_unclamped),
    mutant("ducats_taken_before_refusal", ("6.action-cards.4",),
           "a card whose Ducat cost cannot be paid is refused, but the Ducats are taken",
           check_can_pay=_ducats_taken_before_refusal, **KEEPS_CHANGES),
    mutant("card_effect_doubled", ("6.action-cards.6",),
           "a card played for its Action resolves its effect twice",
           effect_ducats=_card_effect_doubled),
    mutant("effect_when_played", ("6.action-cards.6", "6.2.display.5"),
           "a card's (or an Action's) effect happens when it is played, before Reactions and "
           "counters, and not again when it resolves",
           start=_effect_when_played, effect_ducats=returns(0)),
    mutant("resolved_cards_vanish", ("6.action-cards.6",),
           "a resolved card leaves play without reaching the discard pile",
           finish_card=_resolved_cards_vanish),
    mutant("displays_not_appointed", ("6.action-cards.7",),
           "a Display Card cannot be appointed for its character",
           may_appoint=_displays_not_appointed),
    mutant("marked_cards_not_appointed", ("6.action-cards.7",),
           "a Reaction, Battle Action or Covert card cannot be appointed",
           may_appoint=_marked_cards_not_appointed),
    mutant("appointed_card_discarded", ("6.action-cards.8",),
           "an appointed card is discarded instead of serving as a character",
           appoint=_appointed_card_discarded),
    mutant("appoint_changes_nothing", ("6.action-cards.8",),
           "appointing is accepted but the card stays in the hand and nobody serves",
           appoint=_appoint_changes_nothing),
    mutant("every_character_a_leader", ("6.characters.1",),
           "every appointed character becomes a Leader", character_role=returns("leader")),
    mutant("roles_swapped", ("6.characters.1",),
           "Leaders are appointed as Advisors and Advisors as Leaders",
           character_role=_roles_swapped),
    mutant("display_play_appoints", ("6.characters.2",),
           "a Display Card played for its Action also appoints its character",
           finish_card=_display_play_appoints),
    mutant("refused_appoint_loses_card", ("6.characters.2",),
           "a refused appointment still takes the card out of the hand",
           act_appoint=_refused_appoint_loses_card, **KEEPS_CHANGES),
    mutant("appoint_off_turn", ("6.characters.2",),
           "a character is appointed on any player's Turn, in any phase",
           act_appoint=_appoint_off_turn),
    mutant("hands_shown_to_spectators", ("6.cards-in-hand.1",),
           "a spectator sees every hand", visible_hand=_hands_shown_to_spectators),
    mutant("hands_shown_to_players", ("6.cards-in-hand.1",),
           "every player sees every hand (spectators do not)",
           visible_hand=_hands_shown_to_players),
    mutant("oversized_hand_cannot_play", ("6.cards-in-hand.2",),
           "a player holding more than 5 cards may not play until they discard",
           check_timing=_oversized_hand_cannot_play),
    mutant("deck_drawn_from_bottom", ("6.decks.1",), "cards are drawn from the bottom of the deck",
           take_from_deck=_draw_from_bottom),
    mutant("draw_from_the_next_deck", ("6.decks.1",),
           "a draw takes its cards from the deck after the one named",
           act_draw=_draw_from_the_next_deck),
    mutant("discard_to_administrative", ("6.decks.2",),
           "every discarded card goes on the Administrative discard pile",
           discard_card=_discard_to_administrative),
    mutant("discard_second_from_top", ("6.decks.2",),
           "a discarded card is slipped under the top card of its pile",
           discard_card=_discard_second_from_top),
    mutant("discard_top_only", ("6.decks.3",),
           "other viewers see only the top card of each discard pile",
           visible_discard=_discard_top_only),
    mutant("discards_hidden_from_spectators", ("6.decks.3",),
           "spectators do not see the discard piles",
           visible_discard=_discards_hidden_from_spectators),
    mutant("rebuild_leaving_bottom_five", ("6.decks.4",),
           "a rebuilt deck leaves the bottom 5 discards out, not the top 5",
           rebuild=_rebuild_leaving_bottom_five),
    mutant("rebuild_leaves_four", ("6.decks.4",), "a rebuilt deck leaves 4 discards out",
           discards_left_out=_leave_four),
    mutant("small_pile_not_rebuilt", ("6.decks.5",),
           "a discard pile of 5 or fewer is left out whole: the deck stays empty",
           discards_left_out=_small_pile_not_rebuilt),
    mutant("small_pile_leaves_one", ("6.decks.5",),
           "a discard pile of 5 or fewer leaves its top card out",
           discards_left_out=_small_pile_leaves_one),
    mutant("step_c_last_player_only", ("4.5.c.1",), "Step C checks only the last player's hand",
           players_in_step_c=_last_player_only),
    mutant("step_c_asks_everyone", ("4.5.c.1",),
           "Step C asks every player holding cards to discard down, over the limit or not",
           act_discard_down=_step_c_asks_everyone),
    mutant("step_c_keeps_four", ("4.5.c.1",), "Step C asks players to keep 4 cards",
           add_pending=_step_c_keeps_four),
    mutant("step_c_keeps_any_number", ("4.5.c.1",),
           "Step C lets a player keep any number of cards, more or fewer than 5",
           choose=_keep_any_number),
    mutant("refused_keep_discards", ("4.5.c.2",),
           "a refused choice of cards to keep still discards the cards left out of it",
           choose=_refused_keep_discards, **KEEPS_CHANGES),
    mutant("step_c_discards_the_chosen", ("4.5.c.2",),
           "Step C discards the cards the player chose to keep",
           keep_cards=_discard_the_chosen),
    mutant("displays_shrink_the_keep", ("4.5.c.3",),
           "a player over the limit keeps 5 cards less one per Display Card",
           add_pending=_displays_shrink_the_keep),
    mutant("step_c_discards_displays", ("4.5.c.3",),
           "Step C discards Display Cards in play until hand and display hold 5",
           act_discard_down=_step_c_discards_displays),
)
