"""The versioned JSON Schemas (``schemas/v1/``) and validation against them.

Why schemas at all: an engine in another language (or a reviewer) needs the protocol as data,
not as Python code, and the docs' examples and the reference engine's replies can be checked
against it mechanically (``tests/test_protocol_schema.py``). The schemas are package data,
read with ``importlib.resources`` so they work from a wheel or a zip as well as a checkout.

Why jsonschema is imported lazily: only ``--strict-protocol`` runs and the tests validate
against these schemas (``oracle.protocol.parse_reply`` does its own checks on every reply),
so an ordinary run does not pay for importing it. Strict mode checks each live message with
a check compiled from the schemas first (``oracle.protocol.compiled``): a valid message,
the usual case, never reaches jsonschema.
"""

from __future__ import annotations

import functools
import json
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from oracle.protocol.compiled import Check, compile_schema

if TYPE_CHECKING:
    from jsonschema.protocols import Validator
    from referencing import Registry

VERSION = "v1"
"""The schema directory for protocol version 1 (``oracle.protocol.PROTOCOL_VERSION``)."""


def _file_name(name: str) -> str:
    """Accept ``"reply"`` as well as ``"reply.json"``; refuse paths, which would escape v1."""
    if "/" in name or "\\" in name:
        raise ValueError(f"a schema name is a plain file name, got {name!r}")
    return name if name.endswith(".json") else f"{name}.json"


def schema_names() -> list[str]:
    """The names of every bundled schema (``["reply", "request", "view"]`` for v1)."""
    directory = files("oracle.protocol") / "schemas" / VERSION
    return sorted(
        entry.name.removesuffix(".json")
        for entry in directory.iterdir()
        if entry.name.endswith(".json")
    )


def load_schema(name: str) -> dict[str, Any]:
    """One bundled schema as a fresh dict (callers may change it without affecting others)."""
    resource = files("oracle.protocol") / "schemas" / VERSION / _file_name(name)
    if not resource.is_file():
        raise FileNotFoundError(
            f"no protocol schema {name!r}; the {VERSION} schemas are {schema_names()}"
        )
    return json.loads(resource.read_text(encoding="utf-8"))


def _import_jsonschema() -> tuple[Any, Any]:
    """``(jsonschema, referencing)``, or an ImportError that says how to get them."""
    try:
        import jsonschema
        import referencing
    except ImportError as exc:
        raise ImportError(
            "validating against the protocol schemas needs jsonschema, a dependency of "
            "rules-oracle: reinstall it with 'pip install rules-oracle' (or pip install jsonschema)"
        ) from exc
    return jsonschema, referencing


@functools.cache
def registry() -> Registry:
    """Every bundled schema under its ``$id``, so relative ``$ref``s resolve offline.

    A ``$ref`` such as ``"view.json"`` inside ``reply.json`` resolves against reply.json's
    ``$id`` to ``https://rules-oracle.invalid/schemas/v1/view.json``; the registry holds that
    URI, so nothing is ever fetched (the ``.invalid`` domain guarantees it could not be).
    """
    _, referencing = _import_jsonschema()
    from referencing.jsonschema import DRAFT202012

    resources = []
    for name in schema_names():
        schema = load_schema(name)
        resources.append((schema["$id"], DRAFT202012.create_resource(schema)))
    return referencing.Registry().with_resources(resources)


def validator(name: str) -> Validator:
    """A draft 2020-12 validator for one bundled schema, with every v1 schema resolvable."""
    jsonschema, _ = _import_jsonschema()
    schema = load_schema(name)
    cls = jsonschema.Draft202012Validator
    return cls(schema, registry=registry(), format_checker=cls.FORMAT_CHECKER)


KIND_KEYS = {"request": "op", "reply": "reply"}
"""The field that names a request's or a reply's kind, which picks one branch of the oneOf."""


