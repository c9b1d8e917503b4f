"""EU invariants on cards and costs: conservation, Monarch Power and Ducats paid, a card
resolved, and the Turn's one Action (also on Display Cards).

Why together: these read the same observation (a play or use, and the wallet before and after
it), and each leaves the cases another rule owns (a cost below 0 is 6.action-cards.5's).
"""

from __future__ import annotations

import re

from oracle.explore import HELD, REJECTED_LINE, Check, Explored
from oracle.games.eu_pop.cards import DECKS, CardFact
from oracle.games.eu_pop.explore.tables import (
    ACTIONS,
    END_LINE,
    FACTS,
    PLAY_LINE,
    PLAYERS,
    USE_LINE,
    _n_cards,
)
from oracle.games.eu_pop.explore.views import (
    View,
    _count,
    _discard,
    _display,
    _display_names,
    _draw_count,
    _ducats,
    _last,
    _player,
    _power,
    _reduction,
    _turn_line,
    _turn_taken,
)
from oracle.games.kit.explore import conserved
from oracle.scenario.world import ScenarioWorld


def _total(view: View) -> int:
    total = sum(_draw_count(view, d) + len(_discard(view, d)) for d in view["decks"])
    for name in view["players"]:
        player = _player(view, name)
        total += int(player["hand"]["count"]) + len(player.get("display") or [])
        total += len(player.get("advisors") or []) + len(player.get("leaders") or [])
    return total + sum(1 for r in view.get("being_played") or [] if not r.get("action"))


def _conserved(explored: Explored) -> Check:
    return conserved(explored, _total(explored.view()), lambda start, now: (
        f"the game had {start} Action Cards (decks, discard piles, hands, displays, "
        f"characters) and now has {now}"))


def _counts_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    lines = []
    for deck in DECKS:
        n = _draw_count(view, deck)
        lines.append(f"the {deck} deck is {_n_cards(n) if n else 'empty'}")
        n = len(_discard(view, deck))
        lines.append(f"the {deck} discard pile is {_n_cards(n) if n else 'empty'}")
    for p in PLAYERS:
        lines.append(f"{p} holds {_n_cards(_count(view, p))}")
        lines.append(f"{p} has {_n_cards(len(_display(view, p)))} on display")
        for role in ("leaders", "advisors"):
            if not _player(view, p).get(role):
                lines.append(f"{p} has no {role}")
    return lines


def _power_kept(explored: Explored) -> Check:
    """Checked in every state; exercised by an accepted play or use (a cost paid)."""
    view = explored.view()
    for p in PLAYERS:
        now = _power(view, p)
        for kind, n in now.items():
            if n < 0:
                return f"{p} has {n} {kind} power: a cost went below 0"
        if explored.before is not None:
            before = _power(explored.before, p)
            for kind, n in now.items():
                if n > before.get(kind, n):
                    return (f"{p}'s {kind} power went from {before[kind]} to {n} after "
                            f"'{explored.lines[-1]}': a cost never goes below 0, so playing "
                            "never gains Monarch Power")
    last = _last(explored)
    return HELD if PLAY_LINE.fullmatch(last) or USE_LINE.fullmatch(last) else None


def _power_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    return [f"{p} has {n} {kind} power" for p in PLAYERS for kind, n in _power(view, p).items()]


def _cost_type(explored: Explored) -> Check:
    """A card played (and not cancelled) costs Monarch Power of its own deck's type, only."""
    m = PLAY_LINE.fullmatch(_last(explored))
    if not m or m.group(3) or m.group(2) not in FACTS:
        return None
    player, fact = m.group(1), FACTS[m.group(2)]
    view, before = explored.view(), explored.before
    assert before is not None
    cut = _reduction(view, player, fact.deck)
    if cut > fact.cost:
        return None  # a cost below 0 is 6.action-cards.5's
    want = {**_power(before, player)}
    want[fact.deck] -= fact.cost - cut
    got = _power(view, player)
    if got != want:
        return (f"after '{explored.lines[-1]}' {player}'s Monarch Power is {got}; a "
                f"{fact.deck} card costing {fact.cost - cut} leaves {want}")
    return HELD


def _played_alone(explored: Explored) -> tuple[str, CardFact] | None:
    """An accepted play, not cancelled, with nothing else being played: (player, card)."""
    m = PLAY_LINE.fullmatch(_last(explored))
    if not m or m.group(3) or m.group(2) not in FACTS:
        return None
    assert explored.before is not None
    if explored.before.get("being_played"):
        return None
    return m.group(1), FACTS[m.group(2)]


