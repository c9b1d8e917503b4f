"""Deliberately broken TI4 engines: small declared variations of the reference engine.

A conformance suite is only worth trusting if it fails on engines that break
the rules. Each mutant here is a name, the rule ids it breaks, the change in
words, and the few reference-engine methods it overrides: the kind of slip a
real engine makes. The oracle's tests run the suite against each one and
check that the report flags exactly the declared ids.

Use one as an engine: ``--engine oracle.games.ti4.mutants:MUTANTS.no_hand_limit``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from oracle.games.ti4.engine import ReferenceEngine


@dataclass(frozen=True)
class Mutant:
    """A reference engine with a few methods replaced, breaking the rules in ``breaks``."""

    name: str
    breaks: tuple[str, ...]
    change: str
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def engine_class(self) -> type[ReferenceEngine]:
        return type(f"Mutant_{self.name}", (ReferenceEngine,), dict(self.overrides))

    def __call__(self) -> ReferenceEngine:
        return self.engine_class()()


def _never(*_args: Any, **_kwargs: Any) -> bool:
    return False


def _nothing(*_args: Any, **_kwargs: Any) -> None:
    return None


def _whole_hand(self: ReferenceEngine, viewer: str | None, owner: Any) -> list[str]:
    return list(owner.hand)


ALL: tuple[Mutant, ...] = (
    Mutant(
        "no_hand_limit", ("ti4:2.4", "ti4:2.4.1", "ti4:note-10"),
        "never asks a player to discard down to the hand limit",
        {"over_hand_limit": _never},
    ),
    Mutant(
        "hand_limit_off_by_one", ("ti4:2.4", "ti4:2.4.1", "ti4:note-10"),
        "the hand limit is six, not seven",
        {"BASE_HAND_LIMIT": 6},
    ),
    Mutant(
        "no_reshuffle", ("ti4:note-4",),
        "a depleted deck is never rebuilt from the discard pile",
        {"reshuffle_if_depleted": _nothing},
    ),
    Mutant(
        "lazy_reshuffle", ("ti4:note-4",),
        "a depleted deck is rebuilt only at the next draw, not at once",
        {"after_deck_change": _nothing},
    ),
    Mutant(
        "hand_shown_to_all", ("ti4:2.5", "ti4:note-3"),
        "every viewer sees every card in every hand",
        {"visible_hand": _whole_hand},
    ),
)

MUTANTS = SimpleNamespace(**{m.name: m for m in ALL})
"""Each mutant by name, for ``--engine oracle.games.ti4.mutants:MUTANTS.NAME``."""


def by_name(name: str) -> Callable[[], ReferenceEngine]:
    return getattr(MUTANTS, name)
