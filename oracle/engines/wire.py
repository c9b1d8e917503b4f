"""JSON on the pipe (and in report files): orjson where it can, the standard library where
it cannot.

Why orjson: over the pipe most of a round trip's Python time was JSON, not the engine.
Measured on a typical 684-byte view: ``json`` writes it in 22 us and reads it in 18 us,
orjson in 2.4 and 4.7, while the engine builds it in 9. Both sides of the pipe (the
oracle's client and ``python -m oracle.pipe serve``) go through here.

Why the fallback: what the pipe accepts and writes stays the standard library's. A line
orjson refuses (``NaN``, an integer over 64 bits) is read by ``json``, so no engine is newly
refused, and its error is ``json``'s; a value orjson will not write by itself (a non-string
key, a dataclass, a subclass) is written by ``json``, or refused with ``json``'s TypeError,
as before.
"""

from __future__ import annotations

import json
from typing import Any

try:
    import orjson
except ImportError:  # pragma: no cover - a dependency; kept working without it
    orjson = None  # type: ignore[assignment]

_STD = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_OPTIONS = 0 if orjson is None else (orjson.OPT_PASSTHROUGH_DATACLASS
                                     | orjson.OPT_PASSTHROUGH_DATETIME
                                     | orjson.OPT_PASSTHROUGH_SUBCLASS
                                     | orjson.OPT_APPEND_NEWLINE)


def dumps_line(value: Any) -> bytes:
    """``value`` as one line on the pipe: compact UTF-8 JSON and its newline (orjson
    appends it as it writes, so the line is not copied to add it)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=_OPTIONS)
        except TypeError:
            pass  # json writes what it can, and raises its own TypeError for the rest
    return _STD.encode(value).encode("utf-8") + b"\n"


def dumps_document(value: Any) -> str:
    """``value`` as a JSON file: indented by two spaces, one key or item a line, UTF-8 as
    it is, and a final newline (``document_bytes``, as text)."""
    return document_bytes(value).decode("utf-8")


def document_bytes(value: Any) -> bytes:
    """``dumps_document``'s text as the UTF-8 bytes a file holds.

    Why orjson here too: with an indent, the standard library encodes in Python, not C: a
    5,000-scenario report (20 MB) took 1.2 s to write, at the end of every run and every
    ``combine``; orjson writes the same JSON in a few hundredths of that, with its final
    newline (so the text is not copied to add it)."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
        except TypeError:
            pass  # json writes what it can, and raises its own TypeError for the rest
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def fast_loads(data: bytes | str) -> Any:
    """The JSON value of one line, read by orjson only; ``ValueError`` when orjson cannot
    (or is missing): then the caller reads it the slow way, with its own messages."""
    if orjson is None:
        raise ValueError("orjson is not installed")
    return orjson.loads(data)


def loads(data: bytes | str) -> Any:
    """The JSON value of one line; ``ValueError`` (``json``'s) if it is not JSON."""
    try:
        return fast_loads(data)
    except ValueError:  # json accepts a little more, and its error says where it stopped
        return json.loads(data)
