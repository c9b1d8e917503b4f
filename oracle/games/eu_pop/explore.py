"""How to explore EU: The Price of Power action cards: random tables, random moves, and what
must always hold.

States and moves are step texts of the project's own DSL (see ``oracle.explore``), so every
counterexample is a scenario a committee can read. The tables are three players with hands
from the three decks, small decks and discard piles (so that decks run out and are rebuilt),
Monarch Power, cost reductions, Display Cards in play and sometimes a Battle; the moves are
draws from each deck, cards played for their Action or to appoint, Actions taken on Display
Cards, Counterespionage cancelling Covert Actions, Phase 5 Step C and its decisions, and a
few illegal moves, since a rejected action must change nothing.

Each invariant is tied to the catalog ids (features/eu-pop/catalog.yaml) it follows from, and
each checks only what its own rule says: where two rules meet in one observation (a cost that
goes below 0 is also a wrong cost paid), the checks leave the case to the rule that owns it,
so that a finding cites the rule the engine broke.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from hypothesis import strategies as st

from oracle.explore import REJECTED_LINE, Explored, Invariant
from oracle.games.eu_pop.cards import DECKS, CardFact, load_card_facts
from oracle.scenario.world import ScenarioWorld
from oracle.suite.dsl import describe_cards, parse_pile

View = Mapping[str, Any]

PLAYERS = ("Alice", "Bob", "Carol")
HAND_LIMIT = 5  # 6.cards-in-hand.2
MAX_DISPLAYS = 2  # 6.2.display.9
REBUILD_LEAVES = 5  # 6.decks.4
COUNTERESPIONAGE = "Counterespionage"
STEP_C = "Phase 5, Step C is resolved"
#: Kinds of card (or Action) played without taking the Turn (6.action-cards.2).
FREE = frozenset({"reaction", "battle_action"})

FACTS: dict[str, CardFact] = {f.name: f for f in load_card_facts()}
BY_DECK: dict[str, tuple[str, ...]] = {
    deck: tuple(f.name for f in FACTS.values() if f.deck == deck) for deck in DECKS}
CARDS = tuple(FACTS)
DISPLAYS = tuple(f.name for f in FACTS.values() if "display" in f.kinds)
#: Each Action listed on a Display Card, by name: (its card, its facts).
ACTIONS = {a.name: (f, a) for f in FACTS.values() for a in f.actions}

# The When lines the invariants read back.
DRAW_LINE = re.compile(r"When (\w+) draws (\w+) (\w+) cards?")
PLAY_LINE = re.compile(r'When (\w+) plays "([^"]+)"(?: (?:targeting|choosing) .+?)?'
                       r'(?: and (\w+) cancels it with "([^"]+)")?')
USE_LINE = re.compile(r'When (\w+) uses "([^"]+)"(?: and (\w+) cancels it with "([^"]+)")?')
START_LINE = re.compile(r'When (\w+) starts playing "([^"]+)".*')
END_LINE = re.compile(r"When \w+ ends (?:her|his|their) turn")
KEEP_LINE = re.compile(r"When (\w+) keeps (.+)")
ANSWER_LINE = re.compile(r"When \w+ (?:keeps|discards) .+")
APPOINT_LINE = re.compile(r'When (\w+) appoints "([^"]+)"')


# -- phrases -----------------------------------------------------------------------------------


def _n_cards(n: int) -> str:
    return "no cards" if n == 0 else f"{n} card" if n == 1 else f"{n} cards"


def _pile(cards: Sequence[str]) -> str:
    return describe_cards(list(cards)) if cards else "empty"


def _charges(n: int) -> str:
    return f"{n} charge" if n == 1 else f"{n} charges"


# -- setups ------------------------------------------------------------------------------------


#: The Action Phase on Alice's Turn, or Phase 5 (Cleanup). Step C in any other phase is as
#: wrong as in the Action Phase, and Alice's Turn lets Bob and Carol play out of turn.
_PHASES = st.sampled_from(["it is the action phase, Alice's turn", "it is the cleanup phase"])
_COVERT = tuple(f.name for f in FACTS.values() if "covert" in f.kinds)
#: Hands lean towards what the rules are about: Alice's towards Display Cards and Covert
#: Actions, Bob's towards Counterespionage (so that covert plays get cancelled).
_HANDS = {
    "Alice": st.lists(st.one_of(st.sampled_from(CARDS), st.sampled_from(DISPLAYS),
                                st.sampled_from(_COVERT)), max_size=8),
    "Bob": st.lists(st.one_of(st.sampled_from(CARDS), st.just(COUNTERESPIONAGE)), max_size=8),
    "Carol": st.lists(st.sampled_from(CARDS), max_size=8),
}
_SHORT_DECKS = {deck: st.lists(st.sampled_from(BY_DECK[deck]), max_size=3) for deck in DECKS}
_DISCARDS = {deck: st.lists(st.sampled_from(BY_DECK[deck]), max_size=8) for deck in DECKS}
_ON_DISPLAY = st.lists(st.sampled_from(DISPLAYS), max_size=2, unique=True)
_CHARGES = {card: st.integers(1, FACTS[card].charges) for card in DISPLAYS}
#: Monarch Power other than the 3 of Game Setup: often plenty, sometimes too little to pay.
_POWERS = st.dictionaries(st.tuples(st.sampled_from(PLAYERS), st.sampled_from(DECKS)),
                          st.sampled_from((6, 0, 1)), max_size=3)
#: Alice's costs, reduced (she is the active player of most tables): by 3, below any cost
#: (6.action-cards.5), or by 1.
_CUTS = st.dictionaries(st.sampled_from((*DECKS, "ducat")), st.sampled_from((3, 1)),
                        max_size=2)
_BATTLES = st.sampled_from([[], [], ["Alice attacks Bob in a battle"],
                            ["Bob attacks Alice and Carol in a battle"]])


@st.composite
def _setups(draw: Any) -> list[str]:
    lines = [f"the players are {', '.join(PLAYERS[:-1])} and {PLAYERS[-1]}"]
    for player in PLAYERS:
        hand = draw(_HANDS[player])
        lines.append(f"{player} holds {describe_cards(hand) if hand else 'no cards'}")
    for deck in DECKS:  # a new game's deck, or a short deck over a discard pile
        if draw(st.booleans()):
            lines.append(f"the {deck} deck is {_pile(draw(_SHORT_DECKS[deck]))}")
            lines.append(f"the {deck} discard pile is {_pile(draw(_DISCARDS[deck]))}")
    for player in PLAYERS:
        for card in draw(_ON_DISPLAY):
            lines.append(f'{player} has "{card}" on display with '
                         f"{_charges(draw(_CHARGES[card]))}")
    lines += [f"{p} has {n} {deck} power" for (p, deck), n in sorted(draw(_POWERS).items())]
    lines += [f"Alice's {kind} costs are reduced by {n} by a game effect"
              for kind, n in sorted(draw(_CUTS).items())]
    lines += draw(_BATTLES)
    lines.insert(1, draw(_PHASES))  # drawn last, said second
    return lines


# -- reading views -----------------------------------------------------------------------------


def _player(view: View, name: str) -> Mapping[str, Any]:
    return view["players"][name]


def _hand(view: View, name: str) -> list[str]:
    return list(_player(view, name)["hand"].get("cards") or [])


def _count(view: View, name: str) -> int:
    return int(_player(view, name)["hand"]["count"])


def _discard(view: View, deck: str) -> list[str]:
    pile = view["decks"][deck]["discard"]
    return list(pile if isinstance(pile, list) else pile.get("cards") or [])


def _draw_count(view: View, deck: str) -> int:
    pile = view["decks"][deck]["draw"]
    return len(pile) if isinstance(pile, list) else int(pile["count"])


def _draw_cards(view: View, deck: str) -> list[str] | None:
    pile = view["decks"][deck]["draw"]
    return list(pile) if isinstance(pile, list) else pile.get("cards")


def _display(view: View, name: str) -> list[Mapping[str, Any]]:
    return list(_player(view, name).get("display") or [])


def _display_names(view: View, name: str) -> list[str]:
    return [str(d.get("card")) for d in _display(view, name)]


def _power(view: View, name: str) -> dict[str, int]:
    return {k: int(v) for k, v in (_player(view, name).get("power") or {}).items()}


def _reduction(view: View, name: str, kind: str) -> int:
    return int((_player(view, name).get("cost_reductions") or {}).get(kind, 0))


def _pending(view: View, decision: str | None = None) -> dict[str, int]:
    return {p["player"]: int(p["count"]) for p in view.get("pending") or []
            if decision is None or p["decision"] == decision}


def _last(explored: Explored) -> str:
    """The last move's When line, or '' (after the setup, or when it was rejected)."""
    if not explored.lines or explored.last_rejected or explored.before is None:
        return ""
    return explored.lines[-1]


