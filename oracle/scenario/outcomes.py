"""The ways a scenario can end other than passing, as exceptions the steps raise.

A conformance report must tell "the engine breaks the rule" (fail) from
"the engine broke" (error) and from "the engine cannot do this" (unsupported),
so each has its own exception; ``oracle.report.classify`` maps them to statuses.
``ScenarioError`` (the scenario itself is wrong) is defined with the suite's other problems
(``oracle.suite.problems``), where the step grammar raises it, and named here with the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from oracle.suite.problems import ScenarioError

__all__ = ["EngineFault", "EngineLacks", "NotInEdition", "RuleViolation", "ScenarioError",
           "UnexpectedRejection"]


class RuleViolation(AssertionError):
    """The engine did something the rule forbids, or failed to do what it requires.

    ``concept`` names the fact the failed check is about, when that fact is stated by a
    particular rule whatever scenario checks it (a hand's size shown to everyone, cards
    hidden from other players): the game maps concepts to rule ids (``concepts:`` in its
    ``game.yaml``), so a scenario of another rule that trips on it is reported blocked and
    that rule is charged. Without a concept, the check is about the scenario's own rule.
    """

    def __init__(self, message: str, concept: str | None = None) -> None:
        super().__init__(message)
        self.concept = concept
        self.sent: tuple[str, str, Mapping[str, Any]] | None = None


class UnexpectedRejection(RuleViolation):
    """The engine rejected an action no step expected to be rejected. It is found at the
    next step (only then is it known that no 'Then the action is rejected' follows), but it
    happened at the step that sent the action: ``step`` is that step, ``(line, keyword,
    text)``, for the report to show the failure there."""

    def __init__(self, message: str, step: tuple[int, str, str] | None = None,
                 sent: tuple[str, str, Mapping[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.step = step
        #: The refused action, ``(step text, kind, action)``: the game may say another rule
        #: governs it (``oracle.suite.governs``), which is then charged.
        self.sent = sent


class EngineFault(Exception):
    """The engine crashed, answered with ``errored``, or broke the protocol.

    ``sent`` is the action it was answering, ``(step text, kind, action)``, when it was
    answering one: the game may say another rule governs that action (``oracle.suite.
    governs``), which is then charged."""

    def __init__(self, message: str,
                 sent: tuple[str, str, Mapping[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.sent = sent


class EngineLacks(pytest.skip.Exception):  # type: ignore[misc,name-defined]
    """The scenario needs something the engine does not support.

    A subclass of pytest's skip outcome, so pytest shows it as skipped and the
    run goes on; the report shows it as ``unsupported``, never ``fail``.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(f"unsupported: {reason}", pytrace=False)
        self.reason = reason


class NotInEdition(pytest.skip.Exception):  # type: ignore[misc,name-defined]
    """The scenario cites a sentence the edition the run is as of lacks (``--edition``):
    it cannot be tested against that text, so it is not run. Shown as skipped; the report
    says ``untestable`` with the reason."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason, pytrace=False)
        self.reason = reason

