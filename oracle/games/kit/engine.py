"""``ProtocolEngine``: what every bundled Python reference engine needs besides its rules.

Why this is shared: a reference engine must answer every request with a reply and never raise,
turn a malformed request into ``errored``, a thing it does not model into ``unsupported``, and
make a rejected action change nothing. That plumbing is the same for every game, and a second
copy of it would drift from the first; each game's engine subclasses ``ProtocolEngine`` and
writes only its rules (``capabilities``, ``build_state``, ``view``, ``choose`` and the action
handlers named in ``ACTIONS``).
"""

from __future__ import annotations

import copyreg
import pickle
import random
import traceback
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar

from oracle.games.kit.errors import JSON, Rejected, Rejection, RequestError, UnsupportedRequest
from oracle.games.kit.requests import need

# -- the engine base --------------------------------------------------------------------------

#: Each op's handler method.
_HANDLERS = {op: f"_op_{op}" for op in ("describe", "setup", "act", "choose", "observe")}


class ProtocolEngine:
    """``handle()`` for a Python engine: dispatch, errors as replies, rejections undone.

    Subclasses set ``GAME``, ``NAME``, ``VERSION``, ``EDITION`` and ``ACTIONS`` (action
    type -> handler method name), give their game state a ``players`` dict, and implement
    ``capabilities``, ``build_state``, ``_op_observe`` and ``choose``. Every ``act``
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
    #: While ``forbidding`` asks: the refusals ``require`` collects instead of raising.
    _collecting: list[Rejection] | None = None
    fresh_views: ClassVar[bool] = True
    """Every ``view`` reply is built afresh from plain JSON data (dicts, lists, str, int,
    bool, None) and shares nothing with the engine's state, so the client need not copy it
    (views are most of what exploration moves; every request and other reply is still
    copied). A subclass whose ``view`` hands out its own lists or tuples sets False."""

    def __init__(self) -> None:
        self.game: Any = None
        self._events: list[JSON] = []
        #: The snapshot of the live game after a rejection put it back (see ``_transaction``).
        self._undone: tuple[_Snapshot, Any] | None = None

    def handle(self, request: dict) -> dict:
        """Answer one protocol request; every failure becomes a reply, never an exception."""
        op = request.get("op") if isinstance(request, dict) else None
        try:
            if not isinstance(request, dict):
                raise RequestError(f"a request must be a JSON object, got {request!r}")
            name = _HANDLERS.get(op) if isinstance(op, str) else None
            if name is None:
                raise RequestError(f"unknown op {op!r}", {"op": op})
            handler: Callable[[JSON], JSON] = getattr(self, name)
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
        """What the engine can do (``describe``), so that no scenario it cannot run is sent."""
        raise NotImplementedError

    def _op_describe(self, request: JSON) -> JSON:
        """Name, version, protocol, game and capabilities: the oracle's handshake."""
        return {"reply": "described", "engine": {
            "name": self.NAME, "version": self.VERSION, "protocol": self.PROTOCOL,
            "games": [{"game": self.GAME, "edition": self.EDITION}],
            "capabilities": self.capabilities(),
        }}

    def _op_setup(self, request: JSON) -> JSON:
        """Build a game of ``GAME`` from the request's state, its shuffles seeded."""
        self.game = None
        if request.get("game") != self.GAME:
            raise UnsupportedRequest(
                f"this engine plays only {self.GAME!r}, not {request.get('game')!r}")
        seed = request.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise RequestError(f"'seed' must be an integer, got {seed!r}")
        state = need(request, "state", dict, "setup")
        self.game = self.build_state(state, UndoableRandom(seed))
        return {"reply": "ready"}

    def build_state(self, state: JSON, rng: random.Random) -> Any:
        """The game a setup state describes; anything impossible is ``errored``."""
        raise NotImplementedError

    def _op_observe(self, request: JSON) -> JSON:
        """The table as one viewer sees it (``oracle.games.kit.observe`` answers it)."""
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
        """Answer ``player``'s pending decision (each game has its own decisions)."""
        raise NotImplementedError

    # -- act and choose ------------------------------------------------------------------------

    def _op_act(self, request: JSON) -> JSON:
        """Dispatch an action to its handler in ``ACTIONS``; an unknown type is unsupported."""
        action = need(request, "action", dict, "act")
        kind = need(action, "type", str, "action")
        method = self.ACTIONS.get(kind)
        if method is None:
            raise UnsupportedRequest(f"this engine does not know the action type {kind!r}")
        return self._transaction(lambda: getattr(self, method)(action))

    def _op_choose(self, request: JSON) -> JSON:
        """A player answers a pending decision; like an action, undone if rejected."""
        player = self.player(need(request, "player", str, "choose"))
        choice = need(request, "choice", dict, "choose")
        return self._transaction(lambda: self.choose(player, choice))

    def _transaction(self, run: Callable[[], None]) -> JSON:
        """Run one act/choose so that a rejection or a crash leaves the state untouched.

        The game a rejection put back is its snapshot's, unchanged until the next act or
        choose (an ``observe`` only reads it), so the next transaction takes no new snapshot
        of it: exploration tries many refused moves in a row, and a snapshot is a deep copy.
        """
        game = self.require_game()
        undone, self._undone = self._undone, None
        snapshot = undone[0] if undone is not None and undone[1] is game else _Snapshot(game)
        self._events = []
        try:
            run()
        except Rejected as rej:
            self.game = snapshot.restore(game)
            self._undone = (snapshot, self.game)
            reply: JSON = {"reply": "rejected", "reason": rej.rejection.reason}
            if rej.rejection.rule:
                reply["rule"] = rej.rejection.rule
            return reply
        except BaseException:
            self.game = snapshot.restore()
            self._undone = (snapshot, self.game)
            raise
        return {"reply": "accepted", "events": list(self._events)}

    def emit(self, event: str, **fields: Any) -> None:
        """Record a free-form event for the people reading the report."""
        self._events.append({"event": event, **fields})

    def require_game(self) -> Any:
        """The live game, or errored: no rule can be asked about before ``setup``."""
        if self.game is None:
            raise RequestError("no game is set up: send 'setup' first")
        return self.game

    def require(self, rejection: Rejection | None) -> None:
        """Reject the action in progress if a check said no (while ``forbidding`` asks,
        note it and go on to the next check)."""
        if rejection is not None:
            if self._collecting is not None:
                self._collecting.append(rejection)
                return
            raise Rejected(rejection)

    def forbidding(self, request: JSON) -> tuple[list[Rejection], bool]:
        """Every refusal this engine's checks give an ``act`` or ``choose`` request in the
        game as it is, each check asked on its own, and whether every check was asked (a
        refusal that ends the handler, as a missing card does, or a failure leaves the
        checks after it unasked); the game is left as it was.

        Why: where two rules forbid one action, the checks run in order and the rejection
        cites the first; differential exploration asks which others forbid it too, so that
        another engine citing one of them is not flagged (``oracle.explore.differential``).
        """
        game = self.require_game()
        snapshot, events = _Snapshot(game), list(self._events)
        found: list[Rejection] = []
        complete = False
        self._collecting = found
        try:
            if request.get("op") == "choose":
                self.choose(self.player(request.get("player")), request.get("choice"))
            elif request.get("op") == "act":
                action = request.get("action") or {}
                getattr(self, self.ACTIONS[action.get("type")])(action)
            complete = True
        except Rejected as rej:
            found.append(rej.rejection)
        except Exception:  # a handler gone on past a refusal may fail anyhow
            pass
        finally:
            self._collecting = None
            self.game = snapshot.restore(game)
            self._undone, self._events = (snapshot, self.game), events
        return found, complete


