"""The kinds of ``--engine`` spec, and ``connect``: the one way a spec becomes an engine.

Every caller that needs an engine (a run, smoke, exploration's reference replay, the pipe
server) goes through ``connect`` (or ``factory_for`` for a bare in-process engine), so a
new way to name an engine is one class registered here with ``@register_kind``:

- ``reference`` / ``reference:GAME``: the bundled reference engine of each game (or one);
- ``mutant:NAME`` / ``mutant:GAME/NAME``: a reference engine broken on purpose;
- ``cmd:ARGV``: an engine in any language, a child process speaking the protocol over its
  stdin and stdout (``oracle.engines.pipe``);
- ``package.module:factory``: a Python engine; ``factory()`` returns an object with
  ``handle(request) -> reply`` (``oracle.protocol.Engine``).

A kind's identity (``str(spec)``, used in reports and reproduce commands) is kept apart from
its transport (``open``), as Bowtie keeps a connectable's id apart from its connection.
"""

from __future__ import annotations

import importlib
import os
import shlex
import shutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from oracle.engines.client import EngineClient
from oracle.engines.guard import GuardedEngine
from oracle.engines.spec import DEFAULT_TIMEOUT, EngineSpec, EngineSpecError, register_kind
from oracle.protocol.adapter import Engine

if TYPE_CHECKING:
    from oracle.suite.games import Game

Games = Mapping[str, "Game"]


@dataclass(frozen=True)
class ConnectOptions:
    """How to talk to an engine: per-request timeout, schema checks, the watchdog."""

    timeout: float = DEFAULT_TIMEOUT
    #: For a process: seconds to start and answer the handshake (None: the default, or
    #: ``timeout`` if longer).
    startup_timeout: float | None = None
    strict: bool = False
    #: Run in-process engines behind the watchdog (a hang errors one request, not the run).
    guard: bool = True


class EngineKind:
    """One way of naming an engine in ``--engine``; subclasses are registered in ``KINDS``."""

    name: ClassVar[str]
    prefix: ClassVar[str]
    example: ClassVar[str]
    #: The engine runs in a process of its own, spoken to over the pipe (docs/protocol.md):
    #: what smoke's advice and a broken engine's diagnosis point at.
    process: ClassVar[bool] = False

    def argv(self, spec: EngineSpec) -> list[str]:
        """The command that starts the engine's process ([] for an in-process engine)."""
        return []

    def matches(self, text: str) -> bool:
        return text == self.prefix.rstrip(":") or text.startswith(self.prefix)

    def parse(self, text: str) -> EngineSpec:
        return EngineSpec(self.name, text.removeprefix(self.prefix.rstrip(":")).lstrip(":"))

    def render(self, spec: EngineSpec) -> str:
        return f"{self.name}:{spec.target}" if spec.target else self.name

    def per_game(self, spec: EngineSpec) -> bool:
        """True when each game gets an engine of its own (the bundled references)."""
        return False

    def check(self, spec: EngineSpec, games: Games) -> None:
        """Fail now, with a usage message, if this spec cannot make an engine for ``games``:
        the module is imported and the factory called once, so an engine that cannot be
        made is one short message before the run, not an error in every scenario."""
        make_engine(*self.factory(spec, games))

    def factory(self, spec: EngineSpec, games: Games) -> tuple[Callable[[], Engine], str]:
        """An in-process engine's factory, and the label reports show for it."""
        raise EngineSpecError(f"--engine {spec}: not an in-process Python engine")

    def open(self, spec: EngineSpec, games: Games, options: ConnectOptions) -> Engine:
        """The engine, ready for requests: in-process engines behind the watchdog."""
        factory, label = self.factory(spec, games)
        engine = make_engine(factory, label)  # made once: a factory may be costly
        if not options.guard:
            return engine
        return GuardedEngine(lambda: make_engine(factory, label), label, options.timeout,
                             engine=engine)

    def label(self, spec: EngineSpec, games: Games) -> str:
        return self.factory(spec, games)[1]