def _since_step_c(lines: Sequence[str]) -> bool:
    """Whether the last accepted move other than answering decisions was Phase 5, Step C."""
    i = len(lines) - 1
    while i >= 0:
        rejected = lines[i] == REJECTED_LINE
        if rejected:
            i -= 1
        line = lines[i] if i >= 0 else ""
        if not rejected:
            if line == f"When {STEP_C}":
                return True
            if not ANSWER_LINE.fullmatch(line):
                return False
        i -= 1
    return False


def _turn_taken(lines: Sequence[str], active: str, by: set[bool] | None = None) -> bool:
    """Whether ``active`` has taken their Turn's Action since the Turn began (as far as the
    lines tell: the Turn of the setup starts fresh); ``by`` limits the count to plays
    (False) or to Actions on Display Cards (True)."""
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if line == REJECTED_LINE or lines[i + 1: i + 2] == [REJECTED_LINE]:
            continue
        if END_LINE.fullmatch(line):
            return False
        found = _turn_line(line)
        if found and found[0] == active and (by is None or found[1] in by):
            return True
    return False


def _interest(card: str) -> int:
    """Display Cards, then Covert Actions, then the rest: the plays most rules are about."""
    kinds = FACTS[card].kinds
    return 0 if "display" in kinds else 1 if "covert" in kinds else 2


