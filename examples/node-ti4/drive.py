"""Drive the Node TI4 engine over its pipe, and compare it with the Python reference engine.

Three uses:

- ``PipeEngine``: a Python object with ``handle(request) -> reply`` that speaks to
  ``node engine.js`` over stdin/stdout (adding and checking the ``id`` of each line). Handy
  on its own, and as an in-process engine for an oracle that has no ``cmd:`` engines yet::

      PYTHONPATH=examples/node-ti4 rules-oracle run --engine drive:factory

- ``python examples/node-ti4/drive.py``: scripted and random sessions sent to both the Node
  engine and ``oracle.games.ti4.engine.ReferenceEngine``; every reply kind, rejection rule and
  view (for the referee, a spectator and every player) must agree. After a seeded reshuffle the
  deck order may differ (the engines use different PRNGs), so a session compares the draw pile
  as a multiset at that point and stops.

- ``python examples/node-ti4/drive.py --raw``: send JSON lines from stdin, print the replies.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import queue
import random
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ENGINE_JS = HERE / "engine.js"
JSON = dict[str, Any]


class PipeError(RuntimeError):
    """The engine process broke the wire protocol (no reply, wrong id, not JSON, died)."""


class PipeEngine:
    """One ``node engine.js`` process, spoken to one request line at a time."""

    def __init__(self, argv: list[str] | None = None, timeout: float = 10.0) -> None:
        node = shutil.which("node")
        if argv is None:
            if node is None:
                raise PipeError("node is not on PATH")
            argv = [node, str(ENGINE_JS)]
        self.argv = argv
        self.timeout = timeout
        self.next_id = 0
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None,
            text=True, encoding="utf-8", bufsize=1,
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def send_line(self, line: str) -> JSON:
        """Write one raw line; return the one reply line it gets, parsed."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(line.rstrip("\n") + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise PipeError(f"the engine process is gone (exit {self.proc.poll()})") from exc
        try:
            raw = self._lines.get(timeout=self.timeout)
        except queue.Empty as exc:
            raise PipeError(f"no reply within {self.timeout}s to {line[:200]!r}") from exc
        if raw is None:
            raise PipeError(f"the engine closed stdout (exit {self.proc.poll()})")
        try:
            reply = json.loads(raw)
        except ValueError as exc:
            raise PipeError(f"the engine wrote a line that is not JSON: {raw[:200]!r}") from exc
        if not isinstance(reply, dict):
            raise PipeError(f"the engine wrote a reply that is not an object: {raw[:200]!r}")
        return reply

    def request(self, request: JSON) -> JSON:
        """Send ``request`` with a fresh id; return the reply (still carrying its id)."""
        rid = self.next_id
        self.next_id += 1
        reply = self.send_line(json.dumps({"id": rid, **request}))
        if reply.get("id") != rid:
            raise PipeError(f"reply id {reply.get('id')!r} does not echo request id {rid}")
        return reply

    def handle(self, request: JSON) -> JSON:
        """The in-process engine interface: a reply without the wire's ``id``."""
        if self.next_id == 0 and request.get("op") != "describe":
            self.request({"op": "describe", "protocol": 1})  # the wire's first request
        if request.get("op") == "describe":
            request = {**request, "protocol": 1}
        reply = self.request(request)
        reply.pop("id", None)
        return reply

    def close(self) -> int:
        """Close stdin; the engine must exit by itself. Returns its exit code."""
        if self.proc.stdin and not self.proc.stdin.closed:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise PipeError("the engine did not exit when stdin closed") from None

    def __enter__(self) -> PipeEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.close()


def factory() -> PipeEngine:
    """``--engine drive:factory`` (with this folder on PYTHONPATH): the Node engine, piped."""
    return PipeEngine()


# -- comparing with the reference engine ------------------------------------------------------

PLAYERS = ["Alice", "Bob", "Carol"]
WINDOWS = [
    "Action",
    "At the start of a combat round",
    "After you activate a system",
    "After the speaker votes on an agenda",
    "After another player's ship uses SUSTAIN DAMAGE to cancel a hit produced by your units "
    "or abilities",
    "When an agenda is revealed",
]
CARDS = ["Sabotage", "Lucky Shot", "Direct Hit", "Repeal Law", "Insubordination", "Bribery",
         "Morale Boost", "Veto", "Spy", "Plague", "Skilled Retreat", "Focused Research"]
UNIT_TYPES = ["destroyer", "dreadnought", "cruiser", "infantry", "war sun", "pds", "fighter"]
LAWS = ["Minister of Commerce", "Enforced Travel Ban"]
#: The laws both engines model (``ti4/law/NAME``): the only ones a setup puts in play.
LAWS_IN_PLAY = ["Minister of Commerce"]


def _window_of(card: str) -> str | None:
    from oracle.games.ti4.cards import card_facts_by_name

    fact = card_facts_by_name().get(card)
    return fact.window if fact else None


def _viewers() -> list[str | None]:
    return ["*", None, *PLAYERS]


