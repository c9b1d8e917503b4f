"""The circuit breaker: one diagnosis per broken engine, not one per scenario.

Why: an engine that cannot start (it crashes, hangs or misbehaves before describing itself)
would print the same diagnosis once per scenario (1,106 times for the bundled suite), and one
that hangs on every request would cost every scenario a timeout (20 minutes at the default).
So the run starts its engines before the first scenario, showing "starting engine ... (N s)"
while it waits; an engine that fails then is diagnosed once, with what to do about it, and
the run exits 2 (it is the set-up that is wrong, not a rule); an engine that does not answer
``--max-timeouts`` requests in a row is given up. Either way each remaining scenario on that
engine ends ``error`` with the diagnosis at once, without a request, so every report still
lists it, and without a line of its own in the terminal: the terminal lists them in one line.
"""

from __future__ import annotations

import json
import shlex
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest

from oracle.engines import EngineClient, EngineSpec
from oracle.engines.spec import DEFAULT_MAX_TIMEOUTS
from oracle.plugin.verdicts import attach
from oracle.scenario.outcomes import EngineFault

if TYPE_CHECKING:
    from oracle.plugin.run import OracleRun

NOT_RUN_PROPERTY = "rules_oracle.not_run"
"""The user property of a scenario that was not run because its engine was given up."""

STARTUP = "the engine failed at start-up"


@dataclass(frozen=True)
class Trip:
    """Why an engine was given up: its diagnosis, and whether it never started (exit 2)."""

    message: str
    at_startup: bool


@dataclass
class Breaker:
    """Which engines of a run are given up, and why (one per engine key)."""

    spec: EngineSpec
    max_timeouts: int = DEFAULT_MAX_TIMEOUTS
    trips: dict[str, Trip] = field(default_factory=dict)
    #: The scenarios not run because their engine was given up: engine key -> locations.
    not_run: dict[str, list[str]] = field(default_factory=dict)

    def tripped(self, key: str, client: EngineClient | None) -> Trip | None:
        """The reason the engine under ``key`` is given up, if it is (checked before each
        scenario: an engine that just timed out ``max_timeouts`` requests in a row trips)."""
        if key not in self.trips and client is not None and self.max_timeouts \
                and client.timeouts_in_a_row >= self.max_timeouts:
            self.trips[key] = Trip(self._timeouts(client), at_startup=False)
        return self.trips.get(key)

    def failed_to_start(self, key: str, problem: Exception) -> Trip:
        """Record an engine that failed at start-up, with its diagnosis and what to do."""
        self.trips[key] = Trip(
            f"{STARTUP}: {problem}\n{self.fix(str(problem))}\n(it is not restarted for "
            "each scenario: every scenario on it ends error with this message)",
            at_startup=True)
        return self.trips[key]

    def fix(self, problem: str) -> str:
        """What to do about a start-up failure, in one line."""
        smoke = f"rules-oracle smoke --engine {shlex.quote(str(self.spec))}"
        if "did not answer" in problem:
            return (f"to fix: if the engine is only slow to start, raise --startup-timeout; "
                    f"else make it answer the handshake (one JSON line, flushed): {smoke} "
                    "shows the exchange")
        if self.spec.engine_kind.process and ("exited" in problem
                                              or "could not be started" in problem):
            return (f"to fix: start it by hand ({shlex.join(self.spec.argv)}) and read why it "
                    f"stops; then {smoke} checks the handshake and a few requests")
        return (f"to fix: {smoke} checks the handshake and a few requests and says what is "
                "wrong (docs/adapters.md walks through a first adapter)")

    def _timeouts(self, client: EngineClient) -> str:
        last = client.last_timeout.splitlines()[0] if client.last_timeout else ""
        return (f"the engine did not answer {client.timeouts_in_a_row} requests in a row in "
                f"time (the last: {last}); it is given up: every remaining scenario on it ends "
                f"error with this message, without a request (--max-timeouts "
                f"{self.max_timeouts} says after how many timeouts in a row; 0 never gives up)")

    def heard(self, value: str, location: str) -> None:
        """A scenario was not run (``NOT_RUN_PROPERTY``'s value, from this process or an
        xdist worker): the controller learns the trip and lists the scenario."""
        data = json.loads(value)
        self.trips.setdefault(data["engine"], Trip(data["message"], data["startup"]))
        self.not_run.setdefault(data["engine"], []).append(location)

    def at_startup(self) -> bool:
        """Whether an engine of the run failed at start-up (the run exits 2)."""
        return any(t.at_startup for t in self.trips.values())

    def summary(self, width: int) -> list[str]:
        """The terminal's lines: each given-up engine's diagnosis once, then the scenarios
        not run on it in one line (per feature file, with counts, cut to the width)."""
        lines: list[str] = []
        for key, trip in self.trips.items():
            lines += [f"rules-oracle: {trip.message.splitlines()[0]}",
                      *(f"  {line}" for line in trip.message.splitlines()[1:])]
            where = self.not_run.get(key, [])
            if where:
                files = Counter(w.rpartition(":")[0] for w in where)
                listed = ", ".join(f"{f} ({n})" for f, n in files.items())
                line = (f"not run (each error in the report): {len(where)} scenarios: "
                        f"{listed}")
                lines.append(line if len(line) <= width else line[:width - 1] + "…")
        return lines


