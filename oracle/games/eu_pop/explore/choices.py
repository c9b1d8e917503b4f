"""What the EU chapter leaves to the engine, for differential exploration: two engines that
both follow the rules may still differ here, and the comparison must not flag it.

Each is one of docs/protocol.md's "Questions an EU adapter asks" answered "the engine's
choice" (``tests/test_eu_engine_choices.py`` and ``tests/test_eu_attribution.py`` run the
scenarios on engines choosing otherwise; ``tests/test_explore_differential.py`` compares
those engines with the reference here):

- a hand's size may be hidden from other viewers (the chapter keeps the cards secret and
  says nothing of the size);
- ``turn`` counts Turns from whatever number the engine starts at (no scenario reads it; it
  only helps charge a failure): the reference engine starts at 0, tests/styles/node_eu at 1,
  which was flagged at the first view, charged to 11 rules, once a setup's shuffle no longer
  ended the game;
- a cost reduction of 0 is no reduction, listed or left out (``players[].cost_reductions``
  gives only the kinds a game effect lowers): an engine listing every kind was flagged at
  its first view, charged to a dozen rules;
- the Battle Dice each side gained are listed in any order;
- Step C asks every player over the limit at once, or one after another in seat order: the
  first of them in seat order is compared, and any move by a later one may be answered
  otherwise (an answer refused, an action allowed before they are asked);
- a player may keep fewer than 5 cards in Step C, or not ("a maximum hand size of 5");
- the order of several Step C discards on a pile;
- a third Display Card is placed before or after the card to discard is chosen: while the
  choice is pending, that player's display is not compared;
- whether the card just placed is one of those a third Display Card's discard may name
  ("discard 1 of the cards in play", 6.2.display.10): a discard naming it (the last card
  the display lists, as the reference engine places it) may be refused by one engine and
  carried out by the other; a discard naming an older card may not (every scenario
  discards one of those);
- the hiring costs of Appoint Advisor/Leader (5.2) are charged or not (and an appointment
  its player could not pay may be refused);
- ``end_turn``, ``draw`` or ``appoint`` while a card is being played may be refused;
- a draw (a game effect) while its player owes a decision may be refused or carried out:
  no sentence of the chapter speaks of it (the reference engine refused it citing 4.5.c.2,
  which does not either; node_eu draws), and no scenario sends it;
- ``discard_down`` while a decision is pending (Step C resolved again before its keeps are
  answered) may be refused, or ask again: no sentence speaks of it, and no scenario sends it;
- a draw of more cards than a deck and its discard pile hold may be refused;
- ``active_player`` outside the Action Phase (Turns belong to it, 4.2): null, or the player
  whose Turn comes next, is not compared;
- a Counterespionage aimed at its own player's card may be refused (no sentence allows or
  forbids it); a ``targets.card`` on a card that counters nothing too (never sent).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from oracle.explore.compare import Loosened
from oracle.games.eu_pop.explore.views import _display_names

View = Mapping[str, Any]

_KEEP = re.compile(r"(\w+) keeps (.+)")
_COUNTER = re.compile(r'(\w+) plays "Counterespionage" targeting "([^"]+)"')
_DRAW = re.compile(r"(\w+) draws (\w+) (\w+) cards?")
_APPOINT = re.compile(r"(\w+) appoints ")
_WAITS_FOR_NO_PLAY = re.compile(r"\w+ (?:ends (?:her|his|their) turn|draws |appoints )")
_COUNT = re.compile(r"(\d+|no) cards?$")
_DISCARD = re.compile(r'(\w+) discards "([^"]+)"')
_NUMBERS = {"no": 0, "one": 1, "two": 2, "three": 3}


def _step_c(pending: Any) -> bool:
    return isinstance(pending, Mapping) and pending.get("decision") == "keep"


def _owing_step_c(view: View) -> list[str]:
    """The players owing a Step C keep, in seat order."""
    owing = {p.get("player") for p in view.get("pending") or [] if _step_c(p)}
    return [name for name in view.get("players") or {} if name in owing]


class EUChoices:
    """``oracle.explore.compare.GameChoices`` for EU: The Price of Power."""

    def view(self, view: dict[str, Any], viewer: str | None) -> None:
        view.pop("turn", None)
        if view.get("phase") != "action":
            view.pop("active_player", None)
        for player in (view.get("players") or {}).values():
            hand = player.get("hand")
            if isinstance(hand, dict) and hand.get("count") is None:
                hand.pop("count", None)
            cuts = player.get("cost_reductions")
            if isinstance(cuts, Mapping):
                player["cost_reductions"] = {k: n for k, n in cuts.items() if n != 0}
        battle = view.get("battle")
        if isinstance(battle, Mapping) and isinstance(battle.get("dice"), Mapping):
            battle = view["battle"] = dict(battle)
            battle["dice"] = {side: sorted(dice) for side, dice in battle["dice"].items()}
        pending = view.get("pending") or []
        first = _owing_step_c(view)[:1]
        if pending:
            view["pending"] = [p for p in pending
                               if not _step_c(p) or p.get("player") in first]
        for p in pending:
            if isinstance(p, Mapping) and p.get("from") == "display":
                entry = (view.get("players") or {}).get(p.get("player"))
                if isinstance(entry, dict):
                    entry.pop("display", None)

    def reply(self, before: View, text: str) -> str | None:
        if before.get("being_played") and _WAITS_FOR_NO_PLAY.match(text):
            return "end_turn, draw or appoint while a card is being played"
        if text == "Phase 5, Step C is resolved" and before.get("pending"):
            return "Step C again while a decision is pending"
        drawer = _DRAW.match(text)
        if drawer and any(isinstance(p, Mapping) and p.get("player") == drawer.group(1)
                          for p in before.get("pending") or []):
            return "a draw while its player owes a decision"
        counter = _COUNTER.match(text)
        if counter:
            aimed = next((p for p in reversed(before.get("being_played") or [])
                          if isinstance(p, Mapping) and p.get("card") == counter.group(2)), {})
            if aimed.get("player") == counter.group(1):
                return "countering one's own card"
        draw = _DRAW.match(text)
        if draw:
            count = _NUMBERS.get(draw.group(2))
            count = int(draw.group(2)) if count is None and draw.group(2).isdigit() else count
            deck = (before.get("decks") or {}).get(draw.group(3)) or {}
            pile = deck.get("draw")
            held = (pile.get("count") if isinstance(pile, Mapping) else len(pile or [])) or 0
            if count is not None and count > int(held) + len(deck.get("discard") or []):
                return "a draw of more cards than the deck and its discard pile hold"
        player = text.split(" ", 1)[0]
        owing = _owing_step_c(before)
        if player in owing[1:]:  # asked now, or only once the players before have answered
            return "Step C asks the players at once or one after another"
        appoint = _APPOINT.match(text)
        if appoint and _short_of_a_hiring_cost(before, player):
            return "the hiring costs of Appoint Advisor/Leader"
        discard = _DISCARD.match(text)
        if discard and _owes_a_display_discard(before, player) and \
                _display_names(before, player)[-1:] == [discard.group(2)]:
            return "whether a third Display Card's discard may name the card just placed"
        keep = _KEEP.match(text)
        if keep:
            asked = next((p for p in before.get("pending") or []
                          if _step_c(p) and p.get("player") == player), None)
            if asked is not None and _kept(keep.group(2)) < int(asked.get("count") or 0):
                return "keeping fewer than 5 cards in Step C"
        return None

    def outcome(self, before: View, text: str) -> Loosened | None:
        if _KEEP.match(text) or text == "Phase 5, Step C is resolved":
            return Loosened("the order of several Step C discards on a pile", _sorted_piles)
        appoint = _APPOINT.match(text)
        if appoint:
            name = appoint.group(1)
            return Loosened("the hiring costs of Appoint Advisor/Leader",
                            lambda view: _without_costs(view, name))
        return None


#: The most a hiring cost may be (5.2: an Advisor's Ducats; a General's Monarch Power, "1 or
#: 2", 9.4): a player holding less may be refused an appointment by an engine charging it.
HIRING_COST_AT_MOST = 2


def _short_of_a_hiring_cost(before: View, name: str) -> bool:
    player = (before.get("players") or {}).get(name) or {}
    power = player.get("power") or {}
    return int(player.get("ducats", HIRING_COST_AT_MOST)) < HIRING_COST_AT_MOST or int(
        power.get("military", HIRING_COST_AT_MOST)) < HIRING_COST_AT_MOST


def _owes_a_display_discard(before: View, name: str) -> bool:
    return any(isinstance(p, Mapping) and p.get("player") == name and
               p.get("decision") == "discard" and p.get("from") == "display"
               for p in before.get("pending") or [])


def _kept(text: str) -> int:
    """How many cards a keep answer keeps: ``5 cards``, or the names it lists."""
    count = _COUNT.search(text)
    if count:
        return 0 if count.group(1) == "no" else int(count.group(1))
    return text.count('"') // 2


def _sorted_piles(view: dict[str, Any]) -> None:
    decks = {}
    for name, deck in (view.get("decks") or {}).items():
        deck = dict(deck)
        if isinstance(deck.get("discard"), list):
            deck["discard"] = sorted(deck["discard"])
        decks[name] = deck
    view["decks"] = decks


def _without_costs(view: dict[str, Any], name: str) -> None:
    player = (view.get("players") or {}).get(name)
    if isinstance(player, dict):
        player.pop("power", None)
        player.pop("ducats", None)


CHOICES = EUChoices()