def random_state(rng: random.Random) -> JSON:
    players = []
    for name in PLAYERS:
        p: JSON = {"name": name}
        if rng.random() < 0.9:
            p["hand"] = [rng.choice(CARDS) for _ in range(rng.choice([0, 1, 2, 3, 6, 7]))]
        if rng.random() < 0.25:
            p["faction"] = rng.choice(["Yssaril", "Hacan", "Sol"])
        if rng.random() < 0.25:
            p["technologies"] = ["Neural Motivator"]
        if rng.random() < 0.5:
            p["command_tokens"] = {"tactic": rng.randint(0, 2), "strategy": rng.randint(0, 2)}
        if rng.random() < 0.4:
            p["trade_goods"] = rng.randint(0, 4)
        if rng.random() < 0.2:
            p["hand_limit_modifier"] = rng.choice([-2, -1, 1])
        players.append(p)
    rng.choice(players).setdefault("strategy_cards", []).append("Politics")
    state: JSON = {"players": players}
    state["phase"] = rng.choice(["action", "action", "action", "status", "agenda"])
    if rng.random() < 0.7:
        state["active_player"] = rng.choice(PLAYERS)
    if rng.random() < 0.7:
        state["window"] = rng.choice(WINDOWS)
    if rng.random() < 0.5:
        state["speaker"] = rng.choice(PLAYERS)
    if rng.random() < 0.5:
        state["initiative"] = rng.sample(PLAYERS, 3)
    if rng.random() < 0.5:
        state["laws"] = rng.sample(LAWS_IN_PLAY, rng.randint(0, len(LAWS_IN_PLAY)))
    units = []
    for i in range(rng.randint(0, 5)):
        owner = rng.choice(PLAYERS)
        units.append({"id": f"u{i}", "owner": owner, "type": rng.choice(UNIT_TYPES)})
    state["units"] = units
    state["decks"] = {"action": {
        "draw": [rng.choice(CARDS) for _ in range(rng.randint(0, 12))],
        "discard": [rng.choice(CARDS) for _ in range(rng.randint(0, 3))],
    }}
    return state


def random_request(rng: random.Random, view: JSON) -> JSON:
    """A plausible request given the referee's view (legal or not: both engines must agree)."""
    who = rng.choice(PLAYERS)
    hand = view["players"][who]["hand"]["cards"]
    kind = rng.choices(
        ["draw", "play", "resolve", "reveal", "window", "end_turn", "politics_primary",
         "politics_secondary", "status_draw", "trade", "choose"],
        weights=[3, 8, 12 if view["being_played"] else 1, 1, 2, 1, 1, 1, 1, 1, 4])[0]
    if kind == "choose":
        pend = view["pending"]
        if pend and rng.random() < 0.8:
            p = rng.choice(pend)
            who = p["player"]
            cards = list(view["players"][who]["hand"]["cards"])
            rng.shuffle(cards)
            n = p["count"] if rng.random() < 0.8 else max(0, p["count"] - 1)
            return {"op": "choose", "player": who, "choice": {p["decision"]: cards[:n]}}
        return {"op": "choose", "player": who, "choice": {"keep": hand[:1]}}
    action: JSON = {"type": kind}
    if kind == "draw":
        action.update(player=who, deck="action", count=rng.choice([1, 1, 2, 3]))
    elif kind == "play":
        # Mostly a card in the hand, often one whose timing window is open, so that plays
        # get past the timing checks and reach targeting and same-name checks.
        fitting = [c for c in hand if _window_of(c) == view["window"] or c == "Sabotage"]
        if fitting and rng.random() < 0.6:
            card = rng.choice(fitting)
        else:
            card = rng.choice(hand) if hand and rng.random() < 0.85 else rng.choice(CARDS)
        action.update(player=who, card=card)
        targets: JSON = {}
        r = rng.random()
        if card in ("Lucky Shot", "Direct Hit") and view["units"] and r < 0.9:
            targets["unit"] = rng.choice(view["units"])["id"]
        elif card == "Repeal Law" and r < 0.9:
            targets["law"] = rng.choice(LAWS)
        elif card == "Insubordination" and r < 0.9:
            targets["player"] = rng.choice(PLAYERS)
        elif card == "Bribery" and r < 0.9:
            targets["trade_goods"] = rng.randint(0, 4)
        elif card == "Sabotage" and view["being_played"] and r < 0.8:
            targets["card"] = rng.choice(view["being_played"])["card"]
        if targets:
            action["targets"] = targets
    elif kind == "reveal":
        action.update(player=who, cards=rng.sample(hand, min(len(hand), rng.randint(1, 2)))
                      if hand and rng.random() < 0.8 else [rng.choice(CARDS)])
    elif kind == "window":
        held = [_window_of(c) for p in view["players"].values() for c in p["hand"]["cards"]]
        action["window"] = rng.choice([w for w in held if w] or WINDOWS)
    elif kind == "end_turn":
        action["player"] = view["active_player"] or who if rng.random() < 0.8 else who
    elif kind == "politics_primary":
        action.update(player=view["active_player"] or who, speaker=rng.choice(PLAYERS))
    elif kind in ("politics_secondary",):
        action["player"] = who
    elif kind == "trade":
        to = rng.choice([p for p in PLAYERS if p != who])
        action.update(player=who, to=to, cards=hand[:1] if hand else ["Veto"])
    return {"op": "act", "action": action}