# -- the model ---------------------------------------------------------------------------------


class EUModel:
    """The EU exploration model: setups, moves and invariants."""

    def setups(self) -> st.SearchStrategy[list[str]]:
        return _setups()

    def moves(self, explored: Explored) -> list[str]:
        view = explored.view()
        moves: list[str] = []
        for p in view.get("pending") or []:  # answering a decision is the simplest move
            name, n = p["player"], int(p["count"])
            if p["decision"] == "keep":
                hand = _hand(view, name)
                if len(hand) >= n > 0:  # a choice: the last n cards (4.5.c.2)
                    moves.append(f"{name} keeps {describe_cards(hand[-n:])}")
                moves.append(f"{name} keeps {_n_cards(n)}")  # the first n the player sees
                moves.append(f"{name} keeps {_n_cards(max(n - 1, 0))}")  # refused
            else:
                moves += [f'{name} discards "{c}"' for c in _display_names(view, name)]
        being_played = [r.get("action") or r["card"] for r in view.get("being_played") or []]
        if being_played:
            moves.append("all players pass")
        # Hypothesis draws the first move most often: it is the natural next one (Step C in
        # Phase 5; in the Action Phase the active player's first card, or the end of their
        # Turn once its Action is taken). Moves that are always there come next, at fixed
        # places, so that a shrunk game keeps pointing at them when its hands shrink.
        phase = view.get("phase")
        active = view.get("active_player") if phase == "action" else None
        holders = [p for p in PLAYERS if COUNTERESPIONAGE in _hand(view, p)]
        own: list[str] = []
        taken = bool(active) and _turn_taken(explored.lines, str(active))
        if active:  # any card and Action until the Turn's Action is taken
            own = self._cards(view, active, holders, being_played, free_only=taken)
            end = f"{active} ends their turn"
            own = [end, *own] if taken or not own else [*own, end]
        moves += own[:1] if active else [STEP_C]
        if active:
            moves.append(STEP_C)
        moves += [f"Alice draws 1 {deck} card" for deck in DECKS]
        moves += own[1:]
        if active:
            moves += [f'{active} appoints "{c}"' for c in dict.fromkeys(_hand(view, active))]
        for p in PLAYERS:  # out of their Turn: Reactions and Battle Actions
            if p != active:
                moves += self._cards(view, p, holders, being_played, free_only=True)
        moves += [f"Alice draws 2 {deck} cards" for deck in DECKS]
        moves += ["Bob draws 2 military cards", "Carol draws 1 diplomatic card"]
        if view.get("battle"):
            moves += ["a new round of battle begins", "the battle ends"]
        # Illegal: out of turn, a card not held, another player's Display Card.
        idle = next(p for p in PLAYERS if p != active)
        moves += [f"{idle} ends their turn", f'{idle} plays "Royal Manufactory"',
                  'Bob uses "Support Rebels"']
        if active and taken:  # a second Action in one Turn
            moves += [f'{active} plays "{c}"' for c in _hand(view, str(active))
                      if c in FACTS and not FACTS[c].kinds & FREE][:1]
        return moves

    def _cards(self, view: View, player: str, holders: list[str], being_played: list[str],
               free_only: bool) -> list[str]:
        """A player's plays of the cards they hold and uses of their Display Cards (only those
        that take no Turn, if ``free_only``); a Covert Action also cancelled, when another
        player holds Counterespionage."""
        canceller = next((q for q in holders if q != player), None)
        cancel = f' and {canceller} cancels it with "{COUNTERESPIONAGE}"' if canceller else ""
        moves = []
        known = [c for c in dict.fromkeys(_hand(view, player)) if c in FACTS]
        for card in sorted(known, key=_interest):
            fact = FACTS[card]
            if free_only and not fact.kinds & FREE:
                continue
            covert = "covert" in fact.kinds and card != COUNTERESPIONAGE
            if covert and cancel:
                moves.append(self._play(player, card, being_played) + cancel)
            moves.append(self._play(player, card, being_played))
            if covert:
                moves.append(f'{player} starts playing "{card}"')
        for card in _display_names(view, player):
            for action in FACTS[card].actions if card in FACTS else ():
                if free_only and not action.kinds & FREE:
                    continue
                if "covert" in action.kinds and cancel:
                    moves.append(f'{player} uses "{action.name}"{cancel}')
                moves.append(f'{player} uses "{action.name}"')
        return moves

    @staticmethod
    def _play(player: str, card: str, being_played: list[str]) -> str:
        if card == COUNTERESPIONAGE and being_played:
            return f'{player} plays "{card}" targeting "{being_played[-1]}"'
        if "?" in FACTS[card].dice:
            return f'{player} plays "{card}" choosing a cavalry die'
        return f'{player} plays "{card}"'

    def invariants(self) -> Sequence[Invariant]:
        return INVARIANTS


