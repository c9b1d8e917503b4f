"""Reading the EU referee views for the diagnostics: players, piles, what was played and
resolved, costs. Private to this package (hence the underscores): shared by its modules, and
no diagnostic lives here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from oracle.games.eu_pop.cards import DECKS, CardFact, card_facts_by_name
from oracle.scenario.diagnosis import (
    Transition,
    discard_pile,
    gained,
    hand,
)

COUNTERESPIONAGE = "Counterespionage"
PLAY_BATTLE_ACTIONS = "Play Battle Actions"
HAND_LIMIT = 5
PLAYS = frozenset({"play", "use"})
FACTS: dict[str, CardFact] = card_facts_by_name()


def _player(view: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    return view["players"][name]


def _power(view: Mapping[str, Any], name: str) -> dict[str, int]:
    return {d: int(_player(view, name)["power"][d]) for d in DECKS}


def _display(view: Mapping[str, Any], name: str) -> list[Mapping[str, Any]]:
    return list(_player(view, name)["display"])


def _charges(view: Mapping[str, Any], name: str, card: str) -> int | None:
    return next((int(d["charges"]) for d in _display(view, name) if d["card"] == card), None)


def _reduction(view: Mapping[str, Any], name: str, kind: str) -> int:
    return int((_player(view, name).get("cost_reductions") or {}).get(kind, 0))


def _discarded(t: Transition) -> dict[str, list[str]]:
    """Per deck, the cards its discard pile gained in a transition."""
    return {d: gained(discard_pile(t.before, d), discard_pile(t.after, d)) for d in DECKS}


def _all_discarded(t: Transition) -> list[str]:
    return [c for cards in _discarded(t).values() for c in cards]


def _stack(history: Sequence[Transition], i: int) -> list[Transition]:
    """The accepted plays and uses since the last resolve before ``history[i]``: the cards
    being played, bottom first."""
    out: list[Transition] = []
    for t in reversed(history[:i]):
        if t.kind == "resolve" and t.accepted:
            break
        if t.kind in PLAYS and t.accepted:
            out.append(t)
    return out[::-1]


def _name(t: Transition) -> str:
    return str(t.action.get("action") or t.action.get("card"))


def _countered(stack: list[Transition]) -> set[int]:
    """Which plays of the stack a Counterespionage countered: resolved from the top, a
    Counterespionage that was not itself countered counters the card or Action it names (the
    latest of that name below it), or else the play just below it."""
    out: set[int] = set()
    for top in range(len(stack) - 1, -1, -1):
        t = stack[top]
        if top in out or t.kind != "play" or t.action.get("card") != COUNTERESPIONAGE:
            continue
        wanted = (t.action.get("targets") or {}).get("card")
        below = [j for j in range(top) if wanted is None
                 or wanted in (stack[j].action.get("card"), stack[j].action.get("action"))]
        if below:
            out.add(below[-1])
    return out


def _resolved(history: Sequence[Transition], i: int) -> list[tuple[Transition, bool]]:
    """The plays a resolve resolved (those no longer being played), each with whether it was
    countered."""
    t = history[i]
    stack = _stack(history, i)
    left = len(t.after.get("being_played") or [])
    countered = _countered(stack)
    return [(p, j in countered) for j, p in enumerate(stack) if j >= left]


def _cost(t: Transition) -> tuple[str, int, int]:
    fact = FACTS[t.action["card"]]
    if t.kind == "use":
        listed = fact.action(t.action["action"])
        if listed is None:
            raise KeyError(t.action["action"])
        return listed.power, listed.cost, 0
    return fact.deck, fact.cost, fact.ducats


def _spent(t: Transition, player: str) -> dict[str, int]:
    before, after = _power(t.before, player), _power(t.after, player)
    spent = {d: before[d] - after[d] for d in DECKS}
    spent["ducats"] = int(_player(t.before, player)["ducats"]) - int(
        _player(t.after, player)["ducats"])
    return spent


def _effect(play: Transition) -> int:
    fact = FACTS[play.action["card"]]
    if play.kind == "use":
        listed = fact.action(play.action["action"])
        return listed.effect_ducats if listed else 0
    return fact.effect_ducats


def _affordable(t: Transition) -> bool:
    """Could the player pay the card's printed cost (reduced, never below 0)?"""
    player = t.action["player"]
    kind, cost, ducats = _cost(t)
    have = _power(t.before, player)[kind]
    return (have >= max(0, cost - _reduction(t.before, player, kind))
            and int(_player(t.before, player)["ducats"])
            >= max(0, ducats - _reduction(t.before, player, "ducats")))


def _free_to_play(t: Transition) -> bool:
    """The card is in its player's hand, they can pay for it and owe no decision."""
    player = t.action["player"]
    owes = any(p.get("player") == player for p in t.before.get("pending") or [])
    return t.action["card"] in hand(t.before, player) and _affordable(t) and not owes


def _icons(play: Transition) -> tuple[str, ...]:
    fact = FACTS[play.action["card"]]
    if play.kind == "use":
        listed = fact.action(play.action["action"])
        return listed.dice if listed else ()
    return fact.dice


def _kinds(t: Transition) -> frozenset[str]:
    fact = FACTS[t.action["card"]]
    if t.kind == "use":
        listed = fact.action(t.action["action"])
        return listed.kinds if listed else frozenset()
    return fact.kinds


def _side(view: Mapping[str, Any], player: str) -> str:
    battle = view["battle"]
    for side in ("attackers", "defenders"):
        if player in battle[side]:
            return side
    raise KeyError(f"{player} is in no side of the Battle")


def _side_dice(view: Mapping[str, Any], player: str) -> list[str]:
    battle = view["battle"]
    side = "attackers" if player in battle["attackers"] else "defenders"
    return list(battle["dice"][side])


def _in_play_step(view: Mapping[str, Any]) -> bool:
    battle = view.get("battle")
    return bool(battle) and battle.get("step") == PLAY_BATTLE_ACTIONS


def _battle_card(t: Transition) -> bool:
    return t.kind == "play" and "battle_action" in FACTS[t.action["card"]].kinds


def _display_pending(view: Mapping[str, Any], name: str) -> bool:
    return any(p.get("player") == name and p.get("decision") == "discard"
               for p in view.get("pending") or [])


def _keeps(view: Mapping[str, Any]) -> set[str]:
    return {p.get("player") for p in view.get("pending") or [] if p.get("decision") == "keep"}


def _characters(view: Mapping[str, Any], name: str) -> dict[str, list[str]]:
    entry = _player(view, name)
    return {"advisor": list(entry["advisors"]), "leader": list(entry["leaders"])}


def _used_this_round(history: Sequence[Transition], i: int, side: list[str],
                     ends: tuple[str, ...] = ("battle_round", "battle_end")) -> list[str]:
    """The Battle Actions the players of ``side`` have used since the Round began (or, with
    ``ends=("battle_end",)``, since the Battle began)."""
    used: list[str] = []
    for t in reversed(history[:i]):
        if t.kind in ends and t.accepted:
            break
        if t.kind in PLAYS and t.accepted and t.action.get("player") in side and any(
                k == "battle_action" for k in _kinds(t)):
            used.append(_name(t))
    return used
