"""What a TI4 action card may target, and whether it can resolve at all.

Why apart: the target checks (ti4:note-7, ti4:note-8, ti4:note-9, ti4:2.6.1, ti4:2.7) read the
card's structured model (``oracle.games.ti4.cards.CARD_MODELS``) and the board, never card text.
"""

from __future__ import annotations

from oracle.games.kit import JSON, Rejection
from oracle.games.ti4.cards import CardFact, CardModel, normalise_unit_type
from oracle.games.ti4.engine.state import (
    RULE_2_6_1,
    RULE_2_7,
    RULE_NOTE_7,
    RULE_NOTE_8,
    RULE_NOTE_9,
    PlayerState,
    PlayRecord,
)

#: What a card takes from a player (``CardModel.takes``), in words.
TAKEN = {"tactic": "tactic token", "promissory_notes": "promissory note", "": "thing to take"}


class Targets:
    """The target rules: offensive cards, required objects, zero targets, full resolution."""

    def is_offensive(self, card: str) -> bool:
        """ti4:note-7: offensive cards (Lucky Shot, ...) cannot target their own player."""
        model = self.model(card)
        return bool(model and model.offensive)

    def may_target_owner(self, name: str, owner: str, card: str) -> bool:
        """ti4:note-7: an offensive card may not target its player or their units."""
        return owner != name or not self.is_offensive(card)

    def find_unit(self, uid: str) -> JSON | None:
        """The unit with id ``uid`` on the board, if any."""
        return next((u for u in self.g.units if u["id"] == uid), None)

    def unit_fits(self, model: CardModel, unit: JSON) -> bool:
        """Whether the card can target a unit of this type (its model's unit types)."""
        return normalise_unit_type(unit["type"]) in model.unit_types

    def owner_fits(self, name: str, model: CardModel, owner: str | None) -> bool:
        """A card aimed at its player's own units or planets ("your cruisers", "a planet you
        control") takes only theirs."""
        return not model.own or owner == name

    def eligible_units(self, name: str, model: CardModel) -> list[JSON]:
        """Units the card could target: the right types, owners it may target (ti4:note-7,
        and its own player's for a card aimed at their units)."""
        return [
            u
            for u in self.g.units
            if self.unit_fits(model, u) and self.may_target_owner(name, u["owner"], model.name)
            and self.owner_fits(name, model, u["owner"])
        ]

    def holding(self, player: PlayerState, takes: str | None) -> int:
        """How many of what a card takes from a player (``CardModel.takes``) they have."""
        if takes == "tactic":
            return player.command_tokens.get("tactic", 0)
        if takes == "promissory_notes":
            return player.promissory_notes
        return 1

    def eligible_players(self, name: str, model: CardModel) -> list[str]:
        """Players a card aimed at a player could target: with something for it to take."""
        return [
            p.name
            for p in self.g.players.values()
            if self.may_target_owner(name, p.name, model.name)
            and self.holding(p, model.takes) >= 1
        ]

    def check_not_self_target(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:note-7: a player cannot target themselves with an offensive card."""
        if "unit" in targets:
            unit = self.find_unit(targets["unit"])
            if unit is not None and not self.may_target_owner(name, unit["owner"], fact.name):
                return Rejection(
                    f"{fact.name!r} is offensive: {name} cannot target their own unit "
                    f"{unit['id']!r}",
                    RULE_NOTE_7,
                )
        if "player" in targets and not self.may_target_owner(name, targets["player"], fact.name):
            return Rejection(
                f"{fact.name!r} is offensive: {name} cannot target themselves", RULE_NOTE_7
            )
        planet = self.find_planet(targets.get("planet"))
        if planet is not None and planet["controller"] is not None \
                and not self.may_target_owner(name, planet["controller"], fact.name):
            return Rejection(f"{fact.name!r} is offensive: {name} cannot target their own "
                             f"planet {planet['name']!r}", RULE_NOTE_7)
        return None

    def find_planet(self, name: object) -> JSON | None:
        """The planet in play of that name, if any."""
        return next((p for p in self.g.planets if p["name"] == name), None)

    def planet_ready(self, planet: JSON) -> bool:
        """A readied planet (not exhausted) is one that can be exhausted."""
        return not planet["exhausted"]

    def planet_fits(self, name: str, model: CardModel, planet: JSON) -> bool:
        """A planet the card can affect: a controlled one, another player's for an offensive
        card (ti4:note-7), its player's own for a card aimed at "a planet you control"; outside
        the home system for a card that says so; readied for a card that exhausts it."""
        controller = planet["controller"]
        return (controller is not None and self.may_target_owner(name, controller, model.name)
                and self.owner_fits(name, model, controller)
                and not (model.non_home and planet["home"])
                and (model.trait is None or planet.get("trait") == model.trait)
                and not (model.exhausts and not self.planet_ready(planet)))

    def planets_wanted(self, name: str, model: CardModel) -> str:
        """The planets a card can affect, in words (for its refusals)."""
        return " ".join(filter(None, (
            "a readied" if model.exhausts else "a",
            "planet",
            f"{name} controls" if model.own else
            "of another player" if model.offensive else "someone controls",
            "outside their home system" if model.non_home else "")))

    def eligible_planets(self, name: str, model: CardModel) -> list[JSON]:
        """ti4:note-9: the planets the card could target now."""
        return [p for p in self.g.planets if self.planet_fits(name, model, p)]

    def affected_planets(self, name: str, model: CardModel, targets: JSON) -> list[JSON]:
        """The planets an "each planet" card affects: those it could target (ti4:note-9)
        that the player it targets controls, or its own player where it targets none. One
        set for the effect and for ti4:note-8's count of what it affects."""
        whose = targets.get("player", name)
        return [p for p in self.eligible_planets(name, model) if p["controller"] == whose]

    def check_required_objects(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:note-9: a card needing a specific number of objects needs them to exist."""
        model = self.model(fact.name)
        if model is None or not model.specific:
            return None
        if model.target == "law":
            if not self.g.laws:
                return Rejection(
                    f"{fact.name!r} needs a law in play, and there is none", RULE_NOTE_9
                )
            if "law" in targets and targets["law"] not in self.g.laws:
                return Rejection(f"no law named {targets['law']!r} is in play", RULE_NOTE_9)
        elif model.target == "unit":
            if not self.eligible_units(name, model):
                return Rejection(
                    f"{fact.name!r} needs a unit it can target, and there is none", RULE_NOTE_9
                )
            if "unit" in targets and self.find_unit(targets["unit"]) is None:
                return Rejection(f"no unit {targets['unit']!r} is on the board", RULE_NOTE_9)
        elif model.target == "player" and not self.eligible_players(name, model):
            return Rejection(
                f"{fact.name!r} needs another player with a {TAKEN[model.takes or '']}, and "
                "there is none", RULE_NOTE_9,
            )
        elif model.target == "planet":
            if not self.eligible_planets(name, model):
                return Rejection(f"{fact.name!r} needs {self.planets_wanted(name, model)}, "
                                 "and there is none", RULE_NOTE_9)
            if "planet" in targets and self.find_planet(targets["planet"]) is None:
                return Rejection(f"no planet {targets['planet']!r} is in play", RULE_NOTE_9)
        elif model.target == "discarded":
            choices = self.discarded_choices()
            if not choices:
                return Rejection(f"{fact.name!r} needs a discarded action card with a "
                                 "component action in the discard pile, and there is none",
                                 RULE_NOTE_9)
            if "card" in targets and targets["card"] not in choices:
                return Rejection(f"{targets['card']!r} is not a card {fact.name!r} can take: "
                                 f"the discarded cards with a component action are {choices}",
                                 RULE_NOTE_9)
        return None

    def discarded_choices(self) -> list[str]:
        """The cards a "that action card" ability can take: those the current discard event
        discarded, with a component action, still in the discard pile."""
        event = self.event_subject("discard")
        if event is None:
            return []
        pile = list(self.g.discard)
        found = []
        for card in event["cards"]:
            if card in pile and card in self.facts and self.is_component_action(self.facts[card]):
                pile.remove(card)
                found.append(card)
        return found

    def check_target_choice(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.7: the player makes the choices the card asks for, and they must be legal."""
        model = self.model(fact.name)
        if model is None:
            return None
        if model.target in ("unit", "law", "player", "planet") and model.target not in targets:
            return Rejection(f"{fact.name!r} must target exactly one {model.target}", RULE_2_7)
        if model.target == "discarded" and "card" not in targets:
            return Rejection(f"{fact.name!r} must name the discarded card it takes", RULE_2_7)
        event = self.event_subject("sustain_damage")
        if (model.subject == "units" and event is not None and self.in_event_window(name, fact)
                and targets.get("unit") not in event["units"]):
            return Rejection(f"{fact.name!r} affects the ship that used SUSTAIN DAMAGE: one of "
                             f"{event['units']}, not {targets.get('unit')!r}", RULE_2_7)
        if model.target == "unit":
            unit = self.find_unit(targets["unit"])
            if unit is not None and not self.unit_fits(model, unit):
                kinds = ", ".join(sorted(model.unit_types))
                return Rejection(
                    f"{fact.name!r} targets a {kinds}; {unit['id']!r} is a {unit['type']}",
                    RULE_2_7,
                )
            if unit is not None and not self.owner_fits(name, model, unit["owner"]):
                return Rejection(f"{fact.name!r} targets one of {name}'s own units; "
                                 f"{unit['id']!r} is {unit['owner']}'s", RULE_2_7)
        if model.target == "trade_goods":
            have = self.g.players[name].trade_goods
            if targets.get("trade_goods", 0) > have:
                return Rejection(
                    f"{name} cannot spend {targets['trade_goods']} trade goods with only {have}",
                    RULE_2_7,
                )
        return None

    def target_count(self, name: str, fact: CardFact, targets: JSON) -> int:
        """How many objects an "any number"/"each" card affects (ti4:note-8)."""
        model = self.model(fact.name)
        if model is None:
            return 0
        if model.target == "trade_goods":
            return int(targets.get("trade_goods", 0))
        if model.target == "hits":
            event = self.event_subject("roll")
            return int(event["hits"]) if event and self.in_event_window(name, fact) else 0
        if model.target == "units":
            return sum(1 for u in self.g.units
                       if u["owner"] == name and self.unit_fits(model, u))
        if model.target == "planets" or (model.target == "player" and model.trait):
            return len(self.affected_planets(name, model, targets))
        return 1

    def allows_zero_targets(self, fact: CardFact) -> bool:
        """ti4:note-8: an "any number"/"up to"/"each" card may target zero objects."""
        model = self.model(fact.name)
        return bool(model and model.any_number)

    def check_zero_targets(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:note-8: zero targets is only refused for cards that do not allow it."""
        model = self.model(fact.name)
        if model is None or not model.any_number:
            return None
        if self.target_count(name, fact, targets) == 0 and not self.allows_zero_targets(fact):
            return Rejection(f"{fact.name!r} would affect nothing", RULE_NOTE_8)
        return None

    def can_fully_resolve(self, name: str, fact: CardFact, targets: JSON) -> str | None:
        """Why the card's ability could not be completely resolved, or None if it could."""
        model = self.model(fact.name)
        if model is None:
            return None
        chosen = targets.get(model.target or "")
        if model.target == "player":
            target = self.g.players.get(chosen) if isinstance(chosen, str) else None
            if target is None or self.holding(target, model.takes) < 1:
                return f"{chosen} has no {TAKEN[model.takes or '']} to give up"
        if model.target == "unit" and (not chosen or self.find_unit(chosen) is None):
            return f"unit {chosen!r} is not on the board"
        if model.target == "law" and chosen not in self.g.laws:
            return f"law {chosen!r} is not in play"
        if model.target == "planet":
            planet = self.find_planet(chosen)
            if planet is None or not self.planet_fits(name, model, planet):
                return f"{chosen!r} is not {self.planets_wanted(name, model)}"
        return self.cost_problem(name, model, targets)

    def spent_planets(self, name: str, targets: JSON) -> list[JSON]:
        """The planets a play says it spends (``targets.spend.planets``), as they are now."""
        names = (targets.get("spend") or {}).get("planets") or []
        return [p for n in names if (p := self.find_planet(n)) is not None]

    def cost_problem(self, name: str, model: CardModel, targets: JSON) -> str | None:
        """ti4:1.12: a cost the player cannot pay with what the play spends: their own readied
        planets, each once, worth at least the amount (resources or influence)."""
        if model.cost is None:
            return None
        kind, amount = model.cost
        names = (targets.get("spend") or {}).get("planets") or []
        planets = self.spent_planets(name, targets)
        if len(planets) != len(names) or len(set(names)) != len(names):
            return f"the planets spent, {names}, are not each a planet in play, once"
        for planet in planets:
            if planet["controller"] != name or planet["exhausted"]:
                return f"{planet['name']!r} is not a readied planet of {name}'s to spend"
        worth = sum(p[kind] for p in planets)
        if worth < amount:
            return f"the planets spent give {worth} {kind}, and the cost is {amount}"
        return None

    def pay_cost(self, record: PlayRecord) -> None:
        """ti4:1.12: the cost is paid as the card resolves: the planets spent are exhausted."""
        model = self.model(record.card)
        if model is None or model.cost is None:
            return
        for planet in self.spent_planets(record.player, record.targets):
            planet["exhausted"] = True
        self.emit("spent", player=record.player, planets=[
            p["name"] for p in self.spent_planets(record.player, record.targets)])

    def check_fully_resolvable(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.6.1: a component action cannot be played unless it resolves completely."""
        if not self.is_component_action(fact):
            return None
        why = self.can_fully_resolve(name, fact, targets)
        if why is not None:
            return Rejection(
                f"{fact.name!r} is a component action that cannot be completely resolved: {why}",
                RULE_2_6_1,
            )
        return None
