"""EU diagnostics of decks, plays, resolving, countering and costs (6.decks, 6.action-cards,
6.2.covert); ``oracle.games.eu_pop.diagnostics`` says how they charge a rule."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from oracle.games.eu_pop.cards import DECKS
from oracle.games.eu_pop.diagnostics.reading import (
    FACTS,
    _all_discarded,
    _charges,
    _cost,
    _effect,
    _name,
    _player,
    _power,
    _reduction,
    _resolved,
    _spent,
)
from oracle.scenario.diagnosis import (
    Transition,
    contains,
    discard_pile,
    draw_pile,
    gained,
    hand,
)


def draw_from_deck(history: Sequence[Transition], i: int) -> str | None:
    """6.decks.1: a draw takes the top cards of the deck it names, and of no other deck."""
    t = history[i]
    deck, player = t.action["deck"], t.action["player"]
    n = int(t.action.get("count", 1))
    for other in DECKS:
        if other != deck and (draw_pile(t.before, other) != draw_pile(t.after, other)
                              or discard_pile(t.before, other) != discard_pile(t.after, other)):
            return f"a draw from the {deck} deck changed the {other} deck"
    for name in t.after["players"]:
        if name != player and hand(t.before, name) != hand(t.after, name):
            return f"{player}'s draw changed {name}'s hand"
    drawn = gained(hand(t.before, player), hand(t.after, player))
    top = draw_pile(t.before, deck)
    if n and top and not drawn:
        return f"{player} drew no card from a {deck} deck of {len(top)}"
    if len(top) >= n and Counter(drawn) != Counter(top[:n]):
        return f"{player} drew {sorted(drawn)}, not the top of the {deck} deck {top[:n]}"
    if len(top) < n and not contains(drawn, top):
        return f"{player} drew {sorted(drawn)}, not first the rest of the {deck} deck {top}"
    if len(top) < n and not contains(top + discard_pile(t.before, deck), drawn):
        return f"{player} drew {sorted(drawn)}, which were not in the {deck} deck or its discards"
    return None


def setup_draw_from_decks(history: Sequence[Transition], i: int) -> str | None:
    """6.decks.1: the set-up's draw (3.0 step 4) takes cards from the decks into the
    players' hands: every player whose cards the decks held receives some."""
    t = history[i]
    if not any(draw_pile(t.before, deck) for deck in DECKS):
        return None
    choices = t.action.get("choices") or {}
    empty = [name for name in choices
             if not gained(hand(t.before, name), hand(t.after, name))]
    needed = Counter(deck for decks in choices.values() for deck in decks)
    if empty and all(len(draw_pile(t.before, deck)) >= len(choices) + needed[deck]
                     for deck in DECKS):
        return f"the set-up draw gave {', '.join(empty)} no card"
    return None


def _rebuild(t: Transition) -> tuple[list[str], list[str], list[str], int]:
    deck = t.action["deck"]
    return (draw_pile(t.before, deck), discard_pile(t.before, deck),
            discard_pile(t.after, deck), int(t.action.get("count", 1)))


def rebuilt_leaving_five(history: Sequence[Transition], i: int) -> str | None:
    """6.decks.4: the deck is rebuilt only when a card must be drawn from it, and then the top
    5 discards stay as the discard pile (when there are more than 5)."""
    top, old, new, n = _rebuild(history[i])
    if len(top) >= n and new != old:
        return ("the discard pile changed though the deck held every card drawn: a deck is "
                "rebuilt only when a card must be drawn from it")
    if len(top) < n and len(old) > 5 and not _rebuilt_twice(top, old, n) and new != old[:5]:
        return f"the rebuilt deck left {new} as the discard pile, not the top 5 {old[:5]}"
    return None


def _rebuilt_twice(top: list[str], old: list[str], n: int) -> bool:
    """Whether a draw of ``n`` runs out the deck rebuilt from a pile of more than 5 too: the
    5 discards left are then shuffled whole (6.decks.5). Why: drawing 2 from an empty deck
    over 6 discards ends with an empty discard pile, which 6.decks.4's check read as its top five
    gone, so an engine that never shuffled the five was charged to 6.decks.4 as well as
    6.decks.5 (and the reference engine failed it: tests/styles/eu_values.py)."""
    return len(old) > 5 and n - len(top) > len(old) - 5


def rebuilt_whole(history: Sequence[Transition], i: int) -> str | None:
    """6.decks.5: a discard pile of 5 or fewer cards is shuffled whole into the new deck,
    also the 5 a rebuild left when the draw runs out that deck too."""
    top, old, new, n = _rebuild(history[i])
    if len(top) < n and 0 < len(old) <= 5 and new:
        return f"a discard pile of {len(old)} card(s) was not shuffled whole: {new} stayed"
    if len(top) < n and _rebuilt_twice(top, old, n) and new:
        return (f"the 5 discards a rebuild left were not shuffled whole when the draw ran out "
                f"the new deck too: {new} stayed")
    return None


