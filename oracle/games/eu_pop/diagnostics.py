"""What any EU action must do whatever the scenario: the checks that charge the right rule.

Each diagnostic stands for one concept, which ``features/eu-pop/game.yaml`` maps to the rule
that states it (``oracle.scenario.diagnosis`` explains how a failed scenario is charged).
They are conservative on purpose: each checks only what its rule says for *every* accepted
action of its kinds, read from the referee's views before and after (docs/protocol.md, EU),
so that a slip in another rule never trips it. Where two rules share an action (a card that
resolves is discarded, 6.action-cards.6; onto its own deck's pile, 6.decks.2), each checks
only its own part.

Costs, charges and die icons are the card facts' (``features/eu-pop/cards.yaml``), the same
facts the scenarios are written from.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from oracle.games.eu_pop.cards import ANY_DIE, DECKS, CardFact, card_facts_by_name
from oracle.scenario.diagnosis import (
    Diagnostic,
    Transition,
    contains,
    discard_pile,
    draw_pile,
    gained,
    hand,
)

COUNTERESPIONAGE = "Counterespionage"
PLAY_BATTLE_ACTIONS = "Play Battle Actions"
HAND_LIMIT = 5
PLAYS = frozenset({"play", "use"})
FACTS: dict[str, CardFact] = card_facts_by_name()


def _player(view: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    return view["players"][name]


def _power(view: Mapping[str, Any], name: str) -> dict[str, int]:
    return {d: int(_player(view, name)["power"][d]) for d in DECKS}


def _display(view: Mapping[str, Any], name: str) -> list[Mapping[str, Any]]:
    return list(_player(view, name)["display"])


def _charges(view: Mapping[str, Any], name: str, card: str) -> int | None:
    return next((int(d["charges"]) for d in _display(view, name) if d["card"] == card), None)


def _reduction(view: Mapping[str, Any], name: str, kind: str) -> int:
    return int((_player(view, name).get("cost_reductions") or {}).get(kind, 0))


def _discarded(t: Transition) -> dict[str, list[str]]:
    """Per deck, the cards its discard pile gained in a transition."""
    return {d: gained(discard_pile(t.before, d), discard_pile(t.after, d)) for d in DECKS}


def _all_discarded(t: Transition) -> list[str]:
    return [c for cards in _discarded(t).values() for c in cards]


# -- what resolved, and what was countered --------------------------------------------------------


def _stack(history: Sequence[Transition], i: int) -> list[Transition]:
    """The accepted plays and uses since the last resolve before ``history[i]``: the cards
    being played, bottom first."""
    out: list[Transition] = []
    for t in reversed(history[:i]):
        if t.kind == "resolve" and t.accepted:
            break
        if t.kind in PLAYS and t.accepted:
            out.append(t)
    return out[::-1]


def _name(t: Transition) -> str:
    return str(t.action.get("action") or t.action.get("card"))


def _countered(stack: list[Transition]) -> set[int]:
    """Which plays of the stack a Counterespionage countered: resolved from the top, a
    Counterespionage that was not itself countered counters the card or Action it names (the
    latest of that name below it), or else the play just below it."""
    out: set[int] = set()
    for top in range(len(stack) - 1, -1, -1):
        t = stack[top]
        if top in out or t.kind != "play" or t.action.get("card") != COUNTERESPIONAGE:
            continue
        wanted = (t.action.get("targets") or {}).get("card")
        below = [j for j in range(top) if wanted is None or _name(stack[j]) == wanted]
        if below:
            out.add(below[-1])
    return out


def _resolved(history: Sequence[Transition], i: int) -> list[tuple[Transition, bool]]:
    """The plays a resolve resolved (those no longer being played), each with whether it was
    countered."""
    t = history[i]
    stack = _stack(history, i)
    left = len(t.after.get("being_played") or [])
    countered = _countered(stack)
    return [(p, j in countered) for j, p in enumerate(stack) if j >= left]


# -- decks and discard piles -------------------------------------------------------------------


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
    if len(top) < n and len(old) > 5 and new != old[:5]:
        return f"the rebuilt deck left {new} as the discard pile, not the top 5 {old[:5]}"
    return None


def rebuilt_whole(history: Sequence[Transition], i: int) -> str | None:
    """6.decks.5: a discard pile of 5 or fewer cards is shuffled whole into the new deck."""
    top, old, new, n = _rebuild(history[i])
    if len(top) < n and 0 < len(old) <= 5 and new:
        return f"a discard pile of {len(old)} card(s) was not shuffled whole: {new} stayed"
    return None


def discarded_on_own_pile(history: Sequence[Transition], i: int) -> str | None:
    """6.decks.2: a discarded card goes face up on top of the pile of its own deck."""
    t = history[i]
    for deck in DECKS:
        old, new = discard_pile(t.before, deck), discard_pile(t.after, deck)
        if not contains(new, old):
            return f"the {deck} discard pile lost {gained(new, old)}"
        added = gained(old, new)
        stray = [c for c in added if c in FACTS and FACTS[c].deck != deck]
        if stray:
            return f"{stray} went onto the {deck} discard pile, not their own deck's"
        if added and new[len(added):] != old:
            return f"{added} did not go on top of the {deck} discard pile: it is {new}"
    return None


# -- playing, resolving, countering ---------------------------------------------------------------


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


def _effect(play: Transition) -> int:
    fact = FACTS[play.action["card"]]
    if play.kind == "use":
        listed = fact.action(play.action["action"])
        return listed.effect_ducats if listed else 0
    return fact.effect_ducats


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


# -- costs ------------------------------------------------------------------------------------


def _cost(t: Transition) -> tuple[str, int, int]:
    fact = FACTS[t.action["card"]]
    if t.kind == "use":
        listed = fact.action(t.action["action"])
        if listed is None:
            raise KeyError(t.action["action"])
        return listed.power, listed.cost, 0
    return fact.deck, fact.cost, fact.ducats


def _spent(t: Transition, player: str) -> dict[str, int]:
    before, after = _power(t.before, player), _power(t.after, player)
    spent = {d: before[d] - after[d] for d in DECKS}
    spent["ducats"] = int(_player(t.before, player)["ducats"]) - int(
        _player(t.after, player)["ducats"])
    return spent


def cost_of_deck_type(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.3: a card costs the Monarch Power printed on it, of its deck's type only."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    kind, cost, _ducats = _cost(t)
    spent = _spent(t, player)
    others = {d: n for d, n in spent.items() if d not in (kind, "ducats") and n}
    if others:
        return f"playing {card!r} ({kind} deck) took {others} of other Monarch Power"
    if not _reduction(t.before, player, kind) and spent[kind] != cost:
        return f"playing {card!r} took {spent[kind]} {kind} power; it costs {cost}"
    return None


def ducat_cost(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.4: a card's Ducat cost is paid when it is played (and no other)."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    ducats = _cost(t)[2]
    spent = _spent(t, player)["ducats"]
    if not _reduction(t.before, player, "ducats") and spent != ducats:
        return f"playing {card!r} took {spent} Ducats; its Ducat cost is {ducats}"
    return None


def cost_never_below_zero(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.5: a reduced cost is the printed cost less the reduction, never below
    0: nothing is gained by playing a card or taking an Action."""
    t = history[i]
    player = t.action["player"]
    spent = _spent(t, player)
    gains = {k: -n for k, n in spent.items() if n < 0}
    if gains:
        return f"{player} gained {gains} by playing {_name(t)!r}"
    kind, cost, ducats = _cost(t)
    for key, amount in ((kind, cost), ("ducats", ducats)):
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


