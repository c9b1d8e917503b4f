"""`rules-oracle smoke`: a new adapter's first conversation, checked and explained.

Why these cases: smoke is the first thing an engine developer runs, so it must judge the
protocol fairly and never the rules. An honest adapter that answers `unsupported`, and an
engine with no rules at all, must pass; a broken protocol (a view without decks, a
rejection that changed the game, an unknown action type treated as an error) must fail,
saying which section of docs/protocol.md to read. Most cases run smoke in-process on a small
engine object; the command itself is run once per behaviour only it has (the pipe, the exit
status, stdout pollution, a bad spec).
"""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from oracle.cli import main
from oracle.engines import EngineClient
from oracle.games.ti4.engine import factory as reference
from oracle.probe.smoke import SECTIONS, SmokeResult, render, smoke_client
from oracle.suite.games import discover_games

PY = shlex.quote(sys.executable)
SERVE = f"cmd:{PY} -m oracle.pipe serve"
GAMES = discover_games()
TI4 = {"ti4": GAMES["ti4"]}
DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"

JSON = dict[str, Any]


class NoRules:
    """An engine with no rules at all: it carries out every well-formed action. Smoke must
    pass it, because smoke judges the protocol and never what the rules allow."""

    def __init__(self) -> None:
        self.hands: dict[str, list[str]] = {}
        self.decks: dict[str, JSON] = {}

    def handle(self, request: JSON) -> JSON:
        op = request["op"]
        if op == "describe":
            return {"reply": "described", "engine": {
                "name": "no rules", "version": "1", "protocol": 1, "games": [{"game": "ti4"}],
                "capabilities": ["ti4/draw", "ti4/play"]}}
        if op == "setup":
            state = request["state"]
            self.hands = {p["name"]: list(p.get("hand", [])) for p in state["players"]}
            self.decks = {d: {"draw": list(p["draw"]), "discard": list(p["discard"])}
                          for d, p in state.get("decks", {}).items()}
            return {"reply": "ready"}
        if op == "observe":
            return {"reply": "view", "view": self.view(request["viewer"])}
        if op == "choose":
            return {"reply": "rejected", "reason": "no decision is pending"}
        return self.act(request["action"])

    def act(self, action: JSON) -> JSON:
        if action["type"] not in ("draw", "play"):
            return {"reply": "unsupported", "reason": f"no action type {action['type']!r}"}
        if action["player"] not in self.hands:
            return {"reply": "errored", "message": f"unknown player {action['player']!r}"}
        if action["type"] == "draw":
            deck = self.decks[action["deck"]]
            for _ in range(action["count"]):
                if deck["draw"]:
                    self.hands[action["player"]].append(deck["draw"].pop(0))
        else:  # any card, from anybody's hand or none: this engine has no rules
            self.decks["action"]["discard"].insert(0, action["card"])
        return {"reply": "accepted"}

    def view(self, viewer: str | None) -> JSON:
        return {
            "players": {n: {"hand": {"count": len(h),
                                     "cards": list(h) if viewer in ("*", n) else []}}
                        for n, h in self.hands.items()},
            "decks": {d: {"draw": {"count": len(p["draw"]),
                                   **({"cards": list(p["draw"])} if viewer == "*" else {})},
                          "discard": list(p["discard"])} for d, p in self.decks.items()},
        }


class Skeleton:
    """What `rules-oracle new-adapter` writes: unsupported for everything but describe."""

    def handle(self, request: JSON) -> JSON:
        if request["op"] == "describe":
            return {"reply": "described", "engine": {
                "name": "skeleton", "version": "0", "protocol": 1, "games": [{"game": "ti4"}],
                "capabilities": []}}
        return {"reply": "unsupported", "reason": f"{request['op']} is not written yet"}


def run(engine: Any, games: dict = TI4) -> tuple[SmokeResult, str]:
    result = smoke_client(EngineClient(engine, type(engine).__name__), games)
    return result, render([result])


def failed(result: SmokeResult) -> list[str]:
    return [c.title for c in result.checks if not c.ok]


