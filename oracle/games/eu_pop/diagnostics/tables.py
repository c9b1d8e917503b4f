"""EU diagnostics of what lies before a player: Display Cards (6.2.display), characters
(6.characters, 6.action-cards.8) and Phase 5, Step C (6.cards-in-hand.2, 4.5.c)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from oracle.games.eu_pop.diagnostics.reading import (
    FACTS,
    HAND_LIMIT,
    _all_discarded,
    _characters,
    _charges,
    _display,
    _display_pending,
    _keeps,
    _resolved,
)
from oracle.scenario.diagnosis import (
    Transition,
    contains,
    gained,
    hand,
)


def _placed_displays(history: Sequence[Transition], i: int) -> list[tuple[str, str]]:
    """(player, card) of each Display Card that ``history[i]`` should leave on display: those
    a resolve resolves (not countered), and, on the choice of a third Display Card's
    player, the card whose play asked it (6.2.display.10 does not say whether the third card
    is placed before or after the discard: either way it is on display once chosen)."""
    t = history[i]
    if t.kind == "resolve":
        return [(p.action["player"], p.action["card"])
                for p, countered in _resolved(history, i)
                if p.kind == "play" and not countered
                and "display" in FACTS[p.action["card"]].kinds]
    if t.kind != "choose" or "discard" not in (t.action.get("choose") or {}):
        return []
    player = t.action.get("player")
    asked = next((j for j in range(i - 1, -1, -1) if history[j].kind == "resolve"
                  and history[j].accepted and _display_pending(history[j].after, player)), None)
    if asked is None:
        return []
    return [(who, card) for who, card in _placed_displays(history, asked) if who == player]


def display_placed(history: Sequence[Transition], i: int) -> str | None:
    """6.2.display.2: a Display Card that resolves is placed on display, fully charged (a third
    one at the latest once its player has chosen the card to discard)."""
    t = history[i]
    for player, card in _placed_displays(history, i):
        if len(_display(t.before, player)) >= 2 and card in _all_discarded(t):
            continue  # a third Display Card discarded: 6.2.display.10 says whether rightly
        if t.kind == "resolve" and _display_pending(t.after, player) and _charges(
                t.after, player, card) is None:
            continue  # placed once the card to discard is chosen (6.2.display.10)
        charges = _charges(t.after, player, card)
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
        placed = [d["card"] for d in _display(t.after, player)]
        if len(older) < 2 or (card not in placed and card not in _all_discarded(t)):
            continue  # not placed at all: 6.2.display.2
        if not _display_pending(t.after, player):
            return f"{player} played a third Display Card {card!r} and is not asked to discard 1"
        if not contains(placed, older):
            return f"{player}'s Display Cards {older} were discarded before {player} chose"
    return None


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


def limit_only_in_step_c(history: Sequence[Transition], i: int) -> str | None:
    """6.cards-in-hand.2: the hand limit is checked only in Phase 5, Step C. The set-up's
    hold asks each player to keep cards too (up to 4, 3.0.4#4, its own count): a keep down to
    the limit of 5 demanded there is the limit checked outside Step C."""
    t = history[i]
    if t.kind == "setup_hold":
        held = {p.get("player") for p in t.before.get("pending") or ()
                if p.get("decision") == "keep"}
        at_limit = sorted(p.get("player") for p in t.after.get("pending") or ()
                          if p.get("decision") == "keep" and p.get("player") not in held
                          and int(p.get("count", -1)) == HAND_LIMIT)
        if at_limit:
            return (f"{at_limit} must keep {HAND_LIMIT}, the hand limit, at the set-up's "
                    "hold, outside Phase 5, Step C")
        return None
    if t.kind == "discard_down" and t.before.get("phase") != "cleanup":
        return f"Step C was carried out in the {t.before.get('phase')} phase"
    if t.kind != "discard_down":
        new = _keeps(t.after) - _keeps(t.before)
        in_step_c = (t.kind == "choose" and t.before.get("phase") == "cleanup"
                     and t.action.get("player") in _keeps(t.before))
        if new and not in_step_c:  # (Step C may ask the players one after another)
            return f"{sorted(new)} must discard down outside Phase 5, Step C"
    return None


def step_c_asks_every_player(history: Sequence[Transition], i: int) -> str | None:
    """4.5.c.1: in Step C the players with more than 5 cards in hand must discard down to
    5, and nobody with 5 or fewer in all (Display Cards included, see 4.5.c.3) discards.
    "All players must discard down" says no order: an engine may ask them all at once or
    one after another, so only one of them need be asked at first (the scenarios follow
    the others' turns)."""
    t = history[i]
    asked = _keeps(t.after)
    over = []
    for name, entry in t.after["players"].items():
        count = int(entry["hand"]["count"])
        if count > HAND_LIMIT:
            over.append(f"{name} holds {count} cards")
        if count + len(entry["display"]) <= HAND_LIMIT and name in asked:
            return f"{name} holds {count} cards and is asked to discard"
    if over and not asked:
        return f"{' and '.join(over)} and nobody is asked to discard down to 5"
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
