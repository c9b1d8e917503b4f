"""``rules-oracle smoke``: a new adapter's first conversation, checked and explained.

Why: the first run of a new adapter against the whole suite fails in fifty ways at once,
all for one or two reasons (no handshake, stdout polluted by logging, a view in the wrong
shape). This command has the smallest possible conversation with the engine instead (the
handshake, a setup of a minimal state, a look at it as each kind of viewer, a few actions)
and says in plain words what is wrong, how to fix it, and which section of
docs/protocol.md to read.

Then it tries what the suite really sends: each setup key and request shape the game's
scenarios use (those this engine may be sent), each alone (``oracle.probe.sent``), so that
a key the adapter refuses is named with the scenarios it costs, instead of surfacing as a
run full of ``unsupported``.

Smoke judges the *protocol*, never the rules: whether an action is legal is for the
scenarios to judge, so no check here depends on what the rules allow, and no advice asks
an adapter to refuse a move (an adapter that refused moves by itself would be implementing
a rule). ``unsupported`` with a reason is a valid answer to every request but the
handshake, so it never fails a check; it only ends what can be checked of that game.
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
    Choose,
    Describe,
    Described,
    Errored,
    Observe,
    Ready,
    Rejected,
    Reply,
    Setup,
    Unsupported,
    View,
)
from oracle.suite.games import Game

DOC = "docs/protocol.md"
#: The sections of docs/protocol.md a failed check points to (a test checks they exist).
DESCRIBE, PIPE, SETUP, OBSERVE, ACT = "describe", "Over a pipe", "setup", "observe", "act"
REPLIES = "Replies: a closed set"
WHICH_REPLY = "Which reply: `rejected`, `unsupported` or `errored`"
SECTIONS = (DESCRIBE, PIPE, SETUP, OBSERVE, ACT, REPLIES, WHICH_REPLY)
#: A player name no scenario uses, for the request that names a player not in the game.
STRANGER = "Nobody-At-This-Table"
UNKNOWN_ACTION = "rules-oracle-smoke-unknown-action"


@dataclass(frozen=True)
class Check:
    """One thing checked: what, whether it is right, what was seen, how to fix it, and the
    section of docs/protocol.md that explains it."""

    title: str
    ok: bool
    detail: str = ""
    fix: str = ""
    section: str = ""
    #: Right by the protocol, but costly: the engine refused (``unsupported``) something the
    #: scenarios send, and every scenario that sends it will be unsupported.
    warn: bool = False


@dataclass(frozen=True)
class SmokeResult:
    """What smoke found for one engine: its checks and every message it exchanged."""

    label: str
    checks: tuple[Check, ...]
    transcript: tuple[tuple[Mapping[str, Any], Any], ...]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


def _say(reply: Reply) -> str:
    """A reply in a few words, for a check's detail (the full JSON is in the transcript)."""
    if isinstance(reply, Errored):
        return f"errored: {reply.message}"
    if isinstance(reply, Rejected):
        return f"rejected: {reply.reason}" + (f" (rule {reply.rule})" if reply.rule else "")
    if isinstance(reply, Unsupported):
        return f"unsupported: {reply.reason}"
    return type(reply).__name__.lower()


