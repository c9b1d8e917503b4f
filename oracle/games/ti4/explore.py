"""How to explore TI4 action cards: random tables, random moves, and what must always hold.

States and moves are step texts of the project's own DSL (see
``oracle.explore``), so every counterexample is a scenario a committee can
read. Cards come from the real deck's names; the moves include illegal ones
(playing a card out of its window, drawing while a discard is owed), since a
rejected action must change nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st

from oracle.explore import Explored, Invariant
from oracle.games.kit.explore import (
    answer_moves,
    conserved,
    hand_cards,
    hands_as_seen,
    other_viewers,
)
from oracle.scenario.world import ScenarioWorld
from oracle.suite.dsl import describe_cards

PLAYERS = ("Alice", "Bob", "Carol")
BASE_LIMIT = 7
#: Real card names: the modelled ones and a few with other windows.
POOL = ("Sabotage", "Lucky Shot", "Direct Hit", "Insubordination", "Repeal Law", "Bribery",
        "Morale Boost", "Veto", "Plague", "Upgrade", "Summit", "Spy")


def _n_cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _pile(cards: list[str]) -> str:
    return describe_cards(cards).replace('"no cards"', "empty") if cards else "empty"


@st.composite
def _setups(draw: Any) -> list[str]:
    lines = [f"the players are {', '.join(PLAYERS[:-1])} and {PLAYERS[-1]}"]
    action = draw(st.booleans())
    lines.append("it is the action phase, Alice's turn" if action else "it is the status phase")
    order = draw(st.permutations(PLAYERS))
    if list(order) != list(PLAYERS):
        lines.append(f"the initiative order is {', '.join(order[:-1])} and {order[-1]}")
    cards = st.lists(st.sampled_from(POOL), max_size=9)
    if draw(st.integers(0, 9)) > 0:  # mostly given hands; sometimes a new game
        for player in PLAYERS:
            hand = draw(cards)
            lines.append(f"{player} holds {describe_cards(hand) if hand else 'no cards'}")
        deck = draw(st.lists(st.sampled_from(POOL), max_size=6))
        lines.append(f"the action deck is {_pile(deck)}")
        lines.append("the action discard pile is "
                     f"{_pile(draw(st.lists(st.sampled_from(POOL), max_size=5)))}")
    extras = st.sampled_from([
        "Bob is the Yssaril player",
        "Alice is the Hacan player",
        'Carol has researched "Neural Motivator"',
        "Alice's hand limit is raised by 1 by a game effect",
        "Bob's hand limit is lowered by 1 by a game effect",
        "Bob has a destroyer",
        "Alice has the Politics strategy card",
        "Carol has 1 command token in their strategy pool",
        'the law "Minister of Commerce" is in play',
    ])
    lines += sorted(set(draw(st.lists(extras, max_size=4))))
    return lines


def _is_yssaril(explored: Explored, player: str) -> bool:
    return any(p["name"] == player and p.get("faction") == "Yssaril"
               for p in explored.world.state["players"])


def _hand(explored: Explored, player: str) -> list[str]:
    """The cards of ``player``'s hand, as the referee sees them."""
    return hand_cards(explored.view(), player)


class TI4Model:
    """The TI4 exploration model: setups, moves and invariants."""

    def setups(self) -> st.SearchStrategy[list[str]]:
        return _setups()

    def moves(self, explored: Explored) -> list[str]:
        moves = answer_moves(
            explored.view(),
            lambda name, count: [f"{name} keeps {count} cards",
                                 f"{name} keeps {max(count - 1, 0)} cards"],
            lambda name: [f'{name} discards "{c}"' for c in _hand(explored, name)],
        )
        for p in PLAYERS:
            moves += [f"{p} draws 1 action card", f"{p} draws 2 action cards"]
        moves += ['the status phase step "Draw Action Cards" is resolved',
                  "Alice resolves the primary ability of Politics, choosing Bob as speaker",
                  "Alice ends their turn"]
        for p in PLAYERS:
            other = next(q for q in PLAYERS if q != p)
            moves.append(f"{p} resolves the secondary ability of Politics")
            for card in dict.fromkeys(_hand(explored, p)):
                moves += [self._play(p, card, False), self._play(p, card, True),
                          f'{p} reveals "{card}"',
                          f'{p} gives "{card}" to {other} in a transaction']
            moves += [self._play(p, "Veto", False), f'{p} reveals "Summit"']  # often illegal
        return moves

    @staticmethod
    def _play(player: str, card: str, cancelled: bool) -> str:
        target = {
            "Lucky Shot": " targeting Bob's destroyer",
            "Direct Hit": " targeting Bob's destroyer",
            "Insubordination": " targeting Carol",
            "Repeal Law": ' targeting the law "Minister of Commerce"',
            "Bribery": " targeting 0 trade goods",
        }.get(card, "")
        canceller = "Carol" if player != "Carol" else "Bob"
        cancel = f' and {canceller} cancels it with "Sabotage"' if cancelled else ""
        return f'{player} plays "{card}"{target}{cancel}'

    def invariants(self) -> Sequence[Invariant]:
        return INVARIANTS


# -- invariants --------------------------------------------------------------------------------