def report_not_run(run: OracleRun, item: pytest.Item, key: str, trip: Trip,
                   properties: list[tuple[str, Any]]) -> None:
    """Report a scenario that is not run (its engine was given up) as pytest would a test
    whose setup raised ``EngineFault``: the same verdict (``error`` with the diagnosis and
    the reproduce command), on a failed report marked ``not run`` (``NOT_RUN_PROPERTY``,
    which carries the trip to xdist's controller; and the given ``properties``), so the
    terminal gives it no line of its own while every report lists it."""
    def fault() -> None:
        raise EngineFault(trip.message)

    value = json.dumps({"engine": key, "startup": trip.at_startup, "message": trip.message})

    call = pytest.CallInfo.from_call(fault, "setup")
    item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    report = pytest.TestReport(
        item.nodeid, item.location, dict.fromkeys(item.keywords, 1), "failed",
        f"not run: {trip.message.splitlines()[0]}", "setup",
        user_properties=[(NOT_RUN_PROPERTY, value), *properties])
    attach(run, item, call, report)
    item.ihook.pytest_runtest_logreport(report=report)
    item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)


@contextmanager
def waiting(writer: Any, what: str, after: float = 1.0, every: float = 1.0) -> Iterator[None]:
    """Show ``what ... (N s)`` while the block runs, if it takes longer than ``after``: on a
    terminal one line rewritten each second, elsewhere (a CI log) a line every ten seconds,
    and the time it took at the end. ``writer`` is pytest's terminal writer (or None)."""
    if writer is None:
        yield
        return
    done = threading.Event()
    start = time.monotonic()
    tty = bool(getattr(writer, "hasmarkup", False))
    shown = [0]  # the length of the line shown last (0: nothing shown)

    def show() -> None:
        if done.wait(after):
            return
        while True:
            line = f"{what} ... ({time.monotonic() - start:.0f} s)"
            if tty:
                writer.write(f"\r{line}", flush=True)
            elif not shown[0] or round(time.monotonic() - start) % 10 == 0:
                writer.line(line)
            shown[0] = len(line)
            if done.wait(every):
                return

    thread = threading.Thread(target=show, daemon=True, name="rules-oracle waiting")
    thread.start()
    ended = "failed after "
    try:
        yield
        ended = ""
    except KeyboardInterrupt:
        ended = "stopped after "
        raise
    finally:
        done.set()
        thread.join()
        if shown[0]:
            end = f"{what}: {ended}{time.monotonic() - start:.0f} s"
            writer.write(f"\r{end:<{shown[0]}}\n" if tty else f"{end}\n", flush=True)
