"""Yes/no checks compiled from the protocol's JSON Schemas: the fast path of strict mode.

Why: ``--strict-protocol`` validates every request and every reply. jsonschema interprets a
schema anew for each message (about half a millisecond for a view), several times the round
trip it checks. Compiled once into Python source (one function per subschema, ``exec``-ed
once), the same schema answers "is this valid?" in a few microseconds. jsonschema stays the
authority: only a message the compiled check accepts skips it; everything else is validated
(and its errors worded) by jsonschema.

So the compiled check must accept exactly what jsonschema accepts. It knows the keywords
the v1 schemas use, with jsonschema's draft 2020-12 meaning (its type predicates, ``const``
and ``enum`` equality with ``true`` distinct from ``1``, ``$ref`` beside other keywords); a
schema with any other keyword does not compile (``compile_schema`` gives None) and
jsonschema does all the work. ``tests/test_protocol_schema.py`` holds the two to the same
answers.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Mapping
from types import CodeType
from typing import Any
from urllib.parse import urldefrag, urljoin

Check = Callable[[Any], bool]

_ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description",
                          "default", "examples", "deprecated", "readOnly", "writeOnly"})

# jsonschema's draft 2020-12 type checker, predicate for predicate (as expressions on x).
_TYPES = {
    "object": "isinstance(x, dict)",
    "array": "isinstance(x, list)",
    "string": "isinstance(x, str)",
    "boolean": "isinstance(x, bool)",
    "null": "x is None",
    "number": "(type(x) is int or type(x) is float or "
              "(not isinstance(x, bool) and isinstance(x, Number)))",
    "integer": "(type(x) is int or (type(x) is float and x.is_integer()) or "
               "(not isinstance(x, bool) and (isinstance(x, int) or "
               "(isinstance(x, float) and x.is_integer()))))",
}

# Keyword -> (the instance type it applies to, what is measured, the comparison).
_BOUNDS = {
    "minimum": ("number", "x", ">="), "maximum": ("number", "x", "<="),
    "exclusiveMinimum": ("number", "x", ">"), "exclusiveMaximum": ("number", "x", "<"),
    "minLength": ("string", "len(x)", ">="), "maxLength": ("string", "len(x)", "<="),
    "minItems": ("array", "len(x)", ">="), "maxItems": ("array", "len(x)", "<="),
    "minProperties": ("object", "len(x)", ">="), "maxProperties": ("object", "len(x)", "<="),
}


class Unsupported(Exception):
    """A schema uses something this compiler does not implement; jsonschema must decide."""


def compile_schema(documents: Mapping[str, Any], uri: str,
                   to_code: Callable[[str], CodeType] | None = None) -> Check | None:
    """The check for the document at ``uri`` (documents by their ``$id``), or None.

    ``to_code`` turns the written source into a code object (default: ``compile``); a
    caller that checks files on every start passes one that keeps it across runs."""
    try:
        writer = _Writer(documents)
        entry = writer.ref(uri)
    except Unsupported:
        return None
    source = "\n".join(writer.lines)
    code = to_code(source) if to_code else compile(source, "<compiled schema>", "exec")
    namespace: dict[str, Any] = {"Number": numbers.Number, **writer.constants}
    exec(code, namespace)  # code written above from the schemas alone
    return namespace[entry]


def _equals(value: Any, constant: str) -> str:
    """jsonschema's ``equal(x, value)`` for a scalar ``const``/``enum`` value: strings by
    ``==``, ``true``/``false`` only by identity, numbers by ``==`` (1 == 1.0, true != 1)."""
    if isinstance(value, bool):
        return f"x is {value!r}"
    if isinstance(value, str):
        return f"x == {constant}"
    if value is None or (not isinstance(value, bool) and isinstance(value, int | float)):
        return f"(x is {constant} or (not isinstance(x, (bool, str)) and x == {constant}))"
    raise Unsupported(f"const/enum value {value!r}")


class _Writer:
    """Writes one Python function per subschema; ``lines`` is the module's source."""

    def __init__(self, documents: Mapping[str, Any]) -> None:
        self.documents = documents
        self.lines: list[str] = []
        self.constants: dict[str, Any] = {}
        self.refs: dict[str, str] = {}
        self.count = 0

    def new_name(self) -> str:
        self.count += 1
        return f"_s{self.count}"

    def constant(self, value: Any) -> str:
        name = f"_c{len(self.constants)}"
        self.constants[name] = value
        return name

    def ref(self, uri: str) -> str:
        """The function for a ``$ref`` target (written once; recursion needs no more)."""
        if uri not in self.refs:
            document_uri, fragment = urldefrag(uri)
            schema = self.documents.get(document_uri)
            if schema is None:
                raise Unsupported(f"$ref to an unknown document {document_uri}")
            for part in filter(None, fragment.split("/")):
                part = part.replace("~1", "/").replace("~0", "~")
                if not isinstance(schema, dict) or part not in schema:
                    raise Unsupported(f"$ref {uri} points nowhere")
                schema = schema[part]
            self.refs[uri] = name = self.new_name()
            self.function(schema, document_uri, name, root=not fragment)
        return self.refs[uri]

    def function(self, schema: Any, base: str, name: str | None = None,
                 root: bool = False) -> str:
        name = name or self.new_name()
        if schema is True or schema is False:
            self.lines += [f"def {name}(x):", f"    return {schema!r}", ""]
            return name
        if not isinstance(schema, dict) or ("$id" in schema and not root):
            raise Unsupported(f"schema {schema!r:.80}")
        body: list[str] = []
        for key, value in schema.items():
            if key not in _ANNOTATIONS and key not in ("then", "else"):
                body += self.keyword(key, value, schema, base)
        self.lines += [f"def {name}(x):", *("    " + line for line in body),
                       "    return True", ""]
        return name

    def keyword(self, key: str, value: Any, schema: dict[str, Any], base: str) -> list[str]:
        """Lines that ``return False`` when ``x`` breaks one keyword."""
        sub = self.function
        if key == "$ref":
            return [f"if not {self.ref(urljoin(base, value))}(x): return False"]
        if key == "type":
            names = [value] if isinstance(value, str) else list(value)
            if not all(n in _TYPES for n in names):
                raise Unsupported(f"type {value!r}")
            return [f"if not ({' or '.join(_TYPES[n] for n in names)}): return False"]
        if key in ("const", "enum"):
            values = [value] if key == "const" else list(value)
            tests = [_equals(v, self.constant(v)) for v in values] or ["False"]
            return [f"if not ({' or '.join(tests)}): return False"]
        if key == "properties":
            lines = ["if isinstance(x, dict):"]
            for prop, subschema in value.items():
                p = self.constant(prop)
                lines.append(f"    if {p} in x and not {sub(subschema, base)}(x[{p}]): "
                             "return False")
            return lines if len(lines) > 1 else []
        if key == "required":
            tests = " and ".join(f"{self.constant(n)} in x" for n in value) or "True"
            return [f"if isinstance(x, dict) and not ({tests}): return False"]
        if key == "additionalProperties":
            if "patternProperties" in schema:
                raise Unsupported("patternProperties")
            known = self.constant(frozenset(schema.get("properties", ())))
            if value is True:
                return []
            test = "False" if value is False else f"{sub(value, base)}(v)"
            return ["if isinstance(x, dict):", "    for k, v in x.items():",
                    f"        if k not in {known} and not {test}: return False"]
        if key == "items":
            if "prefixItems" in schema or not isinstance(value, dict | bool):
                raise Unsupported("items with prefixItems")
            return ["if isinstance(x, list):", "    for v in x:",
                    f"        if not {sub(value, base)}(v): return False"]
        if key in _BOUNDS:
            kind, measure, op = _BOUNDS[key]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise Unsupported(f"{key} {value!r}")
            return [f"if {_TYPES[kind]} and not ({measure} {op} {value!r}): return False"]
        if key == "pattern":  # jsonschema: re.search with Python's re, on strings only
            regex = self.constant(re.compile(value))
            return [f"if isinstance(x, str) and not {regex}.search(x): return False"]
        if key in ("allOf", "anyOf", "oneOf"):
            calls = [f"{sub(s, base)}(x)" for s in value]
            if key == "allOf":
                return [f"if not {call}: return False" for call in calls]
            if key == "anyOf":
                return [f"if not ({' or '.join(calls) or 'False'}): return False"]
            return [f"if ({' + '.join(calls) or '0'}) != 1: return False"]
        if key == "if":
            test = sub(value, base)
            then = sub(schema.get("then", True), base)
            otherwise = sub(schema.get("else", True), base)
            return [f"if not ({then}(x) if {test}(x) else {otherwise}(x)): return False"]
        raise Unsupported(f"keyword {key!r}")
