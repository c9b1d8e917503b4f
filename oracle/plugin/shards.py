"""A run in shard processes (``rules-oracle run --jobs N``), shown as one process's run.

Why: ``--jobs`` used to print only the combined table: the failure details, the terminal's
width, pytest's summary and the partial reports of an interrupted run were lost. Now each
shard (``--shard K/N``) streams its pytest reports to a file, one line per scenario (each
report serialised by pytest's own ``pytest_report_to_serializable``, as pytest-xdist sends
them), and exchanges nothing else while it runs; the parent is a pytest session that
collects nothing (``Replay``) and, once the shards end (or are stopped by Ctrl-C), hands
their reports to pytest's hooks in the order one process would have run them. The terminal
(progress, failure details, the conformance table, pytest's summary line), the reports and
the exit status are then made by the very code a serial run uses, from the same reports.

The shard side is this module loaded as a plugin (``-p oracle.plugin.shards``) with
``--oracle-stream-reports PATH``; the parent side is a ``Replay`` object.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest

from oracle.engines.wire import dumps_line, loads
from oracle.plugin.breaker import waiting
from oracle.plugin.run import run_key
from oracle.plugin.verdicts import scenario_key

STREAM_OPTION = "--oracle-stream-reports"
DONE = {"done": True}
"""A stream's last line: the shard ended its session (a stream without it was cut short)."""


# -- in each shard ---------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(STREAM_OPTION, dest="oracle_stream_reports", metavar="PATH",
                     help="(rules-oracle run --jobs) write each test's reports here")


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("oracle_stream_reports")
    if path:
        config.pluginmanager.register(Streamer(config, Path(path)), "rules-oracle-streamer")


class Streamer:
    """Writes each test's reports, with its place in the whole run's collection, as one
    JSON line as soon as the test ends (flushed: an interrupted shard loses nothing that
    ran), then ``DONE`` when the session ends.

    A passed setup or teardown is left out (unless pytest's own ``--junitxml`` wants it):
    nothing shows it, and replaying it cost the parent two thirds of its time."""

    def __init__(self, config: pytest.Config, path: Path) -> None:
        self.config = config
        self.out = path.open("wb")
        self.every = bool(getattr(config.option, "xmlpath", None))
        self.reports: list[Any] = []
        self.places: dict[str, list[Any]] = {}

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None
                                ) -> Iterator[None]:
        self.reports = []
        try:
            return (yield)
        finally:
            self._line({"order": self.places.get(item.nodeid, []), "nodeid": item.nodeid,
                        "location": item.location, "reports": self.reports})

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call" and report.passed and not self.every:
            return
        self.reports.append(self.config.hook.pytest_report_to_serializable(
            config=self.config, report=report))

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        run = self.config.stash.get(run_key, None)
        self.places = places(session.items, run.settings.roots if run else [])
        self._line({"collected": len(session.items)})

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self._line(DONE)

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.out.close()

    def _line(self, data: Any) -> None:
        self.out.write(dumps_line(data))
        self.out.flush()


def places(items: Sequence[pytest.Item], roots: Sequence[Path]) -> dict[str, list[Any]]:
    """Each test's place in the whole run, as one process collects it: a shard builds only
    its own scenarios, so its positions say nothing of the others'. One process collects
    the features roots in order, each folder's entries by name, a file's scenarios by line
    and an Outline's rows in order; explorations come last."""
    found: dict[str, list[Any]] = {}
    rows: dict[tuple[Path, int], int] = {}
    for item in items:
        behind = item.stash.get(scenario_key, None)
        if behind is None:
            found[item.nodeid] = [len(roots) + 1, [], 0, 0, item.nodeid]
            continue
        path, line = behind[0].path, behind[0].line
        root = next((i for i, r in enumerate(roots) if path.is_relative_to(r)), len(roots))
        parts = path.relative_to(roots[root]).parts if root < len(roots) else path.parts
        rows[path, line] = rows.get((path, line), 0) + 1
        found[item.nodeid] = [root, list(parts), line, rows[path, line], item.nodeid]
    return found


# -- in the parent ----------------------------------------------------------------------------


@dataclass
class Shard:
    """One shard process: its stream of reports and its output (for when it breaks)."""

    process: subprocess.Popen[bytes]
    stream: Path
    output: Path
    out: IO[bytes]

    def lines(self) -> list[Any]:
        """The stream's lines so far (a last line cut by a kill is left out)."""
        if not self.stream.exists():
            return []
        found = []
        for line in self.stream.read_bytes().splitlines():
            try:
                found.append(loads(line))
            except ValueError:
                break
        return found

    def cut_short(self) -> bool:
        """Whether the shard ended without finishing its session (it crashed)."""
        return DONE not in self.lines()


@dataclass(eq=False)  # a plugin is hashed by pytest (9.2's parsefactories): identity, not fields
class Replay:
    """The parent's plugin: no collection; the tests' loop waits for the shards and replays
    their reports, in the order of the whole run's collection."""

    shards: Sequence[Shard]
    stopped: bool = False
    #: Shards that ended without finishing their session (for the caller to report).
    broken: list[Shard] = field(default_factory=list)

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session: pytest.Session) -> bool:
        return True  # the shards collect; the count comes with their reports

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        writer = session.config.get_terminal_writer()
        try:
            with waiting(writer, f"running {len(self.shards)} shard processes"):
                for shard in self.shards:
                    shard.process.wait()
        except BaseException:  # Ctrl-C (or SIGTERM made one): what ran is still reported
            self.stop()
            self.replay(session)
            raise
        self.replay(session)
        return True

    def stop(self) -> None:
        """Stop every shard still running (they stream as they go: nothing that ran is lost)."""
        self.stopped = True
        for shard in self.shards:
            if shard.process.poll() is None:
                shard.process.terminate()
        for shard in self.shards:
            shard.process.wait()

    def replay(self, session: pytest.Session) -> None:
        config, hook = session.config, session.config.hook
        tests = []
        for shard in self.shards:
            lines = shard.lines()
            session.testscollected += sum(line.get("collected", 0) for line in lines)
            tests += [line for line in lines if "reports" in line]
            if DONE not in lines and not self.stopped:
                self.broken.append(shard)
        for test in sorted(tests, key=lambda t: t["order"]):
            location = tuple(test["location"])
            hook.pytest_runtest_logstart(nodeid=test["nodeid"], location=location)
            for data in test["reports"]:
                report = hook.pytest_report_from_serializable(config=config, data=data)
                hook.pytest_runtest_logreport(report=report)
            hook.pytest_runtest_logfinish(nodeid=test["nodeid"], location=location)
