"""Twilight Imperium 4 words: factions, technologies, tokens, units, laws, Politics,
the status phase, transactions, and what 'targeting ...' means in TI4.

Counters that a Given step sets and a Then step checks share one phrase
(``Alice has 2 command tokens in her strategy pool``), so a committee
learns one sentence per fact, not two.
"""

from __future__ import annotations

import re
from typing import Any

from oracle.protocol import REFEREE
from oracle.scenario.outcomes import EngineFault, RuleViolation, ScenarioError
from oracle.scenario.requirements import requires
from oracle.scenario.world import ScenarioWorld
from oracle.suite.arguments import Kind
from oracle.suite.dsl import (
    CardRef,
    describe_cards,
    parse_cards,
    parse_count,
    parse_names,
    parse_quoted,
)
from oracle.suite.stepdefs import given, parsers, then, when

NAME = r"[A-Z][\w'-]*"
DECK = "action"
#: The status phase step that deals action cards (ti4:81.3): sent as ``status_draw``.
DRAW_STEP = "Draw Action Cards"
#: The rolls a timing event can be (the card facts' windows spell them so).
ROLL = "space combat|ground combat|SPACE CANNON|ANTI-FIGHTER BARRAGE|BOMBARDMENT"
#: The window of a component action ("Action" cards), as the card facts spell it.
ACTION_WINDOW = "Action"
PHASES = ("action", "agenda", "status", "strategy")
#: A planet's traits (ti4/planet-traits).
TRAITS = ("cultural", "industrial", "hazardous")
TRAIT = "|".join(TRAITS)
UNIT_TYPES = ("dreadnought", "carrier", "cruiser", "destroyer", "fighter", "flagship",
              "war sun", "infantry", "mech", "pds", "space dock")
UNIT = "|".join(UNIT_TYPES)
#: A unit on the board, as the counter step names it: Bob's dreadnought, Bob's dreadnought 2.
UNIT_REF = rf"{NAME}'s (?:{UNIT})(?: \d+)?"

# One phrase per countable fact: Given sets it, Then checks it.
COUNTER = (
    rf"(?P<player>{NAME}) has (?P<count>\w+) "
    r"(?:command tokens? in (?:her|his|their) (?P<pool>strategy|tactic|fleet) pool"
    rf"|(?P<tg>trade goods?)|(?P<so>secret objectives?)|(?P<pn>promissory notes?)"
    rf"|(?P<unit>{UNIT})s?)"
)


TARGET_GRAMMAR = ('a player (Bob), a unit (Bob\'s destroyer; Bob\'s dreadnought 2 is his second), '
                  'a law (the law "Minister of Commerce"), a planet (the planet "Quann"), a '
                  'number of trade goods (2 trade goods), a card being played or discarded '
                  '("Lucky Shot", card A); after \'spending\', the planets that pay a cost '
                  '(the planets "Quann" and "Lodor")')
PLANETS = r'the planets? (?P<names>"[^"]+"(?:(?:, | and )"[^"]+")*)'


def target_references(game: Any, text: str) -> list[tuple[str, str]]:
    """What a written target names (for the suite checks): players, unit types, laws, cards."""
    text = text.strip()
    if m := re.fullmatch(rf"({NAME})'s (.+?)(?: (\d+))?", text):
        return [("player", m.group(1)), ("unit type", m.group(2))]
    if m := re.fullmatch(r'the law "([^"]+)"', text):
        return [("law", m.group(1))]
    if m := re.fullmatch(r'"([^"]+)"', text):
        return [("card", m.group(1))]
    if m := re.fullmatch(r"card ([A-Z])", text):
        return [("card variable", m.group(1))]
    if re.fullmatch(r"spending " + PLANETS, text) or re.fullmatch(PLANETS, text):
        return []
    parse_target(None, text)  # type: ignore[arg-type]  # raises unless a player or goods
    return [("player", text)] if re.fullmatch(NAME, text) else []


#: The card classes of ``features/ti4/plays.yaml``, as a Russian scenario names them.
CLASSES_RU = {
    "карта повестки": "agenda card",
    "карта окна фазы действий": "window card of the action phase",
    "карта окна фазы действий с видимым эффектом":
        "window card of the action phase that shows its effect",
    'карта "Action", которая может не примениться полностью':
        '"Action" card that may not resolve completely',
    "карта окна, копии которой могут снова воздействовать на то же самое":
        "window card with copies that can affect the same thing again",
    "карта окна, копии которой нацелены на игрока": "window card with copies aimed at a player",
    'атакующая карта "Action"': 'offensive "Action" card',
    "атакующая карта окна": "offensive window card",
    'карта, нацеленная на "any number" объектов': 'card aimed at "any number" of objects',
    'карта, нацеленная на "each" объект': 'card aimed at "each" object',
    "карта окна, нацеленная на конкретные объекты": "window card aimed at specific objects",
    "карта, нацеленная на конкретные объекты": "card aimed at specific objects",
}