class _Smoke:
    """The checks for one engine; each method appends what it found to ``checks``."""

    def __init__(self, client: EngineClient, games: Mapping[str, Game],
                 piped: bool = False) -> None:
        self.client = client
        self.piped = piped
        self.games = games
        self.checks: list[Check] = []
        self.capabilities: frozenset[str] = frozenset()

    def check(self, title: str, ok: bool, detail: str = "", fix: str = "",
              section: str = "", warn: bool = False) -> bool:
        shown = not ok or warn
        self.checks.append(Check(title, ok, detail, fix if shown else "",
                                 section if shown else "", warn and ok))
        return ok

    def run(self) -> list[Check]:
        reply = self.client.send(Describe())
        if not self.check(
            "handshake", isinstance(reply, Described),
            "the engine answered 'describe'" if isinstance(reply, Described) else _say(reply),
            "the first request is always "
            f'{{"id": 0, "op": "describe", "protocol": {PROTOCOL_VERSION}}} over a pipe, '
            '{"op": "describe"} in-process; answer it with {"reply": "described", "engine": '
            "{...}} (over a pipe on one line, with the same id). This is the one request "
            "'unsupported' cannot answer. If the engine crashed, the end of its stderr is "
            "shown above.", PIPE if self.piped else DESCRIBE,
        ):
            return self.checks
        assert isinstance(reply, Described)
        info = reply.engine
        self.capabilities = info.capabilities
        self.check("describe: name and version", bool(info.name) and bool(info.version),
                   f"{info.name!r} version {info.version!r}",
                   "give engine.name and engine.version as non-empty strings", DESCRIBE)
        self.check("describe: protocol version", info.protocol == PROTOCOL_VERSION,
                   f"engine.protocol is {info.protocol}",
                   f"this oracle speaks protocol {PROTOCOL_VERSION}; say so in engine.protocol "
                   "once the engine follows docs/protocol.md", DESCRIBE)
        known = [g for g in info.games if g in self.games]
        unknown = [g for g in info.games if g not in self.games]
        self.check(
            "describe: games", bool(known),
            f"plays {', '.join(info.games) or 'nothing'}"
            + (f"; the oracle has no scenarios for {', '.join(unknown)}" if unknown else ""),
            f"list in engine.games at least one of the oracle's games "
            f"({', '.join(self.games)}) as {{\"game\": ID, \"edition\": TEXT}}", DESCRIBE,
        )
        self.check("describe: capabilities", True,
                   f"{len(info.capabilities)} declared" if info.capabilities else
                   "none declared: every scenario that needs a capability will be reported "
                   "unsupported; declare each one the engine can carry out "
                   f"({DOC}, \"Capabilities\")")
        for game_id in known:
            self.check_declarations(self.games[game_id])
        for game_id in known:
            self.run_game(self.games[game_id])
        self.check_unsupported_reasons()
        self.check_schemas()
        return self.checks

    def check_declarations(self, game: Game) -> None:
        """Every declared card (law, faction, ...) is one the game has: a made-up name, or a
        card class written where a card's name goes, gates nothing, and the scenarios
        needing the card would be unsupported without a word."""
        from oracle.probe.capabilities import unknown_declarations

        unknown = unknown_declarations(game, self.capabilities)
        if unknown:
            self.check(f"{game.id}: every declared name is one the game has", False,
                       "\n".join(f"{c}: {why}" for c, why in unknown.items()),
                       f"declare {game.id}/card/NAME with a card's printed name, one per card "
                       f"the engine models ('rules-oracle cards --game {game.id}' lists them, "
                       "with the classes each belongs to); a card class is no capability",
                       DESCRIBE)

    def minimal_cards(self, game: Game) -> tuple[str, list[str]]:
        """A deck and four cards of it for the minimal state: the cards the engine declares
        it models if it declares any (as the scenarios pick them), else the first ones.

        Never more copies of a card than its facts' ``count`` (docs/protocol.md, "Copies":
        an engine may answer ``errored`` to a state that breaks the counts, and smoke failed
        such an engine declaring one single-copy card); the deck's other cards fill in."""
        decks = list(game.cards.items())
        chosen = next(((deck, facts) for deck, facts in decks
                       if any(f"{game.id}/card/{c['name']}" in self.capabilities
                              for c in facts)), decks[0] if decks else ("", []))
        deck, facts = chosen
        copies = [c["name"] for c in facts for _ in range(int(c.get("count", 1)))]
        declared = [n for n in copies if f"{game.id}/card/{n}" in self.capabilities]
        return deck, [*declared, *(n for n in copies if n not in declared)][:4]

    def run_game(self, game: Game) -> None:
        deck, cards = self.minimal_cards(game)
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
        said = f"a two-player state: Alice holds {alice!r}, Bob holds {bob!r}, the {deck} " \
               f"deck is {draw}; the engine answered {_say(reply)}"
        if isinstance(reply, Unsupported):
            self.check(f"{game.id}: setup", True,
                       f"{said}. Every scenario of {game.id} will be unsupported until setup "
                       "answers ready; the rest of this game is not checked")
            return
        if not self.check(
            f"{game.id}: setup", isinstance(reply, Ready), said,
            "answer setup with {\"reply\": \"ready\"} after building exactly this state, or "
            "with {\"reply\": \"unsupported\", \"reason\": ...} if the engine cannot hold it",
            SETUP,
        ):
            return
        referee = self.look(game, REFEREE, "the referee ('*')", state)
        if referee is not None:
            self.check_setup_state(game, referee, state)
        self.look(game, "Alice", "Alice", state)
        self.look(game, None, "a spectator (null)", state)
        self.check_acts(game, deck)
        self.check_suite_requests(game)

    def check_suite_requests(self, game: Game) -> None:
        """Every setup key and request shape the game's scenarios send (those this engine
        can run: its declarations cover their needs), each tried alone (``oracle.probe.sent``):
        a key or shape the engine refuses is named, with the scenarios it costs."""
        found = suite_requests(self.client, game, self.capabilities)
        if found is None:
            self.check(f"{game.id}: what the scenarios send", True,
                       "not checked: the game has no reference engine to record it on")
            return
        keys, shapes = found
        met = [t for t in keys if t.state_refused is not None]
        if met:
            self.report_refused_states(game, met)
        self.report_refusals(game, "setup key", [t for t in keys if t.judged], SETUP,
                             sum(not t.judged for t in keys))
        self.report_refusals(game, "request", shapes, ACT)

    def report_refused_states(self, game: Game, met: list[Tried]) -> None:
        """States the engine refused with a key and without it: the refusal is the players',
        hands' or decks' (their cards are the ones the engine declares), not the key's."""
        broke = any(t.state_refused is not None and isinstance(t.state_refused[1], Errored)
                    for t in met)
        self.check(
            f"{game.id}: the scenarios' players, hands and decks are taken", not broke,
            "\n".join(t.say_state() for t in met),
            "the cards in a scenario's hands and decks are chosen among the cards the engine "
            f"declares ({game.id}/card/NAME), and filler from its cards of the deck (any card "
            "of the deck when it declares none of it): an engine holds the cards it declares "
            "and answers setup 'ready' for them; 'unsupported' if it lacks something the "
            "state needs, never 'errored' for a well-formed state",
            SETUP, warn=not broke)

    def report_refusals(self, game: Game, what: str, tried: list[Tried],
                        section: str, unjudged: int = 0) -> None:
        """One check per kind: errored answers fail (the scenarios will error), unsupported
        ones warn (they will be unsupported), naming each key or shape and its cost
        (``unjudged``: keys left out because their state was refused without them too)."""
        noun = "keys" if what == "setup key" else "shapes"
        broken = [t for t in tried if isinstance(t.reply, Errored)]
        refused = [t for t in tried if isinstance(t.reply, Unsupported)]
        untried = [t for t in tried if t.reply is None]
        title = f"{game.id}: every {what} the scenarios send is taken"
        answer = ("answer setup 'ready' if the engine can take the key (or ignore it)"
                  if what == "setup key" else
                  "answer 'accepted' or 'rejected' (the rules decide) if the engine can carry "
                  "it out")
        fix = (f"each is described, with its meaning and default, in {DOC}, the {game.id} "
               f"section (an engine may ignore a key it has no use for); {answer}, and "
               "'unsupported' only if it lacks what it needs")
        if broken:
            self.check(title, False, "\n".join(t.say() for t in broken),
                       "a request the scenarios send is well-formed: answer it, or "
                       "'unsupported' if the engine lacks what it needs; 'errored' means the "
                       f"engine broke. {fix}", section)
        elif refused:
            first = refused[0]
            self.check(f"{title}: refused {first.name!r}", True,
                       "\n".join(t.say() for t in refused), fix, section, warn=True)
        elif not tried and unjudged:
            return  # every key's state was refused without it: said by its own check
        elif not tried:
            self.check(title, True, "nothing to try: the scenarios this engine may be sent "
                       + ("use no key beyond players, hands and decks" if what == "setup key"
                          else "send no act or choose request"))
        else:
            extra = f" ({len(untried)} not tried: their setup was refused)" if untried else ""
            if unjudged:
                extra += f" ({unjudged} not judged: their state was refused without them)"
            self.check(title, True, f"{len(tried) - len(untried)} {noun} tried, each alone"
                       f"{extra}")

    def look(self, game: Game, viewer: str | None, who: str,
             state: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """Observe as ``viewer``; check the view holds every player and deck of the state."""
        reply = self.client.send(Observe(viewer))
        title = f"{game.id}: observe as {who}"
        if isinstance(reply, Unsupported):
            self.check(title, True, f"the engine answered {_say(reply)}; every scenario that "
                                    "looks as this viewer will be unsupported")
            return None
        if not self.check(title, isinstance(reply, View),
                          f"the engine answered {_say(reply)}",
                          "answer observe with {\"reply\": \"view\", \"view\": {\"players\": "
                          "..., \"decks\": ...}}", OBSERVE):
            return None
        assert isinstance(reply, View)
        missing = [f"players.{p['name']}.hand" for p in state["players"]
                   if not isinstance(_get(reply.view, "players", p["name"], "hand"), Mapping)]
        missing += [f"decks.{d}" for d in state["decks"]
                    if not isinstance(_get(reply.view, "decks", d), Mapping)]
        self.check(f"{game.id}: the view as {who} has every player and deck", not missing,
                   f"missing: {', '.join(missing)}" if missing else "",
                   "list every player under players (each with hand: {count, cards}) and "
                   "every deck under decks (each with draw: {count} and discard)", OBSERVE)
        return reply.view

    def check_setup_state(self, game: Game, view: Mapping[str, Any],
                          state: Mapping[str, Any]) -> None:
        """Setup builds exactly the state given: the referee sees the hands and piles."""
        wrong = []
        for p in state["players"]:
            cards = _get(view, "players", p["name"], "hand", "cards")
            if sorted(cards or []) != sorted(p["hand"]):
                wrong.append(f"players.{p['name']}.hand.cards is {cards!r}, not {p['hand']!r}")
        for name, piles in state["decks"].items():
            draw = _get(view, "decks", name, "draw", "cards")
            if draw != piles["draw"]:
                wrong.append(f"decks.{name}.draw.cards is {draw!r}, not {piles['draw']!r} "
                             "(the referee's view lists the draw pile, top first)")
            discard = _get(view, "decks", name, "discard")
            if discard != piles["discard"]:
                wrong.append(f"decks.{name}.discard is {discard!r}, not {piles['discard']!r}")
        self.check(f"{game.id}: the referee sees exactly the state that was set up", not wrong,
                   "\n".join(wrong),
                   "setup builds exactly the state it is given, and the referee ('*') sees "
                   "everything: every hand's cards and each draw pile's cards, top first",
                   OBSERVE)

    def check_acts(self, game: Game, deck: str) -> None:
        """Actions whose right answer the protocol fixes, whatever the rules say."""
        reply = self.act(game, {"type": UNKNOWN_ACTION, "player": "Alice"})
        self.check(f"{game.id}: an action type the engine does not know is unsupported",
                   isinstance(reply, Unsupported), f"the engine answered {_say(reply)}",
                   f"answer an action whose type the engine does not know (here "
                   f"{UNKNOWN_ACTION!r}) with {{\"reply\": \"unsupported\", \"reason\": ...}}: "
                   "a ruling may use a type the engine lacks, and that is not an error",
                   ACT)
        reply = self.act(game, {"type": "draw", "player": STRANGER, "deck": deck, "count": 1})
        self.check(f"{game.id}: an action by a player not in the game is not accepted",
                   not isinstance(reply, Accepted), f"the engine answered {_say(reply)}",
                   f"a request naming a player who is not in the game ({STRANGER!r}) is "
                   "broken: answer it errored (any other request's names are checked the same "
                   "way; that checks the request, not the rules)",
                   WHICH_REPLY)
        draw = f"{game.id}/draw"
        if draw not in self.capabilities:
            self.check(f"{game.id}: a draw", True, f"not sent: the engine does not declare "
                                                   f"{draw}")
            return
        reply = self.act(game, {"type": "draw", "player": "Alice", "deck": deck, "count": 1})
        self.check(f"{game.id}: a draw is answered", not isinstance(reply, Errored),
                   f"Alice draws 1 {deck} card; the engine answered {_say(reply)} (whether "
                   "the rules allow it is for the scenarios to judge)",
                   "answer act with accepted (carried out), rejected (the rules forbid it: "
                   "nothing changes) or unsupported; errored means the engine broke", ACT)

    def act(self, game: Game, action: dict[str, Any]) -> Reply:
        """Send an action; if the engine rejects it, check that the rejection changed
        nothing (what 'rejected' means, whatever the rules)."""
        before = self.client.send(Observe(REFEREE))
        reply = self.client.send(Act(action))
        if isinstance(reply, Rejected) and isinstance(before, View):
            after = self.client.send(Observe(REFEREE))
            if isinstance(after, View):
                same = before.view == after.view
                self.check(f"{game.id}: rejecting {action['type']!r} changed nothing", same,
                           "" if same else "the referee's view changed: "
                           f"{_first_change(before.view, after.view)}",
                           "a rejected action must leave the game exactly as it was (undo "
                           "any change, or check before changing)", REPLIES)
        return reply

    def check_unsupported_reasons(self) -> None:
        bare = [json.dumps(request) for request, raw in self.client.transcript
                if isinstance(raw, Mapping) and raw.get("reply") == "unsupported"
                and not str(raw.get("reason") or "").strip()]
        if bare:
            self.check("unsupported replies say why", False,
                       "no reason given for: " + "; ".join(b[:80] for b in bare[:3]),
                       "give every unsupported reply a reason people can act on, e.g. "
                       "\"this engine does not model the Yssaril faction\"",
                       REPLIES)

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
                   "make each reply match its kind's schema; the first problems are above",
                   REPLIES)


