"""What a game's scenarios send an engine: every setup key and request shape, with examples.

Why: an adapter that refuses a state key it was not told about answers ``unsupported`` to
every scenario that sends it, and neither ``smoke`` (a minimal state) nor ``capabilities
--engine`` (declarations only) used to notice. Both now try what the suite really sends.
Each scenario is run once, in-process, on the game's reference engine (the kill matrix's
harness, ``oracle.mutants.harness``: a fraction of a second per game) and every request it
makes is kept; from those come

- the **setup keys**: each key path a setup state uses (``window``, ``players[].power``,
  ``battle.step``, ``units[].type``), and for each a *probe state*: the state of the first
  scenario that sends it, cut down to the players, their hands and the decks (what every
  game's state has) plus that one key with the keys the game's schema requires beside it
  (``battle.step`` brings ``battle.attackers`` and ``battle.defenders``), so that an engine
  that refuses it can be told which key it refused;
- the **request shapes**: each action type with the fields it carries (``act play
  targets.dice``) and each kind of choice (``choose keep``), with the scenario setup and the
  request to try it with.

Which scenarios count is for the caller: those an engine can run (its declared capabilities
cover their needs), so that a key only a capability's scenarios send is not tried on an
engine that does not declare it. Given an engine's declarations, the scenarios are recorded
as a run on that engine sends them: played card variables bound among the cards it declares
(by the run's seed), the cards only held among the whole deck, as filler is. Recorded with
the reference engine's own declarations instead, a probe's displays and characters held
cards the engine never declared, and an engine that refuses such a state had its refusal
blamed on the key being tried.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oracle.mutants.harness import Case
    from oracle.suite.games import Game

JSON = dict[str, Any]

#: Paths every game's state has (request.json): players with their names and hands, decks.
#: They make the probe state's base, and are checked by smoke's own minimal state.
BASE = ("players", "players[].name", "players[].hand", "decks")


@dataclass(frozen=True)
class Sent:
    """One scenario's conversation on the reference engine: its setup state and the act and
    choose requests after it, in order."""

    case: Case
    setup: Mapping[str, Any] | None
    requests: tuple[Mapping[str, Any], ...]
    #: Every request from the setup on, observes included, as sent (the setup's seed too).
    conversation: tuple[Mapping[str, Any], ...] = ()

    @functools.cached_property
    def paths(self) -> frozenset[str]:
        """The setup's key paths beyond the base ones."""
        return frozenset(p for p in key_paths(self.setup or {}) if not is_base(p))

    @functools.cached_property
    def shapes(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(shape_of(r) for r in self.requests))


def is_base(path: str) -> bool:
    return any(path == b or path.startswith(b + ".") for b in BASE[1:]) or path == BASE[0]


def key_paths(value: Any, prefix: str = "") -> list[str]:
    """Every key path in a JSON value, objects descended into and lists of objects as
    ``[]``: ``{"battle": {"step": "X"}}`` -> ``["battle", "battle.step"]``."""
    found: list[str] = []
    if isinstance(value, Mapping):
        for key, item in value.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            found.append(path)
            found += key_paths(item, path)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, Mapping):
                found += [p for p in key_paths(item, f"{prefix}[]") if p not in found]
    return list(dict.fromkeys(found))


def shape_of(request: Mapping[str, Any]) -> str:
    """``act play targets.dice``, ``act resolve``, ``choose keep``: a request's kind and the
    fields it carries (a player's or a card's name is a field, not its value)."""
    if request.get("op") == "choose":
        return "choose " + " ".join(sorted(request.get("choice") or {}))
    action = dict(request.get("action") or {})
    kind = action.pop("type", "?")
    fields = [p for p in key_paths(action) if p not in ("player", "card")
              and not any(q.startswith(p + ".") for q in key_paths(action))]
    return " ".join(["act", str(kind), *sorted(fields)])


# -- recording ---------------------------------------------------------------------------------


def sent(game: Game, capabilities: Iterable[str] | None = None, seed: int = 0
         ) -> tuple[Sent, ...]:
    """Every scenario of ``game`` with what it sends, recorded on the reference engine (once
    per game, set of feature files, declarations and seed); () for a game without a
    reference engine.

    With ``capabilities`` (an engine's declarations), as a run with ``seed`` on that engine
    sends it: the card choices are that engine's, and a scenario needing what it does not
    declare sends nothing (its ``setup`` is None). Without, as on the reference engine.
    """
    declared = None if capabilities is None else frozenset(capabilities)
    return _sent(game.id, tuple(game.feature_files()), game, declared, seed)


