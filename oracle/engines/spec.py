"""``--engine SPEC``: what names an engine, parsed once, checked by the kind it names.

The kinds (``reference``, ``mutant:``, ``cmd:``, ``package.module:factory``) are a registry
(``oracle.engines.kinds``): adding a way to name an engine is one registered class, and
nothing else parses a spec.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from oracle.engines.kinds import EngineKind

DEFAULT_TIMEOUT = 10.0
"""Seconds an engine gets to answer one request."""

DEFAULT_MAX_TIMEOUTS = 2
"""Request timeouts in a row after which a run gives an engine up (``--max-timeouts``): an
engine that hangs on every ``setup`` ends the run in two timeouts, not one per scenario."""

DEFAULT_STARTUP_TIMEOUT = 30.0
"""Seconds an engine process gets to start and answer the handshake, unless ``--timeout``
is longer: starting a runtime (a JVM, a Python importing its engine on a loaded machine) can
take far longer than answering a request, and a per-request timeout short enough to catch a
hang quickly should not fail a slow start."""


class EngineSpecError(ValueError):
    """An ``--engine`` value that names no usable engine; the message says how to fix it."""


KINDS: dict[str, EngineKind] = {}
"""Every registered kind by name, in the order they are tried (the fallback last)."""


def register_kind(cls: type[EngineKind]) -> type[EngineKind]:
    """Class decorator: make a kind of engine spec known (``oracle.engines.kinds``)."""
    KINDS[cls.name] = cls()
    return cls


@dataclass(frozen=True)
class EngineSpec:
    """A parsed ``--engine`` value: the kind that names the engine, and the rest of the text."""

    kind: str  # a registered kind's name: "reference", "mutant", "python", "cmd", ...
    target: str = ""  # what follows the kind's prefix (a game, a mutant, module:attr, argv)

    @classmethod
    def parse(cls, text: str) -> EngineSpec:
        """Parse and check the syntax of a spec; EngineSpecError says what would be right."""
        text = text.strip()
        # A kind with no prefix (package.module:attr) is the fallback, tried last.
        for kind in sorted(KINDS.values(), key=lambda k: not k.prefix):
            if kind.matches(text):
                return kind.parse(text)
        examples = ", ".join(f"'{k.example}'" for k in KINDS.values())
        raise EngineSpecError(f"--engine {text!r} is not an engine spec; use one of {examples}")

    @property
    def engine_kind(self) -> EngineKind:
        return KINDS[self.kind]

    @property
    def argv(self) -> list[str]:
        """The command of a ``cmd:`` spec, as the argument list it is started with."""
        from oracle.engines.kinds import command_argv

        return command_argv(self.target) if self.kind == "cmd" else []

    def __str__(self) -> str:
        return self.engine_kind.render(self)