def test_the_reference_engine_passes_and_the_json_exchanged_is_printed():
    result, out = run(reference())
    assert failed(result) == [], out
    assert "ok    handshake" in out and out.endswith("checks, all ok\n")
    # The conversation as JSON, one message a line, requests and replies alternating.
    assert '-> {"op": "describe"}\n<- {"reply": "described", "engine": {"name": ' in out
    assert '-> {"op": "observe", "viewer": null}\n<- {"reply": "view", "view": {' in out
    assert "Unsupported(" not in out and "View(" not in out  # no Python reprs


def test_an_engine_with_no_rules_passes_because_smoke_never_judges_the_rules():
    result, out = run(NoRules())
    assert failed(result) == [], out
    assert "ok    ti4: a draw is answered" in out


def test_unsupported_is_a_valid_answer_to_every_request_but_the_handshake():
    result, out = run(Skeleton())
    assert failed(result) == [], out
    assert "every scenario that needs a capability will be reported unsupported" in out
    assert "Every scenario of ti4 will be unsupported until setup answers ready" in out


class BrokenView(NoRules):
    """A spectator's view without decks: a protocol error, whatever the rules."""

    def view(self, viewer: str | None) -> JSON:
        view = super().view(viewer)
        return {"players": view["players"]} if viewer is None else view


class LeakyRejection(NoRules):
    """Rejects every draw, but only after taking the card."""

    def act(self, action: JSON) -> JSON:
        reply = super().act(action)
        return {"reply": "rejected", "reason": "no"} if action["type"] == "draw" \
            and reply["reply"] == "accepted" else reply


class ErrorsOnUnknownTypes(NoRules):
    def act(self, action: JSON) -> JSON:
        if action["type"] not in ("draw", "play"):
            return {"reply": "errored", "message": f"what is {action['type']!r}?"}
        return super().act(action)


class Mute(Skeleton):
    def handle(self, request: JSON) -> JSON:
        reply = super().handle(request)
        return {**reply, "reason": ""} if reply["reply"] == "unsupported" else reply


@pytest.mark.parametrize("engine, check, section", [
    (BrokenView(), "ti4: the view as a spectator (null) has every player and deck", "observe"),
    (LeakyRejection(), "ti4: rejecting 'draw' changed nothing", "Replies: a closed set"),
    (ErrorsOnUnknownTypes(), "ti4: an action type the engine does not know is unsupported",
     "act"),
    (Mute(), "unsupported replies say why", "Replies: a closed set"),
], ids=lambda v: type(v).__name__ if not isinstance(v, str) else "")
def test_a_protocol_mistake_fails_naming_the_section_to_read(engine, check, section):
    result, out = run(engine)
    assert check in failed(result), out
    block = out.split(f"FAIL  {check}\n", 1)[1].split("\n" + "FAIL", 1)[0]
    assert "fix: " in block and f'read: docs/protocol.md, section "{section}"' in block, block


def test_a_schema_violation_is_named():
    result, out = run(BrokenView())
    assert "replies fit the JSON Schemas (oracle/protocol/schemas/v1)" in failed(result)
    assert "'decks' is a required property" in out


def test_every_section_smoke_points_to_is_a_heading_of_the_protocol_page():
    headings = set(re.findall(r"^#+ (.+)$", DOC.read_text(encoding="utf-8"), re.M))
    assert set(SECTIONS) <= headings, set(SECTIONS) - headings


def test_over_a_pipe_the_command_passes_a_good_engine(oracle):
    run_ = oracle("smoke", "--engine", f"{SERVE} reference:ti4")
    assert run_.code == 0, run_.out + run_.err
    assert "FAIL" not in run_.out and "all ok" in run_.out
    assert '<- {"reply": "ready"}' in run_.out


NOISY = '''
import sys
print("engine 1.0 starting")
sys.stdout.flush()
for line in sys.stdin:
    pass
'''


def test_logging_to_stdout_is_caught_at_the_handshake(oracle, pytester):
    (pytester.path / "noisy.py").write_text(NOISY)
    run_ = oracle("smoke", "--engine", f"cmd:{PY} noisy.py", "--timeout", "5")
    assert run_.code == 1, run_.out + run_.err
    assert "FAIL  handshake" in run_.out
    assert "engine 1.0 starting" in run_.out and "write logs to stderr" in run_.out
    assert 'read: docs/protocol.md, section "Over a pipe"' in run_.out
    assert "1 checks, 1 failed" in run_.out


