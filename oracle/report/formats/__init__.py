"""Report formats, as a registry: a new format is one module and one line in ``FORMATS``,
or, from another package, one ``rules_oracle.formats`` entry point (``oracle.extensions``).

Each format has a name; the option table (``oracle.options``) turns every registered format
into ``--NAME PATH`` on ``rules-oracle run`` and ``--oracle-NAME PATH`` in pytest, so neither
the command line nor the plugin changes when a format is added. The terminal table is a
format too, shown in pytest's terminal summary rather than written to a file.

A format may also render an engine matrix (``matrix``): ``rules-oracle matrix`` offers
``--NAME PATH`` for every file format that does, and prints the terminal one; and a
sentence coverage document (``coverage``): ``rules-oracle coverage`` likewise; and rules
across runs (``trend``): ``rules-oracle trend`` likewise.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

from oracle import extensions
from oracle.report.coverage import Coverage
from oracle.report.matrix import Matrix
from oracle.report.model import Report
from oracle.report.trend import Trend


@dataclass(frozen=True)
class Format:
    """A way to write a report: its option name, its help, and the function that renders."""

    name: str  # the option: --NAME / --oracle-NAME
    help: str
    render: Callable[[Report], str]
    to_file: bool = True  # False for the terminal table, which has no option
    matrix: Callable[[Matrix], str] | None = None  # renders an engine matrix, if it can
    coverage: Callable[[Coverage], str] | None = None  # renders sentence coverage, if it can
    trend: Callable[[Trend], str] | None = None  # renders rules across runs, if it can
    #: Renders the report as ``render`` does, as UTF-8 bytes a piece at a time, for a large
    #: report written without its whole text in memory (a run writes it so, if given).
    chunks: Callable[[Report], Iterable[bytes]] | None = None


FORMATS: tuple[str, ...] = (
    "oracle.report.formats.table",
    "oracle.report.formats.jsonfile",
    "oracle.report.formats.markdown",
    "oracle.report.formats.html",
    "oracle.report.formats.junitxml",
    "oracle.report.formats.cucumber",
    "oracle.report.formats.cucumber_messages",
    "oracle.report.formats.badge",
)
"""The modules that define a format (each holds ``FORMAT``), in the order options are listed."""


@cache
def formats() -> dict[str, Format]:
    """Every registered format by name: the bundled ones, then those other packages install
    (``rules_oracle.formats`` entry points, each a ``Format``)."""
    found = {f.name: f for f in (importlib.import_module(m).FORMAT for m in FORMATS)}
    for entry, fmt in extensions.load(extensions.FORMATS, lambda f: isinstance(f, Format),
                                      "an oracle.report.formats.Format"):
        if fmt.name in found:
            raise extensions.ExtensionError(
                f"the entry point {entry} ({extensions.FORMATS}) adds a format named "
                f"{fmt.name!r}, which is taken; give it a name of its own")
        found[fmt.name] = fmt
    return found


def file_formats() -> list[Format]:
    """The formats written to a file given on the command line (``--json PATH``, ...)."""
    return [f for f in formats().values() if f.to_file]


def matrix_formats() -> list[Format]:
    """The file formats that can write an engine matrix (``rules-oracle matrix --NAME``)."""
    return [f for f in file_formats() if f.matrix is not None]


def trend_formats() -> list[Format]:
    """The file formats that can write rules across runs (``rules-oracle trend --NAME``)."""
    return [f for f in file_formats() if f.trend is not None]


def coverage_formats() -> list[Format]:
    """The file formats that can write sentence coverage (``rules-oracle coverage --NAME``)."""
    return [f for f in file_formats() if f.coverage is not None]
