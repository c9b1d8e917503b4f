"""The protocol's JSON Schemas against the docs, the reference engine and ``parse_reply``.

Why: the schemas in ``oracle/protocol/schemas/v1/`` are the contract, the docs explain it and
the code implements it; three descriptions of one thing drift apart unless something checks them
against each other. So every example in ``docs/protocol.md`` must validate (and the page must
show every request and reply kind), the bundled engine's replies to a real session must
validate, and ``parse_reply`` must turn anything at all into a typed reply or a
``ProtocolError`` -- and accept everything the schema accepts.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("jsonschema")

from jsonschema import Draft202012Validator

from oracle.games.ti4.engine import factory
from oracle.protocol import (
    EXPECTED_REPLIES,
    REFEREE,
    Accepted,
    Act,
    Choose,
    Describe,
    Described,
    Errored,
    Observe,
    ProtocolError,
    Ready,
    Rejected,
    Request,
    Setup,
    Unsupported,
    View,
    parse_reply,
)
from oracle.protocol import validate as schemas

JSON = dict[str, Any]

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
OPS = ("describe", "setup", "act", "choose", "observe")
REPLY_KINDS = ("described", "ready", "accepted", "rejected", "view", "unsupported", "errored")
REPLY_TYPES = (Described, Ready, Accepted, Rejected, View, Unsupported, Errored)
KIND_OF_TYPE = dict(zip(REPLY_TYPES, REPLY_KINDS, strict=True))

REQUEST = schemas.validator("request")
REPLY = schemas.validator("reply")


def errors(validator: Any, instance: object) -> list[str]:
    """Every schema error, located, so a failing assert says what is wrong where."""
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
        for e in validator.iter_errors(instance)
    ]


# -- the schema files themselves ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["request", "reply", "view", "request-ti4", "request-eu-pop",
                                  "coverage"])
def test_schema_is_a_documented_draft_2020_12_schema(name: str) -> None:
    schema = schemas.load_schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == f"https://rules-oracle.invalid/schemas/v1/{name}.json"
    assert schema["title"] and schema["description"]


def test_loader_finds_every_schema_by_either_name() -> None:
    assert schemas.schema_names() == ["coverage", "explore", "matrix", "reply", "report",
                                      "request", "request-eu-pop", "request-ti4", "view"]
    assert schemas.load_schema("reply.json") == schemas.load_schema("reply")
    with pytest.raises(FileNotFoundError, match="request"):
        schemas.load_schema("nope")
    with pytest.raises(ValueError):
        schemas.load_schema("../v1/reply")


def test_validator_without_jsonschema_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    with pytest.raises(ImportError, match=re.escape("pip install jsonschema")):
        schemas.validator("reply")


def test_relative_ref_to_view_resolves_offline() -> None:
    """reply.json's ``"$ref": "view.json"`` must come from the registry, never the network."""
    bad_view = {"reply": "view", "view": {"players": {"A": {"hand": {"count": -1, "cards": []}}},
                                          "decks": {}}}
    assert any("-1" in e for e in errors(REPLY, bad_view))


# -- 1. every example in docs/protocol.md ------------------------------------------------------


def doc_examples() -> list[JSON]:
    """The ```json blocks of docs/protocol.md (indented ones too), parsed."""
    blocks = re.findall(r"^[ \t]*```json\n(.*?)^[ \t]*```", DOC.read_text(encoding="utf-8"),
                        re.M | re.S)
    assert blocks, f"no ```json examples found in {DOC}"
    return [json.loads(block) for block in blocks]


@pytest.mark.parametrize("example", doc_examples(), ids=lambda e: e.get("op") or e.get("reply"))
def test_doc_example_is_schema_valid(example: JSON) -> None:
    assert ("op" in example) != ("reply" in example), (
        f"a docs example must be a request (op) or a reply (reply): {example}"
    )
    validator = REQUEST if "op" in example else REPLY
    assert errors(validator, example) == []


#: A game's section of docs/protocol.md, by the start of its heading.
GAME_SECTIONS = {"TI4 (": "ti4", "EU: ": "eu-pop"}


