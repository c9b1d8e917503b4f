"""The first EU mutants: one or two per rule, the slips the scenarios were written against
(``oracle.games.eu_pop.mutants`` says how mutants are declared)."""

from __future__ import annotations

from typing import Any

from oracle.games.eu_pop.cards import ActionFact, CardFact
from oracle.games.eu_pop.engine import (
    Display,
    Pending,
    PlayerState,
    PlayRecord,
)
from oracle.games.eu_pop.mutants.making import Ref, mutant
from oracle.games.kit import Rejection
from oracle.games.kit.slips import returns
from oracle.mutants import Mutant

# -- the overrides that need a body ---------------------------------------------------------------


def _appoint_taking_the_turn(self: Ref) -> None:
    self.spend_turn()


def _only_plain_cards_appoint(self: Ref, fact: CardFact) -> Rejection | None:
    if fact.kinds != {"action"}:
        return Rejection(f"{fact.name!r} is not a plain Action card")
    return None


def _appoint_keeps_the_card(self: Ref, player: PlayerState, fact: CardFact) -> None:
    roles = player.leaders if self.character_role(fact) == "leader" else player.advisors
    roles.append(fact.name)


def _playing_also_appoints(self: Ref, record: PlayRecord) -> None:
    Ref.finish_card(self, record)
    fact = self.facts[record.card]
    player = self.g.players[record.player]
    (player.leaders if fact.character == "leader" else player.advisors).append(fact.name)


def _display_also_discarded(self: Ref, record: PlayRecord) -> None:
    Ref.finish_card(self, record)
    if self.is_display(self.facts[record.card]):
        self.discard_card(record.card)


def _show_every_hand(self: Ref, viewer: str | None, owner: PlayerState) -> list[str]:
    return list(owner.hand)


def _limit_checked_on_draw(self: Ref, player: PlayerState) -> None:
    if len(player.hand) > self.HAND_LIMIT and self.pending_for(player.name) is None:
        self.add_pending(Pending(player.name, "keep", self.HAND_LIMIT, "hand"))


def _step_c_in_any_phase(self: Ref, action: Any) -> None:
    real, self.g.phase = self.g.phase, "cleanup"
    try:
        Ref.act_discard_down(self, action)
    finally:
        self.g.phase = real


def _first_player_only(self: Ref) -> list[str]:
    return list(self.g.seats[:1])


def _keep_the_first_cards(self: Ref, player: PlayerState, keep: list[str]) -> None:
    Ref.keep_cards(self, player, player.hand[: len(keep)])


def _displays_count(self: Ref, player: PlayerState) -> int:
    return len(player.hand) + len(player.display)


def _mixed_decks(self: Ref, deck: str, in_play: Any) -> list[str]:
    every = [Ref.fresh_deck(self, d, []) for d in ("administrative", "diplomatic", "military")]
    cards = [c for cards in every for c in cards]
    for card in in_play:
        if card in cards:
            cards.remove(card)
    return cards


def _discard_to_bottom(self: Ref, card: str) -> None:
    self.g.decks[self.deck_of(card)].discard.append(card)


def _discards_for_the_referee_only(self: Ref, viewer: str | None, deck: str) -> list[str]:
    return list(self.g.decks[deck].discard) if viewer == "*" else []


def _leave_five_always(self: Ref, pile: Any) -> int:
    return min(self.REBUILD_LEAVES, len(pile.discard))


def _rebuild_at_once(self: Ref, deck: str) -> None:
    self.rebuild_if_needed(deck)


def _one_charge_short(self: Ref, fact: CardFact) -> int:
    return fact.charges - 1


def _face_down_displays(self: Ref, viewer: str | None, owner: PlayerState) -> list[Any]:
    return Ref.visible_display(self, viewer, owner) if viewer in ("*", owner.name) else []


def _anyones_display(self: Ref, name: str, card: str) -> tuple[PlayerState, Display] | None:
    for player in self.g.players.values():
        display = next((d for d in player.display if d.card == card), None)
        if display is not None:
            return player, display
    return None


