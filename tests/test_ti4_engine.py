"""The bundled TI4 reference engine, driven only through protocol dicts.

Why only ``handle()``: the oracle talks to every engine through the protocol, so these tests
check exactly what a scenario can see (replies and ``observe`` views), and every behaviour is
tested the way a mutant that breaks it would be caught.
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from oracle.games.ti4.engine import ReferenceEngine, factory

JSON = dict[str, Any]

FILLER = ["Veto", "Spy", "Plague", "Summit", "Salvage", "Bunker", "Parley", "Rally", "Scuttle"]


def player(name: str, **extra: Any) -> JSON:
    return {"name": name, "hand": [], **extra}


def setup(state: JSON, seed: int = 1) -> ReferenceEngine:
    engine = factory()
    reply = engine.handle({"op": "setup", "game": "ti4", "seed": seed, "state": state})
    assert reply == {"reply": "ready"}, reply
    return engine


def table(
    *players: JSON, draw: list[str] | None = None, discard: list[str] | None = None, **extra: Any
) -> JSON:
    state: JSON = {
        "players": list(players) or [player("Alice"), player("Bob")],
        "phase": "action",
        "decks": {"action": {"draw": list(draw or []), "discard": list(discard or [])}},
    }
    state.update(extra)
    return state


def act(engine: ReferenceEngine, **action: Any) -> JSON:
    return engine.handle({"op": "act", "action": action})


def choose(engine: ReferenceEngine, who: str, **choice: Any) -> JSON:
    return engine.handle({"op": "choose", "player": who, "choice": choice})


def view(engine: ReferenceEngine, viewer: str | None = "*") -> JSON:
    reply = engine.handle({"op": "observe", "viewer": viewer})
    assert reply["reply"] == "view", reply
    return reply["view"]


def hand(engine: ReferenceEngine, who: str) -> list[str]:
    return view(engine)["players"][who]["hand"]["cards"]


def deck(engine: ReferenceEngine) -> JSON:
    return view(engine)["decks"]["action"]


def accepted(reply: JSON) -> JSON:
    assert reply["reply"] == "accepted", reply
    return reply


def rejected(engine: ReferenceEngine, reply: JSON, rule: str | None, before: JSON) -> None:
    """A rejection names its rule and leaves every viewer's view unchanged."""
    assert reply["reply"] == "rejected", reply
    assert reply.get("rule") == rule, reply
    assert reply["reason"]
    assert view(engine) == before


def reject_case(engine: ReferenceEngine, rule: str | None, **action: Any) -> None:
    before = view(engine)
    rejected(engine, act(engine, **action), rule, before)


# -- describe, setup, protocol robustness -------------------------------------------------------


def test_describe_names_the_engine_and_every_capability() -> None:
    reply = factory().handle({"op": "describe"})
    assert reply["reply"] == "described"
    info = reply["engine"]
    assert info["name"] == "rules-oracle reference TI4"
    assert info["version"] == "0.1.0"
    assert info["protocol"] == 1
    assert info["games"] == [{"game": "ti4", "edition": "LRR, Prophecy of Kings action deck"}]
    caps = set(info["capabilities"])
    for card in (
        "Sabotage",
        "Lucky Shot",
        "Direct Hit",
        "Repeal Law",
        "Insubordination",
        "Bribery",
        "Morale Boost",
    ):
        assert f"ti4/card/{card}" in caps
    for cap in (
        "ti4/draw",
        "ti4/play",
        "ti4/windows",
        "ti4/reveal",
        "ti4/hand-limit",
        "ti4/status-phase",
        "ti4/rounds",
        "ti4/politics",
        "ti4/transactions",
        "ti4/sabotage",
        "ti4/units",
        "ti4/laws",
        "ti4/trade-goods",
        "ti4/faction/Yssaril",
        "ti4/faction/Hacan",
        "ti4/technology/Neural Motivator",
    ):
        assert cap in caps


@pytest.mark.parametrize(
    ("state", "needle"),
    [
        (table(player("Alice", hand=["Not A Card"])), "Not A Card"),
        (table(player("Alice"), player("Alice")), "twice"),
        (table(player("Alice"), speaker="Zed"), "Zed"),
        (table(player("Alice"), active_player="Zed"), "Zed"),
        (table(player("Alice"), player("Bob"), initiative=["Bob"]), "initiative"),
        (table(player("Alice"), phase="lunch"), "phase"),
        (table(player("Alice"), draw=["Nope"]), "Nope"),
        (
            table(
                player("Alice"),
                player("Bob"),
                units=[
                    {"id": "u1", "owner": "Bob", "type": "destroyer"},
                    {"id": "u1", "owner": "Bob", "type": "cruiser"},
                ],
            ),
            "u1",
        ),
        (table(player("Alice"), units=[{"id": "u", "owner": "Zed", "type": "cruiser"}]), "Zed"),
        (table(player("Alice"), units=[{"id": "u", "owner": "Alice", "type": "tank"}]), "tank"),
    ],
)
def test_setup_refuses_an_impossible_state_with_the_reason(state: JSON, needle: str) -> None:
    engine = factory()
    reply = engine.handle({"op": "setup", "game": "ti4", "seed": 1, "state": state})
    assert reply["reply"] == "errored", reply
    assert needle in reply["message"]
    # the failed setup threw the old game away: nothing to observe
    assert engine.handle({"op": "observe", "viewer": "*"})["reply"] == "errored"


def test_setup_of_another_game_is_unsupported() -> None:
    reply = factory().handle({"op": "setup", "game": "chess", "seed": 1, "state": {}})
    assert reply["reply"] == "unsupported"


def test_setup_with_an_unmodelled_state_key_is_unsupported() -> None:
    reply = factory().handle(
        {"op": "setup", "game": "ti4", "seed": 1, "state": {**table(), "agenda_deck": []}}
    )
    assert reply["reply"] == "unsupported"


@pytest.mark.parametrize(
    "request_",
    [
        {"op": "dance"},
        {},
        {"op": "act", "action": {"type": "draw", "player": "Alice"}},  # before any setup
    ],
)
def test_unknown_ops_and_requests_before_setup_are_errored(request_: JSON) -> None:
    assert factory().handle(request_)["reply"] == "errored"


