"""A bounded shrink of our own: a found game made minimal by deleting and simplifying its
steps and replaying it, within a budget.

Why not Hypothesis's shrinker: it has no public budget (a finding cost 2-7 s of shrinking on
a slow engine, most of an exploration run that finds something), and it shrinks the bytes
the search drew, not the game: deleting a move changes which moves the later bytes pick.
Here the search finds a game without shrinking (its phases leave ``Phase.shrink`` out), and
the game is shrunk as what it is, step texts: a setup's Given lines and the moves' When
lines, replayed as they are. Each attempt replays the game from its setup; the budget is a
number of replays (deterministic: the same finding shrinks to the same scenario on every
machine), and optionally seconds of wall time (the best game so far is kept when either
runs out, and the result says so).

The passes, repeated until none makes progress: delete runs of moves (halves, then
quarters, ..., then single moves: delta debugging), delete Given lines, and drop cards from
the card lists of Given lines. A candidate is kept when the replay shows the same slip (the
caller's ``attempt`` says so); the game is then cut just after the move that showed it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from oracle.suite.dsl import describe_cards

Attempt = Callable[[list[str], list[str]], "list[str] | None"]
"""``attempt(given, moves)``: replay a game; the moves it played up to and including the one
after which the same slip showed (none: at the setup), or None if it did not show."""


@dataclass(frozen=True)
class ShrinkBudget:
    """How much a shrink may cost: replays of the game (deterministic), and optionally wall
    seconds (the first to run out ends the shrink, with the best game so far)."""

    replays: int = 300
    seconds: float | None = None

    @property
    def off(self) -> bool:
        return self.replays <= 0


DEFAULT_SHRINK = ShrinkBudget()


@dataclass(frozen=True)
class Shrunk:
    """A shrunk game and what it cost."""

    given: list[str]
    moves: list[str]
    replays: int
    seconds: float
    #: The budget ran out before every pass had been tried without progress: the game is
    #: the best so far, not necessarily as small as the passes could make it.
    exhausted: bool
    #: The first replay, of the game as found, showed the slip (False: the game does not
    #: reproduce it, and is returned as found).
    reproduced: bool = True


#: A list of quoted card names in a Given line: '"A"', '"A" and "B"', '"A", "B" and "C"'.
_CARDS = re.compile(r'"[^"]+"(?:(?:, | and )"[^"]+")*')
_NAME = re.compile(r'"([^"]+)"')


class _OutOfBudget(Exception):
    pass


class _Shrinker:
    def __init__(self, attempt: Attempt, budget: ShrinkBudget) -> None:
        self.attempt, self.budget = attempt, budget
        self.replays = 0
        self.start = time.perf_counter()
        self.deadline = None if budget.seconds is None else self.start + budget.seconds

    def tries(self, given: list[str], moves: list[str]) -> list[str] | None:
        if self.replays >= self.budget.replays or (
                self.deadline is not None and time.perf_counter() >= self.deadline):
            raise _OutOfBudget
        self.replays += 1
        return self.attempt(given, moves)


def shrink(given: Sequence[str], moves: Sequence[str], attempt: Attempt,
           budget: ShrinkBudget = DEFAULT_SHRINK) -> Shrunk:
    """The smallest game the passes reach within the budget that still shows the slip."""
    s = _Shrinker(attempt, budget)
    best_given, best_moves = list(given), list(moves)
    exhausted = False
    try:
        shown = s.tries(best_given, best_moves)
        if shown is None:
            return Shrunk(best_given, best_moves, s.replays, time.perf_counter() - s.start,
                          False, reproduced=False)
        best_moves = shown
        progress = True
        while progress:
            progress = False
            for shrink_pass in (_delete_moves, _delete_given, _drop_cards):
                found = shrink_pass(s, best_given, best_moves)
                if found is not None:
                    best_given, best_moves = found
                    progress = True
    except _OutOfBudget:
        exhausted = True
    return Shrunk(best_given, best_moves, s.replays, time.perf_counter() - s.start, exhausted)


def _better(s: _Shrinker, given: list[str], moves: list[str]) -> tuple[list[str], list[str]] | None:
    shown = s.tries(given, moves)
    return None if shown is None else (given, shown)


def _delete_moves(s: _Shrinker, given: list[str], moves: list[str]
                  ) -> tuple[list[str], list[str]] | None:
    """Delete runs of moves, the longest first (delta debugging); the last move, the one
    that shows the slip, is tried like the others (an earlier state may show it too)."""
    changed = False
    size = max(len(moves) // 2, 1)
    while moves and size >= 1:
        i = 0
        while i < len(moves):
            found = _better(s, given, moves[:i] + moves[i + size:])
            if found is not None:
                moves, changed = found[1], True
            else:
                i += size
        size //= 2
    return (given, moves) if changed else None


def _delete_given(s: _Shrinker, given: list[str], moves: list[str]
                  ) -> tuple[list[str], list[str]] | None:
    """Delete Given lines, the last first (the first names the players)."""
    changed = False
    for i in range(len(given) - 1, 0, -1):
        found = _better(s, given[:i] + given[i + 1:], moves)
        if found is not None:
            (given, moves), changed = found, True
    return (given, moves) if changed else None


def _drop_cards(s: _Shrinker, given: list[str], moves: list[str]
                ) -> tuple[list[str], list[str]] | None:
    """Drop one card at a time from each card list of two or more in the Given lines (a
    list of one goes with its line, in ``_delete_given``)."""
    changed = False
    for i in range(len(given)):
        j = 0
        while True:
            line = given[i]
            match = _CARDS.search(line)
            names = _NAME.findall(match.group()) if match else []
            if j >= len(names) or len(names) < 2:
                break
            fewer = describe_cards(names[:j] + names[j + 1:])
            candidate = [*given[:i], line[:match.start()] + fewer + line[match.end():],
                         *given[i + 1:]]
            found = _better(s, candidate, moves)
            if found is not None:
                (given, moves), changed = found, True
            else:
                j += 1
    return (given, moves) if changed else None
