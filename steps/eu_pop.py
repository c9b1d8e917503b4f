"""Europa Universalis: The Price of Power words: Monarch Power and Ducats, costs and their
reductions, Display Cards and their Actions, appointing characters, Phase 5 Step C, Battles.

Everything else an EU scenario says (players, hands, decks, discard piles, drawing, playing,
cancelling with Counterespionage, turns, pending decisions, viewers, card variables) is the
shared vocabulary of ``steps/common.py``. Facts that a Given step sets and a Then step checks
share one phrase (``Alice has 3 military power``, ``Alice has card A on display with 2
charges``), so a committee learns one sentence per fact, not two.

Where a rule is not about a particular card, a scenario names a class of card (``card A is
any display card``, ``features/eu-pop/plays.yaml``) and the words here work on it: the
Actions of a Display Card are named by their sort (``an action of card A``, ``the reaction
of card A``, ``the covert action of card A that spends 2 charges``), and costs are read from
the card facts (``Alice has one too few Monarch Power for card A``, ``Alice has paid the cost
of card A``), so the scenario holds whatever card of the class the engine models.

Every step declares with ``@requires`` what it needs of an engine (docs/protocol.md, EU).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

from oracle.protocol import REFEREE, Rejected
from oracle.scenario.cards import card_facts
from oracle.scenario.outcomes import EngineFault, RuleViolation, ScenarioError
from oracle.scenario.requirements import plays, requires
from oracle.scenario.world import ScenarioWorld
from oracle.steps.common import card_word, play_and_pass
from oracle.suite.arguments import Argument, Kind, takes
from oracle.suite.dsl import describe_cards, parse_cards, parse_count, parse_names
from oracle.suite.stepdefs import given, parsers, then, when

GAME = "eu-pop"
DECKS = ("administrative", "diplomatic", "military")
NAME = r"[A-Z][\w'-]*"
#: A list of players (``Alice and Carol``); ``parse_names`` checks it.
NAMES = r"[A-Z][\w', -]*?"
VIEWER = rf"{NAME}|a spectator"
POWER = "administrative|diplomatic|military"
#: A card in a step: a quoted name, or a card variable (``card A``).
CARD = r'(?:"[^"]+"|card [A-Z])'
DIE_TYPES = ("infantry", "cavalry", "artillery")
DICE_GRAMMAR = ("'no dice', '1 cavalry die', '2 artillery dice', 'a cavalry die and an infantry "
                "die', or '2 dice' when the types do not matter")
#: The sorts of Action a Display Card lists, as a step names them, and what marks each.
SORTS = {
    "action": lambda kinds: not {"battle_action", "reaction"} & set(kinds),
    "battle action": lambda kinds: "battle_action" in kinds,
    "reaction": lambda kinds: "reaction" in kinds,
    "covert action": lambda kinds: "covert" in kinds,
}
#: An Action on a Display Card: its quoted name, or its sort on a card (variable).
ACTION = (rf'(?:"(?P<action>[^"]+)"|(?:an?|the) (?P<sort>{"|".join(SORTS)}) of '
          rf"(?P<host>{CARD})(?: that (?:spends (?P<spends>\w+) charges?|has (?P<effect>an "
          r"effect)))?)")

# One phrase per countable fact: Given sets it, Then checks it.
COUNTER = (rf"(?P<player>{NAME}) has (?P<count>\w+) (?:(?P<power>{POWER}) power"
           r"|(?P<each>of each Monarch Power)|(?P<ducats>ducats?))")
DISPLAY = (
    rf"(?P<player>{NAME}) has (?:(?P<card>{CARD}) on display"
    r"(?: with (?P<charges>\w+) charges?|, (?P<full>fully charged))?"
    r"|(?P<count>\w+) cards? on display)"
    rf"(?: as seen by (?P<viewer>{VIEWER}))?"
)
CHARACTER = (
    rf"(?P<player>{NAME}) has (?:(?P<card>{CARD}) as an? (?P<role>advisor|leader|character)"
    r"|no (?P<none>advisors|leaders))"
)
#: What a cost is paid for: a card, or the Action last taken on a Display Card.
PAID_FOR = rf"(?:(?P<card>{CARD})|the action taken on (?P<host>{CARD}))"


# -- card facts ------------------------------------------------------------------------------


def facts(world: ScenarioWorld) -> dict[str, Mapping[str, Any]]:
    """The card facts by name, each with its deck (``features/eu-pop/cards.yaml``)."""
    return {f["name"]: f for f in card_facts(world.game)}


def fact(world: ScenarioWorld, name: str) -> Mapping[str, Any]:
    try:
        return facts(world)[name]
    except KeyError:
        raise ScenarioError(f"{name!r} is not a card of features/eu-pop/cards.yaml") from None


def card_name(world: ScenarioWorld, text: str) -> str:
    """A card word of a step (``"Spy Network"``, ``card A``) as the card it stands for."""
    return world.cards.names([card_word(text)])[0]  # world.cards: a capability map's too


def card_needs(world: ScenarioWorld, *texts: str | None) -> list[str]:
    """The capability each card word needs (a bound variable needs its card too)."""
    return [f"{GAME}/card/{card_name(world, t)}" for t in texts if t]


def listed_action(world: ScenarioWorld, action: str | None, sort: str | None,
                  host: str | None, spends: str | None, effect: str | None = None
                  ) -> tuple[str, Mapping[str, Any]]:
    """The Display Card and the Action an ``ACTION`` phrase names.

    A quoted Action is looked up among every card's Actions (their names are unique); a
    sort takes the first Action of that sort the card lists (and that spends that many
    charges, or that has an effect, when the phrase says so).
    """
    if action is not None:
        found = [(f["name"], a) for f in facts(world).values() for a in f.get("actions") or []
                 if a.get("name") == action]
        if len(found) != 1:
            raise ScenarioError(f"{action!r} is not an Action listed on exactly one Display "
                                "Card of features/eu-pop/cards.yaml")
        return found[0]
    assert sort is not None and host is not None
    card = card_name(world, host)
    want = parse_count(spends) if spends else None
    for listed in fact(world, card).get("actions") or []:
        if (SORTS[sort](listed.get("kinds") or []) and want in (None, listed.get("uses", 1))
                and (not effect or (listed.get("effect") or {}).get("ducats"))):
            return card, listed
    spend = (f" that spends {want} charge(s)" if want is not None
             else " that has an effect" if effect else "")
    raise ScenarioError(f"{card!r} lists no {sort}{spend}; bind {host} to a class of Display "
                        "Card that has one (features/eu-pop/plays.yaml)")


def cost_of(world: ScenarioWorld, card: str, listed: Mapping[str, Any] | None = None
            ) -> tuple[str, int, int]:
    """(Monarch Power type, its amount, Ducats) printed on a card, or on one of its Actions:
    a card costs power of its deck's type (6.action-cards.3), an Action its own type."""
    if listed is not None:
        return str(listed.get("power")), int(listed.get("cost", 0)), 0
    data = fact(world, card)
    return str(data["deck"]), int(data.get("cost", 0)), int(data.get("ducats") or 0)