@dataclass(frozen=True)
class Tried:
    """A setup key or request shape the scenarios send, and what the engine answered (None:
    not tried, because the setup it needs was refused)."""

    name: str
    reply: Reply | None
    scenarios: int
    example: str
    #: For a key: a state it was tried in that the engine refused without the key too (so
    #: the players, hands or decks were refused, not the key): where it came from, and the
    #: answer without the key. The key was then tried in another scenario's state.
    state_refused: tuple[str, Reply] | None = None
    #: False when every state the key was tried in was refused without it too.
    judged: bool = True

    @property
    def taken(self) -> bool:
        return self.reply is not None and not isinstance(self.reply, (Unsupported, Errored))

    @property
    def refused(self) -> bool:
        """The engine refused the key itself (a state it took without the key)."""
        return self.reply is not None and not self.taken and self.judged

    @property
    def answer(self) -> str:
        """The engine's answer in a few words."""
        return _say(self.reply) if self.reply is not None else "not tried"

    def say(self) -> str:
        return (f"{self.name}: {self.answer}; sent by {self.scenarios} scenario(s), "
                f"e.g. {self.example}")

    def say_state(self) -> str:
        """The refused state, for a key that met one."""
        assert self.state_refused is not None
        where, answer = self.state_refused
        then = (f"tried in {self.example} instead" if self.judged else
                "not judged: no state it was tried in was taken without it")
        return (f"{self.name}: the state of {where} was refused with the key and without it "
                f"({_say(answer)}); {then}")