@functools.cache
def _sent(game_id: str, files: tuple[Path, ...], game: Game,
          capabilities: frozenset[str] | None, seed: int) -> tuple[Sent, ...]:
    from oracle.engines import EngineClient
    from oracle.engines.kinds import load_factory
    from oracle.mutants.harness import game_cases, run_case

    if not game.reference_engine:
        return ()
    factory = load_factory(game.reference_engine)
    out = []
    for case in game_cases(game):
        log: list[Mapping[str, Any]] = []
        engine: Any = Recorder(factory(), log)
        if capabilities is not None:
            engine = Declaring(engine, capabilities)
        run_case(game, case, EngineClient(engine, "reference, recorded"), seed)
        start = next((i for i, r in enumerate(log) if r.get("op") == "setup"), len(log))
        setup = log[start]["state"] if start < len(log) else None
        out.append(Sent(case, setup, tuple(r for r in log if r.get("op") in ("act", "choose")),
                        tuple(log[start:])))
    return tuple(out)


class Recorder:
    """An engine wrapper keeping every request it is sent."""

    def __init__(self, engine: Any, log: list[Mapping[str, Any]]) -> None:
        self.engine, self.log = engine, log

    def handle(self, request: JSON) -> Any:
        self.log.append(request)
        return self.engine.handle(request)


class Declaring:
    """An engine wrapper that declares other capabilities than the engine's: the reference
    engine (which models every card) standing in for an engine that declares these, so that
    the scenarios choose their cards as they would on it."""

    def __init__(self, engine: Any, capabilities: frozenset[str]) -> None:
        self.engine, self.capabilities = engine, capabilities

    def handle(self, request: JSON) -> Any:
        reply = self.engine.handle(request)
        if request.get("op") == "describe" and isinstance(reply, Mapping) \
                and isinstance(reply.get("engine"), Mapping):
            reply = {**reply, "engine": {**reply["engine"],
                                         "capabilities": sorted(self.capabilities)}}
        return reply


# -- probes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Trial:
    """A state that tries one key alone, and the same state without it (its players, their
    hands, the decks): an engine that refuses both refuses something else than the key."""

    state: Mapping[str, Any]
    base: Mapping[str, Any]
    example: str  # where the state comes from: a scenario's location and name


@dataclass(frozen=True)
class KeyProbe:
    """A setup key the scenarios send, and states that try it alone: the first scenario's
    that sends it, then (should the engine refuse that one without the key too) those of a
    few other scenarios with other players, hands or decks."""

    path: str
    trials: tuple[Trial, ...]
    scenarios: tuple[str, ...]  # test names of the scenarios that send it

    @property
    def state(self) -> Mapping[str, Any]:
        return self.trials[0].state

    @property
    def example(self) -> str:
        return self.trials[0].example


@dataclass(frozen=True)
class ShapeProbe:
    """A request shape the scenarios send, and a setup and request to try it with."""

    shape: str
    state: Mapping[str, Any]
    request: Mapping[str, Any]
    scenarios: tuple[str, ...]
    example: str
    paths: frozenset[str]  # the setup keys the probe's state uses


#: How many states a key is tried in at most (each with other players, hands or decks).
TRIALS = 4


def key_probes(game: Game, runs: Iterable[Sent]) -> list[KeyProbe]:
    """One probe per setup key path these scenarios send, shallow paths first."""
    runs = [r for r in runs if r.setup is not None]
    by_path: dict[str, list[Sent]] = {}
    for run in runs:
        for path in run.paths:
            by_path.setdefault(path, []).append(run)
    probes: list[KeyProbe] = []
    for path in sorted(by_path, key=lambda p: (p.count(".") + p.count("[]"), p)):
        trials: dict[str, Trial] = {}  # by base: another trial must differ there
        for run in by_path[path]:
            assert run.setup is not None
            base = base_state(run.setup)
            key = json.dumps(base, sort_keys=True)
            if key not in trials:
                trials[key] = Trial(probe_state(game.id, run.setup, path), base,
                                    f"{run.case.location} {run.case.name!r}")
            if len(trials) == TRIALS:
                break
        first = next(iter(trials.values()))
        if any(p.state == first.state for p in probes):
            continue  # 'battle.attackers' tries nothing 'battle' (which requires it) did not
        probes.append(KeyProbe(path, tuple(trials.values()),
                               tuple(r.case.test_name for r in by_path[path])))
    return probes


