"""Appointing an EU card's character instead of playing it for its Action.

Why apart: every Action Card is dual-purpose (6.action-cards.7, 6.action-cards.8); appointing
is a Minor Action (6.characters.2) that leaves the Turn's Action free.
"""

from __future__ import annotations

from oracle.games.eu_pop.cards import CardFact
from oracle.games.eu_pop.engine.state import APPOINT_ACTION, PlayerState
from oracle.games.kit import JSON, Rejected, Rejection


class Characters:
    """The Appoint Advisor/Leader Action."""

    def may_appoint(self, fact: CardFact) -> Rejection | None:
        """6.action-cards.7: every Action Card is dual-purpose: any can be appointed."""
        return None

    def character_role(self, fact: CardFact) -> str:
        """6.characters.1: the card depicts a Leader or an Advisor."""
        return fact.character

    def appoint(self, player: PlayerState, fact: CardFact) -> None:
        """6.action-cards.8: the card is used for its character instead of its Action."""
        player.hand.remove(fact.name)
        roles = player.leaders if self.character_role(fact) == "leader" else player.advisors
        roles.append(fact.name)
        self.emit("appointed", player=player.name, card=fact.name, role=self.character_role(fact))

    def after_minor_action(self) -> None:
        """6.action-cards.2: a Minor Action does not take the Turn."""

    def act_appoint(self, action: JSON) -> None:
        """6.characters.2: the Appoint Advisor/Leader (Minor) Action, from the hand."""
        player = self.player(action.get("player"))
        fact = self.card_fact(action.get("card"), "appoint.card")
        self.require(self.check_not_pending(player.name, "appoint"))
        if fact.name not in player.hand:
            raise Rejected(Rejection(f"{player.name} has no {fact.name!r} in hand",
                                     APPOINT_ACTION))
        self.require(self.may_appoint(fact))
        self.require(self.check_nothing_being_played("appoint"))
        game = self.g
        if game.phase != "action" or game.active_player != player.name:
            raise Rejected(Rejection("Appoint Advisor/Leader is a Minor Action of the active "
                                     "player's Turn", APPOINT_ACTION))
        self.appoint(player, fact)
        self.after_minor_action()