def suite_requests(client: EngineClient, game: Game, capabilities: frozenset[str],
                   shapes: bool = True, seed: int = 0
                   ) -> tuple[list[Tried], list[Tried]] | None:
    """Try every setup key, then every request shape, that the scenarios this engine can
    run send, as a run with ``seed`` sends them (``oracle.probe.sent``: its cards are the
    ones the engine declares); None for a game with no reference engine to record them on.
    A key whose state is refused is tried again without it, so that a refusal of the rest of
    the state is not blamed on the key; if that is refused too, the key is tried in another
    scenario's state (``oracle.probe.sent.TRIALS`` states at most). Used by smoke and by
    ``rules-oracle capabilities --engine``."""
    from oracle.probe.capabilities import case_needs
    from oracle.probe.sent import key_probes, sent, shape_probes

    runs = sent(game, capabilities, seed)
    if not runs:
        return None
    runnable = [r for r in runs if r.setup is not None
                and set(case_needs(game, r.case, capabilities, seed)) <= capabilities]
    keys = []
    for probe in key_probes(game, runnable):
        met: tuple[str, Reply] | None = None
        for trial in probe.trials:
            reply = client.send(Setup(game.id, trial.state, 1))
            if isinstance(reply, (Unsupported, Errored)):
                base = client.send(Setup(game.id, trial.base, 1))
                if not isinstance(base, Ready):
                    met = met or (trial.example, base)
                    continue
            keys.append(Tried(probe.path, reply, len(probe.scenarios), trial.example, met))
            break
        else:
            keys.append(Tried(probe.path, reply, len(probe.scenarios), probe.example, met,
                              judged=False))
    accepted = [t.name for t in keys if t.taken]
    refused = {t.name for t in keys if not t.taken}
    tried: list[Tried] = []
    for shape in shape_probes(runnable, accepted) if shapes else ():
        reply: Reply | None = None
        if not shape.paths & refused:
            ready = client.send(Setup(game.id, shape.state, 1))
            if isinstance(ready, Ready):
                request = shape.request
                reply = client.send(Act(request["action"]) if request["op"] == "act"
                                    else Choose(request["player"], request["choice"]))
            elif isinstance(ready, Errored):
                reply = ready
        tried.append(Tried(shape.shape, reply, len(shape.scenarios), shape.example))
    return keys, tried


