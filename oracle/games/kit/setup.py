"""Reading a ``setup`` state: the keys an engine models, and the players it lists.

Why shared: every game's state is an object of known keys with a non-empty ``players`` list of
uniquely named players; a key the engine does not model is ``unsupported`` (the oracle skips
the scenario), a malformed list ``errored``. Each game builds its own player from each entry.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from oracle.games.kit.errors import JSON, RequestError, UnsupportedRequest
from oracle.games.kit.requests import need


def check_state_keys(state: JSON, modelled: Collection[str]) -> None:
    """Refuse, as unsupported, a state that says something the engine does not model."""
    unknown = set(state) - set(modelled)
    if unknown:
        raise UnsupportedRequest(f"this engine does not model state keys {sorted(unknown)}")


def read_players(state: JSON, build: Callable[[Any, str], Any]) -> dict[str, Any]:
    """``state.players`` built one by one with ``build(raw, where)``, keyed by name, in order."""
    raw_players = need(state, "players", list, "state")
    if not raw_players:
        raise RequestError("state.players must list at least one player")
    players: dict[str, Any] = {}
    for i, raw in enumerate(raw_players):
        player = build(raw, f"state.players[{i}]")
        if player.name in players:
            raise RequestError(f"player {player.name!r} is listed twice")
        players[player.name] = player
    return players


def player_entry(raw: Any, modelled: Collection[str], where: str) -> str:
    """Check one entry of ``state.players`` (an object of modelled keys) and return its name."""
    if not isinstance(raw, dict):
        raise RequestError(f"{where} must be an object, got {raw!r}")
    unknown = set(raw) - set(modelled)
    if unknown:
        raise UnsupportedRequest(f"{where}: this engine does not model {sorted(unknown)}")
    return need(raw, "name", str, where)
