"""The cross-check of a rendering against the canonical one: same ids, parents and sentences.

Why: a transcription error in any rendering, or a changed source, must stop the build instead
of silently changing what the oracle tests; the message says where the renderings part. A
sentence is an anchor scenarios cite, so every rendering must split each rule into the same
sentences; where a reviewed table says a rendering words a rule differently, its differing
sentences are kept for the catalog instead of failing. What the comparison forgives (markup,
spaces before punctuation, entities) is no error, but it is what a reader of the rendering
sees: each sentence the rendering writes otherwise, verbatim, is kept too (for drift).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from oracle.games.kit.sentences import Clause
from oracle.games.kit.sources import CatalogError, collapse
from oracle.games.ti4.importer.common import (
    CANONICAL,
    HTML_PAGE,
    MODULE,
    Item,
    _collapse,
    _first_difference,
    comparable,
)
from oracle.games.ti4.importer.editorial import CLAUSES, RENDERING_WORDING
from oracle.games.ti4.importer.html_page import _html_line
from oracle.games.ti4.importer.sentences import split_item


def cross_check(
    canonical: list[Item], rendering: list[Item], path: str, sources_dir: Path,
    clauses: Sequence[Clause] = CLAUSES,
    wording: Mapping[tuple[str, str], str] = RENDERING_WORDING,
    *, lenient: bool = False,
) -> dict[str, dict[int, str]]:
    """Fail unless a rendering gives the canonical ids, parents and sentences, in order.

    Items are compared position by position so that a dropped item is reported where it went
    missing (with a hint), not as a mismatch of the last id. Returns, per item id, the
    sentences (by index) that this rendering writes otherwise than the canonical, verbatim
    (markup and spacing too); a difference in words is allowed only where ``wording`` (the
    reviewed table) lists it, or with ``lenient`` (a new version of this rendering, read by
    ``rules-oracle errata`` to show what changed); any other difference fails.
    """
    texts = {item.id: comparable(item.text) for item in canonical}
    differing: dict[str, dict[int, str]] = {}
    for index, want in enumerate(canonical):
        if index >= len(rendering):
            raise CatalogError(
                f"missing: the rendering ends before this item.\n"
                f"  canonical ({CANONICAL}): {want.text}\n  {path}: (absent)",
                path=path, item_id=want.id,
            )
        got = rendering[index]
        if got.id == want.id and got.parent == want.parent:
            ours = [comparable(t) for _, t in split_item(want, clauses)]
            split = [t for _, t in split_item(got, clauses, path=path, text=comparable(got.text))]
            if len(ours) != len(split):
                raise CatalogError(
                    f"sentences do not line up: {len(ours)} in the canonical rendering, "
                    f"{len(split)} here{_page_line(path, sources_dir, got)}.\n"
                    f"  canonical ({CANONICAL}): " + " | ".join(ours) + f"\n  {path}: "
                    + " | ".join(split),
                    path=path, line=got.line, item_id=want.id,
                )
            changed = {i: t for i, t in enumerate(split) if t != ours[i]}
            if not changed or lenient or (path, want.id) in wording:
                verbatim = _verbatim(want, got, path, clauses, split)
                if verbatim:
                    differing[want.id] = verbatim
                continue
        page_line = _page_line(path, sources_dir, got)
        if got.id != want.id:
            raise CatalogError(
                f"structure differs: this position is {got.id!r} here but {want.id!r} in the "
                f"canonical rendering{page_line}.\n  canonical ({CANONICAL}): {want.text}\n"
                f"  {path}: {got.text.strip()}",
                path=path, line=got.line, item_id=want.id,
            )
        if got.parent != want.parent:
            raise CatalogError(
                f"parent is {got.parent!r} here but {want.parent!r} in {CANONICAL}{page_line}",
                path=path, line=got.line, item_id=want.id,
            )
        mine, theirs = texts[want.id], comparable(got.text)
        if mine != theirs:
            hint = ""
            other = [k for k, v in texts.items() if v == theirs and k != want.id]
            if other:
                hint = (
                    f"\n  hint: this is the canonical text of {other[0]}; an item is probably "
                    "missing or extra before this point"
                )
            raise CatalogError(
                f"text differs from the canonical rendering{page_line}; "
                f"{_first_difference(mine, theirs)}\n"
                f"  canonical ({CANONICAL}): {want.text}\n  {path}: {_collapse(got.text)}{hint}"
                f"\n  (if this rendering is known to word it so, list ({path!r}, "
                f"{want.id!r}) in RENDERING_WORDING in {MODULE}, with why)",
                path=path, line=got.line, item_id=want.id,
            )
    if len(rendering) > len(canonical):
        extra = rendering[len(canonical)]
        raise CatalogError(
            f"extra item not in {CANONICAL}: {_collapse(extra.text)}",
            path=path, line=extra.line, item_id=extra.id,
        )
    return differing


def _verbatim(want: Item, got: Item, path: str, clauses: Sequence[Clause],
              compared: list[str]) -> dict[int, str]:
    """The sentences (by index) a rendering writes otherwise than the canonical, as it
    writes them; where its markup splits otherwise, as compared (words only)."""
    mine = [t for _, t in split_item(want, clauses)]
    try:
        theirs = [t for _, t in split_item(got, clauses, path=path,
                                            text=collapse(got.verbatim or got.text))]
    except CatalogError:
        theirs = compared
    if len(theirs) != len(mine):
        theirs = compared
    return {i: t for i, t in enumerate(theirs) if t != mine[i]}


def _page_line(path: str, sources_dir: Path, item: Item) -> str:
    """The HTML page's own line number of an item, for messages (nothing for other files)."""
    return _html_line(sources_dir, item.line) if path == HTML_PAGE else ""
