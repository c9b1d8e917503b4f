"""The ``observe`` request: whose view is asked for, checked the same way in every game.

Why shared: hidden information is checked per viewer (a player, a spectator, the referee), so
every engine must accept exactly the same viewers and refuse an unknown one as a broken
scenario. What each viewer *sees* is the game's rules, in its own ``view``.
"""

from __future__ import annotations

from typing import Any

from oracle.games.kit.errors import JSON, REFEREE, RequestError


class ObserveRequest:
    """``_op_observe`` for a ``ProtocolEngine``: validate the viewer, answer with ``view``."""

    def _op_observe(self: Any, request: JSON) -> JSON:
        """A player's name, ``null`` for a spectator, or ``'*'`` for the referee."""
        game = self.require_game()
        if "viewer" not in request:
            raise RequestError("observe needs 'viewer' (a player's name, null or '*')")
        viewer = request["viewer"]
        if viewer is not None and viewer != REFEREE and not (
                type(viewer) is str and viewer in game.players):
            self.player(viewer)  # errored: not a player
        return {"reply": "view", "view": self.view(viewer)}

    def view(self, viewer: str | None) -> JSON:
        """The table as ``viewer`` sees it: each game's own rules of what is hidden."""
        raise NotImplementedError