def test_malformed_actions_are_errored_and_unknown_action_types_unsupported() -> None:
    engine = setup(table())
    assert act(engine, type="draw", player="Zed", count=1)["reply"] == "errored"
    assert act(engine, type="draw", player="Alice", count=-1)["reply"] == "errored"
    assert engine.handle({"op": "act"})["reply"] == "errored"
    assert act(engine, type="teleport")["reply"] == "unsupported"
    assert engine.handle({"op": "observe", "viewer": "Zed"})["reply"] == "errored"


def test_an_internal_exception_becomes_errored_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engine = setup(table(draw=["Spy", "Veto"]))
    before = view(engine)

    def boom(self: ReferenceEngine, player: Any, count: int) -> None:
        self.g.draw.clear()  # a half-done change that must be undone
        raise RuntimeError("kaput")

    monkeypatch.setattr(ReferenceEngine, "player_draws", boom)
    reply = act(engine, type="draw", player="Alice", deck="action", count=1)
    assert reply["reply"] == "errored"
    assert "kaput" in reply["message"]
    assert reply["context"]["exception"] == "RuntimeError"
    assert view(engine) == before


# -- starting hands, the full deck, seeds -------------------------------------------------------


def test_players_without_a_hand_start_with_zero_cards_and_the_full_deck() -> None:
    engine = setup({"players": [{"name": "Alice"}, {"name": "Bob"}], "phase": "action"})
    v = view(engine)
    assert v["players"]["Alice"]["hand"] == {"count": 0, "cards": []}
    assert v["players"]["Bob"]["hand"]["count"] == 0
    assert v["decks"]["action"]["draw"]["count"] == 120
    assert v["decks"]["action"]["discard"] == []
    cards = Counter(v["decks"]["action"]["draw"]["cards"])
    assert cards["Sabotage"] == 4 and cards["Lucky Shot"] == 1 and cards["Direct Hit"] == 4


def test_the_full_deck_leaves_out_cards_already_in_hands() -> None:
    engine = setup({"players": [player("Alice", hand=["Lucky Shot"])], "phase": "action"})
    cards = deck(engine)["draw"]["cards"]
    assert len(cards) == 119
    assert "Lucky Shot" not in cards


def test_the_same_seed_shuffles_the_same_and_another_seed_differently() -> None:
    state = {"players": [{"name": "Alice"}], "phase": "action"}
    first = deck(setup(state, seed=42))["draw"]["cards"]
    again = deck(setup(state, seed=42))["draw"]["cards"]
    other = deck(setup(state, seed=43))["draw"]["cards"]
    assert first == again
    assert first != other
    assert sorted(first) == sorted(other)


def test_a_reshuffle_uses_the_seed() -> None:
    discard = list(FILLER)
    results = []
    for seed in (5, 5, 6):
        engine = setup(table(draw=["Spy"], discard=discard), seed=seed)
        accepted(act(engine, type="draw", player="Alice", deck="action", count=1))
        results.append(deck(engine)["draw"]["cards"])
    assert results[0] == results[1]
    assert results[0] != results[2]


# -- drawing and the depleted deck --------------------------------------------------------------


def test_a_draw_takes_the_top_cards_into_the_hand() -> None:
    engine = setup(table(draw=["Spy", "Veto", "Plague"]))
    accepted(act(engine, type="draw", player="Alice", deck="action", count=2))
    assert hand(engine, "Alice") == ["Spy", "Veto"]
    assert deck(engine)["draw"] == {"count": 1, "cards": ["Plague"]}


def test_an_emptied_draw_pile_is_reshuffled_at_once() -> None:
    engine = setup(table(draw=["Spy"], discard=["Veto", "Plague"]))
    accepted(act(engine, type="draw", player="Alice", deck="action", count=1))
    d = deck(engine)
    assert d["discard"] == []
    assert sorted(d["draw"]["cards"]) == ["Plague", "Veto"]


def test_a_draw_continues_from_the_reshuffled_deck() -> None:
    engine = setup(table(draw=["Spy"], discard=["Veto"]))
    accepted(act(engine, type="draw", player="Alice", deck="action", count=2))
    assert hand(engine, "Alice") == ["Spy", "Veto"]
    assert deck(engine) == {"draw": {"count": 0, "cards": []}, "discard": []}


def test_a_draw_from_an_exhausted_deck_gives_nothing() -> None:
    engine = setup(table(draw=["Spy"]))
    accepted(act(engine, type="draw", player="Alice", deck="action", count=3))
    assert hand(engine, "Alice") == ["Spy"]
    assert deck(engine)["draw"]["count"] == 0


# -- the hand limit -----------------------------------------------------------------------------


def seven() -> list[str]:
    return FILLER[:7]


def test_an_eighth_card_asks_the_player_to_keep_seven() -> None:
    engine = setup(table(player("Alice", hand=seven()), player("Bob"), draw=["Sabotage"]))
    accepted(act(engine, type="draw", player="Alice", deck="action", count=1))
    assert view(engine)["pending"] == [{"player": "Alice", "decision": "keep", "count": 7}]
    accepted(choose(engine, "Alice", keep=[*FILLER[1:7], "Sabotage"]))
    v = view(engine)
    assert v["pending"] == []
    assert sorted(v["players"]["Alice"]["hand"]["cards"]) == sorted([*FILLER[1:7], "Sabotage"])
    assert v["decks"]["action"]["discard"] == [FILLER[0]]


def test_exactly_seven_cards_need_no_discard() -> None:
    engine = setup(table(player("Alice", hand=FILLER[:6]), player("Bob"), draw=["Sabotage"]))
    accepted(act(engine, type="draw", player="Alice", deck="action", count=1))
    assert view(engine)["pending"] == []


