"""Twilight Imperium 4 words: factions, technologies, tokens, units, laws, Politics,
the status phase, transactions, and what 'targeting ...' means in TI4.

Counters that a Given step sets and a Then step checks share one phrase
(``Alice has 2 command tokens in her strategy pool``), so a committee
learns one sentence per fact, not two.
"""

from __future__ import annotations

import re
from typing import Any

from pytest_bdd import given, parsers, then, when

from oracle.protocol import REFEREE
from oracle.scenario.outcomes import EngineFault, RuleViolation, ScenarioError
from oracle.scenario.requirements import requires
from oracle.scenario.world import ScenarioWorld
from oracle.steps.common import named_cards
from oracle.suite.dsl import (
    Pile,
    describe_cards,
    parse_cards,
    parse_count,
    parse_names,
    parse_quoted,
)

NAME = r"[A-Z][\w'-]*"
UNIT_TYPES = ("dreadnought", "carrier", "cruiser", "destroyer", "fighter", "flagship",
              "war sun", "infantry", "mech", "pds", "space dock")
UNIT = "|".join(UNIT_TYPES)
RULED_FACTIONS = {"Yssaril", "Hacan"}
RULED_TECHNOLOGIES = {"Neural Motivator"}

# One phrase per countable fact: Given sets it, Then checks it.
COUNTER = (
    rf"(?P<player>{NAME}) has (?P<count>\w+) "
    r"(?:command tokens? in (?:her|his|their) (?P<pool>strategy|tactic|fleet) pool"
    rf"|(?P<tg>trade goods?)|(?P<unit>{UNIT})s?)"
)


def parse_target(world: ScenarioWorld, text: str) -> dict[str, Any]:
    """What 'targeting ...' means in a TI4 play step (see docs/protocol.md)."""
    text = text.strip()
    if m := re.fullmatch(rf"({NAME})'s ({UNIT})(?: (\d+))?", text):
        return {"unit": text}
    if m := re.fullmatch(r'the law "([^"]+)"', text):
        return {"law": m.group(1)}
    if m := re.fullmatch(r"(\w+) trade goods?", text):
        return {"trade_goods": parse_count(m.group(1))}
    if m := re.fullmatch(r'"([^"]+)"', text):
        return {"card": m.group(1)}
    if re.fullmatch(NAME, text):
        return {"player": text}
    raise ScenarioError(
        f"cannot read the target {text!r}; write a player (Bob), a unit (Bob's destroyer), "
        'a law (the law "Minister of Commerce"), a number of trade goods (2 trade goods) '
        'or a card being played ("Lucky Shot")'
    )


# -- Given ---------------------------------------------------------------------------


@given(parsers.re(rf"(?P<player>{NAME}) is the (?P<faction>[\w' -]+?) player"))
@requires(lambda world, faction, **_: [f"ti4/faction/{faction}"] if faction in RULED_FACTIONS
          else [])
def _faction(oracle_world: ScenarioWorld, player: str, faction: str) -> None:
    if faction in RULED_FACTIONS:
        oracle_world.require(f"ti4/faction/{faction}")
    oracle_world.player(player)["faction"] = faction


@given(parsers.re(rf'(?P<player>{NAME}) has researched "(?P<tech>[^"]+)"'))
@requires(lambda world, tech, **_: [f"ti4/technology/{tech}"] if tech in RULED_TECHNOLOGIES
          else [])
def _technology(oracle_world: ScenarioWorld, player: str, tech: str) -> None:
    if tech in RULED_TECHNOLOGIES:
        oracle_world.require(f"ti4/technology/{tech}")
    oracle_world.player(player).setdefault("technologies", []).append(tech)


@given(parsers.re(COUNTER))
@requires(lambda world, tg=None, unit=None, **_: ["ti4/trade-goods"] if tg
          else ["ti4/units"] if unit else [])
def _set_counter(oracle_world: ScenarioWorld, player: str, count: str, pool: str | None,
                 tg: str | None, unit: str | None) -> None:
    n = parse_count(count)
    entry = oracle_world.player(player)
    if pool:
        entry.setdefault("command_tokens", {"tactic": 3, "fleet": 3, "strategy": 2})[pool] = n
    elif tg:
        oracle_world.require("ti4/trade-goods")
        entry["trade_goods"] = n
    else:
        oracle_world.require("ti4/units")
        units = oracle_world.given().setdefault("units", [])
        mine = [u for u in units if u["owner"] == player and u["type"] == unit]
        for i in range(len(mine) + 1, len(mine) + n + 1):
            uid = f"{player}'s {unit}" + (f" {i}" if i > 1 else "")
            units.append({"id": uid, "owner": player, "type": unit})


@given(parsers.re(rf"(?P<player>{NAME}) is the speaker"))
def _speaker(oracle_world: ScenarioWorld, player: str) -> None:
    oracle_world.player(player)
    oracle_world.given()["speaker"] = player


