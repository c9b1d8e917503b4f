"""How to explore TI4 action cards: random tables, random moves, and what must always hold.

States and moves are step texts of the project's own DSL (see
``oracle.explore``), so every counterexample is a scenario a committee can
read. Cards come from the real deck's names; the moves include illegal ones
(playing a card out of its window, drawing while a discard is owed), since a
rejected action must change nothing.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from itertools import takewhile
from types import MappingProxyType
from typing import Any

from hypothesis import strategies as st

from oracle.explore import (
    HELD,
    REJECTED_LINE,
    Check,
    Explored,
    Invariant,
    Supported,
    rejection_checked,
)
from oracle.explore.compare import Loosened, NoChoices
from oracle.explore.model import shown_count
from oracle.games.kit.explore import (
    accepted_moves,
    answer_moves,
    conserved,
    hand_cards,
    hands_as_seen,
    listed,
    other_viewers,
    within_counts,
)
from oracle.games.ti4.cards import SABOTAGE, load_card_facts
from oracle.protocol import REFEREE
from oracle.scenario.world import ScenarioWorld
from oracle.suite.dsl import describe_cards

PLAYERS = ("Alice", "Bob", "Carol")
BASE_LIMIT = 7
#: Real card names, with their different windows and targets; the exploration uses those the
#: engine declares it models.
POOL = ("Sabotage", "Lucky Shot", "Direct Hit", "Insubordination", "Repeal Law", "Bribery",
        "Morale Boost", "Veto", "Plague", "Upgrade", "Summit", "Spy")


def _n_cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _pile(cards: list[str]) -> str:
    return describe_cards(cards).replace('"no cards"', "empty") if cards else "empty"


#: Setup lines added now and then, each on its own (about one table in three has each):
#: factions, technologies, limits, units, strategy cards, tokens. A card's own player is
#: sometimes the owner of what it could target (ti4:note-7), and Insubordination's target
#: sometimes has no tactic token to remove (ti4:2.6.1).
EXTRAS = (
    "Alice is the Hacan player",
    'Carol has researched "Neural Motivator"',
    'Alice has researched "Neural Motivator"',
    "Alice's hand limit is raised by 1 by a game effect",
    "Bob's hand limit is lowered by 1 by a game effect",
    "Bob has a destroyer",
    "Alice has a cruiser",
    "Alice has the Politics strategy card",
    "Carol has 1 command token in their strategy pool",
    "Carol has 0 command tokens in their tactic pool",
)
#: The laws in play, one line (a law in play is one of them; Executive Sanctions sets every
#: hand limit, ti4:2.4.1).
LAWS = ('the law "Minister of Commerce" is in play', 'the law "Executive Sanctions" is in play',
        'the laws "Minister of Commerce" and "Executive Sanctions" are in play')
#: The Yssaril player, in one table in three (drawn on its own: Scheming changes every draw).
YSSARIL = "Bob is the Yssaril player"
#: In half the status phase's Yssaril tables, Bob has Neural Motivator too: a turn of two cards
#: and Scheming's one more, in one draw (ti4:note-5.2); with the other Neural Motivator player
#: dealt before him, the deal shows what two cards are (ti4:note-5.1) apart from Scheming.
YSSARIL_MOTIVATED = 'Bob has researched "Neural Motivator"'
#: Scenes a table may hold, one at most: the board and the cards
#: that go with it, drawn together since neither shows anything without the other (about one
#: table in three). Planets,
#: with a card that spends them for its cost (Impersonation: a cost not met, ti4:2.6.1; a
#: cost not paid when the card is cancelled, ti4:2.8) and a card aimed at another player's
#: planet (Uprising: an exhausted one is no target, ti4:note-9); ships that use SUSTAIN
#: DAMAGE against Alice's hits (Direct Hit: "that ship", ti4:2.7) and rolls whose hits a card
#: answers (Shields Holding: the player the hits are against, ti4:2.6; a second copy after
#: the next roll, ti4:2.6.2). Each is (setup lines, cards added to hands).
SCENES: tuple[tuple[tuple[str, ...], tuple[tuple[str, str], ...]], ...] = (
    (('Alice controls the planet "Arinam" with 1 resources and 2 influence',
      'Alice controls the planet "Lodor" with 3 resources and 1 influence',
      'Bob controls the planet "Quann" with 2 resources and 1 influence'),
     (("Alice", "Impersonation"),)),
    (('Alice controls the planet "Arinam" with 1 resources and 2 influence',
      'Alice controls the planet "Lodor" with 3 resources and 1 influence',
      'Bob controls the exhausted planet "Quann" with 2 resources and 1 influence'),
     (("Alice", "Impersonation"), ("Alice", "Uprising"), ("Bob", "Sabotage"))),
    (("Bob has 2 dreadnoughts",),
     (("Alice", "Direct Hit"), ("Alice", "Direct Hit"), ("Bob", "Shields Holding"),
      ("Bob", "Shields Holding"))),
    (("Bob has 2 dreadnoughts",), (("Alice", "Direct Hit"), ("Carol", "Shields Holding"))),
)
#: A byte at or above this adds an extra line (about one in three): lowered by shrinking,
#: the line goes.
_EXTRA_AT = 172
#: Timing windows a table may open besides the phase's own: a combat round's (Morale Boost,
#: twice in one window or again in the next, ti4:2.6.2) and an agenda vote's (Bribery, and a
#: Sabotage outside the action phase, ti4:2.6).
COMBAT_WINDOW = "At the start of a combat round"
AGENDA_WINDOW = "After the speaker votes on an agenda"
_PHASES = (("it is the action phase, Alice's turn",), ("it is the status phase",),
           ("it is the action phase, Alice's turn",), ("it is the status phase",),
           ("it is the action phase, Alice's turn",
            f'the timing window "{COMBAT_WINDOW}" is open'),
           ("it is the agenda phase", f'the timing window "{AGENDA_WINDOW}" is open'))


@functools.cache
def _cards(pool: tuple[str, ...], max_size: int) -> st.SearchStrategy[list[str]]:
    """Lists of cards from the pool (built once: a strategy costs more to build than to draw
    from)."""
    return listed(pool, max_size)


_ORDERS = st.permutations(PLAYERS)


#: Copies of each card in the action deck (docs/protocol.md, "Copies").
_COUNTS = MappingProxyType({f.name: f.count for f in load_card_facts()})


@st.composite
def _setups(draw: Any, pool: tuple[str, ...], spares: tuple[str, ...], extras: tuple[str, ...],
            laws: tuple[str, ...], phases: tuple[tuple[str, ...], ...], yssaril: tuple[str, ...],
            scenes: tuple[tuple[tuple[str, ...], tuple[tuple[str, str], ...]], ...] = ()
            ) -> list[str]:
    lines = [f"the players are {', '.join(PLAYERS[:-1])} and {PLAYERS[-1]}"]
    lines += draw(st.sampled_from(phases))
    order = draw(_ORDERS)
    if list(order) != list(PLAYERS):
        lines.append(f"the initiative order is {', '.join(order[:-1])} and {order[-1]}")
    # A scene (about one table in three; its byte lowered by shrinking, it goes).
    scene = draw(st.integers(0, 3 * len(scenes) - 1)) - 2 * len(scenes) if scenes else -1
    board, dealt = scenes[scene] if scene >= 0 else ((), ())
    if draw(st.integers(0, 9)) > 0 or dealt:  # mostly given hands; sometimes a new game
        # A scene's hands are short: one over the limit would be answered first. Its cards
        # come first within the deck's counts, then the drawn piles.
        piles = [draw(_cards(pool, 3 if dealt else 9)) for _ in PLAYERS]
        piles += [draw(_cards(pool, 6)), draw(_cards(pool, 5))]
        _, *hands, deck, discard = within_counts([[c for _, c in dealt], *piles], _COUNTS,
                                                 spares)
        for player, hand in zip(PLAYERS, hands, strict=True):
            hand = hand + [c for p, c in dealt if p == player]
            lines.append(f"{player} holds {describe_cards(hand) if hand else 'no cards'}")
        lines.append(f"the action deck is {_pile(deck)}")
        lines.append(f"the action discard pile is {_pile(discard)}")
    if extras:
        picks = draw(st.binary(min_size=len(extras), max_size=len(extras)))
        lines += sorted(e for e, b in zip(extras, picks, strict=True) if b >= _EXTRA_AT)
    status = "it is the status phase" in lines
    # The status phase's deal leans towards the abilities that change it (ti4:note-5.1,
    # note-5.2): a Neural Motivator player in two tables of three, Yssaril in one of two.
    if status and extras:
        motivated = draw(st.sampled_from([e for e in extras if "Neural Motivator" in e]
                                         + [""]))
        if motivated and motivated not in lines:
            lines.append(motivated)
    if yssaril and draw(st.integers(0, 1 if status else 2)) == 0:
        lines.append(yssaril[0])
        if status and yssaril[1:] and draw(st.integers(0, 1)) == 0:
            lines.append(yssaril[1])
    if laws and draw(st.integers(0, 3)) == 0:
        lines.append(draw(st.sampled_from(laws)))
    return lines + list(board)


#: What each modelled card with a target aims at.
_TARGETS = {"Lucky Shot": "unit", "Direct Hit": "unit", "Insubordination": "player",
            "Repeal Law": "law", "Bribery": "trade goods", "Uprising": "planet"}
#: Cards that may not target their own player (ti4:note-7), by what they aim at.
_OFFENSIVE = {"Lucky Shot": "unit", "Direct Hit": "unit", "Insubordination": "player"}
#: Objects no table has (its units are a destroyer and a cruiser; its laws, these two), for a
#: play aimed at a specific object that does not exist (ti4:note-9).
_ABSENT = {"unit": "Bob's dreadnought", "law": 'the law "Articles of War"'}


def _targets(view: Any) -> dict[str, str]:
    """A target of each kind on the table now, as a step writes it; with none on the table,
    one that is not there (``_ABSENT``): a play names its card's target, as every scenario's
    does. A play with none left a field out, which docs/protocol.md ("Which reply") makes
    ``errored``: an engine answering so was charged an error on ti4:2.7."""
    found = {"player": "Carol", "trade goods": "0 trade goods", **_ABSENT}
    units = [u for u in view.get("units") or [] if u.get("owner") == "Bob"]
    if units:
        found["unit"] = str(units[0]["id"])
    laws = view.get("laws") or []
    if laws:
        found["law"] = f'the law "{laws[0]}"'
    planets = [p for p in view.get("planets") or [] if p.get("controller") == "Bob"]
    if planets:
        found["planet"] = f'the planet "{planets[0]["name"]}"'
    return found


_COMBAT_SCENE = "Bob has 2 dreadnoughts"
#: Moves of the scenes (``SCENES``), offered when the table holds their board: a roll and
#: ships using SUSTAIN DAMAGE (one, or both at once) against Alice's hits, a combat round
#: starting (in any phase: a card's window opened in another phase, ti4:2.6), and a cost
#: paid with too little influence or with enough, plain or cancelled.
_COMBAT_MOVES = ("Alice makes a space combat roll that produces 3 hits against Bob",
                 "Bob's dreadnought uses SUSTAIN DAMAGE to cancel hits produced by Alice",
                 "Bob's dreadnought and Bob's dreadnought 2 use SUSTAIN DAMAGE to cancel "
                 "hits produced by Alice",
                 "round 1 of a space combat between Alice and Bob starts",
                 "round 2 of a space combat between Alice and Bob starts")
_COSTS = ('Alice plays "Impersonation" spending the planet "Lodor"',
          'Alice plays "Impersonation" spending the planets "Arinam" and "Lodor"')
#: Politics resolved as one deal, the followers named in either order (the deal is
#: clockwise from the active player, whatever order they are named in).
_POLITICS_DEALS = tuple(f"Alice resolves the primary ability of Politics, choosing Bob as "
                        f"speaker, and {a} and {b} resolve its secondary ability"
                        for a, b in (("Bob", "Carol"), ("Carol", "Bob")))


def _accepted(explored: Explored, texts: Sequence[str]) -> list[str]:
    """The moves among ``texts`` played and accepted in this game, in order."""
    return [move for move in accepted_moves(explored) if move in texts]


#: Direct Hit aimed at each ship a combat scene may name.
DH_AT = {ship: f'Alice plays "Direct Hit" targeting {ship}'
         for ship in ("Bob's dreadnought", "Bob's dreadnought 2", "Alice's cruiser")}


def _since_last_event(explored: Explored) -> tuple[str, list[str]] | None:
    """The combat scene's last event accepted, and the moves accepted since (none: no event
    yet)."""
    accepted = accepted_moves(explored)
    at = max((i for i, m in enumerate(accepted) if m in _COMBAT_MOVES[:3]), default=None)
    return None if at is None else (accepted[at], accepted[at + 1:])


#: The events a combat scene plays in turn, as its natural next move: a roll, one ship's
#: SUSTAIN DAMAGE, a roll again (a second occurrence), both ships' SUSTAIN DAMAGE.
_EVENT_TURNS = (_COMBAT_MOVES[0], _COMBAT_MOVES[1], _COMBAT_MOVES[0], _COMBAT_MOVES[2])


def _scene_natural(explored: Explored, view: Any, hands: dict[str, list[str]],
                   holders: list[str]) -> str | None:
    """A scene's natural next move (see ``SCENES``): in a combat, the card that answers the
    last event, once (Shields Holding after a roll, by whoever holds it; Direct Hit after
    SUSTAIN DAMAGE at the second ship, and after both ships used it at Alice's own cruiser
    if she has one, then at each ship in turn: a second copy on another thing), else the
    next event; with planets, Alice's Impersonation (cancelled, where someone else holds a
    Sabotage), then her Uprising at Bob's planet."""
    units = view.get("units") or ()
    if _in_combat(explored):
        events = _accepted(explored, _COMBAT_MOVES[:3])
        last = _since_last_event(explored)
        if last is not None:
            event, after = last
            if event == _COMBAT_MOVES[0]:
                holder = next((p for p in PLAYERS if "Shields Holding" in hands[p]), None)
                answer = f'{holder} plays "Shields Holding"' if holder else None
                return answer if answer and answer not in after else \
                    _EVENT_TURNS[len(events) % len(_EVENT_TURNS)]
            if "Direct Hit" in hands["Alice"]:
                # After one ship's SUSTAIN DAMAGE, the other ship; after both, Alice's own
                # cruiser (if she has one), then each of the two in turn.
                aims = [DH_AT["Bob's dreadnought 2"]]
                if event == _COMBAT_MOVES[2]:
                    if any(u.get("id") == "Alice's cruiser" for u in units):
                        aims.insert(0, DH_AT["Alice's cruiser"])
                    aims.append(DH_AT["Bob's dreadnought"])
                aim = next((m for m in aims if m not in after), None)
                if aim:
                    return aim
        return _EVENT_TURNS[len(events) % len(_EVENT_TURNS)]
    if not view.get("planets"):
        return None
    if "Impersonation" in hands["Alice"]:
        canceller = next((q for q in holders if q != "Alice"), None)
        return f'{_COSTS[1]} and {canceller} cancels it with "Sabotage"' if canceller \
            else _COSTS[0]
    if "Uprising" in hands["Alice"]:
        target = _targets(view).get("planet")
        return f'Alice plays "Uprising" targeting {target}' if target else None
    return None