# -- reading the referee's view ----------------------------------------------------------------


def _referee_player(world: ScenarioWorld, player: str,
                    view: Mapping[str, Any] | None = None) -> dict[str, Any]:
    view = world.view(REFEREE) if view is None else view
    try:
        return dict(view["players"][player])
    except (KeyError, TypeError) as exc:
        raise EngineFault(f"the referee view has no players.{player} ({exc!r})") from exc


def _field(entry: Mapping[str, Any], key: str, player: str) -> Any:
    if key not in entry:
        raise EngineFault(f"the view of {player} has no {key!r}; see docs/protocol.md (EU)")
    return entry[key]


def _last_sent(world: ScenarioWorld, player: str, card: str, types: tuple[str, ...]
               ) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """The last accepted action of ``types`` by ``player`` that named ``card``, and the
    referee's view before it: where a cost paid for it is measured from."""
    for _text, kind, action, reply, before, _after in reversed(world.history):
        if (kind in types and action.get("player") == player and action.get("card") == card
                and not isinstance(reply, Rejected)):
            return action, before
    raise ScenarioError(f"{player} has not {'/'.join(types)}ed {card!r} in this scenario")


# -- targets --------------------------------------------------------------------------------


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

    A card (``"Secret Treaty"``, ``card A``) is the card, or the Action on a Display Card,
    being played that this card answers (Counterespionage); Battle Dice are the types chosen
    for "?" die icons.
    """
    text = text.strip()
    if m := re.fullmatch(r'"([^"]+)"', text):
        return {"card": m.group(1)}
    if re.fullmatch(r"card [A-Z]", text):
        return {"card": card_name(world, text)}
    typed, untyped = parse_dice(text)
    if untyped or not typed:
        raise ScenarioError(f"cannot read the target {text!r}; write {TARGET_GRAMMAR}")
    return {"dice": sorted(typed.elements())}


TARGET_GRAMMAR = ('a card or Action being played, quoted ("Secret Treaty") or a card '
                  'variable (card A), or the dice chosen for "?" icons (a cavalry die)')


def target_references(game: Any, text: str) -> list[tuple[str, str]]:
    """What a written target names (for the suite checks): a card or Action, or dice."""
    if m := re.fullmatch(r'"([^"]+)"', text.strip()):
        return [("card or action", m.group(1))]
    if re.fullmatch(r"card [A-Z]", text.strip()):
        return []  # a card variable: bound (and checked) by its Given
    parse_target(None, text)  # type: ignore[arg-type]  # raises unless dice
    return []


def dice_references(game: Any, text: str) -> list[tuple[str, str]]:
    parse_dice(text)  # raises unless dice
    return []


#: The kinds of these steps' arguments (oracle.suite.arguments), where the name does not say.
ARGUMENTS = {"host": "card", "attackers": "players", "passer": "player",
             "defenders": "players", "step": "battle step",
             "action": "display action", "ducats": "choice",
             "none": Argument("choice"),  # 'no advisors' / 'no leaders': what, not a verdict
             "charges": Argument("count", asserts=True), "dice": Argument("dice", asserts=True)}
KINDS = {"target": Kind("target", TARGET_GRAMMAR, target_references),
         "dice": Kind("dice", DICE_GRAMMAR, dice_references)}


# -- Given and Then: counters and costs --------------------------------------------------------


def _counter_needs(world: ScenarioWorld, ducats: str | None = None, **_: Any) -> list[str]:
    return [f"{GAME}/ducats" if ducats else f"{GAME}/monarch-power"]


@given(parsers.re(COUNTER))
@requires(_counter_needs)
def _set_counter(oracle_world: ScenarioWorld, player: str, count: str, power: str | None,
                 each: str | None, ducats: str | None) -> None:
    """Monarch Power of one type (or of each), or Ducats (default: 3 of each power and 15
    Ducats).

    Example: Given Alice has 2 military power
    Example: Given Alice has 10 ducats
    """
    n = parse_count(count)
    entry = oracle_world.player(player)
    if power or each:
        for kind in (power,) if power else DECKS:
            entry.setdefault("power", {})[kind] = n
    else:
        entry["ducats"] = n


@then(parsers.re(COUNTER))
@requires(_counter_needs)
def _check_counter(oracle_world: ScenarioWorld, player: str, count: str, power: str | None,
                   each: str | None, ducats: str | None) -> None:
    """A player's Monarch Power of one type (or of each), or Ducats, as the referee sees
    them.

    Example: Then Alice has 1 administrative power
    """
    want = parse_count(count)
    entry = _referee_player(oracle_world, player)
    if each:
        pools = _field(entry, "power", player)
        wrong = {k: pools.get(k) for k in DECKS if pools.get(k) != want}
        if wrong:
            raise RuleViolation(f"{player}'s Monarch Power: {dict(pools)}; expected {want} of each")
        return
    if power:
        what, got = f"{player}'s {power} power", _field(entry, "power", player).get(power)
    else:
        what, got = f"{player}'s ducats", _field(entry, "ducats", player)
    if got != want:
        raise RuleViolation(f"{what}: {got}; expected {want}")


@given(parsers.re(
    rf"(?P<player>{NAME}) has (?P<amount>just enough|one too few) (?P<what>Monarch Power|Ducats)"
    rf" for (?:(?P<card>{CARD})|{ACTION})"
))
@requires(lambda world, what, **_: [f"{GAME}/monarch-power" if what == "Monarch Power"
                                    else f"{GAME}/ducats"])
def _afford(oracle_world: ScenarioWorld, player: str, amount: str, what: str,
            card: str | None, action: str | None, sort: str | None, host: str | None,
            spends: str | None, effect: str | None) -> None:
    """Just the cost printed on a card (or an Action of it), or one less: a card costs
    Monarch Power of its deck's type and maybe Ducats, an Action power of its own type."""
    if card is not None:
        name, listed = card_name(oracle_world, card), None
    else:
        name, listed = listed_action(oracle_world, action, sort, host, spends, effect)
    kind, power_cost, ducat_cost = cost_of(oracle_world, name, listed)
    cost = power_cost if what == "Monarch Power" else ducat_cost
    if amount == "one too few" and cost < 1:
        raise ScenarioError(f"{name!r} costs no {what}: nobody has one too few; bind the card "
                            "to a class whose cards cost some")
    n = cost - (amount == "one too few")
    entry = oracle_world.player(player)
    if what == "Monarch Power":
        entry.setdefault("power", {})[kind] = n
    else:
        entry["ducats"] = n