def shape_probes(runs: Iterable[Sent], accepted: Sequence[str] | None = None
                 ) -> list[ShapeProbe]:
    """One probe per request shape: the first scenario that sends it (among those whose
    setup keys are all ``accepted``, when that is known and one is), its setup and the
    request itself."""
    by_shape: dict[str, list[tuple[Sent, Mapping[str, Any]]]] = {}
    for run in runs:
        for request in run.requests:
            found = by_shape.setdefault(shape_of(request), [])
            if not found or found[-1][0] is not run:
                found.append((run, request))
    probes = []
    for shape, found in by_shape.items():
        ok = [f for f in found if accepted is None or f[0].paths <= set(accepted)]
        run, request = (ok or found)[0]
        probes.append(ShapeProbe(shape, run.setup or {}, request,
                                 tuple(r.case.test_name for r, _ in found),
                                 f"{run.case.location} {run.case.name!r}", run.paths))
    return probes


def base_state(state: Mapping[str, Any]) -> JSON:
    """``state`` cut down to its base: the players' names and hands, and the decks."""
    out: JSON = {"players": [{k: p[k] for k in ("name", "hand") if k in p}
                             for p in state.get("players", [])]}
    if "decks" in state:
        out["decks"] = state["decks"]
    return out


def probe_state(game_id: str, state: Mapping[str, Any], path: str) -> JSON:
    """``state`` cut down to its base (players' names and hands, decks) plus ``path``, with
    the keys the game's schema requires along it."""
    out = base_state(state)
    players = out["players"]
    schema = _state_schema(game_id)
    segments = path.replace("[]", ".[]").split(".")
    if segments[:2] == ["players", "[]"]:
        node = _step(_step(schema, "players"), "[]")
        for mine, theirs in zip(players, state.get("players", []), strict=True):
            if segments[2] in theirs:
                mine.update(_branch(theirs, segments[2:], node))
        return out
    branch = _branch(state, segments, schema)
    out.update({k: v for k, v in branch.items() if k not in out})  # the base stays cut down
    return out


def _branch(value: Mapping[str, Any], segments: list[str], node: Any) -> JSON:
    """``value``'s keys along ``segments`` (the rest of the path), each object with the keys
    the schema requires of it."""
    key, rest = segments[0], segments[1:]
    node = _resolve(node)
    out: JSON = {k: value[k] for k in (node or {}).get("required", []) if k in value}
    item = value[key]
    sub = _step(node, key)
    if rest and rest[0] == "[]" and isinstance(item, list):
        each = _step(sub, "[]")
        out[key] = [_branch(i, rest[1:], each) if rest[1:] and rest[1] in i else
                    _required(i, each) for i in item if isinstance(i, Mapping)]
    elif rest and isinstance(item, Mapping):
        out[key] = _branch(item, rest, sub)
    elif isinstance(item, Mapping):  # the key itself: with only what it requires inside
        out[key] = _required(item, sub)
    elif isinstance(item, list) and item and all(isinstance(i, Mapping) for i in item):
        out[key] = [_required(i, _step(sub, "[]")) for i in item]
    else:
        out[key] = item
    return out


def _required(value: Mapping[str, Any], node: Any) -> JSON:
    return {k: value[k] for k in (_resolve(node) or {}).get("required", []) if k in value}


@functools.cache
def _documents() -> dict[str, Any]:
    from oracle.protocol import validate

    return {validate.load_schema(n)["$id"]: validate.load_schema(n)
            for n in validate.schema_names()}


@functools.cache
def _state_schema(game_id: str) -> Any:
    from oracle.protocol import validate

    name = validate.game_schema(game_id) or "request"
    schema = validate.load_schema(name)
    return {"$ref": f"{schema['$id']}#/$defs/state", "$base": schema["$id"]}


def _resolve(node: Any) -> Any:
    """A schema node with its ``$ref`` followed (relative to the document it is in)."""
    from urllib.parse import urldefrag, urljoin

    while isinstance(node, Mapping) and "$ref" in node:
        uri = urljoin(node.get("$base", ""), node["$ref"])
        document, fragment = urldefrag(uri)
        target: Any = _documents().get(document, {})
        for part in filter(None, fragment.split("/")):
            target = target.get(part, {}) if isinstance(target, Mapping) else {}
        node = _based(target, document)
    return node


def _based(node: Any, base: str) -> Any:
    return {**node, "$base": base} if isinstance(node, Mapping) else node


def _step(node: Any, key: str) -> Any:
    """The schema of ``key`` inside ``node`` (``[]``: a list's items); None if unknown."""
    node = _resolve(node)
    if not isinstance(node, Mapping):
        return None
    base = node.get("$base", "")
    if key == "[]":
        return _based(node.get("items"), base)
    return _based((node.get("properties") or {}).get(key), base)
