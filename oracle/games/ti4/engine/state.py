"""The TI4 table as the reference engine holds it: rule ids, state values, setup keys.

Why apart: every topic module of the engine reads and changes these values, and a rejected
action is undone by copying them as a whole (``oracle.games.kit.engine``), so they are plain
dataclasses with no behaviour.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from oracle.games.kit import JSON, snapshotted

# Rule ids, as the TI4 catalog (``features/ti4/catalog.yaml``) spells them.
RULE_2_1 = "ti4:2.1"
RULE_2_2 = "ti4:2.2"
RULE_2_3 = "ti4:2.3"
RULE_2_4 = "ti4:2.4"
RULE_2_4_1 = "ti4:2.4.1"
RULE_2_5 = "ti4:2.5"
RULE_2_6 = "ti4:2.6"
RULE_2_6_1 = "ti4:2.6.1"
RULE_2_6_2 = "ti4:2.6.2"
RULE_2_7 = "ti4:2.7"
RULE_2_8 = "ti4:2.8"
RULE_NOTE_1 = "ti4:note-1"
RULE_NOTE_2 = "ti4:note-2"
RULE_NOTE_3 = "ti4:note-3"
RULE_NOTE_4 = "ti4:note-4"
RULE_NOTE_5 = "ti4:note-5"
RULE_NOTE_5_1 = "ti4:note-5.1"
RULE_NOTE_5_2 = "ti4:note-5.2"
RULE_NOTE_6 = "ti4:note-6"
RULE_NOTE_7 = "ti4:note-7"
RULE_NOTE_8 = "ti4:note-8"
RULE_NOTE_9 = "ti4:note-9"
RULE_NOTE_10 = "ti4:note-10"

ACTION_DECK = "action"


# -- small values ------------------------------------------------------------------------------


@snapshotted
@dataclass
class PlayerState:
    """One player's part of the table, as far as action cards care."""

    name: str
    faction: str | None = None
    technologies: list[str] = field(default_factory=list)
    command_tokens: dict[str, int] = field(default_factory=dict)
    trade_goods: int = 0
    strategy_cards: list[str] = field(default_factory=list)
    hand_limit_modifier: int = 0
    #: Secret objectives drawn and not scored (a count: the engine models no objective).
    secret_objectives: int = 0
    #: Promissory notes in the player's hand (a count: the engine models no note's text).
    promissory_notes: int = 0
    hand: list[str] = field(default_factory=list)
    #: How many copies of each name in the hand every viewer may see (ti4:note-3). A plain
    #: dict, not a ``Counter``: the state is pickled before every move (to undo a rejected
    #: one), and a ``Counter`` pickles and unpickles through Python code, a dict in C.
    revealed: dict[str, int] = field(default_factory=dict)


@snapshotted
@dataclass
class PlayRecord:
    """A card that was played: on the being-played stack, then (if not cancelled) in history."""

    seq: int
    player: str
    card: str
    targets: JSON
    occurrence: tuple[Any, ...]
    target_key: tuple[str, Any] | None
    #: For a Sabotage: the ``seq`` of the card it cancels.
    cancels: int | None = None
    cancelled: bool = False


@snapshotted
@dataclass
class Pending:
    """A decision the engine waits for: ``keep`` (hand limit) or ``discard`` (Scheming)."""

    player: str
    decision: str
    count: int


@snapshotted
@dataclass
class GameState:
    """Everything one game holds; deep-copied as a whole to undo a rejected action."""

    players: dict[str, PlayerState]
    seats: list[str]
    initiative: list[str]
    phase: str
    active_player: str | None
    window: str | None
    speaker: str | None
    laws: list[str]
    units: list[JSON]
    draw: list[str]
    discard: list[str]
    rng: random.Random
    being_played: list[PlayRecord] = field(default_factory=list)
    played: list[PlayRecord] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    #: The rest of a multi-player dealing: (player, cards to draw), next first.
    dealing: list[tuple[str, int]] = field(default_factory=list)
    #: A deal (the status phase's, Politics') is going on: an emptied deck waits for the
    #: discards of the players dealt from it before it is reshuffled (ti4:66.note-1).
    deal_open: bool = False
    #: A player whose cards the deck ran out on, waiting for those discards: (player, cards
    #: still to take, Scheming's extra card among them, cards taken before the wait).
    deal_resume: tuple[str, int, int, int] | None = None
    status_dealt: bool = False
    #: The game round (ti4:40), counted from the one the state was set up in: ``next_round``
    #: starts the next one.
    round: int = 1
    turn: int = 0
    window_occurrence: int = 0
    action_taken: bool = False
    #: The strategy card whose strategic action the active player is taking this turn: its
    #: primary ability was resolved, so the other players may resolve its secondary.
    strategic_action: str | None = None
    #: The current timing event with its subject and the windows it opens (``events``), and
    #: how many events there were (each is a new occurrence of its windows, ti4:1.20).
    event: JSON | None = None
    event_seq: int = 0
    #: The last step of the status phase resolved (ti4:81: the steps come in order).
    status_step: int = 0
    #: Planets in play: {name, controller, resources, influence, exhausted, home}.
    planets: list[JSON] = field(default_factory=list)
    exhausted: set[str] = field(default_factory=set)
    next_seq: int = 0


PLANET_KEYS = ("name", "controller", "resources", "influence", "exhausted", "home", "trait")
#: A planet's trait (ti4/planet-traits): cards aimed at "each cultural planet" read it.
PLANET_TRAITS = ("cultural", "industrial", "hazardous")
STATE_KEYS = frozenset(
    {
        "players",
        "decks",
        "phase",
        "active_player",
        "window",
        "speaker",
        "initiative",
        "laws",
        "units",
        "planets",
    }
)
PLAYER_KEYS = frozenset(
    {
        "name",
        "hand",
        "faction",
        "technologies",
        "command_tokens",
        "trade_goods",
        "strategy_cards",
        "hand_limit_modifier",
        "secret_objectives",
        "promissory_notes",
    }
)