@then(parsers.re(
    rf"(?P<player>{NAME}) has paid (?:(?P<what>the cost|the Monarch Power cost|the Ducat cost)"
    rf" of|(?P<nothing>nothing) for) {PAID_FOR}(?:, less (?P<less>\w+))?"
))
@requires(lambda world, what=None, **_: [
    f"{GAME}/monarch-power", *([f"{GAME}/ducats"] if what in ("the cost", "the Ducat cost")
                               else [])])
def _paid(oracle_world: ScenarioWorld, player: str, what: str | None, nothing: str | None,
          card: str | None, host: str | None, less: str | None) -> None:
    """What a player paid for a card (or the Action last taken on a Display Card), from the
    referee's view before it was played (or appointed) to now: its Monarch Power cost from
    the pool of its type and nothing from the others, and its Ducat cost. Ducats are only
    compared for a card that has a Ducat cost (a card's effect may give Ducats)."""
    if card is not None:
        name, listed = card_name(oracle_world, card), None
        _sent, before = _last_sent(oracle_world, player, name, ("play", "appoint"))
    else:
        name = card_name(oracle_world, str(host))
        sent, before = _last_sent(oracle_world, player, name, ("use",))
        listed = next(a for a in fact(oracle_world, name).get("actions") or []
                      if a.get("name") == sent.get("action"))
    kind, power_cost, ducat_cost = cost_of(oracle_world, name, listed)
    cut = parse_count(less) if less else 0
    paid = {k: 0 for k in DECKS}
    if not nothing:
        paid[kind] = max(0, power_cost - cut)
    old = _referee_player(oracle_world, player, before)
    now = _referee_player(oracle_world, player)
    if what != "the Ducat cost":
        for deck in DECKS:
            want = _field(old, "power", player).get(deck, 0) - paid[deck]
            got = _field(now, "power", player).get(deck)
            if got != want:
                raise RuleViolation(f"{player}'s {deck} power is {got}; expected {want} after "
                                    f"paying for {name!r} ({_say_cost(kind, power_cost)})")
    if what == "the Ducat cost" or (ducat_cost and what != "the Monarch Power cost"):
        want = old["ducats"] - (0 if nothing else max(0, ducat_cost - cut))
        if now.get("ducats") != want:
            raise RuleViolation(f"{player} has {now.get('ducats')} ducats; expected {want} "
                                f"after paying for {name!r} ({ducat_cost} Ducats)")


