"""EU invariants on Display Cards, characters and Covert Actions.

Why together: Display Cards carry charges that their Actions spend, even when
Counterespionage prevents one (6.2.covert.4), and appointing puts a card where a play does not.
"""

from __future__ import annotations

from collections import Counter

from oracle.explore import HELD, Check, Explored
from oracle.games.eu_pop.cards import CardFact
from oracle.games.eu_pop.explore.piles import _decisions
from oracle.games.eu_pop.explore.tables import (
    ACTIONS,
    APPOINT_LINE,
    FACTS,
    MAX_DISPLAYS,
    PLAY_LINE,
    PLAYERS,
    USE_LINE,
    _charges,
    _n_cards,
)
from oracle.games.eu_pop.explore.views import (
    _display,
    _display_names,
    _last,
    _pending,
    _player,
    _power,
    _reduction,
)
from oracle.games.kit.explore import other_viewers
from oracle.scenario.world import ScenarioWorld
from oracle.suite.dsl import describe_cards


def _placed(explored: Explored, player: str) -> list[str]:
    """Display Cards that are new on ``player``'s display since the last move."""
    if explored.before is None:
        return []
    new = Counter(_display_names(explored.view(), player))
    return list((new - Counter(_display_names(explored.before, player))).elements())


def _face_up(explored: Explored) -> Check:
    """Exercised by every state with a Display Card in play."""
    referee = explored.view()
    shown_any = False
    for owner in PLAYERS:
        shown = sorted((d.get("card"), d.get("charges")) for d in _display(referee, owner))
        shown_any = shown_any or bool(shown)
        for viewer in other_viewers(owner, PLAYERS):
            seen = sorted((d.get("card"), d.get("charges"))
                          for d in _display(explored.view(viewer), owner))
            if seen != shown:
                return (f"{viewer or 'a spectator'} sees {owner}'s display as {seen}; it is "
                        f"{shown}: Display Cards are face up")
        for card in _placed(explored, owner):
            charges = [d.get("charges") for d in _display(referee, owner) if d.get("card") == card]
            if card in FACTS and FACTS[card].charges not in charges:
                return (f"{card!r} was placed on {owner}'s display with {charges[-1]} "
                        f"charge(s); the card shows {FACTS[card].charges} squares")
    return HELD if shown_any else None


def _displays_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    lines = []
    for owner in PLAYERS:
        lines.append(f"{owner} has {_n_cards(len(_display(view, owner)))} on display")
        for d in _display(view, owner):
            what = f'{owner} has "{d["card"]}" on display with {_charges(int(d["charges"]))}'
            lines += [what] + [f"{what} as seen by {v or 'a spectator'}"
                               for v in other_viewers(owner, PLAYERS)]
    return lines + _decisions(view)


def _used(explored: Explored, cancelled: bool) -> Check:
    """An Action taken on a Display Card spends its uses (when charges remain after it)."""
    m = USE_LINE.fullmatch(_last(explored))
    if not m or bool(m.group(3)) != cancelled or m.group(2) not in ACTIONS:
        return None
    player, (fact, action) = m.group(1), ACTIONS[m.group(2)]
    assert explored.before is not None
    before = next((d for d in _display(explored.before, player) if d.get("card") == fact.name),
                  None)
    if before is None or int(before["charges"]) - action.uses <= 0:
        return None  # an emptied card is 6.2.display.8's
    if any(fact.name in _display_names(explored.before, p) for p in PLAYERS if p != player):
        return None  # whose card was used is 6.2.display.4's
    want = int(before["charges"]) - action.uses
    now = next((d for d in _display(explored.view(), player) if d.get("card") == fact.name),
               None)
    got = None if now is None else now.get("charges")
    if got != want:
        how = ", prevented by Counterespionage," if cancelled else ""
        return (f"{fact.name!r} had {before['charges']} charge(s); '{action.name}'{how} spends "
                f"{action.uses}, and it has {got}")
    return HELD


def _uses_spent(explored: Explored) -> Check:
    return _used(explored, cancelled=False)


def _prevented_uses_spent(explored: Explored) -> Check:
    return _used(explored, cancelled=True)


def _emptied(explored: Explored) -> Check:
    """Exercised by an accepted use of a Display Card's Action that spends its last charge."""
    view = explored.view()
    for p in PLAYERS:
        for d in _display(view, p):
            if d.get("charges") is not None and int(d["charges"]) <= 0:
                return (f"{p} has {d.get('card')!r} on display with {d.get('charges')} "
                        "charges: it is discarded once its last charge is spent")
    m = USE_LINE.fullmatch(_last(explored))
    if not m or m.group(2) not in ACTIONS or explored.before is None:
        return None
    fact, action = ACTIONS[m.group(2)]
    emptied = any(d.get("card") == fact.name and int(d.get("charges") or 0) <= action.uses
                  for d in _display(explored.before, m.group(1)))
    return HELD if emptied else None