@pytest.mark.parametrize(("modifier", "limit", "pending"), [(1, 8, False), (-1, 6, True)])
def test_a_game_effect_changes_the_hand_limit(modifier: int, limit: int, pending: bool) -> None:
    engine = setup(
        table(
            player("Alice", hand=FILLER[: 7 + min(modifier, 0)], hand_limit_modifier=modifier),
            player("Bob"),
            draw=["Sabotage"],
        )
    )
    assert view(engine)["players"]["Alice"]["hand_limit"] == limit
    accepted(act(engine, type="draw", player="Alice", deck="action", count=1))
    expected = [{"player": "Alice", "decision": "keep", "count": limit}] if pending else []
    assert view(engine)["pending"] == expected


def test_a_state_over_the_limit_is_pending_from_the_start() -> None:
    engine = setup(table(player("Alice", hand=FILLER[:8]), player("Bob")))
    assert view(engine)["pending"] == [{"player": "Alice", "decision": "keep", "count": 7}]


@pytest.mark.parametrize(
    "choice",
    [
        {"keep": FILLER[:6]},  # too few
        {"keep": [*FILLER[:6], "Lucky Shot"]},  # not in hand
        {"keep": [FILLER[0]] * 7},  # one copy only
        {"discard": [FILLER[0]]},  # wrong decision kind
    ],
)
def test_a_wrong_keep_choice_is_rejected(choice: JSON) -> None:
    engine = setup(table(player("Alice", hand=FILLER[:8]), player("Bob")))
    before = view(engine)
    reply = engine.handle({"op": "choose", "player": "Alice", "choice": choice})
    rejected(engine, reply, "ti4:2.4", before)


def test_a_choice_without_a_pending_decision_is_rejected() -> None:
    engine = setup(table())
    before = view(engine)
    rejected(engine, choose(engine, "Alice", keep=[]), None, before)


def over_limit_engine() -> ReferenceEngine:
    state = table(
        player("Alice", hand=[*FILLER[:7], "Lucky Shot"], faction="Hacan"),
        player("Bob"),
        units=[{"id": "b1", "owner": "Bob", "type": "destroyer"}],
        draw=["Sabotage"],
        active_player="Alice",
    )
    return setup(state)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "play", "player": "Alice", "card": "Lucky Shot", "targets": {"unit": "b1"}},
        {"type": "trade", "player": "Alice", "to": "Bob", "cards": ["Lucky Shot"]},
        {"type": "draw", "player": "Alice", "deck": "action", "count": 1},
        {"type": "reveal", "player": "Alice", "cards": ["Lucky Shot"]},
    ],
)
def test_over_the_limit_a_player_can_only_discard(action: JSON) -> None:
    engine = over_limit_engine()
    reject_case(engine, "ti4:note-10", **action)


def test_after_discarding_down_the_player_can_play_again() -> None:
    engine = over_limit_engine()
    accepted(choose(engine, "Alice", keep=[*FILLER[:6], "Lucky Shot"]))
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b1"}))


# -- Yssaril: Scheming --------------------------------------------------------------------------


def test_yssaril_draws_one_extra_then_discards_one() -> None:
    engine = setup(table(player("Yin", faction="Yssaril"), draw=["Spy", "Veto", "Plague"]))
    accepted(act(engine, type="draw", player="Yin", deck="action", count=1))
    v = view(engine)
    assert v["players"]["Yin"]["hand"]["cards"] == ["Spy", "Veto"]
    assert v["pending"] == [{"player": "Yin", "decision": "discard", "count": 1}]
    accepted(choose(engine, "Yin", discard=["Spy"]))
    v = view(engine)
    assert v["players"]["Yin"]["hand"]["cards"] == ["Veto"]
    assert v["decks"]["action"]["discard"] == ["Spy"]
    assert v["pending"] == []


def test_yssaril_must_discard_before_doing_anything_else() -> None:
    engine = setup(table(player("Yin", faction="Yssaril"), draw=["Spy", "Veto", "Plague"]))
    accepted(act(engine, type="draw", player="Yin", deck="action", count=1))
    reject_case(engine, "ti4:note-5.2", type="draw", player="Yin", deck="action", count=1)
    before = view(engine)
    rejected(engine, choose(engine, "Yin", discard=["Plague"]), "ti4:note-5.2", before)


def test_the_hand_limit_is_checked_after_the_scheming_discard() -> None:
    engine = setup(
        table(player("Yin", faction="Yssaril", hand=FILLER[:7]), draw=["Sabotage", "Spy"])
    )
    accepted(act(engine, type="draw", player="Yin", deck="action", count=1))
    assert view(engine)["pending"] == [{"player": "Yin", "decision": "discard", "count": 1}]
    accepted(choose(engine, "Yin", discard=["Sabotage"]))
    assert view(engine)["pending"] == [{"player": "Yin", "decision": "keep", "count": 7}]


def test_yssaril_at_seven_after_scheming_keeps_everything() -> None:
    engine = setup(
        table(player("Yin", faction="Yssaril", hand=FILLER[:6]), draw=["Sabotage", "Spy"])
    )
    accepted(act(engine, type="draw", player="Yin", deck="action", count=1))
    accepted(choose(engine, "Yin", discard=["Sabotage"]))
    assert view(engine)["pending"] == []
    assert view(engine)["players"]["Yin"]["hand"]["count"] == 7


# -- the status phase ---------------------------------------------------------------------------


def status_table(*players: JSON, draw: list[str], **extra: Any) -> JSON:
    return table(*players, draw=draw, phase="status", **extra)


def test_status_draw_deals_one_card_each_in_initiative_order() -> None:
    engine = setup(
        status_table(
            player("Alice"),
            player("Bob"),
            player("Cho"),
            draw=["Spy", "Veto", "Plague", "Summit"],
            initiative=["Cho", "Alice", "Bob"],
        )
    )
    accepted(act(engine, type="status_draw"))
    assert hand(engine, "Cho") == ["Spy"]
    assert hand(engine, "Alice") == ["Veto"]
    assert hand(engine, "Bob") == ["Plague"]


def test_without_initiative_the_dealing_follows_seat_order() -> None:
    engine = setup(status_table(player("Alice"), player("Bob"), draw=["Spy", "Veto"]))
    accepted(act(engine, type="status_draw"))
    assert hand(engine, "Alice") == ["Spy"]
    assert hand(engine, "Bob") == ["Veto"]


