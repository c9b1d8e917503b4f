"""The bundled TI4 reference engine: the "Action Cards" rules of the Living Rules Reference.

Why it exists: the oracle needs one engine that is right by construction, both to show that
every scenario can pass and as the base from which *mutants* (small declared variations that
each break exactly one rule) are built to show that every scenario can fail. So every rule
lives in its own small, overridable method or class attribute whose docstring cites the rule
id it implements; a mutant is a subclass that overrides one of them.

The engine speaks the adapter protocol of ``docs/protocol.md`` exactly: ``handle`` (from
``oracle.games.kit.ProtocolEngine``) takes one request dict and returns one reply dict, and
never raises. A rejected action changes nothing: every ``act``/``choose`` works on the live
state after taking a snapshot, and a rejection (or an internal error) puts the snapshot back,
so even a mutant that validates too late cannot leak a half-done change.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from oracle.games.kit import (
    ProtocolEngine,
    Rejected,
    Rejection,
    RequestError,
    UnsupportedRequest,
)
from oracle.games.kit import contains as _contains
from oracle.games.kit import count as _count
from oracle.games.kit import need as _need
from oracle.games.kit import str_list as _str_list
from oracle.games.ti4.cards import (
    CARD_MODELS,
    GROUND_FORCE_TYPES,
    SABOTAGE,
    SHIP_TYPES,
    UNIT_TYPES,
    CardFact,
    CardModel,
    card_facts_by_name,
    full_deck,
    normalise_unit_type,
)

JSON = dict[str, Any]

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

REFEREE = "*"
ACTION_DECK = "action"


# -- small values ------------------------------------------------------------------------------


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
    hand: list[str] = field(default_factory=list)
    #: How many copies of each name in the hand every viewer may see (ti4:note-3).
    revealed: Counter[str] = field(default_factory=Counter)


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


@dataclass
class Pending:
    """A decision the engine waits for: ``keep`` (hand limit) or ``discard`` (Scheming)."""

    player: str
    decision: str
    count: int


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
    status_dealt: bool = False
    turn: int = 0
    window_occurrence: int = 0
    action_taken: bool = False
    exhausted: set[str] = field(default_factory=set)
    next_seq: int = 0


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
    }
)


# -- the engine -------------------------------------------------------------------------------


class ReferenceEngine(ProtocolEngine):
    """The TI4 action-card rules as one protocol engine, one overridable method per rule."""

    GAME = "ti4"
    NAME = "rules-oracle reference TI4"
    VERSION = "0.1.0"
    PROTOCOL = 1
    EDITION = "LRR, Prophecy of Kings action deck"

    #: ti4:2.4: a hand holds at most seven action cards.
    BASE_HAND_LIMIT = 7
    #: ti4:note-1: players start the game with zero action cards.
    STARTING_HAND_SIZE = 0
    #: ti4:2.1: one card per player in the status phase.
    STATUS_DRAW = 1
    #: ti4:note-5.1: a Neural Motivator player draws two in the status phase.
    NEURAL_MOTIVATOR_STATUS_DRAW = 2
    #: ti4:2.2: Politics' primary and secondary abilities each draw two.
    POLITICS_DRAW = 2
    #: ti4:note-5.2: Scheming draws one extra card, then discards one.
    SCHEMING_EXTRA = 1
    SCHEMING_DISCARD = 1

    PHASES = ("strategy", "action", "status", "agenda")
    YSSARIL = "Yssaril"
    HACAN = "Hacan"
    NEURAL_MOTIVATOR = "Neural Motivator"
    POLITICS = "Politics"
    STARTING_COMMAND_TOKENS: dict[str, int] = {"tactic": 3, "fleet": 3, "strategy": 2}  # noqa: RUF012

    #: Modelled card -> the method that carries out its effect (ti4:2.7).
    EFFECTS: dict[str, str] = {  # noqa: RUF012
        "Lucky Shot": "effect_destroy_unit",
        "Direct Hit": "effect_destroy_unit",
        "Repeal Law": "effect_repeal_law",
        "Insubordination": "effect_insubordination",
        "Bribery": "effect_bribery",
        "Morale Boost": "effect_morale_boost",
        "Sabotage": "effect_sabotage",
    }

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
        "status_draw": "act_status_draw",
        "trade": "act_trade",
    }

    #: The checks a ``play`` must pass, in order; each returns a Rejection or None.
    PLAY_CHECKS: tuple[str, ...] = (
        "check_play_not_pending",
        "check_in_hand",
        "check_timing",
        "check_not_self_target",
        "check_required_objects",
        "check_target_choice",
        "check_zero_targets",
        "check_fully_resolvable",
        "check_same_name",
    )

    def __init__(self) -> None:
        self.facts: dict[str, CardFact] = card_facts_by_name()
        self.models: dict[str, CardModel] = dict(CARD_MODELS)
        super().__init__()
        self.game: GameState | None = None

    # -- protocol --------------------------------------------------------------------------

    def capabilities(self) -> list[str]:
        """What this engine can do, so that the oracle never sends it a scenario it cannot run."""
        caps = [
            "ti4/draw",
            "ti4/play",
            "ti4/windows",
            "ti4/reveal",
            "ti4/hand-limit",
            "ti4/status-phase",
            "ti4/politics",
            "ti4/transactions",
            "ti4/sabotage",
            "ti4/units",
            "ti4/laws",
            "ti4/trade-goods",
            f"ti4/faction/{self.YSSARIL}",
            f"ti4/faction/{self.HACAN}",
            f"ti4/technology/{self.NEURAL_MOTIVATOR}",
        ]
        caps += [f"ti4/card/{name}" for name in self.EFFECTS]
        return caps





    # -- setup -------------------------------------------------------------------------------

    def _op_setup(self, request: JSON) -> JSON:
        self.game = None
        game_id = request.get("game")
        if game_id != "ti4":
            raise UnsupportedRequest(f"this engine plays only 'ti4', not {game_id!r}")
        seed = request.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise RequestError(f"'seed' must be an integer, got {seed!r}")
        state = _need(request, "state", dict, "setup")
        self.game = self.build_state(state, random.Random(seed))
        return {"reply": "ready"}

    def card_fact(self, name: Any, where: str) -> CardFact:
        if not isinstance(name, str) or name not in self.facts:
            raise RequestError(f"{where}: unknown action card {name!r}")
        return self.facts[name]

    def _cards(self, value: Any, where: str) -> list[str]:
        cards = _str_list(value, where)
        for card in cards:
            self.card_fact(card, where)
        return cards

    def build_state(self, state: JSON, rng: random.Random) -> GameState:
        """Validate a setup state and build the game; anything impossible is ``errored``."""
        unknown = set(state) - STATE_KEYS
        if unknown:
            raise UnsupportedRequest(f"this engine does not model state keys {sorted(unknown)}")
        raw_players = _need(state, "players", list, "state")
        if not raw_players:
            raise RequestError("state.players must list at least one player")
        players: dict[str, PlayerState] = {}
        new_players: list[str] = []
        for i, raw in enumerate(raw_players):
            player, has_hand = self._build_player(raw, f"state.players[{i}]")
            if player.name in players:
                raise RequestError(f"player {player.name!r} is listed twice")
            players[player.name] = player
            if not has_hand:
                new_players.append(player.name)
        seats = list(players)

        def known(name: Any, where: str) -> str:
            if not isinstance(name, str) or name not in players:
                raise RequestError(f"{where}: unknown player {name!r}")
            return name

        initiative = seats
        if "initiative" in state:
            listed = _str_list(state["initiative"], "state.initiative")
            initiative = [known(n, "state.initiative") for n in listed]
            if sorted(initiative) != sorted(seats):
                raise RequestError(
                    f"state.initiative must list every player exactly once, got {initiative}"
                )
        phase = state.get("phase", "action")
        if not isinstance(phase, str) or phase.casefold() not in self.PHASES:
            raise RequestError(f"state.phase must be one of {list(self.PHASES)}, got {phase!r}")
        phase = phase.casefold()
        active = state.get("active_player")
        if active is not None:
            active = known(active, "state.active_player")
        elif phase == "action":
            active = initiative[0]
        speaker = state.get("speaker")
        if speaker is not None:
            speaker = known(speaker, "state.speaker")
        window = state.get("window")
        if window is not None and not isinstance(window, str):
            raise RequestError(f"state.window must be a string, got {window!r}")
        if window is None and phase == "action":
            window = "Action"
        laws = _str_list(state.get("laws", []), "state.laws")
        units = self._build_units(state.get("units", []), players)

        decks = state.get("decks", {})
        if not isinstance(decks, dict):
            raise RequestError(f"state.decks must be an object, got {decks!r}")
        if set(decks) - {ACTION_DECK}:
            raise UnsupportedRequest(
                f"this engine models only the action deck, not {sorted(set(decks) - {ACTION_DECK})}"
            )
        if ACTION_DECK in decks:
            deck = decks[ACTION_DECK]
            if not isinstance(deck, dict) or set(deck) - {"draw", "discard"}:
                raise RequestError("state.decks.action must be {'draw': [...], 'discard': [...]}")
            draw = self._cards(deck.get("draw", []), "state.decks.action.draw")
            discard = self._cards(deck.get("discard", []), "state.decks.action.discard")
        else:
            draw = self.fresh_deck(players.values())
            rng.shuffle(draw)
            discard = []

        game = GameState(
            players=players,
            seats=seats,
            initiative=initiative,
            phase=phase,
            active_player=active,
            window=window,
            speaker=speaker,
            laws=laws,
            units=units,
            draw=draw,
            discard=discard,
            rng=rng,
        )
        self.game = game
        self.deal_starting_hands(new_players)
        for name in self.dealing_order():
            self.hand_changed(players[name])
        self._events = []
        return game

    def _build_player(self, raw: Any, where: str) -> tuple[PlayerState, bool]:
        if not isinstance(raw, dict):
            raise RequestError(f"{where} must be an object, got {raw!r}")
        unknown = set(raw) - PLAYER_KEYS
        if unknown:
            raise UnsupportedRequest(f"{where}: this engine does not model {sorted(unknown)}")
        name = _need(raw, "name", str, where)
        faction = raw.get("faction")
        if faction is not None and not isinstance(faction, str):
            raise RequestError(f"{where}.faction must be a string, got {faction!r}")
        tokens = dict(self.STARTING_COMMAND_TOKENS)
        raw_tokens = raw.get("command_tokens", {})
        if not isinstance(raw_tokens, dict):
            raise RequestError(f"{where}.command_tokens must be an object, got {raw_tokens!r}")
        for pool, n in raw_tokens.items():
            if pool not in self.STARTING_COMMAND_TOKENS:
                raise RequestError(f"{where}.command_tokens: unknown pool {pool!r}")
            tokens[pool] = _count(n, f"{where}.command_tokens.{pool}")
        modifier = raw.get("hand_limit_modifier", 0)
        if isinstance(modifier, bool) or not isinstance(modifier, int):
            raise RequestError(f"{where}.hand_limit_modifier must be an integer, got {modifier!r}")
        player = PlayerState(
            name=name,
            faction=faction,
            technologies=_str_list(raw.get("technologies", []), f"{where}.technologies"),
            command_tokens=tokens,
            trade_goods=_count(raw.get("trade_goods", 0), f"{where}.trade_goods"),
            strategy_cards=_str_list(raw.get("strategy_cards", []), f"{where}.strategy_cards"),
            hand_limit_modifier=modifier,
            hand=self._cards(raw.get("hand", []), f"{where}.hand"),
        )
        return player, "hand" in raw

    def _build_units(self, raw_units: Any, players: dict[str, PlayerState]) -> list[JSON]:
        if not isinstance(raw_units, list):
            raise RequestError(f"state.units must be a list, got {raw_units!r}")
        units: list[JSON] = []
        seen: set[str] = set()
        for i, raw in enumerate(raw_units):
            where = f"state.units[{i}]"
            if not isinstance(raw, dict):
                raise RequestError(f"{where} must be an object, got {raw!r}")
            uid = _need(raw, "id", str, where)
            owner = _need(raw, "owner", str, where)
            kind = _need(raw, "type", str, where)
            if uid in seen:
                raise RequestError(f"unit id {uid!r} is used twice")
            seen.add(uid)
            if owner not in players:
                raise RequestError(f"{where}: unknown owner {owner!r}")
            if normalise_unit_type(kind) not in UNIT_TYPES:
                raise RequestError(f"{where}: unknown unit type {kind!r}")
            units.append(dict(raw))
        return units

    def fresh_deck(self, players: Iterable[PlayerState]) -> list[str]:
        """The full action deck minus the cards already in hands (unshuffled)."""
        deck = full_deck()
        for player in players:
            for card in player.hand:
                if card in deck:
                    deck.remove(card)
        return deck

    # -- rules: starting hands, draws, the deck --------------------------------------------------

    def starting_hand_size(self, player: PlayerState) -> int:
        """ti4:note-1: a player starts the game with zero action cards."""
        return self.STARTING_HAND_SIZE

    def deal_starting_hands(self, names: list[str]) -> None:
        """ti4:note-1: deal the starting hand to each player the state gave no ``hand``."""
        for name in self.dealing_order():
            if name in names:
                player = self.g.players[name]
                player.hand.extend(self.take_from_deck(self.starting_hand_size(player)))

    def take_from_deck(self, count: int) -> list[str]:
        """ti4:2.3: take cards from the top of the draw pile, one at a time.

        Before each card the deck is made drawable (a state may be set up already depleted);
        after each card ``after_deck_change`` runs, which is where an emptied pile is reshuffled
        at once (ti4:note-4), so a draw of two from a one-card pile takes its second card from
        the reshuffled discard pile.
        """
        taken: list[str] = []
        for _ in range(count):
            self.reshuffle_if_depleted()
            if not self.g.draw:
                break
            taken.append(self.g.draw.pop(0))
            self.after_deck_change()
        return taken

    def after_deck_change(self) -> None:
        """ti4:note-4: the moment the draw pile is emptied, the discard pile is reshuffled."""
        self.reshuffle_if_depleted()

    def reshuffle_if_depleted(self) -> None:
        """ti4:note-4: an empty draw pile becomes the shuffled discard pile (if there is one)."""
        game = self.g
        if not game.draw and game.discard:
            game.draw = list(game.discard)
            game.discard = []
            game.rng.shuffle(game.draw)
            self.emit("reshuffled", deck=ACTION_DECK, count=len(game.draw))

    def discard_card(self, card: str) -> None:
        """ti4:2.7: a discarded card goes on top of the action discard pile."""
        self.g.discard.insert(0, card)

    def scheming_extra(self, player: PlayerState) -> int:
        """ti4:note-5.2: the Yssaril player draws one extra card whenever they draw."""
        return self.SCHEMING_EXTRA if player.faction == self.YSSARIL else 0

    def scheming_discard_count(self, player: PlayerState) -> int:
        """ti4:note-5.2: after drawing, the Yssaril player discards one card."""
        return self.SCHEMING_DISCARD

    def player_draws(self, player: PlayerState, count: int) -> None:
        """ti4:2.3 with ti4:note-5.2: draw, Scheming if Yssaril, then the hand-limit check."""
        if count <= 0:
            return
        extra = self.scheming_extra(player)
        drawn = self.take_from_deck(count + extra)
        player.hand.extend(drawn)
        self.emit("drew", player=player.name, count=len(drawn))
        if extra and drawn and player.hand:
            n = min(self.scheming_discard_count(player), len(player.hand))
            self.add_pending(player.name, "discard", n)
            return
        self.hand_changed(player)

    # -- rules: the hand limit ------------------------------------------------------------------

    def hand_limit(self, player: PlayerState) -> int:
        """ti4:2.4, ti4:2.4.1: seven cards, raised or lowered by game effects."""
        return self.BASE_HAND_LIMIT + player.hand_limit_modifier

    def over_hand_limit(self, player: PlayerState) -> bool:
        """ti4:2.4: more cards than the limit (exactly the limit is fine)."""
        return len(player.hand) > self.hand_limit(player)

    def hand_changed(self, player: PlayerState) -> None:
        """ti4:2.4, ti4:note-10: whenever a hand grows, the limit is checked at once."""
        self.enforce_hand_limit(player)

    def enforce_hand_limit(self, player: PlayerState) -> None:
        """ti4:2.4, ti4:note-10: over the limit, the player must choose cards to keep now."""
        if self.over_hand_limit(player) and self.pending_for(player.name) is None:
            self.add_pending(player.name, "keep", max(0, self.hand_limit(player)))

    def add_pending(self, name: str, decision: str, count: int) -> None:
        self.g.pending.append(Pending(name, decision, count))
        self.emit("must_choose", player=name, decision=decision, count=count)

    def pending_for(self, name: str) -> Pending | None:
        return next((p for p in self.g.pending if p.player == name), None)

    def check_not_pending(self, name: str, doing: str) -> Rejection | None:
        """ti4:note-10 / ti4:note-5.2: a pending discard comes first; nothing else meanwhile."""
        pending = self.pending_for(name)
        if pending is None:
            return None
        if pending.decision == "keep":
            return Rejection(
                f"{name} has more action cards than the hand limit and must discard down to "
                f"{pending.count} before they can {doing}",
                RULE_NOTE_10,
            )
        return Rejection(
            f"{name} must first discard {pending.count} card(s) for Scheming before they can "
            f"{doing}",
            RULE_NOTE_5_2,
        )

    def check_play_not_pending(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:note-10: over the limit, a player cannot play cards to get down to it."""
        return self.check_not_pending(name, f"play {fact.name!r}")

    def check_trade_not_pending(self, giver: str) -> Rejection | None:
        """ti4:note-10: the Hacan player cannot trade away cards over the limit."""
        return self.check_not_pending(giver, "trade action cards")

    def choose(self, player: PlayerState, choice: JSON) -> None:
        """Answer the player's pending decision, then let a paused dealing continue."""
        pending = self.pending_for(player.name)
        if pending is None:
            raise Rejected(Rejection(f"{player.name} has no decision to make"))
        rule = RULE_2_4 if pending.decision == "keep" else RULE_NOTE_5_2
        if set(choice) != {pending.decision}:
            raise Rejected(
                Rejection(
                    f"{player.name} must answer with {pending.decision!r}, got {sorted(choice)}",
                    rule,
                )
            )
        cards = _str_list(choice[pending.decision], f"choice.{pending.decision}")
        if len(cards) != pending.count:
            raise Rejected(
                Rejection(
                    f"{player.name} must {pending.decision} exactly {pending.count} card(s), "
                    f"not {len(cards)}",
                    rule,
                )
            )
        if not _contains(player.hand, cards):
            raise Rejected(Rejection(f"{player.name}'s hand does not hold {cards}", rule))
        self.g.pending.remove(pending)
        if pending.decision == "keep":
            self.keep_cards(player, cards)
        else:
            self.scheming_discard(player, cards)
        self.continue_dealing()

    def keep_cards(self, player: PlayerState, keep: list[str]) -> None:
        """ti4:2.4: keep the chosen cards, discard the rest."""
        rest = Counter(keep)
        gone: list[str] = []
        for card in player.hand:
            if rest[card] > 0:
                rest[card] -= 1
            else:
                gone.append(card)
        self.remove_from_hand(player, gone)
        for card in gone:
            self.discard_card(card)
        self.emit("discarded", player=player.name, cards=gone)

    def scheming_discard(self, player: PlayerState, cards: list[str]) -> None:
        """ti4:note-5.2: the Scheming discard, then the hand-limit check (ti4:2.4)."""
        self.remove_from_hand(player, cards)
        for card in cards:
            self.discard_card(card)
        self.emit("discarded", player=player.name, cards=cards)
        self.hand_changed(player)

    def remove_from_hand(self, player: PlayerState, cards: Iterable[str]) -> None:
        """Take cards out of a hand; a revealed card stays known only while a copy remains."""
        for card in cards:
            player.hand.remove(card)
        have = Counter(player.hand)
        player.revealed = Counter(
            {name: min(n, have[name]) for name, n in player.revealed.items() if have[name]}
        )

    # -- rules: dealing (status phase, ordering) ------------------------------------------------

    def dealing_order(self) -> list[str]:
        """ti4:note-5: action cards are dealt out in initiative order."""
        return list(self.g.initiative)

    def status_draw_count(self, player: PlayerState) -> int:
        """ti4:2.1, ti4:note-5.1: one card, two with Neural Motivator."""
        if self.NEURAL_MOTIVATOR in player.technologies:
            return self.NEURAL_MOTIVATOR_STATUS_DRAW
        return self.STATUS_DRAW

    def status_dealing_queue(self) -> list[tuple[str, int]]:
        """ti4:note-5, ti4:note-5.1: each player draws all their cards before the next one."""
        return [(n, self.status_draw_count(self.g.players[n])) for n in self.dealing_order()]

    def dealing_paused(self) -> bool:
        """ti4:note-5.2, ti4:note-10: the next player draws only after pending discards."""
        return bool(self.g.pending)

    def continue_dealing(self) -> None:
        """Deal to the rest of the queue until it is empty or a decision makes it wait."""
        game = self.g
        while game.dealing and not self.dealing_paused():
            name, count = game.dealing.pop(0)
            self.player_draws(game.players[name], count)

    def act_status_draw(self, action: JSON) -> None:
        """ti4:2.1: the status phase's "Draw Action Cards" step, once per status phase."""
        game = self.g
        self.require(self.check_nothing_being_played("draw action cards"))
        if game.phase != "status":
            raise Rejected(Rejection("action cards are dealt in the status phase", RULE_2_1))
        for pending in game.pending:
            self.require(self.check_not_pending(pending.player, "go on with the dealing"))
        if game.dealing or game.status_dealt:
            raise Rejected(Rejection("this status phase's cards were already dealt", RULE_2_1))
        game.status_dealt = True
        game.dealing = self.status_dealing_queue()
        self.continue_dealing()

    # -- rules: politics ---------------------------------------------------------------------

    def politics_draw_count(self, player: PlayerState) -> int:
        """ti4:2.2: Politics draws two (Neural Motivator is a status-phase technology only)."""
        return self.POLITICS_DRAW

    def act_politics_primary(self, action: JSON) -> None:
        """ti4:2.2: the active player holding Politics picks a new speaker and draws two."""
        game = self.g
        player = self.player(action.get("player"))
        speaker = self.player(action.get("speaker"))
        self.require(self.check_nothing_being_played("resolve Politics"))
        self.require(self.check_not_pending(player.name, "resolve Politics"))
        if game.phase != "action":
            raise Rejected(Rejection("Politics is resolved in the action phase", RULE_2_2))
        if game.active_player != player.name:
            raise Rejected(Rejection(f"{player.name} is not the active player", RULE_2_2))
        if self.POLITICS not in player.strategy_cards:
            raise Rejected(Rejection(f"{player.name} does not hold Politics", RULE_2_2))
        if self.POLITICS in game.exhausted:
            raise Rejected(Rejection("Politics' primary ability was already used", RULE_2_2))
        if game.action_taken:
            raise Rejected(
                Rejection(f"{player.name} has already performed an action this turn", RULE_2_2)
            )
        if speaker.name == game.speaker:
            raise Rejected(Rejection(f"{speaker.name} already holds the speaker token", RULE_2_2))
        game.speaker = speaker.name
        game.exhausted.add(self.POLITICS)
        game.action_taken = True
        self.emit("speaker", player=speaker.name)
        self.player_draws(player, self.politics_draw_count(player))

    def act_politics_secondary(self, action: JSON) -> None:
        """ti4:2.2: another player spends a strategy-pool token to draw two."""
        game = self.g
        player = self.player(action.get("player"))
        self.require(self.check_nothing_being_played("resolve Politics"))
        self.require(self.check_not_pending(player.name, "resolve Politics"))
        if game.phase != "action":
            raise Rejected(Rejection("Politics is resolved in the action phase", RULE_2_2))
        if self.POLITICS in player.strategy_cards:
            raise Rejected(
                Rejection(f"{player.name} holds Politics and resolves its primary", RULE_2_2)
            )
        if player.command_tokens.get("strategy", 0) < 1:
            raise Rejected(
                Rejection(f"{player.name} has no command token in their strategy pool", RULE_2_2)
            )
        player.command_tokens["strategy"] -= 1
        self.player_draws(player, self.politics_draw_count(player))

    # -- generic actions -----------------------------------------------------------------------

    def check_nothing_being_played(self, doing: str) -> Rejection | None:
        """ti4:2.7: a card being played resolves (or is cancelled) before the game goes on."""
        if self.g.being_played:
            top = self.g.being_played[-1]
            return Rejection(
                f"{top.player}'s {top.card!r} is being played: resolve it before you {doing}",
                RULE_2_7,
            )
        return None

    def act_draw(self, action: JSON) -> None:
        """ti4:2.3: a game effect makes a player draw (Scheming applies, ti4:note-5.2)."""
        player = self.player(action.get("player"))
        deck = action.get("deck", ACTION_DECK)
        if deck != ACTION_DECK:
            raise UnsupportedRequest(f"this engine models only the action deck, not {deck!r}")
        count = _count(action.get("count", 1), "draw.count")
        self.require(self.check_nothing_being_played("draw"))
        self.require(self.check_not_pending(player.name, "draw"))
        self.player_draws(player, count)

    def act_reveal(self, action: JSON) -> None:
        """ti4:note-3: a player may show any of their cards to everyone."""
        player = self.player(action.get("player"))
        cards = self._cards(action.get("cards"), "reveal.cards")
        self.require(self.check_nothing_being_played("reveal cards"))
        self.require(self.check_not_pending(player.name, "reveal cards"))
        if not _contains(player.hand, cards):
            raise Rejected(Rejection(f"{player.name}'s hand does not hold {cards}", RULE_NOTE_3))
        self.apply_reveal(player, cards)

    def apply_reveal(self, player: PlayerState, cards: list[str]) -> None:
        """ti4:note-3: revealed cards are visible to all until they leave the hand."""
        have = Counter(player.hand)
        for card, n in Counter(cards).items():
            player.revealed[card] = min(have[card], max(player.revealed[card], n))
        self.emit("revealed", player=player.name, cards=cards)

    def open_window(self, window: str | None) -> None:
        """ti4:2.6.2: a new occurrence of a timing window starts (same-name plays reset)."""
        self.g.window = window
        self.g.window_occurrence += 1

    def act_window(self, action: JSON) -> None:
        """ti4:2.6: a named timing window opens; the previous one closes."""
        window = _need(action, "window", str, "window action")
        self.require(self.check_nothing_being_played("open a new timing window"))
        self.open_window(window)
        self.emit("window", window=window)

    def act_end_turn(self, action: JSON) -> None:
        """The active player's turn ends; the next player in initiative order is active."""
        game = self.g
        player = self.player(action.get("player"))
        self.require(self.check_nothing_being_played("end the turn"))
        self.require(self.check_not_pending(player.name, "end the turn"))
        if game.phase != "action":
            raise Rejected(Rejection("turns are taken in the action phase"))
        if game.active_player != player.name:
            raise Rejected(Rejection(f"{player.name} is not the active player"))
        order = game.initiative
        game.active_player = order[(order.index(player.name) + 1) % len(order)]
        game.turn += 1
        game.action_taken = False
        self.open_window("Action")
        self.emit("turn", player=game.active_player)

    # -- transactions (Hacan) ------------------------------------------------------------------

    def may_trade_action_cards(self, giver: PlayerState, receiver: PlayerState) -> bool:
        """Only the Hacan player can exchange action cards in a transaction (ti4:note-10)."""
        return self.HACAN in (giver.faction, receiver.faction)

    def act_trade(self, action: JSON) -> None:
        """A transaction of action cards; the receiver's hand limit is checked at once."""
        game = self.g
        giver = self.player(action.get("player"))
        receiver = self.player(action.get("to"))
        cards = self._cards(action.get("cards"), "trade.cards")
        if not cards:
            raise RequestError("trade.cards must name at least one card")
        if giver.name == receiver.name:
            raise RequestError("a player cannot trade with themselves")
        self.require(self.check_nothing_being_played("trade"))
        if game.phase != "action":
            raise Rejected(Rejection("transactions happen in the action phase"))
        if not self.may_trade_action_cards(giver, receiver):
            raise Rejected(
                Rejection("only the Hacan player can exchange action cards in transactions")
            )
        self.require(self.check_trade_not_pending(giver.name))
        if not _contains(giver.hand, cards):
            raise Rejected(Rejection(f"{giver.name}'s hand does not hold {cards}"))
        self.remove_from_hand(giver, cards)
        receiver.hand.extend(cards)
        self.emit("traded", player=giver.name, to=receiver.name, count=len(cards))
        self.hand_changed(receiver)

    # -- playing cards: the checks ------------------------------------------------------------

    def model(self, card: str) -> CardModel | None:
        return self.models.get(card)

    def is_component_action(self, fact: CardFact) -> bool:
        """ti4:2.6.1: a card whose timing is "Action" is resolved as a component action."""
        return fact.is_component_action

    def responds_to_plays(self, fact: CardFact) -> bool:
        """ti4:2.6: Sabotage's timing window is another player playing an action card."""
        return fact.name == SABOTAGE

    def check_in_hand(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.7: a player plays a card from their own hand."""
        if fact.name not in self.g.players[name].hand:
            return Rejection(f"{name} has no {fact.name!r} in hand", RULE_2_7)
        return None

    def check_timing(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.6: the card's timing paragraph says when it may be played."""
        if self.responds_to_plays(fact):
            return self.check_sabotage_window(name, fact, targets)
        blocked = self.check_nothing_being_played(f"play {fact.name!r}")
        if blocked is not None:
            return blocked
        if self.is_component_action(fact):
            return self.check_component_action_timing(name, fact)
        return self.check_window(name, fact)

    def check_component_action_timing(self, name: str, fact: CardFact) -> Rejection | None:
        """ti4:2.6.1: a component action: action phase, own turn, one action per turn."""
        game = self.g
        if game.phase != "action":
            return Rejection(
                f"{fact.name!r} is a component action: it needs the action phase", RULE_2_6_1
            )
        if game.active_player != name:
            return Rejection(
                f"{fact.name!r} is a component action: only the active player may play it",
                RULE_2_6_1,
            )
        if game.action_taken:
            return Rejection(f"{name} has already performed an action this turn", RULE_2_6_1)
        return None

    def phase_matches(self, fact: CardFact) -> bool:
        """ti4:2.6: the card's phase is the current one ("Any" fits every phase)."""
        return fact.phase.casefold() in ("any", self.g.phase)

    def window_matches(self, fact: CardFact) -> bool:
        """ti4:2.6: the card's timing window is the one that is open."""
        return self.g.window == fact.window

    def check_window(self, name: str, fact: CardFact) -> Rejection | None:
        """ti4:2.6: a non-component card needs its own timing window, in its phase."""
        if not self.window_matches(fact):
            return Rejection(
                f"{fact.name!r} is played {fact.window!r}; the open window is {self.g.window!r}",
                RULE_2_6,
            )
        if not self.phase_matches(fact):
            return Rejection(
                f"{fact.name!r} is played in the {fact.phase.lower()} phase, not the "
                f"{self.g.phase} phase",
                RULE_2_6,
            )
        return None

    def may_respond_to(self, name: str, record: PlayRecord) -> bool:
        """ti4:2.6: Sabotage answers another player's card that is not itself a Sabotage."""
        return record.player != name and record.card != SABOTAGE and not record.cancelled

    def sabotage_target(self, name: str, targets: JSON) -> PlayRecord | None:
        """The card a Sabotage cancels: the named one, else the latest eligible one."""
        wanted = targets.get("card")
        for record in reversed(self.g.being_played):
            if (wanted is None or record.card == wanted) and self.may_respond_to(name, record):
                return record
        return None

    def check_sabotage_window(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.6: Sabotage needs another player's non-Sabotage card being played."""
        if self.sabotage_target(name, targets) is not None:
            return None
        wanted = targets.get("card")
        what = f"{wanted!r}" if wanted else "an action card"
        return Rejection(
            f"{fact.name!r} is played when another player plays {what} other than "
            f"{SABOTAGE!r}, and no such card is being played",
            RULE_2_6,
        )

    def is_offensive(self, card: str) -> bool:
        """ti4:note-7: offensive cards (Lucky Shot, ...) cannot target their own player."""
        model = self.model(card)
        return bool(model and model.offensive)

    def may_target_owner(self, name: str, owner: str, card: str) -> bool:
        """ti4:note-7: an offensive card may not target its player or their units."""
        return owner != name or not self.is_offensive(card)

    def find_unit(self, uid: str) -> JSON | None:
        return next((u for u in self.g.units if u["id"] == uid), None)

    def unit_fits(self, model: CardModel, unit: JSON) -> bool:
        return normalise_unit_type(unit["type"]) in model.unit_types

    def eligible_units(self, name: str, model: CardModel) -> list[JSON]:
        """Units the card could target: the right types, owners it may target (ti4:note-7)."""
        return [
            u
            for u in self.g.units
            if self.unit_fits(model, u) and self.may_target_owner(name, u["owner"], model.name)
        ]

    def eligible_players(self, name: str, model: CardModel) -> list[str]:
        """Players an Insubordination-like card could target: with a tactic token to remove."""
        return [
            p.name
            for p in self.g.players.values()
            if self.may_target_owner(name, p.name, model.name)
            and p.command_tokens.get("tactic", 0) >= 1
        ]

    def check_not_self_target(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:note-7: a player cannot target themselves with an offensive card."""
        if "unit" in targets:
            unit = self.find_unit(targets["unit"])
            if unit is not None and not self.may_target_owner(name, unit["owner"], fact.name):
                return Rejection(
                    f"{fact.name!r} is offensive: {name} cannot target their own unit "
                    f"{unit['id']!r}",
                    RULE_NOTE_7,
                )
        if "player" in targets and not self.may_target_owner(name, targets["player"], fact.name):
            return Rejection(
                f"{fact.name!r} is offensive: {name} cannot target themselves", RULE_NOTE_7
            )
        return None

    def check_required_objects(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:note-9: a card needing a specific number of objects needs them to exist."""
        model = self.model(fact.name)
        if model is None or not model.specific:
            return None
        if model.target == "law":
            if not self.g.laws:
                return Rejection(
                    f"{fact.name!r} needs a law in play, and there is none", RULE_NOTE_9
                )
            if "law" in targets and targets["law"] not in self.g.laws:
                return Rejection(f"no law named {targets['law']!r} is in play", RULE_NOTE_9)
        elif model.target == "unit":
            if not self.eligible_units(name, model):
                return Rejection(
                    f"{fact.name!r} needs a unit it can target, and there is none", RULE_NOTE_9
                )
            if "unit" in targets and self.find_unit(targets["unit"]) is None:
                return Rejection(f"no unit {targets['unit']!r} is on the board", RULE_NOTE_9)
        elif model.target == "player" and not self.eligible_players(name, model):
            return Rejection(
                f"{fact.name!r} needs another player with a tactic token, and there is none",
                RULE_NOTE_9,
            )
        return None

    def check_target_choice(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.7: the player makes the choices the card asks for, and they must be legal."""
        model = self.model(fact.name)
        if model is None:
            return None
        if model.target in ("unit", "law", "player") and model.target not in targets:
            return Rejection(f"{fact.name!r} must target exactly one {model.target}", RULE_2_7)
        if model.target == "unit":
            unit = self.find_unit(targets["unit"])
            if unit is not None and not self.unit_fits(model, unit):
                kinds = ", ".join(sorted(model.unit_types))
                return Rejection(
                    f"{fact.name!r} targets a {kinds}; {unit['id']!r} is a {unit['type']}",
                    RULE_2_7,
                )
        if model.target == "trade_goods":
            have = self.g.players[name].trade_goods
            if targets.get("trade_goods", 0) > have:
                return Rejection(
                    f"{name} cannot spend {targets['trade_goods']} trade goods with only {have}",
                    RULE_2_7,
                )
        return None

    def target_count(self, name: str, fact: CardFact, targets: JSON) -> int:
        """How many objects an "any number"/"each" card affects (ti4:note-8)."""
        model = self.model(fact.name)
        if model is None:
            return 0
        if model.target == "trade_goods":
            return int(targets.get("trade_goods", 0))
        if model.target == "units":
            fighting = SHIP_TYPES | GROUND_FORCE_TYPES
            return sum(
                1
                for u in self.g.units
                if u["owner"] == name and normalise_unit_type(u["type"]) in fighting
            )
        return 1

    def allows_zero_targets(self, fact: CardFact) -> bool:
        """ti4:note-8: an "any number"/"up to"/"each" card may target zero objects."""
        model = self.model(fact.name)
        return bool(model and model.any_number)

    def check_zero_targets(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:note-8: zero targets is only refused for cards that do not allow it."""
        model = self.model(fact.name)
        if model is None or not model.any_number:
            return None
        if self.target_count(name, fact, targets) == 0 and not self.allows_zero_targets(fact):
            return Rejection(f"{fact.name!r} would affect nothing", RULE_NOTE_8)
        return None

    def can_fully_resolve(self, name: str, fact: CardFact, targets: JSON) -> str | None:
        """Why the card's ability could not be completely resolved, or None if it could."""
        model = self.model(fact.name)
        if model is None:
            return None
        chosen = targets.get(model.target or "")
        if model.target == "player":
            target = self.g.players.get(chosen) if isinstance(chosen, str) else None
            if target is None or target.command_tokens.get("tactic", 0) < 1:
                return f"{chosen} has no tactic token to remove"
        if model.target == "unit" and (not chosen or self.find_unit(chosen) is None):
            return f"unit {chosen!r} is not on the board"
        if model.target == "law" and chosen not in self.g.laws:
            return f"law {chosen!r} is not in play"
        return None

    def check_fully_resolvable(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.6.1: a component action cannot be played unless it resolves completely."""
        if not self.is_component_action(fact):
            return None
        why = self.can_fully_resolve(name, fact, targets)
        if why is not None:
            return Rejection(
                f"{fact.name!r} is a component action that cannot be completely resolved: {why}",
                RULE_2_6_1,
            )
        return None

    def occurrence(self, name: str, fact: CardFact, targets: JSON) -> tuple[Any, ...]:
        """ti4:2.6.2: which occurrence of a timing window a card is played in.

        A component action's window is the turn; a Sabotage's is the play of the card it
        answers; every other card's is the current occurrence of the open window (a new
        ``window`` action or turn starts a new one).
        """
        if self.responds_to_plays(fact):
            target = self.sabotage_target(name, targets)
            return ("play", target.seq if target else None)
        if self.is_component_action(fact):
            return ("turn", self.g.turn)
        return ("window", self.g.window_occurrence)

    def target_key(self, fact: CardFact, targets: JSON, name: str) -> tuple[str, Any] | None:
        """ti4:2.6.2: what a card affects: a unit, a law, a player, a card, or the game effect."""
        for kind in ("unit", "law", "player"):
            if kind in targets:
                return (kind, targets[kind])
        if self.responds_to_plays(fact):
            target = self.sabotage_target(name, targets)
            return ("card", target.seq if target else None)
        return None

    def same_effect(self, a: tuple[str, Any] | None, b: tuple[str, Any] | None) -> bool:
        """ti4:2.6.2: two plays hit the same thing (or both the untargeted game effect)."""
        return a == b

    def check_same_name(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """ti4:2.6.2: one card of a name per window occurrence and target; cancelled don't count."""
        occurrence = self.occurrence(name, fact, targets)
        key = self.target_key(fact, targets, name)
        live = [r for r in self.g.being_played if not r.cancelled]
        for record in [*self.g.played, *live]:
            if (
                record.card == fact.name
                and record.occurrence == occurrence
                and self.same_effect(record.target_key, key)
            ):
                return Rejection(
                    f"a {fact.name!r} was already played in this timing window to affect the "
                    "same thing",
                    RULE_2_6_2,
                )
        return None

    def may_play(self, name: str, fact: CardFact, targets: JSON) -> Rejection | None:
        """Run every play check in ``PLAY_CHECKS`` order; the first refusal wins."""
        for check in self.PLAY_CHECKS:
            rejection = getattr(self, check)(name, fact, targets)
            if rejection is not None:
                return rejection
        return None

    # -- playing cards: the actions -------------------------------------------------------------

    def parse_targets(self, raw: Any) -> JSON:
        """Check the shape of ``targets`` (shape errors are a broken scenario, not a rule)."""
        if raw is None:
            return {}
        if not isinstance(raw, dict):
            raise RequestError(f"play.targets must be an object, got {raw!r}")
        unknown = set(raw) - {"unit", "law", "player", "trade_goods", "card"}
        if unknown:
            raise RequestError(f"play.targets: unknown keys {sorted(unknown)}")
        for key in ("unit", "law", "card"):
            if key in raw and not isinstance(raw[key], str):
                raise RequestError(f"play.targets.{key} must be a string, got {raw[key]!r}")
        if "player" in raw:
            self.player(raw["player"])
        if "trade_goods" in raw:
            _count(raw["trade_goods"], "play.targets.trade_goods")
        if "card" in raw:
            self.card_fact(raw["card"], "play.targets.card")
        return dict(raw)

    def act_play(self, action: JSON) -> None:
        """ti4:2.6, ti4:2.7: a player starts playing a card; it waits on the stack for resolve."""
        player = self.player(action.get("player"))
        fact = self.card_fact(action.get("card"), "play.card")
        targets = self.parse_targets(action.get("targets"))
        self.require(self.may_play(player.name, fact, targets))
        game = self.g
        record = PlayRecord(
            seq=game.next_seq,
            player=player.name,
            card=fact.name,
            targets=targets,
            occurrence=self.occurrence(player.name, fact, targets),
            target_key=self.target_key(fact, targets, player.name),
        )
        if self.responds_to_plays(fact):
            target = self.sabotage_target(player.name, targets)
            record.cancels = target.seq if target else None
        game.next_seq += 1
        self.remove_from_hand(player, [fact.name])
        game.being_played.append(record)
        self.emit("playing", player=player.name, card=fact.name, targets=targets)

    def act_resolve(self, action: JSON) -> None:
        """ti4:2.7, ti4:2.8: everybody passes; the cards resolve, last played first.

        With nothing being played, passing changes nothing and is allowed (docs/protocol.md,
        act): an engine that resolves cards at once gets this ``resolve`` after every play.
        """
        game = self.g
        while game.being_played:
            record = game.being_played.pop()
            if record.cancelled:
                self.dispose_cancelled(record)
            else:
                self.resolve_card(record)

    def resolve_card(self, record: PlayRecord) -> None:
        """ti4:2.7: resolve the ability, then discard the card; it counts as played."""
        method = self.EFFECTS.get(record.card)
        if method is not None:
            getattr(self, method)(record)
        self.g.played.append(record)
        if self.is_component_action(self.facts[record.card]):
            self.g.action_taken = True
        self.discard_card(record.card)
        self.emit("resolved", player=record.player, card=record.card)

    def dispose_cancelled(self, record: PlayRecord) -> None:
        """ti4:2.8, ti4:note-6: a cancelled card has no effect, is discarded, and is not
        treated as played: its action is not used (a second copy may be played)."""
        self.discard_card(record.card)
        self.emit("cancelled", player=record.player, card=record.card)

    # -- card effects (structured; no card text) -------------------------------------------------

    def effect_destroy_unit(self, record: PlayRecord) -> None:
        """Lucky Shot / Direct Hit: the target unit is destroyed."""
        unit = self.find_unit(record.targets["unit"])
        if unit is not None:
            self.g.units.remove(unit)
            self.emit("destroyed", unit=unit["id"])

    def effect_repeal_law(self, record: PlayRecord) -> None:
        """Repeal Law: the target law is discarded from play."""
        law = record.targets["law"]
        if law in self.g.laws:
            self.g.laws.remove(law)
            self.emit("repealed", law=law)

    def effect_insubordination(self, record: PlayRecord) -> None:
        """Insubordination: the target player loses one tactic token."""
        target = self.g.players[record.targets["player"]]
        if target.command_tokens.get("tactic", 0) > 0:
            target.command_tokens["tactic"] -= 1
            self.emit("token_removed", player=target.name, pool="tactic")

    def effect_bribery(self, record: PlayRecord) -> None:
        """Bribery: the player spends the chosen number of trade goods (possibly zero)."""
        player = self.g.players[record.player]
        spent = min(int(record.targets.get("trade_goods", 0)), player.trade_goods)
        player.trade_goods -= spent
        self.emit("spent", player=player.name, trade_goods=spent)

    def effect_morale_boost(self, record: PlayRecord) -> None:
        """Morale Boost: affects this combat round's rolls, which the engine does not model."""
        self.emit("combat_modifier", player=record.player, card=record.card)

    def effect_sabotage(self, record: PlayRecord) -> None:
        """Sabotage: the card it answers is cancelled (ti4:2.8)."""
        for target in self.g.being_played:
            if target.seq == record.cancels:
                target.cancelled = True

    # -- observe -----------------------------------------------------------------------------

    def visible_hand(self, viewer: str | None, owner: PlayerState) -> list[str]:
        """ti4:2.5, ti4:note-3: the owner and the referee see all; others see revealed cards."""
        if viewer in (REFEREE, owner.name):
            return list(owner.hand)
        shown = Counter(owner.revealed)
        visible: list[str] = []
        for card in owner.hand:
            if shown[card] > 0:
                shown[card] -= 1
                visible.append(card)
        return visible

    def visible_hand_count(self, viewer: str | None, owner: PlayerState) -> int | None:
        """ti4:note-2: the number of cards in a hand is public."""
        return len(owner.hand)

    def visible_draw_pile(self, viewer: str | None) -> list[str] | None:
        """ti4:2.5: only the referee sees the order of the draw pile."""
        return list(self.g.draw) if viewer == REFEREE else None

    def _op_observe(self, request: JSON) -> JSON:
        self.require_game()
        if "viewer" not in request:
            raise RequestError("observe needs 'viewer' (a player's name, null or '*')")
        viewer = request["viewer"]
        if viewer is not None and viewer != REFEREE:
            self.player(viewer)
        return {"reply": "view", "view": self.view(viewer)}

    def view(self, viewer: str | None) -> JSON:
        """The table as ``viewer`` sees it (protocol view plus the TI4 extras)."""
        game = self.g
        players: JSON = {}
        for name in game.seats:
            p = game.players[name]
            hand: JSON = {"count": self.visible_hand_count(viewer, p),
                          "cards": self.visible_hand(viewer, p)}
            players[name] = {
                "hand": hand,
                "hand_limit": self.hand_limit(p),
                "faction": p.faction,
                "technologies": list(p.technologies),
                "command_tokens": dict(p.command_tokens),
                "trade_goods": p.trade_goods,
            }
        draw: JSON = {"count": len(game.draw)}
        cards = self.visible_draw_pile(viewer)
        if cards is not None:
            draw["cards"] = cards
        return {
            "phase": game.phase,
            "window": game.window,
            "active_player": game.active_player,
            "players": players,
            "decks": {ACTION_DECK: {"draw": draw, "discard": list(game.discard)}},
            "being_played": [{"player": r.player, "card": r.card} for r in game.being_played],
            "pending": [
                {"player": p.player, "decision": p.decision, "count": p.count} for p in game.pending
            ],
            "speaker": game.speaker,
            "initiative": list(game.initiative),
            "laws": list(game.laws),
            "units": [dict(u) for u in game.units],
        }


def factory() -> ReferenceEngine:
    """A fresh engine: what ``--engine oracle.games.ti4.engine:factory`` loads."""
    return ReferenceEngine()