# -- Display Cards ----------------------------------------------------------------------------


def display_placed(history: Sequence[Transition], i: int) -> str | None:
    """6.2.display.2: a Display Card that resolves is placed on display, fully charged."""
    t = history[i]
    for play, countered in _resolved(history, i):
        card = play.action["card"]
        if play.kind != "play" or countered or "display" not in FACTS[card].kinds:
            continue
        if len(_display(t.before, play.action["player"])) >= 2:
            continue  # a third Display Card: 6.2.display.10 says what happens
        charges = _charges(t.after, play.action["player"], card)
        if charges != FACTS[card].charges:
            where = "not on display" if charges is None else f"on display with {charges}"
            return f"{card!r} resolved and is {where}; it shows {FACTS[card].charges} squares"
    return None


def charges_spent(history: Sequence[Transition], i: int) -> str | None:
    """6.2.display.7: taking an Action removes the charges it says (1 unless it says more)."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    listed = FACTS[card].action(t.action["action"])
    before, after = _charges(t.before, player, card), _charges(t.after, player, card)
    if listed is None or before is None:
        return None
    if after is not None and after != before - listed.uses:
        return (f"{card!r} had {before} charge(s); {listed.name!r} spends {listed.uses}, and "
                f"it has {after}")
    if after is None and before < listed.uses:
        return f"{card!r} had {before} charge(s) and {listed.name!r} spends {listed.uses}"
    return None


def empty_display_discarded(history: Sequence[Transition], i: int) -> str | None:
    """6.2.display.8: a Display Card whose last charge is spent is discarded."""
    t = history[i]
    for name in t.after["players"]:
        spent = [d["card"] for d in _display(t.after, name) if int(d["charges"]) <= 0]
        if spent:
            return f"{name}'s {spent} have no charge left and are still on display"
    if t.kind == "use":
        player, card = t.action["player"], t.action["card"]
        listed = FACTS[card].action(t.action["action"])
        before, after = _charges(t.before, player, card), _charges(t.after, player, card)
        if listed and before is not None and after is None:
            if before - listed.uses > 0:
                return f"{card!r} left play with {before - listed.uses} charge(s) left"
            if card not in _all_discarded(t):
                return f"{card!r} spent its last charge and was not discarded"
    return None


def _display_pending(view: Mapping[str, Any], name: str) -> bool:
    return any(p.get("player") == name and p.get("decision") == "discard"
               for p in view.get("pending") or [])


def display_limit(history: Sequence[Transition], i: int) -> str | None:
    """6.2.display.9: never 2 of the same card in play, and at most 2 once any discard the
    player owes is made."""
    t = history[i]
    for name in t.after["players"]:
        cards = [d["card"] for d in _display(t.after, name)]
        twice = [c for c, n in Counter(cards).items() if n > 1]
        if twice:
            return f"{name} has {twice} twice on display"
        if len(cards) > 2 and not _display_pending(t.after, name) and t.kind == "choose":
            return f"{name} has {len(cards)} Display Cards in play"
    return None


def third_display_asks(history: Sequence[Transition], i: int) -> str | None:
    """6.2.display.10: playing a Display Card with 2 in play asks its player to discard 1 of
    the cards in play; until then both stay."""
    t = history[i]
    for play, countered in _resolved(history, i):
        card, player = play.action["card"], play.action["player"]
        if play.kind != "play" or countered or "display" not in FACTS[card].kinds:
            continue
        older = [d["card"] for d in _display(t.before, player)]
        if len(older) < 2:
            continue
        if not _display_pending(t.after, player):
            return f"{player} played a third Display Card {card!r} and is not asked to discard 1"
        if not contains([d["card"] for d in _display(t.after, player)], older):
            return f"{player}'s Display Cards {older} were discarded before {player} chose"
    return None


# -- characters --------------------------------------------------------------------------------


def _characters(view: Mapping[str, Any], name: str) -> dict[str, list[str]]:
    entry = _player(view, name)
    return {"advisor": list(entry["advisors"]), "leader": list(entry["leaders"])}


def appointed(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.8: appointing uses the card for its character: it leaves the hand for
    the player's characters, and is not discarded."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    if hand(t.after, player).count(card) >= hand(t.before, player).count(card):
        return f"appointed {card!r} stayed in {player}'s hand"
    if card in _all_discarded(t):
        return f"appointed {card!r} was discarded"
    new = [c for role in ("advisor", "leader") for c in gained(
        _characters(t.before, player)[role], _characters(t.after, player)[role])]
    if card not in new:
        return f"appointed {card!r} is not among {player}'s characters"
    return None


def character_role(history: Sequence[Transition], i: int) -> str | None:
    """6.characters.1: a card depicts a Leader or an Advisor, and is appointed as that."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    role = FACTS[card].character
    got = gained(_characters(t.before, player)[role], _characters(t.after, player)[role])
    if card not in got:
        return f"{card!r} depicts a {role} and was not appointed as one"
    return None