#: The situations of ``features/ti4/plays.yaml``'s recipes ('Alice would play card A when
#: ...'), as a Russian scenario names them.
SITUATIONS_RU = {
    "её способность нельзя применить полностью": "its ability cannot be completely resolved",
    "она не затронула бы ни одного объекта": "it would affect zero objects",
    "нет ничего, на что она могла бы быть нацелена": "nothing it could target exists",
    "её цели не существует": "its target does not exist",
}

#: Russian phrasings of TI4's words (oracle.suite.phrasings): the action card deck and
#: discard pile, drawing action cards, factions, the status phase and Politics, transactions,
#: the hand limit, a card's timing window and phase, laws, and the classes and situations
#: above.
PHRASES = {"ru": [
    (r"колода действий: (?P<pile>.+)", "the action deck is {pile}"),
    (rf"сброс действий: (?P<pile>.+) с точки зрения (?P<viewer>{NAME}|зрителя)",
     "the action discard pile is {pile} as seen by {viewer}"),
    (r"сброс действий: (?P<pile>.+)", "the action discard pile is {pile}"),
    (rf"(?P<player>{NAME}) берёт (?P<count>\w+) карт\w* действи\w*",
     "{player} draws {count} action cards"),
    (rf"у (?P<player>{NAME}) (?:есть|осталось|остался) (?P<count>\w+) эсмин\w*",
     "{player} has {count} destroyers"),
    (rf'(?P<player>{NAME}) играет (?P<card>"[^"]+") против эсминца (?P<owner>{NAME})',
     "{player} plays {card} targeting {owner}'s destroyer"),
    (rf"(?P<player>{NAME}) играет за (?P<faction>.+)", "{player} is the {faction} player"),
    (rf"идёт окно карты (?P<ref>[A-Z]), ход (?P<player>{NAME})",
     "it is card {ref}'s timing window on {player}'s turn"),
    (r"порядок инициативы: (?P<names>.+)", "the initiative order is {names}"),
    (rf"(?P<player>{NAME}) — спикер", "{player} is the speaker"),
    (rf'(?P<player>{NAME}) изучил\w* "(?P<tech>[^"]+)"', '{player} has researched "{tech}"'),
    (rf"у (?P<player>{NAME}) в пуле стратегии (?P<count>\w+) жетон\w* приказов",
     "{player} has {count} command tokens in their strategy pool"),
    (rf"у (?P<player>{NAME}) карта стратегии (?P<card>\w+)",
     "{player} has the {card} strategy card"),
    (rf"(?P<player>{NAME}) выполняет основное свойство Politics, назначая спикером "
     rf"(?P<speaker>{NAME})",
     "{player} resolves the primary ability of Politics, choosing {speaker} as speaker"),
    (rf"(?P<player>{NAME}) выполняет основное свойство Politics, назначая спикером "
     rf"(?P<speaker>{NAME}), а (?P<followers>.+?) выполня\w+ его вторичное свойство",
     "{player} resolves the primary ability of Politics, choosing {speaker} as speaker, and "
     "{followers} resolve its secondary ability"),
    (rf"(?P<player>{NAME}) выполняет вторичное свойство Politics",
     "{player} resolves the secondary ability of Politics"),
    (r'выполнен шаг фазы статуса "(?P<step>[^"]+)"',
     'the status phase step "{step}" is resolved'),
    (r"игра переходит к фазе (?P<phase>\w+) следующего раунда",
     "the game goes on to the {phase} phase of the next round"),
    # Timing events: unit ids are written as the scenario names them (Bob's dreadnought 2).
    (rf"(?P<units>{NAME}'s .+?) использу\w+ SUSTAIN DAMAGE, чтобы отменить попадания "
     rf"(?P<against>{NAME})",
     "{units} uses SUSTAIN DAMAGE to cancel hits produced by {against}"),
    *((rf"(?P<player>{NAME}) делает бросок {ru} с (?P<hits>\w+) попадани\w+ против "
       rf"(?P<against>{NAME})",
       f"{{player}} makes a {en} roll that produces {{hits}} hits against {{against}}")
      for ru, en in (("космического боя", "space combat"), ("наземного боя", "ground combat"))),
    *((rf"начинается раунд (?P<round>\w+) {ru} боя между (?P<attacker>{NAME}) и "
       rf"(?P<defender>{NAME})",
       f"round {{round}} of a {en} combat between {{attacker}} and {{defender}} starts")
      for ru, en in (("космического", "space"), ("наземного", "ground"))),
    (rf"у броска (?P<player>{NAME}) осталось (?P<count>\w+) попадани\w+",
     "{player}'s roll has {count} hits left"),
    (rf'(?P<player>{NAME}) играет (?P<card>"[^"]+") против (?P<target>{NAME}\'s .+)',
     "{player} plays {card} targeting {target}"),
    # Planets and what a card spends.
    *((rf'(?P<player>{NAME}) контролирует {ru}планету "(?P<planet>[^"]+)" с '
       rf"(?P<resources>\w+) ресурс\w* и (?P<influence>\w+) влияни\w*",
       f'{{player}} controls the {en}planet "{{planet}}" with {{resources}} resources and '
       f"{{influence}} influence")
      for ru, en in (("", ""), ("истощённую ", "exhausted "), ("домашнюю ", "home "))),
    *((rf'планета "(?P<planet>[^"]+)" {ru}', f'the planet "{{planet}}" is {en}')
      for ru, en in (("истощена", "exhausted"), ("готова", "readied"))),
    (rf'(?P<player>{NAME}) играет (?P<card>"[^"]+") против планеты "(?P<planet>[^"]+)"',
     '{player} plays {card} targeting the planet "{planet}"'),
    (rf'(?P<player>{NAME}) играет (?P<card>"[^"]+") тратя планет\w (?P<planets>"[^"]+"'
     r'(?:(?:, | и )"[^"]+")*)',
     "{player} plays {card} spending the planets {planets}"),
    (rf'(?P<player>{NAME}) играет (?P<card>"[^"]+") тратя планет\w (?P<planets>"[^"]+"'
     rf'(?:(?:, | и )"[^"]+")*), а (?P<canceller>{NAME}) отменяет её картой '
     r'(?P<cancel>"[^"]+")',
     "{player} plays {card} spending the planets {planets} and {canceller} cancels it with "
     "{cancel}"),
    (rf"у (?P<player>{NAME}) (?P<count>\w+) секретн\w+ цел\w*",
     "{player} has {count} secret objectives"),
    (rf"у (?P<player>{NAME}) (?P<count>\w+) товар\w*", "{player} has {count} trade goods"),
    *((rf"у (?P<player>{NAME}) (?:есть|осталось|остался|осталась) (?P<count>\w+) {ru}\w*",
       f"{{player}} has {{count}} {en}s")
      for ru, en in (("дредноут", "dreadnought"), ("крейсер", "cruiser"))),
    (rf"(?P<giver>{NAME}) передаёт (?P<cards>.+) игроку (?P<receiver>{NAME}) в сделке",
     "{giver} gives {cards} to {receiver} in a transaction"),
    *((rf"карта (?P<ref>[A-Z]) — любая {re.escape(ru)}", f"card {{ref}} is any {en}")
      for ru, en in CLASSES_RU.items()),
    *((rf"(?P<player>{NAME}) сыграл\w* бы карту (?P<ref>[A-Z]), когда {re.escape(ru)}",
       f"{{player}} would play card {{ref}} when {en}") for ru, en in SITUATIONS_RU.items()),
    (r"идёт окно карты (?P<ref>[A-Z])", "it is card {ref}'s timing window"),
    (r"идёт окно карты (?P<ref>[A-Z]), но другая фаза",
     "it is card {ref}'s timing window but another phase"),
    (r"идёт фаза карты (?P<ref>[A-Z]), но другое окно",
     "it is card {ref}'s phase but another timing window"),
    (r"окно карты (?P<ref>[A-Z]) открывается снова", "the timing window of card {ref} opens again"),
    (r'закон (?P<law>"[^"]+") в игре', "the law {law} is in play"),
    (r'закон (?P<law>"[^"]+") не в игре', "the law {law} is not in play"),
    (rf'(?P<player>{NAME}) играет (?P<card>"[^"]+") против закона (?P<law>"[^"]+")',
     "{player} plays {card} targeting the law {law}"),
    (rf"предел руки (?P<player>{NAME}) повышен на (?P<n>\w+) эффектом игры",
     "{player}'s hand limit is raised by {n} by a game effect"),
    (rf"предел руки (?P<player>{NAME}) понижен на (?P<n>\w+) эффектом игры",
     "{player}'s hand limit is lowered by {n} by a game effect"),
]}