def _say_cost(kind: str, amount: int) -> str:
    return f"it costs {amount} {kind} power"


@given(parsers.re(
    rf"(?P<player>{NAME})'s (?P<kind>{POWER}|ducat) costs are reduced by (?P<n>\w+)"
    r"(?: by a game effect)?"
))
@requires(lambda world, **_: [f"{GAME}/cost-reductions"])
def _cost_reduction(oracle_world: ScenarioWorld, player: str, kind: str, n: str) -> None:
    """A game effect that lowers a player's costs of one kind (6.action-cards.5).

    Example: Given Alice's diplomatic costs are reduced by 1 by a game effect
    """
    key = "ducats" if kind == "ducat" else kind
    oracle_world.player(player).setdefault("cost_reductions", {})[key] = parse_count(n)


# -- Given and Then: Display Cards -------------------------------------------------------------


def _display_needs(world: ScenarioWorld, card: str | None = None, **_: Any) -> list[str]:
    return [f"{GAME}/display", *card_needs(world, card)]


@given(parsers.re(DISPLAY))
@requires(_display_needs)
@plays("card")
def _set_display(oracle_world: ScenarioWorld, player: str, card: str | None,
                 charges: str | None, full: str | None, count: str | None,
                 viewer: str | None) -> None:
    """A Display Card already in play (placed on an earlier Turn); charges default to the
    card's.

    Example: Given Alice has "Royal Manufactory" on display with 2 charges
    """
    if viewer:
        raise ScenarioError("'as seen by' belongs in a Then step")
    entry = oracle_world.player(player)
    if card is None:
        if parse_count(count or "0") != 0:
            raise ScenarioError("name each Display Card in play: "
                                "Alice has card A on display with 2 charges")
        entry["display"] = []
        return
    display: dict[str, Any] = {"card": card_name(oracle_world, card)}
    if charges is not None:
        display["charges"] = parse_count(charges)
    entry.setdefault("display", []).append(display)


