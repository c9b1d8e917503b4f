"""The EU hand limit (checked only in Phase 5 Step C) and the decisions it leaves pending.

Why apart: unlike TI4, a hand may grow past the limit at any time (6.cards-in-hand.2); the
check waits for Step C (4.5.c), and a third Display Card leaves a decision of its own
(6.2.display.10), answered by ``choose``.
"""

from __future__ import annotations

from oracle.games.eu_pop.cards import DECKS
from oracle.games.eu_pop.engine.state import (
    DISPLAY_THIRD,
    STEP_C_CHOICE,
    STEP_C_LIMIT,
    Pending,
    PlayerState,
)
from oracle.games.eu_pop.engine.state import HAND_LIMIT as HAND_LIMIT_RULE
from oracle.games.kit import JSON, Rejected, Rejection, RequestError, contains, not_kept
from oracle.games.kit.decisions import PendingDecisions


class StepC(PendingDecisions):
    """Phase 5 Step C, pending decisions, and the answers to them."""

    #: 6.cards-in-hand.2: the hand size limit, checked only in Phase 5 Step C.
    HAND_LIMIT = 5
    #: 3.0 step 4: at set-up, each player holds up to 4 Action Cards ("Note: hand size limit
    #: at the end of Phase 5 is 5 Action Cards"): a hold of its own, not the hand limit.
    SETUP_HOLD = 4
    #: 3.0 step 4: besides one card of each deck, the cards a player draws of their choice.
    SETUP_CHOSEN = 3

    def check_setup_step(self, step: int, doing: str) -> None:
        """3.0 step 4 "replaces the Draw Cards Phase of the first Round": in Phase 1, once,
        the draw before the hold. No rule of the chapter states the step (3.0 is a related
        chapter), so a rejection of it names no rule."""
        game = self.g
        if game.phase != "draw":
            raise Rejected(Rejection(f"the set-up's Action Cards replace Phase 1 (Draw Cards) "
                                     f"of the first Round: {doing} happens in it"))
        if game.setup_step != step - 1:
            raise Rejected(Rejection(f"the set-up's Action Cards are drawn, then held, once: "
                                     f"{doing} comes at step {step}, and the set-up is at "
                                     f"step {game.setup_step}"))
        if game.pending:
            raise Rejected(Rejection("a decision is still pending"))

    def act_setup_draw(self, action: JSON) -> None:
        """3.0 step 4: each player, in Turn order, draws 1 card from each Action Card deck,
        plus another 3 of their choice (``choices``: each player's decks for those 3)."""
        choices = action.get("choices")
        if not isinstance(choices, dict) or set(choices) != set(self.g.seats):
            raise RequestError("setup_draw.choices must give every player's chosen decks")
        for name, decks in choices.items():
            if (not isinstance(decks, list) or len(decks) != self.SETUP_CHOSEN
                    or any(d not in DECKS for d in decks)):
                raise RequestError(f"setup_draw.choices.{name} must name {self.SETUP_CHOSEN} "
                                   f"decks among {list(DECKS)}")
        self.check_setup_step(1, "the set-up draw")
        for name in self.g.seats:
            player = self.g.players[name]
            for deck in (*DECKS, *choices[name]):
                player.hand.extend(self.take_from_deck(deck, 1))
            self.emit("drew", player=name, count=len(DECKS) + self.SETUP_CHOSEN)
        self.g.setup_step = 1

    def act_setup_hold(self, action: JSON) -> None:
        """3.0 step 4: after Appointing, each player holds up to 4 Action Cards, discarding
        as necessary: a player with more chooses the 4 to keep."""
        self.check_setup_step(2, "holding up to the set-up's hand")
        for name in self.g.seats:
            if len(self.g.players[name].hand) > self.SETUP_HOLD:  # "in their hand"
                self.add_pending(Pending(name, "keep", self.SETUP_HOLD, "hand"))
        self.g.setup_step = 2

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
        # Step C's count is 4.5.c.1's ("down to a maximum hand size of 5"); which cards,
        # 4.5.c.2's. Two outside engines (tests/styles/eu_values.py, node_eu) cite 4.5.c.1
        # for keeping 6, and differential exploration flagged the reference for 4.5.c.2.
        step_c = pending.source == "hand" and self.g.phase == "cleanup"
        cards = self.chosen_cards(player.name, pending, choice, rule_id,
                                  f"{player.name} must answer with {pending.decision!r}",
                                  STEP_C_LIMIT if step_c else None)
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