class UndoableRandom(random.Random):
    """A seeded ``random.Random`` that keeps its state from before its first draw since
    ``mark()``, and goes back to it on ``undo()``.

    Why: a rejected move must leave the shuffles where they were, but copying the generator's
    625-number state before every move cost as much as the rest of the snapshot, and most
    moves draw nothing; this copies it only when a move shuffles. The numbers drawn are
    ``random.Random``'s own, seed for seed.
    """

    _marked = False
    _saved: tuple[Any, ...] | None = None

    def mark(self) -> None:
        """From here, remember the state the first draw starts from."""
        self._marked, self._saved = True, None

    def undo(self) -> None:
        """Back to the state at ``mark()``, and marked again from there."""
        if self._saved is not None:
            super().setstate(self._saved)
        self.mark()

    def _drawing(self) -> None:
        if self._marked:
            self._marked, self._saved = False, super().getstate()

    # Every way to draw or reset goes through one of these (``shuffle``, ``choice``,
    # ``sample`` and the rest call ``random`` or ``getrandbits``).
    def random(self) -> float:
        self._drawing()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self._drawing()
        return super().getrandbits(k)

    def randbytes(self, n: int) -> bytes:
        self._drawing()
        return super().randbytes(n)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        self._drawing()
        super().seed(*args, **kwargs)

    def setstate(self, state: Any) -> None:
        self._drawing()
        super().setstate(state)