@then(parsers.re(DISPLAY))
@requires(_display_needs)
@plays("card")
def _check_display(oracle_world: ScenarioWorld, player: str, card: str | None,
                   charges: str | None, full: str | None, count: str | None,
                   viewer: str | None) -> None:
    """What a player has on display, as the referee or one viewer sees it (it is face up);
    'fully charged' is as many charges as the card shows squares.

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
    name = card_name(oracle_world, card)
    if viewer is not None:
        truth = oracle_world.view(REFEREE)["players"][player]["display"]
        if shown != list(truth):
            raise RuleViolation(f"{player}'s display as seen by {viewer} is {shown}, but it is "
                                f"{list(truth)}: Display Cards are face up",
                                concept="display-public")
    entry = next((d for d in shown if d.get("card") == name), None)
    if entry is None:
        raise RuleViolation(f"{player} has {names or 'nothing'} on display{seen_by}; expected "
                            f"{name!r}")
    want_charges = (int(fact(oracle_world, name).get("charges", 0)) if full
                    else parse_count(charges) if charges is not None else None)
    if want_charges is not None and entry.get("charges") != want_charges:
        raise RuleViolation(f"{name!r} has {entry.get('charges')} charge(s){seen_by}; expected "
                            f"{want_charges}")


# -- Given and Then: characters ----------------------------------------------------------------


def _character_needs(world: ScenarioWorld, card: str | None = None, **_: Any) -> list[str]:
    return [f"{GAME}/appoint", *card_needs(world, card)]


@given(parsers.re(CHARACTER))
@requires(_character_needs)
@plays("card")
def _set_character(oracle_world: ScenarioWorld, player: str, card: str | None,
                   role: str | None, none: str | None) -> None:
    """A character a player has already appointed.

    Example: Given Alice has "Royal Decree" as an advisor
    """
    entry = oracle_world.player(player)
    if none:
        entry[none] = []
    elif role == "character":
        raise ScenarioError(f'say whether {card} is appointed as an advisor or as a leader')
    else:
        entry.setdefault(f"{role}s", []).append(card_name(oracle_world, str(card)))


@then(parsers.re(CHARACTER))
@requires(_character_needs)
@plays("card")
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
    name = card_name(oracle_world, card) if card else None
    if name and name not in got:
        raise RuleViolation(f"{player}'s {key}: {got or 'none'}; expected {name!r} among them")


# -- Then: decks and discard piles -------------------------------------------------------------


def _decks(world: ScenarioWorld) -> Mapping[str, Any]:
    view = world.view(REFEREE)
    try:
        return {deck: view["decks"][deck] for deck in DECKS}
    except (KeyError, TypeError) as exc:
        raise EngineFault(f"the referee view has no decks.{exc}; see docs/protocol.md") from exc


def _cards_of(entry: Any, where: str) -> list[str]:
    cards = entry if isinstance(entry, list) else (entry or {}).get("cards")
    if cards is None:
        raise EngineFault(f"the referee view does not list the cards of {where}")
    return list(cards)


@then(parsers.re(rf"(?P<card>{CARD}) is on top of its deck's discard pile"))
def _on_top(oracle_world: ScenarioWorld, card: str) -> None:
    """A discarded card lies face up on top of the discard pile of the deck it belongs to."""
    name = card_name(oracle_world, card)
    deck = str(fact(oracle_world, name)["deck"])
    pile = _cards_of(_decks(oracle_world)[deck]["discard"], f"the {deck} discard pile")
    if pile[:1] != [name]:
        raise RuleViolation(f"the {deck} discard pile is {describe_cards(pile)}; expected "
                            f"{name!r} on top")


@then("every discard pile is empty")
def _no_discards(oracle_world: ScenarioWorld) -> None:
    decks = _decks(oracle_world)
    full = {d: _cards_of(e["discard"], f"the {d} discard pile") for d, e in decks.items()}
    full = {d: cards for d, cards in full.items() if cards}
    if full:
        raise RuleViolation("discarded: " + "; ".join(
            f"the {d} discard pile is {describe_cards(c)}" for d, c in full.items()))


@then("each deck holds only its own cards")
def _own_cards(oracle_world: ScenarioWorld) -> None:
    """6.decks.1: the three decks are kept apart; every card is in the deck it belongs to."""
    known = facts(oracle_world)
    for deck, entry in _decks(oracle_world).items():
        stray = [c for c in _cards_of(entry["draw"], f"the {deck} deck")
                 if c in known and known[c]["deck"] != deck]
        if stray:
            raise RuleViolation(f"the {deck} deck holds {describe_cards(stray)}, of another "
                                "deck")


@then("no deck is empty")
def _decks_not_empty(oracle_world: ScenarioWorld) -> None:
    empty = [d for d, e in _decks(oracle_world).items()
             if not _cards_of(e["draw"], f"the {d} deck")]
    if empty:
        raise RuleViolation(f"the {' and '.join(empty)} deck(s) are empty")


# -- Given: battles --------------------------------------------------------------------------------


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
    battle: dict[str, Any] = {"attackers": parse_names(attackers),
                              "defenders": parse_names(defenders)}
    for name in (*battle["attackers"], *battle["defenders"]):
        oracle_world.player(name)
    if step:
        battle["step"] = step
    oracle_world.given()["battle"] = battle


# -- When ------------------------------------------------------------------------------------


@when(parsers.re(rf"(?P<player>{NAME}) appoints (?P<card>{CARD})"))
@requires(lambda world, card, **_: [f"{GAME}/appoint", *card_needs(world, card)])
@plays("card")
def _appoint(oracle_world: ScenarioWorld, player: str, card: str) -> None:
    """The Appoint Advisor/Leader Action: the card is used for its character (6.action-cards.8).

    Example: When Alice appoints "Royal Decree"
    """
    name = card_name(oracle_world, card)
    oracle_world.act(f'{player} appoints "{name}"',
                     {"type": "appoint", "player": player, "card": name})


def _use_needs(world: ScenarioWorld, action: str | None, sort: str | None, host: str | None,
               spends: str | None, effect: str | None = None, cancel: str | None = None,
               **_: Any) -> list[str]:
    """An Action named by its sort needs only its card (which may be a class left open, in a
    capability map); a quoted one, the card that lists it."""
    card = (card_name(world, host) if host is not None
            else listed_action(world, action, sort, host, spends, effect)[0])
    return [f"{GAME}/display", f"{GAME}/card/{card}", *card_needs(world, cancel)]


@when(parsers.re(
    rf"(?P<player>{NAME}) (?P<verb>uses|starts using) {ACTION}"
    r"(?: (?P<how>targeting|choosing) (?P<target>.+?))?"
    rf"(?: and (?P<canceller>{NAME}) cancels it with (?P<cancel>{CARD}))?"
))
@requires(_use_needs)
@plays("host", "cancel")
def _use(oracle_world: ScenarioWorld, player: str, verb: str, action: str | None,
         sort: str | None, host: str | None, spends: str | None, effect: str | None,
         how: str | None, target: str | None, canceller: str | None,
         cancel: str | None) -> None:
    """Take an Action listed on a Display Card; like 'plays', it can be cancelled.

    Example: When Alice uses "Support Rebels" and Bob cancels it with "Counterespionage"
    """
    card, listed = listed_action(oracle_world, action, sort, host, spends, effect)
    name = str(listed["name"])
    message: dict[str, Any] = {"type": "use", "player": player, "card": card, "action": name}
    if target:
        message["targets"] = parse_target(oracle_world, target)
    cancel_name = card_name(oracle_world, cancel) if cancel else None
    # A Counterespionage names what it counters as being_played shows it: the Display Card
    # (docs/protocol.md, EU), as "Bob plays "Counterespionage" targeting card A" does.
    play_and_pass(oracle_world, f'{player} uses "{name}" of "{card}"', message, name=card,
                  leave_open=verb == "starts using", canceller=canceller, cancel=cancel_name)


@when(parsers.re(rf"(?P<player>{NAME})'s turn comes round again"))
def _round_the_table(oracle_world: ScenarioWorld, player: str) -> None:
    """Every player ends their Turn in seat order until it is ``player``'s Turn again."""
    seats = [p["name"] for p in oracle_world.state["players"]]
    for _ in range(len(seats)):
        active = oracle_world.view(REFEREE).get("active_player")
        if active not in seats:
            raise RuleViolation(f"no player's Turn is under way (active player: {active!r})")
        oracle_world.act(f"{active} ends their turn", {"type": "end_turn", "player": active})
        if oracle_world.view(REFEREE).get("active_player") == player:
            return
    raise RuleViolation(f"{player}'s Turn did not come round after every player ended theirs")


