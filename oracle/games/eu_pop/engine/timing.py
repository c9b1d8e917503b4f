"""When an EU card may be played: Turns, Reactions, and what a card is marked as.

Why apart: a card normally takes the whole Turn (6.action-cards.2); Reactions and Battle
Actions do not (6.2.reactions.1, 6.2.battle.1), and only a Reaction interrupts a card being
played.
"""

from __future__ import annotations

from oracle.games.eu_pop.cards import ActionFact, CardFact
from oracle.games.eu_pop.engine.state import TURN
from oracle.games.kit import JSON, Rejected, Rejection


class Timing:
    """Kinds of card, Turns and Reactions."""

    @staticmethod
    def is_display(fact: CardFact) -> bool:
        """6.2.display.1: marked as a Display Card."""
        return "display" in fact.kinds

    def is_battle_action(self, kinds: frozenset[str]) -> bool:
        """6.2.battle.1, 6.2.display.6: marked as a Battle Action."""
        return "battle_action" in kinds

    def is_reaction(self, kinds: frozenset[str]) -> bool:
        """6.2.reactions.1, 6.2.display.6: marked as a Reaction."""
        return "reaction" in kinds

    def is_covert(self, kinds: frozenset[str]) -> bool:
        """6.2.covert.2: marked as a Covert Action."""
        return "covert" in kinds

    def takes_turn(self, fact: CardFact) -> bool:
        """6.action-cards.2: playing a card takes a whole Turn, unless it is a Reaction or a
        Battle Action (which are played when their moment comes)."""
        return not (self.is_reaction(fact.kinds) or self.is_battle_action(fact.kinds))

    def action_kinds(self, action: ActionFact) -> frozenset[str]:
        """6.2.display.6: an Action on a Display Card marked as a Battle Action or a Reaction
        is treated as such (and one marked Covert as a Covert Action, 6.2.covert.1)."""
        return action.kinds

    def action_takes_turn(self, kinds: frozenset[str]) -> bool:
        """6.2.display.5: an Action on a Display Card normally takes a Turn (its Battle
        Actions and Reactions do not, 6.2.display.6)."""
        return not (self.is_reaction(kinds) or self.is_battle_action(kinds))

    def check_nothing_being_played(self, doing: str) -> Rejection | None:
        """6.2.reactions.1: only a Reaction interrupts a card being played."""
        if self.g.being_played:
            top = self.g.being_played[-1]
            return Rejection(f"{top.player}'s {top.name!r} is being played: only a Reaction can "
                             f"interrupt it, so resolve it before you {doing}", TURN)
        return None

    def check_turn(self, name: str, doing: str, rule_id: str = TURN) -> Rejection | None:
        """6.action-cards.2: a Turn's Action is the active player's, once, in the Action Phase."""
        game = self.g
        blocked = self.check_nothing_being_played(doing)
        if blocked is not None:
            return blocked
        if game.phase != "action":
            return Rejection(f"to {doing} takes a Turn, and Turns are taken in the Action Phase",
                             rule_id)
        if game.active_player != name:
            return Rejection(f"to {doing} takes a Turn, and it is {game.active_player}'s Turn",
                             rule_id)
        if game.action_taken:
            return Rejection(f"{name} has already taken this Turn's Action", rule_id)
        return None

    def check_reaction(self, name: str, doing: str) -> Rejection | None:
        """6.2.reactions.1: a Reaction interrupts play: any player, any Turn, any phase."""
        return None

    def spend_turn(self) -> None:
        """6.action-cards.2: the Turn's Action has been taken."""
        self.g.action_taken = True

    def after_reaction(self, name: str) -> None:
        """6.2.reactions.1: a Reaction leaves the Turn as it was."""

    def act_end_turn(self, action: JSON) -> None:
        """The active player's Turn ends; the next player clockwise (seat order) is active."""
        game = self.g
        player = self.player(action.get("player"))
        self.require(self.check_nothing_being_played("end the Turn"))
        self.require(self.check_not_pending(player.name, "end the Turn"))
        if game.phase != "action" or game.active_player != player.name:
            raise Rejected(Rejection(f"it is not {player.name}'s Turn", TURN))
        seats = game.seats
        game.active_player = seats[(seats.index(player.name) + 1) % len(seats)]
        game.turn += 1
        game.action_taken = False
        self.emit("turn", player=game.active_player)
