"""The bundled TI4 reference engine: the "Action Cards" rules of the Living Rules Reference.

Why it exists: the oracle needs one engine that is right by construction, both to show that
every scenario can pass and as the base from which *mutants* (small declared variations that
each break exactly one rule) are built to show that every scenario can fail. So every rule
lives in its own small, overridable method or class attribute whose docstring cites the rule
id it implements; a mutant is a subclass that overrides one of them by name.

The rules are split by topic into mixins (``setup``, ``drawing``, ``decisions``, ``turns``,
``playing``, ``targets``, ``effects``, ``observe``) composed here into ``ReferenceEngine``;
the protocol plumbing comes from ``oracle.games.kit.CardGameEngine``. ``handle`` takes one
request dict and returns one reply dict, and never raises. A rejected action changes nothing: every
``act``/``choose`` works on the live state after taking a snapshot, and a rejection (or an
internal error) puts the snapshot back, so even a mutant that validates too late cannot leak a
half-done change.
"""

from __future__ import annotations

from oracle.games.kit import CardGameEngine
from oracle.games.ti4.cards import (
    CARD_MODELS,
    LAW_MODELS,
    CardFact,
    CardModel,
    card_facts_by_name,
)
from oracle.games.ti4.engine.decisions import HandLimit
from oracle.games.ti4.engine.drawing import Drawing
from oracle.games.ti4.engine.effects import Effects
from oracle.games.ti4.engine.events import Events
from oracle.games.ti4.engine.observe import Views
from oracle.games.ti4.engine.playing import Playing
from oracle.games.ti4.engine.setup import Setup
from oracle.games.ti4.engine.state import (
    ACTION_DECK,
    PLAYER_KEYS,
    STATE_KEYS,
    GameState,
    Pending,
    PlayerState,
    PlayRecord,
)
from oracle.games.ti4.engine.targets import Targets
from oracle.games.ti4.engine.turns import TurnActions

__all__ = [
    "ACTION_DECK",
    "PLAYER_KEYS",
    "STATE_KEYS",
    "GameState",
    "Pending",
    "PlayRecord",
    "PlayerState",
    "ReferenceEngine",
    "factory",
]


class ReferenceEngine(
    Setup,
    Drawing,
    HandLimit,
    TurnActions,
    Events,
    Playing,
    Targets,
    Effects,
    Views,
    CardGameEngine,
):
    """The TI4 action-card rules as one protocol engine, one overridable method per rule."""

    GAME = "ti4"
    NAME = "rules-oracle reference TI4"
    VERSION = "0.1.0"
    PROTOCOL = 1
    EDITION = "LRR, Prophecy of Kings action deck"
    #: Action type -> handler method.
    ACTIONS: dict[str, str] = {  # noqa: RUF012
        "draw": "act_draw",
        "play": "act_play",
        "resolve": "act_resolve",
        "reveal": "act_reveal",
        "window": "act_window",
        "end_turn": "act_end_turn",
        "politics_primary": "act_politics_primary",
        "politics_secondary": "act_politics_secondary",
        "politics": "act_politics",
        "status_draw": "act_status_draw",
        "trade": "act_trade",
        "event": "act_event",
        "status_step": "act_status_step",
        "next_round": "act_next_round",
    }

    def __init__(self) -> None:
        self.facts: dict[str, CardFact] = card_facts_by_name()
        self.models: dict[str, CardModel] = dict(CARD_MODELS)
        super().__init__()
        self.game: GameState | None = None

    def capabilities(self) -> list[str]:
        """What this engine can do, so that the oracle never sends it a scenario it cannot run."""
        caps = [
            "ti4/draw",
            "ti4/play",
            "ti4/windows",
            "ti4/reveal",
            "ti4/hand-limit",
            "ti4/status-phase",
            "ti4/status-steps",
            "ti4/rounds",
            "ti4/events",
            "ti4/politics",
            "ti4/politics-deal",
            "ti4/transactions",
            "ti4/sabotage",
            "ti4/units",
            "ti4/laws",
            "ti4/trade-goods",
            "ti4/planets",
            "ti4/planet-traits",
            "ti4/secret-objectives",
            "ti4/promissory-notes",
            f"ti4/faction/{self.YSSARIL}",
            f"ti4/faction/{self.HACAN}",
            f"ti4/technology/{self.NEURAL_MOTIVATOR}",
        ]
        caps += [f"ti4/card/{name}" for name in self.EFFECTS]
        caps += [f"ti4/law/{name}" for name in LAW_MODELS]
        return caps


def factory() -> ReferenceEngine:
    """A fresh engine: what ``--engine oracle.games.ti4.engine:factory`` loads."""
    return ReferenceEngine()