@when(parsers.re(rf"(?P<player>{NAME}) chooses to keep all but (?P<cards>.+)"))
def _keep_all_but(oracle_world: ScenarioWorld, player: str, cards: str) -> None:
    """Answer Step C's decision by naming the cards to let go: every other card is kept."""
    gone = oracle_world.names(parse_cards(cards))
    _count, seen = oracle_world.hand(player, player)
    keep = list(seen)
    for card in gone:
        if card not in keep:
            raise ScenarioError(f"{player} does not hold {card!r} to let it go")
        keep.remove(card)
    oracle_world.choose(f"{player} keeps {describe_cards(keep)}", player, {"keep": keep})


@when("Phase 5, Step C is resolved")
@requires(lambda world, **_: [f"{GAME}/hand-limit"])
def _step_c(oracle_world: ScenarioWorld) -> None:
    """Cleanup, Step C: every player discards down to the hand limit (6.cards-in-hand.2).

    Example: When Phase 5, Step C is resolved
    """
    oracle_world.act("Phase 5, Step C is resolved", {"type": "discard_down"})


@when(parsers.re(
    r"the set-up (?:draw is resolved, each player choosing (?P<deck>(?:administrative|diplomatic|"
    r"military)(?:(?:, | and )(?:administrative|diplomatic|military))*) for their 3 other cards"
    r"|(?P<hold>hold is resolved))"
))
@requires(lambda world, **_: [f"{GAME}/setup"])
@takes(deck="decks")
def _setup(oracle_world: ScenarioWorld, deck: str | None, hold: str | None) -> None:
    """The set-up's Action Cards (3.0, step 4), which replace Phase 1 of the first Round:
    the draw (each player, in Turn order, 1 card of each deck and 3 of their choice: all
    from one deck, or one deck named per card, 'choosing military, diplomatic and
    administrative'), then, after any Appointing, the hold (each player keeps up to the
    set-up's number of cards, discarding the rest).

    Example: When the set-up draw is resolved, each player choosing military for their 3 other cards
    Example: When the set-up hold is resolved
    """
    if hold:
        oracle_world.act("the set-up hold is resolved", {"type": "setup_hold"})
        return
    players = [p["name"] for p in oracle_world.state["players"]]
    decks = parse_names(str(deck))
    if len(decks) not in (1, 3):
        raise ScenarioError("name one deck for the 3 other cards, or one deck for each")
    picks = decks * 3 if len(decks) == 1 else decks
    oracle_world.act(f"the set-up draw is resolved, {deck} chosen",
                     {"type": "setup_draw", "choices": {p: list(picks) for p in players}})


