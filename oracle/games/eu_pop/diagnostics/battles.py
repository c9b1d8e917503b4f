"""EU diagnostics of Battles (6.2.battle), and of refusals: a Reaction, a Counterespionage,
an appointment or a Battle Action card refused although its rule allows it (6.2.reactions.1,
6.2.covert.2, 6.action-cards.7, 6.2.battle.2-3), an appointment refused after the Turn's
Action (6.action-cards.2's Minor Actions)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from oracle.games.eu_pop.cards import ANY_DIE
from oracle.games.eu_pop.diagnostics.reading import (
    COUNTERESPIONAGE,
    FACTS,
    PLAYS,
    _affordable,
    _battle_card,
    _charges,
    _display,
    _free_to_play,
    _icons,
    _in_play_step,
    _kinds,
    _name,
    _resolved,
    _side,
    _side_dice,
    _used_this_round,
)
from oracle.scenario.diagnosis import (
    Transition,
    contains,
    gained,
    hand,
)


def dice_per_icon(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.5: a Battle Action card adds one die of each type it shows."""
    t = history[i]
    if not _in_play_step(t.before) or not t.after.get("battle"):
        return None
    for play, countered in _resolved(history, i):
        fixed = [d for d in _icons(play) if d != ANY_DIE]
        if countered or not fixed or play.kind != "play":
            continue
        player = play.action["player"]
        _side(t.before, player)
        got = gained(_side_dice(t.before, player), _side_dice(t.after, player))
        if not contains(got, fixed) or (len(got) > len(_icons(play))
                                        and ANY_DIE not in _icons(play)):
            return f"{_name(play)!r} shows {fixed} (and '?' icons) and added {got}"
    return None


def _defenders_played(history: Sequence[Transition], i: int,
                      ends: tuple[str, ...] = ("battle_round", "battle_end")) -> bool:
    """Whether a defender of the Battle before ``history[i]`` has used a Battle Action this
    Round (or, with ``ends=("battle_end",)``, in this Battle)."""
    battle = history[i].before.get("battle")
    return bool(battle) and bool(_used_this_round(history, i, list(battle["defenders"]), ends))


def _attacker_too_late(history: Sequence[Transition], i: int) -> bool:
    """9.6 step 2, "Attacker first, then defender": an attacker's Battle Action card after a
    defender's in the same Round."""
    t = history[i]
    battle = t.before.get("battle")
    return (bool(battle) and t.action["player"] in battle["attackers"]
            and _defenders_played(history, i))