# -- cards are conserved -----------------------------------------------------------------------


def _total(view: View) -> int:
    total = sum(_draw_count(view, d) + len(_discard(view, d)) for d in view["decks"])
    for name in view["players"]:
        player = _player(view, name)
        total += int(player["hand"]["count"]) + len(player.get("display") or [])
        total += len(player.get("advisors") or []) + len(player.get("leaders") or [])
    return total + sum(1 for r in view.get("being_played") or [] if not r.get("action"))


def _conserved(explored: Explored) -> str | None:
    total = _total(explored.view())
    start = getattr(explored, "start_total", None)
    if start is None:
        explored.start_total = total  # type: ignore[attr-defined]
        return None
    if total != start:
        return (f"the game had {start} Action Cards (decks, discard piles, hands, displays, "
                f"characters) and now has {total}")
    return None


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


# -- Monarch Power -----------------------------------------------------------------------------


def _power_kept(explored: Explored) -> str | None:
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
    return None


def _power_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    return [f"{p} has {n} {kind} power" for p in PLAYERS for kind, n in _power(view, p).items()]


def _cost_type(explored: Explored) -> str | None:
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
    return None


def _played_alone(explored: Explored) -> tuple[str, CardFact] | None:
    """An accepted play, not cancelled, with nothing else being played: (player, card)."""
    m = PLAY_LINE.fullmatch(_last(explored))
    if not m or m.group(3) or m.group(2) not in FACTS:
        return None
    assert explored.before is not None
    if explored.before.get("being_played"):
        return None
    return m.group(1), FACTS[m.group(2)]


def _ducats(view: View, player: str) -> int:
    return int(_player(view, player)["ducats"])


def _ducat_cost(explored: Explored) -> str | None:
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
    return None