def _in_combat(explored: Explored) -> bool:
    """Whether the table holds the combat scene (by its Given line: a ship Direct Hit
    destroys leaves the table, the scene goes on)."""
    return _COMBAT_SCENE in explored.given


def _scene_moves(explored: Explored, view: Any, holders: list[str]) -> list[str]:
    """The moves of the scenes the table holds (see ``SCENES``)."""
    moves: list[str] = []
    if _in_combat(explored):
        moves += _COMBAT_MOVES
        if "Direct Hit" in _hand(explored, "Alice"):
            moves.append('Alice plays "Direct Hit" targeting Bob\'s dreadnought 2')
    if view.get("planets") and "Impersonation" in _hand(explored, "Alice"):
        moves += _COSTS
        canceller = next((q for q in holders if q != "Alice"), None)
        if canceller:
            moves.append(f'{_COSTS[1]} and {canceller} cancels it with "Sabotage"')
    return [m for m in moves if explored.supported("when", m)]


def _own(view: Any, player: str, kind: str) -> str | None:
    """What of ``player``'s own an offensive card of this kind could aim at (ti4:note-7)."""
    if kind == "player":
        return player
    return next((str(u["id"]) for u in view.get("units") or [] if u.get("owner") == player),
                None)


@functools.lru_cache(maxsize=4096)
def _card_moves(player: str, card: str, target: str | None, canceller: str
                ) -> tuple[str, str, str, str]:
    """A held card's moves: played, played and cancelled, revealed, given away (the same few
    hundred texts come back every state, so they are made once).

    A play is aimed at a target of its kind that is on the table (a unit, a law), or at one
    that is not when there is none (``_targets``): the rules refuse it (ti4:note-9)."""
    aimed = f" targeting {target}" if target else ""
    other = next(q for q in PLAYERS if q != player)
    play = f'{player} plays "{card}"{aimed}'
    return (play, f'{play} and {canceller} cancels it with "Sabotage"',
            f'{player} reveals "{card}"', f'{player} gives "{card}" to {other} in a transaction')