def plays_appoint_nobody(history: Sequence[Transition], i: int) -> str | None:
    """6.characters.2: only the Appoint Advisor/Leader Action makes a character serve."""
    t = history[i]
    for name in t.after["players"]:
        if _characters(t.before, name) != _characters(t.after, name):
            return f"{name}'s characters changed without an Appoint Action"
    return None


# -- Phase 5, Step C ---------------------------------------------------------------------------


def _keeps(view: Mapping[str, Any]) -> set[str]:
    return {p.get("player") for p in view.get("pending") or [] if p.get("decision") == "keep"}


def limit_only_in_step_c(history: Sequence[Transition], i: int) -> str | None:
    """6.cards-in-hand.2: the hand limit is checked only in Phase 5, Step C."""
    t = history[i]
    if t.kind == "discard_down" and t.before.get("phase") != "cleanup":
        return f"Step C was carried out in the {t.before.get('phase')} phase"
    if t.kind != "discard_down":
        new = _keeps(t.after) - _keeps(t.before)
        if new:
            return f"{sorted(new)} must discard down outside Phase 5, Step C"
    return None


def step_c_asks_every_player(history: Sequence[Transition], i: int) -> str | None:
    """4.5.c.1: in Step C every player with more than 5 cards in hand must discard down to
    5, and nobody with 5 or fewer in all (Display Cards included, see 4.5.c.3) discards."""
    t = history[i]
    asked = _keeps(t.after)
    for name, entry in t.after["players"].items():
        count = int(entry["hand"]["count"])
        if count > HAND_LIMIT and name not in asked:
            return f"{name} holds {count} cards and is not asked to discard down to 5"
        if count + len(entry["display"]) <= HAND_LIMIT and name in asked:
            return f"{name} holds {count} cards and is asked to discard"
    for pending in t.after.get("pending") or []:
        shown = _display(t.after, pending.get("player"))
        if (pending.get("decision") == "keep" and pending.get("count") != HAND_LIMIT
                and pending.get("count") != HAND_LIMIT - len(shown)):
            return f"{pending.get('player')} is asked to keep {pending.get('count')}, not 5"
    return None