def _resolves(explored: Explored) -> str | None:
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
    return None


def _turn_line(line: str) -> tuple[str, bool] | None:
    """(player, whether it is an Action on a Display Card) of a play or use that takes the
    Turn."""
    m = PLAY_LINE.fullmatch(line) or START_LINE.fullmatch(line)
    if m and m.group(2) in FACTS and not FACTS[m.group(2)].kinds & FREE:
        return m.group(1), False
    m = USE_LINE.fullmatch(line)
    if m and m.group(2) in ACTIONS and not ACTIONS[m.group(2)][1].kinds & FREE:
        return m.group(1), True
    return None


def _one_action(explored: Explored, use: bool) -> str | None:
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
    return None


def _plays_once(explored: Explored) -> str | None:
    return _one_action(explored, use=False)


def _turn_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    return _counts_then(explored, reference) + _wallet_then(explored, reference)


def _use_works(explored: Explored) -> str | None:
    """An Action on a Display Card costs its Monarch Power, resolves, and takes the Turn."""
    m = USE_LINE.fullmatch(_last(explored))
    if m and not m.group(3) and m.group(2) in ACTIONS:
        player, (_, action) = m.group(1), ACTIONS[m.group(2)]
        view, before = explored.view(), explored.before
        assert before is not None
        cut = _reduction(view, player, action.power)
        if not before.get("being_played") and cut <= action.cost:
            want = _power(before, player)[action.power] - (action.cost - cut)
            got = _power(view, player)[action.power]
            if got != want:
                return (f"after '{explored.lines[-1]}' {player} has {got} {action.power} "
                        f"power; the Action costs {action.cost - cut}: {want}")
            want = _ducats(before, player) + action.effect_ducats
            if _ducats(view, player) != want:
                return (f"after '{explored.lines[-1]}' {player} has {_ducats(view, player)} "
                        f"ducats; the Action resolved gives {action.effect_ducats}: {want}")
    return _one_action(explored, use=True)


def _display_owner(explored: Explored) -> str | None:
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
    return None


# -- hands and discard piles -------------------------------------------------------------------


def _hidden(explored: Explored) -> str | None:
    view = explored.view()
    for owner in PLAYERS:
        count = _count(view, owner)
        for viewer in [p for p in PLAYERS if p != owner] + [None]:
            shown, seen = explored.hand(owner, viewer)
            who = viewer or "a spectator"
            if seen:
                return f"{who} sees {describe_cards(seen)} in {owner}'s hand"
            if shown != count:
                return f"{who} is shown {shown} cards in {owner}'s hand; it holds {count}"
    return None


def _viewers_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    lines = []
    for owner in PLAYERS:
        for viewer in [p for p in PLAYERS if p != owner] + [None]:
            count, seen = reference.hand(owner, viewer)
            hidden = count - len(seen)
            what = describe_cards(seen) if seen else ""
            if hidden or not seen:
                rest = f"{hidden} hidden card{'' if hidden == 1 else 's'}"
                what = f"{what} and {rest}" if seen else rest
            lines.append(f"{owner} holds {what} as seen by {viewer or 'a spectator'}")
    return lines


def _discards_public(explored: Explored) -> str | None:
    referee = explored.view()
    for viewer in [*PLAYERS, None]:
        view = explored.view(viewer)
        for deck in DECKS:
            if _discard(view, deck) != _discard(referee, deck):
                return (f"{viewer or 'a spectator'} is shown the {deck} discard pile as "
                        f"{_pile(_discard(view, deck))}; it is {_pile(_discard(referee, deck))}")
    return None


def _discards_seen_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    return [f"the {deck} discard pile is {_pile(_discard(view, deck))} as seen by "
            f"{viewer or 'a spectator'}"
            for viewer in [*PLAYERS, None] for deck in DECKS if _discard(view, deck)]


def _own_decks(explored: Explored) -> str | None:
    view = explored.view()
    for deck in DECKS:
        for which, cards in (("deck", _draw_cards(view, deck) or []),
                             ("discard pile", _discard(view, deck))):
            stray = [c for c in cards if c in FACTS and FACTS[c].deck != deck]
            if stray:
                return (f"the {deck} {which} holds {describe_cards(stray)}, of the "
                        f"{FACTS[stray[0]].deck} deck")
    return None


