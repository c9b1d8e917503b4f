"""Pending decisions: what a player owes before anything else, and reading their answer.

Why shared: in both games a decision (keep N cards, discard N cards) waits in the state's
``pending`` list until its player answers with ``choose``; an answer nobody asked for, of the
wrong kind or of the wrong number of cards is rejected the same way. Which decisions exist and
what an answer does are each game's rules.
"""

from __future__ import annotations

from typing import Any

from oracle.games.kit.errors import JSON, Rejected, Rejection
from oracle.games.kit.requests import str_list


class PendingDecisions:
    """Finding a player's pending decision and checking the shape of their answer."""

    def pending_for(self: Any, name: str) -> Any:
        """The first decision ``name`` owes, if any (the state's ``pending``, oldest first)."""
        return next((p for p in self.g.pending if p.player == name), None)

    def owed_decision(self, name: str) -> Any:
        """The decision ``name`` owes, or rejected: a choice nobody asked for changes nothing."""
        pending = self.pending_for(name)
        if pending is None:
            raise Rejected(Rejection(f"{name} has no decision to make"))
        return pending

    @staticmethod
    def chosen_cards(name: str, pending: Any, choice: JSON, rule: str,
                     wrong_kind: str, count_rule: str | None = None) -> list[str]:
        """The cards of an answer to ``pending``: exactly its ``count`` cards under its
        ``decision`` key, or rejected citing ``rule`` (``wrong_kind`` for another key;
        ``count_rule``, where another sentence states the count, for a wrong number)."""
        if set(choice) != {pending.decision}:
            raise Rejected(Rejection(wrong_kind, rule))
        cards = str_list(choice[pending.decision], f"choice.{pending.decision}")
        if len(cards) != pending.count:
            raise Rejected(Rejection(f"{name} must {pending.decision} exactly {pending.count} "
                                     f"card(s), not {len(cards)}", count_rule or rule))
        return cards
