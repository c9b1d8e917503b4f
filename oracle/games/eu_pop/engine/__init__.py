"""The bundled EU reference engine: "6. Action Cards" of Europa Universalis: The Price of Power.

Why it exists: the oracle needs one EU engine that is right by construction, to show that every
EU scenario can pass, and as the base of the EU *mutants* (one-method variations that break
named rules) that show every scenario can fail. So every rule lives in its own small,
overridable method or class attribute whose docstring cites the rule id it implements.

What it models, beyond the shared protocol (docs/protocol.md, "EU: The Price of Power"): three
decks with public discard piles and a rebuild that leaves the top 5 discards; Monarch Power of
three types and Ducats, paid when a card is played and never below 0; Turns (a card that takes
the Turn is played once per Turn by the active player; Reactions, Battle Actions and the
Appoint Minor Action do not take it); Display Cards with charges and listed Actions; a Battle
with sides, rounds and steps, and the Battle Dice gained from Battle Actions; Counterespionage
countering Covert Actions; and the hand limit of 5, checked only in Phase 5 Step C. Card
effects are the cards' stand-in effect (gain Ducats); hiring costs and the setup draw are not
modelled (a player without a hand starts with none).

The rules are split by topic into mixins (``setup``, ``drawing``, ``decisions``, ``costs``,
``timing``, ``battle``, ``display``, ``characters``, ``playing``, ``effects``, ``observe``)
composed here into ``ReferenceEngine``; the protocol plumbing comes from
``oracle.games.kit.CardGameEngine``.
"""

from __future__ import annotations

from oracle.games.eu_pop.cards import CardFact, card_facts_by_name
from oracle.games.eu_pop.engine.battle import Battles
from oracle.games.eu_pop.engine.characters import Characters
from oracle.games.eu_pop.engine.costs import Costs
from oracle.games.eu_pop.engine.decisions import StepC
from oracle.games.eu_pop.engine.display import Displays
from oracle.games.eu_pop.engine.drawing import Drawing
from oracle.games.eu_pop.engine.effects import Effects
from oracle.games.eu_pop.engine.observe import Views
from oracle.games.eu_pop.engine.playing import Playing
from oracle.games.eu_pop.engine.setup import Setup
from oracle.games.eu_pop.engine.state import (
    GAME,
    Battle,
    Display,
    GameState,
    Pending,
    Pile,
    PlayerState,
    PlayRecord,
    rule,
)
from oracle.games.eu_pop.engine.timing import Timing
from oracle.games.kit import CardGameEngine

__all__ = [
    "GAME",
    "Battle",
    "Display",
    "GameState",
    "Pending",
    "Pile",
    "PlayRecord",
    "PlayerState",
    "ReferenceEngine",
    "factory",
    "rule",
]


class ReferenceEngine(
    Setup,
    Drawing,
    StepC,
    Costs,
    Timing,
    Battles,
    Displays,
    Characters,
    Playing,
    Effects,
    Views,
    CardGameEngine,
):
    """The EU action-card rules as one protocol engine, one overridable method per rule."""

    GAME = GAME
    NAME = "rules-oracle reference EU: The Price of Power"
    VERSION = "0.1.0"
    PROTOCOL = 1
    EDITION = "rulebook chapter 6, illustrative cards"
    ACTIONS = {  # noqa: RUF012
        "draw": "act_draw",
        "play": "act_play",
        "use": "act_use",
        "resolve": "act_resolve",
        "appoint": "act_appoint",
        "end_turn": "act_end_turn",
        "discard_down": "act_discard_down",
        "battle_step": "act_battle_step",
        "battle_round": "act_battle_round",
        "battle_end": "act_battle_end",
        "battle_pass": "act_battle_pass",
        "setup_draw": "act_setup_draw",
        "setup_hold": "act_setup_hold",
    }

    def __init__(self) -> None:
        super().__init__()
        self.facts: dict[str, CardFact] = card_facts_by_name()
        self.game: GameState | None = None

    def capabilities(self) -> list[str]:
        """What this engine can do, so that the oracle never sends it a scenario it cannot run."""
        caps = ["draw", "play", "hand-limit", "monarch-power", "ducats", "cost-reductions",
                "appoint", "display", "battle", "battle-pass", "setup"]
        return [f"{GAME}/{c}" for c in caps] + [f"{GAME}/card/{name}"
                                                for name in self.modelled_cards()]

    def modelled_cards(self) -> list[str]:
        """The cards whose effect this engine carries out, declared as ``eu-pop/card/NAME``.

        Every card of the (illustrative) deck: each stands for a class of card the chapter
        talks about, and its effect is the stand-in the card facts give it. An engine that
        models fewer declares fewer, and answers ``unsupported`` when asked to play the rest
        (``Playing.require_modelled``).
        """
        return list(self.facts)


def factory() -> ReferenceEngine:
    """A fresh engine: what ``--engine oracle.games.eu_pop.engine:factory`` loads."""
    return ReferenceEngine()