@pytest.mark.parametrize("args, says", [
    (["--engine", "cmd:no-such-engine-xyz"], "is not on PATH"),
    (["--engine", "nonsense"], "is not an engine spec"),
])
def test_a_bad_spec_is_exit_2(capsys, args, says):
    assert main(["smoke", *args]) == 2
    assert says in capsys.readouterr().err


def test_a_bad_timeout_is_exit_2(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["smoke", "--engine", "reference", "--timeout", "-1"])
    assert exit_.value.code == 2
    assert "must be a positive number" in capsys.readouterr().err


class OneCard(NoRules):
    """Models one card: smoke's minimal state is made of it, as the scenarios' would be."""

    def handle(self, request: JSON) -> JSON:
        reply = super().handle(request)
        if request["op"] == "describe":
            reply["engine"]["capabilities"].append("ti4/card/Sabotage")
        return reply


def test_the_minimal_state_uses_the_cards_the_engine_declares():
    result, out = run(OneCard())
    assert failed(result) == [], out
    setup = next(request for request, _ in result.transcript if request["op"] == "setup")
    state = setup["state"]
    assert [p["hand"] for p in state["players"]] == [["Sabotage"], ["Sabotage"]]
    assert state["decks"]["action"]["draw"] == ["Sabotage", "Sabotage"]


# -- what the scenarios send -------------------------------------------------------------------

#: The state keys each game's section of docs/protocol.md lists (players' keys prefixed).
DOCUMENTED = {
    "ti4": {"players", "decks", "phase", "active_player", "window", "speaker", "initiative",
            "laws", "units", "players.name", "players.hand", "players.faction",
            "players.technologies", "players.command_tokens", "players.trade_goods",
            "players.strategy_cards", "players.hand_limit_modifier"},
    "eu-pop": {"players", "decks", "phase", "active_player", "window", "battle", "players.name",
               "players.hand", "players.power", "players.ducats", "players.cost_reductions",
               "players.display", "players.advisors", "players.leaders"},
}


class RefusesUnknownKeys:
    """An adapter that answers setup ``unsupported`` (or ``errored``) for any state key it was
    not written for, around a reference engine: here one written before ``forgotten`` was
    on the page."""

    def __init__(self, game: str, forgotten: str, answer: str = "unsupported") -> None:
        from oracle.engines.kinds import load_factory

        self.engine = load_factory(GAMES[game].reference_engine)()
        self.known = DOCUMENTED[game] - {forgotten}
        self.answer = answer

    def handle(self, request: JSON) -> JSON:
        if request["op"] == "setup":
            state = request["state"]
            keys = [*state, *(f"players.{k}" for p in state["players"] for k in p)]
            unknown = [k for k in keys if k not in self.known]
            if unknown:
                why = f"this adapter does not know state key {unknown[0]!r}"
                return ({"reply": "unsupported", "reason": why} if self.answer == "unsupported"
                        else {"reply": "errored", "message": why})
        return self.engine.handle(request)


@pytest.mark.parametrize("game, forgotten", [
    ("eu-pop", "window"), ("ti4", "initiative"), ("eu-pop", "players.ducats")])
def test_smoke_names_a_state_key_the_scenarios_send_that_the_engine_refuses(game, forgotten):
    """Why: an adapter that refused the undocumented EU 'window' passed smoke, then answered
    unsupported to 154 of 212 scenarios. unsupported is a valid answer, so smoke warns (and
    passes), naming the key and what refusing it costs."""
    from oracle.probe.sent import sent

    result, out = run(RefusesUnknownKeys(game, forgotten), {game: GAMES[game]})
    assert failed(result) == [], out
    key = forgotten.replace("players.", "players[].")
    scenarios = sum(key in r.paths for r in sent(GAMES[game]))
    assert scenarios > 1
    [warned] = [c for c in result.checks if c.warn]
    assert warned.title == f"{game}: every setup key the scenarios send is taken: refused {key!r}"
    assert warned.detail.startswith(f"{key}: unsupported: this adapter does not know state key "
                                    f"{forgotten!r}; sent by {scenarios} "
                                    "scenario(s), e.g. ")
    assert "fix: " in out and f"the {game} section" in out
    assert out.rstrip().endswith("all ok (1 warning: scenarios that will be unsupported)")


