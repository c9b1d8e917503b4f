"""A scenario's verdict: plain data that survives pytest-xdist.

Verdicts travel on ``report.user_properties`` (which xdist serialises from
workers to the controller), not in the cucumber JSON that pytest-bdd 9
writes as ``[]`` under xdist.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import pytest

from oracle.outcomes import EngineLacks, RuleViolation

USER_PROPERTY = "rules_oracle.verdict"
SCENARIO_STATUSES = ("pass", "fail", "error", "unsupported")


@dataclass(frozen=True)
class ScenarioVerdict:
    """How one scenario ended, and for which rules it speaks."""

    name: str
    game: str
    rules: tuple[str, ...]
    status: str
    location: str
    message: str = ""
    duration: float = 0.0
    engine: tuple[tuple[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["rules"] = list(self.rules)
        data["engine"] = dict(self.engine)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ScenarioVerdict:
        return cls(
            name=data["name"], game=data["game"], rules=tuple(data["rules"]),
            status=data["status"], location=data["location"], message=data.get("message", ""),
            duration=float(data.get("duration", 0.0)),
            engine=tuple(sorted(dict(data.get("engine") or {}).items())),
        )


def classify(excinfo: pytest.ExceptionInfo[BaseException] | None) -> str:
    """pass / fail / error / unsupported from how the test call ended.

    A rule violation (or any assertion) is ``fail``: the engine broke the rule.
    Anything else that went wrong (engine crash, protocol error, a scenario
    that cannot run) is ``error``; a missing capability is ``unsupported``.
    """
    if excinfo is None:
        return "pass"
    if isinstance(excinfo.value, EngineLacks):
        return "unsupported"
    if isinstance(excinfo.value, pytest.skip.Exception):
        return "unsupported"
    if isinstance(excinfo.value, RuleViolation | AssertionError):
        return "fail"
    return "error"
