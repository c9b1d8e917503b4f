"""What playing an EU card (or taking an Action on a Display Card) costs, and paying it.

Why apart: Monarch Power of the card's deck type and Ducats (6.action-cards.3-5), reduced by
game effects but never below 0, are checked before anything else of a play changes.
"""

from __future__ import annotations

from oracle.games.eu_pop.cards import ActionFact, CardFact
from oracle.games.eu_pop.engine.state import COST_TYPE, DUCAT_COST, PlayerState
from oracle.games.kit import Rejection


class Costs:
    """Monarch Power and Ducat costs, their reductions, and paying them."""

    def cost_type(self, fact: CardFact) -> str:
        """6.action-cards.3: a card's Monarch Power cost is of its deck's type."""
        return fact.deck

    def reduced(self, amount: int, reduction: int) -> int:
        """6.action-cards.5: a cost can never go below 0."""
        return max(0, amount - reduction)

    def ducat_cost(self, player: PlayerState, fact: CardFact) -> int:
        """6.action-cards.4: some cards also cost Ducats."""
        return self.reduced(fact.ducats, player.cost_reductions.get("ducats", 0))

    def card_cost(self, player: PlayerState, fact: CardFact) -> dict[str, int]:
        """What playing ``fact`` costs ``player``: Monarch Power of one type, and Ducats."""
        kind = self.cost_type(fact)
        return {kind: self.reduced(fact.cost, player.cost_reductions.get(kind, 0)),
                "ducats": self.ducat_cost(player, fact)}

    def action_cost(self, player: PlayerState, action: ActionFact) -> dict[str, int]:
        """6.action-cards.5, 6.2.display.5: an Action on a Display Card has its own cost."""
        reduction = player.cost_reductions.get(action.power, 0)
        return {action.power: self.reduced(action.cost, reduction)}

    def check_can_pay(self, player: PlayerState, cost: dict[str, int],
                      what: str) -> Rejection | None:
        """6.action-cards.3, 6.action-cards.4: the cost must be paid in full."""
        for kind, amount in cost.items():
            have = player.ducats if kind == "ducats" else player.power[kind]
            if amount > have:
                label = "Ducats" if kind == "ducats" else f"{kind} Monarch Power"
                rule_id = DUCAT_COST if kind == "ducats" else COST_TYPE
                return Rejection(f"{what} costs {amount} {label}; {player.name} has {have}",
                                 rule_id)
        return None

    def pay(self, player: PlayerState, cost: dict[str, int]) -> None:
        """Pay a cost (6.2.covert.3: it stays paid even if the card is countered)."""
        for kind, amount in cost.items():
            if kind == "ducats":
                player.ducats -= amount
            else:
                player.power[kind] -= amount
        self.emit("paid", player=player.name, cost=dict(cost))
