"""``--engine SPEC``: what names an engine, parsed once, checked by the kind it names.

The kinds (``reference``, ``mutant:``, ``cmd:``, ``package.module:factory``) are a registry
(``oracle.engines.kinds``): adding a way to name an engine is one registered class (or,
from another package, one ``rules_oracle.engine_kinds`` entry point), and nothing else
parses a spec or asks which kind a spec is.
"""

from __future__ import annotations

import functools
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
"""Every registered kind by name (``kinds()`` adds those other packages install)."""


def register_kind(cls: type[EngineKind]) -> type[EngineKind]:
    """Class decorator: make a kind of engine spec known (``oracle.engines.kinds``)."""
    KINDS[cls.name] = cls()
    return cls


@functools.cache
def kinds() -> dict[str, EngineKind]:
    """Every kind: the bundled ones (``oracle.engines.kinds``), then those other packages
    install (``rules_oracle.engine_kinds`` entry points, each an ``EngineKind`` subclass)."""
    from oracle import extensions
    from oracle.engines.kinds import EngineKind

    for entry, cls in extensions.load(
            extensions.ENGINE_KINDS, lambda c: isinstance(c, type) and issubclass(c, EngineKind),
            "a subclass of oracle.engines.EngineKind"):
        name = getattr(cls, "name", None)
        if not isinstance(name, str) or not isinstance(getattr(cls, "prefix", None), str):
            raise extensions.ExtensionError(
                f"the entry point {entry} ({extensions.ENGINE_KINDS}) gives {cls.__name__}, "
                "which has no 'name' and 'prefix' (class attributes, e.g. 'docker' and "
                "'docker:')")
        if name in KINDS and type(KINDS[name]) is not cls:
            raise extensions.ExtensionError(
                f"the entry point {entry} ({extensions.ENGINE_KINDS}) adds an engine kind "
                f"named {name!r}, which is taken; give it a name of its own")
        register_kind(cls)
    return KINDS


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
        for kind in sorted(kinds().values(), key=lambda k: not k.prefix):
            if kind.matches(text):
                return kind.parse(text)
        examples = ", ".join(f"'{k.example}'" for k in kinds().values())
        raise EngineSpecError(f"--engine {text!r} is not an engine spec; use one of {examples}")

    @property
    def engine_kind(self) -> EngineKind:
        return kinds()[self.kind]

    @property
    def argv(self) -> list[str]:
        """The command that starts the engine's process, for a kind that starts one (to
        start it by hand and see why it fails); [] for an in-process engine."""
        return self.engine_kind.argv(self)

    def __str__(self) -> str:
        return self.engine_kind.render(self)