def game_requests() -> list[tuple[str, JSON]]:
    """The request examples of docs/protocol.md that belong to one game: a setup (it names its
    game), and every request shown in a game's own section."""
    found = []
    for section in re.split(r"^## ", DOC.read_text(encoding="utf-8"), flags=re.M):
        game = next((g for start, g in GAME_SECTIONS.items() if section.startswith(start)), None)
        for block in re.findall(r"^[ \t]*```json\n(.*?)^[ \t]*```", section, re.M | re.S):
            example = json.loads(block)
            owner = example.get("game") if example.get("op") == "setup" else game
            if "op" in example and owner:
                found.append((owner, example))
    return found


@pytest.mark.parametrize(("game", "example"), game_requests(),
                         ids=lambda v: v if isinstance(v, str) else v["op"])
def test_a_games_doc_example_fits_its_closed_schema(game: str, example: JSON) -> None:
    """The examples keep the closed contract of their game (``request-GAME.json``)."""
    assert schemas.request_problems(example, game) == []


def test_each_game_section_shows_a_request() -> None:
    assert {game for game, _ in game_requests()} == set(GAME_SECTIONS.values())


def test_doc_shows_every_request_and_every_reply() -> None:
    """So that a new request or reply kind cannot be added without documenting it."""
    examples = doc_examples()
    ops = {e["op"] for e in examples if "op" in e}
    kinds = {e["reply"] for e in examples if "reply" in e}
    assert sorted(set(OPS) - ops) == [], "requests without an example in docs/protocol.md"
    assert sorted(set(REPLY_KINDS) - kinds) == [], "replies without an example in docs/protocol.md"


# -- 2. the reference engine's replies ---------------------------------------------------------

FILLER = ["Veto", "Spy", "Plague", "Summit", "Salvage", "Bunker", "Parley"]

SESSION: list[tuple[JSON, str]] = [
    ({"op": "describe"}, "described"),
    (
        {"op": "setup", "game": "ti4", "seed": 3, "state": {
            "players": [
                {"name": "Alice", "hand": ["Sabotage", "Lucky Shot", *FILLER[:5]]},
                {"name": "Bob", "faction": "Hacan", "hand": ["Repeal Law"]},
                {"name": "Carol", "hand": []},
            ],
            "phase": "action", "active_player": "Alice",
            "decks": {"action": {"draw": ["Bribery", "Rally", "Scuttle", "Veto"],
                                 "discard": ["Spy"]}},
        }},
        "ready",
    ),
    ({"op": "act", "action": {"type": "draw", "player": "Carol", "deck": "action", "count": 1}},
     "accepted"),
    # Alice goes over the hand limit of 7 and must choose what to keep.
    ({"op": "act", "action": {"type": "draw", "player": "Alice", "deck": "action", "count": 1}},
     "accepted"),
    ({"op": "act", "action": {"type": "reveal", "player": "Alice", "cards": ["Sabotage"]}},
     "rejected"),
    ({"op": "choose", "player": "Alice", "choice": {"discard": ["Spy"]}}, "rejected"),
    ({"op": "choose", "player": "Alice",
      "choice": {"keep": ["Sabotage", "Lucky Shot", *FILLER[:4], "Rally"]}}, "accepted"),
    ({"op": "act", "action": {"type": "play", "player": "Bob", "card": "Repeal Law",
                              "targets": {"law": "Minister of Commerce"}}}, "rejected"),
    ({"op": "act", "action": {"type": "reveal", "player": "Alice", "cards": ["Sabotage"]}},
     "accepted"),
    ({"op": "act", "action": {"type": "resolve"}}, "accepted"),
    ({"op": "act", "action": {"type": "window", "window": "At the start of a combat round"}},
     "accepted"),
    ({"op": "act", "action": {"type": "end_turn", "player": "Alice"}}, "accepted"),
    ({"op": "act", "action": {"type": "teleport", "player": "Bob"}}, "unsupported"),
    ({"op": "observe", "viewer": "Alice"}, "view"),
    ({"op": "observe", "viewer": None}, "view"),
    ({"op": "observe", "viewer": REFEREE}, "view"),
    ({"op": "observe", "viewer": "Zed"}, "errored"),
]


