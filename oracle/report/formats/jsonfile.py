"""The JSON report: the typed report (or matrix, or sentence coverage) as data, for tools and
CI (``--json PATH``).

A run writes the report piece by piece (``chunks``: the report without its rules, then each
rule as it is rendered, indented into its place), the same bytes as ``render``. Why: a run
of 10,000 tests writes 20 MB of JSON; rendered whole, at the end of the run, the report's
data, its bytes and its text were held at once beside everything the run keeps (about 80 MB).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

from oracle.engines.wire import document_bytes, dumps_document
from oracle.report.coverage import Coverage
from oracle.report.formats import Format
from oracle.report.matrix import Matrix
from oracle.report.model import Report

_RULES = b'\n  "rules": [],\n'
"""The report's rules in its text with none: where each rule's text goes."""


def render(report: Report) -> str:
    return b"".join(chunks(report)).decode("utf-8")


def chunks(report: Report) -> Iterator[bytes]:
    """The JSON report's bytes, a rule at a time."""
    head = document_bytes(dataclasses.replace(report, rules=()).to_json())
    if report.interrupted:  # say so on the first line, as every format does
        head = head.replace(b'{\n  "interrupted": true,', b'{"interrupted": true,', 1)
    before, found, after = head.partition(_RULES)
    if not report.rules or not found:
        yield head
        return
    yield before + b'\n  "rules": ['
    for i, rule in enumerate(report.rules):
        lines = document_bytes(rule.to_json()).rstrip(b"\n").split(b"\n")
        yield (b",\n" if i else b"\n") + b"\n".join(b"    " + line for line in lines)
    yield b"\n  ],\n" + after


def render_matrix(matrix: Matrix) -> str:
    return dumps_document(matrix.to_json())


def render_coverage(coverage: Coverage) -> str:
    return dumps_document(coverage.to_json())


FORMAT = Format("json", "write the per-rule report as JSON", render, matrix=render_matrix,
                coverage=render_coverage, chunks=chunks)
