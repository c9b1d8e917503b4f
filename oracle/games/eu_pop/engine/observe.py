"""What each viewer sees of an EU table.

Why apart: hidden information is a rule (6.cards-in-hand.1, 6.decks.3, 6.2.display.2) and is
checked per viewer; the viewer itself is validated by ``oracle.games.kit.observe``.
"""

from __future__ import annotations

from oracle.games.eu_pop.engine.state import PlayerState
from oracle.games.kit import JSON, REFEREE


class Views:
    """The table as a player, a spectator or the referee sees it."""

    def visible_hand(self, viewer: str | None, owner: PlayerState) -> list[str]:
        """6.cards-in-hand.1: a hand is secret from everyone but its owner (and the referee)."""
        return list(owner.hand) if viewer in (REFEREE, owner.name) else []

    def visible_hand_count(self, viewer: str | None, owner: PlayerState) -> int | None:
        """How many cards a hand holds is public (the hand limit is checked in public)."""
        return len(owner.hand)

    def visible_discard(self, viewer: str | None, deck: str) -> list[str]:
        """6.decks.2, 6.decks.3: the discard piles are face up: public information."""
        return list(self.g.decks[deck].discard)

    def visible_display(self, viewer: str | None, owner: PlayerState) -> list[JSON]:
        """6.2.display.2: Display Cards are placed face up: everyone sees them and charges."""
        return [{"card": d.card, "charges": d.charges} for d in owner.display]

    def view(self, viewer: str | None) -> JSON:
        """The table as ``viewer`` sees it (protocol view plus the EU extras)."""
        game = self.g
        players: JSON = {}
        for name in game.seats:
            p = game.players[name]
            players[name] = {
                "hand": {"count": self.visible_hand_count(viewer, p),
                         "cards": self.visible_hand(viewer, p)},
                "hand_limit": self.HAND_LIMIT,
                "power": dict(p.power),
                "ducats": p.ducats,
                "cost_reductions": dict(p.cost_reductions),
                "display": self.visible_display(viewer, p),
                "advisors": list(p.advisors),
                "leaders": list(p.leaders),
            }
        decks: JSON = {}
        for deck, pile in game.decks.items():
            draw: JSON = {"count": len(pile.draw)}
            if viewer == REFEREE:
                draw["cards"] = list(pile.draw)
            decks[deck] = {"draw": draw, "discard": self.visible_discard(viewer, deck)}
        battle: JSON | None = None
        if game.battle is not None:
            b = game.battle
            battle = {"attackers": list(b.attackers), "defenders": list(b.defenders),
                      "round": b.round, "step": b.step,
                      "dice": {side: sorted(dice) for side, dice in b.dice.items()}}
        return {
            "phase": game.phase,
            "window": game.window,
            "active_player": game.active_player,
            "turn": game.turn,
            "players": players,
            "decks": decks,
            "being_played": [
                {"player": r.player, "card": r.card, **({"action": r.action} if r.action else {})}
                for r in game.being_played
            ],
            "pending": [{"player": p.player, "decision": p.decision, "count": p.count,
                         "from": p.source} for p in game.pending],
            "battle": battle,
        }