def _on_top(explored: Explored) -> str | None:
    if explored.before is None:
        return None
    view = explored.view()
    for deck in DECKS:
        old, new = _discard(explored.before, deck), _discard(view, deck)
        if len(new) > len(old) and new[len(new) - len(old):] != old:
            return (f"after '{explored.lines[-1]}' the {deck} discard pile went from "
                    f"{_pile(old)} to {_pile(new)}: a discard goes face up on top")
    return None


def _piles_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    lines = []
    for deck in DECKS:
        n = _draw_count(view, deck)
        lines.append(f"the {deck} deck is {_n_cards(n) if n else 'empty'}")
        lines.append(f"the {deck} discard pile is {_pile(_discard(view, deck))}")
    return lines


def _drawn(explored: Explored) -> tuple[str, int, int, bool] | None:
    """For an accepted draw: (deck, draw count, discard count) the rules leave, and whether
    a discard pile of 5 or fewer was shuffled whole (6.decks.5) on the way."""
    m = DRAW_LINE.fullmatch(_last(explored))
    if not m or m.group(3) not in DECKS:
        return None
    assert explored.before is not None
    deck, n = m.group(3), int(m.group(2)) if m.group(2).isdigit() else 1
    draw, discard, small = _draw_count(explored.before, deck), \
        len(_discard(explored.before, deck)), False
    for _ in range(n):
        if draw == 0 and discard:  # rebuilt when a card must be drawn, not when emptied
            keep = REBUILD_LEAVES if discard > REBUILD_LEAVES else 0
            small = small or keep == 0
            draw, discard = discard - keep, keep
        if draw == 0:
            break
        draw -= 1
    return deck, draw, discard, small


def _rebuild_check(explored: Explored, small: bool) -> str | None:
    drawn = _drawn(explored)
    if drawn is None or drawn[3] != small:
        return None
    deck, draw, discard, _ = drawn
    view = explored.view()
    got = (_draw_count(view, deck), len(_discard(view, deck)))
    if got != (draw, discard):
        before = explored.before
        assert before is not None
        return (f"'{explored.lines[-1]}', from {_n_cards(_draw_count(before, deck))} in the "
                f"{deck} deck over {_n_cards(len(_discard(before, deck)))} in its discard pile, "
                f"left {got[0]} and {got[1]}; the rules leave {draw} and {discard}")
    return None


def _rebuilt(explored: Explored) -> str | None:
    return _rebuild_check(explored, small=False)


def _rebuilt_whole(explored: Explored) -> str | None:
    return _rebuild_check(explored, small=True)


# -- the hand limit ----------------------------------------------------------------------------


def _limit_waits(explored: Explored) -> str | None:
    """A keep decision appears only on an accepted Phase 5 Step C, in Phase 5."""
    view = explored.view()
    now = _pending(view, "keep")
    before = _pending(explored.before, "keep") if explored.before is not None else {}
    new = sorted(set(now) - set(before))
    if not new:
        return None
    last = explored.lines[-1] if explored.lines else ""
    if last == f"When {STEP_C}" and not explored.last_rejected and view.get("phase") == "cleanup":
        return None
    who = new[0]
    after = f"after '{last}'" if last else "at the start"
    return (f"{who} must keep {now[who]} cards {after}, holding {_count(view, who)}, in the "
            f"{view.get('phase')} phase: the hand limit is only checked in Phase 5, Step C")


def _decisions(view: View) -> list[str]:
    return [f"{p['player']} must {p['decision']} {_n_cards(int(p['count']))}"
            for p in view.get("pending") or []] or ["no decision is pending"]


def _pending_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    return _decisions(view) + [f"{p} holds {_n_cards(_count(view, p))}" for p in PLAYERS]


def _step_c_done(explored: Explored) -> str | None:
    """After Step C and its decisions, no hand holds more than 5; and only a hand over 5
    (of a player with nothing on display: see 4.5.c.3) is made to discard down."""
    view = explored.view()
    keep = _pending(view, "keep")
    for p, n in keep.items():
        if not _display(view, p) and _count(view, p) <= HAND_LIMIT:
            return f"{p} holds {_count(view, p)} cards and must keep {n}"
    if keep or not _since_step_c(explored.lines):
        return None
    for p in PLAYERS:
        if _count(view, p) > HAND_LIMIT:
            return f"{p} still holds {_count(view, p)} cards after Phase 5, Step C"
    return None


