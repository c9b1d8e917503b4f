"""EU mutants of Display Cards, Battles, Reactions and Covert Actions, going wrong the way
engines written by other people do (``oracle.games.eu_pop.mutants`` says how)."""

from __future__ import annotations

from typing import Any

from oracle.games.eu_pop.cards import ANY_DIE
from oracle.games.eu_pop.engine import (
    Display,
    PlayerState,
    PlayRecord,
)
from oracle.games.eu_pop.mutants.making import KEEPS_CHANGES, Ref, mutant
from oracle.games.kit import Rejected, Rejection
from oracle.games.kit.slips import returns
from oracle.mutants import Mutant

# -- Display Cards --------------------------------------------------------------------------------


def _display_choice_kept(self: Ref, player: PlayerState, choice: Any) -> None:
    pending = self.owed_decision(player.name)
    shown = list(player.display)
    Ref.choose(self, player, choice)
    if pending.source == "display":
        for display in shown:
            if display not in player.display:
                self.g.decks[self.deck_of(display.card)].discard.remove(display.card)
        player.display = shown


def _duplicate_anywhere(self: Ref, player: PlayerState, fact: Any) -> Rejection | None:
    for other in self.g.players.values():
        if any(d.card == fact.name for d in other.display):
            return Rejection(f"{fact.name!r} is already on display")
    return None


def _newest_display_discarded(self: Ref, player: PlayerState, older: list[str]) -> None:
    self.discard_display(player, player.display[-1])


def _duplicate_paid_before_refusal(self: Ref, player: PlayerState, fact: Any
                                   ) -> Rejection | None:
    rejection = Ref.check_display_duplicate(self, player, fact)
    if rejection is not None:
        self.pay(player, self.card_cost(player, fact))
    return rejection


def _short_use_empties(self: Ref, action: Any) -> None:
    try:
        Ref.act_use(self, action)
    except Rejected as rej:
        found = Ref.find_display(self, str(action.get("player")), str(action.get("card")))
        if found is not None and "charge" in rej.rejection.reason:
            found[1].charges = 0
        raise


def _display_choice_can_wait(self: Ref, name: str, doing: str) -> Rejection | None:
    pending = self.pending_for(name)
    if pending is not None and pending.source == "display":
        return None
    return Ref.check_not_pending(self, name, doing)


def _one_charge_extra(self: Ref, fact: Any) -> int:
    return fact.charges + 1


def _charged_with_one(self: Ref, fact: Any) -> int:
    return 1


def _usable_from_hand(self: Ref, name: str, card: str) -> tuple[PlayerState, Display] | None:
    player = self.g.players[name]
    if card in player.hand:
        return player, Display(card, 99, placed_turn=-1)
    return Ref.find_display(self, name, card)


def _reactions_plain(self: Ref, action: Any) -> frozenset[str]:
    return action.kinds - {"reaction"}


def _battle_actions_plain(self: Ref, action: Any) -> frozenset[str]:
    return action.kinds - {"battle_action"}


def _uses_of_the_first_action(self: Ref, action: Any) -> int:
    card = next(f for f in self.facts.values() if action in (f.actions or ()))
    return int(card.actions[0].uses)


def _emptied_display_to_hand(self: Ref, player: PlayerState, display: Display) -> None:
    player.display.remove(display)
    player.hand.append(display.card)


def _discarded_at_one_charge(self: Ref, player: PlayerState, display: Display, n: int) -> None:
    display.charges -= n
    if display.charges <= 1:
        self.display_emptied(player, display)


def _only_the_first_use_spends(self: Ref, player: PlayerState, display: Display, n: int
                               ) -> None:
    if vars(display).get("used"):  # marked at its first use: later uses spend nothing
        return
    display.used = True  # type: ignore[attr-defined]
    Ref.spend_charges(self, player, display, n)


# -- Battles --------------------------------------------------------------------------------------


def _before_the_step_too(self: Ref, name: str, what: str) -> Rejection | None:
    battle = self.g.battle
    if battle is not None and battle.step == "Battle Preparations":
        return None
    return Ref.check_battle_moment(self, name, what)


def _round_keeps_the_step(self: Ref) -> None:
    battle = self.g.battle
    step = battle.step if battle is not None else None
    Ref.start_round(self)
    if battle is not None and step is not None:
        battle.step = step


def _round_keeps_the_order(self: Ref) -> None:
    battle = self.g.battle
    played = set(battle.sides_played) if battle is not None else set()
    Ref.start_round(self)
    if battle is not None:
        battle.sides_played = played


def _outside_battles_too(self: Ref, name: str, what: str) -> Rejection | None:
    return None if self.g.battle is None else Ref.check_battle_action(self, name, what)


def _record_if_battle(self: Ref, name: str, what: str) -> None:
    if self.g.battle is not None:
        Ref.record_battle_use(self, name, what)


