"""How two wordings of one sentence differ: by kind (markup, spacing, quotes, dashes, words)
and word by word.

Why its own module: the importers compare renderings through a normalisation that forgives
markup, spacing and entities (so that a transcription error stops the build, not a space),
and the citation checks compare quotes with typographic marks made plain. Both hide exactly
what a reader of two editions wants to see. Here nothing is forgiven: a sentence's wordings
are split into tokens (markup tags, words, punctuation marks, runs of spaces), the differing
runs are found, and each is named by the smallest change that explains it. ``drift``
(editions side by side) and ``errata`` (a source's new version) both say what differs with
these, so they cannot disagree on it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence

__all__ = ["KINDS", "differences", "pairs", "similar", "tokens", "word_diff"]

#: The kinds of difference, from the most harmless to the one that may change the meaning;
#: a differing run is named by the first whose normalisation makes both sides equal.
KINDS = ("markup", "spacing", "quotes", "apostrophes", "dashes", "case", "words")

_TOKEN = re.compile(r"<[^>]*>|\w+|\s+|[^\w\s]", re.UNICODE)
_TAG = re.compile(r"<[^>]*>")
_DOUBLE = str.maketrans({c: '"' for c in "\u201c\u201d\u201e\u201f\u00ab\u00bb\u2033"})
_SINGLE = str.maketrans({c: "'" for c in "\u2018\u2019\u201a\u201b\u2032`\u00b4"})
_DASH = str.maketrans({c: "-" for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"})


def tokens(text: str) -> list[str]:
    """A text as the units a difference is counted in: tags, words, marks, spaces."""
    return _TOKEN.findall(text)


def _spaces(text: str) -> str:
    return "".join(text.split())


#: Each kind's normalisation, cumulative: a run differs by ``quotes`` if it is equal once
#: markup, spaces and double quotes are made plain, and not before.
_NORMAL: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("markup", lambda t: _TAG.sub("", t)),
    ("spacing", _spaces),
    ("quotes", lambda t: t.translate(_DOUBLE)),
    ("apostrophes", lambda t: t.translate(_SINGLE)),
    ("dashes", lambda t: t.translate(_DASH)),
    ("case", str.casefold),
)


def _kind(old: str, new: str) -> str:
    for n in range(len(_NORMAL)):
        a, b = old, new
        for _, normal in _NORMAL[:n + 1]:
            a, b = normal(a), normal(b)
        if a == b:
            return _NORMAL[n][0]
    return "words"


def _runs(old: str, new: str) -> list[tuple[str, str, str]]:
    """The differing runs of two wordings as ``(tag, old, new)`` with difflib's tags."""
    a, b = tokens(old), tokens(new)
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        out.append((tag, "".join(a[i1:i2]), "".join(b[j1:j2])))
    return out


def differences(old: str, new: str) -> tuple[str, ...]:
    """The kinds of difference between two wordings (in ``KINDS`` order), none if equal.

    >>> differences("a maximum of seven action cards.", "a maximum of seven action cards .")
    ('spacing',)
    >>> differences("the word “Action”", 'the word "Action"')
    ('quotes',)
    """
    found = {_kind(o, n) for tag, o, n in _runs(old, new) if tag != "equal"}
    return tuple(k for k in KINDS if k in found)


def word_diff(old: str, new: str) -> str:
    """The new wording with what changed marked as ``git diff --word-diff`` does:
    ``[-removed-]{+added+}``."""
    out = []
    for tag, o, n in _runs(old, new):
        if tag == "equal":
            out.append(o)
            continue
        if o:
            out.append(f"[-{o}-]")
        if n:
            out.append(f"{{+{n}+}}")
    return "".join(out)


def similar(old: str, new: str) -> float:
    """How alike two wordings are, 0 to 1, word by word (to pair a reworded sentence with
    the one it replaces)."""
    return difflib.SequenceMatcher(None, tokens(old), tokens(new), autojunk=False).ratio()


def pairs(old: Sequence[str], new: Sequence[str]) -> list[tuple[int, int]]:
    """Which of ``old`` became which of ``new`` (by index), for sentences reworded in place:
    runs replaced one for one in text order, where the two are alike (more than half of
    their words, marks and spaces in common, in order)."""
    found = []
    matcher = difflib.SequenceMatcher(None, list(old), list(new), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace":
            continue
        for k in range(min(i2 - i1, j2 - j1)):
            if similar(old[i1 + k], new[j1 + k]) > 0.6:
                found.append((i1 + k, j1 + k))
    return found