#: The moves offered in every state, after the answers to pending decisions (made once).
_EVERY_STATE = (*(f"{p} draws {n}" for p in PLAYERS for n in ("1 action card", "2 action cards")),
                'the status phase step "Draw Action Cards" is resolved',
                "Alice resolves the primary ability of Politics, choosing Bob as speaker",
                "Alice ends their turn")
_STATUS_DRAW, _PRIMARY = _EVERY_STATE[6], _EVERY_STATE[7]
_LATER_STEP = 'the status phase step "Ready Cards" is resolved'
#: A second status phase, once this one's deal is done: an ability that changes each status
#: phase's deal (ti4:note-5.1, "each status phase") must change the next one too. Offered
#: only to an engine declaring it (``ti4/rounds``).
_NEXT_STATUS = "the game goes on to the status phase of the next round"
_SECONDARY = {p: f"{p} resolves the secondary ability of Politics" for p in PLAYERS}


def _offered(explored: Explored, player: str, card: str,
             targets: dict[str, str], canceller: str) -> tuple[str, ...]:
    """``_card_moves``, or none when the engine does not declare what revealing the card
    needs (a card it does not model); remembered per (player, card, target, canceller) for
    the game, as the same few come back every state."""
    offered = explored.memo.get("card moves")
    if offered is None:
        offered = explored.memo["card moves"] = {}
    key = (player, card, targets.get(_TARGETS.get(card, "")), canceller)
    plays = offered.get(key)
    if plays is None:
        plays = _card_moves(*key)
        plays = offered[key] = plays if explored.supported("when", plays[2]) else ()
    return plays


