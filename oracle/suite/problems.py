"""A problem the suite checks found: where it is, the offending text, and what to do.

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