#: The kinds of these steps' arguments (oracle.suite.arguments), where the name does not say.
ARGUMENTS = {"faction": "faction", "tech": "technology", "laws": "laws", "law": "law",
             "followers": "players", "units": "units", "against": "player",
             "attacker": "player", "defender": "player", "hits": "count", "round": "count",
             "step": "status step", "so": "choice", "pn": "choice", "marks": "choice",
             "planet": "text", "resources": "count", "influence": "count", "state": "choice",
             "unit": "unit type", "tg": "choice", "pool": "choice", "speaker": "player",
             "giver": "player", "receiver": "player", "_strategy_card.card": "strategy card"}
KINDS = {"target": Kind("target", TARGET_GRAMMAR, target_references),
         "units": Kind("units", "units on the board, as a counter names them: Bob's dreadnought "
                       "and Bob's dreadnought 2", lambda game, text: [
                           ref for unit in re.split(r", | and ", text)
                           for ref in target_references(game, unit)])}


def parse_target(world: ScenarioWorld, text: str) -> dict[str, Any]:
    """What 'targeting ...' means in a TI4 play step (see docs/protocol.md)."""
    text = text.strip()
    if m := re.fullmatch(r"spending " + PLANETS, text):
        return {"spend": {"planets": parse_quoted(m.group("names"))}}
    if m := re.fullmatch(r'the planet "([^"]+)"', text):
        return {"planet": m.group(1)}
    if m := re.fullmatch(rf"({NAME})'s ({UNIT})(?: (\d+))?", text):
        return {"unit": text}
    if m := re.fullmatch(r'the law "([^"]+)"', text):
        return {"law": m.group(1)}
    if m := re.fullmatch(r"(\w+) trade goods?", text):
        return {"trade_goods": parse_count(m.group(1))}
    if m := re.fullmatch(r'"([^"]+)"', text):
        return {"card": m.group(1)}
    if m := re.fullmatch(r"card ([A-Z])", text):
        return {"card": world.names([CardRef(m.group(1))])[0]}
    if re.fullmatch(NAME, text):
        return {"player": text}
    raise ScenarioError(f"cannot read the target {text!r}; write {TARGET_GRAMMAR}")


