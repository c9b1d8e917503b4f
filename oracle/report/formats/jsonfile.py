"""The JSON report: the typed report (or matrix) as data, for tools and CI (``--json PATH``)."""

from __future__ import annotations

import json
from typing import Any

from oracle.report.formats import Format
from oracle.report.matrix import Matrix
from oracle.report.model import Report

try:
    import orjson
except ImportError:  # pragma: no cover - a dependency; kept working without it
    orjson = None  # type: ignore[assignment]


def _dumps(value: Any) -> str:
    """``value`` indented by two spaces, one key or item a line, UTF-8 as it is.

    Why orjson: with an indent, the standard library encodes in Python, not C: a
    5,000-scenario report (20 MB) took 1.2 s to write, at the end of every run and every
    ``combine``; orjson writes the same JSON in a few hundredths of that."""
    if orjson is not None:
        try:
            return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"
        except TypeError:
            pass  # json writes what it can, and raises its own TypeError for the rest
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def render(report: Report) -> str:
    text = _dumps(report.to_json())
    if report.interrupted:  # say so on the first line, as every format does
        text = text.replace('{\n  "interrupted": true,', '{"interrupted": true,', 1)
    return text


def render_matrix(matrix: Matrix) -> str:
    return _dumps(matrix.to_json())


FORMAT = Format("json", "write the per-rule report as JSON", render, matrix=render_matrix)
