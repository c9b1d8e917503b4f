"""TI4 actions around the cards: Politics, reveals, timing windows, turns and trades.

Why apart: these are the moves a scenario makes between card plays; each is checked against
what is being played and what is pending, and draws or moves cards through the rules of
``drawing`` and ``decisions``.
"""

from __future__ import annotations

from collections import Counter

from oracle.games.kit import JSON, Rejected, Rejection, RequestError
from oracle.games.kit import contains as _contains
from oracle.games.kit import need as _need
from oracle.games.kit import str_list as _str_list
from oracle.games.ti4.engine.state import RULE_2_2, RULE_NOTE_3, PlayerState


class TurnActions:
    """Politics (ti4:2.2), reveals (ti4:note-3), windows, turns and Hacan trades."""

    #: ti4:2.2: Politics' primary and secondary abilities each draw two.
    POLITICS_DRAW = 2
    POLITICS = "Politics"
    HACAN = "Hacan"

    def politics_draw_count(self, player: PlayerState) -> int:
        """ti4:2.2: Politics draws two (Neural Motivator is a status-phase technology only)."""
        return self.POLITICS_DRAW

    def act_politics_primary(self, action: JSON) -> None:
        """ti4:2.2: the active player holding Politics picks a new speaker and draws two."""
        player = self.player(action.get("player"))
        speaker = self.player(action.get("speaker"))
        self.check_politics_primary(player, speaker)
        self.resolve_politics_primary(player, speaker)
        self.player_draws(player, self.politics_draw_count(player))

    def check_politics_primary(self, player: PlayerState, speaker: PlayerState) -> None:
        """ti4:2.2, ti4:66.1: who may resolve Politics' primary ability, and when."""
        game = self.g
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

    def resolve_politics_primary(self, player: PlayerState, speaker: PlayerState) -> None:
        """ti4:66.2.1: the new speaker; the strategic action uses the card and the action."""
        game = self.g
        game.speaker = speaker.name
        game.exhausted.add(self.POLITICS)
        game.action_taken = True
        game.strategic_action = self.POLITICS
        self.emit("speaker", player=speaker.name)

    def secondary_open(self, card: str) -> bool:
        """ti4:66.3: a strategy card's secondary ability is resolved after the active player
        resolves its primary ability, in that strategic action (this turn)."""
        return self.g.strategic_action == card

    def act_politics_secondary(self, action: JSON) -> None:
        """ti4:2.2: another player spends a strategy-pool token to draw two, after the active
        player resolved the primary ability (ti4:66.3)."""
        game = self.g
        player = self.player(action.get("player"))
        self.require(self.check_nothing_being_played("resolve Politics"))
        self.require(self.check_not_pending(player.name, "resolve Politics"))
        if game.phase != "action":
            raise Rejected(Rejection("Politics is resolved in the action phase", RULE_2_2))
        self.check_politics_secondary(player, open_=self.secondary_open(self.POLITICS))
        player.command_tokens["strategy"] -= 1
        self.player_draws(player, self.politics_draw_count(player))

    def check_politics_secondary(self, player: PlayerState, open_: bool = True) -> None:
        """ti4:2.2, ti4:83.4: another player than Politics' holder, once the primary ability
        is resolved (``open_``, ti4:66.3), with a command token in their strategy pool."""
        if self.POLITICS in player.strategy_cards:
            raise Rejected(
                Rejection(f"{player.name} holds Politics and resolves its primary", RULE_2_2)
            )
        if not open_:
            raise Rejected(Rejection("Politics' secondary ability is resolved only after the "
                                     "active player resolves its primary ability, in that "
                                     "strategic action", RULE_2_2))
        if player.command_tokens.get("strategy", 0) < 1:
            raise Rejected(
                Rejection(f"{player.name} has no command token in their strategy pool", RULE_2_2)
            )

    def act_politics(self, action: JSON) -> None:
        """ti4:2.2 as ti4:66 deals it: the active player resolves the primary ability, then
        each player who resolves the secondary spends a strategy-pool token, and the cards
        are dealt as one deal, clockwise from the active player (ti4:66.3, ti4:66.note-1):
        a pending discard holds up the next player, and the reshuffle (``deal_to``)."""
        player = self.player(action.get("player"))
        speaker = self.player(action.get("speaker"))
        followers = [self.player(n) for n in _str_list(action.get("secondary", []),
                                                       "politics.secondary")]
        names = [f.name for f in followers]
        if len(set(names)) != len(names) or player.name in names:
            raise RequestError("politics.secondary lists each other player at most once")
        self.check_politics_primary(player, speaker)
        for follower in followers:
            self.check_politics_secondary(follower)
        self.resolve_politics_primary(player, speaker)
        queue = self.deal_entries(player.name, self.politics_draw_count(player))
        for follower in self.politics_order(player, followers):
            follower.command_tokens["strategy"] -= 1
            queue += self.deal_entries(follower.name, self.politics_draw_count(follower))
        self.start_deal(queue)

    def politics_order(self, active: PlayerState, followers: list[PlayerState]
                       ) -> list[PlayerState]:
        """ti4:66.3: the secondary ability, beginning with the player to the left of the
        active player and proceeding clockwise (seat order)."""
        seats = self.g.seats
        start = seats.index(active.name)
        clockwise = seats[start + 1:] + seats[:start]
        return sorted(followers, key=lambda f: clockwise.index(f.name))

    def act_reveal(self, action: JSON) -> None:
        """ti4:note-3: a player may show any of their cards to everyone."""
        player = self.player(action.get("player"))
        cards = self._cards(action.get("cards"), "reveal.cards")
        self.require(self.check_nothing_being_played("reveal cards"))
        self.require(self.check_reveal_not_pending(player.name))
        if not _contains(player.hand, cards):
            raise Rejected(Rejection(f"{player.name}'s hand does not hold {cards}", RULE_NOTE_3))
        self.apply_reveal(player, cards)

    def apply_reveal(self, player: PlayerState, cards: list[str]) -> None:
        """ti4:note-3: revealed cards are visible to all until they leave the hand."""
        have = Counter(player.hand)
        for card, n in Counter(cards).items():
            player.revealed[card] = min(have[card], max(player.revealed.get(card, 0), n))
        self.emit("revealed", player=player.name, cards=cards)

    def open_window(self, window: str | None) -> None:
        """ti4:2.6.2: a new occurrence of a timing window starts (same-name plays reset)."""
        self.g.window = window
        self.g.window_occurrence += 1
        self.end_event()

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
        game.strategic_action = None
        self.open_window("Action")
        self.emit("turn", player=game.active_player)

    def act_next_round(self, action: JSON) -> None:
        """The rest of the round passes and the game is at the start of ``phase`` of the next
        round (ti4:40: strategy, action, status, agenda). What the phases in between would do
        is not simulated (nothing is drawn, readied or scored); hands, decks, units, planets,
        laws and tokens carry over, and what belongs to a round starts afresh: the status
        phase's steps (ti4:81, so its draw comes again, ti4:2.1 "during each status phase"),
        the strategy cards used, the turn and its action, the window and the event."""
        game = self.g
        phase = _need(action, "phase", str, "next_round action")
        if phase not in self.PHASES:
            raise RequestError(f"next_round.phase must be one of {list(self.PHASES)}, "
                               f"got {phase!r}")
        self.require(self.check_nothing_being_played("go on to the next round"))
        for pending in game.pending:
            self.require(self.check_not_pending(pending.player, "go on to the next round"))
        game.round += 1
        game.phase = phase
        game.status_step = 0
        game.status_dealt = False
        game.exhausted.clear()
        game.turn += 1
        game.action_taken = False
        game.strategic_action = None
        game.active_player = game.initiative[0] if phase == "action" else None
        self.open_window("Action" if phase == "action" else None)
        self.emit("round", round=game.round, phase=phase)

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
