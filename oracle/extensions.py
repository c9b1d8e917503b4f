"""Outside extensions: report formats and engine kinds other packages install.

A package adds a format or a kind of ``--engine`` spec without a line changed here, by
declaring an entry point (read with ``importlib.metadata``)::

    [project.entry-points."rules_oracle.formats"]
    sarif = "my_package.sarif:FORMAT"          # an oracle.report.formats.Format

    [project.entry-points."rules_oracle.engine_kinds"]
    docker = "my_package.docker:DockerKind"    # an oracle.engines.EngineKind subclass

The bundled formats and kinds are the oracle's own modules; these come after them. The
installed distributions are read once per process, for both groups, and only when a format
or a kind is first needed. An entry point that cannot be loaded, or that gives the wrong
kind of object, stops the run with an error naming its package (an extension silently
missing would change what a run writes or which engines it can name).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib import metadata
from typing import Any

FORMATS = "rules_oracle.formats"
ENGINE_KINDS = "rules_oracle.engine_kinds"


class ExtensionError(RuntimeError):
    """An installed extension that cannot be used; the message names it and what to do."""


@functools.cache
def _declared() -> dict[str, tuple[metadata.EntryPoint, ...]]:
    """Every entry point of the oracle's groups, from one read of the installed packages."""
    found = metadata.entry_points()
    return {group: tuple(sorted(found.select(group=group), key=lambda e: e.name))
            for group in (FORMATS, ENGINE_KINDS)}


def load(group: str, fits: Callable[[Any], bool], what: str) -> list[tuple[str, Any]]:
    """``(entry point name, loaded object)`` for each entry point of ``group``, in name
    order; ``ExtensionError`` for one that fails to load or does not fit (``what`` says
    what it should be)."""
    out = []
    for entry in _declared()[group]:
        where = f"the entry point {entry.name} = {entry.value!r} ({group}" + (
            f", package {entry.dist.name})" if entry.dist is not None else ")")
        try:
            obj = entry.load()
        except Exception as exc:
            raise ExtensionError(f"{where} cannot be loaded: {type(exc).__name__}: {exc}; "
                                 "fix or uninstall that package") from exc
        if not fits(obj):
            raise ExtensionError(f"{where} is {obj!r:.80}, not {what}; fix that package")
        out.append((entry.name, obj))
    return out