def _plain_display_actions(self: Ref, action: ActionFact) -> frozenset[str]:
    return action.kinds - {"battle_action", "reaction"}


def _empty_display_stays(self: Ref, player: PlayerState, display: Display) -> None:
    display.charges = 0


def _oldest_display_discarded(self: Ref, player: PlayerState, older: list[str]) -> None:
    self.discard_display(player, self.display_of(player, older[0]))


def _any_step_of_a_battle(self: Ref, name: str, what: str) -> Rejection | None:
    if self.g.battle is None:
        return Ref.check_battle_moment(self, name, what)
    return None


def _pass_forgotten(self: Ref, action: Any) -> None:
    """Accepts the pass, and forgets it."""
    Ref.act_battle_pass(self, action)
    battle = self.g.battle
    assert battle is not None
    battle.passed.clear()


def _battle_actions_on_own_turn(self: Ref, name: str, what: str) -> Rejection | None:
    if self.g.active_player != name:
        return Rejection(f"it is not {name}'s Turn")
    return Ref.check_battle_involvement(self, name, what)


def _new_round_keeps_uses(self: Ref) -> None:
    battle = self.g.battle
    assert battle is not None
    used = set(battle.used)
    Ref.start_round(self)
    battle.used = used


def _new_round_resets_dice(self: Ref) -> None:
    Ref.start_round(self)
    battle = self.g.battle
    assert battle is not None
    battle.dice = {side: [] for side in battle.dice}


def _first_icon_only(self: Ref, icons: tuple[str, ...], chosen: list[str]) -> list[str]:
    return Ref.dice_gained(self, icons[:1], chosen)


def _reaction_takes_the_turn(self: Ref, name: str) -> None:
    self.spend_turn()


def _reactions_in_the_action_phase(self: Ref, name: str, doing: str) -> Rejection | None:
    if self.g.phase != "action":
        return Rejection("a Reaction is played in the Action Phase")
    return None


def _counter_anything(self: Ref, record: PlayRecord) -> bool:
    return not record.countered


def _refund_countered(self: Ref, record: PlayRecord) -> None:
    Ref.dispose_countered(self, record)
    if record.action is None:
        player = self.g.players[record.player]
        for kind, amount in self.card_cost(player, self.facts[record.card]).items():
            if kind == "ducats":
                player.ducats += amount
            else:
                player.power[kind] += amount


def _refund_prevented_uses(self: Ref, record: PlayRecord) -> None:
    Ref.dispose_countered(self, record)
    if record.action is not None:
        player = self.g.players[record.player]
        listed = self.facts[record.card].action(record.action)
        display = next((d for d in player.display if d.card == record.card), None)
        if display is not None and listed is not None:
            display.charges += listed.uses


