"""The TI4 rules split into sentences, in every rendering, and the Russian aligned to them.

Why apart: the catalog's sentences come from the canonical YAML, but a sentence is only an
anchor worth citing if every rendering splits the same way (the cross-check) and the
translation's sentences are known to say the same thing (the reviewed alignment, checked by
markers like the comment alignment). The editorial clauses and waivers are in ``editorial``.
"""

from __future__ import annotations

from collections.abc import Sequence

from oracle.games.kit.sentences import Clause, apply_clauses, split_located
from oracle.games.kit.sources import CatalogError
from oracle.games.ti4.importer.common import CANONICAL, MODULE, RUSSIAN, Item

Located = list[tuple[int | None, str]]


def split_item(item: Item, clauses: Sequence[Clause], *, path: str = CANONICAL,
               lang: str | None = None, text: str | None = None) -> Located:
    """An item's sentences with their lines, split at the editorial clauses (in ``lang``).

    ``text`` replaces the item's own text (a rendering compared as normalised).
    """
    pieces = item.pieces if text is None and item.pieces else ((item.line, text or item.text),)
    located = split_located(pieces)
    if text is None and " ".join(t for _, t in located) != item.text:
        located = split_located(((item.line, item.text),))  # a scalar with escapes: one line
    return apply_clauses(item.id, located, clauses, path=path, lang=lang)


def align_russian(item_id: str, english: Sequence[str], russian: Located, line: int | None,
                  checks: dict[str, tuple[tuple[str, str | None], ...]]) -> list[str | None]:
    """The Russian sentence of each English sentence (None where the Russian lacks it).

    A one-sentence rule aligns with a one-sentence translation; any other rule needs its
    reviewed marker pairs, each marker in its own sentence and in no other of the rule.
    """
    texts = [t for _, t in russian]
    pairs = checks.get(item_id)
    if pairs is None:
        if len(english) == 1 == len(texts):
            return texts
        raise CatalogError(
            f"{len(english)} English sentence(s) but {len(texts)} Russian: review the "
            f"alignment and add it to RU_SENTENCE_CHECKS in {MODULE}.\n"
            f"  English: {english}\n  Russian: {texts}",
            path=RUSSIAN, line=line, item_id=item_id)
    present = [ru for _, ru in pairs if ru is not None]
    if len(pairs) != len(english) or len(present) != len(texts):
        raise CatalogError(
            f"RU_SENTENCE_CHECKS gives {len(pairs)} English and {len(present)} Russian "
            f"sentence(s); the texts have {len(english)} and {len(texts)}: review it.\n"
            f"  English: {english}\n  Russian: {texts}",
            path=RUSSIAN, line=line, item_id=item_id)
    aligned: list[str | None] = []
    remaining = iter(texts)
    for n, (en_marker, ru_marker) in enumerate(pairs):
        en_hits = [i for i, s in enumerate(english) if en_marker.casefold() in s.casefold()]
        ru_text = next(remaining) if ru_marker is not None else None
        ru_hits = [s for s in texts if ru_marker and ru_marker.casefold() in s.casefold()]
        if en_hits != [n] or (ru_marker is not None and ru_hits != [ru_text]):
            raise CatalogError(
                f"sentence alignment check failed for sentence {n + 1}: {en_marker!r} is in "
                f"English sentence(s) {[i + 1 for i in en_hits] or 'none'}, {ru_marker!r} in "
                f"{len(ru_hits)} Russian sentence(s); each must be in exactly the aligned "
                f"pair.\n  English: {english[n]}\n  Russian: {ru_text}\n  review "
                f"RU_SENTENCE_CHECKS in {MODULE}",
                path=RUSSIAN, line=line, item_id=item_id)
        aligned.append(ru_text)
    return aligned
