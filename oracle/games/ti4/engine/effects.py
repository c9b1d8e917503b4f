"""The effects of the TI4 cards the engine models, as structure and never as card text.

Why apart: an effect runs when its card resolves (ti4:2.7); which method runs is the
``EFFECTS`` table, so a card without a modelled effect only goes to the discard pile.
"""

from __future__ import annotations

from oracle.games.kit import JSON
from oracle.games.ti4.engine.state import PlayRecord


class Effects:
    """Modelled card -> effect method, and the effects themselves."""

    #: Modelled card -> the method that carries out its effect (ti4:2.7).
    EFFECTS: dict[str, str] = {  # noqa: RUF012
        "Lucky Shot": "effect_destroy_unit",
        "Direct Hit": "effect_destroy_unit",
        "Repeal Law": "effect_repeal_law",
        "Insubordination": "effect_insubordination",
        "Diplomatic Pressure": "effect_give_promissory_note",
        "Bribery": "effect_bribery",
        "Morale Boost": "effect_modifier",
        "Flank Speed": "effect_modifier",
        "Fighter Prototype": "effect_modifier",
        "War Machine": "effect_modifier",
        "Sabotage": "effect_sabotage",
        "Shields Holding": "effect_cancel_hits",
        "Reverse Engineer": "effect_take_discarded",
        "Uprising": "effect_planet",
        "Mining Initiative": "effect_planet",
        "Frontline Deployment": "effect_planet",
        "Rise of a Messiah": "effect_each_planet",
        "Economic Initiative": "effect_each_planet",
        "Industrial Initiative": "effect_each_planet",
        "Ancient Burial Sites": "effect_each_planet",
        "Upgrade": "effect_replace_unit",
        "Rally": "effect_gain_tokens",
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

    def effect_give_promissory_note(self, record: PlayRecord) -> None:
        """Diplomatic Pressure: the target player gives the card's player a promissory note
        from their hand, if they have one."""
        target = self.g.players[record.targets["player"]]
        if target.promissory_notes > 0:
            target.promissory_notes -= 1
            self.g.players[record.player].promissory_notes += 1
            self.emit("gave", player=target.name, to=record.player, promissory_notes=1)

    def effect_bribery(self, record: PlayRecord) -> None:
        """Bribery: the player spends the chosen number of trade goods (possibly zero)."""
        player = self.g.players[record.player]
        spent = min(int(record.targets.get("trade_goods", 0)), player.trade_goods)
        player.trade_goods -= spent
        self.emit("spent", player=player.name, trade_goods=spent)

    def effect_modifier(self, record: PlayRecord) -> None:
        """Morale Boost, Flank Speed, Fighter Prototype, War Machine: modify what the engine
        does not model (each of the player's units' rolls or move values, their PRODUCTION)."""
        self.emit("modifier", player=record.player, card=record.card)

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

    def effect_planet(self, record: PlayRecord) -> None:
        """Uprising, Mining Initiative, Frontline Deployment: to the planet it targets, in
        the card's model's order: exhaust it; its player gains trade goods equal to its
        resource value; its player places units on it."""
        model = self.model(record.card)
        planet = self.find_planet(record.targets.get("planet"))
        if model is None or planet is None or not self.planet_fits(record.player, model, planet):
            return
        player = self.g.players[record.player]
        if model.exhausts:
            planet["exhausted"] = True
            self.emit("exhausted", planet=planet["name"])
        if model.gains:
            player.trade_goods += planet[model.gains]
            self.emit("gained", player=player.name, trade_goods=planet[model.gains])
        self.place_units(player.name, model.places, planet)

    def effect_each_planet(self, record: PlayRecord) -> None:
        """Rise of a Messiah, Economic and Industrial Initiative, Ancient Burial Sites: to
        each planet the card can affect (its player's, or the player it targets'; of its
        trait): its player places units on it, readies it, exhausts it, gains trade goods."""
        model = self.model(record.card)
        if model is None:
            return
        player = self.g.players[record.player]
        for planet in self.affected_planets(record.player, model, record.targets):
            self.place_units(player.name, model.places, planet)
            if model.readies and planet["exhausted"]:
                planet["exhausted"] = False
                self.emit("readied", planet=planet["name"])
            if model.exhausts:
                planet["exhausted"] = True
                self.emit("exhausted", planet=planet["name"])
            if model.trade_goods_each:
                player.trade_goods += model.trade_goods_each
                self.emit("gained", player=player.name, trade_goods=model.trade_goods_each)

    def place_units(self, owner: str, places: tuple[str, int] | None, planet: JSON) -> None:
        """Units from the owner's reinforcements, placed on a planet (the engine keeps no
        unit's place); each gets the next id of the scenarios' naming, Alice's infantry 2."""
        if places is None:
            return
        kind, count = places
        for _ in range(count):
            self.g.units.append({"id": self.new_unit_id(owner, kind), "owner": owner,
                                 "type": kind})
        self.emit("placed", player=owner, unit_type=kind, count=count, planet=planet["name"])

    def new_unit_id(self, owner: str, kind: str) -> str:
        """The first free id of ``Alice's cruiser``, ``Alice's cruiser 2``, ..."""
        taken = {u["id"] for u in self.g.units}
        n = 1
        while (uid := f"{owner}'s {kind}" + (f" {n}" if n > 1 else "")) in taken:
            n += 1
        return uid

    def effect_replace_unit(self, record: PlayRecord) -> None:
        """Upgrade: the unit it targets (the player's) is replaced by one of another type."""
        model = self.model(record.card)
        unit = self.find_unit(record.targets["unit"])
        if model is None or model.replaces_with is None or unit is None:
            return
        self.g.units.remove(unit)
        new = {"id": self.new_unit_id(unit["owner"], model.replaces_with),
               "owner": unit["owner"], "type": model.replaces_with}
        self.g.units.append(new)
        self.emit("replaced", unit=unit["id"], by=new["id"])

    def effect_gain_tokens(self, record: PlayRecord) -> None:
        """Rally: command tokens from the player's reinforcements into one of their pools."""
        model = self.model(record.card)
        if model is None or model.tokens is None:
            return
        pool, count = model.tokens
        tokens = self.g.players[record.player].command_tokens
        tokens[pool] = tokens.get(pool, 0) + count
        self.emit("tokens_gained", player=record.player, pool=pool, count=count)

    def effect_draw_secret_objective(self, record: PlayRecord) -> None:
        """Impersonation (its cost paid): its player draws a secret objective."""
        self.g.players[record.player].secret_objectives += 1
        self.emit("drew_secret_objective", player=record.player)

    def effect_sabotage(self, record: PlayRecord) -> None:
        """Sabotage: the card it answers is cancelled (ti4:2.8)."""
        target = self.being_played_seq(record.cancels)
        if target is not None:
            target.cancelled = True
