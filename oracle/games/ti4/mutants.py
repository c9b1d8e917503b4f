"""Deliberately broken TI4 engines (see ``oracle.mutants``): the slips real engines make.

Every testable TI4 rule id has at least one mutant here. A mutant declares the ids it
breaks; the scenarios of other rules that stand on the broken behaviour are reported
*blocked* by it, not failed (``oracle.scenario.diagnosis``), so they are not declared.
``rules-oracle selftest`` checks that the report flags exactly the declared ids.

Use one as an engine: ``--engine oracle.games.ti4.mutants:MUTANTS.no_hand_limit``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from oracle.games.ti4.engine import ReferenceEngine as Ref
from oracle.mutants import Mutant


def mutant(name: str, breaks: tuple[str, ...], change: str, **overrides: Any) -> Mutant:
    return Mutant(name, tuple(f"ti4:{b}" for b in breaks), change, Ref, overrides)


def _returns(value: Any) -> Any:
    """A method that ignores its arguments and returns ``value``."""
    return lambda *_args, **_kwargs: value


def _status_draw_in_any_phase(self: Ref, action: Any) -> None:
    real, self.g.phase = self.g.phase, "status"
    try:
        Ref.act_status_draw(self, action)
    finally:
        self.g.phase = real


def _free_politics_secondary(self: Ref, action: Any) -> None:
    player = self.player(action.get("player"))
    player.command_tokens["strategy"] = player.command_tokens.get("strategy", 0) + 1
    Ref.act_politics_secondary(self, action)


def _draw_ignores_count(self: Ref, action: Any) -> None:
    Ref.act_draw(self, {**action, "count": 1})


def _keep_any_number(self: Ref, player: Any, choice: Any) -> None:
    pending = self.pending_for(player.name)
    if pending is not None and pending.decision == "keep" and isinstance(choice.get("keep"), list):
        pending.count = len(choice["keep"])
    Ref.choose(self, player, choice)


def _discard_to_bottom(self: Ref, card: str) -> None:
    self.g.discard.append(card)


def _cancelled_back_to_hand(self: Ref, record: Any) -> None:
    self.g.players[record.player].hand.append(record.card)


def _cancelled_counts_as_played(self: Ref, record: Any) -> None:
    Ref.dispose_cancelled(self, record)
    self.g.played.append(record)


def _cancel_uses_the_action(self: Ref, record: Any) -> None:
    Ref.dispose_cancelled(self, record)
    if self.is_component_action(self.facts[record.card]):
        self.g.action_taken = True


def _neural_motivator_on_politics(self: Ref, player: Any) -> int:
    return self.POLITICS_DRAW + (self.NEURAL_MOTIVATOR in player.technologies)


def _neural_motivator_second_pass(self: Ref) -> list[tuple[str, int]]:
    order = self.dealing_order()
    counts = {n: self.status_draw_count(self.g.players[n]) for n in order}
    return [(n, 1) for n in order] + [(n, counts[n] - 1) for n in order if counts[n] > 1]


def _deal_waits_only_for_limit(self: Ref) -> bool:
    return any(p.decision == "keep" for p in self.g.pending)


def _seat_order(self: Ref) -> list[str]:
    return list(self.g.seats)


def _whole_hand(self: Ref, viewer: str | None, owner: Any) -> list[str]:
    return list(owner.hand)


def _count_for_owner_only(self: Ref, viewer: str | None, owner: Any) -> int | None:
    return len(owner.hand) if viewer in ("*", owner.name) else None


def _missing_law_is_no_target(self: Ref, name: str, fact: Any, targets: Any) -> str | None:
    model = self.model(fact.name)
    if model is not None and model.target == "law" and not self.g.laws:
        return None
    return Ref.can_fully_resolve(self, name, fact, targets)


ALL: tuple[Mutant, ...] = (
    mutant("status_draw_in_any_phase", ("2.1",),
           "the status phase's draw step can be run in any phase",
           act_status_draw=_status_draw_in_any_phase),
    mutant("status_draws_two", ("2.1", "note-5", "note-5.1", "note-5.2", "note-10"),
           "the status phase deals two cards to every player",
           STATUS_DRAW=2),
    mutant("free_politics_secondary", ("2.2",),
           "Politics' secondary ability costs no strategy token",
           act_politics_secondary=_free_politics_secondary),
    mutant("neural_motivator_on_politics", ("2.2",),
           "Neural Motivator adds a card to Politics draws too",
           politics_draw_count=_neural_motivator_on_politics),
    mutant("draw_ignores_count", ("2.3", "note-4"),
           "a game effect that draws several cards draws only one",
           act_draw=_draw_ignores_count),
    mutant("no_hand_limit", ("2.4",),
           "never asks a player to discard down to the hand limit",
           over_hand_limit=_returns(False)),
    mutant("hand_limit_off_by_one", ("2.4", "2.4.1", "note-10"),
           "the hand limit is six, not seven",
           BASE_HAND_LIMIT=6),
    mutant("keep_any_number", ("2.4",),
           "a player over the limit may keep any number of cards",
           choose=_keep_any_number),
    mutant("hand_limit_ignores_effects", ("2.4.1",),
           "game effects do not change the hand limit",
           hand_limit=lambda self, player: self.BASE_HAND_LIMIT),
    mutant("hand_shown_to_all", ("2.5",),
           "every viewer sees every card in every hand",
           visible_hand=_whole_hand),
    mutant("windows_ignored", ("2.6",),
           "a card may be played in any timing window of its phase",
           window_matches=_returns(True)),
    mutant("component_action_any_time", ("2.6.1",),
           "an 'Action' card may be played on any turn, in any phase, any number of times",
           check_component_action_timing=_returns(None)),
    mutant("partial_component_action", ("2.6.1",),
           "a component action is allowed when it cannot be completely resolved",
           can_fully_resolve=_returns(None)),
    mutant("same_name_stacking", ("2.6.2",),
           "same-name cards may be stacked in one timing window on the same thing",
           check_same_name=_returns(None)),
    mutant("cancelled_counts_as_played", ("2.6.2", "note-6"),
           "a cancelled card still counts as played in its window",
           dispose_cancelled=_cancelled_counts_as_played),
    mutant("discard_to_bottom", ("2.7",),
           "a played card goes to the bottom of the discard pile, not the top",
           discard_card=_discard_to_bottom),
    mutant("play_from_anywhere", ("2.7",),
           "a card may be played without being in the player's hand",
           check_in_hand=_returns(None)),
    mutant("cancelled_card_stays_in_hand", ("2.8",),
           "a cancelled card goes back to its player's hand instead of the discard pile",
           dispose_cancelled=_cancelled_back_to_hand),
    mutant("sabotage_does_nothing", ("2.8", "2.6.2", "note-6"),
           "a cancelled card resolves anyway",
           effect_sabotage=_returns(None)),
    mutant("players_start_with_a_card", (
        "note-1", "2.1", "2.2", "2.3", "2.4", "2.5", "2.7", "note-4", "note-5", "note-5.1",
        "note-5.2", "note-10"),
           "each player is dealt one action card at the start of the game",
           STARTING_HAND_SIZE=1),
    mutant("hand_count_hidden", ("note-2",),
           "other players are not shown how many cards a hand holds",
           visible_hand_count=_count_for_owner_only),
    mutant("reveal_not_shown", ("note-3",),
           "revealed cards stay hidden from the other players",
           apply_reveal=_returns(None)),
    mutant("no_reshuffle", ("note-4",),
           "a depleted deck is never rebuilt from the discard pile",
           reshuffle_if_depleted=_returns(None)),
    mutant("lazy_reshuffle", ("note-4",),
           "a depleted deck is rebuilt only at the next draw, not at once",
           after_deck_change=_returns(None)),
    mutant("deals_in_seat_order", ("note-5",),
           "several players are dealt cards in seat order, not initiative order",
           dealing_order=_seat_order),
    mutant("neural_motivator_second_pass", ("note-5.1",),
           "the Neural Motivator card is dealt after everybody else's first card",
           status_dealing_queue=_neural_motivator_second_pass),
    mutant("scheming_after_everyone", ("note-5.2",),
           "the deal goes on while the Yssaril player still owes the Scheming discard",
           dealing_paused=_deal_waits_only_for_limit),
    mutant("cancel_uses_the_action", ("note-6",),
           "a cancelled component action still uses the player's action",
           dispose_cancelled=_cancel_uses_the_action),
    mutant("offensive_cards_on_self", ("note-7",),
           "offensive cards may target their own player",
           may_target_owner=_returns(True)),
    mutant("zero_targets_refused", ("note-8",),
           "'any number' and 'each' cards are refused when they would affect nothing",
           allows_zero_targets=_returns(False)),
    mutant("missing_objects_ignored", ("note-9",),
           "a card whose specific targets do not exist may be played for no effect",
           check_required_objects=_returns(None), can_fully_resolve=_missing_law_is_no_target),
    mutant("play_while_over_limit", ("note-10",),
           "a player over the hand limit may play cards to get down to it",
           check_play_not_pending=_returns(None)),
    mutant("hacan_trades_over_limit", ("note-10",),
           "the Hacan player over the hand limit may trade the excess away",
           check_trade_not_pending=_returns(None)),
)

MUTANTS = SimpleNamespace(**{m.name: m for m in ALL})
"""Each mutant by name, for ``--engine oracle.games.ti4.mutants:MUTANTS.NAME``."""