@when(parsers.re(
    r'(?:the battle moves to its "(?P<step>[^"]+)" step'
    r"|(?P<round>a new round of battle begins)|(?P<end>the battle ends)"
    rf"|(?P<passer>{NAME})'s side passes)"
))
@requires(lambda world, passer=None, **_: [f"{GAME}/battle", f"{GAME}/battle-pass"] if passer
          else [f"{GAME}/battle"])
def _battle_goes_on(oracle_world: ScenarioWorld, step: str | None, round: str | None,
                    end: str | None, passer: str | None) -> None:
    """The Battle moves on: to a later step, to a new Round, or to its end; or a side
    passes in the "Play Battle Actions" step, having played what it wished this Round.

    Example: When the battle moves to its "Roll Battle Dice" step
    Example: When a new round of battle begins
    Example: When Alice's side passes
    """
    if passer:
        oracle_world.act(f"{passer}'s side passes", {"type": "battle_pass", "player": passer})
    elif step:
        oracle_world.act(f'the battle moves to its "{step}" step',
                         {"type": "battle_step", "step": step})
    elif round:
        oracle_world.act("a new round of battle begins", {"type": "battle_round"})
    else:
        oracle_world.act("the battle ends", {"type": "battle_end"})


@then(parsers.re(rf"the effect of the action taken on (?P<host>{CARD}) (?P<neg>has not|has) "
                 r"happened"))
