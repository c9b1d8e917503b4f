"""A problem the suite checks found: where it is, the offending text, and what to do; and
``ScenarioError``, a problem found only as a step runs.

Its own module because every check (``lint``, ``rulings``, ``content``) reports the same
value, and ``pytest.UsageError`` lists them the same way: ``file:line: message`` and the
text, so that an editor can jump to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Problem:
    """One thing wrong with the suite, where it is, and what to do."""

    path: Path
    line: int
    text: str
    message: str

    def __str__(self) -> str:
        text = f"\n    {self.text}" if self.text else ""
        return f"{self.path}:{self.line}: {self.message}{text}"


class ScenarioError(Exception):
    """The scenario itself is wrong (a step that cannot be carried out as written).

    Defined here, in the suite's layer, because the step grammar (``dsl``, ``arguments``)
    and the suite checks raise it; ``oracle.scenario.outcomes`` names it with the other
    ways a scenario ends."""