def test_neural_motivator_draws_both_cards_before_the_next_player() -> None:
    engine = setup(
        status_table(
            player("Alice", technologies=["Neural Motivator"]),
            player("Bob"),
            draw=["Spy", "Veto", "Plague", "Summit"],
        )
    )
    accepted(act(engine, type="status_draw"))
    assert hand(engine, "Alice") == ["Spy", "Veto"]
    assert hand(engine, "Bob") == ["Plague"]


def test_status_draw_happens_only_in_the_status_phase_and_once() -> None:
    engine = setup(table(draw=FILLER))
    reject_case(engine, "ti4:2.1", type="status_draw")
    engine = setup(status_table(player("Alice"), draw=FILLER))
    accepted(act(engine, type="status_draw"))
    reject_case(engine, "ti4:2.1", type="status_draw")


def test_the_next_round_starts_the_status_steps_afresh_and_keeps_hands_and_deck() -> None:
    engine = setup(status_table(player("Alice"), player("Bob"), draw=FILLER))
    accepted(act(engine, type="status_draw"))
    accepted(act(engine, type="status_step", step="Return Strategy Cards"))
    reject_case(engine, "ti4:2.1", type="status_draw")
    accepted(act(engine, type="next_round", phase="status"))
    accepted(act(engine, type="status_draw"))
    assert hand(engine, "Alice") == [FILLER[0], FILLER[2]]
    assert hand(engine, "Bob") == [FILLER[1], FILLER[3]]
    assert deck(engine)["draw"]["count"] == len(FILLER) - 4
    accepted(act(engine, type="next_round", phase="action"))
    assert view(engine)["active_player"] == "Alice"
    reject_case(engine, "ti4:2.1", type="status_draw")


def test_the_next_round_waits_for_a_pending_decision() -> None:
    engine = setup(status_table(player("Alice", hand=seven()), draw=FILLER))
    accepted(act(engine, type="status_draw"))
    reject_case(engine, "ti4:note-10", type="next_round", phase="status")
    errored = act(engine, type="next_round", phase="lunch")
    assert errored["reply"] == "errored", errored


def test_the_dealing_waits_for_the_yssaril_discard() -> None:
    engine = setup(
        status_table(
            player("Alice"),
            player("Yin", faction="Yssaril"),
            player("Bob"),
            draw=["Spy", "Veto", "Plague", "Summit", "Salvage"],
        )
    )
    accepted(act(engine, type="status_draw"))
    v = view(engine)
    assert v["players"]["Alice"]["hand"]["cards"] == ["Spy"]
    assert v["players"]["Yin"]["hand"]["cards"] == ["Veto", "Plague"]
    assert v["players"]["Bob"]["hand"]["count"] == 0
    assert v["pending"] == [{"player": "Yin", "decision": "discard", "count": 1}]
    accepted(choose(engine, "Yin", discard=["Veto"]))
    assert hand(engine, "Bob") == ["Summit"]
    assert view(engine)["pending"] == []


def test_the_dealing_waits_for_a_hand_limit_discard() -> None:
    engine = setup(
        status_table(player("Alice", hand=FILLER[:7]), player("Bob"), draw=["Sabotage", "Spy"])
    )
    accepted(act(engine, type="status_draw"))
    assert view(engine)["players"]["Bob"]["hand"]["count"] == 0
    reject_case(engine, "ti4:note-10", type="status_draw")
    accepted(choose(engine, "Alice", keep=[*FILLER[1:7], "Sabotage"]))
    assert hand(engine, "Bob") == ["Spy"]


def test_a_reshuffle_during_the_dealing_happens_when_the_pile_empties() -> None:
    engine = setup(status_table(player("Alice"), player("Bob"), draw=["Spy"], discard=["Veto"]))
    accepted(act(engine, type="status_draw"))
    assert hand(engine, "Alice") == ["Spy"]
    assert hand(engine, "Bob") == ["Veto"]


# -- Politics -----------------------------------------------------------------------------------


def politics_table(**extra: Any) -> JSON:
    state = table(
        player("Alice", strategy_cards=["Politics"], technologies=["Neural Motivator"]),
        player("Bob", command_tokens={"strategy": 1}),
        player("Cho", command_tokens={"strategy": 0}),
        draw=FILLER,
        speaker="Bob",
        active_player="Alice",
    )
    state.update(extra)
    return state


def test_politics_primary_moves_the_speaker_and_draws_two() -> None:
    engine = setup(politics_table())
    accepted(act(engine, type="politics_primary", player="Alice", speaker="Cho"))
    v = view(engine)
    assert v["speaker"] == "Cho"
    assert v["players"]["Alice"]["hand"]["cards"] == FILLER[:2]  # Neural Motivator: no extra


def test_the_active_player_may_choose_themselves_as_speaker() -> None:
    engine = setup(politics_table())
    accepted(act(engine, type="politics_primary", player="Alice", speaker="Alice"))
    assert view(engine)["speaker"] == "Alice"


@pytest.mark.parametrize(
    ("extra", "action"),
    [
        ({}, {"player": "Alice", "speaker": "Bob"}),  # Bob already is the speaker
        ({}, {"player": "Bob", "speaker": "Cho"}),  # Bob is not active and lacks Politics
        ({"active_player": "Bob"}, {"player": "Bob", "speaker": "Cho"}),  # no Politics
        ({"phase": "status"}, {"player": "Alice", "speaker": "Cho"}),
    ],
)
def test_politics_primary_refusals(extra: JSON, action: JSON) -> None:
    engine = setup(politics_table(**extra))
    reject_case(engine, "ti4:2.2", type="politics_primary", **action)


def test_politics_primary_is_the_turns_action() -> None:
    engine = setup(politics_table())
    accepted(act(engine, type="politics_primary", player="Alice", speaker="Cho"))
    reject_case(engine, "ti4:2.2", type="politics_primary", player="Alice", speaker="Bob")


def test_yssaril_schemes_on_politics() -> None:
    engine = setup(
        politics_table(
            players=[player("Yin", faction="Yssaril", strategy_cards=["Politics"]), player("Bob")],
            active_player="Yin",
        )
    )
    accepted(act(engine, type="politics_primary", player="Yin", speaker="Yin"))
    assert hand(engine, "Yin") == FILLER[:3]
    assert view(engine)["pending"] == [{"player": "Yin", "decision": "discard", "count": 1}]