def _aimed_elsewhere(view: Any, player: str, card: str, targets: dict[str, str]
                     ) -> list[str]:
    """Plays of a held card aimed where the rules forbid: at its own player's things, for an
    offensive card (ti4:note-7), and at a specific object that does not exist (ti4:note-9)."""
    moves = []
    kind = _OFFENSIVE.get(card)
    own = _own(view, player, kind) if kind else None
    if own:
        moves.append(f'{player} plays "{card}" targeting {own}')
    absent = _ABSENT.get(_TARGETS.get(card, ""))
    if absent and absent != targets.get(_TARGETS[card]):  # else the play itself aims there
        moves.append(f'{player} plays "{card}" targeting {absent}')
    return moves


def _answers_to(view: Any, stack: list[Any], holders: list[str]) -> list[str]:
    """While cards are being played: a Sabotage holder answers the top card (the natural
    move), and, when that is a Sabotage, the card under it too (a Sabotage may not answer a
    Sabotage, nor its own player's card, ti4:2.6); or everyone passes."""
    moves = []
    top = stack[-1]
    for q in holders:
        moves.append(f'{q} plays "{SABOTAGE}" targeting "{top["card"]}"')
        if q == top.get("player"):
            continue
        moves.append(f'{q} starts playing "{SABOTAGE}" targeting "{top["card"]}"')
        if len(stack) > 1 and stack[-2].get("player") != q:
            moves.append(f'{q} plays "{SABOTAGE}" targeting "{stack[-2]["card"]}"')
    return [*moves[:1], "all players pass", *moves[1:]]


