"""The EU exploration model: random setups, the moves worth trying next, and the invariants.

Why the move order matters: Hypothesis draws the first moves most often, and a shrunk game
keeps pointing at a slip only if the moves that reach it stay at fixed places (see ``moves``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from types import MappingProxyType

from hypothesis import strategies as st

from oracle.explore import Explored, Invariant, Supported
from oracle.games.eu_pop.cards import DECKS
from oracle.games.eu_pop.explore.choices import CHOICES
from oracle.games.eu_pop.explore.invariants import INVARIANTS
from oracle.games.eu_pop.explore.tables import (
    COUNTERESPIONAGE,
    FACTS,
    FREE,
    PLAYERS,
    SETUP_DRAW,
    SETUP_HOLD,
    STEP_C,
    _n_cards,
    _setups,
    within_the_counts,
)
from oracle.games.eu_pop.explore.views import View, _display_names, _hand, _interest, _turn_taken
from oracle.games.kit.explore import answer_moves
from oracle.suite.dsl import describe_cards

#: Setup lines a table does without: what a player has (on display, Monarch Power, Ducats),
#: a cost reduction, a battle.
_OPTIONAL = re.compile(r"\w+ has |\w+'s \w+ costs are reduced|\w+ attacks? ")

#: The steps a Battle moves on to in the moves: the one Battle Actions are played in, and
#: the next (6.2.battle.1).
_BATTLE_STEPS = ("Play Battle Actions", "Roll Battle Dice")


def _keeps(view: View, name: str, n: int) -> list[str]:
    """Answers to a keep decision: the last n cards (a choice, 4.5.c.2), the first n the
    player sees, and one card too few (refused)."""
    moves = []
    hand = _hand(view, name)
    if len(hand) >= n > 0:  # a choice: the last n cards (4.5.c.2)
        moves.append(f"{name} keeps {describe_cards(hand[-n:])}")
    moves.append(f"{name} keeps {_n_cards(n)}")  # the first n the player sees
    moves.append(f"{name} keeps {_n_cards(max(n - 1, 0))}")  # refused
    if len(hand) > n:  # refused: more than the limit (4.5.c.2)
        moves.append(f"{name} keeps {describe_cards(hand[-n - 1:])}")
    return moves


def _sides(battle: View) -> list[str]:
    """The first player of each side of a Battle (the attacker's, then the defenders')."""
    return [str(side[0]) for side in (battle.get("attackers"), battle.get("defenders"))
            if side]


class EUModel:
    """The EU exploration model: setups, moves and invariants."""

    #: The rule that states each action a move sends: an engine failing to answer one is
    #: charged there (``oracle.explore.model.move_rules_of``). Not listed, as no one rule
    #: of the chapter states them: the end of a Turn, the end of a Battle.
    move_rules = MappingProxyType({
        "draw": "eu-pop:6.decks.1", "play": "eu-pop:6.action-cards.8",
        "resolve": "eu-pop:6.action-cards.6", "use": "eu-pop:6.2.display.4",
        "appoint": "eu-pop:6.characters.2", "discard_down": "eu-pop:4.5.c.1",
        # The one sentence of the chapter naming a step of a Round of Battle: a Round's
        # steps, and where a new one starts, are what it relies on.
        "battle_step": "eu-pop:6.2.battle.1", "battle_round": "eu-pop:6.2.battle.1",
    })
    #: The rule that states how each kind of decision is answered (``answer_rules_of``):
    #: Step C's keep (the player chooses what to discard, 4.5.c.2) and a third Display
    #: Card's discard (6.2.display.10).
    answer_rules = MappingProxyType({"keep": "eu-pop:4.5.c.2",
                                     "discard": "eu-pop:6.2.display.10"})
    #: What the chapter leaves to the engine, for differential exploration.
    choices = CHOICES

    def setups(self, supported: Supported) -> st.SearchStrategy[list[str]]:
        """The tables of ``tables._setups`` within the card counts, without the lines the
        engine cannot set up that a table does without (a display, a battle, Monarch Power,
        Ducats, cost reductions); the explorer skips, and counts, the tables that still need
        something the engine does not declare.

        Why drop them: a table the engine cannot play is drawn again from the same game's
        bytes, so an engine without Display Cards (nine tables in ten have one) got games of
        two moves on average, what Hypothesis had left of each game's data once the tables
        were drawn (tests/styles/eu_values.py: 24 moves in 102 games)."""
        def playable(lines: list[str]) -> list[str]:
            return [line for line in lines
                    if not _OPTIONAL.match(line) or supported("given", line)]

        return _setups().map(playable).map(within_the_counts)

    def moves(self, explored: Explored) -> list[str]:
        view = explored.view()
        moves = answer_moves(
            view, lambda name, n: _keeps(view, name, n),
            lambda name: [f'{name} discards "{c}"' for c in _display_names(view, name)])
        being_played = [r.get("action") or r["card"] for r in view.get("being_played") or []]
        stack = view.get("being_played") or []
        if being_played:
            # The card is answered, first: Counterespionage, by a holder other than its
            # player (refused when the card is no Covert Action, 6.2.covert.2); or everyone
            # passes.
            moves += [f'{q} plays "{COUNTERESPIONAGE}" targeting "{being_played[-1]}"'
                      for q in PLAYERS if COUNTERESPIONAGE in _hand(view, q)
                      and q != stack[-1].get("player")][:1]
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
        if phase == "draw":
            # The set-up's draw, then its hold (3.0.4), each once: the natural next move.
            done = {line.removeprefix("When ") for line in explored.lines}
            moves += [m for m in (SETUP_DRAW, SETUP_HOLD) if m not in done][:1]
        moves += own[:1] if active else [STEP_C]
        if active:
            moves.append(STEP_C)
        moves += [f"Alice draws 1 {deck} card" for deck in DECKS]
        moves += own[1:]
        if active:
            moves += [f'{active} appoints "{c}"' for c in dict.fromkeys(_hand(view, active))]
        # Illegal: an appointment off its player's Turn (6.characters.2).
        idle_hand = [p for p in PLAYERS if p != active and _hand(view, p)]
        if idle_hand:
            moves.append(f'{idle_hand[0]} appoints "{_hand(view, idle_hand[0])[0]}"')
        for p in PLAYERS:  # out of their Turn: Reactions and Battle Actions
            if p != active:
                moves += self._cards(view, p, holders, being_played, free_only=True)
        moves += [f"Alice draws 2 {deck} cards" for deck in DECKS]
        moves += ["Bob draws 2 military cards", "Carol draws 1 diplomatic card"]
        battle = view.get("battle")
        if battle:
            # A side passing in the "Play Battle Actions" step (9.7.2): its later Battle
            # Actions wait for the next Round.
            moves += [f"{side}'s side passes" for side in _sides(battle)]
            moves += ["a new round of battle begins",
                      *(f'the battle moves to its "{step}" step' for step in _BATTLE_STEPS),
                      "the battle ends"]
        # Illegal: out of turn, a card not held, another player's Display Card.
        idle = next(p for p in PLAYERS if p != active)
        moves += [f"{idle} ends their turn", f'{idle} plays "Royal Manufactory"',
                  'Bob uses "Support Rebels"']
        if active and taken:  # a second Action in one Turn
            moves += [f'{active} plays "{c}"' for c in _hand(view, str(active))
                      if c in FACTS and not FACTS[c].kinds & FREE][:1]
        # Only what the engine declares (as TI4's): a move it lacks is skipped, and costs a
        # drawn byte all the same.
        return [m for m in moves if explored.supported("when", m)]

    def _cards(self, view: View, player: str, holders: list[str], being_played: list[str],
               free_only: bool) -> list[str]:
        """A player's plays of the cards they hold and uses of their Display Cards (only those
        that take no Turn, if ``free_only``); a Covert Action also cancelled, when another
        player holds Counterespionage."""
        canceller = next((q for q in holders if q != player), None)
        cancel = f' and {canceller} cancels it with "{COUNTERESPIONAGE}"' if canceller else ""
        moves = []
        known = [c for c in dict.fromkeys(_hand(view, player)) if c in FACTS]
        shown = set(_display_names(view, player))
        # A Display Card its player has in play already is a duplicate (refused): it comes
        # after the ones that would be placed, so a full display is often overfilled.
        for card in sorted(known, key=lambda c: (_interest(c), c in shown)):
            fact = FACTS[card]
            if free_only and not fact.kinds & FREE:
                continue
            covert = "covert" in fact.kinds and card != COUNTERESPIONAGE
            if covert and cancel:
                moves.append(self._play(player, card, being_played) + cancel)
            moves.append(self._play(player, card, being_played))
            # Left being played: a Covert Action, to be countered; any other card now and
            # then, which Counterespionage may not counter (6.2.covert.2).
            if covert or (canceller and card != COUNTERESPIONAGE and not being_played):
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