def test_reference_engine_session_is_schema_valid_both_ways() -> None:
    """Each request the session sends and each reply the engine gives fits the schemas."""
    engine = factory()
    views: dict[str | None, JSON] = {}
    for request, kind in SESSION:
        assert errors(REQUEST, request) == [], request
        reply = engine.handle(json.loads(json.dumps(request)))
        assert reply.get("reply") == kind, (request, reply)
        assert errors(REPLY, reply) == [], (request, reply)
        if kind == "view":
            views[request["viewer"]] = reply["view"]
    # The schema cannot say who may see what; check that the session exercised it at all.
    assert views["Alice"]["players"]["Alice"]["hand"]["count"] == 7
    assert views[None]["players"]["Alice"]["hand"]["cards"] == ["Sabotage"]
    assert "cards" in views[REFEREE]["decks"]["action"]["draw"]
    assert "cards" not in views[None]["decks"]["action"]["draw"]


# -- 3. parse_reply never fails any other way --------------------------------------------------

REQUESTS: list[Request] = [
    Describe(),
    Setup("ti4", {"players": [{"name": "Alice"}]}, 1),
    Act({"type": "resolve"}),
    Choose("Alice", {"keep": []}),
    Observe(None),
]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)

engine_infos = st.fixed_dictionaries(
    {},
    optional={
        "name": st.text(max_size=8) | json_values,
        "version": st.text(max_size=8) | json_values,
        "protocol": st.just(1) | json_values,
        "games": st.lists(
            st.fixed_dictionaries({}, optional={"game": st.text(max_size=8) | json_values,
                                                "edition": json_values})
            | json_values,
            max_size=3,
        ) | json_values,
        "capabilities": st.lists(st.text(max_size=8) | json_values, max_size=3) | json_values,
    },
)

valid_engines = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=8),
        "version": st.text(max_size=8),
        "protocol": st.just(1),
        "games": st.lists(st.fixed_dictionaries({"game": st.text(min_size=1, max_size=8)},
                                                optional={"edition": st.text(max_size=8)}),
                          max_size=2),
        "capabilities": st.lists(st.text(max_size=8), max_size=3),
    }
)

FIELDS = ("engine", "events", "reason", "rule", "view", "capability", "message", "context")

hands = st.fixed_dictionaries({}, optional={"count": st.integers(-1, 3) | json_values,
                                            "cards": st.lists(st.text(max_size=5), max_size=2)})
views = st.fixed_dictionaries(
    {},
    optional={
        "players": st.dictionaries(st.text(max_size=5), st.fixed_dictionaries({"hand": hands}),
                                   max_size=2),
        "decks": st.dictionaries(
            st.text(max_size=5),
            st.fixed_dictionaries({"draw": st.fixed_dictionaries({"count": st.integers(0, 3)}),
                                   "discard": st.lists(st.text(max_size=5), max_size=2)}),
            max_size=1,
        ) | json_values,
    },
)
#: Replies that are right or nearly so, so that the schema-valid cases are not all trivial.
near_valid = st.one_of(
    st.fixed_dictionaries({"reply": st.just("described"), "engine": valid_engines | engine_infos}),
    st.just({"reply": "ready"}),
    st.fixed_dictionaries({"reply": st.just("accepted")},
                          optional={"events": st.lists(st.dictionaries(st.text(max_size=5),
                                                                       json_values, max_size=2))
                                    | json_values}),
    st.fixed_dictionaries({"reply": st.just("rejected")},
                          optional={"reason": st.text(max_size=8) | json_values,
                                    "rule": st.text(max_size=8) | json_values}),
    st.fixed_dictionaries({"reply": st.just("view")}, optional={"view": views | json_values}),
    st.fixed_dictionaries({"reply": st.just("unsupported")},
                          optional={"reason": st.text(max_size=8) | json_values,
                                    "capability": st.text(max_size=8) | json_values}),
    st.fixed_dictionaries({"reply": st.just("errored")},
                          optional={"message": st.text(max_size=8) | json_values,
                                    "context": st.dictionaries(st.text(max_size=5), json_values,
                                                               max_size=2) | json_values}),
)
#: Any kind (or none of the set) with any of the fields replies use, holding anything.
reply_like = st.builds(
    lambda kind, fields: {**fields, "reply": kind},
    st.sampled_from([*REPLY_KINDS, "bogus", ""]) | json_values,
    st.dictionaries(
        st.sampled_from(FIELDS) | st.text(max_size=8),
        json_values | engine_infos | st.text(max_size=8),
        max_size=5,
    ),
)


