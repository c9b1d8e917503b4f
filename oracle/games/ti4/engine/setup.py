"""Building a TI4 game from a ``setup`` request's state.

Why apart: the state a scenario sends is validated once, here, field by field, so that the
rules never meet an impossible table; what a new game holds (starting hands, a fresh deck)
is rules, cited below.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from oracle.games.kit import JSON, RequestError, UnsupportedRequest
from oracle.games.kit import count as _count
from oracle.games.kit import need as _need
from oracle.games.kit import str_list as _str_list
from oracle.games.kit.setup import check_state_keys, player_entry, read_players
from oracle.games.ti4.cards import LAW_MODELS, UNIT_TYPES, full_deck, normalise_unit_type
from oracle.games.ti4.engine.state import (
    ACTION_DECK,
    PLANET_KEYS,
    PLANET_TRAITS,
    PLAYER_KEYS,
    STATE_KEYS,
    GameState,
    PlayerState,
)


class Setup:
    """Validating a setup state and building the game from it (with ti4:note-1)."""

    #: ti4:note-1: players start the game with zero action cards.
    STARTING_HAND_SIZE = 0
    PHASES = ("strategy", "action", "status", "agenda")
    STARTING_COMMAND_TOKENS: dict[str, int] = {"tactic": 3, "fleet": 3, "strategy": 2}  # noqa: RUF012

    def build_state(self, state: JSON, rng: random.Random) -> GameState:
        """Validate a setup state and build the game; anything impossible is ``errored``.

        The fields are checked in a fixed order (players, initiative, phase and turn, laws,
        units, deck), so that a state with two mistakes always reports the same one.
        """
        check_state_keys(state, STATE_KEYS)
        players: dict[str, PlayerState] = read_players(state, self._build_player)
        initiative = self._build_initiative(state, players)
        phase, active, speaker, window = self._build_turn(state, players, initiative)
        laws = self._build_laws(state.get("laws", []))
        units = self._build_units(state.get("units", []), players)
        planets = self._build_planets(state.get("planets", []), players)
        draw, discard = self._build_deck(state.get("decks", {}), players, rng)
        game = GameState(
            players=players,
            seats=list(players),
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
            planets=planets,
        )
        self.game = game
        self.start_game([raw["name"] for raw in state["players"] if "hand" not in raw])
        return game

    def start_game(self, new_players: list[str]) -> None:
        """ti4:note-1: deal the players the state gave no hand; ti4:2.4: check every hand.

        The events of dealing are setup, not moves, so they are not reported.
        """
        self.deal_starting_hands(new_players)
        for name in self.dealing_order():
            self.hand_changed(self.g.players[name])
        self._events = []

    @staticmethod
    def _known(players: dict[str, PlayerState], name: Any, where: str) -> str:
        """A player the state lists, or errored naming the field."""
        if not isinstance(name, str) or name not in players:
            raise RequestError(f"{where}: unknown player {name!r}")
        return name

    def _build_initiative(self, state: JSON, players: dict[str, PlayerState]) -> list[str]:
        """The initiative order: every player exactly once (seat order if not given)."""
        seats = list(players)
        if "initiative" not in state:
            return seats
        listed = _str_list(state["initiative"], "state.initiative")
        initiative = [self._known(players, n, "state.initiative") for n in listed]
        if sorted(initiative) != sorted(seats):
            raise RequestError(
                f"state.initiative must list every player exactly once, got {initiative}"
            )
        return initiative

    def _build_turn(
        self, state: JSON, players: dict[str, PlayerState], initiative: list[str]
    ) -> tuple[str, str | None, str | None, str | None]:
        """Phase, active player, speaker and open window; the action phase defaults to the
        first player in initiative order, in the "Action" window."""
        phase = state.get("phase", "action")
        if not isinstance(phase, str) or phase.casefold() not in self.PHASES:
            raise RequestError(f"state.phase must be one of {list(self.PHASES)}, got {phase!r}")
        phase = phase.casefold()
        active = state.get("active_player")
        if active is not None:
            active = self._known(players, active, "state.active_player")
        elif phase == "action":
            active = initiative[0]
        speaker = state.get("speaker")
        if speaker is not None:
            speaker = self._known(players, speaker, "state.speaker")
        window = state.get("window")
        if window is not None and not isinstance(window, str):
            raise RequestError(f"state.window must be a string, got {window!r}")
        if window is None and phase == "action":
            window = "Action"
        return phase, active, speaker, window

    def _build_deck(
        self, decks: Any, players: dict[str, PlayerState], rng: random.Random
    ) -> tuple[list[str], list[str]]:
        """The action deck's draw and discard piles; a state without them gets a shuffled
        fresh deck (minus the cards in hands) and an empty discard pile."""
        if not isinstance(decks, dict):
            raise RequestError(f"state.decks must be an object, got {decks!r}")
        if set(decks) - {ACTION_DECK}:
            raise UnsupportedRequest(
                f"this engine models only the action deck, not {sorted(set(decks) - {ACTION_DECK})}"
            )
        if ACTION_DECK not in decks:
            draw = self.fresh_deck(players.values())
            rng.shuffle(draw)
            return draw, []
        deck = decks[ACTION_DECK]
        if not isinstance(deck, dict) or set(deck) - {"draw", "discard"}:
            raise RequestError("state.decks.action must be {'draw': [...], 'discard': [...]}")
        draw = self._cards(deck.get("draw", []), "state.decks.action.draw")
        discard = self._cards(deck.get("discard", []), "state.decks.action.discard")
        return draw, discard
    def _build_laws(self, raw: Any) -> list[str]:
        """The laws in play: each one the engine models (``ti4/law/NAME``), or unsupported."""
        laws = _str_list(raw, "state.laws")
        for law in laws:
            if law not in LAW_MODELS:
                raise UnsupportedRequest(f"this engine does not model the law {law!r}",
                                         f"ti4/law/{law}")
        return laws

    def _build_player(self, raw: Any, where: str) -> PlayerState:
        """One player of the state: faction, technologies, tokens, trade goods, hand."""
        name = player_entry(raw, PLAYER_KEYS, where)
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
        return PlayerState(
            name=name,
            faction=faction,
            technologies=_str_list(raw.get("technologies", []), f"{where}.technologies"),
            command_tokens=tokens,
            trade_goods=_count(raw.get("trade_goods", 0), f"{where}.trade_goods"),
            strategy_cards=_str_list(raw.get("strategy_cards", []), f"{where}.strategy_cards"),
            hand_limit_modifier=modifier,
            secret_objectives=_count(raw.get("secret_objectives", 0),
                                     f"{where}.secret_objectives"),
            promissory_notes=_count(raw.get("promissory_notes", 0),
                                    f"{where}.promissory_notes"),
            hand=self._cards(raw.get("hand", []), f"{where}.hand"),
        )

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

    def _build_planets(self, raw_planets: Any, players: dict[str, PlayerState]) -> list[JSON]:
        """Planets in play, each once: who controls it (or nobody), its resource and
        influence values, whether it is exhausted, whether it is in a home system, and its
        trait (cultural, industrial, hazardous) if it has one."""
        if not isinstance(raw_planets, list):
            raise RequestError(f"state.planets must be a list, got {raw_planets!r}")
        planets: list[JSON] = []
        for i, raw in enumerate(raw_planets):
            where = f"state.planets[{i}]"
            if not isinstance(raw, dict) or set(raw) - set(PLANET_KEYS):
                raise RequestError(f"{where} must be an object with keys among {PLANET_KEYS}")
            name = _need(raw, "name", str, where)
            if any(p["name"] == name for p in planets):
                raise RequestError(f"planet {name!r} is listed twice")
            controller = raw.get("controller")
            if controller is not None:
                controller = self._known(players, controller, f"{where}.controller")
            flags = {k: raw.get(k, False) for k in ("exhausted", "home")}
            if not all(isinstance(v, bool) for v in flags.values()):
                raise RequestError(f"{where}: exhausted and home are true or false")
            trait = raw.get("trait")
            if trait is not None and trait not in PLANET_TRAITS:
                raise RequestError(f"{where}.trait must be one of {list(PLANET_TRAITS)}, "
                                   f"got {trait!r}")
            planets.append({"name": name, "controller": controller,
                            "resources": _count(raw.get("resources", 0), f"{where}.resources"),
                            "influence": _count(raw.get("influence", 0), f"{where}.influence"),
                            **flags, **({"trait": trait} if trait else {})})
        return planets

    def fresh_deck(self, players: Iterable[PlayerState]) -> list[str]:
        """The full action deck minus the cards already in hands (unshuffled)."""
        deck = full_deck()
        for player in players:
            for card in player.hand:
                if card in deck:
                    deck.remove(card)
        return deck

    def starting_hand_size(self, player: PlayerState) -> int:
        """ti4:note-1: a player starts the game with zero action cards."""
        return self.STARTING_HAND_SIZE

    def deal_starting_hands(self, names: list[str]) -> None:
        """ti4:note-1: deal the starting hand to each player the state gave no ``hand``."""
        for name in self.dealing_order():
            if name in names:
                player = self.g.players[name]
                player.hand.extend(self.take_from_deck(self.starting_hand_size(player)))
