"""The effects of the TI4 cards the engine models, as structure and never as card text.

Why apart: an effect runs when its card resolves (ti4:2.7); which method runs is the
``EFFECTS`` table, so a card without a modelled effect only goes to the discard pile.
"""

from __future__ import annotations

from oracle.games.ti4.engine.state import PlayRecord


class Effects:
    """Modelled card -> effect method, and the effects themselves."""

    #: Modelled card -> the method that carries out its effect (ti4:2.7).
    EFFECTS: dict[str, str] = {  # noqa: RUF012
        "Lucky Shot": "effect_destroy_unit",
        "Direct Hit": "effect_destroy_unit",
        "Repeal Law": "effect_repeal_law",
        "Insubordination": "effect_insubordination",
        "Bribery": "effect_bribery",
        "Morale Boost": "effect_morale_boost",
        "Sabotage": "effect_sabotage",
        "Shields Holding": "effect_cancel_hits",
        "Reverse Engineer": "effect_take_discarded",
        "Uprising": "effect_uprising",
        "Impersonation": "effect_draw_secret_objective",
    }

    def effect_destroy_unit(self, record: PlayRecord) -> None:
        """Lucky Shot / Direct Hit: the target unit is destroyed."""
        unit = self.find_unit(record.targets["unit"])
        if unit is not None:
            self.g.units.remove(unit)
            self.emit("destroyed", unit=unit["id"])

    def effect_repeal_law(self, record: PlayRecord) -> None:
        """Repeal Law: the target law is discarded from play."""
        law = record.targets["law"]
        if law in self.g.laws:
            self.g.laws.remove(law)
            self.emit("repealed", law=law)

    def effect_insubordination(self, record: PlayRecord) -> None:
        """Insubordination: the target player loses one tactic token."""
        target = self.g.players[record.targets["player"]]
        if target.command_tokens.get("tactic", 0) > 0:
            target.command_tokens["tactic"] -= 1
            self.emit("token_removed", player=target.name, pool="tactic")

    def effect_bribery(self, record: PlayRecord) -> None:
        """Bribery: the player spends the chosen number of trade goods (possibly zero)."""
        player = self.g.players[record.player]
        spent = min(int(record.targets.get("trade_goods", 0)), player.trade_goods)
        player.trade_goods -= spent
        self.emit("spent", player=player.name, trade_goods=spent)

    def effect_morale_boost(self, record: PlayRecord) -> None:
        """Morale Boost: affects this combat round's rolls, which the engine does not model."""
        self.emit("combat_modifier", player=record.player, card=record.card)

    def effect_cancel_hits(self, record: PlayRecord) -> None:
        """Shields Holding: cancels up to its number of hits of the roll it was played
        after (its timing event; played without one, there is no roll to cancel)."""
        event = self.event_subject("roll")
        if event is not None and self.in_event_window(record.player, self.facts[record.card]):
            cancelled = min(self.model(record.card).cancels, event["hits"])
            event["hits"] -= cancelled
            self.emit("hits_cancelled", player=record.player, count=cancelled)

    def effect_take_discarded(self, record: PlayRecord) -> None:
        """Reverse Engineer: the discarded card of its timing event goes from the discard pile
        to the player's hand, where everyone knows it is (the card's notes: which card it
        takes is public, as a revealed card is, ti4:note-3); the hand limit then applies."""
        card = record.targets["card"]
        if card in self.g.discard:
            self.g.discard.remove(card)
            player = self.g.players[record.player]
            player.hand.append(card)
            self.emit("took", player=player.name, card=card)
            self.apply_reveal(player, [card])
            self.hand_changed(player)

    def effect_uprising(self, record: PlayRecord) -> None:
        """Uprising: the planet is exhausted; then its player gains trade goods equal to its
        resource value."""
        planet = self.find_planet(record.targets.get("planet"))
        if planet is not None and self.planet_ready(planet):
            planet["exhausted"] = True
            player = self.g.players[record.player]
            player.trade_goods += planet["resources"]
            self.emit("exhausted", planet=planet["name"], trade_goods=planet["resources"])

    def effect_draw_secret_objective(self, record: PlayRecord) -> None:
        """Impersonation (its cost paid): its player draws a secret objective."""
        self.g.players[record.player].secret_objectives += 1
        self.emit("drew_secret_objective", player=record.player)

    def effect_sabotage(self, record: PlayRecord) -> None:
        """Sabotage: the card it answers is cancelled (ti4:2.8)."""
        target = self.being_played_seq(record.cancels)
        if target is not None:
            target.cancelled = True