@settings(max_examples=100, deadline=None)
@given(data=json_values | reply_like | near_valid)
def test_parse_reply_gives_a_typed_reply_or_a_protocol_error(data: Any) -> None:
    for request in REQUESTS:
        try:
            reply = parse_reply(request, data)
        except ProtocolError:
            parsed = None
        else:
            assert isinstance(reply, REPLY_TYPES)
            parsed = KIND_OF_TYPE[type(reply)]
            assert parsed == data["reply"]
        # The schema and the code agree: a schema-valid reply of a kind that answers this
        # request is always parsed.
        op = request.to_json()["op"]
        answers = (*EXPECTED_REPLIES[op], "unsupported", "errored")
        if isinstance(data, dict) and data.get("reply") in answers and REPLY.is_valid(data):
            assert parsed == data["reply"], (op, data)


# -- 4. what the schemas refuse ------------------------------------------------------------------

GOOD_ENGINE = {"name": "e", "version": "1", "protocol": 1, "games": [{"game": "ti4"}],
               "capabilities": []}


@pytest.mark.parametrize(
    "reply",
    [
        pytest.param({"reply": "maybe"}, id="unknown-kind"),
        pytest.param({"events": []}, id="no-kind"),
        pytest.param({"reply": "rejected"}, id="rejected-without-reason"),
        pytest.param({"reply": "rejected", "reason": 3}, id="rejected-reason-not-string"),
        pytest.param({"reply": "described", "engine": {**GOOD_ENGINE, "protocol": 2}},
                     id="protocol-2"),
        pytest.param({"reply": "described", "engine": {**GOOD_ENGINE, "protocol": True}},
                     id="protocol-true"),
        pytest.param({"reply": "described", "engine": {**GOOD_ENGINE, "games": ["ti4"]}},
                     id="games-not-objects"),
        pytest.param({"reply": "view", "view": {"players": {}}}, id="view-without-decks"),
        pytest.param({"reply": "view", "view": {
            "players": {"A": {"hand": {"count": 1}}}, "decks": {}}}, id="hand-without-cards"),
        pytest.param({"reply": "errored"}, id="errored-without-message"),
    ],
)
def test_invalid_reply(reply: JSON) -> None:
    assert not REPLY.is_valid(reply)


def test_valid_minimal_replies() -> None:
    """The negative cases above fail for the reason named, not because nothing passes."""
    for reply in [
        {"reply": "described", "engine": GOOD_ENGINE},
        {"reply": "rejected", "reason": "no"},
        {"reply": "view", "view": {"players": {}, "decks": {}}},
        {"reply": "errored", "message": "boom"},
        {"reply": "ready", "extra": "engines may say more"},
    ]:
        assert errors(REPLY, reply) == [], reply


@pytest.mark.parametrize(
    "request_",
    [
        pytest.param({"op": "shuffle"}, id="unknown-op"),
        pytest.param({"op": "describe", "verbose": True}, id="unknown-field"),
        pytest.param({"op": "observe"}, id="observe-without-viewer"),
        pytest.param({"op": "observe", "viewer": 1}, id="viewer-not-string"),
        pytest.param({"op": "act", "action": {"player": "A"}}, id="action-without-type"),
        pytest.param({"op": "act", "action": {"type": "draw", "player": "A", "deck": "action"}},
                     id="draw-without-count"),
        pytest.param({"op": "act", "action": {"type": "draw", "player": "A", "deck": "action",
                                              "count": "1"}}, id="draw-count-not-integer"),
        pytest.param({"op": "act", "action": {"type": "reveal", "player": "A", "cards": "Spy"}},
                     id="reveal-cards-not-list"),
        pytest.param({"op": "act", "action": {"type": "window"}}, id="window-without-name"),
        pytest.param({"op": "choose", "player": "A", "choice": {"keep": [], "discard": []}},
                     id="choice-both-kinds"),
        pytest.param({"op": "setup", "game": "ti4", "seed": 1, "state": {"players": [{}]}},
                     id="player-without-name"),
        pytest.param({"op": "setup", "game": "ti4", "seed": 1, "state": {
            "players": [{"name": "A"}], "decks": {"action": {"draw": []}}}},
                     id="deck-without-discard"),
    ],
)
def test_invalid_request(request_: JSON) -> None:
    assert not REQUEST.is_valid(request_)


