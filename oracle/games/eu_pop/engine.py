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
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from oracle.games.eu_pop.cards import (
    ANY_DIE,
    DECKS,
    DIE_TYPES,
    ActionFact,
    CardFact,
    card_facts_by_name,
    load_card_facts,
)
from oracle.games.kit import (
    JSON,
    REFEREE,
    ProtocolEngine,
    Rejected,
    Rejection,
    RequestError,
    UnsupportedRequest,
    contains,
    count,
    need,
    str_list,
)

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


@dataclass
class Display:
    """A Display Card in play: its charges, and the Turn it was placed (6.2.display.4)."""

    card: str
    charges: int
    placed_turn: int


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


@dataclass
class Pile:
    """One deck: its draw pile and its discard pile, both top first."""

    draw: list[str]
    discard: list[str]


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


@dataclass
class Pending:
    """A decision the engine waits for: keep (Phase 5 Step C) or discard (a third display)."""

    player: str
    decision: str
    count: int
    source: str  # "hand" or "display"
    options: list[str] = field(default_factory=list)


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
    being_played: list[PlayRecord] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    turn: int = 0
    action_taken: bool = False
    next_seq: int = 0


class ReferenceEngine(ProtocolEngine):
    """The EU action-card rules as one protocol engine, one overridable method per rule."""

    GAME = GAME
    NAME = "rules-oracle reference EU: The Price of Power"
    VERSION = "0.1.0"
    PROTOCOL = 1
    EDITION = "rulebook chapter 6, illustrative cards"

    #: 6.cards-in-hand.2: the hand size limit, checked only in Phase 5 Step C.
    HAND_LIMIT = 5
    #: 6.decks.4: the discards left out when a deck is rebuilt.
    REBUILD_LEAVES = 5
    #: 6.2.display.9: Display Cards a player may have in play.
    MAX_DISPLAYS = 2
    #: 3. Game Setup, step 2: 3 of each Monarch Power and 15 Ducats unless the state says.
    STARTING_POWER = 3
    STARTING_DUCATS = 15

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
    }

    def __init__(self) -> None:
        super().__init__()
        self.facts: dict[str, CardFact] = card_facts_by_name()
        self.game: GameState | None = None

    # -- protocol plumbing ---------------------------------------------------------------

    def capabilities(self) -> list[str]:
        """What this engine can do, so that the oracle never sends it a scenario it cannot run."""
        caps = ["draw", "play", "hand-limit", "monarch-power", "ducats", "cost-reductions",
                "appoint", "display", "battle"]
        # Every card of the (illustrative) deck is modelled: each stands for a class of card
        # the chapter talks about, and its effect is the stand-in the card facts give it.
        return [f"{GAME}/{c}" for c in caps] + [f"{GAME}/card/{name}" for name in self.facts]





    def card_fact(self, name: Any, where: str) -> CardFact:
        if not isinstance(name, str) or name not in self.facts:
            raise RequestError(f"{where}: unknown action card {name!r}")
        return self.facts[name]

    def _cards(self, value: Any, where: str) -> list[str]:
        cards = str_list(value, where)
        for card in cards:
            self.card_fact(card, where)
        return cards

    # -- setup -------------------------------------------------------------------------------

    def _op_setup(self, request: JSON) -> JSON:
        self.game = None
        if request.get("game") != GAME:
            raise UnsupportedRequest(
                f"this engine plays only {GAME!r}, not {request.get('game')!r}")
        seed = request.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise RequestError(f"'seed' must be an integer, got {seed!r}")
        state = need(request, "state", dict, "setup")
        self.game = self.build_state(state, random.Random(seed))
        return {"reply": "ready"}

    def build_state(self, state: JSON, rng: random.Random) -> GameState:
        """Validate a setup state and build the game; anything impossible is ``errored``."""
        unknown = set(state) - STATE_KEYS
        if unknown:
            raise UnsupportedRequest(f"this engine does not model state keys {sorted(unknown)}")
        raw_players = need(state, "players", list, "state")
        if not raw_players:
            raise RequestError("state.players must list at least one player")
        players: dict[str, PlayerState] = {}
        for i, raw in enumerate(raw_players):
            player = self._build_player(raw, f"state.players[{i}]")
            if player.name in players:
                raise RequestError(f"player {player.name!r} is listed twice")
            players[player.name] = player
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
        decks_in = state.get("decks", {})
        if not isinstance(decks_in, dict) or set(decks_in) - set(DECKS):
            raise RequestError(f"state.decks must map some of {list(DECKS)} to piles")
        in_play = [c for p in players.values() for c in self._cards_held(p)]
        decks: dict[str, Pile] = {}
        for deck in DECKS:
            if deck in decks_in:
                raw = decks_in[deck]
                if not isinstance(raw, dict) or set(raw) - {"draw", "discard"}:
                    raise RequestError(
                        f"state.decks.{deck} must be {{'draw': [..], 'discard': [..]}}")
                pile = Pile(self._cards(raw.get("draw", []), f"state.decks.{deck}.draw"),
                            self._cards(raw.get("discard", []), f"state.decks.{deck}.discard"))
                for card in (*pile.draw, *pile.discard):
                    if self.facts[card].deck != deck:
                        raise RequestError(f"{card!r} belongs to the {self.facts[card].deck} "
                                           f"deck, not the {deck} deck")
            else:
                pile = Pile(self.fresh_deck(deck, in_play), [])
                rng.shuffle(pile.draw)
            decks[deck] = pile
        game = GameState(players=players, seats=list(players), phase=phase, active_player=active,
                         window=window, decks=decks, rng=rng)
        game.battle = self._build_battle(state.get("battle"), players)
        return game

    def _build_player(self, raw: Any, where: str) -> PlayerState:
        if not isinstance(raw, dict):
            raise RequestError(f"{where} must be an object, got {raw!r}")
        unknown = set(raw) - PLAYER_KEYS
        if unknown:
            raise UnsupportedRequest(f"{where}: this engine does not model {sorted(unknown)}")
        name = need(raw, "name", str, where)
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
        for i, entry in enumerate(raw.get("display", [])):
            at = f"{where}.display[{i}]"
            if not isinstance(entry, dict):
                raise RequestError(f"{at} must be {{'card': name, 'charges': n}}")
            fact = self.card_fact(entry.get("card"), at)
            if not self.is_display(fact):
                raise RequestError(f"{at}: {fact.name!r} is not a Display Card")
            charges = count(entry.get("charges", fact.charges), f"{at}.charges")
            player.display.append(Display(fact.name, charges, placed_turn=-1))
        names = [d.card for d in player.display]
        if len(names) > self.MAX_DISPLAYS or len(set(names)) != len(names):
            raise RequestError(f"{where}.display: at most {self.MAX_DISPLAYS} different Display "
                               "Cards can be in play (6.2.display.9)")
        return player

    def _build_battle(self, raw: Any, players: dict[str, PlayerState]) -> Battle | None:
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
        return [*player.hand, *(d.card for d in player.display), *player.advisors, *player.leaders]

    # -- rules: decks --------------------------------------------------------------------------

    def deck_of(self, card: str) -> str:
        """6.decks.1: every card belongs to one of the three decks."""
        return self.facts[card].deck

    def fresh_deck(self, deck: str, in_play: Iterable[str]) -> list[str]:
        """6.decks.1: a new game's deck holds its own cards (minus those already in play)."""
        cards = [f.name for f in load_card_facts() if f.deck == deck for _ in range(f.count)]
        for card in in_play:
            if card in cards:
                cards.remove(card)
        return cards

    def discards_left_out(self, pile: Pile) -> int:
        """6.decks.4, 6.decks.5: leave the top 5 discards, unless there are 5 or fewer."""
        return self.REBUILD_LEAVES if len(pile.discard) > self.REBUILD_LEAVES else 0

    def rebuild(self, deck: str) -> None:
        """6.decks.4: shuffle the discard pile (minus the top discards left out) into a deck."""
        pile = self.g.decks[deck]
        keep = self.discards_left_out(pile)
        pile.draw, pile.discard = pile.discard[keep:], pile.discard[:keep]
        self.g.rng.shuffle(pile.draw)
        self.emit("rebuilt", deck=deck, count=len(pile.draw))

    def rebuild_if_needed(self, deck: str) -> None:
        """6.decks.4: only an empty deck that must be drawn from is rebuilt."""
        pile = self.g.decks[deck]
        if not pile.draw and pile.discard:
            self.rebuild(deck)

    def after_draw(self, deck: str) -> None:
        """6.decks.4: an emptied deck waits until a card must be drawn from it."""

    def take_from_deck(self, deck: str, n: int) -> list[str]:
        """Take ``n`` cards from the top, rebuilding the deck when a card is needed."""
        taken: list[str] = []
        for _ in range(n):
            self.rebuild_if_needed(deck)
            pile = self.g.decks[deck]
            if not pile.draw:
                break
            taken.append(pile.draw.pop(0))
            self.after_draw(deck)
        return taken

    def discard_card(self, card: str) -> None:
        """6.decks.2: a discarded card goes face up on top of its own deck's discard pile."""
        self.g.decks[self.deck_of(card)].discard.insert(0, card)

    def act_draw(self, action: JSON) -> None:
        """A game effect makes a player draw; the hand limit waits for Phase 5 Step C."""
        player = self.player(action.get("player"))
        deck = action.get("deck")
        if deck not in DECKS:
            raise RequestError(f"draw.deck must be one of {list(DECKS)}, got {deck!r}")
        n = count(action.get("count", 1), "draw.count")
        self.require(self.check_not_pending(player.name, "draw"))
        drawn = self.take_from_deck(deck, n)
        player.hand.extend(drawn)
        self.emit("drew", player=player.name, deck=deck, count=len(drawn))
        self.hand_changed(player)

    # -- rules: the hand limit -------------------------------------------------------------------

    def hand_changed(self, player: PlayerState) -> None:
        """6.cards-in-hand.2: the limit is *not* checked when a hand grows."""

    def cards_toward_limit(self, player: PlayerState) -> int:
        """4.5.c.3: only the hand counts; Display Cards in play do not."""
        return len(player.hand)

    def players_in_step_c(self) -> list[str]:
        """4.5.c.1: all players discard down to the limit."""
        return list(self.g.seats)

    def act_discard_down(self, action: JSON) -> None:
        """Phase 5 Step C: every player over the limit must choose 5 cards to keep."""
        game = self.g
        if game.phase != "cleanup":
            raise Rejected(Rejection("the hand limit is checked in Phase 5 (Cleanup), Step C",
                                     HAND_LIMIT))
        if game.pending:
            raise Rejected(Rejection("a decision is still pending"))
        for name in self.players_in_step_c():
            player = game.players[name]
            if self.cards_toward_limit(player) > self.HAND_LIMIT:
                self.add_pending(Pending(name, "keep", self.HAND_LIMIT, "hand"))

    def keep_cards(self, player: PlayerState, keep: list[str]) -> None:
        """4.5.c.2: the player keeps the cards they chose and discards the rest."""
        rest = Counter(keep)
        gone: list[str] = []
        for card in player.hand:
            if rest[card] > 0:
                rest[card] -= 1
            else:
                gone.append(card)
        for card in gone:
            player.hand.remove(card)
            self.discard_card(card)
        self.emit("discarded", player=player.name, cards=gone)

    # -- pending decisions ------------------------------------------------------------------------

    def add_pending(self, pending: Pending) -> None:
        self.g.pending.append(pending)
        self.emit("must_choose", player=pending.player, decision=pending.decision,
                  count=pending.count)

    def pending_for(self, name: str) -> Pending | None:
        return next((p for p in self.g.pending if p.player == name), None)

    def check_not_pending(self, name: str, doing: str) -> Rejection | None:
        """A pending decision comes first: nothing else from that player meanwhile."""
        pending = self.pending_for(name)
        if pending is None:
            return None
        what = "cards to keep" if pending.decision == "keep" else "a Display Card to discard"
        rule_id = STEP_C_CHOICE if pending.decision == "keep" else DISPLAY_THIRD
        return Rejection(f"{name} must first choose {what} before they can {doing}", rule_id)

    def choose(self, player: PlayerState, choice: JSON) -> None:
        """Answer the player's pending decision."""
        pending = self.pending_for(player.name)
        if pending is None:
            raise Rejected(Rejection(f"{player.name} has no decision to make"))
        rule_id = STEP_C_CHOICE if pending.source == "hand" else DISPLAY_THIRD
        if set(choice) != {pending.decision}:
            raise Rejected(Rejection(f"{player.name} must answer with {pending.decision!r}",
                                     rule_id))
        cards = str_list(choice[pending.decision], f"choice.{pending.decision}")
        if len(cards) != pending.count:
            raise Rejected(Rejection(f"{player.name} must {pending.decision} exactly "
                                     f"{pending.count} card(s), not {len(cards)}", rule_id))
        if pending.source == "hand":
            if not contains(player.hand, cards):
                raise Rejected(Rejection(f"{player.name}'s hand does not hold {cards}", rule_id))
            self.g.pending.remove(pending)
            self.keep_cards(player, cards)
            return
        if not contains(pending.options, cards):
            raise Rejected(Rejection(f"{player.name} discards one of {pending.options}", rule_id))
        self.g.pending.remove(pending)
        for card in cards:
            self.discard_display(player, self.display_of(player, card))

    # -- rules: costs ------------------------------------------------------------------------------

    def cost_type(self, fact: CardFact) -> str:
        """6.action-cards.3: a card's Monarch Power cost is of its deck's type."""
        return fact.deck

    def reduced(self, amount: int, reduction: int) -> int:
        """6.action-cards.5: a cost can never go below 0."""
        return max(0, amount - reduction)

    def ducat_cost(self, player: PlayerState, fact: CardFact) -> int:
        """6.action-cards.4: some cards also cost Ducats."""
        return self.reduced(fact.ducats, player.cost_reductions.get("ducats", 0))

    def card_cost(self, player: PlayerState, fact: CardFact) -> dict[str, int]:
        """What playing ``fact`` costs ``player``: Monarch Power of one type, and Ducats."""
        kind = self.cost_type(fact)
        return {kind: self.reduced(fact.cost, player.cost_reductions.get(kind, 0)),
                "ducats": self.ducat_cost(player, fact)}

    def action_cost(self, player: PlayerState, action: ActionFact) -> dict[str, int]:
        """6.action-cards.5, 6.2.display.5: an Action on a Display Card has its own cost."""
        reduction = player.cost_reductions.get(action.power, 0)
        return {action.power: self.reduced(action.cost, reduction)}

    def check_can_pay(self, player: PlayerState, cost: dict[str, int],
                      what: str) -> Rejection | None:
        """6.action-cards.3, 6.action-cards.4: the cost must be paid in full."""
        for kind, amount in cost.items():
            have = player.ducats if kind == "ducats" else player.power[kind]
            if amount > have:
                label = "Ducats" if kind == "ducats" else f"{kind} Monarch Power"
                rule_id = DUCAT_COST if kind == "ducats" else COST_TYPE
                return Rejection(f"{what} costs {amount} {label}; {player.name} has {have}",
                                 rule_id)
        return None

    def pay(self, player: PlayerState, cost: dict[str, int]) -> None:
        """Pay a cost (6.2.covert.3: it stays paid even if the card is countered)."""
        for kind, amount in cost.items():
            if kind == "ducats":
                player.ducats -= amount
            else:
                player.power[kind] -= amount
        self.emit("paid", player=player.name, cost=dict(cost))

    # -- rules: kinds and timing -----------------------------------------------------------------

    @staticmethod
    def is_display(fact: CardFact) -> bool:
        return "display" in fact.kinds

    def is_battle_action(self, kinds: frozenset[str]) -> bool:
        """6.2.battle.1, 6.2.display.6: marked as a Battle Action."""
        return "battle_action" in kinds

    def is_reaction(self, kinds: frozenset[str]) -> bool:
        """6.2.reactions.1, 6.2.display.6: marked as a Reaction."""
        return "reaction" in kinds

    def is_covert(self, kinds: frozenset[str]) -> bool:
        """6.2.covert.2: marked as a Covert Action."""
        return "covert" in kinds

    def takes_turn(self, fact: CardFact) -> bool:
        """6.action-cards.2: playing a card takes a whole Turn, unless it is a Reaction or a
        Battle Action (which are played when their moment comes)."""
        return not (self.is_reaction(fact.kinds) or self.is_battle_action(fact.kinds))

    def action_kinds(self, action: ActionFact) -> frozenset[str]:
        """6.2.display.6: an Action on a Display Card marked as a Battle Action or a Reaction
        is treated as such (and one marked Covert as a Covert Action, 6.2.covert.1)."""
        return action.kinds

    def action_takes_turn(self, kinds: frozenset[str]) -> bool:
        """6.2.display.5: an Action on a Display Card normally takes a Turn (its Battle
        Actions and Reactions do not, 6.2.display.6)."""
        return not (self.is_reaction(kinds) or self.is_battle_action(kinds))

    def check_nothing_being_played(self, doing: str) -> Rejection | None:
        """6.2.reactions.1: only a Reaction interrupts a card being played."""
        if self.g.being_played:
            top = self.g.being_played[-1]
            return Rejection(f"{top.player}'s {top.name!r} is being played: only a Reaction can "
                             f"interrupt it, so resolve it before you {doing}", TURN)
        return None

    def check_turn(self, name: str, doing: str, rule_id: str = TURN) -> Rejection | None:
        """6.action-cards.2: a Turn's Action is the active player's, once, in the Action Phase."""
        game = self.g
        blocked = self.check_nothing_being_played(doing)
        if blocked is not None:
            return blocked
        if game.phase != "action":
            return Rejection(f"to {doing} takes a Turn, and Turns are taken in the Action Phase",
                             rule_id)
        if game.active_player != name:
            return Rejection(f"to {doing} takes a Turn, and it is {game.active_player}'s Turn",
                             rule_id)
        if game.action_taken:
            return Rejection(f"{name} has already taken this Turn's Action", rule_id)
        return None

    def check_reaction(self, name: str, doing: str) -> Rejection | None:
        """6.2.reactions.1: a Reaction interrupts play: any player, any Turn, any phase."""
        return None

    def spend_turn(self) -> None:
        """6.action-cards.2: the Turn's Action has been taken."""
        self.g.action_taken = True

    def after_reaction(self, name: str) -> None:
        """6.2.reactions.1: a Reaction leaves the Turn as it was."""

    # -- rules: battles ----------------------------------------------------------------------------

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
        battle = self.g.battle
        assert battle is not None
        battle.used.add((self.battle_use_key(name), what))

    def check_battle_action(self, name: str, what: str) -> Rejection | None:
        for check in (self.check_battle_moment, self.check_battle_involvement,
                      self.check_battle_once):
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
        """6.2.battle.3, 6.2.battle.4: a new Round of Battle allows new uses; dice stay."""
        battle = self.g.battle
        assert battle is not None
        battle.round += 1
        battle.step = PLAY_BATTLE_ACTIONS
        battle.used.clear()

    def check_battle(self) -> Battle:
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

    def act_battle_end(self, action: JSON) -> None:
        """The Battle is over; what Battle Actions gave it is gone with it (6.2.battle.4)."""
        self.check_battle()
        self.g.battle = None
        self.emit("battle_end")

    # -- rules: Display Cards ------------------------------------------------------------------

    def charges_for(self, fact: CardFact) -> int:
        """6.2.display.2: charged with as many tokens as the card shows squares."""
        return fact.charges

    def check_display_duplicate(self, player: PlayerState, fact: CardFact) -> Rejection | None:
        """6.2.display.9: never 2 of the same Display Card in play."""
        if any(d.card == fact.name for d in player.display):
            return Rejection(f"{player.name} already has {fact.name!r} on display",
                             DISPLAY_LIMIT)
        return None

    def display_over_limit(self, player: PlayerState) -> bool:
        """6.2.display.9: at most 2 Display Cards in play."""
        return len(player.display) > self.MAX_DISPLAYS

    def place_on_display(self, player: PlayerState, fact: CardFact) -> None:
        """6.2.display.2: placed face up on display, charged; 6.2.display.10 over the limit."""
        older = [d.card for d in player.display]
        player.display.append(Display(fact.name, self.charges_for(fact), self.g.turn))
        self.emit("on_display", player=player.name, card=fact.name)
        if self.display_over_limit(player):
            self.third_display(player, older)

    def third_display(self, player: PlayerState, older: list[str]) -> None:
        """6.2.display.10: the player discards 1 of the cards that were already in play."""
        extra = len(player.display) - self.MAX_DISPLAYS
        self.add_pending(Pending(player.name, "discard", extra, "display", older))

    def display_of(self, player: PlayerState, card: str) -> Display:
        return next(d for d in player.display if d.card == card)

    def discard_display(self, player: PlayerState, display: Display) -> None:
        player.display.remove(display)
        self.discard_card(display.card)
        self.emit("display_discarded", player=player.name, card=display.card)

    def find_display(self, name: str, card: str) -> tuple[PlayerState, Display] | None:
        """6.2.display.4: a Display Card's Actions are available to the player who played it."""
        player = self.g.players[name]
        display = next((d for d in player.display if d.card == card), None)
        return (player, display) if display else None

    def usable_now(self, display: Display) -> bool:
        """6.2.display.4: in subsequent Turns, not the Turn it was placed."""
        return display.placed_turn < self.g.turn

    def uses_of(self, action: ActionFact) -> int:
        """6.2.display.7: a use removes one charge, or more if the card says so."""
        return action.uses

    def spend_charges(self, player: PlayerState, display: Display, n: int) -> None:
        """6.2.display.7, 6.2.display.8: remove the charges; the last one spent discards it."""
        display.charges -= n
        if display.charges <= 0:
            self.display_emptied(player, display)

    def display_emptied(self, player: PlayerState, display: Display) -> None:
        """6.2.display.8: once the last charge is spent, discard the card."""
        self.discard_display(player, display)

    # -- rules: appointing -----------------------------------------------------------------------

    def may_appoint(self, fact: CardFact) -> Rejection | None:
        """6.action-cards.7: every Action Card is dual-purpose: any can be appointed."""
        return None

    def character_role(self, fact: CardFact) -> str:
        """6.characters.1: the card depicts a Leader or an Advisor."""
        return fact.character

    def appoint(self, player: PlayerState, fact: CardFact) -> None:
        """6.action-cards.8: the card is used for its character instead of its Action."""
        player.hand.remove(fact.name)
        roles = player.leaders if self.character_role(fact) == "leader" else player.advisors
        roles.append(fact.name)
        self.emit("appointed", player=player.name, card=fact.name, role=self.character_role(fact))

    def after_minor_action(self) -> None:
        """6.action-cards.2: a Minor Action does not take the Turn."""

    def act_appoint(self, action: JSON) -> None:
        """6.characters.2: the Appoint Advisor/Leader (Minor) Action, from the hand."""
        player = self.player(action.get("player"))
        fact = self.card_fact(action.get("card"), "appoint.card")
        self.require(self.check_not_pending(player.name, "appoint"))
        if fact.name not in player.hand:
            raise Rejected(Rejection(f"{player.name} has no {fact.name!r} in hand",
                                     APPOINT_ACTION))
        self.require(self.may_appoint(fact))
        self.require(self.check_nothing_being_played("appoint"))
        game = self.g
        if game.phase != "action" or game.active_player != player.name:
            raise Rejected(Rejection("Appoint Advisor/Leader is a Minor Action of the active "
                                     "player's Turn", APPOINT_ACTION))
        self.appoint(player, fact)
        self.after_minor_action()

    # -- playing cards -------------------------------------------------------------------------

    def parse_targets(self, raw: Any) -> JSON:
        if raw is None:
            return {}
        if not isinstance(raw, dict) or set(raw) - {"card", "dice"}:
            raise RequestError(f"targets may hold 'card' and 'dice', got {raw!r}")
        if "card" in raw and not isinstance(raw["card"], str):
            raise RequestError("targets.card must be a card or Action name")
        if "dice" in raw:
            dice = str_list(raw["dice"], "targets.dice")
            if any(d not in DIE_TYPES for d in dice):
                raise RequestError(f"targets.dice must name Battle Die types {list(DIE_TYPES)}")
        return dict(raw)

    def counters_covert(self, fact: CardFact) -> bool:
        """6.2.covert.2: Counterespionage is the card that counters Covert Actions."""
        return fact.name == COUNTERESPIONAGE

    def may_counter(self, record: PlayRecord) -> bool:
        """6.2.covert.2: only a Covert Action can be countered."""
        return record.covert and not record.countered

    def counter_target(self, targets: JSON) -> PlayRecord | None:
        wanted = targets.get("card")
        for record in reversed(self.g.being_played):
            if wanted is None or wanted in (record.card, record.action):
                return record
        return None

    def check_counter(self, targets: JSON) -> Rejection | None:
        """6.2.covert.2: Counterespionage needs a Covert Action being played to counter."""
        target = self.counter_target(targets)
        if target is None:
            return Rejection("Counterespionage needs a Covert Action being played", COVERT)
        if not self.may_counter(target):
            return Rejection(f"{target.name!r} is not a Covert Action: Counterespionage cannot "
                             "counter it", COVERT)
        return None

    def check_timing(self, player: PlayerState, kinds: frozenset[str], what: str,
                     takes_turn: bool, rule_id: str) -> Rejection | None:
        if self.is_battle_action(kinds):
            return self.check_battle_action(player.name, what)
        if not takes_turn:
            return self.check_reaction(player.name, what)
        return self.check_turn(player.name, f"play {what!r}", rule_id)

    def new_record(self, player: PlayerState, card: str, action: str | None, targets: JSON,
                   covert: bool) -> PlayRecord:
        game = self.g
        record = PlayRecord(game.next_seq, player.name, card, action, targets, covert)
        game.next_seq += 1
        return record

    def start(self, player: PlayerState, record: PlayRecord, kinds: frozenset[str],
              takes_turn: bool, icons: tuple[str, ...]) -> None:
        """What every play and every use does once allowed: the timing bookkeeping."""
        if self.is_battle_action(kinds):
            self.record_battle_use(player.name, record.name)
            record.dice = self.dice_gained(icons, list(record.targets.get("dice", [])))
        if takes_turn:
            self.spend_turn()
        elif self.is_reaction(kinds):
            self.after_reaction(player.name)
        self.g.being_played.append(record)

    def act_play(self, action: JSON) -> None:
        """A player plays a card from their hand for its Action (6.action-cards.6)."""
        player = self.player(action.get("player"))
        fact = self.card_fact(action.get("card"), "play.card")
        targets = self.parse_targets(action.get("targets"))
        self.require(self.check_not_pending(player.name, f"play {fact.name!r}"))
        if fact.name not in player.hand:
            raise Rejected(Rejection(f"{player.name} has no {fact.name!r} in hand",
                                     RESOLVE_THEN_DISCARD))
        takes_turn = self.takes_turn(fact)
        self.require(self.check_timing(player, fact.kinds, fact.name, takes_turn, TURN))
        if self.is_display(fact):
            self.require(self.check_display_duplicate(player, fact))
        if self.is_battle_action(fact.kinds):
            self.require(self.check_dice_choice(fact.dice, targets, fact.name))
        if self.counters_covert(fact):
            self.require(self.check_counter(targets))
        cost = self.card_cost(player, fact)
        self.require(self.check_can_pay(player, cost, repr(fact.name)))
        self.pay(player, cost)
        player.hand.remove(fact.name)
        record = self.new_record(player, fact.name, None, targets, self.is_covert(fact.kinds))
        if self.counters_covert(fact):
            target = self.counter_target(targets)
            record.counters = target.seq if target else None
        self.start(player, record, fact.kinds, takes_turn, fact.dice)
        self.emit("playing", player=player.name, card=fact.name, targets=targets)

    def act_use(self, action: JSON) -> None:
        """A player takes one of the Actions on their Display Card (6.2.display.4-7)."""
        player = self.player(action.get("player"))
        fact = self.card_fact(action.get("card"), "use.card")
        what = need(action, "action", str, "use")
        listed = fact.action(what)
        if listed is None:
            raise RequestError(f"{fact.name!r} lists no Action {what!r}")
        targets = self.parse_targets(action.get("targets"))
        self.require(self.check_not_pending(player.name, f"take {what!r}"))
        found = self.find_display(player.name, fact.name)
        if found is None:
            raise Rejected(Rejection(f"{player.name} has no {fact.name!r} on display: its "
                                     "Actions are for the player who played it", DISPLAY_OWNER))
        owner, display = found
        if not self.usable_now(display):
            raise Rejected(Rejection(f"{fact.name!r} was placed this Turn; its Actions are "
                                     "available in subsequent Turns", DISPLAY_OWNER))
        kinds = self.action_kinds(listed)
        takes_turn = self.action_takes_turn(kinds)
        self.require(self.check_timing(player, kinds, what, takes_turn, DISPLAY_ACTIONS))
        if self.is_battle_action(kinds):
            self.require(self.check_dice_choice(listed.dice, targets, what))
        uses = self.uses_of(listed)
        if display.charges < uses:
            raise Rejected(Rejection(f"{what!r} needs {uses} charge(s); {fact.name!r} has "
                                     f"{display.charges}", DISPLAY_USES))
        cost = self.action_cost(player, listed)
        self.require(self.check_can_pay(player, cost, repr(what)))
        self.pay(player, cost)
        record = self.new_record(player, fact.name, what, targets, self.is_covert(kinds))
        self.start(player, record, kinds, takes_turn, listed.dice)
        self.spend_charges(owner, display, uses)
        self.emit("using", player=player.name, card=fact.name, action=what)

    def act_resolve(self, action: JSON) -> None:
        """Every player passes: what is being played resolves, last played first (with
        nothing being played, passing changes nothing: docs/protocol.md, act)."""
        game = self.g
        while game.being_played:
            record = game.being_played.pop()
            if record.countered:
                self.dispose_countered(record)
            else:
                self.resolve_record(record)

    def effect_ducats(self, record: PlayRecord) -> int:
        fact = self.facts[record.card]
        if record.action is None:
            return fact.effect_ducats
        listed = fact.action(record.action)
        return listed.effect_ducats if listed else 0

    def apply_effect(self, record: PlayRecord) -> None:
        """6.action-cards.6: resolve the effect right away (the cards' stand-in: Ducats)."""
        gain = self.effect_ducats(record)
        if gain:
            self.g.players[record.player].ducats += gain
            self.emit("gained", player=record.player, ducats=gain)
        if record.dice:
            self.add_battle_dice(record.player, record.dice)
        if record.counters is not None:
            self.counter(record.counters)

    def counter(self, seq: int) -> None:
        """6.2.covert.2: the countered Covert Action has no effect."""
        for target in self.g.being_played:
            if target.seq == seq:
                target.countered = True

    def resolve_record(self, record: PlayRecord) -> None:
        """6.action-cards.6: resolve, then discard the card unless it is a Display Card."""
        self.apply_effect(record)
        if record.action is None:
            self.finish_card(record)
        self.emit("resolved", player=record.player, card=record.name)

    def finish_card(self, record: PlayRecord) -> None:
        """6.action-cards.6: after its Action the card is discarded; a Display Card is placed
        on display instead (6.2.display.2)."""
        fact = self.facts[record.card]
        if self.is_display(fact):
            self.place_on_display(self.g.players[record.player], fact)
        else:
            self.discard_card(fact.name)

    def dispose_countered(self, record: PlayRecord) -> None:
        """6.2.covert.3, 6.2.covert.4: a countered card is discarded, its cost stays paid; a
        prevented Action on a Display Card keeps its charges spent."""
        if record.action is None:
            self.discard_card(record.card)
        self.emit("countered", player=record.player, card=record.name)

    # -- turns ---------------------------------------------------------------------------------

    def act_end_turn(self, action: JSON) -> None:
        """The active player's Turn ends; the next player clockwise (seat order) is active."""
        game = self.g
        player = self.player(action.get("player"))
        self.require(self.check_nothing_being_played("end the Turn"))
        self.require(self.check_not_pending(player.name, "end the Turn"))
        if game.phase != "action" or game.active_player != player.name:
            raise Rejected(Rejection(f"it is not {player.name}'s Turn", TURN))
        seats = game.seats
        game.active_player = seats[(seats.index(player.name) + 1) % len(seats)]
        game.turn += 1
        game.action_taken = False
        self.emit("turn", player=game.active_player)

    # -- observe -----------------------------------------------------------------------------

    def visible_hand(self, viewer: str | None, owner: PlayerState) -> list[str]:
        """6.cards-in-hand.1: a hand is secret from everyone but its owner (and the referee)."""
        return list(owner.hand) if viewer in (REFEREE, owner.name) else []

    def visible_hand_count(self, viewer: str | None, owner: PlayerState) -> int | None:
        """How many cards a hand holds is public (the hand limit is checked in public)."""
        return len(owner.hand)

    def visible_discard(self, viewer: str | None, deck: str) -> list[str]:
        """6.decks.2, 6.decks.3: the discard piles are face up: public information."""
        return list(self.g.decks[deck].discard)

    def visible_display(self, viewer: str | None, owner: PlayerState) -> list[JSON]:
        """6.2.display.2: Display Cards are placed face up: everyone sees them and charges."""
        return [{"card": d.card, "charges": d.charges} for d in owner.display]

    def _op_observe(self, request: JSON) -> JSON:
        self.require_game()
        if "viewer" not in request:
            raise RequestError("observe needs 'viewer' (a player's name, null or '*')")
        viewer = request["viewer"]
        if viewer is not None and viewer != REFEREE:
            self.player(viewer)
        return {"reply": "view", "view": self.view(viewer)}

    def view(self, viewer: str | None) -> JSON:
        """The table as ``viewer`` sees it (protocol view plus the EU extras)."""
        game = self.g
        players: JSON = {}
        for name in game.seats:
            p = game.players[name]
            players[name] = {
                "hand": {"count": self.visible_hand_count(viewer, p),
                         "cards": self.visible_hand(viewer, p)},
                "hand_limit": self.HAND_LIMIT,
                "power": dict(p.power),
                "ducats": p.ducats,
                "cost_reductions": dict(p.cost_reductions),
                "display": self.visible_display(viewer, p),
                "advisors": list(p.advisors),
                "leaders": list(p.leaders),
            }
        decks: JSON = {}
        for deck, pile in game.decks.items():
            draw: JSON = {"count": len(pile.draw)}
            if viewer == REFEREE:
                draw["cards"] = list(pile.draw)
            decks[deck] = {"draw": draw, "discard": self.visible_discard(viewer, deck)}
        battle: JSON | None = None
        if game.battle is not None:
            b = game.battle
            battle = {"attackers": list(b.attackers), "defenders": list(b.defenders),
                      "round": b.round, "step": b.step,
                      "dice": {side: sorted(dice) for side, dice in b.dice.items()}}
        return {
            "phase": game.phase,
            "window": game.window,
            "active_player": game.active_player,
            "turn": game.turn,
            "players": players,
            "decks": decks,
            "being_played": [
                {"player": r.player, "card": r.card, **({"action": r.action} if r.action else {})}
                for r in game.being_played
            ],
            "pending": [{"player": p.player, "decision": p.decision, "count": p.count,
                         "from": p.source} for p in game.pending],
            "battle": battle,
        }


def factory() -> ReferenceEngine:
    """A fresh engine: what ``--engine oracle.games.eu_pop.engine:factory`` loads."""
    return ReferenceEngine()