def connect(spec: EngineSpec, games: Games, options: ConnectOptions | None = None
            ) -> EngineClient:
    """The engine ``spec`` names, for the scenarios of ``games``, behind a typed client."""
    options = options or ConnectOptions()
    kind = spec.engine_kind
    engine = kind.open(spec, games, options)
    return EngineClient(engine, kind.label(spec, games), strict=options.strict)


def factory_for(spec: EngineSpec, games: Games) -> tuple[Callable[[], Engine], str]:
    """A bare in-process engine factory for ``spec`` (what ``python -m oracle.pipe serve``
    serves); EngineSpecError for specs that are not in-process engines."""
    return spec.engine_kind.factory(spec, games)


# -- the kinds --------------------------------------------------------------------------------


@register_kind
class ReferenceKind(EngineKind):
    name, prefix, example = "reference", "reference:", "reference:ti4"

    def matches(self, text: str) -> bool:
        return text == "reference" or text.startswith("reference:")

    def parse(self, text: str) -> EngineSpec:
        if text == "reference:":
            raise EngineSpecError("'reference:' needs a game, e.g. --engine reference:ti4")
        return EngineSpec(self.name, text.removeprefix("reference").removeprefix(":"))

    def per_game(self, spec: EngineSpec) -> bool:
        return not spec.target

    def factory(self, spec: EngineSpec, games: Games) -> tuple[Callable[[], Engine], str]:
        if spec.target:
            wanted = spec.target
        elif len(games) == 1:
            wanted = next(iter(games))
        else:
            example = "ti4" if "ti4" in games else next(iter(games), "ti4")
            raise EngineSpecError(f"--engine reference runs one engine per game; name its "
                                  f"game, e.g. reference:{example}")
        owner = games.get(wanted)
        if owner is None:
            raise EngineSpecError(f"--engine {spec}: no bundled game {wanted!r} "
                                  f"(games: {', '.join(games)})")
        if not owner.reference_engine:
            raise EngineSpecError(f"no bundled reference engine for {wanted!r}")
        return load_factory(owner.reference_engine), f"reference:{wanted}"

    def check(self, spec: EngineSpec, games: Games) -> None:
        if spec.target:
            make_engine(*self.factory(spec, games))


@register_kind
class MutantKind(EngineKind):
    name, prefix, example = "mutant", "mutant:", "mutant:ti4/no_hand_limit"

    def parse(self, text: str) -> EngineSpec:
        target = text.removeprefix("mutant:")
        if not target or text == "mutant":
            raise EngineSpecError("'mutant:' needs a mutant's name, e.g. mutant:no_hand_limit")
        return EngineSpec(self.name, target)

    def factory(self, spec: EngineSpec, games: Games) -> tuple[Callable[[], Engine], str]:
        from oracle.engines.mutant import find_mutant

        try:
            _, mutant = find_mutant(games.values(), spec.target)
        except KeyError as exc:
            raise EngineSpecError(f"--engine {spec}: {exc.args[0]}") from exc
        return mutant, f"mutant:{mutant.name}"


@register_kind
class CommandKind(EngineKind):
    name, prefix, example = "cmd", "cmd:", "cmd:node engine.js"
    process = True

    def argv(self, spec: EngineSpec) -> list[str]:
        return command_argv(spec.target)

    def parse(self, text: str) -> EngineSpec:
        command = text.removeprefix("cmd:").strip()
        command_argv(command)  # refuse a command that cannot run, with the reason
        return EngineSpec(self.name, command)

    def check(self, spec: EngineSpec, games: Games) -> None:
        command_argv(spec.target)

    def open(self, spec: EngineSpec, games: Games, options: ConnectOptions) -> Engine:
        from oracle.engines.pipe import PipeEngine

        return PipeEngine(command_argv(spec.target), timeout=options.timeout,
                          startup_timeout=options.startup_timeout, label=str(spec))

    def label(self, spec: EngineSpec, games: Games) -> str:
        return str(spec)