def discard_as_set_up(history: Sequence[Transition], i: int) -> str | None:
    """6.decks.2: a discard pile is its cards face up, each on top of the last, and the
    protocol lists it top first: before anything happens, the engine shows each discard pile
    the scenario set up as it was set up. (Judged on the first action only, against the
    setup; an engine listing its piles bottom first is charged here once, not under every
    rule whose scenario reads a pile, e.g. 6.decks.4's top five.)"""
    if i != 0:
        return None
    t = history[0]
    for deck, entry in (t.given.get("decks") or {}).items():
        if not isinstance(entry, dict) or not isinstance(entry.get("discard"), list):
            continue
        shown = discard_pile(t.before, deck)
        if shown != entry["discard"]:
            return (f"the {deck} discard pile was set up as {entry['discard']} (top first), "
                    f"and the engine shows it as {shown}")
    return None


def pile_intact(history: Sequence[Transition], i: int) -> str | None:
    """Nothing but a rebuild (a draw, 6.decks.4) takes cards out of a discard pile: no
    sentence of the chapter says so (6.decks.2 speaks of cards going onto a pile), so
    ``governs.yaml`` lists this check as unstated and a card pulled back out of a pile ends
    the scenario error, charged to no rule."""
    t = history[i]
    for deck in DECKS:
        old, new = discard_pile(t.before, deck), discard_pile(t.after, deck)
        if not contains(new, old):
            return f"the {deck} discard pile lost {gained(new, old)} after '{t.text}'"
    return None


def discarded_on_own_pile(history: Sequence[Transition], i: int) -> str | None:
    """6.decks.2: a discarded card goes face up on top of the pile of its own deck (a pile
    that lost cards is ``pile_intact``'s)."""
    t = history[i]
    for deck in DECKS:
        old, new = discard_pile(t.before, deck), discard_pile(t.after, deck)
        if not contains(new, old):
            return None
        added = gained(old, new)
        stray = [c for c in added if c in FACTS and FACTS[c].deck != deck]
        if stray:
            return f"{stray} went onto the {deck} discard pile, not their own deck's"
        if added and new[len(added):] != old:
            return f"{added} did not go on top of the {deck} discard pile: it is {new}"
    return None


