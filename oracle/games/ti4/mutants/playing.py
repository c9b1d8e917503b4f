"""Mutants of playing and cancelling: ti4:2.6, 2.6.1, 2.6.2, 2.7, 2.8, note-6.

Timing goes wrong by scope (any window, any phase, any turn, any player's card), same-name
plays by what counts as "the same", and resolution by moment (at once, discarded early) or
by where a card ends (kept, lost, returned).
"""

from __future__ import annotations

from typing import Any

from oracle.games.kit import JSON, Rejection, not_kept
from oracle.games.kit.slips import returns
from oracle.games.ti4.cards import SABOTAGE, CardFact
from oracle.games.ti4.engine import ReferenceEngine as Ref
from oracle.games.ti4.engine.state import RULE_2_6, RULE_2_6_1, RULE_NOTE_9
from oracle.games.ti4.mutants.base import mutant
from oracle.mutants import Mutant

# -- ti4:2.6 ---------------------------------------------------------------------------------


def _sabotage_without_a_card(self: Ref, name: str, fact: CardFact, targets: JSON
                             ) -> Rejection | None:
    if not self.g.being_played:
        return None
    return Ref.check_sabotage_window(self, name, fact, targets)


def _sabotage_in_action_phase_only(self: Ref, name: str, fact: CardFact, targets: JSON
                                   ) -> Rejection | None:
    if self.g.phase != "action":
        return Rejection(f"{fact.name!r} is played in the action phase", RULE_2_6)
    return Ref.check_sabotage_window(self, name, fact, targets)


def _event_windows_for_all(self: Ref, name: str) -> list[str]:
    event = self.g.event
    return list(event["windows"]) if event is not None else []


def _hand_limit_discards_unseen(self: Ref, player: Any, keep: list[str]) -> None:
    """The hand-limit discard goes to the pile, but is no timing event of its own."""
    gone = not_kept(player.hand, keep)
    self.remove_from_hand(player, gone)
    for card in gone:
        self.discard_card(card)


# -- ti4:2.6.1 -------------------------------------------------------------------------------


def _component_action_timing(*, turn: bool = True, phase: bool = True, once: bool = True):
    def check(self: Ref, name: str, fact: CardFact) -> Rejection | None:
        game = self.g
        if phase and game.phase != "action":
            return Rejection(f"{fact.name!r} needs the action phase", RULE_2_6_1)
        if turn and game.phase == "action" and game.active_player != name:
            return Rejection(f"{fact.name!r}: only the active player may play it", RULE_2_6_1)
        if once and game.action_taken:
            return Rejection(f"{name} has already performed an action this turn", RULE_2_6_1)
        return None

    return check


def _incomplete_cited_as_missing_objects(self: Ref, name: str, fact: CardFact, targets: JSON
                                         ) -> Rejection | None:
    """Refuses the right plays, naming note 9 (no such object) instead of 2.6.1."""
    refused = Ref.check_fully_resolvable(self, name, fact, targets)
    return Rejection(refused.reason, RULE_NOTE_9) if refused else None


# -- ti4:2.6.2 -------------------------------------------------------------------------------


def _any_occurrence(self: Ref, name: str, fact: CardFact, targets: JSON) -> tuple[Any, ...]:
    return ("any",) if fact.name != SABOTAGE else Ref.occurrence(self, name, fact, targets)