def replay(client: EngineClient, game: Game, capabilities: frozenset[str], seed: int = 0
           ) -> dict[str, tuple[Mapping[str, Any], Unsupported]] | None:
    """Each scenario this engine can run (its declarations cover its needs), its requests
    sent again as a run with ``seed`` on this engine sends them (``oracle.probe.sent``),
    without judging the answers: the scenarios the engine answers ``unsupported`` (by test
    name), with the request and that answer; a run reports those scenarios unsupported.
    None for a game with no reference engine to record them on.

    A replay is a run's conversation as the reference engine led it: where this engine
    answers otherwise (it rejects what the reference accepted), the requests that follow
    are sent all the same, which is enough to learn what it refuses to take at all. Used by
    ``rules-oracle capabilities --engine``, so that its prediction is what a run does."""
    from oracle.probe.capabilities import case_needs
    from oracle.probe.sent import sent

    runs = sent(game, capabilities, seed)
    if not runs:
        return None
    refused: dict[str, tuple[Mapping[str, Any], Unsupported]] = {}
    for run in runs:
        if run.setup is None or not set(case_needs(game, run.case, capabilities, seed)) \
                <= capabilities:
            continue
        for message in run.conversation:
            reply = client.send(_request(message))
            if isinstance(reply, Unsupported):
                refused[run.case.test_name] = (message, reply)
                break
            if message["op"] == "setup" and not isinstance(reply, Ready):
                break  # errored: the run errors too, it is not unsupported
        client.transcript.clear()  # a replay is no conversation to show
    return refused