def _ducat_cost(explored: Explored) -> Check:
    """A card with a Ducat cost (and no effect of its own) costs its Ducats."""
    played = _played_alone(explored)
    if played is None:
        return None
    player, fact = played
    cut = _reduction(explored.view(), player, "ducats")
    if not fact.ducats or fact.effect_ducats or cut > fact.ducats:
        return None  # a cost below 0 is 6.action-cards.5's
    assert explored.before is not None
    want = _ducats(explored.before, player) - (fact.ducats - cut)
    got = _ducats(explored.view(), player)
    if got != want:
        return (f"after '{explored.lines[-1]}' {player} has {got} ducats; {fact.name!r} costs "
                f"{fact.ducats - cut} ducats: {want}")
    return HELD


def _resolves(explored: Explored) -> Check:
    """A card played for its Action resolves right away (its stand-in effect: Ducats)."""
    played = _played_alone(explored)
    if played is None:
        return None
    player, fact = played
    if not fact.effect_ducats or fact.ducats:
        return None
    assert explored.before is not None
    want = _ducats(explored.before, player) + fact.effect_ducats
    got = _ducats(explored.view(), player)
    if got != want:
        return (f"after '{explored.lines[-1]}' {player} has {got} ducats; {fact.name!r} "
                f"resolved gives {fact.effect_ducats}: {want}")
    return HELD


def _one_action(explored: Explored, use: bool) -> Check:
    """A card (or an Action on a Display Card) that takes the Turn is played by the active
    player, in the Action Phase, once per Turn."""
    last = _last(explored)
    found = _turn_line(last) if last else None
    if found is None or found[1] != use:
        return None
    player, before = found[0], explored.before
    assert before is not None
    if before.get("phase") != "action":
        return (f"'{last}' was allowed in the {before.get('phase')} phase: it takes a Turn, "
                "and Turns are taken in the Action Phase")
    if before.get("active_player") != player:
        return (f"'{last}' was allowed on {before.get('active_player')}'s Turn: it takes "
                f"{player}'s Turn")
    # A play after a play, a use after a use: mixed, the slip could be either rule's.
    if _turn_taken(explored.lines[:-1], player, {use}):
        return f"'{last}' was allowed after {player} had taken this Turn's Action"
    return HELD


def _plays_once(explored: Explored) -> Check:
    return _one_action(explored, use=False)


def _turn_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    return _counts_then(explored, reference) + _wallet_then(explored, reference)


def _use_works(explored: Explored) -> Check:
    """An Action on a Display Card costs its Monarch Power, resolves, and takes the Turn."""
    m = USE_LINE.fullmatch(_last(explored))
    compared = False
    if m and not m.group(3) and m.group(2) in ACTIONS:
        player, (_, action) = m.group(1), ACTIONS[m.group(2)]
        view, before = explored.view(), explored.before
        assert before is not None
        cut = _reduction(view, player, action.power)
        if not before.get("being_played") and cut <= action.cost:
            compared = True
            want = _power(before, player)[action.power] - (action.cost - cut)
            got = _power(view, player)[action.power]
            if got != want:
                return (f"after '{explored.lines[-1]}' {player} has {got} {action.power} "
                        f"power; the Action costs {action.cost - cut}: {want}")
            want = _ducats(before, player) + action.effect_ducats
            if _ducats(view, player) != want:
                return (f"after '{explored.lines[-1]}' {player} has {_ducats(view, player)} "
                        f"ducats; the Action resolved gives {action.effect_ducats}: {want}")
    turn = _one_action(explored, use=True)
    return HELD if turn is None and compared else turn


def _display_owner(explored: Explored) -> Check:
    """A Display Card's Actions are its player's, in Turns after the one it was placed."""
    last = _last(explored)
    m = USE_LINE.fullmatch(last)
    if not m or m.group(2) not in ACTIONS:
        return None
    player, card = m.group(1), ACTIONS[m.group(2)][0].name
    assert explored.before is not None
    names = _display_names(explored.before, player)
    if card not in names:
        return f"'{last}' was allowed: {player} has no {card!r} on display"
    if names.count(card) > 1:
        return None  # which copy was used? 2 of a card in play is 6.2.display.9's
    placed = re.compile(rf'When {player} (?:plays|starts playing) "{re.escape(card)}".*')
    for i in range(len(explored.lines) - 2, -1, -1):
        line = explored.lines[i]
        if line == REJECTED_LINE or explored.lines[i + 1: i + 2] == [REJECTED_LINE]:
            continue
        if END_LINE.fullmatch(line):
            break
        if placed.fullmatch(line):
            return f"'{last}' was allowed in the Turn {card!r} was placed"
    return HELD


def _wallet_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    lines = [f"{p} has {int(_player(view, p)['ducats'])} ducats" for p in PLAYERS]
    return lines + _power_then(explored, reference)
