"""EU test engines that model only some cards (imported by the tests, and by spec
``eu_partial_engines:one_per_class`` in an in-process run from this folder).

``OnePerClass`` is the reference engine cut down to the fewest cards that still give one card
of every class the EU scenarios name (``features/eu-pop/plays.yaml``), plus Counterespionage,
the one card the chapter's rules are about. It declares only those cards and answers
``unsupported`` when asked to play any other. The scenarios of every rule that is not about a
particular card must run on it: none may be ``unsupported``.
"""

from __future__ import annotations

import itertools
from functools import cache

from oracle.games.eu_pop.engine import ReferenceEngine
from oracle.scenario.cards import class_members
from oracle.suite.games import discover_games

NAMED = ("Counterespionage",)


@cache
def fewest_cards_per_class() -> tuple[str, ...]:
    """The smallest set of cards with a recipe that holds a card of every class (the first
    such set in card-facts order), plus the cards the rules name."""
    game = discover_games()["eu-pop"]
    recipes = game.plays["recipes"]
    classes = [set(class_members(game, c)) & set(recipes) for c in game.plays["classes"]]
    cards = [c for c in dict.fromkeys(f["name"] for d in game.cards.values() for f in d)
             if c in recipes]
    for size in range(1, len(cards) + 1):
        for chosen in itertools.combinations(cards, size):
            if all(members & set(chosen) for members in classes):
                return (*chosen, *NAMED)
    raise AssertionError("no set of cards covers every class")


class OnePerClass(ReferenceEngine):
    NAME = "EU test engine: one card of each class"

    def modelled_cards(self) -> list[str]:
        return list(fewest_cards_per_class())


def one_per_class() -> OnePerClass:
    return OnePerClass()


class OnePerClassLosingCards(OnePerClass):
    """The same, with a bug in its play-and-discard path: a card that resolves leaves play
    without reaching its discard pile (a Display Card still goes on display)."""

    NAME = "EU test engine: one card of each class, resolved cards lost"

    def finish_card(self, record) -> None:  # type: ignore[no-untyped-def]
        fact = self.facts[record.card]
        if self.is_display(fact):
            self.place_on_display(self.g.players[record.player], fact)


def one_per_class_losing_cards() -> OnePerClassLosingCards:
    return OnePerClassLosingCards()


class StrictOnePerClass(OnePerClass):
    """The same, refusing (``unsupported``) a setup that puts a card it does not model in a
    player's hand or in play, as docs/protocol.md's "Partial card sets" allows an engine to:
    what smoke and ``capabilities --engine`` must not blame on a setup key."""

    NAME = "EU test engine: one card of each class, holding no other card"

    def handle(self, request):  # type: ignore[no-untyped-def]
        if request.get("op") == "setup":
            for player in (request.get("state") or {}).get("players") or []:
                for key in ("hand", "advisors", "leaders", "display"):
                    for card in player.get(key) or []:
                        card = card["card"] if isinstance(card, dict) else card
                        if card not in fewest_cards_per_class():
                            return {"reply": "unsupported", "capability": f"eu-pop/card/{card}",
                                    "reason": f"this engine does not model {card!r}"}
        return super().handle(request)


def strict_one_per_class() -> StrictOnePerClass:
    return StrictOnePerClass()