def _subject_ignored(self: Ref, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
    event, self.g.event = self.g.event, None
    try:
        return Ref.check_target_choice(self, name, fact, targets)
    finally:
        self.g.event = event


def _first_unit_only(self: Ref, action: JSON) -> JSON:
    event = Ref.read_sustain_damage(self, action)
    return {**event, "units": event["units"][:1]}


def _event_without_occurrence(self: Ref, event: JSON) -> None:
    seq = self.g.event_seq
    Ref.start_event(self, event)
    self.g.event_seq = seq


def _dispose_and_pay(self: Ref, record: Any) -> None:
    self.pay_cost(record)
    Ref.dispose_cancelled(self, record)


# -- ti4:2.7 ---------------------------------------------------------------------------------


def _remove_what_is_there(self: Ref, player: Any, cards: Any) -> None:
    Ref.remove_from_hand(self, player, [c for c in cards if c in player.hand])


def _played_card_stays_in_hand(self: Ref, action: JSON) -> None:
    Ref.act_play(self, action)
    self.player(action.get("player")).hand.append(self.g.being_played[-1].card)


def _resolves_at_once(self: Ref, action: JSON) -> None:
    Ref.act_play(self, action)
    self.act_resolve({})


def _resolve_without_discard(self: Ref, record: Any) -> None:
    method = self.EFFECTS.get(record.card)
    if method is not None:
        getattr(self, method)(record)
    self.g.played.append(record)
    if self.is_component_action(self.facts[record.card]):
        self.g.action_taken = True


def _discarded_when_played(self: Ref, action: JSON) -> None:
    Ref.act_play(self, action)
    self.discard_card(self.g.being_played[-1].card)


# -- ti4:2.8 and note-6 ----------------------------------------------------------------------


def _cancelled_back_to_hand(self: Ref, record: Any) -> None:
    self.g.players[record.player].hand.append(record.card)


def _cancelled_counts_as_played(self: Ref, record: Any) -> None:
    Ref.dispose_cancelled(self, record)
    self.g.played.append(record)


def _cancel_uses_the_action(self: Ref, record: Any) -> None:
    Ref.dispose_cancelled(self, record)
    if self.is_component_action(self.facts[record.card]):
        self.g.action_taken = True


def _lock_out_cancelled_player(self: Ref, record: Any) -> None:
    Ref.dispose_cancelled(self, record)
    self.g.exhausted.add(f"cancelled:{record.player}:{record.occurrence}")


def _locked_out(self: Ref, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
    key = f"cancelled:{name}:{self.occurrence(name, fact, targets)}"
    if key in self.g.exhausted:
        return Rejection(f"{name}'s card was cancelled in this window")
    return Ref.check_same_name(self, name, fact, targets)


def _cancelled_still_takes_effect(self: Ref, record: Any) -> None:
    method = self.EFFECTS.get(record.card)
    if method is not None:
        getattr(self, method)(record)
    Ref.dispose_cancelled(self, record)


MUTANTS: tuple[Mutant, ...] = (
    # ti4:2.6
    mutant("windows_ignored", ("2.6",),
           "a card may be played in any timing window of its phase",
           window_matches=returns(True)),
    mutant("card_phase_ignored", ("2.6",),
           "a card may be played in its timing window in any phase",
           phase_matches=returns(True)),
    mutant("sabotage_without_a_card", ("2.6",),
           "Sabotage may be played when no card is being played",
           check_sabotage_window=_sabotage_without_a_card),
    mutant("sabotage_own_card", ("2.6",),
           "Sabotage may cancel a card its own player is playing",
           may_respond_to=lambda self, name, record: record.card != SABOTAGE
           and not record.cancelled),
    mutant("sabotage_on_sabotage", ("2.6",),
           "Sabotage may cancel a Sabotage",
           may_respond_to=lambda self, name, record: record.player != name
           and not record.cancelled),
    mutant("sabotage_in_action_phase_only", ("2.6",),
           "Sabotage is refused outside the action phase ('Any' read as the action phase)",
           check_sabotage_window=_sabotage_in_action_phase_only),
    mutant("event_windows_open_to_everyone", ("2.6",),
           "a timing event's window is open to every player, whoever the card's timing names",
           event_windows=_event_windows_for_all),
    mutant("hand_limit_discards_open_no_window", ("2.6",),
           "a discard to the hand limit is no timing event: 'after another player discards' "
           "cards are played only after a played card is discarded",
           keep_cards=_hand_limit_discards_unseen),
    # ti4:2.6.1
    mutant("component_action_on_any_turn", ("2.6.1",),
           "an 'Action' card may be played on another player's turn",
           check_component_action_timing=_component_action_timing(turn=False)),
    mutant("component_action_in_any_phase", ("2.6.1",),
           "an 'Action' card may be played outside the action phase",
           check_component_action_timing=_component_action_timing(phase=False)),
    mutant("component_action_any_number", ("2.6.1",),
           "an 'Action' card may be played after the player's action for the turn",
           check_component_action_timing=_component_action_timing(once=False)),
    mutant("partial_component_action", ("2.6.1",),
           "a component action is allowed when it cannot be completely resolved",
           can_fully_resolve=returns(None)),
    mutant("costs_not_checked", ("2.6.1",),
           "a component action is played whatever its cost and what the player spends on it",
           cost_problem=lambda self, name, model, targets: None),
    mutant("incomplete_action_cited_as_note_9", ("2.6.1",),
           "a component action that cannot be completely resolved is refused citing note 9",
           check_fully_resolvable=_incomplete_cited_as_missing_objects),
    # ti4:22.4 (context of 2.6.1): a cancelled component action does not use the action
    mutant("cancel_uses_the_action", ("2.6.1",),
           "a cancelled component action still uses the player's action",
           dispose_cancelled=_cancel_uses_the_action),
    # ti4:2.6.2
    mutant("same_name_stacking", ("2.6.2",),
           "same-name cards may be stacked in one timing window on the same thing",
           check_same_name=returns(None)),
    mutant("same_name_across_windows", ("2.6.2",),
           "a card name played once may not be played on the same thing in a later window",
           occurrence=_any_occurrence),
    mutant("same_name_any_target", ("2.6.2",),
           "a card name played once in a window may not be played again on anything",
           same_effect=returns(True)),
    mutant("events_share_one_occurrence", ("2.6.2",),
           "every timing event is one occurrence of its windows: a card's name played after "
           "one roll or combat round cannot be played on the same thing after the next",
           start_event=_event_without_occurrence),
    # ti4:2.7
    mutant("play_from_anywhere", ("2.7",),
           "a card may be played without being in the player's hand",
           check_in_hand=returns(None), remove_from_hand=_remove_what_is_there),
    mutant("played_card_stays_in_hand", ("2.7",),
           "a played card is resolved and discarded but also stays in the hand",
           act_play=_played_card_stays_in_hand),
    mutant("played_card_resolves_at_once", ("2.7",),
           "a card resolves the moment it is played; nobody can answer it",
           act_play=_resolves_at_once),
    mutant("played_card_discarded_early", ("2.7",),
           "a card goes to the discard pile when it is played, before it resolves",
           act_play=_discarded_when_played, resolve_card=_resolve_without_discard,
           dispose_cancelled=lambda self, record: None),
    mutant("played_card_vanishes", ("2.7",),
           "a card that resolved leaves the game instead of going to the discard pile",
           resolve_card=_resolve_without_discard),
    mutant("direct_hit_on_any_ship", ("2.7",),
           "Direct Hit may destroy any ship of the player, not one that used SUSTAIN DAMAGE",
           check_target_choice=_subject_ignored),
    mutant("sustain_damage_of_the_first_ship_only", ("2.7",),
           "when several ships use SUSTAIN DAMAGE at once, only the first counts as 'that ship'",
           read_sustain_damage=_first_unit_only),
    # ti4:2.8
    mutant("costs_paid_when_cancelled", ("2.8",),
           "a cancelled card's cost is paid all the same (the planets spent are exhausted)",
           dispose_cancelled=_dispose_and_pay),
    mutant("cancelled_card_stays_in_hand", ("2.8",),
           "a cancelled card goes back to its player's hand instead of the discard pile",
           dispose_cancelled=_cancelled_back_to_hand),
    mutant("sabotage_does_nothing", ("2.8", "note-6"),
           "a cancelled card resolves anyway",
           effect_sabotage=returns(None)),
    mutant("cancelled_card_takes_effect", ("2.8",),
           "a cancelled card is discarded and not counted as played, but its effect happens",
           dispose_cancelled=_cancelled_still_takes_effect),
    mutant("cancelled_card_vanishes", ("2.8",),
           "a cancelled card leaves the game instead of going to the discard pile",
           dispose_cancelled=lambda self, record: None),
    # ti4:note-6
    mutant("cancelled_counts_as_played", ("note-6",),
           "a cancelled card still counts as played in its window",
           dispose_cancelled=_cancelled_counts_as_played),
    mutant("cancelled_player_locked_out", ("note-6",),
           "a player whose card was cancelled may play no other card in that window",
           dispose_cancelled=_lock_out_cancelled_player, check_same_name=_locked_out),
)
