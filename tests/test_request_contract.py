"""Every request the oracle sends keeps the contract: the schema, checked from the sending side.

Why: an adapter written from docs/protocol.md and the schemas alone, one that refuses keys it
was not told about, answered ``unsupported`` to most EU scenarios because the suite sent a
state key (``window``) that no page and no schema named. ``request.json`` leaves game data
open, so it could not notice; each bundled game's ``request-GAME.json`` closes it. Here every
bundled scenario of both games (the Russian translations and the council's rulings too) runs
in-process on the reference engine (``oracle.mutants.harness``, a few seconds), and every
request the oracle sends is validated against its game's closed schema. A key the suite needs
is added to the schema and to the game's section of docs/protocol.md, with its meaning and
default; the last test shows that a key missing from the schema fails this check.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("jsonschema")

from oracle.engines import EngineClient
from oracle.engines.kinds import load_factory
from oracle.mutants.harness import Case, game_cases, run_case
from oracle.protocol import validate
from oracle.report.model import Status
from oracle.suite.games import Game, bundled_features_dir, discover_games

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (bundled_features_dir(), ROOT / "examples" / "russian",
           ROOT / "examples" / "council-rulings")


@functools.cache
def games() -> dict[str, Game]:
    return discover_games(list(FOLDERS))


class ContractCheck:
    """Wraps an engine; validates every request it is sent against the closed schema of the
    request's game (a setup names it, an act or choose belongs to the last setup's)."""

    def __init__(self, engine: Any, breaches: list[str], where: str) -> None:
        self.engine = engine
        self.breaches = breaches
        self.where = where
        self.game: str | None = None

    def handle(self, request: dict[str, Any]) -> Any:
        if request.get("op") == "setup":
            self.game = request.get("game")
        found = validate.request_problems(request, self.game)
        kind = (request.get("action") or {}).get("type")
        if request.get("op") == "act" and kind not in validate.action_types(str(self.game)):
            found.append(f"action/type: {kind!r} is not a type the game's schema defines")
        self.breaches += [f"{self.where}: {request.get('op')}: {problem}" for problem in found]
        return self.engine.handle(request)


def breaches(game: Game, cases: tuple[Case, ...]) -> tuple[list[str], list[str]]:
    """Every request of these cases that breaks the contract, and the cases that did not pass
    on the reference engine (where a scenario stops early, its later requests go unchecked)."""
    found: list[str] = []
    stopped: list[str] = []
    factory = load_factory(game.reference_engine)
    for case in cases:
        engine = ContractCheck(factory(), found, f"{case.location} {case.name!r}")
        outcome = run_case(game, case, EngineClient(engine, "reference, checked"))
        if outcome.status != Status.PASS and not case.location.startswith(f"{game.id}/action-"):
            stopped.append(f"{case.location}: {outcome.status.value}: {outcome.message[:200]}")
    return found, stopped


FIX = ("every key the oracle sends must be in the game's closed schema "
       "(oracle/protocol/schemas/v1/request-GAME.json) and in the game's section of "
       "docs/protocol.md, with its meaning and default (an addition to v1); or the step "
       "must stop sending it")


@pytest.mark.parametrize("game_id", ["ti4", "eu-pop"])
def test_every_request_of_every_bundled_scenario_fits_its_games_closed_schema(game_id):
    game = games()[game_id]
    assert validate.game_schema(game_id) == f"request-{game_id}"
    cases = game_cases(game)
    assert len(cases) > 100  # the whole suite, not a sample
    found, stopped = breaches(game, cases)
    assert found == [], f"{FIX}. {len(found)} requests break it; the first:\n" + "\n".join(
        found[:20])
    # The council's rulings are meant to fail on the reference engine (action-cards.feature);
    # everything else ran to its end, so every request it makes was checked.
    assert stopped == []


def test_the_russian_scenarios_are_among_those_checked():
    locations = {c.location for c in game_cases(games()["ti4"])}
    assert "ti4/action-cards-ru.feature" in {loc.rsplit(":", 1)[0] for loc in locations}


def test_each_game_defines_the_action_types_its_section_documents():
    assert "use" in validate.action_types("eu-pop") and "use" not in validate.action_types("ti4")
    assert "status_draw" in validate.action_types("ti4")
    assert validate.action_types("chess") == ()


def test_a_game_without_a_schema_of_its_own_is_checked_against_request_json_only():
    state = {"players": [{"name": "A", "anything": 1}], "anything": 2}
    assert validate.game_schema("chess") is None
    setup = {"op": "setup", "game": "chess", "seed": 1, "state": state}
    assert validate.request_problems(setup, "chess") == []
    assert validate.request_problems({**setup, "game": "ti4"}, "ti4") != []


def test_strict_mode_checks_an_act_against_the_game_of_the_last_setup():
    """``--strict-protocol`` uses the same contract: EU's dice sent in a TI4 game are the
    oracle's bug, reported as such, and never reach the engine."""
    from oracle.protocol import Act, Errored, Setup

    factory = load_factory(games()["ti4"].reference_engine)
    client = EngineClient(factory(), "reference", strict=True)
    client.send(Setup("ti4", {"players": [{"name": "Alice"}]}, 1))
    reply = client.send(Act({"type": "play", "player": "Alice", "card": "Sabotage",
                             "targets": {"dice": ["cavalry"]}}))
    assert isinstance(reply, Errored)
    assert "the oracle's request breaks the request schema" in reply.message
    assert "request-ti4" in reply.message and "'dice' was unexpected" in reply.message
    assert client.transcript[-1][0]["op"] == "setup"  # the engine never saw the play


def test_a_key_missing_from_the_schema_fails_the_check(monkeypatch):
    """The check can fail: with ``window`` taken out of the EU state schema, the scenarios
    that say "it is the action phase, Alice's turn" break the contract, naming the key."""
    real = validate.load_schema

    def without_window(name: str) -> dict[str, Any]:
        schema = real(name)
        if name == "request-eu-pop":
            del schema["$defs"]["state"]["properties"]["window"]
        return schema

    caches = (validate.registry, validate._part_validator, validate.compiled)
    monkeypatch.setattr(validate, "load_schema", without_window)
    for cache in caches:
        cache.cache_clear()
    try:
        game = games()["eu-pop"]
        turn = next(c for c in game_cases(game)
                    if ("given", "it is the action phase, Alice's turn") in c.steps)
        found, _ = breaches(game, (turn,))
    finally:
        monkeypatch.undo()
        for cache in caches:
            cache.cache_clear()
    assert found, "no breach found with 'window' removed from the schema"
    assert all("'window' was unexpected" in f and "request-eu-pop" in f for f in found), found
