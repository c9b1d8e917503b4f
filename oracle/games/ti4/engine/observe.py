"""What each viewer sees of a TI4 table.

Why apart: hidden information is a rule (ti4:2.5, ti4:note-2, ti4:note-3) and is checked per
viewer; the viewer itself is validated by ``oracle.games.kit.observe``.
"""

from __future__ import annotations

import copy

from oracle.games.kit import JSON, REFEREE
from oracle.games.ti4.engine.state import ACTION_DECK, PlayerState


class Views:
    """The table as a player, a spectator or the referee sees it."""

    def visible_hand(self, viewer: str | None, owner: PlayerState) -> list[str]:
        """ti4:2.5, ti4:note-3: the owner and the referee see all; others see revealed cards."""
        if viewer in (REFEREE, owner.name):
            return list(owner.hand)
        if not owner.revealed:
            return []
        shown = dict(owner.revealed)
        visible: list[str] = []
        for card in owner.hand:
            if shown.get(card, 0) > 0:
                shown[card] -= 1
                visible.append(card)
        return visible

    def visible_hand_count(self, viewer: str | None, owner: PlayerState) -> int | None:
        """ti4:note-2: the number of cards in a hand is public."""
        return len(owner.hand)

    def visible_draw_pile(self, viewer: str | None) -> list[str] | None:
        """ti4:2.5: only the referee sees the order of the draw pile."""
        return list(self.g.draw) if viewer == REFEREE else None

    def view(self, viewer: str | None) -> JSON:
        """The table as ``viewer`` sees it (protocol view plus the TI4 extras)."""
        game = self.g
        players: JSON = {}
        count, visible, limit = self.visible_hand_count, self.visible_hand, self.hand_limit
        seated = game.players
        for name in game.seats:
            p = seated[name]
            players[name] = {
                "hand": {"count": count(viewer, p), "cards": visible(viewer, p)},
                "hand_limit": limit(p),
                "faction": p.faction,
                "technologies": list(p.technologies),
                "command_tokens": dict(p.command_tokens),
                "trade_goods": p.trade_goods,
                "secret_objectives": p.secret_objectives,
                "promissory_notes": p.promissory_notes,
            }
        draw: JSON = {"count": len(game.draw)}
        cards = self.visible_draw_pile(viewer)
        if cards is not None:
            draw["cards"] = cards
        # Empty lists are the usual case: made without a comprehension's call each.
        being, pending, units = game.being_played, game.pending, game.units
        return {
            "phase": game.phase,
            "window": game.window,
            "active_player": game.active_player,
            "players": players,
            "decks": {ACTION_DECK: {"draw": draw, "discard": list(game.discard)}},
            "being_played": [{"player": r.player, "card": r.card} for r in being]
            if being else [],
            "pending": [
                {"player": p.player, "decision": p.decision, "count": p.count} for p in pending
            ] if pending else [],
            "speaker": game.speaker,
            "initiative": list(game.initiative),
            "laws": list(game.laws),
            "event": copy.deepcopy(game.event),
            "planets": [dict(p) for p in game.planets],
            # A unit may carry whatever its setup gave: copied whole, never shared.
            "units": [_copied(u) for u in units] if units else [],
        }


_SCALARS = frozenset((str, int, float, bool, type(None)))


def _copied(unit: JSON) -> JSON:
    """A unit as its setup gave it, copied whole (a flat one, the usual, as a new dict)."""
    if type(unit) is not dict:
        return copy.deepcopy(unit)
    for value in unit.values():
        if type(value) not in _SCALARS:
            return copy.deepcopy(unit)
    return dict(unit)
