"""What the games' exploration models share: answering decisions, conservation, and hands as
each viewer sees them, phrased as steps of the DSL.

Why shared: every bundled game explores hands of cards, pending decisions and hidden
information the same way, and its counterexamples must read alike; what moves a game has and
which invariants hold are each game's model (``oracle.games.GAME.explore``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from hypothesis import strategies as st

from oracle.explore import HELD, REJECTED_LINE, Check, Explored
from oracle.scenario.world import ScenarioWorld
from oracle.suite.dsl import describe_cards


def listed(pool: Sequence[str], max_size: int,
           min_size: int = 0) -> st.SearchStrategy[list[str]]:
    """Lists of ``min_size`` to ``max_size`` names from ``pool``, drawn as one Hypothesis
    choice.

    Why not ``st.lists(st.sampled_from(pool))``: that draws two choices a card, and a setup's
    hands and piles cost Hypothesis as much as several engine moves. Drawn as bytes, each
    card is one byte, spread over the pool in order: Hypothesis shrinks the bytes as it
    shrinks a list (deleting cards, lowering them towards the pool's first name).
    """
    names = tuple(pool)
    if not names:
        return st.just([])
    return st.binary(min_size=min_size, max_size=max_size).map(
        lambda picks: [names[b * len(names) >> 8] for b in picks])


def within_counts(piles: Sequence[Sequence[str]], counts: Mapping[str, int],
                  spares: Sequence[str]) -> list[list[str]]:
    """``piles`` (hands, then draw and discard piles) holding no more copies of a card than
    the deck has: each copy beyond its card's ``count`` becomes the first of ``spares`` (the
    deck's other cards, each listed once per copy) with a copy left, or goes when none has.

    Why: docs/protocol.md ("Copies") lets an engine refuse (``errored``) a state with more
    copies than the card facts give, and a random table drawn from a few cards has many: an
    engine checking the counts had every search end at its first setup, an ``error`` on
    every rule the invariants check. The drawn bytes stay the same, so shrinking is too."""
    left = dict(counts)
    out = []
    for pile in piles:
        kept = []
        for card in pile:
            if left.get(card, 0) <= 0:
                card = next((s for s in spares if left.get(s, 0) > 0), "")
                if not card:
                    continue
            left[card] -= 1
            kept.append(card)
        out.append(kept)
    return out


def hand_cards(view: Mapping[str, Any], name: str) -> list[str]:
    """The cards of ``name``'s hand that ``view`` shows (none, for a hidden hand)."""
    return list(view["players"][name]["hand"].get("cards") or [])


def other_viewers(owner: str, players: Iterable[str]) -> list[str | None]:
    """Everyone but ``owner`` who may look at their hand: the other players, then a spectator
    (``None``)."""
    return [p for p in players if p != owner] + [None]


def answer_moves(view: Mapping[str, Any], keep: Callable[[str, int], list[str]],
                 discard: Callable[[str], list[str]]) -> list[str]:
    """Moves answering each pending decision, in the view's order: ``keep(player, count)`` for
    a keep decision, ``discard(player)`` for any other. Answering is the simplest next move."""
    moves: list[str] = []
    for p in view.get("pending") or []:
        name, count = p["player"], int(p["count"])
        moves += keep(name, count) if p["decision"] == "keep" else discard(name)
    return moves


def accepted_moves(explored: Explored) -> list[str]:
    """The moves played in this game that the engine accepted, in order, as step texts
    (without "When "): a When line not followed by ``REJECTED_LINE``. The caller must not
    change the list.

    Why kept in ``explored.memo``: a model's ``moves`` and several invariants ask, after
    every move, which moves were accepted (a round's deal done, a combat's last event, a
    step since a hold), and rescanning every line for each asker was the models' largest
    cost per state. Between two reads lines are only added (a move's When line, then the
    rejection line if it was rejected: that takes its move back off) or the last one
    taken back (a move the engine lacks): each line is read once, and the
    memo starts again when a line was taken back since (``Explored.take_back``)."""
    lines = explored.lines
    read, taken_back, moves, at = explored.memo.get("accepted") or (0, -1, None, None)
    if moves is None or taken_back != explored.taken_back or read > len(lines):
        read, moves, at = 0, [], None
    for i in range(read, len(lines)):
        line = lines[i]
        if line == REJECTED_LINE:
            if at == i - 1:  # the move just read was rejected
                moves.pop()
                at = None
        elif line.startswith("When "):
            moves.append(line[5:])
            at = i
    explored.memo["accepted"] = (len(lines), explored.taken_back, moves, at)
    return moves


def conserved(explored: Explored, total: int, broken: Callable[[int, int], str]) -> Check:
    """The conservation invariant: the first total seen is the game's (nothing to compare
    yet); any other total later is ``broken(start, now)``."""
    start = explored.memo.setdefault("conserved", total)
    if explored.moves == 0 and explored.before is None:
        return None
    return broken(start, total) if total != start else HELD


def hands_as_seen(reference: ScenarioWorld, players: Sequence[str]) -> list[str]:
    """Then-steps stating every hand as every other viewer sees it (named and hidden cards)."""
    lines = []
    for owner in players:
        for viewer in other_viewers(owner, players):
            count, seen = reference.hand(owner, viewer)
            hidden = count - len(seen)
            named = describe_cards(seen) if seen else ""
            hidden_cards = f"{hidden} hidden card{'' if hidden == 1 else 's'}"
            what = (f"{named} and {hidden_cards}" if seen and hidden else
                    named if seen else hidden_cards)
            lines.append(f"{owner} holds {what} as seen by {viewer or 'a spectator'}")
    return lines
