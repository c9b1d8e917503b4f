"""The cross-check of a rendering against the canonical one: same ids, parents and texts.

Why: a transcription error in any rendering, or a changed source, must stop the build instead
of silently changing what the oracle tests; the message says where the renderings part.
"""

from __future__ import annotations

from pathlib import Path

from oracle.games.kit.sources import CatalogError
from oracle.games.ti4.importer.common import (
    CANONICAL,
    HTML_PAGE,
    Item,
    _collapse,
    _first_difference,
    comparable,
)
from oracle.games.ti4.importer.html_page import _html_line


def cross_check(
    canonical: list[Item], rendering: list[Item], path: str, sources_dir: Path
) -> None:
    """Fail unless a rendering gives the canonical ids, parents and texts, in order.

    Items are compared position by position so that a dropped item is reported where it went
    missing (with a hint), not as a mismatch of the last id.
    """
    texts = {item.id: comparable(item.text) for item in canonical}
    for index, want in enumerate(canonical):
        if index >= len(rendering):
            raise CatalogError(
                f"missing: the rendering ends before this item.\n"
                f"  canonical ({CANONICAL}): {want.text}\n  {path}: (absent)",
                path=path, item_id=want.id,
            )
        got = rendering[index]
        if got.id == want.id and got.parent == want.parent and (
            texts[want.id] == comparable(got.text)
        ):
            continue
        page_line = _html_line(sources_dir, got.line) if path == HTML_PAGE else ""
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
                f"  canonical ({CANONICAL}): {want.text}\n  {path}: {_collapse(got.text)}{hint}",
                path=path, line=got.line, item_id=want.id,
            )
    if len(rendering) > len(canonical):
        extra = rendering[len(canonical)]
        raise CatalogError(
            f"extra item not in {CANONICAL}: {_collapse(extra.text)}",
            path=path, line=extra.line, item_id=extra.id,
        )