def _replayed_after_cancel(explored: Explored) -> str | None:
    """After a play that was cancelled, the same play again (a second copy may be played,
    ti4:note-6), if its player still holds the card."""
    last = explored.lines[-1] if explored.lines else ""
    if explored.last_rejected or " cancels it with " not in last:
        return None
    play = last.removeprefix("When ").split(" and ", 1)[0]
    player, _, rest = play.partition(" plays ")
    card = rest.split('"')[1] if rest.count('"') >= 2 else ""
    return play if card and card in _hand(explored, player) else None


def _done(explored: Explored, move: str) -> bool:
    """Whether ``move`` was played and accepted in this round of the game (since the game
    last went on to the next round, ``_NEXT_STATUS``)."""
    accepted = accepted_moves(explored)
    since = len(accepted) - accepted[::-1].index(_NEXT_STATUS) if _NEXT_STATUS in accepted \
        else 0
    return move in accepted[since:]


def _holds_politics(explored: Explored) -> bool:
    """Whether the table is Alice's turn and she has the Politics strategy card."""
    state = explored.world.state
    return state.get("phase") == "action" and any(
        p["name"] == "Alice" and "Politics" in (p.get("strategy_cards") or ())
        for p in state["players"])


def _is_yssaril(explored: Explored, player: str) -> bool:
    return any(p["name"] == player and p.get("faction") == "Yssaril"
               for p in explored.world.state["players"])


def _hand(explored: Explored, player: str) -> list[str]:
    """The cards of ``player``'s hand, as the referee sees them."""
    return hand_cards(explored.view(), player)


_KEEP = re.compile(r"\w+ keeps ")


def _sorted_discard(view: dict[str, Any]) -> None:
    decks = dict(view.get("decks") or {})
    deck = dict(decks.get("action") or {})
    if isinstance(deck.get("discard"), list):
        deck["discard"] = sorted(deck["discard"])
    decks["action"] = deck
    view["decks"] = decks


class TI4Choices(NoChoices):
    """What the TI4 rules leave to the engine beyond the protocol's choices, for differential
    exploration (docs/protocol.md, "Comparing two engines"): the order in which the cards one
    keep discards land on the discard pile (ti4:2.4#2 "discard the rest" gives none). An
    outside engine discarding them in the order chosen was charged to ti4:note-4."""

    def outcome(self, before: Any, text: str) -> Loosened | None:
        if _KEEP.match(text):
            return Loosened("the order of the cards one keep discards", _sorted_discard)
        return None


