"""What docs/protocol.md ("Questions an EU adapter asks") leaves to the engine, no EU scenario
depends on.

Why: an adapter writer reads there that, say, the default phase or the order of several Step C
discards is the engine's to choose. That is a promise about the scenarios: if one came to
depend on such a choice, an engine choosing otherwise would fail a rule it does not break. So
every EU scenario runs (in-process, ``oracle.mutants.harness``) on two engines that make the
other choices the page names, and each must get the reference engine's verdict, scenario by
scenario. (tests/test_eu_attribution.py does the same for the readings of the rules text the
audit left open: hiring costs, Step C one player at a time, keeping fewer than 5.) The pinned
answers are the other way round: ``countered_frees_the_turn`` and the reference engine's
refusals are killed by the scenarios the page names.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from oracle.engines import EngineClient
from oracle.games.eu_pop.engine import Pending, ReferenceEngine
from oracle.games.kit import Rejected, Rejection, not_kept
from oracle.mutants.harness import game_cases, run_case
from oracle.suite.games import discover_games

GAME = discover_games()["eu-pop"]


class _AnyTimeWhilePlaying(ReferenceEngine):
    """Lets a player end the Turn or appoint while a card is being played."""

    def _ignoring_the_stack(self, method: Any, action: Any) -> None:
        stack, self.g.being_played = self.g.being_played, []
        try:
            method(action)
        finally:
            self.g.being_played = stack + self.g.being_played

    def act_end_turn(self, action: Any) -> None:
        self._ignoring_the_stack(super().act_end_turn, action)

    def act_appoint(self, action: Any) -> None:
        self._ignoring_the_stack(super().act_appoint, action)


class OtherChoices(_AnyTimeWhilePlaying):
    """The Draw Phase when a setup gives no phase (and no active player); the card just
    placed offered among the Display Cards to discard; a "?" die with no type chosen taken as
    infantry; end_turn and appoint allowed while a card is being played; several Step C
    discards land in the other order; Step C resolved again while its decisions are pending
    asks again; each side's Battle Dice listed in the other order; every kind of cost
    reduction listed, 0 where none; an active player shown outside the Action Phase."""

    def _build_turn(self, state: Any, players: Any) -> Any:
        phase, _active, window = super()._build_turn({"phase": "draw", **state}, players)
        return phase, state.get("active_player"), window

    def third_display(self, player: Any, older: list[str]) -> None:
        self.add_pending(Pending(player.name, "discard", 1, "display",
                                 [d.card for d in player.display]))

    def check_dice_choice(self, icons: Any, targets: Any, what: str) -> None:
        return None

    def dice_gained(self, icons: tuple[str, ...], chosen: list[str]) -> list[str]:
        picks = iter(chosen)
        return [next(picks, "infantry") if icon == "?" else icon for icon in icons]

    def keep_cards(self, player: Any, keep: list[str]) -> None:
        for card in reversed(not_kept(player.hand, keep)):
            player.hand.remove(card)
            self.discard_card(card)

    def act_discard_down(self, action: Any) -> None:
        pending = self.g.pending  # Step C again asks its keeps again
        self.g.pending = [p for p in pending if p.decision != "keep"]
        try:
            super().act_discard_down(action)
        except Rejected:
            self.g.pending = pending
            raise

    def view(self, viewer: Any) -> Any:
        view = super().view(viewer)
        for player in view["players"].values():  # every kind of cost, 0 where not lowered
            player["cost_reductions"] = {k: player["cost_reductions"].get(k, 0)
                                         for k in ("administrative", "diplomatic", "military",
                                                   "ducats")}
        if view.get("battle"):
            view["battle"]["dice"] = {s: d[::-1] for s, d in view["battle"]["dice"].items()}
        if view.get("phase") != "action":  # shows a player out of the Action Phase too
            view["active_player"] = next(iter(view["players"]), None)
        return view


class StricterChoices(ReferenceEngine):
    """The Cleanup Phase when a setup gives none; a draw refused while a card is being
    played, or when the deck and its discard pile hold too few cards; a Counterespionage
    that takes only a Display Card's name, not its Action's, and never counters its own
    player's card; a targets.card refused on a card that counters nothing; a defender's
    pass ending the attacker's Battle Actions for the Round, as a defender's play does."""

    def check_battle_order(self, name: str, what: str) -> Rejection | None:
        battle = self.g.battle
        if battle is not None and self.side_of(name) == "attackers" and (
                "defenders" in battle.passed):
            return Rejection(f"the defender has passed: {what!r} comes too late")
        return super().check_battle_order(name, what)

    def act_play(self, action: Any) -> None:
        fact = self.card_fact(action.get("card"), "play.card")
        targets = action.get("targets") or {}
        if not self.counters_covert(fact) and "card" in targets:
            raise Rejected(Rejection(f"{fact.name!r} counters nothing: it takes no card"))
        target = self.counter_target(targets) if self.counters_covert(fact) else None
        if target is not None and target.player == action.get("player"):
            raise Rejected(Rejection("a player does not counter their own card"))
        super().act_play(action)

    def _build_turn(self, state: Any, players: Any) -> Any:
        return super()._build_turn({"phase": "cleanup", **state}, players)

    def act_draw(self, action: Any) -> None:
        pile = self.g.decks.get(action.get("deck"))
        if self.g.being_played:
            raise Rejected(Rejection("a card is being played"))
        if pile is not None and len(pile.draw) + len(pile.discard) < int(action["count"]):
            raise Rejected(Rejection("the deck and its discard pile hold too few cards"))
        super().act_draw(action)

    def counter_target(self, targets: Any) -> Any:
        wanted = targets.get("card")
        return next((r for r in reversed(self.g.being_played)
                     if wanted is None or wanted == r.card), None)


@functools.cache
def statuses(engine: type) -> dict[str, str]:
    return {case.test_name: run_case(GAME, case, EngineClient(engine(), engine.__name__))
            .status.value for case in game_cases(GAME)}


@pytest.mark.parametrize("engine", [OtherChoices, StricterChoices], ids=lambda e: e.__name__)
def test_an_engine_making_the_other_choices_gets_every_verdict_the_reference_gets(engine):
    reference, other = statuses(ReferenceEngine), statuses(engine)
    assert set(reference.values()) == {"pass"}
    changed = {name: status for name, status in other.items() if status != reference[name]}
    assert changed == {}, ("docs/protocol.md ('Questions an EU adapter asks') leaves these "
                           "to the engine, but scenarios depend on them")


def test_the_choices_are_real_choices():
    """Each engine above does behave otherwise (so the test above can fail): it answers a
    request the reference engine answers differently."""
    from oracle.protocol import Act, Observe, Ready, Setup

    def answers(engine: type, state: dict, *actions: dict) -> list[str]:
        client = EngineClient(engine(), engine.__name__)
        assert isinstance(client.send(Setup("eu-pop", state, 1)), Ready)
        return [type(client.send(Act(a))).__name__ for a in actions]

    players = [{"name": "Alice", "hand": ["Secret Treaty", "Royal Decree"]}, {"name": "Bob"}]
    play = {"type": "play", "player": "Alice", "card": "Secret Treaty"}
    end = {"type": "end_turn", "player": "Alice"}
    assert answers(ReferenceEngine, {"players": players}, play, end) == ["Accepted", "Rejected"]
    assert answers(OtherChoices, {"players": players, "phase": "action",
                                  "active_player": "Alice"}, play, end) == ["Accepted",
                                                                            "Accepted"]
    assert answers(OtherChoices, {"players": players}, play) == ["Rejected"]  # Draw Phase
    draw = {"type": "draw", "player": "Bob", "deck": "military", "count": 1}
    assert answers(ReferenceEngine, {"players": players}, play, draw) == ["Accepted"] * 2
    assert answers(StricterChoices, {"players": players, "phase": "action"}, play,
                   draw) == ["Accepted", "Rejected"]
    aimed = {**play, "card": "Royal Decree", "targets": {"card": "Secret Treaty"}}
    own = {"type": "play", "player": "Alice", "card": "Counterespionage",
           "targets": {"card": "Secret Treaty"}}
    spy = [{"name": "Alice", "hand": ["Secret Treaty", "Counterespionage", "Royal Decree"]},
           {"name": "Bob"}]
    state = {"players": spy, "phase": "action", "active_player": "Alice"}
    assert answers(ReferenceEngine, state, aimed) == ["Accepted"]
    assert answers(StricterChoices, state, aimed) == ["Rejected"]
    assert answers(ReferenceEngine, state, play, own) == ["Accepted", "Accepted"]
    assert answers(StricterChoices, state, play, own) == ["Accepted", "Rejected"]
    fighting = {"players": [{"name": "Alice", "hand": ["Volley Fire"]}, {"name": "Bob"}],
                "phase": "action", "active_player": "Alice",
                "battle": {"attackers": ["Alice"], "defenders": ["Bob"]}}
    volley = {"type": "play", "player": "Alice", "card": "Volley Fire"}
    bob_passes = {"type": "battle_pass", "player": "Bob"}
    assert answers(ReferenceEngine, fighting, bob_passes, volley) == ["Accepted"] * 2
    assert answers(StricterChoices, fighting, bob_passes, volley) == ["Accepted", "Rejected"]
    seen = EngineClient(OtherChoices(), "other")
    seen.send(Setup("eu-pop", {"players": spy, "phase": "peace"}, 1))
    assert seen.send(Observe("*")).view["active_player"] == "Alice"