# -- Given ---------------------------------------------------------------------------


# -- what the steps need of an engine (checked before anything is sent) ---------------------


def unit_needs(world: ScenarioWorld, unit: str | None) -> list[str]:
    """A unit of any type of docs/protocol.md: ``ti4/units``."""
    return ["ti4/units"] if unit else []


def law_needs(world: ScenarioWorld, laws: list[str]) -> list[str]:
    """Laws in play: ``ti4/laws``, and ``ti4/law/NAME`` for each law, as cards are declared:
    an engine that does not model a law leaves the scenario unsupported, not failed."""
    return ["ti4/laws", *(f"ti4/law/{law}" for law in laws)] if laws else []


def counter_needs(world: ScenarioWorld, tg: str | None = None, unit: str | None = None,
                  so: str | None = None, pn: str | None = None, **_: Any) -> list[str]:
    """Trade goods, secret objectives, promissory notes and units have capabilities; command
    tokens come with what spends them (Politics, the cards that remove them), whose
    capabilities those steps declare."""
    if so:
        return ["ti4/secret-objectives"]
    if pn:
        return ["ti4/promissory-notes"]
    return ["ti4/trade-goods"] if tg else unit_needs(world, unit)


def card_fact(world: ScenarioWorld, ref: str) -> dict[str, Any]:
    """The card facts (``features/ti4/cards.yaml``) of the card a variable is bound to."""
    name = world.names([CardRef(ref)])[0]
    for fact in world.game.cards.get(DECK, []):
        if fact["name"] == name:
            return fact
    raise ScenarioError(f"card {ref} is {name!r}, which is not a card of the {DECK} deck")


def card_phase(fact: dict[str, Any]) -> str:
    """The phase a card is played in ("Any", as Sabotage's, reads as the action phase)."""
    phase = str(fact["phase"]).lower()
    return "action" if phase == "any" else phase


# -- Given ---------------------------------------------------------------------------


@given(parsers.re(rf"(?P<player>{NAME}) is the (?P<faction>[\w' -]+?) player"))
@requires(lambda world, faction, **_: [f"ti4/faction/{faction}"])
def _faction(oracle_world: ScenarioWorld, player: str, faction: str) -> None:
    """A player's faction (named by its short name).

    Example: Given Alice is the Yssaril player
    """
    oracle_world.player(player)["faction"] = faction


@given(parsers.re(rf'(?P<player>{NAME}) has researched "(?P<tech>[^"]+)"'))
@requires(lambda world, tech, **_: [f"ti4/technology/{tech}"])
def _technology(oracle_world: ScenarioWorld, player: str, tech: str) -> None:
    """A technology a player owns.

    Example: Given Alice has researched "Neural Motivator"
    """
    oracle_world.player(player).setdefault("technologies", []).append(tech)


