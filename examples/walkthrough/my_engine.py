"""Stands for your engine: a TI4 table that knows players, hands and the action deck."""


class Table:
    def __init__(self, players, draw_pile, discard_pile):
        self.hands = {name: [] for name in players}  # a new player holds no action card
        self.draw_pile = list(draw_pile)
        self.discard_pile = list(discard_pile)

    def give(self, player, cards):
        self.hands[player].extend(cards)

    def cards_seen_by(self, owner, viewer):
        """What a viewer sees of a hand: its owner sees every card, anybody else none."""
        return list(self.hands[owner]) if viewer == owner else []