def _attackers_only(self: Ref, name: str, what: str) -> Rejection | None:
    if self.side_of(name) != "attackers":
        return Rejection(f"{name} is not attacking")
    return None


def _dice_lost_on_step(self: Ref, action: Any) -> None:
    Ref.act_battle_step(self, action)
    battle = self.g.battle
    if battle is not None:
        battle.dice = {side: [] for side in battle.dice}


def _dice_replaced(self: Ref, name: str, dice: list[str]) -> None:
    battle, side = self.g.battle, self.side_of(name)
    if battle is not None and side is not None and dice:
        battle.dice[side] = list(dice)


def _icons_doubled(self: Ref, icons: tuple[str, ...], chosen: list[str]) -> list[str]:
    fixed = [i for i in icons if i != ANY_DIE]
    return Ref.dice_gained(self, icons, chosen) + fixed


def _icon_types_ignored(self: Ref, icons: tuple[str, ...], chosen: list[str]) -> list[str]:
    return ["infantry" if i != ANY_DIE else d
            for i, d in zip(icons, Ref.dice_gained(self, icons, chosen), strict=True)]


def _any_die_adds_nothing(self: Ref, icons: tuple[str, ...], chosen: list[str]) -> list[str]:
    return [i for i in icons if i != ANY_DIE]


def _any_die_adds_two(self: Ref, icons: tuple[str, ...], chosen: list[str]) -> list[str]:
    picks = iter(chosen)
    out: list[str] = []
    for icon in icons:
        out += [next(picks)] * 2 if icon == ANY_DIE else [icon]
    return out


# -- Reactions and Covert Actions -----------------------------------------------------------------


def _reactions_on_own_turn(self: Ref, name: str, doing: str) -> Rejection | None:
    if self.g.active_player != name:
        return Rejection(f"it is not {name}'s Turn")
    return None


def _reaction_ends_the_turn(self: Ref, name: str) -> None:
    game = self.g
    if game.phase == "action" and game.active_player == name:
        seats = game.seats
        game.active_player = seats[(seats.index(name) + 1) % len(seats)]
        game.turn += 1
        game.action_taken = False


def _display_actions_uncounterable(self: Ref, record: PlayRecord) -> bool:
    return record.action is None and Ref.may_counter(self, record)


def _countered_back_to_hand(self: Ref, record: PlayRecord) -> None:
    if record.action is None:
        self.g.players[record.player].hand.append(record.card)


def _countered_vanishes(self: Ref, record: PlayRecord) -> None:
    return None


def _countered_frees_the_turn(self: Ref, record: PlayRecord) -> None:
    Ref.dispose_countered(self, record)
    if record.player == self.g.active_player:
        self.g.action_taken = False


def _prevented_refund_one(self: Ref, record: PlayRecord) -> None:
    Ref.dispose_countered(self, record)
    if record.action is not None:
        player = self.g.players[record.player]
        display = next((d for d in player.display if d.card == record.card), None)
        if display is not None:
            display.charges += 1


def _prevented_refilled(self: Ref, record: PlayRecord) -> None:
    Ref.dispose_countered(self, record)
    if record.action is not None:
        player = self.g.players[record.player]
        display = next((d for d in player.display if d.card == record.card), None)
        if display is not None:
            display.charges = self.charges_for(self.facts[record.card])