def displays_not_counted(history: Sequence[Transition], i: int) -> str | None:
    """4.5.c.3: Display Cards in play do not count towards the limit."""
    t = history[i]
    for name, entry in t.after["players"].items():
        count, shown = int(entry["hand"]["count"]), len(entry["display"])
        if _display(t.before, name) != list(entry["display"]):
            return f"{name}'s Display Cards changed in Step C"
        if count <= HAND_LIMIT < count + shown and name in _keeps(t.after):
            return (f"{name} holds {count} cards (and {shown} on display) and is asked to "
                    "discard")
    for pending in t.after.get("pending") or []:
        shown = len(_display(t.after, pending.get("player")))
        if (pending.get("decision") == "keep" and shown
                and pending.get("count") == HAND_LIMIT - shown):
            return (f"{pending.get('player')}, with {shown} Display Card(s), is asked to keep "
                    f"{pending.get('count')}, not 5")
    return None


def kept_what_was_chosen(history: Sequence[Transition], i: int) -> str | None:
    """4.5.c.2: the player keeps exactly the cards they chose."""
    t = history[i]
    choice, player = t.action.get("choose") or {}, t.action.get("player")
    if "keep" not in choice:
        return None
    if Counter(hand(t.after, player)) != Counter(choice["keep"]):
        return f"{player} chose to keep {choice['keep']} and holds {hand(t.after, player)}"
    return None


# -- Battles -----------------------------------------------------------------------------------


def _side_dice(view: Mapping[str, Any], player: str) -> list[str]:
    battle = view["battle"]
    side = "attackers" if player in battle["attackers"] else "defenders"
    return list(battle["dice"][side])


def _icons(play: Transition) -> tuple[str, ...]:
    fact = FACTS[play.action["card"]]
    if play.kind == "use":
        listed = fact.action(play.action["action"])
        return listed.dice if listed else ()
    return fact.dice


def _side(view: Mapping[str, Any], player: str) -> str:
    battle = view["battle"]
    for side in ("attackers", "defenders"):
        if player in battle[side]:
            return side
    raise KeyError(f"{player} is in no side of the Battle")


def _in_play_step(view: Mapping[str, Any]) -> bool:
    battle = view.get("battle")
    return bool(battle) and battle.get("step") == PLAY_BATTLE_ACTIONS


