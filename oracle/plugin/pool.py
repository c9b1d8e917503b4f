"""The engines of a run: each made once per process, started before the first scenario, and
given up (the circuit breaker, ``oracle.plugin.breaker``) when it cannot serve.

Its own object, held by the run (``OracleRun.pool``), because it is the one part of a run
that owns processes and threads: it alone connects, starts and closes engines, whatever asks
for one (a scenario's world, an exploration, the start of the tests). One engine serves
every game, or one per game where the engine kind says so (``EngineKind.per_game``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from oracle.engines import ConnectOptions, EngineClient, EngineSpec, EngineSpecError, connect
from oracle.plugin.breaker import Breaker, Trip, waiting
from oracle.scenario.outcomes import EngineFault
from oracle.suite.games import Game

SHARED = "*"
"""The key of the one engine that serves every game (a kind that is not per game)."""


@dataclass(eq=False)  # holds connections: compared by identity
class EnginePool:
    """The engine ``spec`` names, connected once per process (per game, for a kind that
    runs one engine per game), and which of them the breaker gave up."""

    spec: EngineSpec
    games: dict[str, Game]
    options: ConnectOptions = field(default_factory=ConnectOptions)
    #: Engines given up (failed at start-up, or too many timeouts in a row), and why.
    breaker: Breaker = field(default_factory=lambda: Breaker(EngineSpec("reference")))
    clients: dict[str, EngineClient] = field(default_factory=dict)

    @classmethod
    def open(cls, spec: EngineSpec, games: dict[str, Game], options: ConnectOptions,
             max_timeouts: int) -> EnginePool:
        """The pool of a run, its engine checked: an in-process engine by being made (once:
        that engine is the one the run uses), a process engine, or a bundled reference
        engine per game, by its kind without being started. ``EngineSpecError`` when it
        cannot be."""
        pool = cls(spec, games, options, Breaker(spec, max_timeouts))
        kind = spec.engine_kind
        if kind.process or kind.per_game(spec):
            kind.check(spec, games)
        else:
            pool.clients[SHARED] = connect(spec, games, options)
        return pool

    def key(self, game: Game) -> str:
        """Which engine of the pool serves ``game``'s scenarios."""
        return game.id if self.spec.engine_kind.per_game(self.spec) else SHARED

    def client_for(self, game: Game) -> EngineClient:
        """The engine a game's scenarios run on, connected once per process."""
        key = self.key(game)
        if key not in self.clients:
            games = {game.id: game} if key != SHARED else self.games
            self.clients[key] = connect(self.spec, games, self.options)
        return self.clients[key]

    def tripped(self, game: Game) -> tuple[str, Trip | None]:
        """The key of ``game``'s engine, and why it is given up (None: it is not)."""
        key = self.key(game)
        return key, self.breaker.tripped(key, self.clients.get(key))

    def engine_for(self, game: Game) -> EngineClient:
        """The engine for a scenario, described (handshake done), or EngineFault at once.

        The circuit breaker (``oracle.plugin.breaker``): an engine that fails at start-up
        (its handshake fails, it crashes or hangs before describing itself) is not restarted
        for every scenario, nor is one that timed out ``--max-timeouts`` requests in a row:
        every later scenario on it ends ``error`` with the diagnosis without a request, so
        a broken engine costs one start or a few timeouts, not one per scenario.
        """
        key, trip = self.tripped(game)
        if trip is not None:
            raise EngineFault(trip.message)
        try:
            client = self.client_for(game)
            client.info()
        except EngineSpecError as exc:
            if key in self.clients:
                self.clients[key].close()
            raise EngineFault(self.breaker.failed_to_start(key, exc).message) from None
        return client

    def start(self, games: Iterable[Game], writer: Any) -> None:
        """Start the engines of ``games`` (the collected scenarios') before the first one
        runs, showing "starting engine ... (N s)" on ``writer`` (pytest's terminal writer,
        or None) while the handshake is waited for: an engine that fails here is diagnosed
        once, by the breaker."""
        first: dict[str, Game] = {}
        for game in games:
            first.setdefault(self.key(game), game)
        for key, game in first.items():
            what = f"starting engine {self.spec}" + (f" for {game.id}" if key != SHARED else "")
            with contextlib.suppress(EngineFault), waiting(writer, what):
                self.engine_for(game)

    def close(self) -> None:
        """Stop the engine processes this process started (closing their stdin first)."""
        for client in self.clients.values():
            client.close()
