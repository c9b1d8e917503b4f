"""Mutants of what players see: ti4:2.5, note-2, note-3.

Hidden information goes wrong per viewer (a spectator treated as the referee), per source
(cards drawn or traded face up), or per moment (a count or a reveal that does not follow the
hand).
"""

from __future__ import annotations

from typing import Any

from oracle.games.kit import REFEREE, Rejected, Rejection
from oracle.games.kit.slips import leaky_transaction, returns
from oracle.games.ti4.engine import ReferenceEngine as Ref
from oracle.games.ti4.mutants.base import mutant
from oracle.mutants import Mutant

# -- ti4:2.5 ---------------------------------------------------------------------------------


def _whole_hand(self: Ref, viewer: str | None, owner: Any) -> list[str]:
    return list(owner.hand)


def _spectators_see_hands(self: Ref, viewer: str | None, owner: Any) -> list[str]:
    return list(owner.hand) if viewer is None else Ref.visible_hand(self, viewer, owner)


def _drawn_face_up(self: Ref, player: Any, count: int) -> None:
    before = list(player.hand)
    Ref.player_draws(self, player, count)
    drawn = list(player.hand[len(before):])
    if drawn:
        Ref.apply_reveal(self, player, drawn)


def _traded_face_up(self: Ref, action: Any) -> None:
    Ref.act_trade(self, action)
    receiver = self.player(action.get("to"))
    Ref.apply_reveal(self, receiver, list(action.get("cards") or []))


# -- ti4:note-2 ------------------------------------------------------------------------------


def _count_for_owner_only(self: Ref, viewer: str | None, owner: Any) -> int | None:
    return len(owner.hand) if viewer in (REFEREE, owner.name) else None


def _count_hidden_from_spectators(self: Ref, viewer: str | None, owner: Any) -> int | None:
    return None if viewer is None else len(owner.hand)


def _remember_sizes(self: Ref, new_players: list[str]) -> None:
    Ref.start_game(self, new_players)
    self._setup_sizes = {name: len(p.hand) for name, p in self.g.players.items()}


def _stale_count(self: Ref, viewer: str | None, owner: Any) -> int | None:
    if viewer in (REFEREE, owner.name):
        return len(owner.hand)
    return self._setup_sizes.get(owner.name, 0)


# -- ti4:note-3 ------------------------------------------------------------------------------


def _reveal_first_only(self: Ref, player: Any, cards: list[str]) -> None:
    Ref.apply_reveal(self, player, cards[:1])


def _forget_reveals_on_draw(self: Ref, player: Any, count: int) -> None:
    player.revealed.clear()
    Ref.player_draws(self, player, count)


def _reveal_not_to_spectators(self: Ref, viewer: str | None, owner: Any) -> list[str]:
    return [] if viewer is None else Ref.visible_hand(self, viewer, owner)


def _reveal_then_refuse(self: Ref, action: Any) -> None:
    player = self.player(action.get("player"))
    cards = list(action.get("cards") or [])
    held = [c for c in cards if c in player.hand]
    if len(held) == len(cards):
        Ref.act_reveal(self, action)
        return
    Ref.apply_reveal(self, player, held)  # shows what it can ...
    raise Rejected(Rejection(f"{player.name} does not hold all of {cards}"))  # ... then refuses


MUTANTS: tuple[Mutant, ...] = (
    # ti4:2.5
    mutant("hand_shown_to_all", ("2.5",),
           "every viewer sees every card in every hand", visible_hand=_whole_hand),
    mutant("hand_shown_to_spectators", ("2.5",),
           "a spectator is shown every hand, as if it were the referee",
           visible_hand=_spectators_see_hands),
    mutant("drawn_cards_face_up", ("2.5",),
           "cards drawn or dealt are shown to everybody",
           player_draws=_drawn_face_up),
    mutant("traded_cards_face_up", ("2.5",),
           "cards received in a transaction are shown to everybody",
           act_trade=_traded_face_up),
    # ti4:note-2
    mutant("hand_count_hidden", ("note-2",),
           "other players are not shown how many cards a hand holds",
           visible_hand_count=_count_for_owner_only),
    mutant("hand_count_hidden_from_spectators", ("note-2",),
           "spectators are not shown how many cards a hand holds",
           visible_hand_count=_count_hidden_from_spectators),
    mutant("hand_count_stale", ("note-2",),
           "other viewers are shown the size each hand had when the game was set up",
           start_game=_remember_sizes, visible_hand_count=_stale_count),
    # ti4:note-3
    mutant("reveal_not_shown", ("note-3",),
           "revealed cards stay hidden from the other players",
           apply_reveal=returns(None)),
    mutant("reveal_first_card_only", ("note-3",),
           "a player who reveals several cards shows only the first",
           apply_reveal=_reveal_first_only),
    mutant("reveal_forgotten_on_draw", ("note-3",),
           "revealed cards are hidden again when the player draws",
           player_draws=_forget_reveals_on_draw),
    mutant("reveal_not_to_spectators", ("note-3",),
           "revealed cards are shown to the players but not to spectators",
           visible_hand=_reveal_not_to_spectators),
    mutant("reveal_refused_after_showing", ("note-3",),
           "a reveal naming a card not held shows the others, then is refused",
           act_reveal=_reveal_then_refuse, _transaction=leaky_transaction),
)