def dice_per_icon(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.5: a Battle Action card adds one die of each type it shows."""
    t = history[i]
    if not _in_play_step(t.before) or not t.after.get("battle"):
        return None
    for play, countered in _resolved(history, i):
        fixed = [d for d in _icons(play) if d != ANY_DIE]
        if countered or not fixed or play.kind != "play":
            continue
        player = play.action["player"]
        _side(t.before, player)
        got = gained(_side_dice(t.before, player), _side_dice(t.after, player))
        if not contains(got, fixed) or (len(got) > len(_icons(play))
                                        and ANY_DIE not in _icons(play)):
            return f"{_name(play)!r} shows {fixed} (and '?' icons) and added {got}"
    return None


def _used_this_round(history: Sequence[Transition], i: int, side: list[str],
                     ends: tuple[str, ...] = ("battle_round", "battle_end")) -> list[str]:
    """The Battle Actions the players of ``side`` have used since the Round began (or, with
    ``ends=("battle_end",)``, since the Battle began)."""
    used: list[str] = []
    for t in reversed(history[:i]):
        if t.kind in ends and t.accepted:
            break
        if t.kind in PLAYS and t.accepted and t.action.get("player") in side and any(
                k == "battle_action" for k in _kinds(t)):
            used.append(_name(t))
    return used


def _kinds(t: Transition) -> frozenset[str]:
    fact = FACTS[t.action["card"]]
    if t.kind == "use":
        listed = fact.action(t.action["action"])
        return listed.kinds if listed else frozenset()
    return fact.kinds


def _battle_card(t: Transition) -> bool:
    return t.kind == "play" and "battle_action" in FACTS[t.action["card"]].kinds


def battle_action_moment(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.1: a Battle Action card is played in a Battle's "Play Battle Actions" step."""
    t = history[i]
    if _battle_card(t) and not _in_play_step(t.before):
        battle = t.before.get("battle")
        where = f"the {battle.get('step')!r} step" if battle else "no Battle"
        return f"Battle Action {_name(t)!r} was played in {where}"
    return None


def battle_action_involved(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.2: a Battle Action card is played by a player involved in the Battle."""
    t = history[i]
    battle = t.before.get("battle")
    if _battle_card(t) and battle and t.action["player"] not in (
            [*battle["attackers"], *battle["defenders"]]):
        return f"{t.action['player']}, who is not in the Battle, played {_name(t)!r}"
    return None


def battle_action_once(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.3: a side benefits from one use of a particular Battle Action a Round."""
    t = history[i]
    if not _battle_card(t) or not t.before.get("battle"):
        return None
    side = t.before["battle"][_side(t.before, t.action["player"])]
    if _name(t) in _used_this_round(history, i, list(side)):
        return f"{t.action['player']}'s side used {_name(t)!r} twice in one Round of Battle"
    return None


def _affordable(t: Transition) -> bool:
    """Could the player pay the card's printed cost (reduced, never below 0)?"""
    player = t.action["player"]
    kind, cost, ducats = _cost(t)
    have = _power(t.before, player)[kind]
    return (have >= max(0, cost - _reduction(t.before, player, kind))
            and int(_player(t.before, player)["ducats"])
            >= max(0, ducats - _reduction(t.before, player, "ducats")))


def _free_to_play(t: Transition) -> bool:
    """The card is in its player's hand, they can pay for it and owe no decision."""
    player = t.action["player"]
    owes = any(p.get("player") == player for p in t.before.get("pending") or [])
    return t.action["card"] in hand(t.before, player) and _affordable(t) and not owes


def _counter_target(view: Mapping[str, Any], targets: Mapping[str, Any]
                    ) -> Mapping[str, Any] | None:
    wanted = targets.get("card")
    for entry in reversed(view.get("being_played") or []):
        if wanted is None or wanted in (entry.get("card"), entry.get("action")):
            return entry
    return None


def _is_covert(entry: Mapping[str, Any]) -> bool:
    fact = FACTS[entry["card"]]
    if entry.get("action"):
        listed = fact.action(entry["action"])
        return bool(listed) and "covert" in listed.kinds
    return "covert" in fact.kinds


def counter_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.2.covert.2: a Covert Action being played, a card or an Action on a Display Card, can
    be countered by Counterespionage (refused: held, paid for, aimed at a Covert Action)."""
    t = history[i]
    if t.action["card"] != COUNTERESPIONAGE or not _free_to_play(t):
        return None
    target = _counter_target(t.before, t.action.get("targets") or {})
    if target is not None and _is_covert(target):
        aimed = target.get("action") or target["card"]
        return f"Counterespionage aimed at Covert Action {aimed!r} was refused"
    return None


def appoint_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.7: every Action Card is dual-purpose: any card can be appointed (refused
    although its player holds it, it is their Turn of the Action Phase and nothing is being
    played or owed)."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    owes = any(p.get("player") == player for p in t.before.get("pending") or [])
    if (card in hand(t.before, player) and t.before.get("phase") == "action"
            and t.before.get("active_player") == player and not owes
            and not t.before.get("being_played")):
        return f"{player} was refused appointing {card!r}, which they hold, in their Turn"
    return None


def reaction_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.2.reactions.1: a Reaction card is played at any moment, on any Turn (refused: the
    rule was not applied). Counterespionage, which needs a Covert Action to answer, is not
    judged."""
    t = history[i]
    card = t.action["card"]
    if ("reaction" in FACTS[card].kinds and card != COUNTERESPIONAGE and _free_to_play(t)):
        return f"Reaction {card!r} held by {t.action['player']}, who can pay for it, was refused"
    return None


def battle_card_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.2: a player involved in the Battle plays a Battle Action card in its "Play
    Battle Actions" step, on anyone's Turn (refused although nothing else forbids it: the card
    is theirs and paid for, their side has not used it this Round, a type is chosen for each
    "?" icon)."""
    side = _refused_battle_card(history, i)
    if side is None or _name(history[i]) in _used_this_round(history, i, side, ("battle_end",)):
        return None
    return f"{history[i].action['player']}, in the Battle, was refused Battle Action " \
        f"{_name(history[i])!r}"


def _refused_battle_card(history: Sequence[Transition], i: int) -> list[str] | None:
    """The player's side, if ``history[i]`` is a Battle Action card that nothing forbids:
    held and paid for, played in the "Play Battle Actions" step by a player in the Battle,
    unused by their side this Round, a type chosen for each "?" icon."""
    t = history[i]
    if not _battle_card(t) or not _in_play_step(t.before) or not _free_to_play(t):
        return None
    side = list(t.before["battle"][_side(t.before, t.action["player"])])
    chosen = (t.action.get("targets") or {}).get("dice") or []
    if (_name(t) in _used_this_round(history, i, side)
            or len(chosen) != list(_icons(t)).count(ANY_DIE)):
        return None
    return side


def battle_card_refused_next_round(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.3: the one use is per Round: a Battle Action card the side used in an
    earlier Round of the Battle is played again in a new Round (refused although nothing
    else forbids it)."""
    side = _refused_battle_card(history, i)
    if side is None or _name(history[i]) not in _used_this_round(history, i, side,
                                                                  ("battle_end",)):
        return None
    return f"{_name(history[i])!r}, used in an earlier Round, was refused in a new Round"


def chosen_die(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.6: a "?" die icon adds a die of the type its player chose."""
    t = history[i]
    if not t.before.get("battle") or not t.after.get("battle"):
        return None
    for play, countered in _resolved(history, i):
        chosen = list((play.action.get("targets") or {}).get("dice") or [])
        if countered or ANY_DIE not in _icons(play) or not chosen:
            continue
        got = gained(_side_dice(t.before, play.action["player"]),
                     _side_dice(t.after, play.action["player"]))
        if not contains(got, chosen):
            return f"{_name(play)!r} was played choosing {chosen} and added {got}"
        fixed = [d for d in _icons(play) if d != ANY_DIE]
        alone = len(_resolved(history, i)) == 1
        if alone and contains(got, fixed) and len(got) > len(fixed) + len(chosen):
            return f"{_name(play)!r} was played choosing {chosen} and added {got}"
    return None


def dice_stay(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.4: dice gained from Battle Actions stay in the pool for the whole Battle."""
    t = history[i]
    before, after = t.before.get("battle"), t.after.get("battle")
    if not before or not after:
        return None
    for side in ("attackers", "defenders"):
        if not contains(list(after["dice"][side]), list(before["dice"][side])):
            return f"the {side} lost Battle Dice when the Battle went on"
    return None


def _every_kind_but(*kinds: str) -> frozenset[str]:
    return frozenset({"draw", "play", "use", "resolve", "appoint", "end_turn", "choose",
                      "discard_down", "battle_step", "battle_round", "battle_end"}) - set(kinds)


DIAGNOSTICS = (
    Diagnostic("draw-from-deck", draw_from_deck, frozenset({"draw"})),
    Diagnostic("rebuild-leaves-five", rebuilt_leaving_five, frozenset({"draw"})),
    Diagnostic("rebuild-whole", rebuilt_whole, frozenset({"draw"})),
    Diagnostic("discard-on-own-pile", discarded_on_own_pile, _every_kind_but("draw")),
    Diagnostic("played-card-leaves-hand", played_card_leaves_hand, frozenset({"play"})),
    Diagnostic("cost-of-deck-type", cost_of_deck_type, frozenset({"play"})),
    Diagnostic("ducat-cost", ducat_cost, frozenset({"play"})),
    Diagnostic("cost-never-below-zero", cost_never_below_zero, PLAYS),
    Diagnostic("display-action-cost", display_action_cost, frozenset({"use"})),
    Diagnostic("charges-spent", charges_spent, frozenset({"use"})),
    Diagnostic("empty-display-discarded", empty_display_discarded,
               frozenset({"use", "resolve"})),
    Diagnostic("countered-no-effect", countered_has_no_effect, frozenset({"resolve"})),
    Diagnostic("countered-card-discarded", countered_card_discarded, frozenset({"resolve"})),
    Diagnostic("countered-cost-stays", countered_cost_stays, frozenset({"resolve"})),
    Diagnostic("prevented-uses-spent", prevented_uses_stay_spent, frozenset({"resolve"})),
    Diagnostic("third-display-asks", third_display_asks, frozenset({"resolve"})),
    Diagnostic("display-placed", display_placed, frozenset({"resolve"})),
    Diagnostic("resolved-card-discarded", resolved_card_discarded, frozenset({"resolve"})),
    Diagnostic("card-effect-resolved", card_effect_resolved, frozenset({"resolve"})),
    Diagnostic("action-effect-resolved", action_effect_resolved, frozenset({"resolve"})),
    Diagnostic("display-limit", display_limit, frozenset({"resolve", "choose"})),
    Diagnostic("plays-appoint-nobody", plays_appoint_nobody, frozenset({"play", "resolve"})),
    Diagnostic("appointed", appointed, frozenset({"appoint"})),
    Diagnostic("character-role", character_role, frozenset({"appoint"})),
    Diagnostic("limit-only-in-step-c", limit_only_in_step_c, _every_kind_but()),
    Diagnostic("step-c-asks-every-player", step_c_asks_every_player,
               frozenset({"discard_down"})),
    Diagnostic("displays-not-counted", displays_not_counted, frozenset({"discard_down"})),
    Diagnostic("kept-what-was-chosen", kept_what_was_chosen, frozenset({"choose"})),
    Diagnostic("battle-action-moment", battle_action_moment, frozenset({"play"})),
    Diagnostic("battle-action-involved", battle_action_involved, frozenset({"play"})),
    Diagnostic("battle-action-once", battle_action_once, frozenset({"play"})),
    Diagnostic("appoint-refused", appoint_refused, frozenset({"appoint"}), rejected=True),
    Diagnostic("counter-refused", counter_refused, frozenset({"play"}), rejected=True),
    Diagnostic("reaction-refused", reaction_refused, frozenset({"play"}), rejected=True),
    Diagnostic("battle-card-refused", battle_card_refused, frozenset({"play"}), rejected=True),
    Diagnostic("battle-card-refused-next-round", battle_card_refused_next_round,
               frozenset({"play"}), rejected=True),
    Diagnostic("dice-per-icon", dice_per_icon, frozenset({"resolve"})),
    Diagnostic("chosen-die", chosen_die, frozenset({"resolve"})),
    Diagnostic("dice-stay", dice_stay, frozenset({"battle_step", "battle_round"})),
)