class TI4Model:
    """The TI4 exploration model: setups, moves and invariants."""

    choices = TI4Choices()

    #: The rule that states each action a move sends: an engine failing to answer one is
    #: charged there (``oracle.explore.model.move_rules_of``). Not listed, as no one rule
    #: states them: timing windows, the end of a turn, trades.
    move_rules = MappingProxyType({
        "draw": "ti4:2.3", "play": "ti4:2.7", "resolve": "ti4:2.7", "reveal": "ti4:note-3",
        "politics_primary": "ti4:2.2", "politics_secondary": "ti4:2.2", "politics": "ti4:2.2",
        "status_draw": "ti4:2.1",
    })
    #: The rule that states how each kind of decision is answered (``answer_rules_of``): a
    #: hand over the limit keeps seven (2.4). Not listed: Scheming's discard, a faction
    #: ability no rule of the section states (note-5.2 only orders it).
    answer_rules = MappingProxyType({"keep": "ti4:2.4"})

    def setups(self, supported: Supported) -> st.SearchStrategy[list[str]]:
        """Tables built from the cards the engine declares it models (a card only held
        needs no declaration, but the explored games stay those the engine's own cards
        make: a probe's step runs alone, so a bound card counts as played) and the extras
        it can set up."""
        pool = tuple(c for c in POOL if supported("given", f'card A is "{c}"'))
        # The copies a table has beyond the deck's are other cards, only held: none the
        # engine models, so that no move plays them (``within_counts``).
        spares = tuple(f.name for f in load_card_facts() for _ in range(f.count)
                       if f.name not in POOL and not supported("given", f'card A is "{f.name}"'))
        scenes = tuple(
            (board, cards) for board, cards in SCENES
            if all(supported("given", line) for line in board)
            and all(supported("given", f'card A is "{c}"') for _, c in cards))
        return _setups(pool, spares, tuple(e for e in EXTRAS if supported("given", e)),
                       tuple(law for law in LAWS if supported("given", law)),
                       tuple(p for p in _PHASES if all(supported("given", x) for x in p)),
                       tuple(takewhile(lambda line: supported("given", line),
                                       (YSSARIL, YSSARIL_MOTIVATED))),
                       scenes)

    def moves(self, explored: Explored) -> list[str]:
        view = explored.view()
        targets = _targets(view)
        moves = answer_moves(
            view,
            lambda name, count: [f"{name} keeps {count} cards",
                                 f"{name} keeps {max(count - 1, 0)} cards"],
            lambda name: [f'{name} discards "{c}"' for c in _hand(explored, name)],
        )
        hands = {p: _hand(explored, p) for p in PLAYERS}
        holders = [p for p in PLAYERS if SABOTAGE in hands[p]]
        stack = list(view.get("being_played") or [])
        # The natural next move first: answering the cards being played; the status phase's
        # deal; a cancelled card's second copy.
        if stack:
            moves += _answers_to(view, stack, holders)
        if view.get("phase") == "status":
            if not _done(explored, _STATUS_DRAW):
                moves.append(_STATUS_DRAW)
            elif explored.supported("when", _NEXT_STATUS):
                moves.append(_NEXT_STATUS)
        if _holds_politics(explored) and not any(
                _done(explored, m) for m in (_PRIMARY, *_POLITICS_DEALS)):
            deals = [m for m in _POLITICS_DEALS if explored.supported("when", m)]
            moves += [*deals[-1:], _PRIMARY, *deals[:-1]]
        again = _replayed_after_cancel(explored)
        if again:
            moves.append(again)
        natural = _scene_natural(explored, view, hands, holders)
        if natural:
            moves.append(natural)
        moves += _EVERY_STATE
        moves += _scene_moves(explored, view, holders)
        if view.get("phase") == "status":  # a later step, after which the deal is refused
            moves.append(_LATER_STEP)
        if view.get("window") == COMBAT_WINDOW:
            moves.append(f'the timing window "{COMBAT_WINDOW}" opens')
        for p in PLAYERS:
            moves.append(_SECONDARY[p])
            held = dict.fromkeys(hands[p])
            canceller = next((q for q in holders if q != p),
                             "Carol" if p != "Carol" else "Bob")
            # Cards the engine does not model (dealt from its full deck) are never named in
            # a request: the search would only skip those moves.
            known = []
            for card in held:
                plays = _offered(explored, p, card, targets, canceller)
                if not plays:
                    continue
                known.append(card)
                moves += plays
                if card != SABOTAGE and any(q != p for q in holders):
                    moves.append(plays[0].replace(" plays ", " starts playing ", 1))
                moves += _aimed_elsewhere(view, p, card, targets)
            if len(known) > 1:  # several cards shown at once (ti4:note-3)
                moves.append(f'{p} reveals "{known[0]}" and "{known[1]}"')
            # Often illegal: a card not held.
            for stranger in POOL:
                if stranger not in held:
                    plays = _offered(explored, p, stranger, targets, canceller)
                    if plays:
                        moves += (plays[0], plays[2])
                        if known:
                            moves.append(f'{p} reveals "{known[0]}" and "{stranger}"')
                        break
        return moves

    def invariants(self) -> Sequence[Invariant]:
        return INVARIANTS

    def shows(self, explored: Explored) -> list[str]:
        """What a differential finding's scenario may state beyond the invariants: each
        hand's cards as their owner sees them (a deal's order shows there), and each
        planet's state (a cost paid or not)."""
        view = explored.view()
        lines = []
        for p in PLAYERS:
            count, cards = explored.hand(p, p)
            if len(cards) == count:
                lines.append(f"{p} holds {describe_cards(cards) if cards else 'no cards'}")
        for planet in view.get("planets") or ():
            state = "exhausted" if planet.get("exhausted") else "readied"
            lines.append(f'the planet "{planet["name"]}" is {state}')
        return lines


