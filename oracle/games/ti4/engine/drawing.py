"""TI4 drawing: the action deck, its reshuffle, Scheming, and the status-phase dealing.

Why together: a draw takes cards from the deck one at a time (ti4:2.3), reshuffles the
discard pile the moment the deck empties (ti4:note-4), adds Scheming's extra card for the
Yssaril player (ti4:note-5.2), and in the status phase deals in initiative order (ti4:note-5),
pausing while a decision is owed.
"""

from __future__ import annotations

from oracle.games.kit import JSON, Rejected, Rejection, UnsupportedRequest
from oracle.games.kit import count as _count
from oracle.games.ti4.engine.events import DRAW_STEP
from oracle.games.ti4.engine.state import ACTION_DECK, RULE_2_1, PlayerState


class Drawing:
    """Taking cards from the action deck, and dealing them to players in turn."""

    #: ti4:2.1: one card per player in the status phase.
    STATUS_DRAW = 1
    #: ti4:note-5.1: a Neural Motivator player draws two in the status phase.
    NEURAL_MOTIVATOR_STATUS_DRAW = 2
    #: ti4:note-5.2: Scheming draws one extra card, then discards one.
    SCHEMING_EXTRA = 1
    SCHEMING_DISCARD = 1
    YSSARIL = "Yssaril"
    NEURAL_MOTIVATOR = "Neural Motivator"

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
        """ti4:note-4: the moment the draw pile is emptied, the discard pile is reshuffled;
        in a deal, once the players dealt from it have discarded down (``reshuffle_waits``)."""
        if not self.reshuffle_waits():
            self.reshuffle_if_depleted()

    def reshuffle_waits(self) -> bool:
        """ti4:66.note-1, ti4:81.note-2: in a deal, the players dealt the old deck's last
        cards discard down to their hand limit before the discard pile is reshuffled, so the
        deal reshuffles when it goes on (``deal_to``), not the moment the deck empties."""
        return self.g.deal_open

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
        self.draw_cards(player, count + extra, extra)

    def draw_cards(self, player: PlayerState, total: int, extra: int, before: int = 0) -> None:
        """Take ``total`` cards (Scheming's ``extra`` among them; ``before``: cards this draw
        took before a deal waited), then the Scheming discard or the hand-limit check."""
        drawn = self.take_from_deck(total)
        player.hand.extend(drawn)
        self.emit("drew", player=player.name, count=len(drawn))
        if extra and (drawn or before) and player.hand:
            n = min(self.scheming_discard_count(player), len(player.hand))
            self.add_pending(player.name, "discard", n)
            return
        self.hand_changed(player)

    def deal_to(self, player: PlayerState, count: int) -> None:
        """One player's turn in a deal (ti4:note-5). When the deck runs out part-way through
        their cards, they take the old deck's last cards and discard down to their hand
        limit if they must; the deal waits for that, reshuffles, then deals them the rest
        (ti4:66.note-1, ti4:81.note-2: "including the player who received the last action
        card from the previous deck")."""
        game = self.g
        extra = self.scheming_extra(player)
        total = count + extra
        if count <= 0 or len(game.draw) >= total or not game.draw or not game.discard:
            self.player_draws(player, count)
            return
        last = self.take_from_deck(len(game.draw))
        player.hand.extend(last)
        self.emit("drew", player=player.name, count=len(last))
        self.hand_changed(player)
        game.deal_resume = (player.name, total - len(last), extra, len(last))

    def continue_dealing(self) -> None:
        """Deal to the rest of the queue until it is empty or a decision makes it wait; a
        deal over (nothing pending) reshuffles a deck it emptied (ti4:note-4)."""
        game = self.g
        while not self.dealing_paused():
            if game.deal_resume is not None:
                name, total, extra, before = game.deal_resume
                game.deal_resume = None
                self.draw_cards(game.players[name], total, extra, before)
            elif game.dealing:
                name, count = game.dealing.pop(0)
                self.deal_to(game.players[name], count)
            else:
                break
        if game.deal_open and not game.dealing and game.deal_resume is None \
                and not self.dealing_paused():
            game.deal_open = False
            self.reshuffle_if_depleted()

    def start_deal(self, queue: list[tuple[str, int]]) -> None:
        """Deal ``queue`` ((player, cards), first first), pausing for decisions."""
        self.g.dealing = list(queue)
        self.g.deal_open = True
        self.continue_dealing()

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
        return [entry for n in self.dealing_order()
                for entry in self.deal_entries(n, self.status_draw_count(self.g.players[n]))]

    def deal_entries(self, name: str, count: int) -> list[tuple[str, int]]:
        """A player's turn in a deal: one draw of all their cards (ti4:note-5.1 "draw both
        their action cards"; ti4:note-5.2 "draw all of their action cards, and discard": one
        draw, so one Scheming card and one discard, ti4:1.20#1)."""
        return [(name, count)]

    def dealing_paused(self) -> bool:
        """ti4:note-5.2, ti4:note-10: the next player draws only after pending discards."""
        return bool(self.g.pending)


    def act_status_draw(self, action: JSON) -> None:
        """ti4:2.1: the status phase's "Draw Action Cards" step, once per status phase."""
        game = self.g
        self.require(self.check_nothing_being_played("draw action cards"))
        if game.phase != "status":
            raise Rejected(Rejection("action cards are dealt in the status phase", RULE_2_1))
        for pending in game.pending:
            self.require(self.check_not_pending(pending.player, "go on with the dealing"))
        if game.dealing or game.deal_resume or game.status_dealt:
            raise Rejected(Rejection("this status phase's cards were already dealt", RULE_2_1))
        self.require(self.status_step_ready(DRAW_STEP))
        game.status_dealt = True
        game.status_step = DRAW_STEP
        self.start_deal(self.status_dealing_queue())

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
