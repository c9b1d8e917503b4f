"""Mutants of what a card may target: ti4:note-7, note-8, note-9.

Target rules go wrong by scope: a check made for some kinds of target or card and not
others, or for some object of the kind rather than the one the play names. (Counting units
the card could not take, of another type or the player's own, is no mutant here: another
check refuses such a play for another reason, so no scenario can see it.)
"""

from __future__ import annotations

from oracle.games.kit import JSON, Rejection
from oracle.games.kit.slips import returns
from oracle.games.ti4.cards import CardFact
from oracle.games.ti4.engine import ReferenceEngine as Ref
from oracle.games.ti4.mutants.base import mutant
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


# -- ti4:note-8 ------------------------------------------------------------------------------


def _zero_only_for(kind: str):
    def allows(self: Ref, fact: CardFact) -> bool:
        model = self.model(fact.name)
        return bool(model and model.any_number and model.target == kind)

    return allows


# -- ti4:note-9 ------------------------------------------------------------------------------


def _laws_only(self: Ref, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
    model = self.model(fact.name)
    if model is None or model.target != "law":
        return None
    return Ref.check_required_objects(self, name, fact, targets)


def _some_object_is_enough(self: Ref, name: str, fact: CardFact, targets: JSON
                           ) -> Rejection | None:
    """Checks that something of the kind exists, not the object the play names."""
    model = self.model(fact.name)
    if model is not None and model.target in ("unit", "law") and model.target in targets:
        targets = {k: v for k, v in targets.items() if k != model.target}
    return Ref.check_required_objects(self, name, fact, targets)


def _completeness_first() -> tuple[str, ...]:
    checks = list(Ref.PLAY_CHECKS)
    checks.remove("check_fully_resolvable")
    checks.insert(checks.index("check_required_objects"), "check_fully_resolvable")
    return tuple(checks)


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
    mutant("objects_checked_for_laws_only", ("note-9",),
           "only a card aimed at a law needs its object to exist; unit cards are not checked",
           check_required_objects=_laws_only),
    mutant("missing_objects_cited_as_incomplete", ("note-9",),
           "a card whose specific targets do not exist is refused as an incomplete component "
           "action (2.6.1), the check of note 9 coming after it",
           PLAY_CHECKS=_completeness_first()),
    mutant("exhausted_planets_count_as_ready", ("note-9",),
           "an exhausted planet is a planet a card can exhaust (Uprising), so such a card is "
           "played when every planet it could take is exhausted",
           planet_ready=returns(True)),
    mutant("named_target_not_checked", ("note-9",),
           "a card may be aimed at an object that does not exist if another of its kind does",
           check_required_objects=_some_object_is_enough),
)