# -- invariants --------------------------------------------------------------------------------


def _total(view: Any) -> int:
    deck = view["decks"]["action"]
    total = int(deck["draw"]["count"]) + len(deck["discard"])
    for p in view["players"].values():  # a loop, not sum(): this runs after every move
        total += int(p["hand"]["count"])
    return total + len(view.get("being_played") or [])


def _conserved(explored: Explored) -> Check:
    return conserved(explored, _total(explored.view()),
                     lambda start, now: f"the game had {start} action cards and now has {now}")


def _counts_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    deck = view["decks"]["action"]
    lines = [f"the action deck is {_n_cards(deck['draw']['count'])}",
             f"the action discard pile is {_n_cards(len(deck['discard']))}"]
    lines += [f"{p} holds {_n_cards(view['players'][p]['hand']['count'])}" for p in PLAYERS]
    return lines


def _limits(explored: Explored) -> dict[str, int]:
    """Each player's hand limit, as the game's Given steps set it (they cannot change once
    the game has started, so they are worked out once a game)."""
    limits = explored.memo.get("limits")
    if limits is None:
        limits = explored.memo["limits"] = {
            p["name"]: BASE_LIMIT + int(p.get("hand_limit_modifier", 0))
            for p in explored.world.state["players"]}
    return limits


def _limit_kept(explored: Explored) -> Check:
    """Exercised by a state, between resolutions, where some hand is over its limit."""
    view = explored.view()
    if view.get("being_played"):
        return None  # the limit is checked when a resolution is over
    waiting = {p["player"] for p in view.get("pending") or []}
    over = False
    limits, players = _limits(explored), view["players"]
    for player in PLAYERS:
        count = int(players[player]["hand"]["count"])
        if count > limits[player]:
            over = True
            if player not in waiting:
                return (f"{player} holds {count} action cards, over the limit of "
                        f"{limits[player]}, and is not made to discard")
    return HELD if over else None


def _pending_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    lines = [f"{p['player']} must {p['decision']} {_n_cards(int(p['count']))}"
             for p in reference.view("*").get("pending") or []]
    return lines or ["no decision is pending"]


def _reshuffled(explored: Explored) -> Check:
    """After a plain draw (which discards nothing), an empty deck means an empty discard pile.

    Other moves may legitimately discard onto an empty deck (a played card, a
    hand-limit discard, Scheming), so only draws by a non-Yssaril player count; and only
    a draw that took the deck's last card (or more) exercises the rule. A draw while a
    hand-limit discard is owed may empty the deck of a deal that waits for it: the deal
    reshuffles once those it dealt have discarded down (ti4:81.note-2#2), so it does not
    count either.
    """
    last = explored.lines[-1] if explored.lines else ""
    if explored.last_rejected or " draws " not in last or _is_yssaril(
            explored, last.removeprefix("When ").split(" ", 1)[0]):
        return None
    if any(p.get("decision") == "keep" for p in (explored.before or {}).get("pending") or ()):
        return None
    deck = explored.view()["decks"]["action"]
    if int(deck["draw"]["count"]) == 0 and deck["discard"]:
        return (f"the action deck is empty while the discard pile holds "
                f"{len(deck['discard'])} card(s): it was not reshuffled at once")
    before = explored.before["decks"]["action"] if explored.before else None
    drawn = 2 if " draws 2 " in last else 1
    return HELD if before is not None and int(before["draw"]["count"]) <= drawn else None


def _piles_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    deck = reference.view("*")["decks"]["action"]
    return [f"the action deck is {_n_cards(deck['draw']['count'])}",
            f"the action discard pile is {_pile(list(deck['discard']))}"]


def _revealed(explored: Explored) -> dict[str, dict[str, int]]:
    """The cards each player revealed, copies per name (a rejected reveal shows nothing: a
    card seen after one is a leak). Read once per line: between two checks, lines are only
    added (a move's When line, and the line saying it was rejected, if it was), or taken
    back (``Explored.take_back``: then read again)."""
    lines = explored.lines
    read, taken_back, shown = explored.memo.get("revealed") or (0, -1, None)
    if shown is None or taken_back != explored.taken_back or read > len(lines):
        read, shown = 0, {p: {} for p in PLAYERS}
    for i in range(read, len(lines)):
        player, verb, cards = lines[i].partition(" reveals ")
        if verb and player.startswith("When ") and lines[i + 1: i + 2] != [REJECTED_LINE]:
            name = player.removeprefix("When ")
            if name in shown:
                counts = shown[name]
                for card in cards.split('"')[1::2]:  # "A" and "B": each shown once more
                    counts[card] = counts.get(card, 0) + 1
    explored.memo["revealed"] = (len(lines), explored.taken_back, shown)
    return shown