def _request(message: Mapping[str, Any]) -> Setup | Act | Choose | Observe:
    """A recorded request (``Recorder``'s JSON) as the typed request it was."""
    op = message["op"]
    if op == "setup":
        return Setup(message["game"], message["state"], message["seed"])
    if op == "act":
        return Act(message["action"])
    if op == "choose":
        return Choose(message["player"], message["choice"])
    return Observe(message.get("viewer"))


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


def smoke(spec: EngineSpec, games: Mapping[str, Game], timeout: float = DEFAULT_TIMEOUT,
          startup_timeout: float | None = None) -> list[SmokeResult]:
    """Smoke-test the engine(s) a spec names, one result per engine.

    Raises ``EngineSpecError`` for a spec that names no engine.
    """
    spec.engine_kind.check(spec, games)
    per_game = spec.engine_kind.per_game(spec)
    groups = [{g: games[g]} for g in games] if per_game else [dict(games)]
    results = []
    for group in groups:
        client = connect(spec, group, ConnectOptions(timeout=timeout,
                                                     startup_timeout=startup_timeout))
        try:
            results.append(smoke_client(client, games, piped=spec.engine_kind.process))
        finally:
            client.close()
    return results


def smoke_client(client: EngineClient, games: Mapping[str, Game],
                 piped: bool = False) -> SmokeResult:
    """Smoke-test one engine already connected (what ``smoke`` does for each engine)."""
    checks = _Smoke(client, games, piped).run()
    return SmokeResult(client.label, tuple(checks), tuple(client.transcript))


def _wire(message: Any) -> str:
    """A message as it would travel: one line of JSON (anything else as the engine sent it)."""
    if isinstance(message, str):
        return f"(not a reply) {message}"
    return json.dumps(message, ensure_ascii=False)


def render(results: list[SmokeResult]) -> str:
    """Every request and reply exchanged, as JSON, then the checks in plain words (``ok`` or
    ``FAIL``, what was seen, how to fix it, where to read): the verdict comes last, where a
    terminal leaves it in view."""
    lines = []
    for result in results:
        lines.append(f"rules-oracle smoke: engine {result.label}")
        lines.append("exchanged (-> request from the oracle, <- the engine's reply; over a pipe "
                     "each also carries its id):")
        for request, reply in result.transcript:
            lines += [f"-> {_wire(request)}", f"<- {_wire(reply)}"]
        lines.append("")
        for check in result.checks:
            mark = "warn" if check.warn else "ok  " if check.ok else "FAIL"
            lines.append(f"{mark}  {check.title}")
            read = f'read: {DOC}, section "{check.section}"' if check.section else ""
            for text in (check.detail, f"fix: {check.fix}" if check.fix else "", read):
                lines += [f"      {line}" for line in text.splitlines() if line]
        failed = sum(not c.ok for c in result.checks)
        warned = sum(c.warn for c in result.checks)
        lines.append(f"{len(result.checks)} checks, {failed} failed" if failed else
                     f"{len(result.checks)} checks, all ok"
                     + (f" ({warned} warning{'s' * (warned != 1)}: scenarios that will be "
                        "unsupported)" if warned else ""))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
