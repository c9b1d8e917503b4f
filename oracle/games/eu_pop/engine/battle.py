"""EU Battle Actions: played in a Battle's "Play Battle Actions" step, once per side and Round.

Why apart: Battles (6.2.battle.1-6) have their own moment, involvement and dice, and the
actions that move a Battle on (9.6) are only here so that scenarios can reach those moments.
"""

from __future__ import annotations

from typing import Any

from oracle.games.eu_pop.cards import ANY_DIE
from oracle.games.eu_pop.engine.state import (
    BATTLE_ANY_TYPE,
    BATTLE_INVOLVED,
    BATTLE_ONCE,
    BATTLE_STEP,
    BATTLE_STEPS,
    PLAY_BATTLE_ACTIONS,
    SIDES,
    Battle,
)
from oracle.games.kit import JSON, Rejected, Rejection, RequestError, need


class Battles:
    """Battle Actions, Battle Dice, and the steps and rounds of a Battle."""

    def side_of(self, name: str) -> str | None:
        """6.2.battle.2: the side a player fights on in the Battle, if they are involved."""
        battle = self.g.battle
        if battle is None:
            return None
        for side in SIDES:
            if name in getattr(battle, side):
                return side
        return None

    def check_battle_moment(self, name: str, what: str) -> Rejection | None:
        """6.2.battle.1: Battle Actions are played in a Battle's "Play Battle Actions" step."""
        battle = self.g.battle
        if battle is None:
            return Rejection(f"{what} is a Battle Action and no Battle is being fought",
                             BATTLE_STEP)
        if battle.step != PLAY_BATTLE_ACTIONS:
            return Rejection(f"{what} is a Battle Action; the Battle is in its {battle.step!r} "
                             f"step, not {PLAY_BATTLE_ACTIONS!r}", BATTLE_STEP)
        return None

    def check_battle_involvement(self, name: str, what: str) -> Rejection | None:
        """6.2.battle.2: any Battle you are involved in, even if it is not your Turn."""
        if self.side_of(name) is None:
            return Rejection(f"{name} is not involved in the Battle", BATTLE_INVOLVED)
        return None

    def check_battle_order(self, name: str, what: str) -> Rejection | None:
        """6.2.battle.1: the "Play Battle Actions" step is "Attacker first, then defender"
        (9.6 step 2): "The attacker must play all the Battle Actions they wish to use, before
        the defender does so" (9.7), so once a defender has played one this Round, the
        attackers have no more to play until the next Round."""
        battle = self.g.battle
        assert battle is not None
        side = self.side_of(name)
        if side == "attackers" and "defenders" in battle.sides_played:
            return Rejection(f"the defender has played a Battle Action this Round: the "
                             f"attacker plays theirs first, so {what!r} comes too late",
                             BATTLE_STEP)
        if side in battle.passed:
            return Rejection(f"{name}'s side has passed: it has played the Battle Actions it "
                             f"wished to this Round, so {what!r} comes too late", BATTLE_STEP)
        return None

    def battle_use_key(self, name: str) -> Any:
        """6.2.battle.3: uses are counted per side."""
        return self.side_of(name)

    def check_battle_once(self, name: str, what: str) -> Rejection | None:
        """6.2.battle.3: one use of a particular Battle Action per side per Round of Battle."""
        battle = self.g.battle
        assert battle is not None
        if (self.battle_use_key(name), what) in battle.used:
            return Rejection(f"{name}'s side has already used {what!r} this Round of Battle",
                             BATTLE_ONCE)
        return None

    def record_battle_use(self, name: str, what: str) -> None:
        """6.2.battle.3: remember that the player's side used ``what`` this Round of Battle."""
        battle = self.g.battle
        assert battle is not None
        battle.used.add((self.battle_use_key(name), what))
        side = self.side_of(name)
        if side is not None:
            battle.sides_played.add(side)

    def check_battle_action(self, name: str, what: str) -> Rejection | None:
        """6.2.battle.1-3: the moment, the involvement, the attacker-first and the
        once-per-side checks, in order."""
        for check in (self.check_battle_moment, self.check_battle_involvement,
                      self.check_battle_order, self.check_battle_once):
            rejection = check(name, what)
            if rejection is not None:
                return rejection
        return None

    def chosen_die(self, choice: str) -> str:
        """6.2.battle.6: a "?" icon adds 1 Battle Die of the type the player chooses."""
        return choice

    def dice_gained(self, icons: tuple[str, ...], chosen: list[str]) -> list[str]:
        """6.2.battle.5: one die of that type per icon; "?" icons take the chosen types."""
        picks = iter(chosen)
        return [self.chosen_die(next(picks)) if icon == ANY_DIE else icon for icon in icons]

    def check_dice_choice(self, icons: tuple[str, ...], targets: JSON,
                          what: str) -> Rejection | None:
        """6.2.battle.6: a type must be chosen for each "?" icon, among the Battle Die types."""
        wanted = sum(1 for icon in icons if icon == ANY_DIE)
        chosen = targets.get("dice", [])
        if len(chosen) != wanted:
            return Rejection(f"{what} has {wanted} '?' die icon(s); choose a type for each "
                             f"(targets.dice), got {chosen}", BATTLE_ANY_TYPE)
        return None

    def add_battle_dice(self, name: str, dice: list[str]) -> None:
        """6.2.battle.4: the dice join the side's pool for the rest of the Battle."""
        battle = self.g.battle
        side = self.side_of(name)
        if battle is not None and side is not None and dice:
            battle.dice[side].extend(dice)
            self.emit("battle_dice", player=name, dice=dice)

    def start_round(self) -> None:
        """6.2.battle.3, 6.2.battle.4: a new Round of Battle allows new uses (the attacker
        playing first again, 9.6: "Go back to Step 2"); dice stay."""
        battle = self.g.battle
        assert battle is not None
        battle.round += 1
        battle.step = PLAY_BATTLE_ACTIONS
        battle.used.clear()
        battle.sides_played.clear()
        battle.passed.clear()

    def check_battle(self) -> Battle:
        """The Battle the Battle actions move on, or rejected: there is none, or a card is
        being played."""
        battle = self.g.battle
        if battle is None:
            raise Rejected(Rejection("no Battle is being fought"))
        self.require(self.check_nothing_being_played("go on with the Battle"))
        return battle

    def act_battle_step(self, action: JSON) -> None:
        """The Battle moves on to a later step of this Round (9.6)."""
        battle = self.check_battle()
        step = need(action, "step", str, "battle_step")
        if step not in BATTLE_STEPS:
            raise RequestError(f"battle_step.step must be one of {list(BATTLE_STEPS)}")
        if BATTLE_STEPS.index(step) <= BATTLE_STEPS.index(battle.step):
            raise Rejected(Rejection(f"the Battle is already past {step!r} in this Round"))
        battle.step = step
        self.emit("battle_step", step=step)

    def act_battle_round(self, action: JSON) -> None:
        """Both sides fight on: a new Round of Battle starts at "Play Battle Actions" (9.6)."""
        self.check_battle()
        self.start_round()
        self.emit("battle_round", round=self.g.battle.round if self.g.battle else None)

    def act_battle_pass(self, action: JSON) -> None:
        """A side passes in the "Play Battle Actions" step (9.6 step 2, 9.7): it has played
        the Battle Actions it wished to this Round, and plays no more until the next."""
        battle = self.check_battle()
        name = self.player(action.get("player")).name
        for check in (self.check_battle_moment, self.check_battle_involvement):
            self.require(check(name, "passing"))
        side = self.side_of(name)
        assert side is not None
        battle.passed.add(side)
        self.emit("battle_pass", side=side)

    def act_battle_end(self, action: JSON) -> None:
        """The Battle is over; what Battle Actions gave it is gone with it (6.2.battle.4)."""
        self.check_battle()
        self.g.battle = None
        self.emit("battle_end")
