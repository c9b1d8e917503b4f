"""The Python side of ``host.js``: copies of the engine in one process, and which scenarios
reach a slip.

A broken copy of the engine differs from it only in the text its slip replaces; a scenario
that never runs that text on the engine runs the same on the copy (the engine is
deterministic, and every scenario starts with a ``setup`` that builds a new game), so it
keeps the engine's outcome. ``host.js`` runs the adapters with V8's block coverage and
answers ``{"op": "coverage"}`` with the ranges run since it was last asked; ``reaches`` reads
them. Text run while a module loads (a constant, a top-level function) counts for every
scenario.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from oracle.engines.pipe import PipeEngine

Ranges = Sequence[Sequence[int]]  # [start, end, count]: V8's block coverage

HOST_JS = Path(__file__).resolve().parent / "host.js"


class Host(PipeEngine):
    """``node host.js NAME=ADAPTER ...``, an engine over the pipe with two requests of its
    own: which copy answers, and the code run since the last time it was asked."""

    def __init__(self, node: str, adapters: Mapping[str, Path]) -> None:
        super().__init__([node, str(HOST_JS), *(f"{n}={p}" for n, p in adapters.items())],
                         label="clean-room EU engine copies (host.js)")

    def use(self, name: str) -> None:
        reply = self.handle({"op": "use", "adapter": name})
        if reply.get("reply") != "used":
            raise AssertionError(f"host.js could not switch to {name}: {reply}")

    def coverage(self, files: Sequence[Path]) -> dict[Path, list[list[int]]]:
        """Per file, the ranges run since the last call."""
        reply = self.handle({"op": "coverage", "files": [str(f) for f in files]})
        if reply.get("reply") != "coverage":
            raise AssertionError(f"host.js did not answer the coverage request: {reply}")
        return {f: reply["scripts"][str(f)] for f in files}


def _innermost(ranges: Ranges, offset: int) -> Sequence[int] | None:
    found = None
    for r in ranges:
        if r[0] <= offset < r[1] and (found is None or r[1] - r[0] < found[1] - found[0]):
            found = r
    return found


def reaches(ranges: Ranges, start: int, end: int) -> bool:
    """Whether any of the text ``[start, end)`` ran: V8 nests block ranges, and a place ran
    when the innermost range around it has a count above 0 (a function never called is not
    listed, so its text falls to the script's own range, which counts 0 after loading)."""
    places = {start} | {o for r in ranges for o in r[:2] if start < o < end}
    return any((r := _innermost(ranges, o)) is not None and r[2] > 0 for o in places)


def at_top_level(loading: Ranges, start: int) -> bool:
    """Whether text at ``start`` is the script's own code (run once, while it loads), not a
    function's: then every scenario counts as reaching it."""
    inner = _innermost(loading, start)
    return inner is None or inner[0] == 0


def utf16_span(source: str, text: str) -> tuple[int, int]:
    """Where ``text`` is in ``source``, in UTF-16 units (V8's offsets)."""
    start = len(source[:source.index(text)].encode("utf-16-le")) // 2
    return start, start + len(text.encode("utf-16-le")) // 2
