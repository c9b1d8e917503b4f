"""EU invariants on hands, decks and discard piles, and the hand limit of Phase 5 Step C.

Why together: they read the piles and hands of the view (as each viewer sees them) and the
decisions Phase 5 Step C leaves.
"""

from __future__ import annotations

from collections import Counter

from oracle.explore import HELD, Check, Explored
from oracle.games.eu_pop.cards import DECKS
from oracle.games.eu_pop.explore.tables import (
    DRAW_LINE,
    FACTS,
    HAND_LIMIT,
    KEEP_LINE,
    PLAYERS,
    REBUILD_LEAVES,
    SETUP_HOLD,
    STEP_C,
    _n_cards,
    _pile,
)
from oracle.games.eu_pop.explore.views import (
    View,
    _count,
    _discard,
    _display,
    _draw_cards,
    _draw_count,
    _hand,
    _last,
    _pending,
    _since_step_c,
)
from oracle.games.kit.explore import accepted_moves, other_viewers
from oracle.scenario.world import ScenarioWorld
from oracle.suite.dsl import describe_cards, parse_pile


def _hidden(explored: Explored) -> Check:
    """Exercised by every state with a card in a hand. Only the cards: no sentence of the
    chapter says a hand's size is public (6.cards-in-hand.1 keeps the cards secret), so an
    engine may show other viewers a ``count`` of null, and none is charged for it."""
    held = False
    for owner in PLAYERS:
        if not _hand(explored.view(), owner):
            continue
        held = True
        for viewer in other_viewers(owner, PLAYERS):
            hand = explored.view(viewer)["players"][owner]["hand"] or {}
            seen = list(hand.get("cards") or [])
            if seen:
                return f"{viewer or 'a spectator'} sees {describe_cards(seen)} in {owner}'s hand"
    return HELD if held else None


def _viewers_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    """Each held hand as no other viewer may see it (its cards; its size is not checked)."""
    referee = reference.referee_view()
    return [f"{viewer or 'a spectator'} sees none of the cards in {owner}'s hand"
            for owner in PLAYERS if _hand(referee, owner)
            for viewer in other_viewers(owner, PLAYERS)]


def _discards_public(explored: Explored) -> Check:
    """Exercised by every state with a card in a discard pile."""
    referee = explored.view()
    for viewer in [*PLAYERS, None]:
        view = explored.view(viewer)
        for deck in DECKS:
            if _discard(view, deck) != _discard(referee, deck):
                return (f"{viewer or 'a spectator'} is shown the {deck} discard pile as "
                        f"{_pile(_discard(view, deck))}; it is {_pile(_discard(referee, deck))}")
    return HELD if any(_discard(referee, deck) for deck in DECKS) else None


def _discards_seen_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    return [f"the {deck} discard pile is {_pile(_discard(view, deck))} as seen by "
            f"{viewer or 'a spectator'}"
            for viewer in [*PLAYERS, None] for deck in DECKS if _discard(view, deck)]


def _own_decks(explored: Explored) -> Check:
    """Exercised by every state with a card in a pile the referee is shown."""
    view = explored.view()
    listed = False
    for deck in DECKS:
        for which, cards in (("deck", _draw_cards(view, deck) or []),
                             ("discard pile", _discard(view, deck))):
            listed = listed or bool(cards)
            stray = [c for c in cards if c in FACTS and FACTS[c].deck != deck]
            if stray:
                return (f"the {deck} {which} holds {describe_cards(stray)}, of the "
                        f"{FACTS[stray[0]].deck} deck")
    return HELD if listed else None


def _on_top(explored: Explored) -> Check:
    """Exercised by a move that discarded onto a pile that was not empty."""
    if explored.before is None:
        return None
    view = explored.view()
    grew = False
    for deck in DECKS:
        old, new = _discard(explored.before, deck), _discard(view, deck)
        if len(new) > len(old) and new[len(new) - len(old):] != old:
            return (f"after '{explored.lines[-1]}' the {deck} discard pile went from "
                    f"{_pile(old)} to {_pile(new)}: a discard goes face up on top")
        grew = grew or (len(new) > len(old) > 0)
    return HELD if grew else None


def _piles_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    lines = []
    for deck in DECKS:
        n = _draw_count(view, deck)
        lines.append(f"the {deck} deck is {_n_cards(n) if n else 'empty'}")
        lines.append(f"the {deck} discard pile is {_pile(_discard(view, deck))}")
    return lines


def _drawn(explored: Explored) -> tuple[str, int, int, bool, bool] | None:
    """For an accepted draw: (deck, draw count, discard count) the rules leave, whether
    a discard pile of 5 or fewer was shuffled whole (6.decks.5) on the way, and whether the
    draw ran the deck out (the moment 6.decks.4 is about)."""
    m = DRAW_LINE.fullmatch(_last(explored))
    if not m or m.group(3) not in DECKS:
        return None
    assert explored.before is not None
    deck, n = m.group(3), int(m.group(2)) if m.group(2).isdigit() else 1
    draw, discard, small = _draw_count(explored.before, deck), \
        len(_discard(explored.before, deck)), False
    ran_out = draw <= n
    for _ in range(n):
        if draw == 0 and discard:  # rebuilt when a card must be drawn, not when emptied
            keep = REBUILD_LEAVES if discard > REBUILD_LEAVES else 0
            small = small or keep == 0
            draw, discard = discard - keep, keep
        if draw == 0:
            break
        draw -= 1
    return deck, draw, discard, small, ran_out


