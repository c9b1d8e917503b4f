"""``rules-oracle smoke``: a new adapter's first conversation, checked and explained.

Why: the first run of a new adapter against the whole suite fails in fifty ways at once,
all for one or two reasons (no handshake, stdout polluted by logging, a view in the wrong
shape). This command has the smallest possible conversation with the engine instead (the
handshake, a setup of a minimal state, a look at it as each kind of viewer, and an action
the rules must refuse) and says in plain words what is wrong and how to fix it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from oracle.engines import ConnectOptions, EngineClient, EngineSpec, connect
from oracle.engines.spec import DEFAULT_TIMEOUT
from oracle.protocol import (
    PROTOCOL_VERSION,
    REFEREE,
    Accepted,
    Act,
    Describe,
    Described,
    Errored,
    Observe,
    Ready,
    Rejected,
    Reply,
    Setup,
    View,
)
from oracle.suite.games import Game


@dataclass(frozen=True)
class Check:
    """One thing checked: what, whether it is right, what was seen, and how to fix it."""

    title: str
    ok: bool
    detail: str = ""
    fix: str = ""


def _say(reply: Reply) -> str:
    if isinstance(reply, Errored):
        return f"errored: {reply.message}"
    if isinstance(reply, Rejected):
        return f"rejected: {reply.reason}" + (f" (rule {reply.rule})" if reply.rule else "")
    if isinstance(reply, Accepted):
        return "accepted"
    return repr(reply)


class _Smoke:
    """The checks for one engine; each method appends what it found to ``checks``."""

    def __init__(self, client: EngineClient, games: Mapping[str, Game]) -> None:
        self.client = client
        self.games = games
        self.checks: list[Check] = []

    def check(self, title: str, ok: bool, detail: str = "", fix: str = "") -> bool:
        self.checks.append(Check(title, ok, detail, "" if ok else fix))
        return ok

    def run(self) -> list[Check]:
        reply = self.client.send(Describe())
        if not self.check(
            "handshake", isinstance(reply, Described),
            "the engine answered 'describe'" if isinstance(reply, Described) else _say(reply),
            "the engine must answer the first request, "
            f'{{"id": 0, "op": "describe", "protocol": {PROTOCOL_VERSION}}}, with one line: '
            '{"id": 0, "reply": "described", "engine": {...}} (docs/protocol.md, "Over a '
            'pipe"). If it crashed, the end of its stderr is shown above.',
        ):
            return self.checks
        assert isinstance(reply, Described)
        info = reply.engine
        self.check("describe: name and version", bool(info.name) and bool(info.version),
                   f"{info.name!r} version {info.version!r}",
                   "give engine.name and engine.version as non-empty strings")
        self.check("describe: protocol version", info.protocol == PROTOCOL_VERSION,
                   f"engine.protocol is {info.protocol}",
                   f"this oracle speaks protocol {PROTOCOL_VERSION}; say so in engine.protocol "
                   "once the engine follows docs/protocol.md")
        known = [g for g in info.games if g in self.games]
        unknown = [g for g in info.games if g not in self.games]
        self.check(
            "describe: games", bool(known),
            f"plays {', '.join(info.games) or 'nothing'}"
            + (f"; the oracle has no scenarios for {', '.join(unknown)}" if unknown else ""),
            f"list in engine.games at least one of the oracle's games "
            f"({', '.join(self.games)}) as {{\"game\": ID, \"edition\": TEXT}}",
        )
        self.check("describe: capabilities", bool(info.capabilities),
                   f"{len(info.capabilities)} declared",
                   "list the capabilities the engine supports (docs/protocol.md lists each "
                   "game's); a scenario needing an undeclared one is reported unsupported")
        for game_id in known:
            self.run_game(self.games[game_id])
        self.check_schemas()
        return self.checks

    def run_game(self, game: Game) -> None:
        deck, names = next(iter(game.cards.items()), ("", []))
        cards = list(dict.fromkeys(c["name"] for c in names))[:4]
        if len(cards) < 4:
            self.check(f"{game.id}: minimal state", False, "the game has too few card facts",
                       "this game cannot be smoke-tested; run its scenarios instead")
            return
        alice, bob, *draw = cards
        state: dict[str, Any] = {
            "players": [{"name": "Alice", "hand": [alice]}, {"name": "Bob", "hand": [bob]}],
            "decks": {deck: {"draw": draw, "discard": []}},
        }
        reply = self.client.send(Setup(game.id, state, 1))
        if not self.check(
            f"{game.id}: setup", isinstance(reply, Ready),
            f"a two-player state: Alice holds {alice!r}, Bob holds {bob!r}, the {deck} deck "
            f"is {draw}" + ("" if isinstance(reply, Ready) else f"; the engine {_say(reply)}"),
            "answer setup with {\"reply\": \"ready\"} after building exactly this state; the "
            "shape of 'state' is in docs/protocol.md",
        ):
            return
        referee = self.look(game, REFEREE, "referee ('*')")
        if referee is not None:
            drawn = _get(referee, "decks", deck, "draw")
            shown = drawn.get("cards") if isinstance(drawn, Mapping) else None
            self.check(f"{game.id}: the referee sees the deck order", shown == draw,
                       f"decks.{deck}.draw is {drawn!r}",
                       f"the referee's view lists decks.{deck}.draw.cards, top first")
        own = self.look(game, "Alice", "Alice")
        if own is not None:
            hand = _get(own, "players", "Alice", "hand")
            self.check(f"{game.id}: a player sees their own hand",
                       hand == {"count": 1, "cards": [alice]},
                       f"players.Alice.hand is {hand!r} as Alice sees it",
                       f"show the owner count 1 and cards [{alice!r}]")
            other = _get(own, "players", "Bob", "hand")
            self.check(f"{game.id}: a player does not see another's hand",
                       isinstance(other, Mapping) and other.get("count") == 1
                       and bob not in (other.get("cards") or []),
                       f"players.Bob.hand is {other!r} as Alice sees it",
                       "show other players' hand sizes but not their cards")
        spectator = self.look(game, None, "a spectator (null)")
        if spectator is not None:
            hands = [_get(spectator, "players", p, "hand") for p in ("Alice", "Bob")]
            self.check(f"{game.id}: a spectator sees no hand",
                       all(isinstance(h, Mapping) and h.get("count") == 1 and not h.get("cards")
                           for h in hands),
                       f"the hands are {hands!r} as a spectator sees them",
                       "a spectator (viewer null) sees hand sizes and no cards")
        self.refused(game, f"Alice plays {bob!r}, which Bob holds",
                     {"type": "play", "player": "Alice", "card": bob}, errored_ok=False,
                     fix="reject playing a card that is not in the player's hand: "
                         '{"reply": "rejected", "reason": "..."}')
        self.refused(game, "a player who is not in the game draws",
                     {"type": "draw", "player": "Nobody", "deck": deck, "count": 1},
                     errored_ok=True,
                     fix="refuse an action by an unknown player (rejected, or errored as a "
                         "malformed request)")

    def look(self, game: Game, viewer: str | None, who: str) -> Mapping[str, Any] | None:
        reply = self.client.send(Observe(viewer))
        ok = isinstance(reply, View)
        self.check(f"{game.id}: observe as {who}", ok,
                   "answered with a view" if ok else f"the engine {_say(reply)}",
                   "answer observe with {\"reply\": \"view\", \"view\": {\"players\": ..., "
                   "\"decks\": ...}} (docs/protocol.md, observe)")
        return reply.view if isinstance(reply, View) else None

    def refused(self, game: Game, what: str, action: dict[str, Any], *, errored_ok: bool,
                fix: str) -> None:
        before = self.client.send(Observe(REFEREE))
        reply = self.client.send(Act(action))
        refused = isinstance(reply, Rejected) or (errored_ok and isinstance(reply, Errored))
        self.check(f"{game.id}: refuses: {what}", refused, f"the engine answered {_say(reply)}",
                   fix)
        after = self.client.send(Observe(REFEREE))
        if refused and isinstance(before, View) and isinstance(after, View):
            self.check(f"{game.id}: the refusal changed nothing", before.view == after.view,
                       "" if before.view == after.view else
                       f"the referee's view changed: {_first_change(before.view, after.view)}",
                       "a rejected action must leave the game exactly as it was")

    def check_schemas(self) -> None:
        try:
            from oracle.protocol.validate import problems
            problems("reply", {"reply": "ready"})
        except ImportError as exc:
            self.checks.append(Check("replies fit the JSON Schemas", True,
                                     f"not checked: {exc}"))
            return
        found = []
        for request, raw in self.client.transcript:
            where = f"reply to {json.dumps(request)[:80]}"
            if not isinstance(raw, dict):
                found.append(f"{where}: {raw[:120]}")
                continue
            found += [f"{where}: {p}" for p in problems("reply", raw)[:3]]
        self.check("replies fit the JSON Schemas (oracle/protocol/schemas/v1)", not found,
                   "\n".join(found[:8]),
                   "make each reply match its kind's schema; the first problems are above")


def _get(data: object, *path: str) -> Any:
    for key in path:
        data = data.get(key) if isinstance(data, Mapping) else None
    return data


def _first_change(before: Any, after: Any, path: str = "") -> str:
    if isinstance(before, Mapping) and isinstance(after, Mapping):
        for key in sorted(set(before) | set(after), key=str):
            if before.get(key) != after.get(key):
                return _first_change(before.get(key), after.get(key), f"{path}.{key}".strip("."))
    return f"{path or 'the view'} was {before!r:.100}, is now {after!r:.100}"


def smoke(spec: EngineSpec, games: Mapping[str, Game],
          timeout: float = DEFAULT_TIMEOUT) -> list[tuple[str, list[Check]]]:
    """Smoke-test the engine(s) a spec names; ``[(engine label, checks)]``.

    Raises ``EngineSpecError`` for a spec that names no engine.
    """
    spec.engine_kind.check(spec, games)
    per_game = spec.engine_kind.per_game(spec)
    groups = [{g: games[g]} for g in games] if per_game else [dict(games)]
    results = []
    for group in groups:
        client = connect(spec, group, ConnectOptions(timeout=timeout))
        try:
            results.append((client.label, _Smoke(client, games).run()))
        finally:
            client.close()
    return results


def render(results: list[tuple[str, list[Check]]]) -> str:
    """The checks in plain words: ``ok`` or ``FAIL``, what was seen, and how to fix it."""
    lines = []
    for label, checks in results:
        lines.append(f"rules-oracle smoke: engine {label}")
        for check in checks:
            lines.append(f"{'ok  ' if check.ok else 'FAIL'}  {check.title}")
            for text in (check.detail, f"fix: {check.fix}" if check.fix else ""):
                lines += [f"      {line}" for line in text.splitlines() if line]
        failed = sum(not c.ok for c in checks)
        lines.append(f"{len(checks)} checks, {failed} failed" if failed else
                     f"{len(checks)} checks, all ok")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"