def played_card_leaves_hand(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.6: a card played for its Action leaves its player's hand."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    if hand(t.after, player).count(card) >= hand(t.before, player).count(card):
        return f"{card!r} stayed in {player}'s hand while it was played"
    return None


def resolved_card_discarded(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.6: a card played for its Action resolves and is discarded, unless it
    is a Display Card (which is not discarded)."""
    t = history[i]
    discarded = _all_discarded(t)
    for play, countered in _resolved(history, i):
        card = play.action["card"]
        if play.kind != "play" or countered or card not in FACTS:
            continue
        display = "display" in FACTS[card].kinds
        if display and card in discarded:
            return f"Display Card {card!r} resolved and was discarded"
        if not display and card not in discarded:
            return f"{card!r} resolved but was not discarded"
    return None


def countered_card_discarded(history: Sequence[Transition], i: int) -> str | None:
    """6.2.covert.3: a countered card is discarded."""
    t = history[i]
    discarded = _all_discarded(t)
    for play, countered in _resolved(history, i):
        if not countered or play.kind != "play":
            continue
        card, player = play.action["card"], play.action["player"]
        if card not in discarded:
            return f"countered {card!r} was not discarded"
        if card in gained(hand(t.before, player), hand(t.after, player)):
            return f"countered {card!r} went back to {player}'s hand"
    return None


def countered_cost_stays(history: Sequence[Transition], i: int) -> str | None:
    """6.2.covert.3: the cost of a countered card stays paid (nothing gives Monarch Power
    back when cards resolve)."""
    t = history[i]
    for play, countered in _resolved(history, i):
        player = play.action["player"]
        if countered and any(_power(t.after, player)[d] > _power(t.before, player)[d]
                             for d in DECKS):
            return f"{player} got Monarch Power back when {_name(play)!r} was countered"
    return None


def countered_has_no_effect(history: Sequence[Transition], i: int) -> str | None:
    """6.2.covert.2: a countered Covert Action has no effect (its player gains no more Ducats
    than the plays that were not countered give)."""
    t = history[i]
    resolved = _resolved(history, i)
    for play, countered in resolved:
        player = play.action["player"]
        if not countered or not _effect(play):
            continue
        due = sum(_effect(p) for p, c in resolved if not c and p.action["player"] == player)
        if int(_player(t.after, player)["ducats"]) - int(_player(t.before, player)["ducats"]) > due:
            return f"countered {_name(play)!r} still had its effect"
    return None


def _effects_due(history: Sequence[Transition], i: int, player: str, kind: str
                 ) -> tuple[int, bool]:
    """The Ducats the plays of ``kind`` (play/use) that ``player`` resolved should give, and
    whether any play of the other kind of theirs resolved too (then it is not judged)."""
    due, mixed = 0, False
    for play, countered in _resolved(history, i):
        if play.action["player"] != player:
            continue
        if play.kind != kind:
            mixed = mixed or bool(_effect(play))
        elif not countered:
            due += _effect(play)
    return due, mixed


def _effect_resolved(history: Sequence[Transition], i: int, kind: str) -> str | None:
    t = history[i]
    for name in t.after["players"]:
        due, mixed = _effects_due(history, i, name, kind)
        gain = int(_player(t.after, name)["ducats"]) - int(_player(t.before, name)["ducats"])
        if not mixed and gain != due:
            return f"{name} gained {gain} Ducats; what resolved gives {due}"
    return None


def card_effect_resolved(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.6: a card played for its Action resolves its effect (the stand-ins'
    effects give Ducats)."""
    return _effect_resolved(history, i, "play")


def action_effect_resolved(history: Sequence[Transition], i: int) -> str | None:
    """6.2.display.5: an Action on a Display Card works like any other Action: its effect
    resolves."""
    return _effect_resolved(history, i, "use")


def prevented_uses_stay_spent(history: Sequence[Transition], i: int) -> str | None:
    """6.2.covert.4: a prevented Covert Action on a Display Card keeps its uses spent."""
    t = history[i]
    for play, countered in _resolved(history, i):
        if not countered or play.kind != "use":
            continue
        player, card = play.action["player"], play.action["card"]
        before, after = _charges(t.before, player, card), _charges(t.after, player, card)
        if after is not None and (before is None or after > before):
            return f"{card!r} got its charges back when {_name(play)!r} was prevented"
    return None


def effect_waits_for_resolution(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.6 (a card), 6.2.display.5 (an Action): the effect resolves when the
    card resolves, after every Reaction had its chance: playing it gives no Ducats yet."""
    t = history[i]
    player = t.action["player"]
    if _effect(t) and _spent(t, player)["ducats"] < 0:
        return f"{player} gained Ducats when {_name(t)!r} was played, before it resolved"
    return None


def cost_of_deck_type(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.3: a card costs the Monarch Power printed on it, of its deck's type only."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    kind, cost, _ducats = _cost(t)
    spent = _spent(t, player)
    others = {d: n for d, n in spent.items() if d not in (kind, "ducats") and n}
    if others:
        return f"playing {card!r} ({kind} deck) took {others} of other Monarch Power"
    cut = _reduction(t.before, player, kind)
    if not cut and spent[kind] != cost:
        return f"playing {card!r} took {spent[kind]} {kind} power; it costs {cost}"
    if cut and spent[kind] == 0 < cost - cut:
        return f"playing {card!r} took no {kind} power; it costs {cost}, reduced by {cut}"
    return None


def ducat_cost(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.4: a card's Ducat cost is paid when it is played (and no other)."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    ducats = _cost(t)[2]
    spent = _spent(t, player)["ducats"]
    if _effect(t):
        return None  # its effect gives Ducats: 6.action-cards.6 judges when they came
    if not _reduction(t.before, player, "ducats") and spent != ducats:
        return f"playing {card!r} took {spent} Ducats; its Ducat cost is {ducats}"
    return None


def cost_never_below_zero(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.5: a reduced cost is the printed cost less the reduction, never below
    0: nothing is gained by playing a card or taking an Action."""
    t = history[i]
    player = t.action["player"]
    spent = _spent(t, player)
    kind, cost, ducats = _cost(t)
    judged = [(kind, cost)] + ([] if _effect(t) else [("ducats", ducats)])  # see ducat_cost
    gains = {k: -spent[k] for k, _ in judged if spent[k] < 0}
    if gains:
        return f"{player} gained {gains} by playing {_name(t)!r}"
    for key, amount in judged:
        cut = _reduction(t.before, player, key)
        if cut and spent[key] != max(0, amount - cut):
            return (f"{_name(t)!r} costs {amount} {key}, reduced by {cut}: {player} paid "
                    f"{spent[key]}, not {max(0, amount - cut)}")
    return None


def display_action_cost(history: Sequence[Transition], i: int) -> str | None:
    """6.2.display.5: an Action on a Display Card costs the Monarch Power it shows."""
    t = history[i]
    player = t.action["player"]
    kind, cost, _ = _cost(t)
    spent = _spent(t, player)
    others = {d: n for d, n in spent.items() if d != kind and n}
    if others:
        return f"taking {_name(t)!r} took {others}, besides its {kind} power"
    if not _reduction(t.before, player, kind) and spent[kind] != cost:
        return f"taking {_name(t)!r} took {spent[kind]} {kind} power; it costs {cost}"
    return None
