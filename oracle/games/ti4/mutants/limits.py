"""Mutants of the hand limit: ti4:2.4, 2.4.1, note-10.

The limit is where engines written elsewhere go wrong most: the wrong number, a check made
only on some ways cards arrive, a choice the engine makes for the player, a modifier with
the wrong sign, a discard that waits or that other moves may jump.
"""

from __future__ import annotations

from typing import Any

from oracle.games.kit import Rejected, Rejection, not_kept
from oracle.games.kit.slips import leaky_transaction, returns
from oracle.games.ti4.engine import ReferenceEngine as Ref
from oracle.games.ti4.mutants.base import mutant
from oracle.mutants import Mutant

# -- ti4:2.4 ---------------------------------------------------------------------------------


def _keep_any_number(self: Ref, player: Any, choice: Any) -> None:
    pending = self.pending_for(player.name)
    if pending is not None and pending.decision == "keep" and isinstance(choice.get("keep"), list):
        pending.count = len(choice["keep"])
    Ref.choose(self, player, choice)


def _excess_vanishes(self: Ref, player: Any, keep: list[str]) -> None:
    self.remove_from_hand(player, not_kept(player.hand, keep))


def _limit_only_on_draw(self: Ref, player: Any) -> None:
    if getattr(self, "_drawing", False):
        Ref.hand_changed(self, player)


def _draw_checks_limit(self: Ref, action: Any) -> None:
    self._drawing = True
    try:
        Ref.act_draw(self, action)
    finally:
        self._drawing = False


def _auto_discard_newest(self: Ref, player: Any) -> None:
    while self.over_hand_limit(player):
        self.discard_card(player.hand.pop())


def _keep_refused_after_discarding(self: Ref, player: Any, choice: Any) -> None:
    pending = self.pending_for(player.name)
    kept = choice.get("keep")
    if (pending is not None and pending.decision == "keep" and isinstance(kept, list)
            and len(kept) != pending.count and all(c in player.hand for c in kept)):
        self.keep_cards(player, kept)  # discards first ...
        raise Rejected(Rejection(f"{player.name} must keep exactly {pending.count} cards"))
    Ref.choose(self, player, choice)  # ... and refuses after


# -- ti4:2.4.1 -------------------------------------------------------------------------------


def _modifier_sign_flipped(self: Ref, player: Any) -> int:
    return self.BASE_HAND_LIMIT - player.hand_limit_modifier


def _modifier_only_raises(self: Ref, player: Any) -> int:
    return self.BASE_HAND_LIMIT + max(0, player.hand_limit_modifier)


def _modifier_counted_twice(self: Ref, player: Any) -> int:
    return self.BASE_HAND_LIMIT + 2 * player.hand_limit_modifier


# -- ti4:note-10 -----------------------------------------------------------------------------


def _deal_waits_only_for_scheming(self: Ref) -> bool:
    return any(p.decision == "discard" for p in self.g.pending)


def _reveal_before_keeping(self: Ref, name: str) -> Rejection | None:
    pending = self.pending_for(name)
    if pending is not None and pending.decision == "keep":
        return None  # the keep waits; a Scheming discard still comes first
    return Ref.check_reveal_not_pending(self, name)


def _trade_then_refuse(self: Ref, action: Any) -> None:
    giver = self.player(action.get("player"))
    pending = self.check_trade_not_pending(giver.name)
    if pending is None:
        Ref.act_trade(self, action)
        return
    receiver = self.player(action.get("to"))
    cards = [c for c in action.get("cards") or [] if c in giver.hand]
    self.remove_from_hand(giver, cards)  # the cards move first ...
    receiver.hand.extend(cards)
    raise Rejected(pending)  # ... and the trade is refused after


MUTANTS: tuple[Mutant, ...] = (
    # ti4:2.4
    mutant("no_hand_limit", ("2.4",),
           "never asks a player to discard down to the hand limit",
           over_hand_limit=returns(False)),
    mutant("hand_limit_off_by_one", ("2.4",),
           "the hand limit is six, not seven", BASE_HAND_LIMIT=6),
    mutant("keep_any_number", ("2.4",),
           "a player over the limit may keep any number of cards",
           choose=_keep_any_number),
    mutant("excess_vanishes", ("2.4",),
           "the cards a player does not keep leave the game instead of being discarded",
           keep_cards=_excess_vanishes),
    mutant("hand_limit_only_on_draw", ("2.4",),
           "the limit is checked when a game effect draws, not on a deal, Politics or a trade",
           hand_changed=_limit_only_on_draw, act_draw=_draw_checks_limit),
    mutant("hand_limit_discards_newest", ("2.4",),
           "the engine discards the newest cards down to the limit; the player has no choice",
           enforce_hand_limit=_auto_discard_newest),
    mutant("keep_refused_after_discarding", ("2.4",),
           "a keep of the wrong number of cards discards the rest, then is refused",
           choose=_keep_refused_after_discarding, _transaction=leaky_transaction),
    # ti4:2.4.1
    mutant("hand_limit_ignores_effects", ("2.4.1",),
           "game effects do not change the hand limit",
           hand_limit=lambda self, player: self.BASE_HAND_LIMIT),
    mutant("hand_limit_modifier_sign_flipped", ("2.4.1",),
           "an effect that raises the hand limit lowers it, and the other way round",
           hand_limit=_modifier_sign_flipped),
    mutant("hand_limit_only_raised", ("2.4.1",),
           "effects may raise the hand limit but never lower it",
           hand_limit=_modifier_only_raises),
    mutant("hand_limit_modifier_doubled", ("2.4.1",),
           "an effect on the hand limit is counted twice",
           hand_limit=_modifier_counted_twice),
    mutant("hand_limit_ignores_laws", ("2.4.1",),
           "a law in play that sets the hand limit (Executive Sanctions) changes nothing",
           base_hand_limit=lambda self: self.BASE_HAND_LIMIT),
    # ti4:note-10
    mutant("play_while_over_limit", ("note-10",),
           "a player over the hand limit may play cards to get down to it",
           check_play_not_pending=returns(None)),
    mutant("hacan_trades_over_limit", ("note-10",),
           "the Hacan player over the hand limit may trade the excess away",
           check_trade_not_pending=returns(None)),
    mutant("deal_ignores_over_limit", ("note-10",),
           "the status phase deal goes on while a player still owes the hand-limit discard",
           dealing_paused=_deal_waits_only_for_scheming),
    mutant("reveal_while_over_limit", ("note-10",),
           "a player over the hand limit may reveal cards before discarding the excess",
           check_reveal_not_pending=_reveal_before_keeping),
    mutant("hacan_trade_refused_after_moving", ("note-10",),
           "the Hacan player's trade over the limit moves the cards, then is refused",
           act_trade=_trade_then_refuse, _transaction=leaky_transaction),
)