def _total(view: Any) -> int:
    deck = view["decks"]["action"]
    return (int(deck["draw"]["count"]) + len(deck["discard"])
            + sum(int(p["hand"]["count"]) for p in view["players"].values())
            + len(view.get("being_played") or []))


def _conserved(explored: Explored) -> str | None:
    return conserved(explored, _total(explored.view()),
                     lambda start, now: f"the game had {start} action cards and now has {now}")


def _counts_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    view = reference.view("*")
    deck = view["decks"]["action"]
    lines = [f"the action deck is {_n_cards(deck['draw']['count'])}",
             f"the action discard pile is {_n_cards(len(deck['discard']))}"]
    lines += [f"{p} holds {_n_cards(view['players'][p]['hand']['count'])}" for p in PLAYERS]
    return lines


def _limit(explored: Explored, player: str) -> int:
    entry = next(p for p in explored.world.state["players"] if p["name"] == player)
    return BASE_LIMIT + int(entry.get("hand_limit_modifier", 0))


def _limit_kept(explored: Explored) -> str | None:
    view = explored.view()
    if view.get("being_played"):
        return None  # the limit is checked when a resolution is over
    waiting = {p["player"] for p in view.get("pending") or []}
    for player in PLAYERS:
        count = int(view["players"][player]["hand"]["count"])
        if count > _limit(explored, player) and player not in waiting:
            return (f"{player} holds {count} action cards, over the limit of "
                    f"{_limit(explored, player)}, and is not made to discard")
    return None


def _pending_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    lines = [f"{p['player']} must {p['decision']} {_n_cards(int(p['count']))}"
             for p in reference.view("*").get("pending") or []]
    return lines or ["no decision is pending"]


def _reshuffled(explored: Explored) -> str | None:
    """After a plain draw (which discards nothing), an empty deck means an empty discard pile.

    Other moves may legitimately discard onto an empty deck (a played card, a
    hand-limit discard, Scheming), so only draws by a non-Yssaril player count.
    """
    last = explored.lines[-1] if explored.lines else ""
    drawer = last.removeprefix("When ").split(" ", 1)[0]
    if explored.last_rejected or " draws " not in last or _is_yssaril(explored, drawer):
        return None
    deck = explored.view()["decks"]["action"]
    if int(deck["draw"]["count"]) == 0 and deck["discard"]:
        return (f"the action deck is empty while the discard pile holds "
                f"{len(deck['discard'])} card(s): it was not reshuffled at once")
    return None


def _piles_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    deck = reference.view("*")["decks"]["action"]
    return [f"the action deck is {_n_cards(deck['draw']['count'])}",
            f"the action discard pile is {_pile(list(deck['discard']))}"]


def _revealed(explored: Explored, owner: str) -> Counter[str]:
    shown: Counter[str] = Counter()
    for line in explored.lines:
        prefix = f"When {owner} reveals "
        if line.startswith(prefix):
            shown[line.removeprefix(prefix).strip('"')] += 1
    return shown


def _hidden(explored: Explored) -> str | None:
    for owner in PLAYERS:
        hand = Counter(_hand(explored, owner))
        for viewer in other_viewers(owner, PLAYERS):
            _, seen = explored.hand(owner, viewer)
            extra = Counter(seen) - (hand & (_revealed(explored, owner) + Counter()))
            if extra:
                who = viewer or "a spectator"
                return f"{who} sees {describe_cards(sorted(extra.elements()))} in {owner}'s hand"
    return None


def _public_size(explored: Explored) -> str | None:
    for owner in PLAYERS:
        count = int(explored.view()["players"][owner]["hand"]["count"])
        for viewer in other_viewers(owner, PLAYERS):
            shown, _ = explored.hand(owner, viewer)
            if shown != count:
                return f"{viewer or 'a spectator'} is shown {shown} cards in {owner}'s " \
                       f"hand; it holds {count}"
    return None


def _viewers_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    return hands_as_seen(reference, PLAYERS)


def _zero_at_start(explored: Explored) -> str | None:
    if explored.moves:
        return None
    for player in PLAYERS:
        if not explored.hand_given(player):
            count = int(explored.view()["players"][player]["hand"]["count"])
            if count:
                return f"{player} starts a new game with {count} action card(s)"
    return None


def _zero_then(explored: Explored, reference: ScenarioWorld) -> list[str]:
    return [f"{p} holds no cards" for p in PLAYERS if not explored.hand_given(p)]


def _no_check(explored: Explored) -> str | None:
    return None


INVARIANTS: tuple[Invariant, ...] = (
    Invariant("cards are conserved", ("ti4:2.3", "ti4:2.7"), _conserved, _counts_then),
    Invariant("the hand limit holds after every resolution", ("ti4:2.4", "ti4:note-10"),
              _limit_kept, _pending_then),
    Invariant("a depleted deck is reshuffled at once", ("ti4:note-4",), _reshuffled,
              _piles_then),
    Invariant("hands are hidden from other viewers", ("ti4:2.5",), _hidden, _viewers_then),
    Invariant("hand sizes are public", ("ti4:note-2",), _public_size, _viewers_then),
    Invariant("players start with zero cards", ("ti4:note-1",), _zero_at_start, _zero_then),
    Invariant("a rejected action changes nothing", ("ti4:2.7",), _no_check, _counts_then,
              catches_violations=True),
)

MODEL = TI4Model()