@register_kind
class PythonKind(EngineKind):
    """The fallback: anything else of the form ``package.module:attr``."""

    name, prefix, example = "python", "", "package.module:factory"

    def matches(self, text: str) -> bool:
        return True

    def parse(self, text: str) -> EngineSpec:
        module, sep, attr = text.partition(":")
        if not sep or not module or not attr or " " in text:
            raise EngineSpecError(
                f"--engine {text!r} is not an engine spec. Use 'reference', "
                "'reference:GAME' (e.g. reference:ti4), 'mutant:NAME', 'cmd:ARGV' or "
                "'package.module:factory' for a Python engine."
            )
        return EngineSpec(self.name, text)

    def render(self, spec: EngineSpec) -> str:
        return spec.target

    def factory(self, spec: EngineSpec, games: Games) -> tuple[Callable[[], Engine], str]:
        return load_factory(spec.target), spec.target


# -- helpers ----------------------------------------------------------------------------------


def command_argv(command: str) -> list[str]:
    """Split a ``cmd:`` command into argv (``shlex``, no shell) and check it can be started.

    Checked up front so that a typo is a usage error naming the program, not every scenario
    of the run saying that the engine could not be started.
    """
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise EngineSpecError(f"--engine 'cmd:{command}': cannot split the command ({exc}); "
                              "quote arguments as in a POSIX shell") from exc
    if not argv:
        raise EngineSpecError("--engine 'cmd:' needs a command after 'cmd:', e.g. "
                              "--engine 'cmd:node examples/node-ti4/engine.js'")
    if shutil.which(argv[0]) is None:
        where = "is not an executable file" if "/" in argv[0] or os.sep in argv[0] \
            else "is not on PATH"
        raise EngineSpecError(f"--engine 'cmd:{command}': {argv[0]!r} {where}; install it, or "
                              "give the program's path (the command is run without a shell)")
    return argv


def load_factory(target: str) -> Callable[[], Engine]:
    """Import ``package.module:attr`` and return the callable that makes the engine."""
    module_name, _, attr_path = target.partition(":")
    if os.getcwd() not in sys.path:  # like `python -m`: an engine beside you is importable
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise EngineSpecError(
            f"--engine {target!r}: cannot import {module_name!r} ({exc}). Is the engine's "
            "package installed in this environment, or its folder on PYTHONPATH?"
        ) from exc
    except Exception as exc:  # the engine's own module failed while it was imported
        raise EngineSpecError(
            f"--engine {target!r}: importing {module_name!r} raised {type(exc).__name__}: "
            f"{exc}{_where(exc)}. Fix the engine's module (run 'python -c \"import "
            f"{module_name}\"' to see the whole traceback)"
        ) from exc
    obj: Any = module
    for part in attr_path.split("."):
        if not hasattr(obj, part):
            raise EngineSpecError(
                f"--engine {target!r}: {module_name!r} has no attribute {attr_path!r}. Name a "
                "function or class that returns an object with a handle(request) method."
            )
        obj = getattr(obj, part)
    if not callable(obj):
        raise EngineSpecError(f"--engine {target!r}: {attr_path!r} is not callable")
    return obj


def make_engine(factory: Callable[[], Engine], label: str) -> Engine:
    """Call an engine factory and check that what it made speaks the protocol."""
    try:
        engine = factory()
    except Exception as exc:
        raise EngineSpecError(f"--engine {label!r}: the factory raised "
                              f"{type(exc).__name__}: {exc}{_where(exc)}") from exc
    if not callable(getattr(engine, "handle", None)):
        raise EngineSpecError(
            f"--engine {label!r}: the factory returned {type(engine).__name__}, which has no "
            "handle(request) method; see docs/protocol.md"
        )
    return engine


def _where(exc: BaseException) -> str:
    """`` (at FILE:LINE)``: where an engine's exception was raised, its last frame."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return f" (at {tb.tb_frame.f_code.co_filename}:{tb.tb_lineno})" if tb else ""
