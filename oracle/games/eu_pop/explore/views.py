"""Reading an EU view and the lines played so far: whose hand, which pile, whose Turn.

Why apart: every invariant reads the same fields of the protocol view, and several must know
what the last accepted move was, or whether a Turn's Action was already taken.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from oracle.explore import REJECTED_LINE, Explored
from oracle.games.eu_pop.explore.tables import (
    ACTIONS,
    ANSWER_LINE,
    END_LINE,
    FACTS,
    FREE,
    PLAY_LINE,
    START_LINE,
    STEP_C,
    USE_LINE,
)
from oracle.games.kit.explore import hand_cards

View = Mapping[str, Any]


def _player(view: View, name: str) -> Mapping[str, Any]:
    return view["players"][name]


def _hand(view: View, name: str) -> list[str]:
    return hand_cards(view, name)


def _count(view: View, name: str) -> int:
    return int(_player(view, name)["hand"]["count"])


def _discard(view: View, deck: str) -> list[str]:
    pile = view["decks"][deck]["discard"]
    return list(pile if isinstance(pile, list) else pile.get("cards") or [])


def _draw_count(view: View, deck: str) -> int:
    pile = view["decks"][deck]["draw"]
    return len(pile) if isinstance(pile, list) else int(pile["count"])


def _draw_cards(view: View, deck: str) -> list[str] | None:
    pile = view["decks"][deck]["draw"]
    return list(pile) if isinstance(pile, list) else pile.get("cards")


def _display(view: View, name: str) -> list[Mapping[str, Any]]:
    return list(_player(view, name).get("display") or [])


def _display_names(view: View, name: str) -> list[str]:
    return [str(d.get("card")) for d in _display(view, name)]


def _power(view: View, name: str) -> dict[str, int]:
    return {k: int(v) for k, v in (_player(view, name).get("power") or {}).items()}


def _reduction(view: View, name: str, kind: str) -> int:
    return int((_player(view, name).get("cost_reductions") or {}).get(kind, 0))


def _pending(view: View, decision: str | None = None) -> dict[str, int]:
    return {p["player"]: int(p["count"]) for p in view.get("pending") or []
            if decision is None or p["decision"] == decision}


def _last(explored: Explored) -> str:
    """The last move's When line, or '' (after the setup, or when it was rejected)."""
    if not explored.lines or explored.last_rejected or explored.before is None:
        return ""
    return explored.lines[-1]


def _since_step_c(lines: Sequence[str]) -> bool:
    """Whether the last accepted move other than answering decisions was Phase 5, Step C."""
    i = len(lines) - 1
    while i >= 0:
        rejected = lines[i] == REJECTED_LINE
        if rejected:
            i -= 1
        line = lines[i] if i >= 0 else ""
        if not rejected:
            if line == f"When {STEP_C}":
                return True
            if not ANSWER_LINE.fullmatch(line):
                return False
        i -= 1
    return False


def _turn_taken(lines: Sequence[str], active: str, by: set[bool] | None = None) -> bool:
    """Whether ``active`` has taken their Turn's Action since the Turn began (as far as the
    lines tell: the Turn of the setup starts fresh); ``by`` limits the count to plays
    (False) or to Actions on Display Cards (True)."""
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if line == REJECTED_LINE or lines[i + 1: i + 2] == [REJECTED_LINE]:
            continue
        if END_LINE.fullmatch(line):
            return False
        found = _turn_line(line)
        if found and found[0] == active and (by is None or found[1] in by):
            return True
    return False


def _interest(card: str) -> int:
    """Display Cards, then Covert Actions, then the rest: the plays most rules are about."""
    kinds = FACTS[card].kinds
    return 0 if "display" in kinds else 1 if "covert" in kinds else 2


def _turn_line(line: str) -> tuple[str, bool] | None:
    """(player, whether it is an Action on a Display Card) of a play or use that takes the
    Turn."""
    m = PLAY_LINE.fullmatch(line) or START_LINE.fullmatch(line)
    if m and m.group(2) in FACTS and not FACTS[m.group(2)].kinds & FREE:
        return m.group(1), False
    m = USE_LINE.fullmatch(line)
    if m and m.group(2) in ACTIONS and not ACTIONS[m.group(2)][1].kinds & FREE:
        return m.group(1), True
    return None


def _ducats(view: View, player: str) -> int:
    return int(_player(view, player)["ducats"])
