"""EU Display Cards: placed on display with charges, their Actions used in later Turns.

Why apart: a Display Card is not discarded after its Action (6.2.display.2); its own Actions
spend charges (6.2.display.7, 6.2.display.8), and a player keeps at most two (6.2.display.9,
6.2.display.10).
"""

from __future__ import annotations

from oracle.games.eu_pop.cards import ActionFact, CardFact
from oracle.games.eu_pop.engine.state import DISPLAY_LIMIT, Display, Pending, PlayerState
from oracle.games.kit import Rejection


class Displays:
    """Placing, using and discarding Display Cards."""

    #: 6.2.display.9: Display Cards a player may have in play.
    MAX_DISPLAYS = 2

    def charges_for(self, fact: CardFact) -> int:
        """6.2.display.2: charged with as many tokens as the card shows squares."""
        return fact.charges

    def check_display_duplicate(self, player: PlayerState, fact: CardFact) -> Rejection | None:
        """6.2.display.9: never 2 of the same Display Card in play."""
        if any(d.card == fact.name for d in player.display):
            return Rejection(f"{player.name} already has {fact.name!r} on display",
                             DISPLAY_LIMIT)
        return None

    def display_over_limit(self, player: PlayerState) -> bool:
        """6.2.display.9: at most 2 Display Cards in play."""
        return len(player.display) > self.MAX_DISPLAYS

    def place_on_display(self, player: PlayerState, fact: CardFact) -> None:
        """6.2.display.2: placed face up on display, charged; 6.2.display.10 over the limit."""
        older = [d.card for d in player.display]
        player.display.append(Display(fact.name, self.charges_for(fact), self.g.turn))
        self.emit("on_display", player=player.name, card=fact.name)
        if self.display_over_limit(player):
            self.third_display(player, older)

    def third_display(self, player: PlayerState, older: list[str]) -> None:
        """6.2.display.10: the player discards 1 of the cards that were already in play."""
        extra = len(player.display) - self.MAX_DISPLAYS
        self.add_pending(Pending(player.name, "discard", extra, "display", older))

    def display_of(self, player: PlayerState, card: str) -> Display:
        """The Display Card ``card`` in ``player``'s display (it must be there)."""
        return next(d for d in player.display if d.card == card)

    def discard_display(self, player: PlayerState, display: Display) -> None:
        """Take a Display Card out of play onto its deck's discard pile."""
        player.display.remove(display)
        self.discard_card(display.card)
        self.emit("display_discarded", player=player.name, card=display.card)

    def find_display(self, name: str, card: str) -> tuple[PlayerState, Display] | None:
        """6.2.display.4: a Display Card's Actions are available to the player who played it."""
        player = self.g.players[name]
        display = next((d for d in player.display if d.card == card), None)
        return (player, display) if display else None

    def usable_now(self, display: Display) -> bool:
        """6.2.display.4: in subsequent Turns, not the Turn it was placed."""
        return display.placed_turn < self.g.turn

    def uses_of(self, action: ActionFact) -> int:
        """6.2.display.7: a use removes one charge, or more if the card says so."""
        return action.uses

    def spend_charges(self, player: PlayerState, display: Display, n: int) -> None:
        """6.2.display.7, 6.2.display.8: remove the charges; the last one spent discards it."""
        display.charges -= n
        if display.charges <= 0:
            self.display_emptied(player, display)

    def display_emptied(self, player: PlayerState, display: Display) -> None:
        """6.2.display.8: once the last charge is spent, discard the card."""
        self.discard_display(player, display)
