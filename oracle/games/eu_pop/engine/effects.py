"""What an EU card does when it resolves, and what a countered one does instead.

Why apart: resolving (6.action-cards.6) applies the card's stand-in effect (Ducats), its
Battle Dice and its counter, then discards the card or puts it on display; a countered card is
discarded with its cost still paid (6.2.covert.3, 6.2.covert.4).
"""

from __future__ import annotations

from oracle.games.eu_pop.engine.state import PlayRecord


class Effects:
    """Resolving and disposing of what was being played."""

    #: 6.2.covert.2, 6.2.covert.3: a countered card is disposed of (``dispose_countered``);
    #: 6.action-cards.6: any other resolves (``resolve_record``). See
    #: ``oracle.games.kit.stack``.
    VOID_FLAG = "countered"
    DISPOSE_VOID = "dispose_countered"
    RESOLVE_PLAYED = "resolve_record"

    def effect_ducats(self, record: PlayRecord) -> int:
        """The Ducats a card (or an Action on it) gives when it resolves: its stand-in effect."""
        fact = self.facts[record.card]
        if record.action is None:
            return fact.effect_ducats
        listed = fact.action(record.action)
        return listed.effect_ducats if listed else 0

    def apply_effect(self, record: PlayRecord) -> None:
        """6.action-cards.6: resolve the effect right away (the cards' stand-in: Ducats)."""
        gain = self.effect_ducats(record)
        if gain:
            self.g.players[record.player].ducats += gain
            self.emit("gained", player=record.player, ducats=gain)
        if record.dice:
            self.add_battle_dice(record.player, record.dice)
        if record.counters is not None:
            self.counter(record.counters)

    def counter(self, seq: int) -> None:
        """6.2.covert.2: the countered Covert Action has no effect."""
        target = self.being_played_seq(seq)
        if target is not None:
            target.countered = True
    def resolve_record(self, record: PlayRecord) -> None:
        """6.action-cards.6: resolve, then discard the card unless it is a Display Card."""
        self.apply_effect(record)
        if record.action is None:
            self.finish_card(record)
        self.emit("resolved", player=record.player, card=record.name)

    def finish_card(self, record: PlayRecord) -> None:
        """6.action-cards.6: after its Action the card is discarded; a Display Card is placed
        on display instead (6.2.display.2)."""
        fact = self.facts[record.card]
        if self.is_display(fact):
            self.place_on_display(self.g.players[record.player], fact)
        else:
            self.discard_card(fact.name)

    def dispose_countered(self, record: PlayRecord) -> None:
        """6.2.covert.3, 6.2.covert.4: a countered card is discarded, its cost stays paid; a
        prevented Action on a Display Card keeps its charges spent."""
        if record.action is None:
            self.discard_card(record.card)
        self.emit("countered", player=record.player, card=record.name)