def _rebuild_check(explored: Explored, small: bool) -> Check:
    """Exercised by a draw that ran the deck out (a small pile shuffled whole: 6.decks.5;
    any other: 6.decks.4)."""
    drawn = _drawn(explored)
    if drawn is None or drawn[3] != small:
        return None
    deck, draw, discard, _, ran_out = drawn
    view = explored.view()
    got = (_draw_count(view, deck), len(_discard(view, deck)))
    if got != (draw, discard):
        before = explored.before
        assert before is not None
        return (f"'{explored.lines[-1]}', from {_n_cards(_draw_count(before, deck))} in the "
                f"{deck} deck over {_n_cards(len(_discard(before, deck)))} in its discard pile, "
                f"left {got[0]} and {got[1]}; the rules leave {draw} and {discard}")
    return HELD if ran_out else None


def _rebuilt(explored: Explored) -> Check:
    return _rebuild_check(explored, small=False)


def _rebuilt_whole(explored: Explored) -> Check:
    return _rebuild_check(explored, small=True)


def _limit_waits(explored: Explored) -> Check:
    """A keep decision appears only on an accepted Phase 5 Step C, in Phase 5. Exercised by
    a state where a hand is over the limit, or a keep decision appears."""
    view = explored.view()
    now = _pending(view, "keep")
    before = _pending(explored.before, "keep") if explored.before is not None else {}
    new = sorted(set(now) - set(before))
    if not new:
        return HELD if any(_count(view, p) > HAND_LIMIT for p in PLAYERS) else None
    last = explored.lines[-1] if explored.lines else ""
    if last == f"When {STEP_C}" and not explored.last_rejected and view.get("phase") == "cleanup":
        return HELD
    # The set-up's hold asks for keeps of its own count (up to 4, 3.0.4#4); one down to the
    # limit of 5 there is the limit checked outside Step C.
    if last == f"When {SETUP_HOLD}" and not explored.last_rejected and all(
            now[p] != HAND_LIMIT for p in new):
        return HELD
    who = new[0]
    after = f"after '{last}'" if last else "at the start"
    return (f"{who} must keep {now[who]} cards {after}, holding {_count(view, who)}, in the "
            f"{view.get('phase')} phase: the hand limit is only checked in Phase 5, Step C")


def _decisions(view: View) -> list[str]:
    """The decisions pending, and who has none (a decision an engine asks for wrongly may
    come while another player's is pending)."""
    pending = view.get("pending") or []
    if not pending:
        return ["no decision is pending"]
    waiting = {p["player"] for p in pending}
    return [f"{p['player']} must {p['decision']} {_n_cards(int(p['count']))}"
            for p in pending] + [f"no decision is pending for {p}" for p in PLAYERS
                                 if p not in waiting]


def _pending_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    return _decisions(view) + [f"{p} holds {_n_cards(_count(view, p))}" for p in PLAYERS]


def _holding_for_the_setup(explored: Explored) -> bool:
    """Whether the keeps asked now are the set-up's hold's (3.0.4#4, keep 4 of 5), not the
    hand limit's: the hold was played and no Step C since."""
    accepted = accepted_moves(explored)
    return SETUP_HOLD in accepted and STEP_C not in accepted[accepted.index(SETUP_HOLD):]


def _step_c_done(explored: Explored) -> Check:
    """After Step C and its decisions, no hand holds more than 5; and only a hand over 5
    (of a player with nothing on display: see 4.5.c.3) is made to discard down."""
    view = explored.view()
    keep = _pending(view, "keep")
    if _holding_for_the_setup(explored):
        keep = {}  # the set-up's hold keeps 4 of 5 (3.0.4#4): not the limit's
    for p, n in keep.items():
        if not _display(view, p) and _count(view, p) <= HAND_LIMIT:
            return f"{p} holds {_count(view, p)} cards and must keep {n}"
    if keep:
        return HELD
    if not _since_step_c(explored.lines):
        return None
    for p in PLAYERS:
        if _count(view, p) > HAND_LIMIT:
            return f"{p} still holds {_count(view, p)} cards after Phase 5, Step C"
    return HELD


def _displays_uncounted(explored: Explored) -> Check:
    """Exercised once Phase 5 Step C is resolved while a player has Display Cards. The keeps
    the set-up's hold asks for (3.0.4#4) are not the limit's."""
    view = explored.view()
    if _holding_for_the_setup(explored):
        return None
    for p, n in _pending(view, "keep").items():
        shown = _display(view, p)
        if shown and _count(view, p) <= HAND_LIMIT:
            return (f"{p} must keep {n} cards holding {_count(view, p)} in hand and "
                    f"{len(shown)} Display Card(s) in play: those do not count")
    shown_any = any(_display(view, p) for p in PLAYERS)
    return HELD if shown_any and _since_step_c(explored.lines) else None


def _kept(explored: Explored) -> Check:
    m = KEEP_LINE.fullmatch(_last(explored))
    if not m:
        return None
    spec = parse_pile(m.group(2))
    if spec.hidden or spec.others or not spec.names_matter:
        return None
    player, hand = m.group(1), _hand(explored.view(), m.group(1))
    if Counter(hand) != Counter(spec.cards):
        return f"{player} chose to keep {describe_cards(spec.cards)} and holds {_pile(hand)}"
    return HELD


def _kept_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    return [f"{p} holds {describe_cards(_hand(view, p)) if _hand(view, p) else 'no cards'}"
            for p in PLAYERS]
