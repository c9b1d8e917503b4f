"""Europa Universalis: The Price of Power words: Monarch Power and Ducats, cost reductions,
Display Cards and their Actions, appointing characters, Phase 5 Step C, and Battles.

Everything else an EU scenario says (players, hands, decks, discard piles, drawing, playing,
cancelling with Counterespionage, turns, pending decisions, viewers) is the shared vocabulary
of ``steps/common.py``. Facts that a Given step sets and a Then step checks share one phrase
(``Alice has 3 military power``, ``Alice has "Spy Network" on display with 2 charges``), so a
committee learns one sentence per fact, not two.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from pytest_bdd import given, parsers, then, when

from oracle.protocol import REFEREE
from oracle.scenario.outcomes import EngineFault, RuleViolation, ScenarioError
from oracle.scenario.requirements import requires
from oracle.scenario.world import ScenarioWorld
from oracle.steps.common import play_and_pass
from oracle.suite.arguments import Argument, Kind
from oracle.suite.dsl import parse_count, parse_names

GAME = "eu-pop"
NAME = r"[A-Z][\w'-]*"
#: A list of players (``Alice and Carol``); ``parse_names`` checks it.
NAMES = r"[A-Z][\w', -]*?"
VIEWER = rf"{NAME}|a spectator"
POWER = "administrative|diplomatic|military"
DIE_TYPES = ("infantry", "cavalry", "artillery")
DICE_GRAMMAR = ("'no dice', '1 cavalry die', '2 artillery dice', 'a cavalry die and an infantry "
                "die', or '2 dice' when the types do not matter")

# One phrase per countable fact: Given sets it, Then checks it.
COUNTER = rf"(?P<player>{NAME}) has (?P<count>\w+) (?:(?P<power>{POWER}) power|(?P<ducats>ducats?))"
DISPLAY = (
    rf'(?P<player>{NAME}) has (?:"(?P<card>[^"]+)" on display(?: with (?P<charges>\w+) charges?)?'
    r"|(?P<count>\w+) cards? on display)"
    rf"(?: as seen by (?P<viewer>{VIEWER}))?"
)
CHARACTER = (
    rf'(?P<player>{NAME}) has (?:"(?P<card>[^"]+)" as an? (?P<role>advisor|leader|character)'
    r"|no (?P<none>advisors|leaders))"
)


def parse_dice(text: str) -> tuple[Counter[str], int]:
    """``a cavalry die and 2 artillery dice`` -> (typed counts, dice of any type)."""
    text = text.strip()
    if text in ("no dice", "no battle dice"):
        return Counter(), 0
    typed: Counter[str] = Counter()
    untyped = 0
    for part in re.split(r",\s*|\s+and\s+", text):
        m = re.fullmatch(rf"(\w+) (?:({'|'.join(DIE_TYPES)}) )?(?:battle )?di(?:e|ce)", part)
        if not m:
            raise ScenarioError(f"cannot read {text!r} as Battle Dice; write {DICE_GRAMMAR}")
        n = parse_count(m.group(1))
        if m.group(2):
            typed[m.group(2)] += n
        else:
            untyped += n
    return typed, untyped


def parse_target(world: ScenarioWorld, text: str) -> dict[str, Any]:
    """What 'targeting ...' / 'choosing ...' means in an EU play or use (docs/protocol.md).

    A quoted name is the card, or the Action on a Display Card, being played that this card
    answers (Counterespionage); Battle Dice are the types chosen for "?" die icons.
    """
    text = text.strip()
    if m := re.fullmatch(r'"([^"]+)"', text):
        return {"card": m.group(1)}
    typed, untyped = parse_dice(text)
    if untyped or not typed:
        raise ScenarioError(f"cannot read the target {text!r}; write {TARGET_GRAMMAR}")
    return {"dice": sorted(typed.elements())}


TARGET_GRAMMAR = ('a card or Action being played, quoted ("Secret Treaty"), or the dice chosen '
                  'for "?" icons (a cavalry die)')


def target_references(game: Any, text: str) -> list[tuple[str, str]]:
    """What a written target names (for the suite checks): a card or Action, or dice."""
    if m := re.fullmatch(r'"([^"]+)"', text.strip()):
        return [("card or action", m.group(1))]
    parse_target(None, text)  # type: ignore[arg-type]  # raises unless dice
    return []


def dice_references(game: Any, text: str) -> list[tuple[str, str]]:
    parse_dice(text)  # raises unless dice
    return []


#: The kinds of these steps' arguments (oracle.suite.arguments), where the name does not say.
ARGUMENTS = {"card": "card name", "cancel": "card name", "attackers": "players",
             "defenders": "players", "step": "battle step",
             "action": "display action", "ducats": "choice",
             "charges": Argument("count", asserts=True), "dice": Argument("dice", asserts=True)}
KINDS = {"target": Kind("target", TARGET_GRAMMAR, target_references),
         "dice": Kind("dice", DICE_GRAMMAR, dice_references)}


def _referee_player(world: ScenarioWorld, player: str) -> dict[str, Any]:
    view = world.view(REFEREE)
    try:
        return dict(view["players"][player])
    except (KeyError, TypeError) as exc:
        raise EngineFault(f"the referee view has no players.{player} ({exc!r})") from exc


def _field(entry: dict[str, Any], key: str, player: str) -> Any:
    if key not in entry:
        raise EngineFault(f"the view of {player} has no {key!r}; see docs/protocol.md (EU)")
    return entry[key]


def _display_action(world: ScenarioWorld, action: str) -> str:
    """The Display Card that lists ``action`` (Action names are unique in the card facts)."""
    cards = [c["name"] for deck in world.game.cards.values() for c in deck
             if any(a.get("name") == action for a in c.get("actions", []))]
    if len(cards) != 1:
        raise ScenarioError(f"{action!r} is not an Action listed on exactly one Display Card "
                            "of features/eu-pop/cards.yaml")
    return cards[0]


# -- Given and Then: counters, displays, characters ------------------------------------------


@given(parsers.re(COUNTER))
@requires(lambda world, power=None, **_: [f"{GAME}/monarch-power" if power else f"{GAME}/ducats"])
def _set_counter(oracle_world: ScenarioWorld, player: str, count: str, power: str | None,
                 ducats: str | None) -> None:
    """Monarch Power of one type, or Ducats (default: 3 of each power and 15 Ducats).

    Example: Given Alice has 2 military power
    Example: Given Alice has 10 ducats
    """
    n = parse_count(count)
    entry = oracle_world.player(player)
    if power:
        oracle_world.require(f"{GAME}/monarch-power")
        entry.setdefault("power", {})[power] = n
    else:
        oracle_world.require(f"{GAME}/ducats")
        entry["ducats"] = n


@then(parsers.re(COUNTER))
def _check_counter(oracle_world: ScenarioWorld, player: str, count: str, power: str | None,
                   ducats: str | None) -> None:
    """A player's Monarch Power of one type, or Ducats, as the referee sees them.

    Example: Then Alice has 1 administrative power
    """
    want = parse_count(count)
    entry = _referee_player(oracle_world, player)
    if power:
        what, got = f"{player}'s {power} power", _field(entry, "power", player).get(power)
    else:
        what, got = f"{player}'s ducats", _field(entry, "ducats", player)
    if got != want:
        raise RuleViolation(f"{what}: {got}; expected {want}")


@given(parsers.re(
    rf"(?P<player>{NAME})'s (?P<kind>{POWER}|ducat) costs are reduced by (?P<n>\w+)"
    r"(?: by a game effect)?"
))
@requires(lambda world, **_: [f"{GAME}/cost-reductions"])
def _cost_reduction(oracle_world: ScenarioWorld, player: str, kind: str, n: str) -> None:
    """A game effect that lowers a player's costs of one kind (6.action-cards.5).

    Example: Given Alice's diplomatic costs are reduced by 1 by a game effect
    """
    oracle_world.require(f"{GAME}/cost-reductions")
    key = "ducats" if kind == "ducat" else kind
    oracle_world.player(player).setdefault("cost_reductions", {})[key] = parse_count(n)


@given(parsers.re(DISPLAY))
@requires(lambda world, card=None, **_: [f"{GAME}/display", *([f"{GAME}/card/{card}"] if card
                                                              else [])])
def _set_display(oracle_world: ScenarioWorld, player: str, card: str | None,
                 charges: str | None, count: str | None, viewer: str | None) -> None:
    """A Display Card already in play (placed on an earlier Turn).

    Example: Given Alice has "Royal Manufactory" on display with 2 charges
    """
    oracle_world.require(f"{GAME}/display")
    if viewer:
        raise ScenarioError("'as seen by' belongs in a Then step")
    entry = oracle_world.player(player)
    if card is None:
        if parse_count(count or "0") != 0:
            raise ScenarioError("name each Display Card in play: "
                                'Alice has "Spy Network" on display with 2 charges')
        entry["display"] = []
        return
    display: dict[str, Any] = {"card": card}
    if charges is not None:
        display["charges"] = parse_count(charges)
    entry.setdefault("display", []).append(display)


@then(parsers.re(DISPLAY))
def _check_display(oracle_world: ScenarioWorld, player: str, card: str | None,
                   charges: str | None, count: str | None, viewer: str | None) -> None:
    """What a player has on display, as the referee or one viewer sees it (it is face up).

    Example: Then Alice has "Spy Network" on display with 3 charges as seen by Bob
    """
    who: str | None = REFEREE if viewer is None else (None if viewer == "a spectator" else viewer)
    view = oracle_world.view(who)
    seen_by = "" if viewer is None else f" as seen by {viewer}"
    try:
        shown = list(view["players"][player]["display"])
    except (KeyError, TypeError) as exc:
        raise EngineFault(f"the view{seen_by} has no players.{player}.display ({exc!r}); "
                          "see docs/protocol.md (EU)") from exc
    names = [d.get("card") for d in shown]
    if card is None:
        want = parse_count(count or "0")
        if len(shown) != want:
            raise RuleViolation(f"{player} has {len(shown)} card(s) on display{seen_by} "
                                f"({names}); expected {want}")
        return
    entry = next((d for d in shown if d.get("card") == card), None)
    if entry is None:
        raise RuleViolation(f"{player} has {names or 'nothing'} on display{seen_by}; expected "
                            f"{card!r}")
    if charges is not None and entry.get("charges") != parse_count(charges):
        raise RuleViolation(f"{card!r} has {entry.get('charges')} charge(s){seen_by}; expected "
                            f"{parse_count(charges)}")


@given(parsers.re(CHARACTER))
@requires(lambda world, card=None, **_: [f"{GAME}/appoint", *([f"{GAME}/card/{card}"] if card
                                                              else [])])
def _set_character(oracle_world: ScenarioWorld, player: str, card: str | None,
                   role: str | None, none: str | None) -> None:
    """A character a player has already appointed.

    Example: Given Alice has "Royal Decree" as an advisor
    """
    oracle_world.require(f"{GAME}/appoint")
    entry = oracle_world.player(player)
    if none:
        entry[none] = []
    elif role == "character":
        raise ScenarioError(f'say whether {card!r} is appointed as an advisor or as a leader')
    else:
        entry.setdefault(f"{role}s", []).append(card)


@then(parsers.re(CHARACTER))
def _check_character(oracle_world: ScenarioWorld, player: str, card: str | None,
                     role: str | None, none: str | None) -> None:
    """The characters a player has appointed (6.characters.1); 'as a character' takes either.

    Example: Then Alice has "Forced March" as a leader
    Example: Then Alice has no advisors
    """
    entry = _referee_player(oracle_world, player)
    key = none or ("characters" if role == "character" else f"{role}s")
    keys = ("advisors", "leaders") if key == "characters" else (key,)
    got = [c for k in keys for c in _field(entry, k, player)]
    if none and got:
        raise RuleViolation(f"{player}'s {key}: {got}; expected none")
    if card and card not in got:
        raise RuleViolation(f"{player}'s {key}: {got or 'none'}; expected {card!r} among them")


# -- Given: battles ------------------------------------------------------------------------------


@given(parsers.re(
    rf"(?P<attackers>{NAMES}) attacks? (?P<defenders>{NAMES}) in a battle"
    r'(?:, in its "(?P<step>[^"]+)" step)?'
))
@requires(lambda world, **_: [f"{GAME}/battle"])
def _battle(oracle_world: ScenarioWorld, attackers: str, defenders: str,
            step: str | None) -> None:
    """A Battle being fought, in its "Play Battle Actions" step unless told.

    Example: Given Alice attacks Bob in a battle, in its "Play Battle Actions" step
    """
    oracle_world.require(f"{GAME}/battle")
    battle: dict[str, Any] = {"attackers": parse_names(attackers),
                              "defenders": parse_names(defenders)}
    for name in (*battle["attackers"], *battle["defenders"]):
        oracle_world.player(name)
    if step:
        battle["step"] = step
    oracle_world.given()["battle"] = battle


# -- When ------------------------------------------------------------------------------------


@when(parsers.re(rf'(?P<player>{NAME}) appoints "(?P<card>[^"]+)"'))
@requires(lambda world, card, **_: [f"{GAME}/appoint", f"{GAME}/card/{card}"])
def _appoint(oracle_world: ScenarioWorld, player: str, card: str) -> None:
    """The Appoint Advisor/Leader Action: the card is used for its character (6.action-cards.8).

    Example: When Alice appoints "Royal Decree"
    """
    oracle_world.require(f"{GAME}/appoint")
    oracle_world.act(f'{player} appoints "{card}"',
                     {"type": "appoint", "player": player, "card": card})


@when(parsers.re(
    rf'(?P<player>{NAME}) (?P<verb>uses|starts using) "(?P<action>[^"]+)"'
    r"(?: (?P<how>targeting|choosing) (?P<target>.+?))?"
    rf'(?: and (?P<canceller>{NAME}) cancels it with "(?P<cancel>[^"]+)")?'
))
@requires(lambda world, action, cancel=None, **_: [
    f"{GAME}/display", f"{GAME}/card/{_display_action(world, action)}",
    *([f"{GAME}/card/{cancel}"] if cancel else [])])
def _use(oracle_world: ScenarioWorld, player: str, verb: str, action: str, how: str | None,
         target: str | None, canceller: str | None, cancel: str | None) -> None:
    """Take an Action listed on a Display Card; like 'plays', it can be cancelled.

    Example: When Alice uses "Support Rebels" and Bob cancels it with "Counterespionage"
    """
    oracle_world.require(f"{GAME}/display")
    card = _display_action(oracle_world, action)
    message: dict[str, Any] = {"type": "use", "player": player, "card": card, "action": action}
    if target:
        message["targets"] = parse_target(oracle_world, target)
    play_and_pass(oracle_world, f'{player} uses "{action}" of "{card}"', message, name=action,
                  leave_open=verb == "starts using", canceller=canceller, cancel=cancel)


@when("Phase 5, Step C is resolved")
@requires(lambda world, **_: [f"{GAME}/hand-limit"])
def _step_c(oracle_world: ScenarioWorld) -> None:
    """Cleanup, Step C: every player discards down to the hand limit (6.cards-in-hand.2).

    Example: When Phase 5, Step C is resolved
    """
    oracle_world.require(f"{GAME}/hand-limit")
    oracle_world.act("Phase 5, Step C is resolved", {"type": "discard_down"})


@when(parsers.re(
    r'(?:the battle moves to its "(?P<step>[^"]+)" step'
    r"|(?P<round>a new round of battle begins)|(?P<end>the battle ends))"
))
@requires(lambda world, **_: [f"{GAME}/battle"])
def _battle_goes_on(oracle_world: ScenarioWorld, step: str | None, round: str | None,
                    end: str | None) -> None:
    """The Battle moves on: to a later step, to a new Round, or to its end.

    Example: When the battle moves to its "Roll Battle Dice" step
    Example: When a new round of battle begins
    """
    oracle_world.require(f"{GAME}/battle")
    if step:
        oracle_world.act(f'the battle moves to its "{step}" step',
                         {"type": "battle_step", "step": step})
    elif round:
        oracle_world.act("a new round of battle begins", {"type": "battle_round"})
    else:
        oracle_world.act("the battle ends", {"type": "battle_end"})


# -- Then --------------------------------------------------------------------------------------


@then(parsers.re(rf"(?P<player>{NAME})'s side has (?P<dice>.+) from battle actions"))
def _battle_dice(oracle_world: ScenarioWorld, player: str, dice: str) -> None:
    """The Battle Dice a side has gained from Battle Actions (6.2.battle.4-6).

    Example: Then Alice's side has a cavalry die and an infantry die from battle actions
    """
    typed, untyped = parse_dice(dice)
    battle = oracle_world.view(REFEREE).get("battle")
    if not battle:
        raise RuleViolation("no Battle is being fought")
    try:
        side = next(s for s in ("attackers", "defenders") if player in battle[s])
        got = Counter(battle["dice"][side])
    except StopIteration:
        raise RuleViolation(f"{player} is on no side of the Battle") from None
    except (KeyError, TypeError) as exc:
        raise EngineFault(f"the referee view's battle lacks {exc}; see docs/protocol.md (EU)")\
            from exc
    total = sum(typed.values()) + untyped
    if sum(got.values()) != total or typed - got:
        raise RuleViolation(f"{player}'s side has {sorted(got.elements()) or 'no dice'} from "
                            f"Battle Actions; expected {dice}")