@given(parsers.re(COUNTER))
@requires(counter_needs)
def _set_counter(oracle_world: ScenarioWorld, player: str, count: str, pool: str | None,
                 tg: str | None, so: str | None, pn: str | None, unit: str | None) -> None:
    """A count a player has: command tokens in a pool, trade goods, secret objectives,
    promissory notes in hand, or units of a type (Bob's 2 dreadnoughts are then "Bob's
    dreadnought" and "Bob's dreadnought 2").

    Example: Given Bob has 2 command tokens in his tactic pool
    Example: Given Alice has 3 trade goods
    Example: Given Bob has 2 dreadnoughts
    Example: Given Bob has 3 promissory notes
    """
    n = parse_count(count)
    entry = oracle_world.player(player)
    if pool:
        entry.setdefault("command_tokens", {"tactic": 3, "fleet": 3, "strategy": 2})[pool] = n
    elif tg:
        entry["trade_goods"] = n
    elif so:
        entry["secret_objectives"] = n
    elif pn:
        entry["promissory_notes"] = n
    else:
        units = oracle_world.given().setdefault("units", [])
        mine = [u for u in units if u["owner"] == player and u["type"] == unit]
        for i in range(len(mine) + 1, len(mine) + n + 1):
            uid = f"{player}'s {unit}" + (f" {i}" if i > 1 else "")
            units.append({"id": uid, "owner": player, "type": unit})


@given(parsers.re(
    r"it is card (?P<ref>[A-Z])'s (?P<what>timing window|phase)"
    r"(?: but another (?P<other>timing window|phase))?"
    rf"(?: on (?P<player>{NAME})'s turn)?"
))
def _card_window(oracle_world: ScenarioWorld, ref: str, what: str, other: str | None,
                 player: str | None) -> None:
    """When card A may be played: its phase and its timing window (an "Action" card: the
    action phase, as the named player's action). 'but another timing window' opens a window
    of its phase that is not its own; 'but another phase' keeps its window in another
    phase. The turn is set only in the action phase (other phases have no turns).

    It needs no capability: ``phase``, ``window`` and ``active_player`` are keys of the
    state that every engine gets (docs/protocol.md, "Needs no capability"); ``ti4/windows``
    gates only a window opening during a scenario. An engine with no timing windows then
    plays a card outside its window and fails ti4:2.6, as the page's "No phases or timing
    windows" says; gated, its ti4:2.6 passed on its Sabotage scenarios alone."""
    if (what, other) not in (("timing window", None), ("timing window", "phase"),
                             ("phase", "timing window")):
        raise ScenarioError("write 'it is card A's timing window', 'it is card A's timing "
                            "window but another phase' or 'it is card A's phase but another "
                            "timing window'")
    fact = card_fact(oracle_world, ref)
    phase, window = card_phase(fact), fact["window"]
    if other == "phase":
        phase = next(p for p in PHASES if p != phase)
    elif other == "timing window":
        windows = [f["window"] for f in oracle_world.game.cards[DECK]
                   if card_phase(f) == phase and f["window"] not in (window, ACTION_WINDOW)]
        window = windows[0] if windows else f"not {window}"
    state = oracle_world.given()
    state["phase"], state["window"] = phase, window
    if phase == "action" and player:
        oracle_world.player(player)
        state["active_player"] = player
    elif phase == "action" and window == ACTION_WINDOW:
        raise ScenarioError(f"card {ref} is an \"Action\" card: say whose turn it is "
                            f"('it is card {ref}'s timing window on Alice's turn')")


@given(parsers.re(rf"(?P<player>{NAME}) is the speaker"))
def _speaker(oracle_world: ScenarioWorld, player: str) -> None:
    """Who holds the speaker token.

    Example: Given Alice is the speaker
    """
    oracle_world.player(player)
    oracle_world.given()["speaker"] = player


@given(parsers.re(r"the initiative order is (?P<names>.+)"))
def _initiative(oracle_world: ScenarioWorld, names: str) -> None:
    """The initiative order of the round (it orders the status phase's draw).

    Example: Given the initiative order is Alice, Bob and Carol
    """
    order = parse_names(names)
    for name in order:
        oracle_world.player(name)
    oracle_world.given()["initiative"] = order


@given(parsers.re(rf"(?P<player>{NAME}) has the (?P<card>\w+) strategy card"))
@requires(lambda world, card, **_: ["ti4/politics"] if card == "Politics"
          else [f"ti4/strategy-card/{card}"])
def _strategy_card(oracle_world: ScenarioWorld, player: str, card: str) -> None:
    """A strategy card a player has picked.

    Example: Given Alice has the Politics strategy card
    """
    oracle_world.player(player).setdefault("strategy_cards", []).append(card)


