"""Committee files checked against their JSON Schemas: a misspelt key is an error, not a no-op.

Why: ``game.yaml``, ``catalog.yaml``, ``cards.yaml``, ``facts.yaml``, ``plays.yaml``, an
engine team's expectations file and a ruling's ``Key: value`` lines were read key by key, so
``twins: requried`` or ``reasn:`` changed behaviour without a word. Each now has a schema in
``schemas/`` (``additionalProperties: false`` wherever the keys are the oracle's, not the
game's), checked when the file is read, before anything runs; a problem names the file, the
line (from the YAML's composed nodes) and the closest key or value.

Why this is cheap enough for every start: a file that fits, the usual case, is answered by
the check ``oracle.protocol.compiled`` writes from the schema (microseconds); only a file
that does not fit is composed for its line numbers and worded by jsonschema.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import hashlib
import json
import marshal
import sys
from collections.abc import Iterable, Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any

import yaml

from oracle.protocol.compiled import Check, compile_schema
from oracle.suite import cache
from oracle.suite.problems import Problem

if TYPE_CHECKING:  # features imports pytest-bdd: not for a module every start reads
    from oracle.suite.features import KeyedLine, ScenarioDoc

#: The schemas of the committee files, by name (``schemas/NAME.json``).
NAMES = ("game", "catalog", "cards", "facts", "plays", "expectations", "description",
         "contradictions", "reviews", "governs")


@functools.cache
def load(name: str) -> Mapping[str, Any]:
    """One committee-file schema (``game``, ``catalog``, ...), read once; do not change it."""
    if name not in NAMES:
        raise ValueError(f"no committee-file schema {name!r}; the schemas are {NAMES}")
    resource = files("oracle.suite") / "schemas" / f"{name}.json"
    return json.loads(resource.read_text(encoding="utf-8"))


@functools.cache
def digest() -> str:
    """What changes when any schema does: part of the cache key of data checked once."""
    return hashlib.sha256("\0".join(json.dumps(load(n), sort_keys=True)
                                     for n in NAMES).encode()).hexdigest()[:16]


def card_schema(fields: Mapping[str, Any] | None) -> dict[str, Any]:
    """The card-facts schema of a game: ``cards.json``, with each card closed to ``name``,
    ``count``, ``deck`` and the game's own ``card_fields`` (its manifest), when it has any."""
    schema = json.loads(json.dumps(load("cards")))
    if fields:
        card = schema["$defs"]["card"]
        card["properties"] = {**card["properties"], **fields}
        card["additionalProperties"] = False
    return schema


def problem(path: Path, data: Any, schema: str | Mapping[str, Any],
            text: str | None = None) -> str | None:
    """None when ``data`` (read from ``path``) fits the schema; else ``PATH:LINE: what is
    wrong`` with the closest key or value. ``text`` is the file's text, if the caller has
    it (else it is read again, only when there is a problem)."""
    root = load(schema) if isinstance(schema, str) else schema
    if _check(json.dumps(root, sort_keys=True))(data):
        return None
    return _explain(path, data, root, text)


@functools.lru_cache(maxsize=32)
def _check(schema_json: str) -> Check:
    schema = json.loads(schema_json)
    fast = compile_schema({schema["$id"]: schema}, schema["$id"], _code)
    if fast is None:  # a keyword the compiler lacks: jsonschema decides every time
        return lambda data: _validator(schema_json).is_valid(data)
    return fast


def _code(source: str) -> CodeType:
    """The compiled check's code, kept in the cache folder: compiling the sources of the
    five schemas a run checks took some 5 ms of every start, loading them a tenth of it."""
    key = cache.content_key(source.encode(), "schema-code", sys.version)
    kept = cache.load("schema-code", key)
    if isinstance(kept, bytes):
        with contextlib.suppress(ValueError, EOFError, TypeError):
            return marshal.loads(kept)
    code = compile(source, "<compiled schema>", "exec")
    cache.store("schema-code", key, marshal.dumps(code))
    return code


@functools.lru_cache(maxsize=32)
def _validator(schema_json: str) -> Any:
    import jsonschema

    return jsonschema.Draft202012Validator(json.loads(schema_json))


def _explain(path: Path, data: Any, schema: Mapping[str, Any], text: str | None) -> str:
    """The first problem in the file's order, located and worded for the person editing it."""
    errors = list(_validator(json.dumps(schema, sort_keys=True)).iter_errors(data))
    # A key missing where an unknown one stands is that key misspelt: name the misspelling.
    unknown_at = {tuple(e.absolute_path) for e in errors if e.validator == "additionalProperties"}
    errors = [e for e in errors
              if not (e.validator == "required" and tuple(e.absolute_path) in unknown_at)]
    try:
        root = yaml.compose(text if text is not None else path.read_text(encoding="utf-8"),
                            Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, yaml.YAMLError):
        root = None
    worded = sorted((_word(error, schema, root) for error in errors),
                    key=lambda found: found[0])
    if not worded:  # the compiled check and jsonschema disagree: say so, never pass it
        return f"{path}: does not fit its schema ({schema.get('$id')})"
    line, message = worded[0]
    more = f" (and {len(worded) - 1} more problem(s))" if len(worded) > 1 else ""
    return f"{path}:{line}: {message}{more}"


