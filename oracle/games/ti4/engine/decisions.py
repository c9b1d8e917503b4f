"""The TI4 hand limit and the decisions it (and Scheming) leaves pending.

Why apart: a hand over the limit is checked the moment it grows (ti4:2.4, ti4:note-10), and
the player owes a choice before doing anything else; ``choose`` answers that choice, and a
paused dealing then goes on.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from oracle.games.kit import JSON, Rejected, Rejection, not_kept
from oracle.games.kit import contains as _contains
from oracle.games.kit.decisions import PendingDecisions
from oracle.games.ti4.cards import LAW_MODELS, CardFact
from oracle.games.ti4.engine.state import (
    RULE_2_4,
    RULE_NOTE_5_2,
    RULE_NOTE_10,
    Pending,
    PlayerState,
)


class HandLimit(PendingDecisions):
    """The hand limit, pending decisions, and the answers to them."""

    #: ti4:2.4: a hand holds at most seven action cards.
    BASE_HAND_LIMIT = 7

    def base_hand_limit(self) -> int:
        """ti4:2.4, ti4:2.4.1: seven cards, or what a law in play sets (the lowest)."""
        limits = [m.hand_limit for law in self.g.laws
                  if (m := LAW_MODELS.get(law)) is not None and m.hand_limit is not None]
        return min(limits, default=self.BASE_HAND_LIMIT)

    def hand_limit(self, player: PlayerState) -> int:
        """ti4:2.4, ti4:2.4.1: seven cards (or a law's), raised or lowered by game effects."""
        return self.base_hand_limit() + player.hand_limit_modifier

    def over_hand_limit(self, player: PlayerState) -> bool:
        """ti4:2.4: more cards than the limit (exactly the limit is fine)."""
        return len(player.hand) > self.hand_limit(player)

    def hand_changed(self, player: PlayerState) -> None:
        """ti4:2.4, ti4:note-10: whenever a hand grows, the limit is checked at once."""
        self.enforce_hand_limit(player)

    def enforce_hand_limit(self, player: PlayerState) -> None:
        """ti4:2.4, ti4:note-10: over the limit, the player must choose cards to keep now."""
        if self.over_hand_limit(player) and self.pending_for(player.name) is None:
            self.add_pending(player.name, "keep", max(0, self.hand_limit(player)))

    def add_pending(self, name: str, decision: str, count: int) -> None:
        """Wait for ``name``'s decision; nothing else from them until they answer."""
        self.g.pending.append(Pending(name, decision, count))
        self.emit("must_choose", player=name, decision=decision, count=count)

    def check_not_pending(self, name: str, doing: str) -> Rejection | None:
        """ti4:note-10 / ti4:note-5.2: a pending discard comes first; nothing else meanwhile."""
        pending = self.pending_for(name)
        if pending is None:
            return None
        if pending.decision == "keep":
            return Rejection(
                f"{name} has more action cards than the hand limit and must discard down to "
                f"{pending.count} before they can {doing}",
                RULE_NOTE_10,
            )
        return Rejection(
            f"{name} must first discard {pending.count} card(s) for Scheming before they can "
            f"{doing}",
            RULE_NOTE_5_2,
        )

    def check_play_not_pending(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:note-10: over the limit, a player cannot play cards to get down to it."""
        return self.check_not_pending(name, f"play {fact.name!r}")

    def check_reveal_not_pending(self, name: str) -> Rejection | None:
        """ti4:note-10: the excess goes immediately; no reveal comes before the discard."""
        return self.check_not_pending(name, "reveal cards")

    def check_trade_not_pending(self, giver: str) -> Rejection | None:
        """ti4:note-10: the Hacan player cannot trade away cards over the limit."""
        return self.check_not_pending(giver, "trade action cards")

    def choose(self, player: PlayerState, choice: JSON) -> None:
        """Answer the player's pending decision, then let a paused dealing continue."""
        pending = self.owed_decision(player.name)
        rule = RULE_2_4 if pending.decision == "keep" else RULE_NOTE_5_2
        cards = self.chosen_cards(
            player.name, pending, choice, rule,
            f"{player.name} must answer with {pending.decision!r}, got {sorted(choice)}",
        )
        if not _contains(player.hand, cards):
            raise Rejected(Rejection(f"{player.name}'s hand does not hold {cards}", rule))
        self.g.pending.remove(pending)
        if pending.decision == "keep":
            self.keep_cards(player, cards)
        else:
            self.scheming_discard(player, cards)
        self.continue_dealing()

    def keep_cards(self, player: PlayerState, keep: list[str]) -> None:
        """ti4:2.4: keep the chosen cards, discard the rest."""
        gone = not_kept(player.hand, keep)
        self.remove_from_hand(player, gone)
        for card in gone:
            self.discard_card(card)
        self.emit("discarded", player=player.name, cards=gone)
        self.discarded(player, gone)

    def scheming_discard(self, player: PlayerState, cards: list[str]) -> None:
        """ti4:note-5.2: the Scheming discard, then the hand-limit check (ti4:2.4)."""
        self.remove_from_hand(player, cards)
        for card in cards:
            self.discard_card(card)
        self.emit("discarded", player=player.name, cards=cards)
        self.discarded(player, cards)
        self.hand_changed(player)

    def remove_from_hand(self, player: PlayerState, cards: Iterable[str]) -> None:
        """Take cards out of a hand; a revealed card stays known only while a copy remains."""
        for card in cards:
            player.hand.remove(card)
        if not player.revealed:
            return
        have = Counter(player.hand)
        player.revealed = {name: min(n, have[name]) for name, n in player.revealed.items()
                           if have[name]}
