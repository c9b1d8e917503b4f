"""A refusal one engine makes and the other does not, read for what explains it.

Why apart: differential exploration (``oracle.explore.differential``) charges a refusal of a
move the other engine accepts to the rule the diagnostics, the rejection or the move name.
A refusal for the size of a hand looks, in the views, like a refusal for anything else that
forbids nothing here (the Turn, a Reaction's moment, a Battle Action's step): the game
diagnostics that judge refusals (``rejected=True``) each read "nothing else forbids it" and
charge their own rule. What tells the size apart is the same game with a smaller hand: if the
refusing engine then accepts what it refused, and the other engine still accepts it, the size
of the hand is the reason. A game whose rules let a hand grow past its limit (EU checks it
only in Phase 5, Step C) maps the concept ``OVER_LIMIT`` to the rule saying so; a game that
maps nothing (TI4 makes a player discard at once) is never asked.

The smaller hand is the game's own Given line, ``Alice holds "A", "B" and "C"`` (the shared
step), with the cards no move names taken out: the same moves are then played in the same
order.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oracle.protocol import Rejected
from oracle.scenario.outcomes import ScenarioError
from oracle.suite.dsl import describe_cards, parse_pile

#: The concept a game maps (``concepts:`` in game.yaml) to the rule that lets a hand hold
#: more cards than its limit where a move is refused for it (EU: 6.cards-in-hand.2, "only
#: checked in Phase 5, Step C").
OVER_LIMIT = "refused-over-limit"

_HOLDS = re.compile(r"(?P<player>[\w'-]+) holds (?P<pile>.+)")
_QUOTED = re.compile(r'"([^"]+)"')
_DRAWS = re.compile(r"(?P<player>[\w'-]+) draws (?P<n>\w+) [\w'-]+ cards?")


@dataclass(frozen=True)
class Refused:
    """The first request of a move one engine refused and the other did not: which engine
    refused (0 the first, 1 the second), the request's index in the move, its player, and the
    player's hand size and limit before it (the limit as either engine's view shows it)."""

    side: int
    index: int
    player: str | None
    held: int | None
    limit: int | None


def refused(first: Sequence[tuple[Any, ...]], second: Sequence[tuple[Any, ...]]
            ) -> Refused | None:
    """The request of one move (``ScenarioWorld.history`` entries, each engine's) that one
    engine rejected and the other did not; None when there is none. Its player, their hand
    size and limit are None where the request or the views do not say."""
    for index, (a, b) in enumerate(zip(first, second, strict=False)):
        no_a, no_b = isinstance(a[3], Rejected), isinstance(b[3], Rejected)
        if no_a == no_b:
            continue
        side = 0 if no_a else 1
        entry = (a, b)[side]
        player = entry[2].get("player") if isinstance(entry[2], Mapping) else None
        if not isinstance(player, str):
            return Refused(side, index, None, None, None)
        hand = _player(entry[4], player).get("hand")
        held = hand.get("count") if isinstance(hand, Mapping) else None
        limits = [_player(e[4], player).get("hand_limit") for e in (entry, (a, b)[1 - side])]
        limit = next((x for x in limits if isinstance(x, int)), None)
        return Refused(side, index, player, held if isinstance(held, int) else None, limit)
    return None


def _player(view: Any, name: str) -> Mapping[str, Any]:
    players = view.get("players") if isinstance(view, Mapping) else None
    entry = players.get(name) if isinstance(players, Mapping) else None
    return entry if isinstance(entry, Mapping) else {}


def smaller_hands(given: Sequence[str], moves: Sequence[str], player: str, fewer: int
                  ) -> Iterator[tuple[list[str], list[str]]]:
    """The game (Given lines, moves) with ``player`` holding ``fewer`` cards less by the last
    move, in the ways worth trying, the least changed first: their Given hand with cards
    taken out (from its end: the cards no move names, then the copies of a card beyond those
    the moves name); their draws before the last move left out, the latest first (a draw
    may take fewer cards than it asks for); both. Each is a guess, the replay says whether it
    holds fewer cards."""
    if fewer <= 0:
        return
    trimmed = _given_trimmed(given, moves, player, fewer)
    if trimmed is not None and trimmed[1] == fewer:
        yield trimmed[0], list(moves)
    for drawn in _draws_left_out(moves, player, fewer):
        yield list(given), drawn
    if trimmed is not None and trimmed[1] < fewer:
        for drawn in _draws_left_out(moves, player, fewer - trimmed[1], tries=1):
            yield trimmed[0], drawn


def _given_trimmed(given: Sequence[str], moves: Sequence[str], player: str, fewer: int
                   ) -> tuple[list[str], int] | None:
    """``given`` with up to ``fewer`` cards out of ``player``'s Given hand, and how many."""
    named = Counter(name for move in moves for name in _QUOTED.findall(move))
    for i, line in enumerate(given):
        found = _HOLDS.fullmatch(line)
        if not found or found.group("player") != player:
            continue
        try:
            pile = parse_pile(found.group("pile"))
        except ScenarioError:
            return None
        cards = list(pile.cards)
        if pile.hidden or pile.others or not all(isinstance(c, str) for c in cards):
            return None
        seen: Counter[str] = Counter()
        copies = []  # the copies of a card beyond those the moves name
        for j, card in enumerate(cards):
            seen[card] += 1
            if card in named and seen[card] > named[card]:
                copies.append(j)
        unnamed = [j for j, card in enumerate(cards) if card not in named]
        gone = set((unnamed[::-1] + copies[::-1])[:fewer])
        if not gone:
            return None
        out = list(given)
        kept = [card for j, card in enumerate(cards) if j not in gone]
        out[i] = f"{player} holds {describe_cards(kept)}"
        return out, len(gone)
    return None


def _draws_left_out(moves: Sequence[str], player: str, fewer: int, tries: int = 3
                    ) -> Iterator[list[str]]:
    """``moves`` without ``player``'s latest draws (not the last move) that ask for
    ``fewer`` cards or more in all, then without one more draw (a draw from a short deck
    takes fewer cards than it asks for), up to ``tries`` games."""
    out = list(moves)
    for i in range(len(moves) - 2, -1, -1):
        draw = _DRAWS.fullmatch(moves[i])
        if draw and draw.group("player") == player and draw.group("n").isdigit():
            fewer -= int(draw.group("n"))
            out[i] = ""
            if fewer <= 0:
                yield [m for m in out if m]
                tries -= 1
                if not tries:
                    return