def _normal(reply: JSON, reshuffled: bool) -> JSON:
    """A view reply to compare. After a reshuffle the two engines deal different cards: then
    only how many cards each hand and pile holds must agree, and (for the referee) which
    cards the hands and the draw pile hold between them."""
    reply = copy.deepcopy(reply)
    view = reply.get("view")
    if isinstance(view, dict):
        # The timing event (ti4/events, and the discards the reference reports as one),
        # planets, secret objectives and promissory notes: the Node engine models none.
        view.pop("event", None)
        view.pop("planets", None)
        for player in view.get("players", {}).values():
            player.pop("secret_objectives", None)
            player.pop("promissory_notes", None)
    if not reshuffled or not isinstance(view, dict):
        return reply
    pool: list[str] = []
    for player in view.get("players", {}).values():
        pool += player["hand"].pop("cards", [])
    for deck in view.get("decks", {}).values():
        pool += deck["draw"].pop("cards", [])
    view["dealt"] = sorted(pool) if reply.get("_viewer") == "*" else None
    return reply


def _summary(reply: JSON) -> tuple[Any, ...]:
    """What must agree between the engines: the reply kind, and the rule of a rejection."""
    return (reply.get("reply"), reply.get("rule"))


def _reshuffled(reply: JSON) -> bool:
    return any(e.get("event") == "reshuffled" for e in reply.get("events") or [])


class Comparison:
    """One session sent to two engines at once; ``step`` says how they disagree, if they do.

    After a reshuffle the engines' PRNGs deal different cards, so the session compares the
    draw pile as a multiset at that point and then ends (``done``).
    """

    def __init__(self, node: Any, ref: Any) -> None:
        self.node, self.ref = node, ref
        self.done = False
        self.count = 0

    def step(self, request: JSON) -> str | None:
        i, self.count = self.count, self.count + 1
        a = self.node.handle(copy.deepcopy(request))
        b = self.ref.handle(copy.deepcopy(request))
        if _summary(a) != _summary(b):
            self.done = True
            return f"request {i} {json.dumps(request)}: node {a} / reference {b}"
        if request.get("op") not in ("act", "choose", "setup") or a["reply"] not in (
                "accepted", "rejected", "ready"):
            return None
        shuffled = _reshuffled(a) or _reshuffled(b) or (
            request.get("op") == "setup" and "decks" not in request["state"])
        for viewer in _viewers():
            va = self.node.handle({"op": "observe", "viewer": viewer})
            vb = self.ref.handle({"op": "observe", "viewer": viewer})
            va["_viewer"] = vb["_viewer"] = viewer
            if _normal(va, shuffled) != _normal(vb, shuffled):
                self.done = True
                return (f"after request {i} {json.dumps(request)}, the view for {viewer!r} "
                        f"differs:\nnode      {json.dumps(va)}\nreference {json.dumps(vb)}")
        self.done = shuffled
        return None


def compare_session(node: Any, ref: Any, requests: Iterable[JSON]) -> list[str]:
    """Send each request to both engines; the disagreements (at most one: it ends the run)."""
    run = Comparison(node, ref)
    for request in requests:
        problem = run.step(request)
        if problem:
            return [problem]
        if run.done:
            break
    return []


def fuzz(node: Any, sessions: int, steps: int, seed: int = 0) -> list[str]:
    """Random sessions on both engines; the disagreements found (empty: none)."""
    from oracle.games.ti4.engine import ReferenceEngine

    problems: list[str] = []
    for s in range(sessions):
        rng = random.Random(seed * 100_003 + s)
        run = Comparison(node, ReferenceEngine())
        request: JSON = {"op": "setup", "game": "ti4", "seed": rng.randint(0, 99),
                         "state": random_state(rng)}
        for _ in range(steps + 1):
            problem = run.step(request)
            if problem:
                problems.append(f"session {s}: {problem}")
            if run.done:
                break
            view = run.ref.handle({"op": "observe", "viewer": "*"})["view"]
            request = random_request(rng, view)
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="drive the Node TI4 engine over its pipe")
    parser.add_argument("--raw", action="store_true",
                        help="send JSON lines from stdin unchanged; print each reply")
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--steps", type=int, default=25)
    parser.add_argument("--seed", type=int, default=0)
    ns = parser.parse_args(argv)
    with PipeEngine() as node:
        if ns.raw:
            for line in sys.stdin:
                if line.strip():
                    print(json.dumps(node.send_line(line)))
            return 0
        problems = fuzz(node, ns.sessions, ns.steps, ns.seed)
    for p in problems:
        print(p, "\n")
    print(f"{ns.sessions} random sessions of up to {ns.steps} steps: "
          f"{len(problems)} disagreement(s) with the reference engine")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[1]))  # the repository, for oracle.games.ti4
    os.chdir(HERE.parents[1])
    sys.exit(main())