FIRST: tuple[Mutant, ...] = (
    # -- turns, costs, resolving, appointing
    mutant("cards_take_no_turn", ("6.action-cards.2",),
           "a card played for its Action neither needs nor uses the player's Turn",
           takes_turn=returns(False)),
    mutant("appoint_takes_the_turn", ("6.action-cards.2",),
           "appointing a character uses up the Turn's Action",
           after_minor_action=_appoint_taking_the_turn),
    mutant("cost_from_administrative", ("6.action-cards.3",),
           "every card's Monarch Power cost is paid from the Administrative pool",
           cost_type=returns("administrative")),
    mutant("ducats_ignored", ("6.action-cards.4",), "a card's Ducat cost is never charged",
           ducat_cost=returns(0)),
    mutant("costs_go_negative", ("6.action-cards.5",),
           "a cost reduced below 0 is paid as a negative amount: the player gains",
           reduced=lambda self, amount, reduction: amount - reduction),
    mutant("effects_skipped", ("6.action-cards.6", "6.2.display.5"),
           "a card (or Action) is discarded without its effect being resolved",
           effect_ducats=returns(0)),
    mutant("display_also_discarded", ("6.action-cards.6",),
           "a played Display Card goes on display and onto the discard pile",
           finish_card=_display_also_discarded),
    mutant("only_plain_cards_appoint", ("6.action-cards.7",),
           "only cards played for a plain Action can be appointed",
           may_appoint=_only_plain_cards_appoint),
    mutant("appoint_keeps_the_card", ("6.action-cards.8",),
           "an appointed card also stays in the hand, to be played for its Action",
           appoint=_appoint_keeps_the_card),
    mutant("every_character_an_advisor", ("6.characters.1",),
           "every appointed character becomes an Advisor, Leaders included",
           character_role=returns("advisor")),
    mutant("playing_also_appoints", ("6.characters.2",),
           "playing a card for its Action also appoints its character",
           finish_card=_playing_also_appoints),
    # -- hands and decks
    mutant("hands_shown_to_all", ("6.cards-in-hand.1",),
           "every viewer sees every card in every hand", visible_hand=_show_every_hand),
    mutant("setup_hold_at_the_hand_limit", ("6.cards-in-hand.2",),
           "the set-up's hold is the hand limit: each player keeps five cards, not four",
           SETUP_HOLD=5),
    mutant("limit_checked_on_draw", ("6.cards-in-hand.2",),
           "the hand limit is enforced as soon as a hand grows past 5, not in Step C",
           hand_changed=_limit_checked_on_draw),
    mutant("step_c_in_any_phase", ("6.cards-in-hand.2",),
           "the Step C discard happens whenever it is asked for, in any phase",
           act_discard_down=_step_c_in_any_phase),
    mutant("step_c_first_player_only", ("4.5.c.1",),
           "Step C checks only the first player's hand", players_in_step_c=_first_player_only),
    mutant("step_c_ignores_the_choice", ("4.5.c.2",),
           "Step C keeps the first 5 cards of the hand, whatever the player chose",
           keep_cards=_keep_the_first_cards),
    mutant("displays_count_toward_limit", ("4.5.c.3",),
           "Display Cards in play count towards the 5-card limit",
           cards_toward_limit=_displays_count),
    mutant("decks_mixed", ("6.decks.1",),
           "a new game's three decks are each built from the cards of all three",
           fresh_deck=_mixed_decks),
    mutant("discard_under_the_pile", ("6.decks.2",),
           "a discarded card goes to the bottom of its discard pile, not on top",
           discard_card=_discard_to_bottom),
    mutant("discard_piles_hidden", ("6.decks.3",),
           "only the referee sees the discard piles",
           visible_discard=_discards_for_the_referee_only),
    mutant("rebuild_whole_pile", ("6.decks.4",),
           "an empty deck is rebuilt from the whole discard pile (as in TI4)",
           discards_left_out=returns(0)),
    mutant("rebuild_at_once", ("6.decks.4",),
           "a deck is rebuilt the moment it empties, not when a card must be drawn",
           after_draw=_rebuild_at_once),
    mutant("always_leave_five", ("6.decks.5",),
           "the top 5 discards are left out even when there are only 5 or fewer",
           discards_left_out=_leave_five_always),
    # -- Display Cards
    mutant("display_one_charge_short", ("6.2.display.2",),
           "a Display Card is charged with one token fewer than its squares",
           charges_for=_one_charge_short),
    mutant("displays_face_down", ("6.2.display.2",),
           "a Display Card is seen only by its player", visible_display=_face_down_displays),
    mutant("anyone_uses_displays", ("6.2.display.4",),
           "any player may take the Actions of any Display Card in play",
           find_display=_anyones_display),
    mutant("display_usable_at_once", ("6.2.display.4",),
           "a Display Card's Actions are available in the Turn it is played",
           usable_now=returns(True)),
    mutant("display_actions_free", ("6.2.display.5",),
           "the Actions on Display Cards cost no Monarch Power", action_cost=returns({})),
    mutant("display_actions_take_no_turn", ("6.2.display.5",),
           "an Action on a Display Card is taken any time and leaves the Turn free",
           action_takes_turn=returns(False)),
    mutant("display_marks_ignored", ("6.2.display.6",),
           "Battle Actions and Reactions on Display Cards are taken like plain Actions",
           action_kinds=_plain_display_actions),
    mutant("one_charge_per_use", ("6.2.display.7",),
           "every use removes exactly one charge, whatever the card says",
           uses_of=returns(1)),
    mutant("empty_display_stays", ("6.2.display.8",),
           "a Display Card whose last charge is spent stays on display",
           display_emptied=_empty_display_stays),
    mutant("duplicate_displays", ("6.2.display.9",),
           "a second copy of a Display Card already in play can be played",
           check_display_duplicate=returns(None)),
    mutant("no_display_limit", ("6.2.display.10",),
           "any number of Display Cards can be in play", display_over_limit=returns(False)),
    mutant("oldest_display_discarded", ("6.2.display.10",),
           "a third Display Card discards the oldest one without asking",
           third_display=_oldest_display_discarded),
    # -- Battle Actions
    mutant("battle_actions_any_step", ("6.2.battle.1",),
           "Battle Actions can be played in any step of a Battle",
           check_battle_moment=_any_step_of_a_battle),
    mutant("passed_side_plays_on", ("6.2.battle.1",),
           "a side that passed in the 'Play Battle Actions' step may still play Battle Actions "
           "in that Round",
           act_battle_pass=_pass_forgotten),
    mutant("bystanders_play_battle_actions", ("6.2.battle.2",),
           "a player not involved in the Battle can play Battle Actions in it",
           check_battle_involvement=returns(None)),
    mutant("battle_actions_on_own_turn", ("6.2.battle.2",),
           "Battle Actions can only be played on their player's own Turn",
           check_battle_involvement=_battle_actions_on_own_turn),
    mutant("battle_action_once_per_player", ("6.2.battle.3",),
           "the one use per Round is counted per player, not per side",
           battle_use_key=lambda self, name: name),
    mutant("battle_action_unlimited", ("6.2.battle.3",),
           "a side may use the same Battle Action any number of times per Round",
           check_battle_once=returns(None)),
    mutant("battle_action_once_per_battle", ("6.2.battle.3",),
           "a Battle Action used once cannot be used again in the whole Battle",
           start_round=_new_round_keeps_uses),
    mutant("battle_dice_reset_each_round", ("6.2.battle.4",),
           "the dice gained from Battle Actions are lost at the end of the Round",
           start_round=_new_round_resets_dice),
    mutant("first_die_icon_only", ("6.2.battle.5",),
           "a Battle Action adds a die for its first icon only",
           dice_gained=_first_icon_only),
    mutant("any_die_is_infantry", ("6.2.battle.6",),
           'a "?" die icon always adds an Infantry die, whatever the player chose',
           chosen_die=returns("infantry")),
    # -- Reactions and Covert Actions
    mutant("reactions_take_the_turn", ("6.2.reactions.1",),
           "a Reaction uses up the Turn's Action", after_reaction=_reaction_takes_the_turn),
    mutant("reactions_only_in_action_phase", ("6.2.reactions.1",),
           "Reactions can be played only in the Action Phase",
           check_reaction=_reactions_in_the_action_phase),
    mutant("counterespionage_counters_anything", ("6.2.covert.2",),
           "Counterespionage counters any card, Covert Action or not",
           may_counter=_counter_anything),
    mutant("counter_without_effect", ("6.2.covert.2",),
           "a countered Covert Action resolves anyway", counter=returns(None)),
    mutant("countered_cost_refunded", ("6.2.covert.3",),
           "the cost of a countered card is given back", dispose_countered=_refund_countered),
    mutant("prevented_uses_refunded", ("6.2.covert.4",),
           "a prevented Covert Action on a Display Card gives its charges back",
           dispose_countered=_refund_prevented_uses),
)
