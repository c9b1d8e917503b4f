"""Stands for your engine: a TI4 table that knows players, hands and the action deck."""

import random


class Table:
    def __init__(self, players, draw_pile, discard_pile, seed):
        self.hands = {name: [] for name in players}  # a new player holds no action card
        self.draw_pile = list(draw_pile)
        self.discard_pile = list(discard_pile)
        self.rng = random.Random(seed)

    def give(self, player, cards):
        self.hands[player].extend(cards)

    def draw(self, player, count):
        for _ in range(count):
            self.reshuffle_if_empty()
            if self.draw_pile:
                self.hands[player].append(self.draw_pile.pop(0))
            self.reshuffle_if_empty()  # the moment the deck runs out

    def reshuffle_if_empty(self):
        if not self.draw_pile and self.discard_pile:
            self.draw_pile, self.discard_pile = self.discard_pile, []
            self.rng.shuffle(self.draw_pile)

    def hand_as_seen_by(self, owner, viewer):
        """A hand is secret: its owner sees it, nobody else does."""
        return list(self.hands[owner]) if viewer == owner else []