TABLES: tuple[Mutant, ...] = (
    mutant("display_choice_kept", ("6.2.display.9",),
           "the Display Card chosen to go stays in play: the player keeps three",
           choose=_display_choice_kept),
    mutant("duplicate_anywhere", ("6.2.display.9",),
           "a Display Card on any player's display cannot be played by another",
           check_display_duplicate=_duplicate_anywhere),
    mutant("newest_display_discarded", ("6.2.display.10",),
           "a third Display Card is itself discarded at once, without asking",
           third_display=_newest_display_discarded),
    mutant("duplicate_paid_before_refusal", ("6.2.display.9",),
           "a second copy of a Display Card in play is refused, but its cost is taken",
           check_display_duplicate=_duplicate_paid_before_refusal, **KEEPS_CHANGES),
    mutant("short_use_empties_the_card", ("6.2.display.7",),
           "an Action needing more charges than are left is refused, but the charges go",
           act_use=_short_use_empties, **KEEPS_CHANGES),
    mutant("display_choice_can_wait", ("6.2.display.10",),
           "a player who owes the choice of a Display Card to discard may play on meanwhile",
           check_not_pending=_display_choice_can_wait),
    mutant("display_one_charge_extra", ("6.2.display.2",),
           "a Display Card is charged with one token more than its squares",
           charges_for=_one_charge_extra),
    mutant("display_charged_with_one", ("6.2.display.2",),
           "every Display Card is charged with one token", charges_for=_charged_with_one),
    mutant("display_usable_from_hand", ("6.2.display.4",),
           "the Actions of a Display Card are taken while it is still in the hand",
           find_display=_usable_from_hand),
    mutant("display_reactions_plain", ("6.2.display.6",),
           "a Reaction on a Display Card is taken like a plain Action",
           action_kinds=_reactions_plain),
    mutant("display_battle_actions_plain", ("6.2.display.6",),
           "a Battle Action on a Display Card is taken like a plain Action",
           action_kinds=_battle_actions_plain),
    mutant("uses_spend_nothing", ("6.2.display.7",), "using a Display Card spends no charge",
           uses_of=returns(0)),
    mutant("only_the_first_use_spends", ("6.2.display.7",),
           "only the first use of a Display Card removes charges; later uses spend none",
           spend_charges=_only_the_first_use_spends),
    mutant("uses_of_the_first_action", ("6.2.display.7",),
           "every Action on a Display Card spends the charges of the card's first Action",
           uses_of=_uses_of_the_first_action),
    mutant("emptied_display_to_hand", ("6.2.display.8",),
           "a Display Card whose last charge is spent goes back to its player's hand",
           display_emptied=_emptied_display_to_hand),
    mutant("discarded_at_one_charge", ("6.2.display.8",),
           "a Display Card is discarded when one charge is left",
           spend_charges=_discarded_at_one_charge),
    mutant("battle_actions_in_preparations", ("6.2.battle.1",),
           'Battle Actions are played in the "Battle Preparations" step too',
           check_battle_moment=_before_the_step_too),
    mutant("round_keeps_the_step", ("6.2.battle.1",),
           'a new Round of Battle stays in the step the last one reached, past "Play Battle '
           'Actions"', start_round=_round_keeps_the_step),
    mutant("attacker_after_defender", ("6.2.battle.1",),
           "the attacker may play Battle Actions after the defender has played theirs",
           check_battle_order=returns(None)),
    mutant("round_keeps_the_order", ("6.2.battle.1",),
           "once the defender has played a Battle Action, the attacker may play none in the "
           "later Rounds either", start_round=_round_keeps_the_order),
    mutant("battle_actions_outside_battles", ("6.2.battle.1",),
           "a Battle Action is accepted when no Battle is being fought (and does nothing)",
           check_battle_action=_outside_battles_too, record_battle_use=_record_if_battle),
    mutant("attackers_only", ("6.2.battle.2",), "only attackers may play Battle Actions",
           check_battle_involvement=_attackers_only),
    mutant("dice_lost_on_step", ("6.2.battle.4",),
           "Battle Dice from Battle Actions are lost when the Battle moves on a step",
           act_battle_step=_dice_lost_on_step),
    mutant("dice_replaced", ("6.2.battle.4",),
           "a Battle Action's dice replace those gained before", add_battle_dice=_dice_replaced),
    mutant("icons_doubled", ("6.2.battle.5",), "each die icon adds two dice",
           dice_gained=_icons_doubled),
    mutant("icon_types_ignored", ("6.2.battle.5",), "every die icon adds an Infantry die",
           dice_gained=_icon_types_ignored),
    mutant("any_die_adds_nothing", ("6.2.battle.6",), 'a "?" die icon adds no die',
           dice_gained=_any_die_adds_nothing),
    mutant("any_die_adds_two", ("6.2.battle.6",), 'a "?" die icon adds two dice of the type chosen',
           dice_gained=_any_die_adds_two),
    mutant("reactions_on_own_turn", ("6.2.reactions.1",),
           "a Reaction (Counterespionage too) is played only on its player's own Turn",
           check_reaction=_reactions_on_own_turn),
    mutant("reaction_ends_the_turn", ("6.2.reactions.1",),
           "a Reaction played by the active player ends their Turn",
           after_reaction=_reaction_ends_the_turn),
    mutant("display_actions_uncounterable", ("6.2.covert.2",),
           "a Covert Action on a Display Card cannot be countered",
           may_counter=_display_actions_uncounterable),
    mutant("countered_back_to_hand", ("6.2.covert.3",),
           "a countered card goes back to its player's hand",
           dispose_countered=_countered_back_to_hand),
    mutant("countered_vanishes", ("6.2.covert.3",),
           "a countered card leaves play without reaching the discard pile",
           dispose_countered=_countered_vanishes),
    mutant("countered_frees_the_turn", ("6.action-cards.2",),
           "a countered card gives its player's Turn back, as TI4's cancelled component "
           "action does", dispose_countered=_countered_frees_the_turn),
    mutant("prevented_refund_one", ("6.2.covert.4",),
           "a prevented Covert Action on a Display Card gives one charge back",
           dispose_countered=_prevented_refund_one),
    mutant("prevented_refilled", ("6.2.covert.4",),
           "a prevented Covert Action on a Display Card recharges the card fully",
           dispose_countered=_prevented_refilled),
)