def test_game_specific_action_types_are_open() -> None:
    """A game's own action types pass with any fields; only the shared ones are checked."""
    for action in [
        {"type": "politics_primary", "player": "A", "speaker": "B"},
        {"type": "status_draw"},
        {"type": "trade", "player": "A", "to": "B", "cards": ["Spy"]},
    ]:
        assert errors(REQUEST, {"op": "act", "action": action}) == [], action


# -- 4. strict mode's compiled check says what jsonschema says ----------------------------------


def _mutations(message: Any) -> st.SearchStrategy[Any]:
    """A message with one value somewhere replaced, or one key removed or added."""
    if isinstance(message, dict) and message:
        return st.sampled_from(sorted(message)).flatmap(lambda key: st.one_of(
            _mutations(message[key]).map(lambda v, k=key: {**message, k: v}),
            st.just({k: v for k, v in message.items() if k != key}),
            json_values.map(lambda v, k=key: {**message, k: v}),
            st.tuples(st.text(max_size=5), json_values).map(
                lambda kv: {**message, kv[0]: kv[1]}),
        ))
    if isinstance(message, list) and message:
        return st.integers(0, len(message) - 1).flatmap(lambda i: st.one_of(
            _mutations(message[i]).map(lambda v, i=i: [*message[:i], v, *message[i + 1:]]),
            st.just(message[:i] + message[i + 1:]),
        ))
    return st.one_of(st.just(message), json_values, st.sampled_from([1.0, True, 0, -1, ""]))


SESSION_REQUESTS = st.sampled_from([request for request, _ in SESSION])


def _session_replies() -> list[JSON]:
    """The reference engine's replies to the session: every kind, views included."""
    engine = factory()
    return [engine.handle(json.loads(json.dumps(request))) for request, _ in SESSION]


SESSION_REPLIES = st.sampled_from(_session_replies())


def test_every_schema_compiles_for_strict_mode() -> None:
    """Strict mode's fast path exists: a schema that stops compiling would make it slow."""
    for name in schemas.schema_names():
        assert schemas.compiled(name) is not None, name


@settings(max_examples=120, deadline=None)
@given(data=SESSION_REQUESTS.flatmap(_mutations) | SESSION_REQUESTS | json_values)
def test_compiled_request_check_agrees_with_jsonschema(data: Any) -> None:
    assert schemas.compiled("request")(data) == REQUEST.is_valid(data)


@settings(max_examples=120, deadline=None)
@given(data=SESSION_REPLIES.flatmap(_mutations) | near_valid | reply_like | json_values)
def test_compiled_reply_check_agrees_with_jsonschema(data: Any) -> None:
    assert schemas.compiled("reply")(data) == REPLY.is_valid(data)


@pytest.mark.parametrize("value", [1, 1.0, True, 0, False, None, "1", [1], {"a": 1}, 2.5])
def test_compiled_types_and_equality_are_jsonschemas(value: Any) -> None:
    """Where Python and JSON disagree (``True == 1``, ``1.0`` an integer), the compiled check
    sides with jsonschema."""
    from oracle.protocol.compiled import compile_schema

    for schema in ({"const": 1}, {"enum": [1, "1", None]}, {"const": True},
                   {"type": "integer"}, {"type": "number"}, {"type": ["null", "boolean"]},
                   {"minimum": 1}, {"oneOf": [{"type": "integer"}, {"type": "number"}]}):
        document = {"$id": "https://x.invalid/s.json", **schema}
        check = compile_schema({document["$id"]: document}, document["$id"])
        assert check is not None
        assert check(value) == Draft202012Validator(document).is_valid(value), (schema, value)