@given(parsers.re(r'the laws? (?P<laws>".+") (?:is|are) in play'))
@requires(lambda world, laws, **_: law_needs(world, parse_quoted(laws)))
def _laws(oracle_world: ScenarioWorld, laws: str) -> None:
    """Laws in play.

    Example: Given the law "Minister of Commerce" is in play
    """
    oracle_world.given().setdefault("laws", []).extend(parse_quoted(laws))


@given(parsers.re(
    rf'(?P<player>{NAME}) controls the (?P<marks>(?:(?:home|exhausted|{TRAIT}) )*)planet '
    r'"(?P<planet>[^"]+)"(?: with (?P<resources>\w+) resources? and (?P<influence>\w+) influence)?'
))
@requires(lambda world, marks, **_: ["ti4/planets", "ti4/planet-traits"]
          if set(marks.split()) & set(TRAITS) else ["ti4/planets"])
def _planet(oracle_world: ScenarioWorld, player: str, marks: str, planet: str,
            resources: str | None, influence: str | None) -> None:
    """A planet a player controls: in their home system or not, exhausted or readied, of a
    trait (cultural, industrial, hazardous) or none, with its resource and influence values
    (0 unless given).

    Example: Given Bob controls the planet "Quann" with 2 resources and 1 influence
    Example: Given Bob controls the exhausted planet "Lodor"
    Example: Given Bob controls the exhausted cultural planet "Lodor"
    """
    oracle_world.player(player)
    traits = [m for m in marks.split() if m in TRAITS]
    if len(traits) > 1:
        raise ScenarioError(f"the planet {planet!r} has one trait at most; got {traits}")
    planets = oracle_world.given().setdefault("planets", [])
    if any(p["name"] == planet for p in planets):
        raise ScenarioError(f"the planet {planet!r} is set up twice")
    planets.append({"name": planet, "controller": player,
                    "resources": parse_count(resources or "0"),
                    "influence": parse_count(influence or "0"),
                    "exhausted": "exhausted" in marks, "home": "home" in marks,
                    **({"trait": traits[0]} if traits else {})})


@given(parsers.re(
    rf"(?P<player>{NAME})'s hand limit is (?P<way>raised|lowered) by (?P<n>\w+) by a game effect"
))
@requires(lambda world, **_: ["ti4/hand-limit"])
def _hand_limit(oracle_world: ScenarioWorld, player: str, way: str, n: str) -> None:
    """A game effect that changes one player's hand limit (2.4.1).

    Example: Given Alice's hand limit is raised by 1 by a game effect
    """
    delta = parse_count(n) * (1 if way == "raised" else -1)
    oracle_world.player(player)["hand_limit_modifier"] = delta


# -- When ----------------------------------------------------------------------------


@when(parsers.re(
    rf"(?P<player>{NAME}) resolves the (?P<which>primary|secondary) ability of Politics"
    rf"(?:, choosing (?P<speaker>{NAME}) as speaker)?"
    r"(?:, and (?P<followers>.+?) resolves? its secondary ability)?"
))
@requires(lambda world, followers=None, **_: ["ti4/politics", "ti4/politics-deal"]
          if followers else ["ti4/politics"])
def _politics(oracle_world: ScenarioWorld, player: str, which: str, speaker: str | None,
              followers: str | None) -> None:
    """The Politics strategy card: the primary ability draws 2 action cards and names a new
    speaker; the secondary spends a strategy-pool command token to draw 2. '..., and Bob and
    Carol resolve its secondary ability' resolves both as one deal, which the engine deals
    clockwise from the active player (whatever order the step names them in), a pending
    discard holding up the next player and the reshuffle (ti4:66.3, ti4:66.note-1).

    Example: When Alice resolves the primary ability of Politics, choosing Bob as speaker
    Example: When Bob resolves the secondary ability of Politics
    Example: When Alice resolves the primary ability of Politics, choosing Bob as speaker, and Bob and Carol resolve its secondary ability
    """  # noqa: E501 (an example is one step, written whole)
    action: dict[str, Any] = {"type": f"politics_{which}", "player": player}
    text = f"{player} resolves the {which} ability of Politics"
    if which == "primary":
        if not speaker:
            raise ScenarioError("the primary ability of Politics chooses a new speaker: write "
                                "'..., choosing Bob as speaker'")
        action["speaker"] = speaker
    elif followers:
        raise ScenarioError("the players who resolve the secondary ability follow the primary: "
                            "write 'Alice resolves the primary ability of Politics, choosing "
                            "Bob as speaker, and Bob and Carol resolve its secondary ability'")
    if followers:
        names = parse_names(followers)
        action = {"type": "politics", "player": player, "speaker": speaker, "secondary": names}
        text += f", and {followers} resolve its secondary ability"
    oracle_world.act(text, action)


