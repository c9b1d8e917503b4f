"""Deliberately broken TI4 engines (see ``oracle.mutants``): the slips real engines make.

Use one as an engine: ``--engine oracle.games.ti4.mutants:MUTANTS.no_hand_limit``.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from oracle.games.ti4.engine import ReferenceEngine
from oracle.mutants import Mutant


def mutant(name: str, breaks: tuple[str, ...], change: str, **overrides: Any) -> Mutant:
    return Mutant(name, breaks, change, ReferenceEngine, overrides)


def _never(*_args: Any, **_kwargs: Any) -> bool:
    return False


def _nothing(*_args: Any, **_kwargs: Any) -> None:
    return None


def _whole_hand(self: ReferenceEngine, viewer: str | None, owner: Any) -> list[str]:
    return list(owner.hand)


ALL: tuple[Mutant, ...] = (
    mutant(
        "no_hand_limit", ("ti4:2.4", "ti4:2.4.1", "ti4:note-10"),
        "never asks a player to discard down to the hand limit",
        over_hand_limit=_never,
    ),
    mutant(
        "hand_limit_off_by_one", ("ti4:2.4", "ti4:2.4.1", "ti4:note-10"),
        "the hand limit is six, not seven",
        BASE_HAND_LIMIT=6,
    ),
    mutant(
        "no_reshuffle", ("ti4:note-4",),
        "a depleted deck is never rebuilt from the discard pile",
        reshuffle_if_depleted=_nothing,
    ),
    mutant(
        "lazy_reshuffle", ("ti4:note-4",),
        "a depleted deck is rebuilt only at the next draw, not at once",
        after_deck_change=_nothing,
    ),
    mutant(
        "hand_shown_to_all", ("ti4:2.5", "ti4:note-3"),
        "every viewer sees every card in every hand",
        visible_hand=_whole_hand,
    ),
)

MUTANTS = SimpleNamespace(**{m.name: m for m in ALL})
"""Each mutant by name, for ``--engine oracle.games.ti4.mutants:MUTANTS.NAME``."""