def battle_action_moment(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.1: a Battle Action card is played in a Battle's "Play Battle Actions" step,
    the attacker before the defender (9.6 step 2)."""
    t = history[i]
    if _battle_card(t) and not _in_play_step(t.before):
        battle = t.before.get("battle")
        where = f"the {battle.get('step')!r} step" if battle else "no Battle"
        return f"Battle Action {_name(t)!r} was played in {where}"
    if _battle_card(t) and _attacker_too_late(history, i):
        return (f"attacker {t.action['player']} played Battle Action {_name(t)!r} after the "
                "defender had played one this Round")
    return None


def battle_action_involved(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.2: a Battle Action card is played by a player involved in the Battle."""
    t = history[i]
    battle = t.before.get("battle")
    if _battle_card(t) and battle and t.action["player"] not in (
            [*battle["attackers"], *battle["defenders"]]):
        return f"{t.action['player']}, who is not in the Battle, played {_name(t)!r}"
    return None


def battle_action_once(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.3: a side benefits from one use of a particular Battle Action a Round."""
    t = history[i]
    if not _battle_card(t) or not t.before.get("battle"):
        return None
    side = t.before["battle"][_side(t.before, t.action["player"])]
    if _name(t) in _used_this_round(history, i, list(side)):
        return f"{t.action['player']}'s side used {_name(t)!r} twice in one Round of Battle"
    return None


def _counter_target(view: Mapping[str, Any], targets: Mapping[str, Any]
                    ) -> Mapping[str, Any] | None:
    wanted = targets.get("card")
    for entry in reversed(view.get("being_played") or []):
        if wanted is None or wanted in (entry.get("card"), entry.get("action")):
            return entry
    return None


def _is_covert(entry: Mapping[str, Any]) -> bool:
    fact = FACTS[entry["card"]]
    if entry.get("action"):
        listed = fact.action(entry["action"])
        return bool(listed) and "covert" in listed.kinds
    return "covert" in fact.kinds


def counter_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.2.covert.2: a Covert Action being played, a card or an Action on a Display Card, can
    be countered by Counterespionage (refused: held, paid for, aimed at a Covert Action)."""
    t = history[i]
    if t.action["card"] != COUNTERESPIONAGE or not _free_to_play(t):
        return None
    target = _counter_target(t.before, t.action.get("targets") or {})
    if target is not None and _is_covert(target):
        aimed = target.get("action") or target["card"]
        return f"Counterespionage aimed at Covert Action {aimed!r} was refused"
    return None


def _turn_began(history: Sequence[Transition], i: int, player: str) -> int | None:
    """Where ``player``'s Turn began in the scenario (the accepted end of the Turn before),
    if it did and they have not taken an Action that takes the Turn since."""
    for j in range(i - 1, -1, -1):
        t = history[j]
        if not t.accepted or (t.action.get("player") != player and t.kind != "end_turn"):
            continue
        if t.kind == "end_turn":
            return j if t.after.get("active_player") == player else None
        if t.kind in PLAYS and not _kinds(t) & {"reaction", "battle_action"}:
            return None
    return None


def _takes_the_turn_and_may(t: Transition, began: Transition) -> bool:
    """Nothing but the Turn could forbid ``t``: the card is held (or, for an Action, on
    display since before the Turn began, which the view counts as a later Turn, with the
    charges it needs), paid for, not a Reaction or Battle Action, and no Display Card already
    in play is played again."""
    player, card = t.action["player"], t.action["card"]
    if _kinds(t) & {"reaction", "battle_action"} or not _affordable(t):
        return False
    if t.kind == "play":
        on_display = [d["card"] for d in _display(t.before, player)]
        return card in hand(t.before, player) and card not in on_display
    listed = FACTS[card].action(t.action["action"])
    charges = _charges(t.before, player, card)
    later = int(began.after["turn"]) > int(began.before["turn"])  # 6.2.display.4's later Turn
    return (listed is not None and charges is not None and charges >= listed.uses
            and _charges(began.before, player, card) is not None and later)


def turn_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.2: a Turn allows one Action that takes it: a card played for its Action
    (or an Action on a Display Card) at the start of the player's Turn, in the Action Phase,
    is refused only if something else forbids it."""
    t = history[i]
    player = t.action["player"]
    before = t.before
    if (before.get("phase") != "action" or before.get("active_player") != player
            or before.get("being_played") or t.action.get("card") == COUNTERESPIONAGE
            or any(p.get("player") == player for p in before.get("pending") or [])):
        return None
    began = _turn_began(history, i, player)
    if began is None or not _takes_the_turn_and_may(t, history[began]):
        return None
    return f"{player}'s Turn came round and {_name(t)!r}, which takes the Turn, was refused"


def _reacted_this_turn(history: Sequence[Transition], i: int, began: int) -> bool:
    """Whether a Reaction was played or used (by anyone), accepted, since the Turn began."""
    return any(t.accepted and t.kind in PLAYS and "reaction" in _kinds(t)
               for t in history[began + 1:i])


def turn_refused_after_reaction(history: Sequence[Transition], i: int) -> str | None:
    """6.2.reactions.1: a Reaction interrupts play and leaves the Turn as it was: a card (or
    Display Card Action) that takes the Turn, refused at the start of its player's Turn
    after a Reaction (anyone's) and nothing else that takes it, when nothing else forbids it
    (the refusal ``turn_refused`` judges, with a Reaction in the Turn before it)."""
    t = history[i]
    player = t.action["player"]
    began = _turn_began(history, i, player)
    if began is None or not turn_refused(history, i) or not _reacted_this_turn(
            history, i, began):
        return None
    return (f"{player}'s {_name(t)!r}, which takes the Turn, was refused after a Reaction in "
            "their Turn, which does not take it")


def _reaction_entry(entry: Mapping[str, Any]) -> bool:
    """Whether a being-played entry is a Reaction (a card, or an Action on a Display Card)."""
    fact = FACTS.get(entry.get("card"))
    listed = fact.action(entry["action"]) if fact and entry.get("action") else None
    kinds = listed.kinds if listed else fact.kinds if fact else frozenset()
    return "reaction" in kinds


def reaction_keeps_the_turn(history: Sequence[Transition], i: int) -> str | None:
    """6.2.reactions.1: a Reaction interrupts play; the Turn goes on: a Reaction of the active
    player, played or resolved (with nothing but Reactions being played), leaves them the
    active player."""
    t = history[i]
    active = t.before.get("active_player")
    if not active or t.after.get("active_player") == active:
        return None
    if t.kind in PLAYS:
        mine = t.action.get("player") == active and "reaction" in _kinds(t)
    else:
        stack = list(t.before.get("being_played") or [])
        mine = bool(stack) and all(_reaction_entry(e) for e in stack) and any(
            e.get("player") == active for e in stack)
    if mine:
        return f"{active}'s Reaction ended their Turn"
    return None


def duplicate_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.2.display.9: a player never has 2 of the same Display Card in play: a Display Card
    another player has on display, refused at the start of its player's Turn when nothing
    else forbids it (the refusal ``turn_refused`` judges: held, paid for, not on its own
    player's display), was refused for the other player's copy."""
    t = history[i]
    card = t.action.get("card")
    if t.kind != "play" or not turn_refused(history, i):
        return None
    others = [p for p in t.before["players"] if p != t.action["player"]
              and any(d["card"] == card for d in _display(t.before, p))]
    if not others:
        return None
    return f"{card!r} was refused while {others[0]}, not its player, had one on display"


def display_mark_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.2.display.6: a Display Card's Action marked as a Reaction or a Battle Action is
    treated as such: used at any moment (a Reaction), or by a player in the Battle in its
    "Play Battle Actions" step on anyone's Turn (a Battle Action), off its player's Turn too.
    Judges such a use refused although nothing else forbids it: on display with the charges
    it spends, paid for, nothing owed nor being played for a Battle Action; its side has not
    used it this Round, no defender played before an attacker, a type chosen per "?" icon."""
    t = history[i]
    if t.kind != "use":
        return None
    player, card = t.action["player"], t.action["card"]
    listed = FACTS[card].action(t.action["action"])
    charges = _charges(t.before, player, card)
    owes = any(p.get("player") == player for p in t.before.get("pending") or [])
    if (listed is None or charges is None or charges < listed.uses or owes
            or not _affordable(t)):
        return None
    if "reaction" in listed.kinds:
        return f"Reaction {listed.name!r} on {player}'s {card!r} was refused"
    if "battle_action" not in listed.kinds or not _in_play_step(t.before) \
            or t.before.get("being_played"):
        return None
    side = list(t.before["battle"][_side(t.before, player)])
    chosen = (t.action.get("targets") or {}).get("dice") or []
    if (_name(t) in _used_this_round(history, i, side, ("battle_end",))
            or _attacker_too_late(history, i) or _attacker_refused_next_round(history, i)
            or len(chosen) != list(_icons(t)).count(ANY_DIE)):
        return None
    return f"Battle Action {listed.name!r} on {player}'s {card!r}, in the Battle, was refused"


def _appoint_free(t: Transition) -> bool:
    """Nothing forbids the appointment but, maybe, the Turn: its player holds the card, it
    is their Turn of the Action Phase, and nothing is being played or owed."""
    player, card = t.action["player"], t.action["card"]
    owes = any(p.get("player") == player for p in t.before.get("pending") or [])
    return (card in hand(t.before, player) and t.before.get("phase") == "action"
            and t.before.get("active_player") == player and not owes
            and not t.before.get("being_played"))


def _turn_taken(history: Sequence[Transition], i: int, player: str) -> bool:
    """Whether ``player`` acted in this Turn before ``history[i]``, in a way an engine could
    count as taking the Turn: an accepted card or Display Card Action (not a Reaction nor a
    Battle Action) or appointment, with no end of Turn since."""
    for t in reversed(history[:i]):
        if not t.accepted:
            continue
        if t.kind == "end_turn":
            return False
        if t.action.get("player") == player and (
                t.kind == "appoint"
                or (t.kind in PLAYS and not _kinds(t) & {"reaction", "battle_action"})):
            return True
    return False


def appoint_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.7: every Action Card is dual-purpose: any card can be appointed (refused
    although its player holds it, it is their Turn of the Action Phase, nothing is being
    played or owed; a plain card refused after its player acted in the Turn is
    ``minor_action_refused``'s)."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    if _appoint_free(t) and not _for_the_turn(history, i):
        return f"{player} was refused appointing {card!r}, which they hold, in their Turn"
    return None


def _for_the_turn(history: Sequence[Transition], i: int) -> bool:
    """An appointment refused for the Turn, not for its card: a plain Action card (nothing
    marked, which 6.action-cards.7's "All" is about) after its player acted in the Turn."""
    t = history[i]
    card = t.action["card"]
    return (card in FACTS and FACTS[card].kinds == {"action"}
            and _turn_taken(history, i, t.action["player"]))


def minor_action_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.action-cards.2: playing a card for its Action takes up the Turn "not counting Minor
    Actions": an appointment (a Minor Action) of a plain Action card refused after its
    player's Action or another appointment in the same Turn, when nothing else forbids it, is
    refused for the Turn that sentence leaves free."""
    t = history[i]
    player, card = t.action["player"], t.action["card"]
    if _appoint_free(t) and _for_the_turn(history, i):
        return (f"{player} was refused appointing {card!r}, a Minor Action, after acting "
                "earlier in the Turn")
    return None


def reaction_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.2.reactions.1: a Reaction card is played at any moment, on any Turn (refused: the
    rule was not applied). Counterespionage, which needs a Covert Action to answer, is not
    judged."""
    t = history[i]
    card = t.action["card"]
    if ("reaction" in FACTS[card].kinds and card != COUNTERESPIONAGE and _free_to_play(t)):
        return f"Reaction {card!r} held by {t.action['player']}, who can pay for it, was refused"
    return None


def battle_card_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.2: a player involved in the Battle plays a Battle Action card in its "Play
    Battle Actions" step, on anyone's Turn (refused although nothing else forbids it: the card
    is theirs and paid for, their side has not used it this Round, no defender has played
    before an attacker, a type is chosen for each "?" icon)."""
    side = _refused_battle_card(history, i)
    if (side is None or _name(history[i]) in _used_this_round(history, i, side, ("battle_end",))
            or _attacker_refused_next_round(history, i)):
        return None
    return f"{history[i].action['player']}, in the Battle, was refused Battle Action " \
        f"{_name(history[i])!r}"


def _attacker_refused_next_round(history: Sequence[Transition], i: int) -> bool:
    """An attacker refused in a Round no defender has played in yet, after a defender played
    in an earlier Round of the Battle."""
    battle = history[i].before.get("battle")
    return (bool(battle) and history[i].action["player"] in battle["attackers"]
            and _defenders_played(history, i, ("battle_end",)))


def battle_order_refused(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.1: each Round of Battle goes back to the "Play Battle Actions" step (9.6),
    the attacker first: a defender's play in an earlier Round does not end the attacker's
    (refused although nothing else forbids it)."""
    side = _refused_battle_card(history, i)
    if (side is None or not _attacker_refused_next_round(history, i)
            or _name(history[i]) in _used_this_round(history, i, side, ("battle_end",))):
        return None  # (used in an earlier Round too: 6.2.battle.3 says whether rightly)
    return (f"attacker {history[i].action['player']} was refused Battle Action "
            f"{_name(history[i])!r} in a new Round, before the defender played")


def _refused_battle_card(history: Sequence[Transition], i: int) -> list[str] | None:
    """The player's side, if ``history[i]`` is a Battle Action card that nothing forbids:
    held and paid for, played in the "Play Battle Actions" step by a player in the Battle,
    unused by their side this Round, a type chosen for each "?" icon."""
    t = history[i]
    if not _battle_card(t) or not _in_play_step(t.before) or not _free_to_play(t):
        return None
    side = list(t.before["battle"][_side(t.before, t.action["player"])])
    chosen = (t.action.get("targets") or {}).get("dice") or []
    if (_name(t) in _used_this_round(history, i, side) or _attacker_too_late(history, i)
            or len(chosen) != list(_icons(t)).count(ANY_DIE)):
        return None
    return side


def battle_card_refused_next_round(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.3: the one use is per Round: a Battle Action card the side used in an
    earlier Round of the Battle is played again in a new Round (refused although nothing
    else forbids it)."""
    side = _refused_battle_card(history, i)
    if side is None or _name(history[i]) not in _used_this_round(history, i, side,
                                                                  ("battle_end",)):
        return None
    return f"{_name(history[i])!r}, used in an earlier Round, was refused in a new Round"


def chosen_die(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.6: a "?" die icon adds a die of the type its player chose."""
    t = history[i]
    if not t.before.get("battle") or not t.after.get("battle"):
        return None
    for play, countered in _resolved(history, i):
        chosen = list((play.action.get("targets") or {}).get("dice") or [])
        if countered or ANY_DIE not in _icons(play) or not chosen:
            continue
        got = gained(_side_dice(t.before, play.action["player"]),
                     _side_dice(t.after, play.action["player"]))
        if not contains(got, chosen):
            return f"{_name(play)!r} was played choosing {chosen} and added {got}"
        fixed = [d for d in _icons(play) if d != ANY_DIE]
        alone = len(_resolved(history, i)) == 1
        if alone and contains(got, fixed) and len(got) > len(fixed) + len(chosen):
            return f"{_name(play)!r} was played choosing {chosen} and added {got}"
    return None


def dice_stay(history: Sequence[Transition], i: int) -> str | None:
    """6.2.battle.4: dice gained from Battle Actions stay in the pool for the whole Battle."""
    t = history[i]
    before, after = t.before.get("battle"), t.after.get("battle")
    if not before or not after:
        return None
    for side in ("attackers", "defenders"):
        if not contains(list(after["dice"][side]), list(before["dice"][side])):
            return f"the {side} lost Battle Dice when the Battle went on"
    return None