def test_politics_secondary_spends_a_strategy_token_to_draw_two() -> None:
    engine = setup(politics_table())
    accepted(act(engine, type="politics_primary", player="Alice", speaker="Cho"))
    accepted(act(engine, type="politics_secondary", player="Bob"))
    v = view(engine)
    assert v["players"]["Bob"]["command_tokens"]["strategy"] == 0
    assert v["players"]["Bob"]["hand"]["cards"] == FILLER[2:4]


def test_politics_secondary_needs_a_strategy_token_and_not_the_card() -> None:
    engine = setup(politics_table())
    accepted(act(engine, type="politics_primary", player="Alice", speaker="Cho"))
    reject_case(engine, "ti4:2.2", type="politics_secondary", player="Cho")
    reject_case(engine, "ti4:2.2", type="politics_secondary", player="Alice")


def test_politics_secondary_follows_the_primary_in_its_strategic_action() -> None:
    """ti4:66.3: "After the active player resolves the primary ability ..., each other
    player ... may spend one command token": not before it, nor after that turn."""
    engine = setup(politics_table())
    reject_case(engine, "ti4:2.2", type="politics_secondary", player="Bob")
    accepted(act(engine, type="politics_primary", player="Alice", speaker="Cho"))
    accepted(act(engine, type="end_turn", player="Alice"))
    reject_case(engine, "ti4:2.2", type="politics_secondary", player="Bob")


# -- playing cards: timing ----------------------------------------------------------------------


def combat_table(**extra: Any) -> JSON:
    state = table(
        player(
            "Alice",
            hand=[
                "Lucky Shot",
                "Lucky Shot",
                "Morale Boost",
                "Morale Boost",
                "Direct Hit",
                "Direct Hit",
                "Sabotage",
            ],
        ),
        player("Bob", hand=["Sabotage", "Sabotage", "Morale Boost"]),
        player("Cho", hand=["Sabotage"]),
        active_player="Alice",
        units=[
            {"id": "a1", "owner": "Alice", "type": "destroyer"},
            {"id": "b1", "owner": "Bob", "type": "destroyer"},
            {"id": "b2", "owner": "Bob", "type": "cruiser"},
            {"id": "b3", "owner": "Bob", "type": "carrier"},
            {"id": "b4", "owner": "Bob", "type": "pds"},
        ],
        draw=FILLER,
    )
    state.update(extra)
    return state


def test_a_component_action_card_goes_on_the_stack_then_resolves_and_is_discarded() -> None:
    engine = setup(combat_table())
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b1"}))
    v = view(engine)
    assert v["being_played"] == [{"player": "Alice", "card": "Lucky Shot"}]
    assert Counter(v["players"]["Alice"]["hand"]["cards"])["Lucky Shot"] == 1
    assert "b1" in [u["id"] for u in v["units"]]
    accepted(act(engine, type="resolve"))
    v = view(engine)
    assert v["being_played"] == []
    assert "b1" not in [u["id"] for u in v["units"]]
    assert v["decks"]["action"]["discard"] == ["Lucky Shot"]


def test_a_card_must_be_in_hand() -> None:
    engine = setup(combat_table())
    reject_case(
        engine, "ti4:2.7", type="play", player="Bob", card="Lucky Shot", targets={"unit": "a1"}
    )


@pytest.mark.parametrize(
    ("extra", "who"),
    [({"active_player": "Bob"}, "Alice"), ({"phase": "agenda"}, "Alice")],
)
def test_a_component_action_needs_the_players_own_action_phase_turn(extra: JSON, who: str) -> None:
    engine = setup(combat_table(**extra))
    reject_case(
        engine, "ti4:2.6.1", type="play", player=who, card="Lucky Shot", targets={"unit": "b1"}
    )


def test_only_one_component_action_per_turn_and_end_turn_passes_on() -> None:
    engine = setup(combat_table(initiative=["Alice", "Cho", "Bob"]))
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b1"}))
    accepted(act(engine, type="resolve"))
    reject_case(
        engine, "ti4:2.6.1", type="play", player="Alice", card="Lucky Shot", targets={"unit": "b2"}
    )
    accepted(act(engine, type="end_turn", player="Alice"))
    assert view(engine)["active_player"] == "Cho"
    accepted(act(engine, type="end_turn", player="Cho"))
    assert view(engine)["active_player"] == "Bob"
    accepted(act(engine, type="end_turn", player="Bob"))
    assert view(engine)["active_player"] == "Alice"
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b2"}))


def test_only_the_active_player_ends_the_turn() -> None:
    engine = setup(combat_table())
    reject_case(engine, None, type="end_turn", player="Bob")


def test_a_window_card_needs_its_window_and_phase() -> None:
    engine = setup(combat_table())
    reject_case(engine, "ti4:2.6", type="play", player="Alice", card="Morale Boost")
    accepted(act(engine, type="window", window="At the start of a combat round"))
    assert view(engine)["window"] == "At the start of a combat round"
    accepted(act(engine, type="play", player="Alice", card="Morale Boost"))
    engine = setup(combat_table(phase="agenda", window="At the start of a combat round"))
    reject_case(engine, "ti4:2.6", type="play", player="Alice", card="Morale Boost")


def test_a_window_card_can_be_played_by_a_player_who_is_not_active() -> None:
    engine = setup(combat_table(window="At the start of a combat round"))
    accepted(act(engine, type="play", player="Bob", card="Morale Boost"))


# -- Sabotage, cancelling, the being-played stack ------------------------------------------------


def test_sabotage_cancels_a_card_which_has_no_effect_and_is_discarded() -> None:
    engine = setup(combat_table())
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b1"}))
    accepted(
        act(engine, type="play", player="Bob", card="Sabotage", targets={"card": "Lucky Shot"})
    )
    assert view(engine)["being_played"] == [
        {"player": "Alice", "card": "Lucky Shot"},
        {"player": "Bob", "card": "Sabotage"},
    ]
    accepted(act(engine, type="resolve"))
    v = view(engine)
    assert "b1" in [u["id"] for u in v["units"]]
    assert v["decks"]["action"]["discard"] == ["Lucky Shot", "Sabotage"]
    assert v["being_played"] == []
    assert Counter(v["players"]["Alice"]["hand"]["cards"])["Lucky Shot"] == 1


