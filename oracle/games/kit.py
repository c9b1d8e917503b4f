"""What every bundled Python reference engine needs besides its rules: protocol plumbing.

Why this is shared: a reference engine must answer every request with a reply and never raise,
turn a malformed request into ``errored``, a thing it does not model into ``unsupported``, and
make a rejected action change nothing. That plumbing is the same for every game, and a second
copy of it would drift from the first; each game's engine subclasses ``ProtocolEngine`` and
writes only its rules (``_op_describe``, ``_op_setup``, ``_op_observe``, ``choose`` and the
action handlers named in ``ACTIONS``).
"""

from __future__ import annotations

import pickle
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

JSON = dict[str, Any]
REFEREE = "*"


class RequestError(Exception):
    """A malformed request or an impossible state: the scenario is broken, reply ``errored``."""

    def __init__(self, message: str, context: JSON | None = None) -> None:
        super().__init__(message)
        self.context = context or {}


class UnsupportedRequest(Exception):
    """Something this engine does not model: reply ``unsupported`` (never a failure)."""

    def __init__(self, reason: str, capability: str | None = None) -> None:
        super().__init__(reason)
        self.capability = capability


@dataclass(frozen=True)
class Rejection:
    """Why the rules forbid an action, and which rule says so."""

    reason: str
    rule: str | None = None


class Rejected(Exception):
    """Raised inside an action handler to reject it; ``handle`` restores the snapshot."""

    def __init__(self, rejection: Rejection) -> None:
        super().__init__(rejection.reason)
        self.rejection = rejection


# -- request-shape helpers ----------------------------------------------------------------------


