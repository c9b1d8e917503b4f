"""The EU hand limit (checked only in Phase 5 Step C) and the decisions it leaves pending.

Why apart: unlike TI4, a hand may grow past the limit at any time (6.cards-in-hand.2); the
check waits for Step C (4.5.c), and a third Display Card leaves a decision of its own
(6.2.display.10), answered by ``choose``.
"""

from __future__ import annotations

from oracle.games.eu_pop.engine.state import DISPLAY_THIRD, STEP_C_CHOICE, Pending, PlayerState
from oracle.games.eu_pop.engine.state import HAND_LIMIT as HAND_LIMIT_RULE
from oracle.games.kit import JSON, Rejected, Rejection, contains, not_kept
from oracle.games.kit.decisions import PendingDecisions


class StepC(PendingDecisions):
    """Phase 5 Step C, pending decisions, and the answers to them."""

    #: 6.cards-in-hand.2: the hand size limit, checked only in Phase 5 Step C.
    HAND_LIMIT = 5

    def hand_changed(self, player: PlayerState) -> None:
        """6.cards-in-hand.2: the limit is *not* checked when a hand grows."""

    def cards_toward_limit(self, player: PlayerState) -> int:
        """4.5.c.3: only the hand counts; Display Cards in play do not."""
        return len(player.hand)

    def players_in_step_c(self) -> list[str]:
        """4.5.c.1: all players discard down to the limit."""
        return list(self.g.seats)

    def act_discard_down(self, action: JSON) -> None:
        """Phase 5 Step C: every player over the limit must choose 5 cards to keep."""
        game = self.g
        if game.phase != "cleanup":
            raise Rejected(Rejection("the hand limit is checked in Phase 5 (Cleanup), Step C",
                                     HAND_LIMIT_RULE))
        if game.pending:
            raise Rejected(Rejection("a decision is still pending"))
        for name in self.players_in_step_c():
            player = game.players[name]
            if self.cards_toward_limit(player) > self.HAND_LIMIT:
                self.add_pending(Pending(name, "keep", self.HAND_LIMIT, "hand"))

    def keep_cards(self, player: PlayerState, keep: list[str]) -> None:
        """4.5.c.2: the player keeps the cards they chose and discards the rest."""
        gone = not_kept(player.hand, keep)
        for card in gone:
            player.hand.remove(card)
            self.discard_card(card)
        self.emit("discarded", player=player.name, cards=gone)

    def add_pending(self, pending: Pending) -> None:
        """Wait for ``pending.player``'s decision; nothing else from them until they answer."""
        self.g.pending.append(pending)
        self.emit("must_choose", player=pending.player, decision=pending.decision,
                  count=pending.count)

    def check_not_pending(self, name: str, doing: str) -> Rejection | None:
        """A pending decision comes first: nothing else from that player meanwhile."""
        pending = self.pending_for(name)
        if pending is None:
            return None
        what = "cards to keep" if pending.decision == "keep" else "a Display Card to discard"
        rule_id = STEP_C_CHOICE if pending.decision == "keep" else DISPLAY_THIRD
        return Rejection(f"{name} must first choose {what} before they can {doing}", rule_id)

    def choose(self, player: PlayerState, choice: JSON) -> None:
        """Answer the player's pending decision."""
        pending = self.owed_decision(player.name)
        rule_id = STEP_C_CHOICE if pending.source == "hand" else DISPLAY_THIRD
        cards = self.chosen_cards(player.name, pending, choice, rule_id,
                                  f"{player.name} must answer with {pending.decision!r}")
        if pending.source == "hand":
            if not contains(player.hand, cards):
                raise Rejected(Rejection(f"{player.name}'s hand does not hold {cards}", rule_id))
            self.g.pending.remove(pending)
            self.keep_cards(player, cards)
            return
        if not contains(pending.options, cards):
            raise Rejected(Rejection(f"{player.name} discards one of {pending.options}", rule_id))
        self.g.pending.remove(pending)
        for card in cards:
            self.discard_display(player, self.display_of(player, card))