def test_a_cancelled_component_action_leaves_the_action_for_a_second_copy() -> None:
    engine = setup(combat_table())
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b1"}))
    accepted(act(engine, type="play", player="Bob", card="Sabotage"))
    accepted(act(engine, type="resolve"))
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b1"}))
    accepted(act(engine, type="resolve"))
    assert "b1" not in [u["id"] for u in view(engine)["units"]]


def test_a_cancelled_window_card_does_not_count_for_the_same_name_rule() -> None:
    engine = setup(combat_table(window="At the start of a combat round"))
    accepted(act(engine, type="play", player="Alice", card="Morale Boost"))
    accepted(act(engine, type="play", player="Bob", card="Sabotage"))
    accepted(act(engine, type="resolve"))
    accepted(act(engine, type="play", player="Alice", card="Morale Boost"))


@pytest.mark.parametrize(
    ("player_", "targets"),
    [
        ("Alice", {}),  # own card
        ("Bob", {"card": "Morale Boost"}),  # not being played
    ],
)
def test_sabotage_needs_another_players_card_being_played(player_: str, targets: JSON) -> None:
    engine = setup(combat_table())
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b1"}))
    reject_case(engine, "ti4:2.6", type="play", player=player_, card="Sabotage", targets=targets)


def test_sabotage_needs_a_card_being_played() -> None:
    engine = setup(combat_table())
    reject_case(engine, "ti4:2.6", type="play", player="Bob", card="Sabotage")


def test_sabotage_cannot_answer_a_sabotage() -> None:
    engine = setup(combat_table())
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b1"}))
    accepted(act(engine, type="play", player="Bob", card="Sabotage"))
    reject_case(
        engine,
        "ti4:2.6",
        type="play",
        player="Alice",
        card="Sabotage",
        targets={"card": "Sabotage"},
    )


def test_two_sabotages_cannot_cancel_the_same_card() -> None:
    engine = setup(combat_table())
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b1"}))
    accepted(act(engine, type="play", player="Bob", card="Sabotage"))
    reject_case(
        engine,
        "ti4:2.6.2",
        type="play",
        player="Cho",
        card="Sabotage",
        targets={"card": "Lucky Shot"},
    )


@pytest.mark.parametrize(
    "action",
    [
        {"type": "draw", "player": "Cho", "deck": "action", "count": 1},
        {"type": "window", "window": "At the start of a combat round"},
        {"type": "end_turn", "player": "Alice"},
        {"type": "reveal", "player": "Bob", "cards": ["Sabotage"]},
        {"type": "play", "player": "Alice", "card": "Direct Hit", "targets": {"unit": "b2"}},
    ],
)
def test_while_a_card_is_being_played_only_responses_and_resolve_are_allowed(
    action: JSON,
) -> None:
    engine = setup(combat_table())
    accepted(act(engine, type="play", player="Alice", card="Lucky Shot", targets={"unit": "b1"}))
    reject_case(engine, "ti4:2.7", **action)


def test_resolve_with_nothing_being_played_is_accepted_and_changes_nothing() -> None:
    """docs/protocol.md, act: every player may always pass."""
    engine = setup(combat_table())
    before = view(engine)
    accepted(act(engine, type="resolve"))
    assert view(engine) == before


# -- the same-name rule -------------------------------------------------------------------------


def test_two_same_name_cards_for_the_same_game_effect_in_one_window() -> None:
    engine = setup(combat_table(window="At the start of a combat round"))
    accepted(act(engine, type="play", player="Alice", card="Morale Boost"))
    accepted(act(engine, type="resolve"))
    reject_case(engine, "ti4:2.6.2", type="play", player="Alice", card="Morale Boost")
    accepted(act(engine, type="window", window="At the start of a combat round"))
    accepted(act(engine, type="play", player="Alice", card="Morale Boost"))


def test_same_name_cards_on_different_units_in_one_window_are_fine() -> None:
    window = (
        "After another player's ship uses SUSTAIN DAMAGE to cancel a hit produced by your "
        "units or abilities"
    )
    engine = setup(combat_table(window=window))
    accepted(act(engine, type="play", player="Alice", card="Direct Hit", targets={"unit": "b1"}))
    accepted(act(engine, type="resolve"))
    accepted(act(engine, type="play", player="Alice", card="Direct Hit", targets={"unit": "b2"}))
    accepted(act(engine, type="resolve"))
    assert [u["id"] for u in view(engine)["units"]] == ["a1", "b3", "b4"]


# -- card models: targets and effects ----------------------------------------------------------


DIRECT_HIT_WINDOW = (
    "After another player's ship uses SUSTAIN DAMAGE to cancel a hit produced by your units or "
    "abilities"
)


def test_lucky_shot_needs_a_dreadnought_cruiser_or_destroyer() -> None:
    engine = setup(combat_table())
    reject_case(
        engine, "ti4:2.7", type="play", player="Alice", card="Lucky Shot", targets={"unit": "b3"}
    )
    reject_case(engine, "ti4:2.7", type="play", player="Alice", card="Lucky Shot")


def test_direct_hit_destroys_a_ship_but_not_a_structure() -> None:
    engine = setup(combat_table(window=DIRECT_HIT_WINDOW))
    reject_case(
        engine, "ti4:2.7", type="play", player="Alice", card="Direct Hit", targets={"unit": "b4"}
    )
    accepted(act(engine, type="play", player="Alice", card="Direct Hit", targets={"unit": "b3"}))
    accepted(act(engine, type="resolve"))
    assert "b3" not in [u["id"] for u in view(engine)["units"]]