def need(obj: JSON, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``obj[key]`` of type ``kind``, or a RequestError naming the field."""
    if key not in obj:
        raise RequestError(f"{where} needs '{key}'")
    value = obj[key]
    if not isinstance(value, kind):
        raise RequestError(f"{where}: '{key}' has the wrong type: {value!r}")
    return value


def str_list(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RequestError(f"{where} must be a list of strings, got {value!r}")
    return list(value)


def count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RequestError(f"{where} must be a non-negative integer, got {value!r}")
    return value


def contains(hand: Iterable[str], cards: Iterable[str]) -> bool:
    """Is ``cards`` a sub-multiset of ``hand``?"""
    have = Counter(hand)
    have.subtract(Counter(cards))
    return all(n >= 0 for n in have.values())


# -- the engine base --------------------------------------------------------------------------


class ProtocolEngine:
    """``handle()`` for a Python engine: dispatch, errors as replies, rejections undone.

    Subclasses set ``GAME``, ``NAME``, ``VERSION``, ``EDITION`` and ``ACTIONS`` (action
    type -> handler method name), give their game state a ``players`` dict, and implement
    ``capabilities``, ``_op_setup``, ``_op_observe`` and ``choose``. Every ``act``
    and ``choose`` runs on the live state after a deep copy is taken; a ``Rejected`` (or any
    exception) puts the copy back, so even a mutant that validates too late cannot leak a
    half-done change.
    """

    GAME: ClassVar[str] = ""
    NAME: ClassVar[str] = ""
    VERSION: ClassVar[str] = "0.1.0"
    PROTOCOL: ClassVar[int] = 1
    EDITION: ClassVar[str] = ""
    ACTIONS: ClassVar[dict[str, str]] = {}

    def __init__(self) -> None:
        self.game: Any = None
        self._events: list[JSON] = []

    def handle(self, request: dict) -> dict:
        """Answer one protocol request; every failure becomes a reply, never an exception."""
        op = request.get("op") if isinstance(request, dict) else None
        try:
            if not isinstance(request, dict):
                raise RequestError(f"a request must be a JSON object, got {request!r}")
            handlers: dict[str, Callable[[JSON], JSON]] = {
                "describe": self._op_describe,
                "setup": self._op_setup,
                "act": self._op_act,
                "choose": self._op_choose,
                "observe": self._op_observe,
            }
            handler = handlers.get(op) if isinstance(op, str) else None
            if handler is None:
                raise RequestError(f"unknown op {op!r}", {"op": op})
            return handler(request)
        except RequestError as exc:
            return {"reply": "errored", "message": str(exc), "context": {"op": op, **exc.context}}
        except UnsupportedRequest as exc:
            reply: JSON = {"reply": "unsupported", "reason": str(exc)}
            if exc.capability:
                reply["capability"] = exc.capability
            return reply
        except Exception as exc:
            return {
                "reply": "errored",
                "message": f"internal error: {type(exc).__name__}: {exc}",
                "context": {
                    "op": op,
                    "exception": type(exc).__name__,
                    "traceback": traceback.format_exc(limit=8),
                },
            }

    # -- what a game supplies ---------------------------------------------------------------

    def capabilities(self) -> list[str]:
        raise NotImplementedError

    def _op_describe(self, request: JSON) -> JSON:
        return {"reply": "described", "engine": {
            "name": self.NAME, "version": self.VERSION, "protocol": self.PROTOCOL,
            "games": [{"game": self.GAME, "edition": self.EDITION}],
            "capabilities": self.capabilities(),
        }}

    def _op_setup(self, request: JSON) -> JSON:
        raise NotImplementedError

    def _op_observe(self, request: JSON) -> JSON:
        raise NotImplementedError

    @property
    def g(self) -> Any:
        """The live game (shorthand for rule methods)."""
        return self.require_game()

    def player(self, name: Any) -> Any:
        """The named player, or errored: an unknown name is a broken scenario, not a rule."""
        game = self.require_game()
        if not isinstance(name, str) or name not in game.players:
            raise RequestError(f"unknown player {name!r}", {"players": list(game.players)})
        return game.players[name]

    def choose(self, player: Any, choice: JSON) -> None:
        raise NotImplementedError

    # -- act and choose ------------------------------------------------------------------------

    def _op_act(self, request: JSON) -> JSON:
        action = need(request, "action", dict, "act")
        kind = need(action, "type", str, "action")
        method = self.ACTIONS.get(kind)
        if method is None:
            raise UnsupportedRequest(f"this engine does not know the action type {kind!r}")
        return self._transaction(lambda: getattr(self, method)(action))

    def _op_choose(self, request: JSON) -> JSON:
        player = self.player(need(request, "player", str, "choose"))
        choice = need(request, "choice", dict, "choose")
        return self._transaction(lambda: self.choose(player, choice))

    def _transaction(self, run: Callable[[], None]) -> JSON:
        """Run one act/choose so that a rejection or a crash leaves the state untouched."""
        game = self.require_game()
        # A pickled snapshot: unpickled, the same deep copy as copy.deepcopy for plain game
        # data (dataclasses, lists, a seeded Random), several times faster. One is taken per
        # move and unpickled only when the move is undone.
        snapshot = pickle.dumps(game, pickle.HIGHEST_PROTOCOL)
        self._events = []
        try:
            run()
        except Rejected as rej:
            self.game = pickle.loads(snapshot)
            reply: JSON = {"reply": "rejected", "reason": rej.rejection.reason}
            if rej.rejection.rule:
                reply["rule"] = rej.rejection.rule
            return reply
        except BaseException:
            self.game = pickle.loads(snapshot)
            raise
        return {"reply": "accepted", "events": list(self._events)}

    def emit(self, event: str, **fields: Any) -> None:
        """Record a free-form event for the people reading the report."""
        self._events.append({"event": event, **fields})

    def require_game(self) -> Any:
        if self.game is None:
            raise RequestError("no game is set up: send 'setup' first")
        return self.game

    @staticmethod
    def require(rejection: Rejection | None) -> None:
        """Reject the action in progress if a check said no."""
        if rejection is not None:
            raise Rejected(rejection)