_State = TypeVar("_State", bound=type)


def snapshotted(cls: _State) -> _State:
    """Mark a class of game-state values as pickled the short way by ``_Snapshot``: its
    ``__dict__`` as it is, the very pickle Python makes by default.

    Why: the game is pickled before every act and choose (and again after a refusal), and
    the default reduce of an instance first looks for ``__getnewargs_ex__`` and
    ``__getnewargs__``, which most of its instances lack: about a tenth of a snapshot.
    """
    cls.__reduce_ex__ = _reduce_by_dict  # type: ignore[attr-defined]
    return cls


def _reduce_by_dict(self: Any, protocol: int) -> tuple[Any, ...]:
    return copyreg.__newobj__, (type(self),), self.__dict__  # type: ignore[attr-defined]


class _Snapshot:
    """A deep copy of a game taken before a move, made into a game only if the move is undone.

    Pickled: the same deep copy as ``copy.deepcopy`` for plain game data (dataclasses, lists),
    several times faster; and unpickled only on a rejection, so an accepted move pays half.
    The game's seeded ``rng`` (a ``random.Random``, whose 625-number state would be most of
    the pickle) is kept aside and put back into the same object: an ``UndoableRandom`` (the
    one ``setup`` makes) undoes its own draws, any other has its state copied.
    """

    __slots__ = ("blob", "rng", "rng_state")

    def __init__(self, game: Any) -> None:
        rng = getattr(game, "rng", None)
        self.rng = rng if isinstance(rng, random.Random) else None
        self.rng_state = None
        if isinstance(rng, UndoableRandom):
            rng.mark()
        elif self.rng is not None:
            self.rng_state = self.rng.getstate()
        self.blob = self._pickled(game)

    def _pickled(self, game: Any) -> bytes:
        """The game's pickle, without its ``rng`` (put back as it was)."""
        if self.rng is None:
            return pickle.dumps(game, pickle.HIGHEST_PROTOCOL)
        rng, game.rng = game.rng, None
        try:
            return pickle.dumps(game, pickle.HIGHEST_PROTOCOL)
        finally:
            game.rng = rng

    def restore(self, live: Any = None) -> Any:
        """The game as the snapshot holds it: ``live`` itself if it still pickles to the very
        same bytes (most refused moves are refused before they change anything; a copy
        unpickled from those bytes would be the same game, built again), else the copy."""
        game = None
        if live is not None:
            try:
                if self._pickled(live) == self.blob:
                    game = live
            except Exception:  # a game that no longer pickles is unpickled from the snapshot
                game = None
        if game is None:
            game = pickle.loads(self.blob)
        if isinstance(self.rng, UndoableRandom):
            self.rng.undo()
        elif self.rng is not None:
            self.rng.setstate(self.rng_state)
        if self.rng is not None:
            game.rng = self.rng
        return game