def _displays_uncounted(explored: Explored) -> str | None:
    view = explored.view()
    for p, n in _pending(view, "keep").items():
        shown = _display(view, p)
        if shown and _count(view, p) <= HAND_LIMIT:
            return (f"{p} must keep {n} cards holding {_count(view, p)} in hand and "
                    f"{len(shown)} Display Card(s) in play: those do not count")
    return None


def _kept(explored: Explored) -> str | None:
    m = KEEP_LINE.fullmatch(_last(explored))
    if not m:
        return None
    spec = parse_pile(m.group(2))
    if spec.hidden or spec.others or not spec.names_matter:
        return None
    player, hand = m.group(1), _hand(explored.view(), m.group(1))
    if Counter(hand) != Counter(spec.cards):
        return f"{player} chose to keep {describe_cards(spec.cards)} and holds {_pile(hand)}"
    return None


def _kept_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    return [f"{p} holds {describe_cards(_hand(view, p)) if _hand(view, p) else 'no cards'}"
            for p in PLAYERS]


# -- Display Cards -----------------------------------------------------------------------------


def _placed(explored: Explored, player: str) -> list[str]:
    """Display Cards that are new on ``player``'s display since the last move."""
    if explored.before is None:
        return []
    new = Counter(_display_names(explored.view(), player))
    return list((new - Counter(_display_names(explored.before, player))).elements())


def _face_up(explored: Explored) -> str | None:
    referee = explored.view()
    for owner in PLAYERS:
        shown = sorted((d.get("card"), d.get("charges")) for d in _display(referee, owner))
        for viewer in [p for p in PLAYERS if p != owner] + [None]:
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
    return None


def _displays_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    lines = []
    for owner in PLAYERS:
        lines.append(f"{owner} has {_n_cards(len(_display(view, owner)))} on display")
        for d in _display(view, owner):
            what = f'{owner} has "{d["card"]}" on display with {_charges(int(d["charges"]))}'
            lines += [what] + [f"{what} as seen by {v or 'a spectator'}"
                               for v in [p for p in PLAYERS if p != owner] + [None]]
    return lines + _decisions(view)


def _used(explored: Explored, cancelled: bool) -> str | None:
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
    return None


def _uses_spent(explored: Explored) -> str | None:
    return _used(explored, cancelled=False)


def _prevented_uses_spent(explored: Explored) -> str | None:
    return _used(explored, cancelled=True)


def _emptied(explored: Explored) -> str | None:
    view = explored.view()
    for p in PLAYERS:
        for d in _display(view, p):
            if d.get("charges") is not None and int(d["charges"]) <= 0:
                return (f"{p} has {d.get('card')!r} on display with {d.get('charges')} "
                        "charges: it is discarded once its last charge is spent")
    return None


def _display_limit(explored: Explored) -> str | None:
    view = explored.view()
    choosing = _pending(view, "discard")
    for p in PLAYERS:
        names = _display_names(view, p)
        twice = [c for c, n in Counter(names).items() if n > 1]
        if twice:
            return f"{p} has 2 of {twice[0]!r} in play"
        if len(names) > MAX_DISPLAYS and p not in choosing:
            return f"{p} has {len(names)} Display Cards in play: {describe_cards(names)}"
    return None


def _third_display(explored: Explored) -> str | None:
    """A Display Card played when 2 are in play leaves its player to choose one to discard."""
    if explored.before is None:
        return None
    view = explored.view()
    for p in PLAYERS:
        if len(_display(explored.before, p)) >= MAX_DISPLAYS and _placed(explored, p) \
                and p not in _pending(view, "discard"):
            had = describe_cards(_display_names(explored.before, p))
            return (f"{p} played a Display Card with {had} in play and now has "
                    f"{describe_cards(_display_names(view, p))}, not asked which to discard")
    return None


# -- characters --------------------------------------------------------------------------------


def _appointed(explored: Explored) -> str | None:
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
    return None


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


# -- Covert Actions ----------------------------------------------------------------------------


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