def _display_limit(explored: Explored) -> Check:
    """Exercised by a Display Card placed beside another one."""
    view = explored.view()
    choosing = _pending(view, "discard")
    for p in PLAYERS:
        names = _display_names(view, p)
        twice = [c for c, n in Counter(names).items() if n > 1]
        if twice:
            return f"{p} has 2 of {twice[0]!r} in play"
        if len(names) > MAX_DISPLAYS and p not in choosing:
            return f"{p} has {len(names)} Display Cards in play: {describe_cards(names)}"
    beside = explored.before is not None and any(
        _placed(explored, p) and _display(explored.before, p) for p in PLAYERS)
    return HELD if beside else None


def _emptied_by(explored: Explored, player: str) -> int:
    """1 if the move was ``player``'s use of an Action that spent its card's last charge
    (the card leaves the display, 6.2.display.8, before a card being played resolves)."""
    m = USE_LINE.fullmatch(_last(explored))
    if not m or m.group(1) != player or m.group(2) not in ACTIONS or explored.before is None:
        return 0
    fact, action = ACTIONS[m.group(2)]
    return int(any(d.get("card") == fact.name and int(d.get("charges") or 0) <= action.uses
                   for d in _display(explored.before, player)))


def _third_display(explored: Explored) -> Check:
    """A Display Card played when 2 are in play leaves its player to choose one to discard."""
    if explored.before is None:
        return None
    view = explored.view()
    third = False
    for p in PLAYERS:
        if len(_display(explored.before, p)) - _emptied_by(explored, p) >= MAX_DISPLAYS \
                and _placed(explored, p):
            third = True
            if p not in _pending(view, "discard"):
                had = describe_cards(_display_names(explored.before, p))
                return (f"{p} played a Display Card with {had} in play and now has "
                        f"{describe_cards(_display_names(view, p))}, not asked which to "
                        "discard")
    return HELD if third else None


def _appointed(explored: Explored) -> Check:
    m = APPOINT_LINE.fullmatch(_last(explored))
    if not m or m.group(2) not in FACTS:
        return None
    player, fact = m.group(1), FACTS[m.group(2)]
    entry = _player(explored.view(), player)
    role = f"{fact.character}s"
    assert explored.before is not None
    had = Counter(_player(explored.before, player).get(role) or [])
    if not Counter(entry.get(role) or []) - had:
        return f"{player} appointed {fact.name!r}, a {fact.character}, and has no new {role}"
    return HELD


def _characters_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    lines = []
    for p in PLAYERS:
        for role in ("leader", "advisor"):
            names = _player(view, p).get(f"{role}s") or []
            article = "an" if role == "advisor" else "a"
            lines += [f'{p} has "{c}" as {article} {role}' for c in names]
            if not names:
                lines.append(f"{p} has no {role}s")
    return lines


def _cancelled(explored: Explored) -> tuple[str, str, CardFact, int] | None:
    """A play or use that another player cancelled with Counterespionage, accepted:
    (player, canceller, the card, its Ducat cost)."""
    last = _last(explored)
    m = PLAY_LINE.fullmatch(last)
    if m and m.group(3) and m.group(2) in FACTS:
        fact = FACTS[m.group(2)]
        player = m.group(1)
        cut = _reduction(explored.view(), player, "ducats")
        if cut > fact.ducats:
            return None  # a cost below 0 is 6.action-cards.5's
        return player, m.group(3), fact, fact.ducats - cut
    m = USE_LINE.fullmatch(last)
    if m and m.group(3) and m.group(2) in ACTIONS:
        return m.group(1), m.group(3), ACTIONS[m.group(2)][0], 0
    return None


def _countered_no_effect(explored: Explored) -> Check:
    found = _cancelled(explored)
    if found is None or found[0] == found[1]:
        return None
    player, _, _, ducats = found
    assert explored.before is not None
    before = int(_player(explored.before, player)["ducats"])
    got = int(_player(explored.view(), player)["ducats"])
    if got != before - ducats:
        return (f"after '{explored.lines[-1]}' {player} has {got} ducats; countered, it has no "
                f"effect: {before - ducats}")
    return HELD


def _countered_cost_paid(explored: Explored) -> Check:
    m = PLAY_LINE.fullmatch(_last(explored))
    if not m or not m.group(3) or m.group(3) == m.group(1) or m.group(2) not in FACTS:
        return None
    player, fact = m.group(1), FACTS[m.group(2)]
    cut = _reduction(explored.view(), player, fact.deck)
    if cut > fact.cost:
        return None  # a cost below 0 is 6.action-cards.5's
    assert explored.before is not None
    before = _power(explored.before, player)[fact.deck]
    got = _power(explored.view(), player)[fact.deck]
    if got != before - (fact.cost - cut):
        return (f"after '{explored.lines[-1]}' {player} has {got} {fact.deck} power; a "
                f"countered card's cost stays paid: {before - (fact.cost - cut)}")
    return HELD