@requires(lambda world, **_: [f"{GAME}/ducats"])
def _action_effect(oracle_world: ScenarioWorld, host: str, neg: str) -> None:
    """The effect of the Action last taken on a Display Card (the stand-ins' effects give
    Ducats), measured from the referee's view before it was taken."""
    card = card_name(oracle_world, host)
    action, before = next(((a, b) for _t, k, a, r, b, _ in reversed(oracle_world.history)
                           if k == "use" and a.get("card") == card
                           and not isinstance(r, Rejected)), ({}, {}))
    if not action:
        raise ScenarioError(f"no Action of {card!r} was taken in this scenario")
    listed = next(a for a in fact(oracle_world, card).get("actions") or []
                  if a.get("name") == action.get("action"))
    gain = int((listed.get("effect") or {}).get("ducats") or 0)
    if not gain:
        raise ScenarioError(f"{listed.get('name')!r} has no visible effect; take an action "
                            f"of {host} that has an effect")
    player = str(action["player"])
    want = _referee_player(oracle_world, player, before)["ducats"] + (gain if neg == "has"
                                                                      else 0)
    got = _referee_player(oracle_world, player)["ducats"]
    if got != want:
        raise RuleViolation(f"{player} has {got} ducats; expected {want} ("
                            f"{listed.get('name')!r} gives {gain}"
                            + (")" if neg == "has" else ", but it was prevented)"))


@then(parsers.re(rf"(?P<viewer>{VIEWER}) sees none of the cards in (?P<owner>{NAME})'s hand"))
def _hand_secret(oracle_world: ScenarioWorld, viewer: str, owner: str) -> None:
    """6.cards-in-hand.1: the cards of a hand are secret from every other viewer. How many
    cards it holds is not checked: this chapter does not say that it is public, so an engine
    that hides the size too breaks no rule."""
    truth = oracle_world.view(REFEREE)["players"][owner]["hand"].get("cards") or []
    if not truth:
        raise ScenarioError(f"{owner} holds no cards: there is nothing for {viewer} not to see; "
                            f"give {owner} some cards first")
    seen = oracle_world.view(None if viewer == "a spectator" else viewer)
    shown = list((seen["players"][owner]["hand"] or {}).get("cards") or [])
    if shown:
        raise RuleViolation(f"{viewer} sees {describe_cards(shown)} in {owner}'s hand",
                            concept="hand-hidden")


# -- Then: battles -------------------------------------------------------------------------------


@then(parsers.re(rf"(?P<player>{NAME})'s side has the dice of (?P<cards>.+) from battle "
                 r"actions"))
@requires(lambda world, **_: [f"{GAME}/battle"])
def _dice_of(oracle_world: ScenarioWorld, player: str, cards: str) -> None:
    """The Battle Dice those Battle Action cards give, as they were played in this scenario
    (their die icons, and the types chosen for "?" icons), and no others."""
    names = oracle_world.names(parse_cards(cards))
    want: Counter[str] = Counter()
    for name in names:
        play = next((a for _t, k, a, r, _b, _a in oracle_world.history if k == "play"
                     and a.get("card") == name and not isinstance(r, Rejected)), None)
        if play is None:
            raise ScenarioError(f"{name!r} was not played in this scenario")
        icons = [d for d in fact(oracle_world, name).get("dice") or [] if d != "?"]
        want.update(icons + list((play.get("targets") or {}).get("dice") or []))
    _expect_dice(oracle_world, player, want, 0, f"the dice of {describe_cards(names)}")


@then(parsers.re(rf"(?P<player>{NAME})'s side has (?P<dice>(?!the dice of ).+) from battle "
                 r"actions"))
@requires(lambda world, **_: [f"{GAME}/battle"])
def _battle_dice(oracle_world: ScenarioWorld, player: str, dice: str) -> None:
    """The Battle Dice a side has gained from Battle Actions (6.2.battle.4-6).

    Example: Then Alice's side has a cavalry die and an infantry die from battle actions
    """
    typed, untyped = parse_dice(dice)
    _expect_dice(oracle_world, player, typed, untyped, dice)


def _expect_dice(oracle_world: ScenarioWorld, player: str, typed: Counter[str], untyped: int,
                 dice: str) -> None:
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