def _a_report() -> JSON:
    """A real report: the TI4 catalog, one scenario passing and one failing."""
    from oracle.report import ScenarioVerdict, Status, build_report
    from oracle.suite.games import discover_games

    catalog = discover_games()["ti4"].catalog
    verdicts = [ScenarioVerdict("draws", "ti4", ("ti4:2.1",), Status.PASS, "ti4/d.feature:3"),
                ScenarioVerdict("limit", "ti4", ("ti4:2.4",), Status.FAIL, "ti4/h.feature:9",
                                "too many", 0.25, (("name", "e"),))]
    return build_report([catalog], verdicts, {"spec": "reference", "seed": 0}).to_json()


@settings(max_examples=100, deadline=None)
@given(data=st.just(_a_report()).flatmap(_mutations))
def test_compiled_report_check_agrees_with_jsonschema(data: Any) -> None:
    assert schemas.compiled("report")(data) == schemas.validator("report").is_valid(data)
# -- 5. the capabilities table -----------------------------------------------------------------


def test_every_capability_a_bundled_engine_declares_is_in_the_capabilities_table() -> None:
    """An adapter writer learns from the page what each capability gates; a capability the
    bundled engines declare but the page does not explain would send them to the code."""
    from oracle.engines.kinds import load_factory
    from oracle.suite.games import discover_games

    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Capabilities\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    named = {c for row in rows for c in re.findall(r"`([\w-]+/[^`]+)`", row.split("|")[1])}
    for game in discover_games().values():
        patterns = [re.escape(c).replace("GAME", re.escape(game.id)).replace("NAME", ".+")
                    for c in named]
        engine = load_factory(game.reference_engine)()
        declared = engine.handle({"op": "describe"})["engine"]["capabilities"]
        missing = [c for c in declared if not any(re.fullmatch(p, c) for p in patterns)]
        assert missing == [], f"{game.id}: not in docs/protocol.md, Capabilities: {missing}"


# -- 6. what the page promises about the scenarios ---------------------------------------------

DRAWING = re.compile(r"draws \w+ \w+ cards?|status phase step|ability of Politics")


def test_no_scenario_draws_from_or_looks_at_a_deck_it_leaves_out() -> None:
    """docs/protocol.md, "setup": an engine that cannot hold a whole deck starts with what it
    can hold, because a scenario that leaves a deck out never draws from it, and looks at its
    draw pile only to check what a new game's deck holds (a scenario with no action). One
    that did more would judge such engines on a deck they were never given."""
    from oracle.suite.features import read_feature
    from oracle.suite.games import discover_games

    broken = []
    for game in discover_games().values():
        for path in sorted(game.folder.glob("*.feature")):
            for scenario in read_feature(path).scenarios:
                for lines in scenario.rendered():
                    broken += _deck_left_out_but_used(path.name, scenario.name, lines)
    assert broken == []


def _deck_left_out_but_used(where: str, name: str, lines: Sequence[Any]) -> list[str]:
    steps = [line.text for line in lines]
    given = [line.text for line in lines if line.kind == "given"]
    decks = {m.group(1) for t in given if (m := re.match(r"the (\w+) (?:deck|discard pile) is", t))}
    new_game = not any(line.kind == "when" for line in lines)  # what a new game's deck holds
    found = []
    for i, text in enumerate(steps):
        m = re.match(r"the (\w+) deck is", text)
        if m and text not in given and m.group(1) not in decks and not new_game:
            found.append(f"{where}: {name}: {text}")
        if DRAWING.search(text) and not decks and steps[i + 1:i + 2] != ["the action is rejected"]:
            found.append(f"{where}: {name}: {text}")
    return found


def test_the_page_defines_every_verdict_an_engine_can_earn() -> None:
    """An engine developer reads what `blocked` means on this page, not in the code."""
    from oracle.report.model import TESTED, Status

    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## What a run says about an engine\n", 1)[1].split("\n## ", 1)[0]
    defined = set(re.findall(r"^\| `(\w+)` \|", section, re.M))
    earned = {str(s) for s in TESTED | {Status.UNSUPPORTED}} - {"xfail", "xpass"}
    assert earned <= defined, earned - defined