def _countered_no_effect(explored: Explored) -> str | None:
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
    return None


def _countered_cost_paid(explored: Explored) -> str | None:
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
    return None


def _wallet_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    lines = [f"{p} has {int(_player(view, p)['ducats'])} ducats" for p in PLAYERS]
    return lines + _power_then(explored, reference)


def _no_check(explored: Explored) -> str | None:
    return None


INVARIANTS: tuple[Invariant, ...] = (
    Invariant("cards are conserved", ("eu-pop:6.action-cards.6", "eu-pop:6.action-cards.8"),
              _conserved, _counts_then),
    Invariant("monarch power is never gained from a cost", ("eu-pop:6.action-cards.5",),
              _power_kept, _power_then),
    Invariant("a card costs monarch power of its deck's type", ("eu-pop:6.action-cards.3",),
              _cost_type, _power_then),
    Invariant("a card's ducat cost is paid", ("eu-pop:6.action-cards.4",), _ducat_cost,
              _wallet_then),
    Invariant("a card played for its action resolves", ("eu-pop:6.action-cards.6",), _resolves,
              _wallet_then),
    Invariant("a card that takes the turn is one turn's action", ("eu-pop:6.action-cards.2",),
              _plays_once, _turn_then),
    Invariant("display card actions are their owner's, from the next turn",
              ("eu-pop:6.2.display.4",), _display_owner, _turn_then),
    Invariant("display card actions cost, resolve and take the turn", ("eu-pop:6.2.display.5",),
              _use_works, _turn_then),
    Invariant("hands are hidden from other viewers, their sizes public",
              ("eu-pop:6.cards-in-hand.1",), _hidden, _viewers_then),
    Invariant("discard piles are public", ("eu-pop:6.decks.3",), _discards_public,
              _discards_seen_then),
    Invariant("each deck holds its own cards", ("eu-pop:6.decks.1",), _own_decks, _piles_then),
    Invariant("a discard goes on top of its pile", ("eu-pop:6.decks.2",), _on_top, _piles_then),
    Invariant("an empty deck is rebuilt when drawn from, leaving the top 5 discards",
              ("eu-pop:6.decks.4",), _rebuilt, _piles_then),
    Invariant("a discard pile of 5 or fewer is shuffled whole", ("eu-pop:6.decks.5",),
              _rebuilt_whole, _piles_then),
    Invariant("the hand limit waits for phase 5 step c", ("eu-pop:6.cards-in-hand.2",),
              _limit_waits, _pending_then),
    Invariant("phase 5 step c brings every hand down to 5", ("eu-pop:4.5.c.1",),
              _step_c_done, _pending_then),
    Invariant("players keep the cards they choose", ("eu-pop:4.5.c.2",), _kept, _kept_then),
    Invariant("display cards do not count towards the hand limit", ("eu-pop:4.5.c.3",),
              _displays_uncounted, _pending_then),
    Invariant("display cards are face up and fully charged", ("eu-pop:6.2.display.2",),
              _face_up, _displays_then),
    Invariant("each use spends its charges", ("eu-pop:6.2.display.7",), _uses_spent,
              _displays_then),
    Invariant("an emptied display card is discarded", ("eu-pop:6.2.display.8",), _emptied,
              _displays_then),
    Invariant("at most 2 display cards, never 2 of the same", ("eu-pop:6.2.display.9",),
              _display_limit, _displays_then),
    Invariant("a third display card makes its player choose one to discard",
              ("eu-pop:6.2.display.10",), _third_display, _displays_then),
    Invariant("an appointed character serves as what it depicts", ("eu-pop:6.characters.1",),
              _appointed, _characters_then),
    Invariant("a countered covert action has no effect", ("eu-pop:6.2.covert.2",),
              _countered_no_effect, _wallet_then),
    Invariant("a countered card's cost stays paid", ("eu-pop:6.2.covert.3",),
              _countered_cost_paid, _wallet_then),
    Invariant("a prevented covert action still spends its uses", ("eu-pop:6.2.covert.4",),
              _prevented_uses_spent, _displays_then),
    Invariant("a rejected action changes nothing", ("eu-pop:6.action-cards.2",), _no_check,
              _counts_then, catches_violations=True),
)

MODEL = EUModel()