def test_smoke_blames_no_key_on_an_engine_refusing_cards_it_does_not_model():
    """Why: smoke's trial states were recorded on the reference engine, which declares every
    card; an engine refusing a hand of cards it does not model got a false warning naming
    'active_player', 'phase' and 'window'. The states are what a run on the engine sends: a
    card only held is any card of the deck (docs/protocol.md), which this engine refuses
    (its scenarios are then unsupported), and smoke says which keys it could not try
    because their setup was refused, warning about none."""
    from eu_partial_engines import StrictOnePerClass, fewest_cards_per_class

    result, out = run(StrictOnePerClass(), {"eu-pop": GAMES["eu-pop"]})
    assert failed(result) == [] and not [c.title for c in result.checks if c.warn], out
    assert "their setup was refused" in out, out
    setups = [r["state"] for r, _ in result.transcript if r["op"] == "setup"]
    held = {c for s in setups for p in s["players"] for k in ("hand", "advisors", "leaders")
            for c in p.get(k) or []}
    assert len(setups) > 10 and held - set(fewest_cards_per_class()), held
    in_play = {c for s in setups for p in s["players"] for k in ("advisors", "leaders")
               for c in p.get(k) or []}
    assert in_play <= set(fewest_cards_per_class()), in_play


class CannotHold:
    """The reference EU engine, refusing (unsupported) a state where someone holds a card
    it declares all the same: a refusal of the hands, which smoke must not blame on the key
    it is trying (``most``: it also refuses a state with more players)."""

    def __init__(self, card: str, most: int = 6) -> None:
        from oracle.games.eu_pop.engine import ReferenceEngine

        self.engine, self.card, self.most = ReferenceEngine(), card, most

    def handle(self, request: JSON) -> JSON:
        if request["op"] == "setup":
            players = request["state"]["players"]
            if any(self.card in p.get("hand", []) for p in players):
                return {"reply": "unsupported", "reason": f"this engine cannot hold {self.card}"}
            if len(players) > self.most:
                return {"reply": "unsupported", "reason": f"this engine seats {self.most}"}
        return self.engine.handle(request)


def test_smoke_blames_a_refused_state_on_what_was_refused_not_on_the_key_tried():
    """A key whose state is refused without the key too is tried in another scenario's
    state; the refused states are named, the keys are not."""
    result, out = run(CannotHold("Combined Arms"), {"eu-pop": GAMES["eu-pop"]})
    assert failed(result) == [], out
    [warned] = [c for c in result.checks if c.warn]
    assert warned.title == "eu-pop: the scenarios' players, hands and decks are taken", out
    assert "was refused with the key and without it (unsupported: this engine cannot hold " \
           "Combined Arms); tried in eu-pop/" in warned.detail, out
    assert "an engine holds the cards it declares" in warned.fix
    keys = next(c for c in result.checks if "every setup key" in c.title)
    assert keys.detail.endswith("keys tried, each alone"), out
    # Every state refused: no key is judged, nor blamed.
    result, out = run(CannotHold("Combined Arms", most=2), {"eu-pop": GAMES["eu-pop"]})
    assert failed(result) == [] and "not judged: no state it was tried in was taken" in out
    assert [c.title for c in result.checks if c.warn] == [
        "eu-pop: the scenarios' players, hands and decks are taken"], out


def test_smoke_fails_an_engine_that_errors_on_a_key_the_scenarios_send():
    result, out = run(RefusesUnknownKeys("eu-pop", "window", "errored"), GAMES)
    assert "eu-pop: every setup key the scenarios send is taken" in failed(result), out
    assert "window: errored: " in out


