"""Mutants of what a card may target: ti4:note-7, note-8, note-9.

Target rules go wrong by scope: a check made for some kinds of target or card and not
others, or objects counted that the card could not take.
"""

from __future__ import annotations

from oracle.games.kit import JSON, Rejection
from oracle.games.ti4.cards import CardFact, CardModel
from oracle.games.ti4.engine import ReferenceEngine as Ref
from oracle.games.ti4.mutants.base import mutant, returns
from oracle.mutants import Mutant

# -- ti4:note-7 ------------------------------------------------------------------------------


def _self_target_players_only(self: Ref, name: str, fact: CardFact, targets: JSON
                              ) -> Rejection | None:
    return Ref.check_not_self_target(self, name, fact, {k: v for k, v in targets.items()
                                                       if k != "unit"})


def _self_target_action_cards_only(self: Ref, name: str, fact: CardFact, targets: JSON
                                   ) -> Rejection | None:
    if not self.is_component_action(fact):
        return None
    return Ref.check_not_self_target(self, name, fact, targets)


def _own_units_too(self: Ref, name: str, model: CardModel) -> list[JSON]:
    return [u for u in self.g.units if self.unit_fits(model, u)]


# -- ti4:note-8 ------------------------------------------------------------------------------


def _zero_only_for(kind: str):
    def allows(self: Ref, fact: CardFact) -> bool:
        model = self.model(fact.name)
        return bool(model and model.any_number and model.target == kind)

    return allows


# -- ti4:note-9 ------------------------------------------------------------------------------


def _any_unit_type(self: Ref, name: str, model: CardModel) -> list[JSON]:
    return [u for u in self.g.units if self.may_target_owner(name, u["owner"], model.name)]


MUTANTS: tuple[Mutant, ...] = (
    # ti4:note-7
    mutant("offensive_cards_on_self", ("note-7",),
           "offensive cards may target their own player",
           may_target_owner=returns(True)),
    mutant("self_target_checked_for_players_only", ("note-7",),
           "an offensive card may not target its own player, but may target their units",
           check_not_self_target=_self_target_players_only),
    mutant("self_target_checked_for_action_cards_only", ("note-7",),
           "only offensive 'Action' cards are kept off their own player",
           check_not_self_target=_self_target_action_cards_only),
    # ti4:note-8
    mutant("zero_targets_refused", ("note-8",),
           "'any number' and 'each' cards are refused when they would affect nothing",
           allows_zero_targets=returns(False)),
    mutant("zero_refused_for_each", ("note-8",),
           "an 'each' card is refused when there is nothing for it to affect",
           allows_zero_targets=_zero_only_for("trade_goods")),
    mutant("zero_refused_for_any_number", ("note-8",),
           "an 'any number' card is refused when it would spend nothing",
           allows_zero_targets=_zero_only_for("units")),
    # ti4:note-9
    mutant("missing_objects_ignored", ("note-9",),
           "a card whose specific targets do not exist may be played for no effect",
           check_required_objects=returns(None)),
    mutant("any_unit_is_a_target", ("note-9",),
           "a card that needs a unit of some types is playable when any unit is there",
           eligible_units=_any_unit_type),
    mutant("own_units_count_as_targets", ("note-9",),
           "a card that needs another player's unit is playable on the player's own units",
           eligible_units=_own_units_too),
)
