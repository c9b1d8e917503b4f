"""Reading the fields of a request: shape errors become ``errored`` naming the field.

Why shared: a malformed request is a broken scenario, never a rule, and every game must say so
in the same words, so that a report reads alike whichever engine wrote it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from oracle.games.kit.errors import JSON, RequestError


def need(obj: JSON, key: str, kind: type | tuple[type, ...], where: str) -> Any:
    """``obj[key]`` of type ``kind``, or a RequestError naming the field."""
    if key not in obj:
        raise RequestError(f"{where} needs '{key}'")
    value = obj[key]
    if not isinstance(value, kind):
        raise RequestError(f"{where}: '{key}' has the wrong type: {value!r}")
    return value


def str_list(value: Any, where: str) -> list[str]:
    """``value`` as a list of strings, or a RequestError naming ``where``."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise RequestError(f"{where} must be a list of strings, got {value!r}")
    return list(value)


def count(value: Any, where: str) -> int:
    """``value`` as a non-negative integer (a bool is not one), or a RequestError."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RequestError(f"{where} must be a non-negative integer, got {value!r}")
    return value


def contains(hand: Iterable[str], cards: Iterable[str]) -> bool:
    """Is ``cards`` a sub-multiset of ``hand``? (Counted in a plain dict: asked on most
    moves, where three ``Counter`` operations cost more than the rule they check.)"""
    have: dict[str, int] = {}
    for card in hand:
        have[card] = have.get(card, 0) + 1
    for card in cards:
        left = have.get(card, 0)
        if left <= 0:
            return False
        have[card] = left - 1
    return True


def not_kept(hand: Iterable[str], keep: Iterable[str]) -> list[str]:
    """The cards of ``hand`` left over once ``keep`` is set aside (as a multiset), hand order.

    Why shared: a player answering "keep N cards" names what stays; both games then discard
    the rest, and must agree on which copy of a duplicated name goes.
    """
    rest = Counter(keep)
    gone: list[str] = []
    for card in hand:
        if rest[card] > 0:
            rest[card] -= 1
        else:
            gone.append(card)
    return gone
