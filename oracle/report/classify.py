"""A scenario's status from how it ended: one function for a pytest run
(``oracle.plugin.verdicts``) and for the kill matrix's harness (``oracle.mutants.harness``),
so they cannot disagree.

Here, below both, because both need it: which exception means ``fail``, ``error``,
``unsupported`` or ``untestable``, and when a failed check, or a refused or errored action
another rule governs, is charged to another rule (``blocked``) or to none (``error``,
uncharged), through the scenario's ``ScenarioWorld.blame``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from oracle.report.model import Status
from oracle.scenario.diagnosis import Blame
from oracle.scenario.outcomes import EngineFault, EngineLacks, NotInEdition, RuleViolation

if TYPE_CHECKING:
    from oracle.scenario.world import ScenarioWorld


def classify_exception(exc: BaseException | None) -> Status:
    """pass / fail / error / unsupported from the exception a scenario ended with (if any).

    A rule violation (or any assertion) is ``fail``: the engine broke the rule.
    Anything else that went wrong (engine crash, protocol error, a scenario
    that cannot run) is ``error``; a missing capability is ``unsupported``; a scenario
    citing a sentence the run's edition lacks is ``untestable``. One function for a pytest
    run and for the kill matrix's harness, so they cannot disagree.
    """
    if exc is None:
        return Status.PASS
    if isinstance(exc, NotInEdition):
        return Status.UNTESTABLE
    if isinstance(exc, EngineLacks | pytest.skip.Exception):
        return Status.UNSUPPORTED
    if isinstance(exc, RuleViolation | AssertionError):
        return Status.FAIL
    return Status.ERROR


def judge(world: ScenarioWorld | None, exc: BaseException | None
          ) -> tuple[Status, Blame | None]:
    """A scenario's status from how it ended, and the other rule to charge when one of
    that rule's checks failed first, or when the engine refused or errored on an action
    another rule governs (then the scenario is ``blocked``); a check no sentence states
    ends it ``error``, charged to no rule (a Blame without a rule). One function for a
    pytest run and for the kill matrix's harness."""
    status = classify_exception(exc)
    if status in (Status.FAIL, Status.ERROR) and world is not None and exc is not None:
        blame = _blame(world, exc)
        if blame is not None:
            return (Status.BLOCKED if blame.rule else Status.ERROR), blame
    return status, None


def _blame(world: ScenarioWorld, failure: BaseException) -> Blame | None:
    """Which other rule to charge for a failed check or an engine error answering an
    action (None: the scenario's own)."""
    if not isinstance(failure, RuleViolation | EngineFault) or (
            isinstance(failure, EngineFault) and failure.sent is None):
        return None
    try:
        return world.blame(failure)
    except Exception:  # the engine broke while being asked: keep the plain failure
        return None