@functools.cache
def _part_validator(name: str, part: str) -> Validator:
    """A cached validator for part of a schema: ``"*"`` all of it, ``"top"`` all but its
    ``oneOf`` (the fields every kind shares), or a kind's ``$defs`` entry."""
    if part == "*":
        return validator(name)
    jsonschema, _ = _import_jsonschema()
    schema = load_schema(name)
    if part == "top":
        sub = {k: v for k, v in schema.items() if k != "oneOf"}
    else:
        sub = {"$ref": f"{schema['$id']}#/$defs/{part}"}
    cls = jsonschema.Draft202012Validator
    return cls(sub, registry=registry(), format_checker=cls.FORMAT_CHECKER)


def kinds(name: str) -> list[str]:
    """The kinds a ``oneOf`` schema offers (``request``: the ops; ``reply``: the reply kinds)."""
    return list(_kinds(name))


@functools.cache
def _kinds(name: str) -> tuple[str, ...]:
    return tuple(branch["$ref"].rpartition("/")[2]
                 for branch in load_schema(name).get("oneOf", []))


@functools.cache
def compiled(name: str) -> Check | None:
    """The fast yes/no check for one bundled schema (``oracle.protocol.compiled``), or None
    if it cannot be compiled (then jsonschema does all the work)."""
    documents = {}
    for other in schema_names():
        schema = load_schema(other)
        documents[schema["$id"]] = schema
    return compile_schema(documents, load_schema(name)["$id"])


def game_schema(game: str | None) -> str | None:
    """The name of the schema that closes a game's requests (``request-ti4``), or None for a
    game that has none (its game data is then only checked as ``request`` leaves it: open).
    """
    if not game:
        return None
    name = f"request-{game}"
    return name if name in _names() else None


@functools.cache
def _names() -> frozenset[str]:
    return frozenset(schema_names())


def action_types(game: str) -> tuple[str, ...]:
    """The action types a game's closed schema defines: every type the oracle sends in that
    game (another is left to the engine to answer ``unsupported``); () without a schema."""
    name = game_schema(game)
    if name is None:
        return ()
    branches = load_schema(name)["$defs"]["action"]["allOf"]
    return tuple(b["if"]["properties"]["type"]["const"] for b in branches)


def choice_kinds() -> tuple[str, ...]:
    """The kinds of answer a ``choose`` request carries (``{'keep': cards}``, ...): the
    properties of ``request``'s ``choice``, the same in every game."""
    return tuple(load_schema("request")["$defs"]["choice"]["properties"])


def request_problems(instance: object, game: str | None) -> list[str]:
    """Why a request breaks the contract, ``[]`` if it keeps it: the ``request`` schema, and
    then (for a game that has one, ``game_schema``) its game's closed schema, which names
    every state key, action type and target the oracle may send in that game.

    ``game`` is the game of the request (a setup names it; an act or choose belongs to the
    game of the last setup).
    """
    found = problems("request", instance)
    name = game_schema(game)
    if found or name is None:
        return found
    return [f"{p} (schema {name})" for p in problems(name, instance)]


def problems(name: str, instance: object) -> list[str]:
    """Why ``instance`` breaks schema ``name``, one located line per error; ``[]`` if valid.

    Used by the strict protocol mode on live messages. A request or reply of a known kind is
    checked against that kind's own definition (plus the fields every kind shares), because
    the whole schema's ``oneOf`` would only say "is not valid under any of the given schemas"
    instead of naming the missing or wrong field.
    """
    fast = compiled(name)
    if fast is not None and fast(instance):  # valid: nothing for jsonschema to word
        return []
    key = KIND_KEYS.get(name)
    parts = ["*"]
    if key is not None:
        if not isinstance(instance, dict):
            return [f"(top level): a {name} must be a JSON object, got {instance!r:.200}"]
        kind = instance.get(key)
        if kind not in _kinds(name):
            return [f"{key}: {kind!r:.100} is not one of {', '.join(kinds(name))}"]
        parts = ["top", kind]
    found: list[str] = []
    for part in parts:
        errors = _part_validator(name, part).iter_errors(instance)
        for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
            where = "/".join(map(str, error.absolute_path)) or "(top level)"
            found.append(f"{where}: {error.message}")
    return found
