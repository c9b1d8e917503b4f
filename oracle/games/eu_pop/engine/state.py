"""The EU table as the reference engine holds it: rule ids, state values, setup keys.

Why apart: every topic module of the engine reads and changes these values, and a rejected
action is undone by copying them as a whole (``oracle.games.kit.engine``), so they are plain
dataclasses with no behaviour.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from oracle.games.kit import JSON, snapshotted

GAME = "eu-pop"


def rule(local_id: str) -> str:
    """The qualified id of a rule of the EU catalog (``features/eu-pop/catalog.yaml``)."""
    return f"{GAME}:{local_id}"


TURN = rule("6.action-cards.2")
COST_TYPE = rule("6.action-cards.3")
DUCAT_COST = rule("6.action-cards.4")
RESOLVE_THEN_DISCARD = rule("6.action-cards.6")
DUAL_PURPOSE = rule("6.action-cards.7")
PLAY_OR_APPOINT = rule("6.action-cards.8")
APPOINT_ACTION = rule("6.characters.2")
HAND_LIMIT = rule("6.cards-in-hand.2")
DISPLAY_PLACED = rule("6.2.display.2")
DISPLAY_OWNER = rule("6.2.display.4")
DISPLAY_ACTIONS = rule("6.2.display.5")
DISPLAY_USES = rule("6.2.display.7")
DISPLAY_LIMIT = rule("6.2.display.9")
DISPLAY_THIRD = rule("6.2.display.10")
BATTLE_STEP = rule("6.2.battle.1")
BATTLE_INVOLVED = rule("6.2.battle.2")
BATTLE_ONCE = rule("6.2.battle.3")
BATTLE_ANY_TYPE = rule("6.2.battle.6")
COVERT = rule("6.2.covert.2")
STEP_C_CHOICE = rule("4.5.c.2")
STEP_C_LIMIT = rule("4.5.c.1")

COUNTERESPIONAGE = "Counterespionage"
PHASES = ("draw", "action", "peace", "income", "cleanup")
#: The steps of a Round of Battle (9.6); only "Play Battle Actions" matters to this chapter.
BATTLE_STEPS = ("Battle Preparations", "Play Battle Actions", "Roll Battle Dice",
                "Assign Casualties", "Wounded Leaders & Captured Ships", "Retreat",
                "Proclaim a Winner")
PLAY_BATTLE_ACTIONS = "Play Battle Actions"
SIDES = ("attackers", "defenders")

STATE_KEYS = frozenset({"players", "decks", "phase", "active_player", "window", "battle"})
PLAYER_KEYS = frozenset({"name", "hand", "power", "ducats", "cost_reductions", "display",
                         "advisors", "leaders"})
BATTLE_KEYS = frozenset({"attackers", "defenders", "round", "step"})


# -- the table ----------------------------------------------------------------------------------


@snapshotted
@dataclass
class Display:
    """A Display Card in play: its charges, and the Turn it was placed (6.2.display.4)."""

    card: str
    charges: int
    placed_turn: int


@snapshotted
@dataclass
class PlayerState:
    name: str
    hand: list[str]
    power: dict[str, int]
    ducats: int
    cost_reductions: dict[str, int]
    display: list[Display] = field(default_factory=list)
    advisors: list[str] = field(default_factory=list)
    leaders: list[str] = field(default_factory=list)


@snapshotted
@dataclass
class Pile:
    """One deck: its draw pile and its discard pile, both top first."""

    draw: list[str]
    discard: list[str]


@snapshotted
@dataclass
class Battle:
    """The Battle being fought: sides, round, step, and what Battle Actions gave each side."""

    attackers: list[str]
    defenders: list[str]
    round: int
    step: str
    dice: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SIDES})
    #: (use key, Battle Action name) of every use this round (6.2.battle.3).
    used: set[tuple[Any, str]] = field(default_factory=set)
    #: The sides that have played a Battle Action this round: the attacker plays first
    #: (9.6 step 2, 9.7 "Play Battle Actions"), so a defender's play ends the attacker's.
    sides_played: set[str] = field(default_factory=set)
    #: The sides that have passed this round: they play no more Battle Actions in it (9.7:
    #: the attacker plays "all the Battle Actions they wish to use" first).
    passed: set[str] = field(default_factory=set)


@snapshotted
@dataclass
class PlayRecord:
    """A card being played, or an Action on a Display Card being taken."""

    seq: int
    player: str
    card: str
    action: str | None
    targets: JSON
    covert: bool
    dice: list[str] = field(default_factory=list)
    #: For Counterespionage: the ``seq`` of the Covert Action it counters.
    counters: int | None = None
    countered: bool = False

    @property
    def name(self) -> str:
        """What the table calls it: the card, or the Action taken on a Display Card."""
        return self.action or self.card


@snapshotted
@dataclass
class Pending:
    """A decision the engine waits for: keep (Phase 5 Step C) or discard (a third display)."""

    player: str
    decision: str
    count: int
    source: str  # "hand" or "display"
    options: list[str] = field(default_factory=list)


@snapshotted
@dataclass
class GameState:
    """Everything one game holds; deep-copied as a whole to undo a rejected action."""

    players: dict[str, PlayerState]
    seats: list[str]
    phase: str
    active_player: str | None
    window: str | None
    decks: dict[str, Pile]
    rng: random.Random
    battle: Battle | None = None
    #: How far the set-up's Action Card step (3.0 step 4) has gone: 0 not begun, 1 the cards
    #: are drawn, 2 each player has held up to its limit.
    setup_step: int = 0
    being_played: list[PlayRecord] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    turn: int = 0
    action_taken: bool = False
    next_seq: int = 0