def _allowed(hand: Any, revealed: dict[str, int]) -> dict[str, int]:
    """How many copies of each name in ``hand`` others may see: those revealed, while held."""
    held = list(hand or ())
    return {card: min(n, held.count(card)) for card, n in revealed.items()}


def _beyond(seen: list[str], allowed: dict[str, int]) -> list[str]:
    """The cards of ``seen`` beyond ``allowed`` copies of each name, sorted (plain dicts: a
    ``Counter`` costs several times more, and this runs after most moves)."""
    left = dict(allowed)
    extra = []
    for card in seen:
        if left.get(card, 0) > 0:
            left[card] -= 1
        else:
            extra.append(card)
    return sorted(extra)


#: Each owner with everyone else who may look at their hand, in the order they are asked.
_OTHERS = tuple((owner, tuple(other_viewers(owner, PLAYERS))) for owner in PLAYERS)


def _hidden(explored: Explored) -> Check:
    """Exercised by every state where some hand holds a card. Only the cards seen count
    here: a hand size not shown is ti4:note-2's.

    Every other viewer's view of every hand is compared with what was revealed (this runs
    after every move, and in most states some cards are revealed: each viewer's view and
    the revealed cards are read once a state, and a viewer shown what another was shown
    already is not counted again)."""
    held = False
    view = explored.world.view
    referee = view(REFEREE)["players"]
    seen_by: dict[str | None, Any] = {}  # each viewer's players, asked for once, in order
    revealed: dict[str, dict[str, int]] | None = None
    for owner, viewers in _OTHERS:
        hand = referee[owner]["hand"].get("cards")
        if hand:
            held = True
        allowed: dict[str, int] | None = None  # copies of each name others may see
        fine: list[list[str]] = []  # what other viewers were seen to be allowed to see
        for viewer in viewers:
            players = seen_by.get(viewer)
            if players is None:
                players = seen_by[viewer] = view(viewer)["players"]
            seen = players[owner]["hand"].get("cards")
            if not seen:
                continue
            if type(seen) is not list:
                seen = list(seen)
            if seen in fine:
                continue
            if allowed is None:
                if revealed is None:
                    revealed = _revealed(explored)
                allowed = _allowed(hand, revealed[owner])
            extra = _beyond(seen, allowed)
            if extra:
                who = viewer or "a spectator"
                return f"{who} sees {describe_cards(extra)} in {owner}'s hand"
            fine.append(seen)
    return HELD if held else None


def _public_size(explored: Explored) -> Check:
    """Exercised by every state (an empty hand's size is public too)."""
    view = explored.world.view
    referee = view(REFEREE)["players"]
    for owner, viewers in _OTHERS:
        count = int(referee[owner]["hand"]["count"])
        for viewer in viewers:
            hand = view(viewer)["players"][owner]["hand"]
            shown = hand.get("count")
            if shown is None or int(shown) != count:
                shown = shown_count(hand, owner, viewer)  # says so if no count is shown
                return f"{viewer or 'a spectator'} is shown {shown} cards in {owner}'s " \
                       f"hand; it holds {count}"
    return HELD


def _viewers_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    return hands_as_seen(reference, PLAYERS)


def _zero_at_start(explored: Explored) -> Check:
    """Exercised by a setup that leaves some player's hand to the game."""
    if explored.moves:
        return None
    new = [p for p in PLAYERS if not explored.hand_given(p)]
    for player in new:
        count = int(explored.view()["players"][player]["hand"]["count"])
        if count:
            return f"{player} starts a new game with {count} action card(s)"
    return HELD if new else None


def _zero_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    return [f"{p} holds no cards" for p in PLAYERS if not explored.hand_given(p)]


INVARIANTS: tuple[Invariant, ...] = (
    Invariant("cards are conserved", ("ti4:2.3", "ti4:2.7"), _conserved, _counts_then),
    Invariant("the hand limit holds after every resolution", ("ti4:2.4", "ti4:note-10"),
              _limit_kept, _pending_then),
    Invariant("a depleted deck is reshuffled at once", ("ti4:note-4",), _reshuffled,
              _piles_then),
    Invariant("hands are hidden from other viewers", ("ti4:2.5",), _hidden, _viewers_then),
    Invariant("hand sizes are public", ("ti4:note-2",), _public_size, _viewers_then),
    Invariant("players start with zero cards", ("ti4:note-1",), _zero_at_start, _zero_then),
    Invariant("a rejected action changes nothing", ("ti4:2.7",), rejection_checked, _counts_then,
              catches_violations=True),
)

MODEL = TI4Model()