@when(parsers.re(r'the status phase step "(?P<step>[^"]+)" is resolved'))
@requires(lambda world, step, **_: ["ti4/status-phase"] if step == DRAW_STEP
          else ["ti4/status-phase", "ti4/status-steps"])
def _status_step(oracle_world: ScenarioWorld, step: str) -> None:
    """A step of the status phase, by its name (ti4:81): the steps come in order, each once.
    "Draw Action Cards" deals each player an action card, in initiative order.

    Example: When the status phase step "Draw Action Cards" is resolved
    Example: When the status phase step "Return Strategy Cards" is resolved
    """
    if step == DRAW_STEP:
        oracle_world.act("the status phase draws action cards", {"type": "status_draw"})
        return
    oracle_world.act(f'the status phase step "{step}" is resolved',
                     {"type": "status_step", "step": step})


@when(parsers.re(r"the game goes on to the (?P<phase>\w+) phase of the next round"))
@requires(lambda world, **_: ["ti4/rounds"])
def _next_round(oracle_world: ScenarioWorld, phase: str) -> None:
    """The rest of the round passes, and the game is at the start of that phase of the next
    round (ti4:40): hands and decks carry over, the status phase's steps come again.

    Example: When the game goes on to the status phase of the next round
    """
    if phase not in PHASES:
        raise ScenarioError(f"'{phase}' is not a phase of the game round: write one of "
                            f"{', '.join(PHASES)}")
    oracle_world.act(f"the game goes on to the {phase} phase of the next round",
                     {"type": "next_round", "phase": phase})


@when(parsers.re(
    rf"(?P<units>{UNIT_REF}(?:(?:, | and ){UNIT_REF})*) uses? SUSTAIN DAMAGE to cancel "
    rf"(?:a hit|hits) produced by (?P<against>{NAME})"
))
@requires(lambda world, **_: ["ti4/events", "ti4/units"])
def _sustain_damage(oracle_world: ScenarioWorld, units: str, against: str) -> None:
    """A timing event: units (of one player) use SUSTAIN DAMAGE to cancel hits another
    player's units produced; its windows open ("After another player's ship uses SUSTAIN
    DAMAGE ...": that player's; "that ship" is one of these units).

    Example: When Bob's dreadnought uses SUSTAIN DAMAGE to cancel a hit produced by Alice
    """
    ids = [u.strip() for u in re.split(r", | and ", units)]
    oracle_world.act(f"{units} use SUSTAIN DAMAGE against {against}'s hits",
                     {"type": "event", "event": "sustain_damage", "units": ids,
                      "against": against})


@when(parsers.re(
    rf"(?P<player>{NAME}) makes an? (?P<roll>{ROLL}) roll that produces (?P<hits>\w+) hits? "
    rf"against (?P<against>{NAME})"
))
@requires(lambda world, **_: ["ti4/events"])
def _roll(oracle_world: ScenarioWorld, player: str, roll: str, hits: str, against: str) -> None:
    """A timing event: a roll and the hits it produces against another player; its windows
    open ("Before you assign hits to your ships during a space combat": the hit player's).

    Example: When Bob makes a space combat roll that produces 3 hits against Alice
    """
    oracle_world.act(f"{player} rolls {hits} hits against {against}",
                     {"type": "event", "event": "roll", "roll": roll.lower(),
                      "player": player, "hits": parse_count(hits), "against": against})


@when(parsers.re(
    rf"round (?P<round>\w+) of an? (?P<combat>space|ground) combat between (?P<attacker>{NAME}) "
    rf"and (?P<defender>{NAME}) starts"
))
@requires(lambda world, **_: ["ti4/events"])
def _combat_round(oracle_world: ScenarioWorld, round: str, combat: str, attacker: str,
                  defender: str) -> None:
    """A timing event: a round of combat starts, the attacker named first; its windows open
    to both sides ("At the start of a combat round").

    Example: When round 1 of a space combat between Alice and Bob starts
    """
    oracle_world.act(f"round {round} of the {combat} combat starts",
                     {"type": "event", "event": "combat_round", "combat": combat,
                      "round": parse_count(round), "attacker": attacker, "defender": defender})


@when(parsers.re(r"the timing window of card (?P<ref>[A-Z]) opens again"))
@requires(lambda world, **_: ["ti4/windows"])
def _card_window_opens(oracle_world: ScenarioWorld, ref: str) -> None:
    """A new occurrence of card A's timing window (same-name plays count afresh)."""
    window = card_fact(oracle_world, ref)["window"]
    oracle_world.act(f'the timing window "{window}" opens', {"type": "window", "window": window})


