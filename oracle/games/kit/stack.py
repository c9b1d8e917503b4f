"""The being-played stack: cards wait on it, then resolve last played first.

Why shared: in both games a card (or an Action) is *being played* until every player has
passed, another card can answer it meanwhile (TI4's Sabotage cancels, EU's Counterespionage
counters), and when the players pass the stack unwinds from the top: a cancelled card is
disposed of, any other resolves. That loop, and marking the card an answer targets, are the
same code in both games; what "resolve" and "dispose" mean is each game's rules, in the hooks
below.
"""

from __future__ import annotations

from typing import Any, ClassVar

from oracle.games.kit.errors import JSON, Rejected, Rejection


class BeingPlayedStack:
    """``act_resolve`` for a game whose state has ``being_played`` (a list, top last) and
    ``next_seq``, and whose records have a ``seq``."""

    #: What a ``resolve`` with nothing being played is told.
    NOTHING_TO_RESOLVE: ClassVar[str] = "nothing is being played"

    def act_resolve(self: Any, action: JSON) -> None:
        """Every player passes: what is being played resolves, last played first."""
        game = self.g
        if not game.being_played:
            raise Rejected(Rejection(self.NOTHING_TO_RESOLVE))
        while game.being_played:
            record = game.being_played.pop()
            if self.is_void(record):
                self.dispose_void(record)
            else:
                self.resolve_played(record)

    def is_void(self, record: Any) -> bool:
        """Whether another card took this one's effect away (cancelled, countered)."""
        raise NotImplementedError

    def dispose_void(self, record: Any) -> None:
        """What becomes of a card whose effect was taken away."""
        raise NotImplementedError

    def resolve_played(self, record: Any) -> None:
        """Carry out a card (or Action) that nothing took away."""
        raise NotImplementedError

    def take_seq(self: Any) -> int:
        """A new play's number: records are told apart by it, answers name their target by it."""
        seq = self.g.next_seq
        self.g.next_seq += 1
        return seq

    def being_played_seq(self: Any, seq: int | None) -> Any:
        """The record numbered ``seq`` that is still being played, if any."""
        return next((r for r in self.g.being_played if r.seq == seq), None)