def test_smoke_tries_every_key_and_shape_the_scenarios_an_engine_can_run_send():
    """Only what the scenarios this engine may be sent use: a key only a capability's
    scenarios send is not tried on an engine that does not declare the capability."""
    result, _ = run(reference())
    sent = [r["state"] for r, _ in result.transcript if r["op"] == "setup"]
    assert any("initiative" in s for s in sent) and any("units" in s for s in sent)
    acts = {r["action"]["type"] for r, _ in result.transcript if r["op"] == "act"}
    assert {"status_draw", "politics_primary", "trade", "resolve"} <= acts
    _, out = run(NoRules())  # declares ti4/draw and ti4/play only
    assert '"units"' not in out and '"politics_primary"' not in out


class DeclaresWhatIsNoCard:
    """The reference EU engine declaring a card class as if it were a card (the capability
    column of docs/capabilities.md showed class names) and a card the game does not have,
    instead of the Reaction it models."""

    def __init__(self) -> None:
        from oracle.games.eu_pop.engine import ReferenceEngine

        self.engine = ReferenceEngine()

    def handle(self, request: JSON) -> JSON:
        reply = self.engine.handle(request)
        if request["op"] == "describe":
            caps = [c for c in reply["engine"]["capabilities"] if c != "eu-pop/card/Court Intrigue"]
            caps += ["eu-pop/card/any reaction card", "eu-pop/card/Nonexistent Card",
                     "eu-pop/card/Royal Decre"]
            reply = {**reply, "engine": {**reply["engine"], "capabilities": caps}}
        return reply


def test_smoke_names_a_declared_card_the_game_does_not_have():
    result, out = run(DeclaresWhatIsNoCard(), {"eu-pop": GAMES["eu-pop"]})
    assert failed(result) == ["eu-pop: every declared name is one the game has"], out
    check = next(c for c in result.checks if not c.ok)
    assert check.detail.splitlines() == [
        "eu-pop/card/Nonexistent Card: no such card in eu-pop (rules-oracle cards --game "
        "eu-pop lists its cards)",
        "eu-pop/card/Royal Decre: no such card in eu-pop (closest: Royal Decree, Royal "
        "Marriage)",
        "eu-pop/card/any reaction card: no such card in eu-pop: 'any reaction card' is a card "
        "class, not a card; declare eu-pop/card/NAME for each card of it the engine models "
        "(its cards: Court Intrigue)"], out


class CountsCopies:
    """A reference engine that models one single-copy card and answers ``errored`` to a state
    with more copies of a card than the card facts give it, as docs/protocol.md ("Copies")
    allows: the state is then wrong, not the engine."""

    def __init__(self, game: str) -> None:
        from oracle.engines.kinds import load_factory

        self.engine = load_factory(GAMES[game].reference_engine)()
        facts = [f for deck in GAMES[game].cards.values() for f in deck]
        self.counts = {f["name"]: int(f.get("count", 1)) for f in facts}
        self.card = next(n for n, k in self.counts.items() if k == 1)
        self.game = game

    def handle(self, request: JSON) -> JSON:
        reply = self.engine.handle(request)
        if request["op"] == "describe":
            caps = [c for c in reply["engine"]["capabilities"] if "/card/" not in c]
            caps.append(f"{self.game}/card/{self.card}")
            return {**reply, "engine": {**reply["engine"], "capabilities": caps}}
        if request["op"] == "setup":
            text = json.dumps(request["state"])
            over = {n: k for n in self.counts
                    if (k := text.count(json.dumps(n))) > self.counts[n]}
            if over:
                return {"reply": "errored", "message": f"more copies than the deck has: {over}"}
        return reply


@pytest.mark.parametrize("game", ["ti4", "eu-pop"])
def test_the_minimal_state_never_holds_more_copies_of_a_card_than_the_deck(game):
    """Why: smoke's minimal state repeated the one card an engine declared ("Lucky Shot" in
    Alice's hand and in the deck, of which TI4 has one), so an engine checking the counts,
    as the protocol page allows, failed smoke's setup (found by an outside TI4 engine)."""
    engine = CountsCopies(game)
    result, out = run(engine, {game: GAMES[game]})
    assert "setup" not in " ".join(failed(result)), out
    setup = next(request for request, _ in result.transcript if request["op"] == "setup")
    assert engine.card in json.dumps(setup["state"]), out