@when(parsers.re(
    rf"(?P<giver>{NAME}) gives (?P<cards>.+) to (?P<receiver>{NAME}) in a transaction"
))
@requires(lambda world, **_: ["ti4/transactions"])
def _trade(oracle_world: ScenarioWorld, giver: str, cards: str, receiver: str) -> None:
    """One player gives action cards to another in a transaction.

    Example: When Alice gives "Sabotage" to Bob in a transaction
    """
    names = oracle_world.names(parse_cards(cards))
    oracle_world.act(f"{giver} gives {describe_cards(names)} to {receiver}",
                     {"type": "trade", "player": giver, "to": receiver, "cards": names})


# -- Then ----------------------------------------------------------------------------


@then(parsers.re(COUNTER))
@requires(counter_needs)
def _check_counter(oracle_world: ScenarioWorld, player: str, count: str, pool: str | None,
                   tg: str | None, so: str | None, pn: str | None, unit: str | None) -> None:
    """A count a player has, as the referee sees it.

    Example: Then Bob has 0 destroyers
    Example: Then Alice has 1 command token in her strategy pool
    """
    want = parse_count(count)
    view = oracle_world.view(REFEREE)
    try:
        if pool:
            what, got = f"{player}'s {pool} pool", view["players"][player]["command_tokens"][pool]
        elif tg:
            what, got = f"{player}'s trade goods", view["players"][player]["trade_goods"]
        elif so:
            what = f"{player}'s secret objectives"
            got = view["players"][player]["secret_objectives"]
        elif pn:
            what = f"{player}'s promissory notes"
            got = view["players"][player]["promissory_notes"]
        else:
            what = f"{player}'s {unit}s"
            got = sum(1 for u in view.get("units", []) if u["owner"] == player
                      and u["type"] == unit)
    except (KeyError, TypeError) as exc:
        raise EngineFault(f"the referee view lacks {exc}; see docs/protocol.md (TI4)") from exc
    if got != want:
        raise RuleViolation(f"{what}: {got}; expected {want}")


@then(parsers.re(rf"(?P<player>{NAME})'s roll has (?P<count>\w+) hits? left"))
@requires(lambda world, **_: ["ti4/events"])
def _roll_hits(oracle_world: ScenarioWorld, player: str, count: str) -> None:
    """The hits the current roll (a timing event) still produces, after cancellations.

    Example: Then Bob's roll has 1 hit left
    """
    event = oracle_world.view(REFEREE).get("event") or {}
    if event.get("event") != "roll" or event.get("player") != player:
        raise RuleViolation(f"the current timing event is {event or 'none'}, not a roll of "
                            f"{player}'s")
    if event.get("hits") != parse_count(count):
        raise RuleViolation(f"{player}'s roll has {event.get('hits')} hit(s) left; expected "
                            f"{parse_count(count)}")


@then(parsers.re(rf"(?P<player>{NAME}) is the speaker"))
@requires(lambda world, **_: ["ti4/politics"])
def _is_speaker(oracle_world: ScenarioWorld, player: str) -> None:
    """Who holds the speaker token now.

    Example: Then Bob is the speaker
    """
    speaker = oracle_world.view(REFEREE).get("speaker")
    if speaker != player:
        raise RuleViolation(f"the speaker is {speaker!r}; expected {player}")


@then(parsers.re(r'the planet "(?P<planet>[^"]+)" is (?P<state>exhausted|readied)'))
@requires(lambda world, **_: ["ti4/planets"])
def _planet_state(oracle_world: ScenarioWorld, planet: str, state: str) -> None:
    """Whether a planet is exhausted or readied, as the referee sees it.

    Example: Then the planet "Quann" is exhausted
    """
    found = [p for p in oracle_world.view(REFEREE).get("planets") or ()
             if p.get("name") == planet]
    if not found:
        raise RuleViolation(f"no planet {planet!r} is in play")
    exhausted = bool(found[0].get("exhausted"))
    if exhausted != (state == "exhausted"):
        raise RuleViolation(f"the planet {planet!r} is {'exhausted' if exhausted else 'readied'}"
                            f"; expected {state}")


@then(parsers.re(r'the law "(?P<law>[^"]+)" is (?P<neg>not )?in play'))
@requires(lambda world, law, **_: law_needs(world, [law]))
def _law_in_play(oracle_world: ScenarioWorld, law: str, neg: str | None) -> None:
    """Whether a law is in play.

    Example: Then the law "Minister of Commerce" is not in play
    """
    laws = oracle_world.view(REFEREE).get("laws", [])
    if (law in laws) == bool(neg):
        raise RuleViolation(f"laws in play: {laws or 'none'}; expected {law!r} "
                            f"{'not ' if neg else ''}to be in play")
