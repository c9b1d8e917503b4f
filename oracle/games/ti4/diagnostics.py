"""What any TI4 action must do whatever the scenario: the checks that charge the right rule.

Each diagnostic stands for one concept, which ``features/ti4/game.yaml`` maps to the rule
that states it (``oracle.scenario.diagnosis`` explains how a failed scenario is charged).
They are conservative on purpose: each checks only what its rule says for every action of
its kinds, so that a slip in another rule never trips it. Where another rule can change the
count (Scheming's extra card, Neural Motivator's second card, a modified hand limit), the
diagnostic reads the scenario's own setup (``Transition.given``), never the engine's view of
it, and leaves those players to the diagnostic of the rule that covers them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import takewhile
from typing import Any

from oracle.games.ti4.cards import LAW_MODELS
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
DRAWS = frozenset({"draw", "status_draw", "politics_primary", "politics_secondary",
                   "politics"})
POLITICS = frozenset({"politics_primary", "politics_secondary", "politics"})
#: The actions that deal cards to several players in turn (ti4:note-5).
DEALS = frozenset({"status_draw", "politics"})
SABOTAGE = "Sabotage"
BASE_HAND_LIMIT = 7
POLITICS_DRAW = 2


# -- reading what the scenario set up -------------------------------------------------------


def _given_player(t: Transition, name: str) -> Mapping[str, Any]:
    for entry in t.given.get("players") or ():
        if entry.get("name") == name:
            return entry
    return {}


def _yssaril(t: Transition, name: str) -> bool:
    return _given_player(t, name).get("faction") == "Yssaril"


def _neural_motivator(t: Transition, name: str) -> bool:
    return "Neural Motivator" in (_given_player(t, name).get("technologies") or ())


def _plain_drawer(t: Transition, name: str) -> bool:
    """A player whose draws no ability changes (no Scheming, no Neural Motivator)."""
    return not _yssaril(t, name) and not _neural_motivator(t, name)


def _modifier(t: Transition, name: str) -> int:
    return int(_given_player(t, name).get("hand_limit_modifier") or 0)


def _base_limit(t: Transition) -> int | None:
    """Seven, or the limit a law the scenario put in play sets (ti4:2.4.1); None while the
    laws in play are not the ones it set (one was repealed: which limit holds is another
    rule's business)."""
    laws = list(t.given.get("laws") or ())
    limits = [m.hand_limit for law in laws
              if (m := LAW_MODELS.get(law)) is not None and m.hand_limit is not None]
    if not limits:
        return BASE_HAND_LIMIT
    if any(list(view.get("laws") or ()) != laws for view in (t.before, t.after)):
        return None
    return min(limits)


def _modified(t: Transition, name: str) -> bool:
    """Whether a game effect changes this player's limit (ti4:2.4.1's diagnostic, not 2.4's):
    a modifier of their own, or a law that sets every limit."""
    return bool(_modifier(t, name)) or _base_limit(t) != BASE_HAND_LIMIT


@lru_cache(maxsize=1)
def _component_actions() -> frozenset[str]:
    from oracle.games.ti4.cards import load_card_facts

    return frozenset(f.name for f in load_card_facts() if f.is_component_action)


# -- drawing (ti4:2.1, ti4:2.2, ti4:2.3, ti4:note-1, ti4:note-4) -----------------------------


def _drawn(t: Transition) -> list[str]:
    return [c for cards in hands_gained(t).values() for c in cards]


def _discarded(t: Transition) -> list[str]:
    """Cards the discard pile gained in a transition that did not reshuffle it (a reshuffle
    takes the pile away; ValueError, inconclusive, when it did)."""
    before, after = discard_pile(t.before, DECK), discard_pile(t.after, DECK)
    if not contains(after, before):
        raise ValueError("the discard pile was reshuffled")
    return gained(before, after)


def _taken(t: Transition) -> list[str]:
    """What left the deck for a hand, including cards the engine discarded from the hand in
    the same step (a limit or Scheming applied without asking: other rules' business)."""
    try:
        return _drawn(t) + _discarded(t)
    except ValueError:
        return _drawn(t)


def _available(t: Transition) -> int:
    return len(draw_pile(t.before, DECK)) + len(discard_pile(t.before, DECK))


def starting_hands(history: Sequence[Transition], i: int) -> str | None:
    """ti4:note-1: a player the scenario gave no hand starts the game with none."""
    if i:
        return None
    t = history[0]
    for entry in t.given.get("players") or ():
        if "hand" not in entry and hand(t.before, entry["name"]):
            return (f"{entry['name']}, given no hand, started with "
                    f"{len(hand(t.before, entry['name']))} card(s)")
    return None


def draw_from_top(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.3: a draw takes the top cards of the deck into a hand; they leave the deck."""
    t = history[i]
    drawn = _taken(t)
    deck = draw_pile(t.before, DECK)
    top = deck[: len(drawn)]
    if not contains(drawn, top):
        return (f"the cards that reached hands were {sorted(drawn)}, not the top of the deck "
                f"{top}")
    # A deck the draw emptied is rebuilt at once: what it holds then is ti4:note-4's business.
    if len(deck) > len(drawn) and draw_pile(t.after, DECK) != deck[len(drawn):]:
        return (f"after {len(drawn)} card(s) were drawn the deck is "
                f"{draw_pile(t.after, DECK)}, not {deck[len(drawn):]}")
    if t.kind == "draw":
        player, wanted = t.action.get("player"), int(t.action.get("count", 1))
        got = len(hands_gained(t).get(player, []))
        # How many more a Yssaril player draws is Scheming's count (ti4:note-5.2's), not
        # this rule's: for them only too few is checked here.
        if got < min(wanted, len(deck)) or (not _yssaril(t, player) and len(deck) >= wanted
                                             and got > wanted):
            return (f"{player} was to draw {wanted} card(s) from a deck of {len(deck)} and "
                    f"received {got}")
    return None


def _ability_cards(t: Transition, name: str) -> int:
    """The cards a player's abilities add to a status phase draw (Neural Motivator, and
    Scheming's extra card, discarded later): other rules' counts, added, never checked."""
    return int(_yssaril(t, name)) + int(_neural_motivator(t, name))


def _cards_in_play(view: Mapping[str, Any]) -> int:
    return (len(draw_pile(view, DECK)) + len(discard_pile(view, DECK))
            + sum(len(hand(view, p)) for p in view["players"]) + len(_stack(view)))


def cards_conserved(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.3: a drawn card moves from the deck to a hand; a draw makes no card and loses
    none. (Judged after the reshuffle's own diagnostic, which speaks for a pile it mishandled.)"""
    t = history[i]
    before, after = _cards_in_play(t.before), _cards_in_play(t.after)
    if before != after:
        return f"the draw left {after} action cards in the game, not {before}"
    return None


def status_phase_deals(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.1: the status phase deals one card to every player, plus what their abilities
    add (another rule says when: the deal pauses for a decision, then goes on)."""
    t = history[i]
    gains = hands_gained(t)
    if not _drawn(t) and _available(t):
        if not draw_pile(t.before, DECK) and not draw_pile(t.after, DECK):
            return None  # an empty deck never shuffled from the pile: the reshuffle's
        return "nobody received a card"
    for player, cards in gains.items():
        # A Yssaril player with Neural Motivator draws two in one draw: how many more than
        # their three they get is Scheming's count (one per draw, not per card: ti4:note-5.2),
        # not this rule's.
        if len(cards) > 1 + _ability_cards(t, player) and not (
                _yssaril(t, player) and _neural_motivator(t, player)):
            return f"{player} received {len(cards)} cards in the status phase, not one"
    needed = sum(1 + _ability_cards(t, p) for p in gains)
    if not t.after.get("pending") and (len(draw_pile(t.before, DECK)) >= needed
                                       or draw_pile(t.after, DECK)):
        skipped = [p for p, cards in gains.items() if not cards]
        if skipped:
            return f"the status phase dealt no card to {', '.join(skipped)}"
    return None


def _in_turn(order: Sequence[str], gains: Mapping[str, list[str]]) -> tuple[list[str], bool]:
    """Who of ``order`` a deal served (their hands gained cards), in that order, and whether
    they are its first players: a deal serves players in turn (ti4:note-5's initiative order,
    Politics' clockwise turn, ti4:66.3), so one that paused for a decision has served the
    first of its order and nobody after them."""
    served = [p for p in order if gains.get(p)]
    return served, served == list(order[:len(served)])


def _served_after(order: Sequence[str], player: str, gains: Mapping[str, list[str]]
                  ) -> list[str]:
    """The players after ``player`` in a deal's order who received cards."""
    if player not in order:
        return []
    return [q for q in order[list(order).index(player) + 1:] if gains.get(q)]


def deal_order(history: Sequence[Transition], i: int) -> str | None:
    """ti4:note-5: several players are dealt in initiative order. Judged on every player but
    the Yssaril one (whose Scheming discard may leave any of their cards): the earlier in the
    initiative order the scenario set, the nearer the top of the deck the first card of their
    turn was; a Neural Motivator player's turn comes at their place like anyone's (how many
    cards it holds, and whether another player drew between them, is ti4:note-5.1's; where
    Scheming's cards go, 5.2's)."""
    t = history[i]
    order = _deal_order(t)  # the initiative order set up, else the seats' (the protocol's)
    deck = draw_pile(t.before, DECK)
    gains = hands_gained(t)
    plain = [p for p in order if _plain_drawer(t, p)]
    served, in_turn = _in_turn(plain, gains)
    if t.after.get("pending") and not in_turn:
        # A deal that paused for a decision has served the first players in the order.
        return (f"the deal paused after serving {', '.join(served)}, not the first of "
                f"{', '.join(plain)}")
    owing = [p for p in order if p in {q.get("player") for q in t.after.get("pending") or ()}
             and gains.get(p)]
    skipped = [p for p in order[:order.index(owing[0])] if not gains.get(p)] if owing else []
    if len(deck) > sum(len(cards) for cards in gains.values()) and owing:
        # It paused for a player it served: everyone before them in the order came first,
        # and nobody after them took a card from above theirs on the deck.
        if skipped:
            return (f"the deal paused for {owing[0]} before serving {', '.join(skipped)}, "
                    "who come(s) first in the initiative order")
        first = min((deck.index(c) for c in gains[owing[0]] if c in deck), default=0)
        ahead = [p for p in order[order.index(owing[0]) + 1:]
                 if any(c in deck and deck.index(c) < first for c in gains.get(p, []))]
        if ahead:
            return (f"{', '.join(ahead)} took cards before {owing[0]}, who comes first in "
                    "the initiative order")
    total = sum(len(cards) for cards in gains.values())
    if total > len(deck):
        return _old_deck_order(t, order, deck, gains)
    top = deck[:total]
    dealt = [p for p in order if gains.get(p) and not _yssaril(t, p)
             and (len(gains[p]) == 1 or _neural_motivator(t, p))]
    if any(top.count(c) != 1 for p in dealt for c in gains[p]):
        return None  # a card the deck top holds twice, or one from elsewhere (2.3's)
    position = {p: min(top.index(c) for c in gains[p]) for p in dealt}
    actual = sorted(dealt, key=position.__getitem__)
    if actual != dealt:
        return f"cards were dealt to {', '.join(actual)} in that order, not {', '.join(dealt)}"
    return None


def _old_deck_order(t: Transition, order: list[str], deck: list[str],
                    gains: Mapping[str, list[str]]) -> str | None:
    """ti4:note-5 in a deal that ran the deck out: the old deck's cards, top first, went to
    the first players in the order (judged only when every player draws plainly, one card
    each, and no name repeats: otherwise who got which copy is not known)."""
    cards = [c for p in order for c in gains.get(p, [])]
    if (len(set(cards)) != len(cards) or len(set(deck)) != len(deck)
            or any(len(gains.get(p, [])) > 1 or not _plain_drawer(t, p) for p in order)):
        return None
    owner = {gains[p][0]: p for p in order if gains.get(p)}
    got = [owner.get(card) for card in deck]
    if None in got or got == order[:len(got)]:
        return None
    return (f"the old deck's cards went to {', '.join(map(str, got))} in that order, not to "
            f"{', '.join(order[:len(got)])}")


def _deal_order(t: Transition) -> list[str]:
    """Who a deal serves, in order: the status phase's initiative order (ti4:note-5; seat
    order where the scenario set none, docs/protocol.md's default), or Politics' active
    player, then the secondary clockwise from them (ti4:66.3)."""
    seats = [p["name"] for p in t.given.get("players") or ()]
    if t.kind == "status_draw":
        return list(t.given.get("initiative") or seats)
    active = t.action["player"]
    start = seats.index(active)
    clockwise = seats[start + 1:] + seats[:start]
    return [active, *(p for p in clockwise if p in (t.action.get("secondary") or ()))]


def _deal_wrong(history: Sequence[Transition], i: int) -> bool:
    """Whether a draw already breaks a rule every player's draw follows (cards from the top
    of the deck, ti4:2.3; one card each in initiative order, ti4:2.1 and note-5): then
    where an ability's cards went is that rule's business, not note 5.1's or 5.2's. A check
    that cannot read the views is no verdict either way: the ValueError it becomes (naming
    the check and the action) makes the diagnostic asking inconclusive, as any diagnostic
    facing views without what it needs (``oracle.scenario.diagnosis.Diagnostic``)."""
    checks = [draw_from_top]
    if history[i].kind == "status_draw":
        checks += [status_phase_deals, deal_order]
    for check in checks:
        try:
            if check(history, i):
                return True
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ValueError(f"whether the deal of '{history[i].text}' follows "
                             f"{check.__name__} cannot be told from the views: {exc!r}") from exc
    return False


def _drawn_after(deck: list[str], gains: Mapping[str, list[str]], player: str
                 ) -> list[str] | None:
    """The players whose cards lay deeper in the deck than every card ``player`` drew (so
    were drawn after theirs); None when the deck's top holds a name twice (who drew which
    copy is not known) or the deal ran past the deck."""
    total = sum(len(cards) for cards in gains.values())
    top = deck[:total]
    if total > len(deck) or len(set(top)) != len(top):
        return None
    mine = [top.index(c) for c in gains.get(player, [])]
    if not mine:
        return None
    return [q for q, cards in gains.items()
            if q != player and any(top.index(c) > max(mine) for c in cards)]


def neural_motivator_deal(history: Sequence[Transition], i: int) -> str | None:
    """ti4:note-5.1: in the status phase's deal, a Neural Motivator player draws both their
    cards before the next player in order draws: two cards, next to each other on the deck.
    (Where in the deal their turn comes is the deal's order, ti4:note-5: ``deal_order``
    judges it, and ``_deal_wrong`` leaves a deal it fails to that rule.) A deal that paused
    for their own decision after one card has not broken it yet (nobody after them drew):
    ``neural_motivator_resumed`` judges where it goes on. Judged on the Neural Motivator
    players the deal served from the deck it started with, once the deal is right for
    everyone else."""
    t = history[i]
    seats = [p.get("name") for p in t.given.get("players") or ()]
    holders = [p for p in seats if _neural_motivator(t, p)]
    if not holders or _deal_wrong(history, i):
        return None
    deck, gains = draw_pile(t.before, DECK), hands_gained(t)
    total = sum(len(cards) for cards in gains.values())
    if total > len(deck):
        return None  # the deck ran out: the new deck's order is a shuffle's
    top = deck[:total]
    order = _deal_order(t)
    owing = {p.get("player") for p in t.after.get("pending") or ()}
    for player in holders:
        got = gains.get(player, [])
        if not got:
            continue
        later = _served_after(order, player, gains)
        if len(got) < 2 and total < len(deck) and (later or player not in owing):
            # a card was left for their second, and the deal went on without it
            return (f"{player}, who has Neural Motivator, received {len(got)} card, not both "
                    "of their cards")
        at = sorted(top.index(c) for c in got if top.count(c) == 1)
        if len(at) == len(got) >= 2 and at[-1] - at[0] != len(at) - 1:
            return (f"{player}, who has Neural Motivator, received {sorted(got)}: another "
                    "player drew between their two cards")
    return None


def _deal_begun(history: Sequence[Transition], i: int) -> int | None:
    """The deal that ``history[i]``, an answer, may go on with: the index of its accepted
    status phase draw or Politics deal when only answers (or refused actions) came since."""
    for k in range(i - 1, -1, -1):
        earlier = history[k]
        if earlier.accepted and earlier.kind in DEALS:
            return k
        if earlier.accepted and earlier.kind != "choose":
            return None
    return None


def neural_motivator_resumed(history: Sequence[Transition], i: int) -> str | None:
    """ti4:note-5.1 where the status phase's deal paused within a Neural Motivator player's
    turn (a decision of theirs, such as their hand limit, owed after their first card): when
    the deal goes on, their second card comes before the next player in order draws (or the
    deal ends). Judged
    on the players without Scheming (whose extra card is ti4:note-5.2's count), where the
    deal was right when it began and the deck held a card for their second."""
    t = history[i]
    start = _deal_begun(history, i)
    if start is None or history[start].kind != "status_draw" or not draw_pile(t.before, DECK) \
            or _deal_wrong(history, start):
        return None
    order, gains = _deal_order(history[start]), hands_gained(t)
    for player in order:
        if not _neural_motivator(t, player) or _yssaril(t, player):
            continue
        dealt = sum(len(hands_gained(history[k]).get(player, []))
                    for k in range(start, i + 1) if history[k].accepted)
        later = _served_after(order, player, gains)
        if dealt == 1 and (later or not t.after.get("pending")):
            after = f"{', '.join(later)} drew" if later else "the deal ended"
            return (f"{player}, who has Neural Motivator, received 1 card in the deal, and "
                    f"{after} before their second")
    return None


def _base_draw(t: Transition, player: str) -> int:
    """The cards a draw of this kind gives ``player`` before Scheming's extra one."""
    if t.kind == "draw":
        return int(t.action.get("count", 1))
    if t.kind == "status_draw":
        return 1 + int(_neural_motivator(t, player))
    return POLITICS_DRAW


def _count_shown(t: Transition, player: str, gains: Mapping[str, list[str]]) -> bool:
    """Whether a deal shows how many cards ``player``'s turn holds before Scheming's: another
    player whose turn holds as many (Neural Motivator's two in the status phase, Politics'
    two), without Scheming, received them all in it. Then a Yssaril player asked to discard
    with fewer than those and one more drew their turn in parts (ti4:note-5.2), not without
    the ability that makes it two (Neural Motivator ignored is ti4:note-5.1's; Politics
    drawing one, 2.2's): that other player shows the count."""
    base = _base_draw(t, player)
    return t.kind in DEALS and base > 1 and any(
        q != player and not _yssaril(t, q) and _base_draw(t, q) == base
        and len(cards) == base for q, cards in gains.items())


def scheming(history: Sequence[Transition], i: int) -> str | None:
    """ti4:note-5.2: the Yssaril player draws all of their cards (Scheming's one more among
    them: one more for the draw, not one per card) and discards for Scheming, a card they
    choose, before the next player in order draws. Judged where the deck holds every card
    the transition dealt and one more."""
    t = history[i]
    if _deal_wrong(history, i):
        return None
    gains = hands_gained(t)
    owing = {p.get("player") for p in t.after.get("pending") or ()
             if p.get("decision") == "discard"}
    for entry in t.given.get("players") or ():
        player = entry.get("name")
        got = gains.get(player) or []
        if not got or not _yssaril(t, player):
            continue
        if t.kind in DEALS and player in owing:
            later = _drawn_after(draw_pile(t.before, DECK), gains, player)
            if later:
                return (f"{', '.join(later)} received cards while {player} still owed the "
                        "Scheming discard")
        dealt = sum(len(cards) for cards in gains.values())
        if len(draw_pile(t.before, DECK)) <= dealt:
            continue  # a deck run out: the new deck's order is a shuffle's
        wanted = _base_draw(t, player) + 1
        if player in owing and len(got) < wanted and _count_shown(t, player, gains):
            return (f"{player}, the Yssaril player, received {len(got)} card(s) and was asked "
                    f"to discard for Scheming: all {wanted} of their cards come first, as "
                    f"{_base_draw(t, player)} and Scheming's one more in one draw")
        if player not in owing and len(got) < wanted:
            return (f"{player}, the Yssaril player, received {len(got)} card(s), not "
                    f"{wanted} (Scheming's one more), and was not asked to discard one")
        if len(got) > wanted:
            return (f"{player}, the Yssaril player, received {len(got)} card(s), not "
                    f"{wanted}: Scheming draws one more, once for the draw")
    return None


def deal_waits(history: Sequence[Transition], i: int) -> str | None:
    """ti4:note-10: a player over the limit discards the excess at once, so a deal waits for
    that discard: nobody later in the deal draws while it is owed."""
    t = history[i]
    owing = [p.get("player") for p in t.after.get("pending") or ()
             if p.get("decision") == "keep"]
    order = _deal_order(t)
    gains = hands_gained(t)
    if not _in_turn(order, gains)[1]:
        return None  # dealt out of order: the order's rule (note-5, or Politics' 2.2)
    for player in owing:
        later = _served_after(order, player, gains)
        if later:
            return (f"{', '.join(later)} received cards while {player} still owed the "
                    "hand-limit discard")
    return None


def politics_draws_two(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.2: resolving Politics (primary or secondary) draws two cards (three for the
    Yssaril player, whose Scheming adds one)."""
    t = history[i]
    players = [t.action.get("player"), *(t.action.get("secondary") or ())]
    if t.kind == "politics" and t.after.get("pending"):
        # The deal waits for a decision: those served before the first player owing it got
        # all their cards; what the one owing it got is the decision's rule's (Scheming's).
        owing = {p.get("player") for p in t.after["pending"]}
        order = _deal_order(t)
        players = list(takewhile(lambda p: p not in owing, order))
    wanted = {p: POLITICS_DRAW + (1 if _yssaril(t, p) else 0) for p in players}
    short = sum(wanted.values()) > len(draw_pile(t.before, DECK))
    for player, count in wanted.items():
        got = len(hands_gained(t).get(player, []))
        if got < count and short:
            continue  # a draw that runs the deck out goes on after the reshuffle: note-4
        if got != count:
            return f"{player} received {got} card(s) from Politics, not {count}"
    return None


def politics_deal_order(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.2: Politics resolved as one deal serves its players in turn from the top of the
    deck, two cards each (three for the Yssaril player, whose Scheming adds one): the active
    player, then the secondary clockwise from them (ti4:66.3, the order ``_deal_order``
    gives; Neural Motivator adds nothing to it). Each player's cards are the next of the
    deck, as far as it holds them (compared as names: copies are alike); a deal paused for a
    decision has served the first players in turn, each theirs."""
    t = history[i]
    if t.kind != "politics":
        return None
    order = _deal_order(t)
    gains = hands_gained(t)
    if t.after.get("pending"):
        served, in_turn = _in_turn(order, gains)
        if not in_turn:
            return (f"the Politics deal paused after serving {', '.join(served)}, not the "
                    f"first of {', '.join(order)}")
        order = served
    deck = draw_pile(t.before, DECK)
    counts = [POLITICS_DRAW + (1 if _yssaril(t, p) else 0) for p in order]
    total = sum(counts)
    dealt = [c for p in order for c in gains.get(p, [])]
    if (sorted(dealt) != sorted(deck[:total]) if total <= len(deck)
            else not contains(dealt, deck)):
        return None  # not the top cards at all: drawing's own rule (ti4:2.3)
    left = len(deck) + len(discard_pile(t.before, DECK))
    for player, count in zip(order, counts, strict=True):
        # Cards run out: the players earlier in turn are served first.
        wanted, left = min(count, left), left - min(count, left)
        if len(gains.get(player, [])) != wanted and any(
                len(gains.get(q, [])) > 0 for q in order[order.index(player) + 1:]):
            return (f"Politics ran out of cards and served {player} "
                    f"{len(gains.get(player, []))} card(s) while a player later in turn "
                    f"({', '.join(order)}) received cards")
    start = 0
    for player, count in zip(order, counts, strict=True):
        # The player's cards, as far as the old deck holds them (a deal that runs it out
        # goes on from the reshuffled pile, whose order is the engine's).
        theirs, start = deck[start:start + count], start + count
        got = list(gains.get(player, []))
        if not theirs:
            break
        if sorted(got) != sorted(theirs) if len(theirs) == count else not contains(got, theirs):
            return (f"Politics dealt {player} {got}, not the next cards of the deck "
                    f"{theirs} (dealt to {', '.join(order)} in turn)")
    return None


def discard_is_an_event(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.6: a card's timing says when it can be resolved, and "after another player
    discards an action card that has a component action" (Reverse Engineer) is any such
    discard: the cards a player discards to keep within the hand limit are a discard by that
    player, a timing event whose windows open (the view's ``event``). Judged on an answer to
    the hand limit's demand that discarded a card with a component action."""
    t = history[i]
    player = t.action.get("player")
    if "event" not in t.after or not any(
            p.get("player") == player and p.get("decision") == "keep"
            for p in t.before.get("pending") or ()):
        return None  # (a view with no event: the engine shows no timing events at all)
    dropped = gained(hand(t.after, player), hand(t.before, player))
    if not any(c in _component_actions() for c in dropped) or not contains(
            discard_pile(t.after, DECK), dropped):
        return None
    event = t.after.get("event") or {}
    if event.get("event") != "discard" or event.get("player") != player:
        return f"{player}'s discard to the hand limit {dropped} opened no discard event"
    return None


def reshuffled(history: Sequence[Transition], i: int) -> str | None:
    """ti4:note-4: a deck that runs out is shuffled from the discard pile at once, and a
    draw goes on from the new deck."""
    t = history[i]
    deck = len(draw_pile(t.before, DECK))
    if t.kind in DEALS and any(p.get("decision") == "keep" for p in t.after.get("pending") or ()):
        return None  # a deal reshuffles after the discards of those dealt (ti4:66.note-1)
    if (_drawn(t) and not draw_pile(t.after, DECK) and discard_pile(t.before, DECK)
            and discard_pile(t.after, DECK)):
        return "the deck ran out and the discard pile was not shuffled into a new deck"
    if (t.kind in DEALS and not _drawn(t) and not deck and not draw_pile(t.after, DECK)
            and discard_pile(t.before, DECK) and discard_pile(t.after, DECK)):
        return "the deck was empty at the deal and the discard pile was not shuffled into it"
    # Cards drawn beyond the old deck that the discard pile holds came from a reshuffle that
    # left the pile behind (others were made out of nothing: 2.3's business).
    beyond = gained(draw_pile(t.before, DECK), _drawn(t))
    if (_drawn(t) and len(_drawn(t)) >= deck and discard_pile(t.before, DECK)
            and discard_pile(t.after, DECK) and contains(discard_pile(t.before, DECK), beyond)):
        return "the deck ran out and the discard pile stayed where it was"
    if t.kind in DRAWS - DEALS:
        player = t.action.get("player")
        wanted = (int(t.action.get("count", 1)) if t.kind == "draw"
                  else POLITICS_DRAW + int(_yssaril(t, player)))
        got = len(hands_gained(t).get(player, []))
        if deck < wanted and discard_pile(t.before, DECK) and got < min(wanted, _available(t)):
            return (f"{player} was to draw {wanted} card(s) from a deck of {deck} and a "
                    f"discard pile to reshuffle, and received {got}")
    return None


def reshuffled_after_the_wait(history: Sequence[Transition], i: int) -> str | None:
    """ti4:note-4 where a deal ran the deck out and waited for the discards of those it
    dealt (ti4:66.note-1, 81.note-2): the answer that leaves none owed shuffles the discard
    pile into a new deck (and the deal goes on from it)."""
    t = history[i]
    start = _deal_begun(history, i)
    if start is None or not draw_pile(history[start].before, DECK):
        return None
    if draw_pile(history[start].after, DECK):
        return None  # the deal did not run the deck out
    if t.after.get("pending"):
        return None  # still waiting for a decision
    if not draw_pile(t.after, DECK) and discard_pile(t.after, DECK):
        return ("the deal ran the deck out and, once the discards it waited for were made, "
                "the discard pile was not shuffled into a new deck")
    return None


# -- the hand limit (ti4:2.4, ti4:2.4.1) ----------------------------------------------------


def _limit_problem(t: Transition, view: Mapping[str, Any], modified: bool) -> str | None:
    base = _base_limit(t)
    for player in view["players"]:
        if base is None:
            continue
        limit = base + _modifier(t, player)
        owed = [p for p in view.get("pending") or () if p.get("player") == player]
        if any(p.get("decision") == "discard" for p in owed):
            continue  # Scheming's discard comes first (ti4:note-5.2)
        keep = [p for p in owed if p.get("decision") == "keep"]
        count = len(hand(view, player))
        if _modified(t, player) != modified:
            # 2.4 for a player whose limit an effect lowers: over seven, they must be asked
            # to choose (how many to keep is 2.4.1's business; a raised limit is all its).
            if not modified and limit <= BASE_HAND_LIMIT < count and not keep:
                return (f"{player} holds {count} cards, over seven and over the limit of "
                        f"{limit}, and is not asked to choose")
            continue
        if count > limit and not any(p.get("count") == limit for p in keep):
            asked = f"asked to keep {keep[0].get('count')}" if keep else "not asked to choose"
            return f"{player} holds {count} cards, over the limit of {limit}, and is {asked}"
        if count <= limit and keep and (view is t.before or not _keep_owed(t.before, player)):
            return f"{player} holds {count} cards, within the limit of {limit}, and must discard"
    return None


def _keep_owed(view: Mapping[str, Any], player: str) -> bool:
    """A hand-limit choice already owed: a hand that shrank under it by an action the
    engine should have refused meanwhile (ti4:note-10) is not this rule's slip."""
    return any(p.get("player") == player and p.get("decision") == "keep"
               for p in view.get("pending") or ())


def _discarded_unasked(t: Transition, modified: bool | None) -> str | None:
    """ti4:2.4: cards that arrive over the limit stay until their player chooses what to
    keep; an engine that discards the excess itself takes that choice away (``modified``:
    only for players whose limit an effect changes, or does not; None: for everyone)."""
    if t.kind not in DRAWS and t.kind != "trade":
        return None
    try:
        discarded = _discarded(t)
    except ValueError:
        return None
    base = _base_limit(t)
    for player, cards in hands_gained(t).items():
        if base is None:
            break
        limit = base + _modifier(t, player)
        if (modified in (None, _modified(t, player)) and discarded
                and len(hand(t.after, player)) == limit
                and len(hand(t.before, player)) + len(cards) + len(discarded) > limit):
            return (f"{len(discarded)} card(s) over {player}'s limit went to the discard pile "
                    f"without {player} choosing what to keep")
    return None


def _kept(t: Transition, modified: bool) -> str | None:
    """ti4:2.4: keeping cards leaves exactly those in the hand; the rest are discarded."""
    choice = t.action.get("choose") or {}
    player = t.action.get("player")
    if "keep" not in choice or _modified(t, player) != modified:
        return None
    kept, left = list(choice["keep"]), hand(t.after, player)
    # A paused deal that went on (the deck changed) may deal this player more cards, and
    # reshuffle the pile their discards went to (ti4:66.note-1).
    dealt_on = draw_pile(t.before, DECK) != draw_pile(t.after, DECK)
    if not contains(left, kept) or (not dealt_on and sorted(left) != sorted(kept)):
        return f"{player} kept {sorted(kept)} but holds {sorted(left)}"
    if not contains(discard_pile(t.after, DECK), discard_pile(t.before, DECK)):
        return None  # the pile was reshuffled: where the discards went is not seen
    gone = gained(hand(t.after, player), hand(t.before, player))
    missing = gained(gained(discard_pile(t.before, DECK), discard_pile(t.after, DECK)), gone)
    return f"{sorted(missing)} left {player}'s hand but not for the discard pile" if missing \
        else None


def hand_limit(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.4: more than seven cards asks the player to choose seven to keep, at once."""
    t = history[i]
    found = (_limit_problem(t, t.before, False) if i == 0 else None)
    found = found or (_discarded_unasked(t, None) if t.accepted else None)
    found = found or (_limit_problem(t, t.after, False) if t.accepted else None)
    return found or (_kept(t, False) if t.accepted and t.kind == "choose" else None)


def modified_hand_limit(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.4.1: a player whose limit a game effect changed keeps to the changed limit."""
    t = history[i]
    found = (_limit_problem(t, t.before, True) if i == 0 else None)
    found = found or (_discarded_unasked(t, True) if t.accepted else None)
    found = found or (_limit_problem(t, t.after, True) if t.accepted else None)
    return found or (_kept(t, True) if t.accepted and t.kind == "choose" else None)


# -- playing, resolving, cancelling (ti4:2.6, ti4:2.6.2, ti4:2.7, ti4:2.8) ------------------


def _cancelled(history: Sequence[Transition], i: int) -> set[str]:
    """The cards that plays since the last resolve named as the card they cancel."""
    names: set[str] = set()
    for t in reversed(history[:i]):
        if t.kind == "resolve" and t.accepted:
            break
        if t.kind == "play" and t.accepted and "card" in (t.action.get("targets") or {}):
            names.add(t.action["targets"]["card"])
    return names


def _stack(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    return list(view.get("being_played") or [])


def _resolved(t: Transition) -> list[str]:
    before = [e["card"] for e in _stack(t.before)]
    after = [e["card"] for e in _stack(t.after)]
    return gained(after, before)


def played_card_leaves_hand(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.7: to play a card, its player takes it from their hand."""
    t = history[i]
    player, card = t.action.get("player"), t.action.get("card")
    if hand(t.after, player).count(card) >= hand(t.before, player).count(card):
        return f"{card!r} stayed in {player}'s hand while it was played"
    return None


def played_card_waits(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.7: a card played is being played (others may answer it) until every player
    has passed; it does not resolve at once."""
    t = history[i]
    card = t.action.get("card")
    if card not in [e["card"] for e in _stack(t.after)]:
        return f"{card!r} was resolved the moment it was played, before anyone could answer it"
    return None


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


def _board(view: Mapping[str, Any]) -> dict[str, Any]:
    """What card effects change: units, laws, planets (exhausted or readied), the speaker,
    tokens, trade goods, secret objectives and promissory notes."""
    return {"units": view.get("units"), "laws": view.get("laws"),
            "planets": view.get("planets"), "speaker": view.get("speaker"),
            "players": {p: (e.get("command_tokens"), e.get("trade_goods"),
                            e.get("secret_objectives"), e.get("promissory_notes"))
                        for p, e in view["players"].items()}}


def cancelled_card_has_no_effect(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.8: a resolution in which every card but the cancellers was cancelled changes
    nothing on the board."""
    t = history[i]
    cancelled = _cancelled(history, i)
    stack = [e["card"] for e in _stack(t.before)]
    others = [c for c in stack if c != SABOTAGE]
    if not others or any(c not in cancelled for c in others):
        return None
    if _board(t.before) != _board(t.after):
        return f"cancelled {others} took effect anyway"
    return None


def _was_cancelled(history: Sequence[Transition], j: int) -> bool:
    """Whether the accepted play ``history[j]`` was cancelled before it resolved."""
    card = history[j].action.get("card")
    for t in history[j + 1:]:
        if t.kind == "resolve" and t.accepted:
            return False
        if (t.kind == "play" and t.accepted
                and (t.action.get("targets") or {}).get("card") == card):
            return True
    return False


def same_name_once(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.6.2: a card may not be played while another of its name, played in the same
    occurrence of the same window on the same thing (by the same player, for a card that
    names no target), counts as played; a cancelled one does not. Component actions are
    left to their own rule (one per turn)."""
    t = history[i]
    card, player = t.action.get("card"), t.action.get("player")
    targets = t.action.get("targets") or {}
    if card in _component_actions():
        return None
    for j in range(i - 1, -1, -1):
        earlier = history[j]
        if earlier.accepted and earlier.kind in ("window", "end_turn"):
            return None
        if card == SABOTAGE and earlier.accepted and earlier.kind == "resolve":
            return None
        if (earlier.kind == "play" and earlier.accepted
                and earlier.action.get("card") == card
                and (earlier.action.get("targets") or {}) == targets
                and (targets or earlier.action.get("player") == player)
                and not _was_cancelled(history, j)):
            return (f"a second {card!r} was allowed in one timing window on the same thing "
                    f"(the first: '{earlier.text}')")
    return None


def second_copy_refused(history: Sequence[Transition], i: int) -> str | None:
    """ti4:note-6: a player whose card was cancelled may play a second copy of it. Judges a
    *refused* play, so it rules out every other reason: the same play (player, card,
    targets) was accepted in this window, no card of its name has been played since, the
    player still holds a copy and owes no decision. Component actions
    are left to their own rule (a cancelled one does not use the action: ti4:22.4)."""
    t = history[i]
    card, player = t.action.get("card"), t.action.get("player")
    if card in _component_actions() or card == SABOTAGE or card not in hand(t.before, player):
        return None
    if any(p.get("player") == player for p in t.before.get("pending") or ()):
        return None
    for j in range(i - 1, -1, -1):
        earlier = history[j]
        if not earlier.accepted or earlier.kind not in ("play", "window", "end_turn"):
            continue  # a refusal, a resolution, a draw or an answer changes no window
        if earlier.kind == "play" and earlier.action.get("card") != card:
            continue  # a Sabotage, or a card of another name (2.6.2 counts names)
        if (earlier.kind == "play" and earlier.action == t.action
                and _was_cancelled(history, j)):
            return (f"{player}'s second {card!r} was refused after the first was cancelled "
                    f"(the first: '{earlier.text}')")
        return None
    return None


def sabotage_refused(history: Sequence[Transition], i: int) -> str | None:
    """ti4:2.6: a Sabotage is played when another player plays an action card other than a
    Sabotage. Judges a *refused* Sabotage, so it rules out every other reason: the player
    holds it and owes no decision, and the card it answers is another player's, is being
    played, is no Sabotage, and no Sabotage answers it yet."""
    t = history[i]
    player = t.action.get("player")
    if t.action.get("card") != SABOTAGE or SABOTAGE not in hand(t.before, player):
        return None
    if any(p.get("player") == player for p in t.before.get("pending") or ()):
        return None
    wanted = (t.action.get("targets") or {}).get("card")
    stack = _stack(t.before)
    target = next((e for e in reversed(stack) if wanted in (None, e["card"])), None)
    if target is None or target["player"] == player or target["card"] == SABOTAGE:
        return None
    if target["card"] in _cancelled(history, i):
        return None
    return (f"{player}'s Sabotage was refused while {target['player']}'s "
            f"{target['card']!r} was being played")


DIAGNOSTICS = (
    Diagnostic("starting-hand", starting_hands),
    Diagnostic("starting-hand", starting_hands, rejected=True),
    # Before the hand limit's, the draw's and the deal's: a slip in a Neural Motivator or
    # Scheming draw shows in counts and orders those judge for everyone else.
    Diagnostic("scheming", scheming, DRAWS),
    Diagnostic("neural-motivator", neural_motivator_deal, frozenset({"status_draw"})),
    Diagnostic("neural-motivator", neural_motivator_resumed, frozenset({"choose"})),
    Diagnostic("discard-event", discard_is_an_event, frozenset({"choose"})),
    Diagnostic("hand-limit", hand_limit),
    Diagnostic("hand-limit", hand_limit, rejected=True),
    Diagnostic("hand-limit-modifier", modified_hand_limit),
    Diagnostic("hand-limit-modifier", modified_hand_limit, rejected=True),
    Diagnostic("draw-from-top", draw_from_top, DRAWS),
    Diagnostic("status-draw", status_phase_deals, frozenset({"status_draw"})),
    Diagnostic("deal-order", deal_order, frozenset({"status_draw"})),
    Diagnostic("deal-waits", deal_waits, DEALS),
    Diagnostic("politics-draw", politics_draws_two, POLITICS),
    Diagnostic("politics-draw", politics_deal_order, frozenset({"politics"})),
    Diagnostic("reshuffle", reshuffled, DRAWS),
    Diagnostic("reshuffle", reshuffled_after_the_wait, frozenset({"choose"})),
    Diagnostic("draw-from-top", cards_conserved, DRAWS),
    Diagnostic("played-card-leaves-hand", played_card_leaves_hand, frozenset({"play"})),
    Diagnostic("played-card-waits", played_card_waits, frozenset({"play"})),
    Diagnostic("same-name", same_name_once, frozenset({"play"})),
    Diagnostic("sabotage-window", sabotage_refused, frozenset({"play"}), rejected=True),
    Diagnostic("second-copy", second_copy_refused, frozenset({"play"}), rejected=True),
    Diagnostic("played-card-discarded", played_card_discarded, frozenset({"resolve"})),
    Diagnostic("cancelled-card-discarded", cancelled_card_discarded, frozenset({"resolve"})),
    Diagnostic("cancelled-card-no-effect", cancelled_card_has_no_effect,
               frozenset({"resolve"})),
)
