"""The adapter protocol as frozen, typed values.

The JSON Schemas in ``oracle/protocol/schemas/v1/`` are the contract (see
``docs/protocol.md``); this module is the oracle's side of it. Requests are
built here and turned into plain dicts; every reply an engine sends is parsed
into exactly one of a closed set of reply types, so that anything an engine
does, including sending garbage, becomes data the report can show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PROTOCOL_VERSION = 1

JSON = dict[str, Any]


# -- requests -----------------------------------------------------------------


@dataclass(frozen=True)
class Describe:
    """Ask the engine who it is and what it can do."""

    def to_json(self) -> JSON:
        return {"op": "describe"}


@dataclass(frozen=True)
class Setup:
    """Throw away any game in progress and set up exactly ``state``."""

    game: str
    state: Mapping[str, Any]
    seed: int

    def to_json(self) -> JSON:
        return {"op": "setup", "game": self.game, "state": self.state, "seed": self.seed}


@dataclass(frozen=True)
class Act:
    """A player (or the table) does something."""

    action: Mapping[str, Any]

    def to_json(self) -> JSON:
        return {"op": "act", "action": self.action}


@dataclass(frozen=True)
class Choose:
    """A player answers the decision the engine is waiting for."""

    player: str
    choice: Mapping[str, Any]

    def to_json(self) -> JSON:
        return {"op": "choose", "player": self.player, "choice": self.choice}


REFEREE = "*"
"""The viewer that sees everything, deck order included: the oracle's ground truth."""


@dataclass(frozen=True)
class Observe:
    """The game as ``viewer`` sees it: a player, ``None`` (spectator) or ``REFEREE``."""

    viewer: str | None

    def to_json(self) -> JSON:
        return {"op": "observe", "viewer": self.viewer}


Request = Describe | Setup | Act | Choose | Observe


# -- replies --------------------------------------------------------------------


@dataclass(frozen=True)
class EngineInfo:
    """What an engine says about itself in its ``described`` reply."""

    name: str
    version: str
    protocol: int
    games: tuple[str, ...]
    capabilities: frozenset[str]
    editions: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "version": self.version,
            "protocol": self.protocol,
            "games": [{"game": g, "edition": self.editions.get(g, "")} for g in self.games],
            "capabilities": sorted(self.capabilities),
        }


@dataclass(frozen=True)
class Described:
    engine: EngineInfo


@dataclass(frozen=True)
class Ready:
    pass


@dataclass(frozen=True)
class Accepted:
    events: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Rejected:
    reason: str
    rule: str | None = None


@dataclass(frozen=True)
class View:
    view: Mapping[str, Any]


@dataclass(frozen=True)
class Unsupported:
    reason: str
    capability: str | None = None


@dataclass(frozen=True)
class Errored:
    message: str
    context: Mapping[str, Any] = field(default_factory=dict)


Reply = Described | Ready | Accepted | Rejected | View | Unsupported | Errored

EXPECTED_REPLIES: dict[str, tuple[str, ...]] = {
    "describe": ("described",),
    "setup": ("ready",),
    "act": ("accepted", "rejected"),
    "choose": ("accepted", "rejected"),
    "observe": ("view",),
}
"""Which reply kinds answer which request, besides ``unsupported`` and ``errored``."""


class ProtocolError(Exception):
    """The engine sent something that is not a valid reply to the request."""


def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ProtocolError(
            f"reply {data.get('reply')!r} needs {key!r} of type "
            f"{getattr(kind, '__name__', kind)}, got {value!r}"
        )
    return value


def _engine_info(data: Mapping[str, Any]) -> EngineInfo:
    games = _need(data, "games", list)
    names: list[str] = []
    editions: dict[str, str] = {}
    for g in games:
        if not isinstance(g, Mapping) or not isinstance(g.get("game"), str):
            raise ProtocolError(f"each entry of engine.games must be {{'game': str}}, got {g!r}")
        names.append(g["game"])
        editions[g["game"]] = str(g.get("edition", ""))
    caps = _need(data, "capabilities", list)
    if not all(isinstance(c, str) for c in caps):
        raise ProtocolError(f"engine.capabilities must be a list of strings, got {caps!r}")
    return EngineInfo(
        name=_need(data, "name", str),
        version=str(data.get("version", "")),
        protocol=_need(data, "protocol", int),
        games=tuple(names),
        capabilities=frozenset(caps),
        editions=editions,
    )


#: Each request's op, without building its message again for every reply.
_OPS: dict[type, str] = {Describe: "describe", Setup: "setup", Act: "act", Choose: "choose",
                         Observe: "observe"}


def parse_reply(request: Request, data: object) -> Reply:
    """Turn an engine's raw reply into a typed reply, or raise ProtocolError saying why not."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise ProtocolError(f"a reply must be a JSON object, got {type(data).__name__}: {data!r}")
    kind = data.get("reply")
    if kind == "view" and type(request) is Observe and type(data.get("view")) is dict:
        # Most replies are views: answered before the general checks below (the same result).
        return View(data["view"])
    op = _OPS.get(type(request)) or request.to_json()["op"]
    allowed = (*EXPECTED_REPLIES[op], "unsupported", "errored")
    if kind not in allowed:
        raise ProtocolError(
            f"{kind!r} is not a reply to {op!r}; expected one of {', '.join(allowed)}"
        )
    if kind == "described":
        return Described(_engine_info(_need(data, "engine", Mapping)))
    if kind == "ready":
        return Ready()
    if kind == "accepted":
        events = data.get("events", [])
        if not isinstance(events, list):
            raise ProtocolError(f"'events' must be a list, got {events!r}")
        return Accepted(tuple(events))
    if kind == "rejected":
        rule = data.get("rule")
        return Rejected(_need(data, "reason", str), rule if isinstance(rule, str) else None)
    if kind == "view":
        return View(_need(data, "view", Mapping))
    if kind == "unsupported":
        cap = data.get("capability")
        return Unsupported(_need(data, "reason", str), cap if isinstance(cap, str) else None)
    context = data.get("context", {})
    if not isinstance(context, Mapping):
        raise ProtocolError(f"'context' of an errored reply must be an object, got {context!r}")
    return Errored(_need(data, "message", str), context)
