"""The JSON report: the typed report (or matrix, or sentence coverage) as data, for tools and
CI (``--json PATH``)."""

from __future__ import annotations

from oracle.engines.wire import dumps_document
from oracle.report.coverage import Coverage
from oracle.report.formats import Format
from oracle.report.matrix import Matrix
from oracle.report.model import Report


def render(report: Report) -> str:
    text = dumps_document(report.to_json())
    if report.interrupted:  # say so on the first line, as every format does
        text = text.replace('{\n  "interrupted": true,', '{"interrupted": true,', 1)
    return text


def render_matrix(matrix: Matrix) -> str:
    return dumps_document(matrix.to_json())


def render_coverage(coverage: Coverage) -> str:
    return dumps_document(coverage.to_json())


FORMAT = Format("json", "write the per-rule report as JSON", render, matrix=render_matrix,
                coverage=render_coverage)
