"""The JSON report: the typed report (or matrix) as data, for tools and CI (``--json PATH``)."""

from __future__ import annotations

import json

from oracle.report.formats import Format
from oracle.report.matrix import Matrix
from oracle.report.model import Report


def render(report: Report) -> str:
    text = json.dumps(report.to_json(), indent=2) + "\n"
    if report.interrupted:  # say so on the first line, as every format does
        text = text.replace('{\n  "interrupted": true,', '{"interrupted": true,', 1)
    return text


def render_matrix(matrix: Matrix) -> str:
    return json.dumps(matrix.to_json(), indent=2) + "\n"


FORMAT = Format("json", "write the per-rule report as JSON", render, matrix=render_matrix)