def test_offensive_cards_cannot_target_their_own_player() -> None:
    engine = setup(combat_table())
    reject_case(
        engine, "ti4:note-7", type="play", player="Alice", card="Lucky Shot", targets={"unit": "a1"}
    )
    engine = setup(
        table(player("Alice", hand=["Insubordination"]), player("Bob"), active_player="Alice")
    )
    reject_case(
        engine,
        "ti4:note-7",
        type="play",
        player="Alice",
        card="Insubordination",
        targets={"player": "Alice"},
    )


def test_repeal_law_discards_a_law_from_play() -> None:
    engine = setup(
        table(
            player("Alice", hand=["Repeal Law"]),
            player("Bob"),
            laws=["Minister of Commerce", "Executive Sanctions"],
            active_player="Alice",
        )
    )
    accepted(
        act(
            engine,
            type="play",
            player="Alice",
            card="Repeal Law",
            targets={"law": "Executive Sanctions"},
        )
    )
    accepted(act(engine, type="resolve"))
    assert view(engine)["laws"] == ["Minister of Commerce"]


def test_a_law_the_engine_does_not_model_is_unsupported_at_setup() -> None:
    engine = ReferenceEngine()
    reply = engine.handle({"op": "setup", "game": "ti4", "seed": 1, "state": table(
        player("Alice"), player("Bob"), laws=["Fleet Regulations"])})
    assert reply["reply"] == "unsupported"
    assert reply["capability"] == "ti4/law/Fleet Regulations"


def test_executive_sanctions_limits_every_hand_to_three_until_it_is_repealed() -> None:
    engine = setup(table(player("Alice", hand=["Repeal Law", "Spy", "Veto"]), player("Bob"),
                         laws=["Executive Sanctions"], active_player="Alice"))
    assert view(engine)["players"]["Alice"]["hand_limit"] == 3
    accepted(act(engine, type="play", player="Alice", card="Repeal Law",
                 targets={"law": "Executive Sanctions"}))
    accepted(act(engine, type="resolve"))
    assert view(engine)["players"]["Alice"]["hand_limit"] == 7


def test_repeal_law_cannot_be_played_without_laws_in_play() -> None:
    engine = setup(
        table(player("Alice", hand=["Repeal Law"]), player("Bob"), active_player="Alice")
    )
    reject_case(
        engine,
        "ti4:note-9",
        type="play",
        player="Alice",
        card="Repeal Law",
        targets={"law": "Minister of Commerce"},
    )
    reject_case(engine, "ti4:note-9", type="play", player="Alice", card="Repeal Law")


def test_repeal_law_cannot_target_a_law_not_in_play() -> None:
    engine = setup(
        table(
            player("Alice", hand=["Repeal Law"]),
            player("Bob"),
            laws=["Executive Sanctions"],
            active_player="Alice",
        )
    )
    reject_case(
        engine,
        "ti4:note-9",
        type="play",
        player="Alice",
        card="Repeal Law",
        targets={"law": "Minister of Commerce"},
    )


def test_lucky_shot_cannot_be_played_without_an_eligible_unit() -> None:
    engine = setup(
        combat_table(
            units=[
                {"id": "a1", "owner": "Alice", "type": "destroyer"},
                {"id": "b3", "owner": "Bob", "type": "carrier"},
            ]
        )
    )
    reject_case(
        engine, "ti4:note-9", type="play", player="Alice", card="Lucky Shot", targets={"unit": "b3"}
    )


def test_direct_hit_needs_an_eligible_ship() -> None:
    engine = setup(
        combat_table(window=DIRECT_HIT_WINDOW, units=[{"id": "b4", "owner": "Bob", "type": "pds"}])
    )
    reject_case(
        engine, "ti4:note-9", type="play", player="Alice", card="Direct Hit", targets={"unit": "b4"}
    )


def insubordination_table(bob: int, cho: int) -> JSON:
    return table(
        player("Alice", hand=["Insubordination"], command_tokens={"tactic": 3}),
        player("Bob", command_tokens={"tactic": bob}),
        player("Cho", command_tokens={"tactic": cho}),
        active_player="Alice",
    )


def test_insubordination_removes_a_tactic_token() -> None:
    engine = setup(insubordination_table(2, 0))
    accepted(
        act(engine, type="play", player="Alice", card="Insubordination", targets={"player": "Bob"})
    )
    accepted(act(engine, type="resolve"))
    assert view(engine)["players"]["Bob"]["command_tokens"]["tactic"] == 1


def test_insubordination_needs_someone_with_a_tactic_token() -> None:
    engine = setup(insubordination_table(0, 0))
    reject_case(
        engine,
        "ti4:note-9",
        type="play",
        player="Alice",
        card="Insubordination",
        targets={"player": "Bob"},
    )


def test_a_component_action_that_cannot_completely_resolve_is_refused() -> None:
    engine = setup(insubordination_table(0, 2))
    reject_case(
        engine,
        "ti4:2.6.1",
        type="play",
        player="Alice",
        card="Insubordination",
        targets={"player": "Bob"},
    )


BRIBERY_WINDOW = "After the speaker votes on an agenda"


def test_bribery_spends_trade_goods_and_zero_is_allowed() -> None:
    engine = setup(
        table(
            player("Alice", hand=["Bribery"], trade_goods=3),
            player("Bob"),
            phase="agenda",
            window=BRIBERY_WINDOW,
        )
    )
    reject_case(
        engine, "ti4:2.7", type="play", player="Alice", card="Bribery", targets={"trade_goods": 4}
    )
    accepted(act(engine, type="play", player="Alice", card="Bribery", targets={"trade_goods": 2}))
    accepted(act(engine, type="resolve"))
    assert view(engine)["players"]["Alice"]["trade_goods"] == 1
    engine = setup(
        table(
            player("Alice", hand=["Bribery"], trade_goods=0),
            player("Bob"),
            phase="agenda",
            window=BRIBERY_WINDOW,
        )
    )
    accepted(act(engine, type="play", player="Alice", card="Bribery", targets={"trade_goods": 0}))
    accepted(act(engine, type="resolve"))
    assert view(engine)["decks"]["action"]["discard"] == ["Bribery"]