@given(parsers.re(r"the initiative order is (?P<names>.+)"))
def _initiative(oracle_world: ScenarioWorld, names: str) -> None:
    order = parse_names(names)
    for name in order:
        oracle_world.player(name)
    oracle_world.given()["initiative"] = order


@given(parsers.re(rf"(?P<player>{NAME}) has the (?P<card>\w+) strategy card"))
def _strategy_card(oracle_world: ScenarioWorld, player: str, card: str) -> None:
    oracle_world.player(player).setdefault("strategy_cards", []).append(card)


@given(parsers.re(r'the laws? (?P<laws>".+") (?:is|are) in play'))
@requires(lambda world, **_: ["ti4/laws"])
def _laws(oracle_world: ScenarioWorld, laws: str) -> None:
    oracle_world.require("ti4/laws")
    oracle_world.given().setdefault("laws", []).extend(parse_quoted(laws))


@given(parsers.re(
    rf"(?P<player>{NAME})'s hand limit is (?P<way>raised|lowered) by (?P<n>\w+) by a game effect"
))
@requires(lambda world, **_: ["ti4/hand-limit"])
def _hand_limit(oracle_world: ScenarioWorld, player: str, way: str, n: str) -> None:
    oracle_world.require("ti4/hand-limit")
    delta = parse_count(n) * (1 if way == "raised" else -1)
    oracle_world.player(player)["hand_limit_modifier"] = delta


# -- When ----------------------------------------------------------------------------


@when(parsers.re(
    rf"(?P<player>{NAME}) resolves the (?P<which>primary|secondary) ability of Politics"
    rf"(?:, choosing (?P<speaker>{NAME}) as speaker)?"
))
@requires(lambda world, **_: ["ti4/politics"])
def _politics(oracle_world: ScenarioWorld, player: str, which: str, speaker: str | None) -> None:
    oracle_world.require("ti4/politics")
    action: dict[str, Any] = {"type": f"politics_{which}", "player": player}
    if which == "primary":
        if not speaker:
            raise ScenarioError("the primary ability of Politics chooses a new speaker: write "
                                "'..., choosing Bob as speaker'")
        action["speaker"] = speaker
    oracle_world.act(f"{player} resolves the {which} ability of Politics", action)


@when('the status phase step "Draw Action Cards" is resolved')
@requires(lambda world, **_: ["ti4/status-phase"])
def _status_draw(oracle_world: ScenarioWorld) -> None:
    oracle_world.require("ti4/status-phase")
    oracle_world.act("the status phase draws action cards", {"type": "status_draw"})


@when(parsers.re(
    rf"(?P<giver>{NAME}) gives (?P<cards>.+) to (?P<receiver>{NAME}) in a transaction"
))
@requires(lambda world, cards, **_: ["ti4/transactions", *named_cards(
    world, Pile(tuple(parse_cards(cards))))])
def _trade(oracle_world: ScenarioWorld, giver: str, cards: str, receiver: str) -> None:
    oracle_world.require("ti4/transactions")
    names = oracle_world.names(parse_cards(cards))
    oracle_world.act(f"{giver} gives {describe_cards(names)} to {receiver}",
                     {"type": "trade", "player": giver, "to": receiver, "cards": names})


# -- Then ----------------------------------------------------------------------------


@then(parsers.re(COUNTER))
def _check_counter(oracle_world: ScenarioWorld, player: str, count: str, pool: str | None,
                   tg: str | None, unit: str | None) -> None:
    want = parse_count(count)
    view = oracle_world.view(REFEREE)
    try:
        if pool:
            what, got = f"{player}'s {pool} pool", view["players"][player]["command_tokens"][pool]
        elif tg:
            what, got = f"{player}'s trade goods", view["players"][player]["trade_goods"]
        else:
            what = f"{player}'s {unit}s"
            got = sum(1 for u in view.get("units", []) if u["owner"] == player
                      and u["type"] == unit)
    except (KeyError, TypeError) as exc:
        raise EngineFault(f"the referee view lacks {exc}; see docs/protocol.md (TI4)") from exc
    if got != want:
        raise RuleViolation(f"{what}: {got}; expected {want}")


@then(parsers.re(rf"(?P<player>{NAME}) is the speaker"))
def _is_speaker(oracle_world: ScenarioWorld, player: str) -> None:
    speaker = oracle_world.view(REFEREE).get("speaker")
    if speaker != player:
        raise RuleViolation(f"the speaker is {speaker!r}; expected {player}")


@then(parsers.re(r'the law "(?P<law>[^"]+)" is (?P<neg>not )?in play'))
def _law_in_play(oracle_world: ScenarioWorld, law: str, neg: str | None) -> None:
    laws = oracle_world.view(REFEREE).get("laws", [])
    if (law in laws) == bool(neg):
        raise RuleViolation(f"laws in play: {laws or 'none'}; expected {law!r} "
                            f"{'not ' if neg else ''}to be in play")
