"""Building an EU game from a ``setup`` request's state.

Why apart: the state a scenario sends is validated once, here, field by field (players and
their power, decks, displays, a Battle), so that the rules never meet an impossible table.
"""

from __future__ import annotations

import random
from typing import Any

from oracle.games.eu_pop.cards import DECKS
from oracle.games.eu_pop.engine.state import (
    BATTLE_KEYS,
    BATTLE_STEPS,
    PHASES,
    PLAY_BATTLE_ACTIONS,
    PLAYER_KEYS,
    SIDES,
    STATE_KEYS,
    Battle,
    Display,
    GameState,
    Pile,
    PlayerState,
)
from oracle.games.kit import JSON, RequestError, count, str_list
from oracle.games.kit.setup import check_state_keys, player_entry, read_players


class Setup:
    """Validating a setup state and building the game from it."""

    #: 3. Game Setup, step 2: 3 of each Monarch Power and 15 Ducats unless the state says.
    STARTING_POWER = 3
    STARTING_DUCATS = 15

    def build_state(self, state: JSON, rng: random.Random) -> GameState:
        """Validate a setup state and build the game; anything impossible is ``errored``.

        The fields are checked in a fixed order (players, phase and turn, decks, battle), so
        that a state with two mistakes always reports the same one.
        """
        check_state_keys(state, STATE_KEYS)
        players: dict[str, PlayerState] = read_players(state, self._build_player)
        phase, active, window = self._build_turn(state, players)
        decks = self._build_decks(state.get("decks", {}), players, rng)
        game = GameState(players=players, seats=list(players), phase=phase, active_player=active,
                         window=window, decks=decks, rng=rng)
        game.battle = self._build_battle(state.get("battle"), players)
        return game

    @staticmethod
    def _build_turn(state: JSON, players: dict[str, PlayerState]
                    ) -> tuple[str, str | None, str | None]:
        """Phase, active player and open window; the Action Phase defaults to the first
        player."""
        phase = state.get("phase", "action")
        if phase not in PHASES:
            raise RequestError(f"state.phase must be one of {list(PHASES)}, got {phase!r}")
        active = state.get("active_player")
        if active is not None and active not in players:
            raise RequestError(f"state.active_player: unknown player {active!r}")
        if active is None and phase == "action":
            active = next(iter(players))
        window = state.get("window")
        if window is not None and not isinstance(window, str):
            raise RequestError(f"state.window must be a string, got {window!r}")
        return phase, active, window

    def _build_decks(self, decks_in: Any, players: dict[str, PlayerState],
                     rng: random.Random) -> dict[str, Pile]:
        """Each deck's piles as the state gives them, or a shuffled fresh deck (minus the
        cards in play) with an empty discard pile; a card must be in its own deck."""
        if not isinstance(decks_in, dict) or set(decks_in) - set(DECKS):
            raise RequestError(f"state.decks must map some of {list(DECKS)} to piles")
        in_play = [c for p in players.values() for c in self._cards_held(p)]
        decks: dict[str, Pile] = {}
        for deck in DECKS:
            if deck in decks_in:
                decks[deck] = self._build_pile(deck, decks_in[deck])
            else:
                decks[deck] = Pile(self.fresh_deck(deck, in_play), [])
                rng.shuffle(decks[deck].draw)
        return decks

    def _build_pile(self, deck: str, raw: Any) -> Pile:
        """One deck's draw and discard piles from the state (6.decks.1: its own cards only)."""
        if not isinstance(raw, dict) or set(raw) - {"draw", "discard"}:
            raise RequestError(
                f"state.decks.{deck} must be {{'draw': [..], 'discard': [..]}}")
        pile = Pile(self._cards(raw.get("draw", []), f"state.decks.{deck}.draw"),
                    self._cards(raw.get("discard", []), f"state.decks.{deck}.discard"))
        for card in (*pile.draw, *pile.discard):
            if self.facts[card].deck != deck:
                raise RequestError(f"{card!r} belongs to the {self.facts[card].deck} "
                                   f"deck, not the {deck} deck")
        return pile
    def _build_player(self, raw: Any, where: str) -> PlayerState:
        """One player of the state: hand, Monarch Power, Ducats, reductions, display,
        characters (3 of each power and 15 Ducats unless the state says)."""
        name = player_entry(raw, PLAYER_KEYS, where)
        power = {deck: self.STARTING_POWER for deck in DECKS}
        for deck, n in dict(raw.get("power", {})).items():
            if deck not in DECKS:
                raise RequestError(f"{where}.power: unknown Monarch Power {deck!r}")
            power[deck] = count(n, f"{where}.power.{deck}")
        reductions = {}
        for key, n in dict(raw.get("cost_reductions", {})).items():
            if key not in (*DECKS, "ducats"):
                raise RequestError(f"{where}.cost_reductions: unknown cost {key!r}")
            reductions[key] = count(n, f"{where}.cost_reductions.{key}")
        player = PlayerState(
            name=name,
            hand=self._cards(raw.get("hand", []), f"{where}.hand"),
            power=power,
            ducats=count(raw.get("ducats", self.STARTING_DUCATS), f"{where}.ducats"),
            cost_reductions=reductions,
            advisors=self._cards(raw.get("advisors", []), f"{where}.advisors"),
            leaders=self._cards(raw.get("leaders", []), f"{where}.leaders"),
        )
        player.display = self._build_display(raw.get("display", []), where)
        return player

    def _build_display(self, entries: Any, where: str) -> list[Display]:
        """The Display Cards a player has in play, with their charges (6.2.display.9: at most
        two, all different)."""
        display: list[Display] = []
        for i, entry in enumerate(entries):
            at = f"{where}.display[{i}]"
            if not isinstance(entry, dict):
                raise RequestError(f"{at} must be {{'card': name, 'charges': n}}")
            fact = self.card_fact(entry.get("card"), at)
            if not self.is_display(fact):
                raise RequestError(f"{at}: {fact.name!r} is not a Display Card")
            charges = count(entry.get("charges", fact.charges), f"{at}.charges")
            display.append(Display(fact.name, charges, placed_turn=-1))
        names = [d.card for d in display]
        if len(names) > self.MAX_DISPLAYS or len(set(names)) != len(names):
            raise RequestError(f"{where}.display: at most {self.MAX_DISPLAYS} different Display "
                               "Cards can be in play (6.2.display.9)")
        return display
    def _build_battle(self, raw: Any, players: dict[str, PlayerState]) -> Battle | None:
        """The Battle being fought, if the state has one (at \"Play Battle Actions\" unless
        the state says another step)."""
        if raw is None:
            return None
        if not isinstance(raw, dict) or set(raw) - BATTLE_KEYS:
            raise RequestError(f"state.battle must be an object with {sorted(BATTLE_KEYS)}")
        sides = {s: str_list(raw.get(s, []), f"state.battle.{s}") for s in SIDES}
        every = [*sides["attackers"], *sides["defenders"]]
        if not sides["attackers"] or not sides["defenders"] or len(set(every)) != len(every):
            raise RequestError("state.battle needs attackers and defenders, each player on one "
                               "side only")
        for name in every:
            if name not in players:
                raise RequestError(f"state.battle: unknown player {name!r}")
        step = raw.get("step", PLAY_BATTLE_ACTIONS)
        if step not in BATTLE_STEPS:
            raise RequestError(f"state.battle.step must be one of {list(BATTLE_STEPS)}")
        rnd = count(raw.get("round", 1), "state.battle.round")
        return Battle(sides["attackers"], sides["defenders"], max(rnd, 1), step)

    @staticmethod
    def _cards_held(player: PlayerState) -> list[str]:
        """Every card a player has in play: hand, display, advisors, leaders."""
        return [*player.hand, *(d.card for d in player.display), *player.advisors, *player.leaders]
