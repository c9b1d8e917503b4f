"""EU decks: three of them, drawn from on their own, rebuilt only when a card is needed.

Why apart: the decks' rules (6.decks.1-5) are about where cards come from and where discards
go; a rebuilt deck leaves the top discards out (6.decks.4, 6.decks.5).
"""

from __future__ import annotations

from collections.abc import Iterable

from oracle.games.eu_pop.cards import DECKS, load_card_facts
from oracle.games.eu_pop.engine.state import Pile
from oracle.games.kit import JSON, RequestError, count


class Drawing:
    """The three decks, their discard piles, and drawing."""

    #: 6.decks.4: the discards left out when a deck is rebuilt.
    REBUILD_LEAVES = 5

    def deck_of(self, card: str) -> str:
        """6.decks.1: every card belongs to one of the three decks."""
        return self.facts[card].deck

    def fresh_deck(self, deck: str, in_play: Iterable[str]) -> list[str]:
        """6.decks.1: a new game's deck holds its own cards (minus those already in play)."""
        cards = [f.name for f in load_card_facts() if f.deck == deck for _ in range(f.count)]
        for card in in_play:
            if card in cards:
                cards.remove(card)
        return cards

    def discards_left_out(self, pile: Pile) -> int:
        """6.decks.4, 6.decks.5: leave the top 5 discards, unless there are 5 or fewer."""
        return self.REBUILD_LEAVES if len(pile.discard) > self.REBUILD_LEAVES else 0

    def rebuild(self, deck: str) -> None:
        """6.decks.4: shuffle the discard pile (minus the top discards left out) into a deck."""
        pile = self.g.decks[deck]
        keep = self.discards_left_out(pile)
        pile.draw, pile.discard = pile.discard[keep:], pile.discard[:keep]
        self.g.rng.shuffle(pile.draw)
        self.emit("rebuilt", deck=deck, count=len(pile.draw))

    def rebuild_if_needed(self, deck: str) -> None:
        """6.decks.4: only an empty deck that must be drawn from is rebuilt."""
        pile = self.g.decks[deck]
        if not pile.draw and pile.discard:
            self.rebuild(deck)

    def after_draw(self, deck: str) -> None:
        """6.decks.4: an emptied deck waits until a card must be drawn from it."""

    def take_from_deck(self, deck: str, n: int) -> list[str]:
        """Take ``n`` cards from the top, rebuilding the deck when a card is needed."""
        taken: list[str] = []
        for _ in range(n):
            self.rebuild_if_needed(deck)
            pile = self.g.decks[deck]
            if not pile.draw:
                break
            taken.append(pile.draw.pop(0))
            self.after_draw(deck)
        return taken

    def discard_card(self, card: str) -> None:
        """6.decks.2: a discarded card goes face up on top of its own deck's discard pile."""
        self.g.decks[self.deck_of(card)].discard.insert(0, card)

    def act_draw(self, action: JSON) -> None:
        """A game effect makes a player draw; the hand limit waits for Phase 5 Step C."""
        player = self.player(action.get("player"))
        deck = action.get("deck")
        if deck not in DECKS:
            raise RequestError(f"draw.deck must be one of {list(DECKS)}, got {deck!r}")
        n = count(action.get("count", 1), "draw.count")
        self.require(self.check_not_pending(player.name, "draw"))
        drawn = self.take_from_deck(deck, n)
        player.hand.extend(drawn)
        self.emit("drew", player=player.name, deck=deck, count=len(drawn))
        self.hand_changed(player)
