"""The being-played stack: cards wait on it, then resolve last played first.

Why shared: in both games a card (or an Action) is *being played* until every player has
passed, another card can answer it meanwhile (TI4's Sabotage cancels, EU's Counterespionage
counters), and when the players pass the stack unwinds from the top: a cancelled card is
disposed of, any other resolves. That loop, and marking the card an answer targets, are the
same code in both games; what "resolve" and "dispose" mean is each game's rules, in the
methods each game names.
"""

from __future__ import annotations

from typing import Any, ClassVar

from oracle.games.kit.errors import JSON


class BeingPlayedStack:
    """``act_resolve`` for a game whose state has ``being_played`` (a list, top last) and
    ``next_seq``, and whose records have a ``seq``.

    Each game names, as class attributes, the record flag that marks a card whose effect was
    taken away and the two methods that dispose of such a card or resolve any other; they are
    looked up by name at every resolution (like ``ACTIONS``), so a subclass that overrides one
    of those methods (a mutant) changes what the loop does.
    """

    #: The record attribute that is true once another card took its effect away.
    VOID_FLAG: ClassVar[str] = ""
    #: The method that disposes of such a record, and the one that resolves any other.
    DISPOSE_VOID: ClassVar[str] = ""
    RESOLVE_PLAYED: ClassVar[str] = ""

    def act_resolve(self: Any, action: JSON) -> None:
        """Every player passes: what is being played resolves, last played first. With
        nothing being played, passing changes nothing and is allowed (docs/protocol.md, act):
        an engine that resolves cards at once gets this ``resolve`` after every play."""
        game = self.g
        while game.being_played:
            record = game.being_played.pop()
            if getattr(record, self.VOID_FLAG):
                getattr(self, self.DISPOSE_VOID)(record)
            else:
                getattr(self, self.RESOLVE_PLAYED)(record)

    def take_seq(self: Any) -> int:
        """A new play's number: records are told apart by it, answers name their target by it."""
        seq = self.g.next_seq
        self.g.next_seq += 1
        return seq

    def being_played_seq(self: Any, seq: int | None) -> Any:
        """The record numbered ``seq`` that is still being played, if any."""
        return next((r for r in self.g.being_played if r.seq == seq), None)
