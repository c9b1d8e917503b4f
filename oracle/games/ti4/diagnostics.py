"""What any TI4 action must do whatever the scenario: the checks that charge the right rule.

Each diagnostic stands for one concept, which ``features/ti4/game.yaml`` maps to the rule
that states it (``oracle.scenario.diagnosis`` explains how a failed scenario is charged).
They are conservative on purpose: each checks only what its rule says for every action of
its kinds, so that a slip in another rule never trips it.
"""

from __future__ import annotations

from collections.abc import Sequence

from oracle.scenario.diagnosis import (
    Diagnostic,
    Transition,
    contains,
    discard_pile,
    draw_pile,
    gained,
    hand,
    hands_gained,
)

DECK = "action"
DRAWS = frozenset({"draw", "status_draw", "politics_primary", "politics_secondary"})


def _drawn(t: Transition) -> list[str]:
    return [c for cards in hands_gained(t).values() for c in cards]


def _available(t: Transition) -> int:
    return len(draw_pile(t.before, DECK)) + len(discard_pile(t.before, DECK))


def draw_from_top(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.3: a draw takes the top cards of the deck into a hand."""
    t = history[i]
    drawn = _drawn(t)
    wanted = int(t.action.get("count", 1)) if t.kind == "draw" else 0
    if t.kind == "draw" and wanted and not drawn and _available(t):
        return f"{t.action.get('player')} drew no card"
    top = draw_pile(t.before, DECK)[: len(drawn)]
    if not contains(drawn, top):
        return (f"the cards that reached hands were {sorted(drawn)}, not the top of the deck "
                f"{top}")
    return None


def status_phase_deals(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.1: the status phase draw gives cards to players."""
    t = history[i]
    if not _drawn(t) and _available(t):
        return "nobody received a card"
    return None


def reshuffled(history: Sequence[Transition], i: int) -> str | None:
    """ti4:note-4: a deck that runs out is shuffled from the discard pile at once."""
    t = history[i]
    if (_drawn(t) and not draw_pile(t.after, DECK) and discard_pile(t.before, DECK)
            and discard_pile(t.after, DECK)):
        return "the deck ran out and the discard pile was not shuffled into a new deck"
    return None


def _cancelled(history: Sequence[Transition], i: int) -> set[str]:
    """The cards that plays since the last resolve named as the card they cancel."""
    names: set[str] = set()
    for t in reversed(history[:i]):
        if t.kind == "resolve":
            break
        if t.kind == "play" and t.accepted and "card" in (t.action.get("targets") or {}):
            names.add(t.action["targets"]["card"])
    return names


def _resolved(t: Transition) -> list[str]:
    before = [e["card"] for e in t.before.get("being_played") or []]
    after = [e["card"] for e in t.after.get("being_played") or []]
    return gained(after, before)


def played_card_discarded(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.7: a card that resolved goes to the action discard pile."""
    t = history[i]
    cancelled = _cancelled(history, i)
    resolved = [c for c in _resolved(t) if c not in cancelled]
    discarded = gained(discard_pile(t.before, DECK), discard_pile(t.after, DECK))
    missing = gained(discarded, resolved)
    return f"{missing} resolved but did not reach the discard pile" if missing else None


def cancelled_card_discarded(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.8: a cancelled card is discarded."""
    t = history[i]
    cancelled = [c for c in _resolved(t) if c in _cancelled(history, i)]
    discarded = gained(discard_pile(t.before, DECK), discard_pile(t.after, DECK))
    missing = gained(discarded, cancelled)
    return f"cancelled {missing} did not reach the discard pile" if missing else None


def played_card_leaves_hand(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.7: to play a card, its player takes it from their hand."""
    t = history[i]
    player, card = t.action.get("player"), t.action.get("card")
    if hand(t.after, player).count(card) >= hand(t.before, player).count(card):
        return f"{card!r} stayed in {player}'s hand while it was played"
    return None


def excess_is_discarded(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.4: a player who holds more cards than their hand limit must choose which to keep."""
    t = history[i]
    pending = {p.get("player") for p in t.after.get("pending") or []}
    for player, cards in hands_gained(t).items():
        entry = t.after["players"][player]
        limit = entry.get("hand_limit", 7)
        if cards and entry["hand"]["count"] > limit and player not in pending:
            return (f"{player} holds {entry['hand']['count']} cards, over the limit of "
                    f"{limit}, and is not asked to choose which to keep")
    return None


DIAGNOSTICS = (
    Diagnostic("draw-from-top", draw_from_top, DRAWS),
    Diagnostic("status-draw", status_phase_deals, frozenset({"status_draw"})),
    Diagnostic("reshuffle", reshuffled, DRAWS),
    Diagnostic("played-card-leaves-hand", played_card_leaves_hand, frozenset({"play"})),
    Diagnostic("played-card-discarded", played_card_discarded, frozenset({"resolve"})),
    Diagnostic("cancelled-card-discarded", cancelled_card_discarded, frozenset({"resolve"})),
    Diagnostic("hand-limit", excess_is_discarded, DRAWS | {"trade"}),
)