def test_morale_boost_can_be_played_with_no_units() -> None:
    engine = setup(
        table(
            player("Alice", hand=["Morale Boost"]),
            player("Bob"),
            window="At the start of a combat round",
        )
    )
    accepted(act(engine, type="play", player="Alice", card="Morale Boost"))
    accepted(act(engine, type="resolve"))
    assert view(engine)["decks"]["action"]["discard"] == ["Morale Boost"]


def test_a_card_whose_effect_is_not_modelled_is_unsupported_never_accepted() -> None:
    """Accepting a play it cannot carry out would make the engine pass scenarios about that
    card; the rules it does model still reject what they forbid."""
    engine = setup(table(player("Alice", hand=["Spy"]), player("Bob"), active_player="Alice"))
    before = view(engine)
    reply = act(engine, type="play", player="Alice", card="Spy")
    assert reply == {"reply": "unsupported", "capability": "ti4/card/Spy",
                     "reason": "this engine does not model the effect of 'Spy'"}
    assert view(engine) == before
    assert "ti4/card/Spy" not in engine.capabilities()
    engine = setup(table(player("Alice", hand=["Spy"]), player("Bob"), active_player="Bob"))
    assert act(engine, type="play", player="Alice", card="Spy")["reply"] == "rejected"


# -- hidden information and revealing ------------------------------------------------------------


def test_a_hand_is_hidden_but_its_size_is_public() -> None:
    engine = setup(table(player("Alice", hand=["Spy", "Veto"]), player("Bob"), draw=["Plague"]))
    assert view(engine, "Alice")["players"]["Alice"]["hand"] == {
        "count": 2,
        "cards": ["Spy", "Veto"],
    }
    assert view(engine, "*")["players"]["Alice"]["hand"]["cards"] == ["Spy", "Veto"]
    for viewer in ("Bob", None):
        assert view(engine, viewer)["players"]["Alice"]["hand"] == {"count": 2, "cards": []}


def test_only_the_referee_sees_the_draw_pile_and_everyone_the_discard() -> None:
    engine = setup(table(draw=["Spy", "Veto"], discard=["Plague"]))
    assert view(engine, "*")["decks"]["action"]["draw"] == {"count": 2, "cards": ["Spy", "Veto"]}
    for viewer in ("Alice", None):
        assert view(engine, viewer)["decks"]["action"] == {
            "draw": {"count": 2},
            "discard": ["Plague"],
        }


def test_revealed_cards_are_visible_to_everyone_until_they_leave_the_hand() -> None:
    engine = setup(
        table(player("Alice", faction="Hacan", hand=["Spy", "Veto", "Veto"]), player("Bob"),
              active_player="Alice")
    )
    accepted(act(engine, type="reveal", player="Alice", cards=["Spy", "Veto"]))
    for viewer in ("Bob", None):
        assert sorted(view(engine, viewer)["players"]["Alice"]["hand"]["cards"]) == ["Spy", "Veto"]
    accepted(act(engine, type="trade", player="Alice", to="Bob", cards=["Spy"]))
    assert view(engine, "Bob")["players"]["Alice"]["hand"]["cards"] == ["Veto"]


def test_a_player_can_reveal_only_cards_they_hold() -> None:
    engine = setup(table(player("Alice", hand=["Spy"]), player("Bob")))
    reject_case(engine, "ti4:note-3", type="reveal", player="Alice", cards=["Spy", "Spy"])


# -- transactions (Hacan) ------------------------------------------------------------------------


def test_the_hacan_player_can_give_action_cards() -> None:
    engine = setup(table(player("Hal", faction="Hacan", hand=["Spy", "Veto"]), player("Bob")))
    accepted(act(engine, type="trade", player="Hal", to="Bob", cards=["Spy"]))
    assert hand(engine, "Hal") == ["Veto"]
    assert hand(engine, "Bob") == ["Spy"]
    assert view(engine, None)["players"]["Bob"]["hand"]["count"] == 1


def test_a_player_can_give_cards_to_the_hacan_player() -> None:
    engine = setup(table(player("Hal", faction="Hacan"), player("Bob", hand=["Spy"])))
    accepted(act(engine, type="trade", player="Bob", to="Hal", cards=["Spy"]))
    assert hand(engine, "Hal") == ["Spy"]


def test_only_the_hacan_player_trades_action_cards_and_only_in_the_action_phase() -> None:
    engine = setup(table(player("Alice", hand=["Spy"]), player("Bob")))
    reject_case(engine, None, type="trade", player="Alice", to="Bob", cards=["Spy"])
    engine = setup(
        table(player("Hal", faction="Hacan", hand=["Spy"]), player("Bob"), phase="agenda")
    )
    reject_case(engine, None, type="trade", player="Hal", to="Bob", cards=["Spy"])
    engine = setup(table(player("Hal", faction="Hacan", hand=["Spy"]), player("Bob")))
    reject_case(engine, None, type="trade", player="Hal", to="Bob", cards=["Veto"])


def test_a_trade_that_puts_the_receiver_over_the_limit_asks_for_a_discard() -> None:
    engine = setup(
        table(player("Hal", faction="Hacan", hand=["Sabotage"]), player("Bob", hand=FILLER[:7]))
    )
    accepted(act(engine, type="trade", player="Hal", to="Bob", cards=["Sabotage"]))
    assert view(engine)["pending"] == [{"player": "Bob", "decision": "keep", "count": 7}]


# -- rejections change nothing -----------------------------------------------------------------


def test_every_kind_of_rejection_leaves_every_view_unchanged() -> None:
    engine = setup(combat_table())
    views = {v: view(engine, v) for v in ("*", "Alice", "Bob", None)}
    snapshot = copy.deepcopy(views)
    for action in (
        {"type": "play", "player": "Alice", "card": "Lucky Shot", "targets": {"unit": "a1"}},
        {"type": "play", "player": "Alice", "card": "Morale Boost"},
        {"type": "play", "player": "Bob", "card": "Sabotage"},
        {"type": "status_draw"},
        {"type": "politics_primary", "player": "Alice", "speaker": "Bob"},
        {"type": "trade", "player": "Alice", "to": "Bob", "cards": ["Sabotage"]},
    ):
        assert act(engine, **action)["reply"] == "rejected", action
        assert {v: view(engine, v) for v in views} == snapshot, action