def _word(error: Any, schema: Mapping[str, Any], root: yaml.Node | None) -> tuple[int, str]:
    """(line, message) of one jsonschema error."""
    where = list(error.absolute_path)
    at = _location(where)
    if error.validator == "additionalProperties" and error.validator_value is False:
        known = list(error.schema.get("properties") or {})
        unknown = [k for k in error.instance if k not in known]
        key = unknown[0]
        return (_line(root, [*where, key], key=True),
                f"unknown key {key!r}{at}{_near(str(key), known)} (known: "
                f"{', '.join(known)})")
    parent = _schema_at(schema, where[:-1]) if where else None
    own = list((parent or {}).get("properties") or ())
    if where and isinstance(where[-1], str) and own and where[-1] not in own:
        near = _near(where[-1], own)
        if near:  # a key the schema takes as free-form (a flag, a field) that is misspelt
            return (_line(root, where, key=True),
                    f"key {where[-1]!r}{_location(where[:-1])}: {error.message}{near}")
    if error.validator == "enum":
        options = [str(v) for v in error.validator_value]
        return (_line(root, where),
                f"{error.instance!r}{at} is not one of {', '.join(options)}"
                f"{_near(str(error.instance), options)}")
    hint = ""
    if error.validator == "type" and "string" in _listed(error.validator_value) \
            and isinstance(error.instance, int | float) and not isinstance(error.instance, bool):
        hint = f"; quote it ('{error.instance}'): YAML reads 2.10 unquoted as the number 2.1"
    return _line(root, where), f"{error.message}{at}{hint}"


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _location(where: Sequence[Any]) -> str:
    return f" at {'/'.join(map(str, where))}" if where else ""


def _near(wrong: str, options: Iterable[str]) -> str:
    options = list(options)
    near = difflib.get_close_matches(wrong, options, n=1, cutoff=0.6) or [
        o for o in options if o.casefold() == wrong.casefold()]
    return f"; did you mean {near[0]!r}?" if near else ""


def _schema_at(schema: Mapping[str, Any], where: Sequence[Any]) -> Mapping[str, Any] | None:
    """The subschema that applies at an instance path (properties, additionalProperties,
    items and local ``$ref`` followed; None where it cannot tell)."""
    node: Any = _resolve(schema, schema)
    for part in where:
        if not isinstance(node, Mapping):
            return None
        if isinstance(part, int):
            node = node.get("items")
        elif part in (node.get("properties") or {}):
            node = node["properties"][part]
        else:
            node = node.get("additionalProperties")
        node = _resolve(schema, node)
    return node if isinstance(node, Mapping) else None


def _resolve(root: Mapping[str, Any], node: Any) -> Any:
    while isinstance(node, Mapping) and isinstance(node.get("$ref"), str) \
            and node["$ref"].startswith("#/"):
        target: Any = root
        for part in node["$ref"][2:].split("/"):
            target = target.get(part) if isinstance(target, Mapping) else None
        node = target
    if isinstance(node, Mapping) and "then" in node and "properties" not in node:
        return _resolve(root, node["then"])
    return node


def key_line(path: Path, where: Sequence[Any]) -> int:
    """The line of the key at an instance path of a YAML file (``["recipes", "Spy",
    "offensive"]``), for a check the schema cannot state; 1 when it cannot be found."""
    try:
        root = yaml.compose(path.read_text(encoding="utf-8"),
                            Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, yaml.YAMLError):
        return 1
    return _line(root, where, key=True)


def _line(root: yaml.Node | None, where: Sequence[Any], key: bool = False) -> int:
    """The 1-based line of the value (or, with ``key``, the key) at an instance path: as deep
    as the composed nodes go; 1 when the file could not be composed."""
    node, line = root, (root.start_mark.line + 1 if root is not None else 1)
    for i, part in enumerate(where):
        last = i == len(where) - 1
        if isinstance(node, yaml.SequenceNode) and isinstance(part, int) \
                and part < len(node.value):
            node = node.value[part]
        elif isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in node.value if k.value == str(part)), None)
            if pair is None:
                break
            node = pair[0] if key and last else pair[1]
        else:
            break
        line = node.start_mark.line + 1
    return line


# -- a description's Key: value lines ------------------------------------------------------


def description_problems(scenarios: Iterable[ScenarioDoc]) -> list[Problem]:
    """Each misspelt or unknown ``Key: value`` line of the scenarios' descriptions (a Rule:
    block's line once): in a ruling (a description with a ``Ruling:`` line, or its Rule:
    block's), any key but the schema's; elsewhere, prose may hold ``Word: text`` lines, so
    only a key close to a known one is refused (``Sources:``, ``Cite:``)."""
    known = list(load("description")["properties"])
    lowered = {k.lower(): k for k in known}
    problems: list[Problem] = []
    seen: set[tuple[Path, int]] = set()
    for scenario in scenarios:
        lines = scenario.keyed()
        ruling = any(line.key.lower() == "ruling" for line in lines)
        for line in lines:
            if line.key.lower() in lowered or (scenario.path, line.line) in seen:
                continue
            seen.add((scenario.path, line.line))
            near = _near(line.key, known)
            if ruling or near:
                problems.append(_key_problem(scenario.path, line, near, known, ruling))
    return problems


def _key_problem(path: Path, line: KeyedLine, near: str, known: list[str],
                 ruling: bool) -> Problem:
    where = "a ruling's description" if ruling else "a description"
    return Problem(path, line.line, f"{line.key}: {line.value}",
                   f"unknown key {line.key!r} in {where}{near} (the keys: "
                   f"{', '.join(known)}; docs/rulings.md)")
