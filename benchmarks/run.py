"""Every benchmark in one command: start-up, per scenario, step library growth, the pipe,
5,000-scenario suites, exploration. Timings are never tests; this is run by hand.

    python benchmarks/run.py [--quick] [--json PATH] [--only startup,scenario,...]

Prints a table of figures and ratios and writes them as one flat JSON object (``--json``).
What it compares is interleaved (A, B, A, B, ...), so a busy moment on a shared machine
hurts both sides alike; each figure is the median (or, per scenario, the best) of its
repeats. Children run from a scratch folder with this interpreter, so they import the
installed ``oracle`` (a source checkout in the working directory would shadow it), compiled
to bytecode first as an installed package is.

- start-up: ``rules-oracle run --rule ti4:2.4`` (5 scenarios: 2.4 and 2.4.1) against the
  import floor (``import pytest, pytest_bdd, hypothesis, yaml, jsonschema``);
- per scenario: the bundled suite's scenarios against plain pytest tests that send the very
  same requests to the same reference engines (recorded from the oracle's own run); and,
  for scale, pytest-bdd by itself: scenarios of the median scenario's step count whose
  steps do nothing, run by pytest-bdd's own machinery (one step definition a kind, as the
  oracle registers its dispatchers);
- step library: the TI4 scenarios with the TI4 vocabulary padded to 50 and to 500 step
  definitions (unused ones, added to the game's step module);
- pipe: round trips per second of one scenario's typical mix over the pipe, in-process (as a
  run has it, behind its watchdog; and bare), and over the pipe in strict mode; every reply
  is checked, so a failing engine cannot pass for a fast one; and the floor: the same
  request lines echoed by a child doing nothing else, through the pipe client's transport;
- scale: generated suites of 500 and 5,000 scenarios (the bundled features copied with
  unique scenario names into a committee folder), serial, ``-n 2`` and ``--jobs 2``, with
  the reports compared (same rules, statuses and scenario lists in the same order), and
  peak memory;
  and, for scale, what ``-n 2`` gives plain pytest tests of the oracle's size per test;
- exploration: moves per second of ``oracle.explore.explore`` on the TI4 reference engine
  (the median of three identical seeded searches, and the first one's apart);
- shrink: seconds each finding's shrink takes (``oracle.explore.shrink``), single-engine
  and differential findings on a set of mutants of both games;
- diff: moves per second of differential exploration (``oracle.explore.differential``),
  the reference engine against a second one, every reply and view compared.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

BUNDLED_RULE = "ti4:2.4"
FLOOR_IMPORTS = "import pytest, pytest_bdd, hypothesis, yaml, jsonschema"

TIMER_PLUGIN = '''
"""Times each test's whole run protocol (setup, call, teardown, reporting)."""
import json, os, time
import pytest

_times = {}
_calls = {}

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    start = time.perf_counter()
    yield
    _times[item.nodeid] = time.perf_counter() - start

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    yield
    world = getattr(item, "funcargs", {}).get("oracle_world")
    if call.when == "call" and world is not None and os.environ.get("BENCH_RECORD"):
        _calls[item.nodeid] = {"game": world.game.id, "engine": world.game.reference_engine,
                               "exchanges": [[request, reply.get("reply")]
                                             for request, reply in world.client.transcript]}

def pytest_runtest_logreport(report):
    verdict = dict(report.user_properties).get("rules_oracle.verdict")
    if verdict and report.nodeid in _calls:
        _calls[report.nodeid]["steps"] = len(json.loads(verdict)["steps"])

def pytest_sessionfinish(session):
    if hasattr(session.config, "workerinput"):
        return
    with open(os.environ["BENCH_TIMES"], "w") as f:
        json.dump({"times": _times, "calls": _calls}, f)
'''

PLAIN_TESTS = '''
"""Plain pytest tests: each sends one recorded scenario's requests to the engine itself."""
import importlib, json, os
import pytest

CASES = json.load(open(os.environ["BENCH_CASES"]))
_engines = {}

def _engine(spec):
    if spec not in _engines:
        module, _, attr = spec.partition(":")
        _engines[spec] = getattr(importlib.import_module(module), attr)()
        _engines[spec].handle({"op": "describe"})
    return _engines[spec]

@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
def test_same_calls(case):
    engine = _engine(case["engine"])
    for request, expected in case["exchanges"]:
        assert engine.handle(request)["reply"] == expected
'''

BUSY_TESTS = '''
"""Plain pytest tests of a given size: each keeps the CPU busy for BENCH_BUSY_MS."""
import os, time
import pytest

BUSY = float(os.environ["BENCH_BUSY_MS"]) / 1000

@pytest.mark.parametrize("i", range(int(os.environ["BENCH_BUSY_TESTS"])))
def test_busy(i):
    end = time.process_time() + BUSY
    while time.process_time() < end:
        pass
'''

BDD_FLOOR_TESTS = '''
"""pytest-bdd alone: BENCH_BDD_SCENARIOS scenarios of BENCH_BDD_STEPS steps that do nothing,
run by pytest-bdd's own machinery, with its step definitions registered as the oracle
registers its own (``oracle.plugin.dispatch``): one taking any text, per kind."""
import os
from pathlib import Path
from pytest_bdd import given, parsers, scenarios, then, when

STEPS = int(os.environ["BENCH_BDD_STEPS"])
WORDS = ["Given"] * (STEPS // 3) + ["When"] * (STEPS // 3)
WORDS += ["Then"] * (STEPS - len(WORDS))
FEATURE = Path(__file__).with_name("bdd_floor.feature")
FEATURE.write_text("Feature: floor\\n" + "".join(
    f"  Scenario: floor {i}\\n" + "".join(f"    {word} step {j}\\n"
                                        for j, word in enumerate(WORDS))
    for i in range(int(os.environ["BENCH_BDD_SCENARIOS"]))))

@given(parsers.re(r"(?P<text>.+)"))
def _given(text): pass

@when(parsers.re(r"(?P<text>.+)"))
def _when(text): pass

@then(parsers.re(r"(?P<text>.+)"))
def _then(text): pass

scenarios(str(FEATURE))
'''

STEPS_DRIVER = '''
"""``rules-oracle`` with the TI4 step vocabulary padded to N definitions (argv[1])."""
import sys
import oracle.steps.ti4 as module
from oracle.suite.vocabulary import Vocabulary, step_modules
from oracle.suite.games import discover_games

target = int(sys.argv[1])
have = len(Vocabulary(step_modules(discover_games()["ti4"])).defs)
try:  # the oracle's step decorators (pytest-bdd's own before oracle.suite.stepdefs)
    import oracle.suite.stepdefs
    lines = ["from oracle.suite.stepdefs import given, parsers, then, when"]
except ImportError:
    lines = ["from pytest_bdd import given, parsers, then, when"]
kinds = ("given", "when", "then")
for i in range(max(0, target - have)):
    kind = kinds[i % 3]
    pattern = (
        rf"the bench gadget {i} is (?P<value>\\w+)" if i % 3 == 0 else
        rf"(?P<player>[A-Z][\\w'-]*) polishes bench widget {i}(?: with (?P<tool>.+))?"
        if i % 3 == 1 else rf"(?P<player>[A-Z][\\w'-]*) sees bench meter {i} at (?P<n>\\d+)")
    lines += [f"@{kind}(parsers.re(r{pattern!r}))",
              f"def _bench_step_{i}(oracle_world, **kwargs):",
              "    raise AssertionError('a padding step never runs')"]
exec("\\n".join(lines), vars(module))
from oracle.cli import main
sys.exit(main(sys.argv[2:]))
'''


# -- running things ----------------------------------------------------------------------


class Bench:
    """The scratch folder, the interpreter, and the environment every child runs with."""

    def __init__(self, scratch: Path, quick: bool) -> None:
        self.scratch, self.quick = scratch, quick
        (scratch / "bench_timer.py").write_text(TIMER_PLUGIN)
        (scratch / "test_plain.py").write_text(PLAIN_TESTS)
        (scratch / "test_busy.py").write_text(BUSY_TESTS)
        (scratch / "test_bdd_floor.py").write_text(BDD_FLOOR_TESTS)
        (scratch / "bench_steps.py").write_text(STEPS_DRIVER)
        # A cache folder of its own (parsed features, checked suites): every measurement
        # starts from the same empty cache, whatever earlier runs left in the user's.
        self.env = {**os.environ, "PYTHONPATH": str(scratch), "PYTHONHASHSEED": "0",
                    "RULES_ORACLE_CACHE_DIR": str(scratch / "cache")}
        compile_package()

    def run(self, argv: list[str], env: dict[str, str] | None = None,
            check: bool = True) -> tuple[float, str, float]:
        """Run a child to its end: (wall seconds, output, peak RSS in MB)."""
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=self.scratch, env={**self.env, **(env or {})},
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = proc.stdout.read() if proc.stdout else b""
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        text = out.decode("utf-8", "replace")
        if check and proc.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} exited {proc.returncode}:\n{text[-3000:]}")
        return wall, text, usage.ru_maxrss / 1024

    def pytest(self, *args: str) -> list[str]:
        """A plain pytest run of the scratch folder's test files (no ini file, no cache)."""
        return [sys.executable, "-m", "pytest", "-c", os.devnull, "-p", "no:cacheprovider",
                "-q", *args]

    def oracle(self, *args: str, driver: list[str] | None = None) -> list[str]:
        return [sys.executable, *(driver or ["-m", "oracle.cli"]), "run", *args]

    def timed_items(self, argv: list[str], record: bool = False,
                    env: dict[str, str] | None = None) -> dict[str, Any]:
        """Per-test times (and, with ``record``, each scenario's engine calls) of a run."""
        out = self.scratch / "times.json"
        extra = {"BENCH_TIMES": str(out), **({"BENCH_RECORD": "1"} if record else {}),
                 **(env or {})}
        self.run(argv, env=extra)
        return json.loads(out.read_text())


def compile_package() -> None:
    """Compile the oracle's modules to bytecode, as ``pip install .`` does at install time.

    Why: the import floor's packages come compiled, and an editable install run with
    ``PYTHONDONTWRITEBYTECODE`` set (some machines set it) never caches the oracle's, so
    every child would compile each module it imports again: measured here, 0.11 s of a
    0.62 s one-rule run, which is start-up the user of an installed copy never pays."""
    import compileall

    spec = importlib.util.find_spec("oracle")
    if spec is None or spec.origin is None:
        raise RuntimeError("the oracle is not installed in this interpreter: pip install -e .")
    compileall.compile_dir(Path(spec.origin).parent, quiet=1)


def best_median(runs: list[dict[str, float]]) -> float:
    """Median over tests of each test's best time across the repeats, in milliseconds (the
    median, because the first test of each game also pays one-time imports)."""
    names = set(runs[0]).intersection(*runs[1:])
    return 1000 * statistics.median(min(r[n] for r in runs) for n in names)


# -- the benchmarks ------------------------------------------------------------------------


def bench_startup(b: Bench) -> dict[str, float]:
    repeat = 3 if b.quick else 7
    floor, one_rule = [], []
    for _ in range(repeat):
        floor.append(b.run([sys.executable, "-c", FLOOR_IMPORTS])[0])
        wall, out, _ = b.run(b.oracle("--rule", BUNDLED_RULE))
        # Whatever the rule's scenario count is today: some ran, and all passed.
        if not re.search(r"\b\d+ passed in ", out) or re.search(r"\d+ (failed|error)", out):
            raise RuntimeError(f"the one-rule run did not pass its scenarios:\n{out[-2000:]}")
        one_rule.append(wall)
    f, r = statistics.median(floor), statistics.median(one_rule)
    return {"startup_one_rule_s": r, "import_floor_s": f, "startup_ratio": r / f}


def bench_scenario(b: Bench) -> dict[str, float]:
    repeat = 3 if b.quick else 5
    timer = ["--", "-p", "bench_timer"]
    first = b.timed_items(b.oracle(*timer), record=True)
    cases = [first["calls"][k] for k in sorted(first["calls"])]
    (b.scratch / "cases.json").write_text(json.dumps(cases))
    timed = ("-p", "bench_timer")
    # pytest-bdd by itself, for scale: as many steps as the median scenario, doing nothing.
    steps = round(statistics.median(case.get("steps", 0) for case in cases))
    floor_env = {"BENCH_BDD_STEPS": str(steps), "BENCH_BDD_SCENARIOS": str(len(cases))}
    oracle_runs, plain_runs, floor_runs = [first["times"]], [], []
    for i in range(repeat):
        plain_runs.append(b.timed_items(b.pytest(*timed, "test_plain.py"),
                                        env={"BENCH_CASES": "cases.json"})["times"])
        floor_runs.append(b.timed_items(b.pytest(*timed, "test_bdd_floor.py"),
                                        env=floor_env)["times"])
        if i < repeat - 1:
            oracle_runs.append(b.timed_items(b.oracle(*timer))["times"])
    scenario, plain = best_median(oracle_runs), best_median(plain_runs)
    floor = best_median(floor_runs)
    return {"scenario_ms": scenario, "plain_pytest_ms": plain, "scenario_ratio": scenario / plain,
            "scenarios_timed": len(cases), "median_steps": steps, "bdd_floor_ms": floor,
            "bdd_floor_ratio": floor / plain, "scenario_per_bdd_floor": scenario / floor}


def bench_steps(b: Bench) -> dict[str, float]:
    repeat = 3 if b.quick else 5
    runs: dict[int, list[dict[str, float]]] = {50: [], 500: []}
    for _ in range(repeat):
        for size in runs:
            argv = b.oracle("--rule", "ti4", "--", "-p", "bench_timer",
                            driver=["bench_steps.py", str(size)])
            runs[size].append(b.timed_items(argv)["times"])
    small, large = best_median(runs[50]), best_median(runs[500])
    return {"steps_50_ms": small, "steps_500_ms": large, "step_growth_ratio": large / small}


def bench_pipe(b: Bench) -> dict[str, float]:
    from oracle.engines import EngineClient, EngineSpec, connect
    from oracle.engines.pipe import MAX_REPLY_BYTES, PipeEngine
    from oracle.engines.streams import stdout_lines
    from oracle.games.ti4.engine import factory
    from oracle.protocol import REFEREE, Act, Describe, Observe, Setup
    from oracle.suite.games import discover_games

    state = {"players": [{"name": "Alice", "hand": ["Sabotage", "Spy"]},
                         {"name": "Bob", "hand": []}],
             "phase": "action", "active_player": "Alice",
             "decks": {"action": {"draw": ["Veto", "Plague", "Summit"], "discard": []}}}
    mix = [(Setup("ti4", state, 7), "Ready"),
           (Act({"type": "draw", "player": "Bob", "deck": "action", "count": 1}), "Accepted"),
           (Act({"type": "play", "player": "Alice", "card": "Veto"}), "Rejected"),
           (Observe("Alice"), "View"), (Observe(None), "View"), (Observe(REFEREE), "View")]
    rounds = 300 if b.quick else 1500

    def rate(client: EngineClient) -> float:
        client.send(Describe())
        start = time.perf_counter()
        for _ in range(rounds):
            for request, expected in mix:
                reply = client.send(request)
                if type(reply).__name__ != expected:  # an errored reply is no round trip
                    raise RuntimeError(f"{client.label}: {request} got {reply}")
            client.transcript.clear()
        return rounds * len(mix) / (time.perf_counter() - start)

    argv = [sys.executable, "-m", "oracle.pipe", "serve", "reference:ti4"]
    lines = [json.dumps({"id": 1, **request.to_json()}).encode() + b"\n"
             for request, _ in mix]

    def floor() -> float:
        """The transport alone: the mix's request lines echoed by a child that does nothing
        else (no JSON, no engine), written and read back as the pipe's client does (one
        ``os.write``, then its stdout reader's ``poll`` and ``read``)."""
        echo = "import sys\nfor line in sys.stdin.buffer:\n" \
               "    sys.stdout.buffer.write(line); sys.stdout.buffer.flush()\n"
        child = subprocess.Popen([sys.executable, "-c", echo], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE)
        assert child.stdin is not None and child.stdout is not None
        stdin, stdout = child.stdin.fileno(), stdout_lines(child.stdout, MAX_REPLY_BYTES)
        start = time.perf_counter()
        for _ in range(rounds):
            for line in lines:
                os.write(stdin, line)
                stdout.next(10.0)
        rate = rounds * len(lines) / (time.perf_counter() - start)
        child.stdin.close()
        child.wait()
        return rate

    # Both sides as a run talks to them (``connect``): the pipe with its per-request
    # timeout, the in-process engine behind its watchdog (``oracle.engines.guard``), which
    # is its timeout. The bare engine, with no deadline at all, is shown beside them.
    games = discover_games()
    best = {"inprocess_rtps": 0.0, "inprocess_bare_rtps": 0.0, "pipe_rtps": 0.0,
            "pipe_strict_rtps": 0.0, "pipe_floor_rtps": 0.0}
    cwd = os.getcwd()
    os.chdir(b.scratch)  # the engine process starts here, away from any source checkout
    try:
        for _ in range(3):
            best["inprocess_rtps"] = max(best["inprocess_rtps"],
                                         rate(connect(EngineSpec.parse("reference:ti4"), games)))
            best["inprocess_bare_rtps"] = max(best["inprocess_bare_rtps"],
                                              rate(EngineClient(factory(), "in-process, bare")))
            with PipeEngine(argv) as pipe:
                best["pipe_rtps"] = max(best["pipe_rtps"], rate(EngineClient(pipe, "pipe")))
            with PipeEngine(argv) as strict:  # --strict-protocol: the client checks
                best["pipe_strict_rtps"] = max(best["pipe_strict_rtps"], rate(
                    EngineClient(strict, "pipe strict", strict=True)))
            best["pipe_floor_rtps"] = max(best["pipe_floor_rtps"], floor())
    finally:
        os.chdir(cwd)
    return {**best, "pipe_ratio": best["pipe_rtps"] / best["inprocess_rtps"],
            "strict_ratio": best["pipe_strict_rtps"] / best["pipe_rtps"],
            # What share of the bare transport's rate the real pipe keeps.
            "pipe_of_floor": best["pipe_rtps"] / best["pipe_floor_rtps"],
            # Against the bare engine (no watchdog), and what the pipe adds to a round trip
            # in microseconds: the figure that does not fall when the engine gets faster.
            "pipe_ratio_bare": best["pipe_rtps"] / best["inprocess_bare_rtps"],
            "pipe_added_us": 1e6 / best["pipe_rtps"] - 1e6 / best["inprocess_rtps"]}


SCENARIO_LINE = re.compile(r"^(\s*)(Scenario Outline|Scenario Template|Scenario|Example):(.*)$")


def generate_suite(root: Path, total: int) -> int:
    """A committee folder per game under ``root`` holding copies of the bundled feature
    files (scenarios renamed ``... [copy N]``) so that, with the bundled suite, ``total``
    scenarios run. Returns how many were generated."""
    from oracle.suite.games import bundled_features_dir, discover_games

    bundled = bundled_features_dir()
    sources = [(g.folder.name, p) for g in discover_games([bundled]).values()
               for p in g.feature_files()]
    have = sum(_count(p.read_text(encoding="utf-8")) for _, p in sources)
    want, copy = total - have, 0
    shutil.rmtree(root, ignore_errors=True)
    while want > 0:
        copy += 1
        for folder, path in sources:
            if want <= 0:
                break
            lines = path.read_text(encoding="utf-8").splitlines()
            lines = _first_scenarios(lines, want)
            text = "\n".join(SCENARIO_LINE.sub(rf"\1\2:\3 [copy {copy}]", line)
                             for line in lines) + "\n"
            want -= _count(text)
            out = root / folder / f"copy{copy}-{path.name}"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text, encoding="utf-8")
    return total - have


def _count(text: str) -> int:
    return sum(1 for line in text.splitlines() if SCENARIO_LINE.match(line))


def _first_scenarios(lines: list[str], n: int) -> list[str]:
    """The file cut before its (n+1)-th scenario (with that scenario's tags and blanks)."""
    starts = [i for i, line in enumerate(lines) if SCENARIO_LINE.match(line)]
    if len(starts) <= n:
        return lines
    cut = starts[n]
    while cut > 0 and (not lines[cut - 1].strip() or lines[cut - 1].strip().startswith("@")):
        cut -= 1
    return lines[:cut]


def report_shape(path: Path) -> list[Any]:
    """What must not change between a serial and a parallel run: rules, statuses, and the
    scenario lists, in order."""
    data = json.loads(path.read_text())
    return [[r["id"], r["status"], [[s["name"], s["location"], s["status"]]
                                    for s in r["scenarios"]]] for r in data["rules"]]


def bench_scale(b: Bench) -> dict[str, float]:
    gen = b.scratch / "generated"
    runs = (("500", 500, []), ("5000", 5000, []), ("5000-n2", 5000, ["--", "-n", "2"]),
            ("5000-j2", 5000, ["--jobs", "2"]))
    if importlib.util.find_spec("oracle.cli.jobs") is None:  # code from before --jobs
        runs = runs[:3]
    times: dict[str, list[float]] = {name: [] for name, _, _ in runs}
    rss = 0.0
    shapes: dict[str, list[Any]] = {}
    tests: dict[int, int] = {}
    for _ in range(1 if b.quick else 2):
        for name, total, extra in runs:
            generate_suite(gen, total)
            out = b.scratch / f"scale-{name}.json"
            wall, text, peak = b.run(b.oracle("--features", str(gen), "--json", str(out),
                                              *extra))
            # The generator counts Scenario lines; an outline runs one test per row, so the
            # suite runs more tests than asked: times are scaled to ``total`` per test run.
            # (``--jobs`` prints the combined table, not pytest's count: the same suite's.)
            ran = re.search(r"(\d+) passed in ", text)
            failed = re.search(r"\d+ (failed|error)", text) or not re.search(
                r"\d+ rules: \d+ pass, \d+ untestable\n", text)
            if failed or (ran is None and total not in tests):
                raise RuntimeError(f"the {total}-scenario suite did not pass:\n{text[-2000:]}")
            if ran is not None:
                tests[total] = int(ran.group(1))
            times[name].append(wall * total / tests[total])
            shapes[name] = report_shape(out)
            if name == "5000":
                rss = max(rss, peak)
    s500, s5000, n2 = (min(times[k]) for k in ("500", "5000", "5000-n2"))
    jobs = {}
    if times.get("5000-j2"):
        j2 = min(times["5000-j2"])
        jobs = {"suite_5000_jobs2_s": j2, "jobs2_speedup_5000": s5000 / j2,
                "jobs2_same_report": float(shapes["5000"] == shapes["5000-j2"])}
    # The suite is written anew before each run, with the same bytes: from its second run on,
    # the suite checks are remembered (``oracle.suite.checked``), as on a user's second run.
    # Its first run, which checks it, is shown apart.
    return {"suite_500_s": s500, "suite_5000_s": s5000, "scale_ratio": s5000 / s500,
            "suite_5000_first_s": times["5000"][0],
            "suite_5000_n2_s": n2, "xdist2_speedup_5000": s5000 / n2,
            "xdist2_same_report": float(shapes["5000"] == shapes["5000-n2"]), **jobs,
            "peak_rss_5000_mb": rss,
            "xdist2_plain_speedup": plain_xdist_speedup(b, 1000 * s5000 / 5000)}


def plain_xdist_speedup(b: Bench, per_test_ms: float) -> float:
    """What ``-n 2`` gives any pytest suite of tests this size: plain tests, each busy for the
    oracle's time per test in the serial 5,000-scenario run (its wall time over its tests,
    start-up and collection included, so these tests are if anything larger than the
    oracle's and gain more), serial against ``-n 2``. pytest-xdist's own cost per test
    (each report crosses to the controller, every worker collects everything) bounds the
    oracle's speedup too."""
    count = 2000 if b.quick else 10_000
    env = {"BENCH_BUSY_MS": f"{per_test_ms:.3f}", "BENCH_BUSY_TESTS": str(count)}
    argv = b.pytest("test_busy.py")
    serial = b.run(argv, env=env)[0]
    parallel = b.run([*argv, "-n", "2"], env=env)[0]
    return serial / parallel


def bench_explore(b: Bench) -> dict[str, float]:
    from oracle.engines import EngineClient
    from oracle.explore import default_budget, explore
    from oracle.games.ti4.engine import factory
    from oracle.suite.games import discover_games

    game = discover_games()["ti4"]
    rates = []
    for _ in range(3):
        # The same seeded search each time, on a new engine: the same moves, timed again.
        result = explore(game, EngineClient(factory(), "reference"), 0,
                         default_budget(15 if b.quick else 60))
        rates.append(result.moves / result.seconds)
    # The target is a rate sustained over a CI minute: the median of three searches. The
    # first alone also pays the process's one-off costs (Hypothesis registering its random
    # generators runs full garbage collections, about 15-25 ms): shown apart.
    return {"explore_moves_per_s": statistics.median(rates),
            "explore_first_moves_per_s": rates[0]}


#: Findings whose shrink is timed: (game, mutant, the invariant a plain exploration finds it
#: by); each is also compared with the reference engine (differential), shrunk too.
SHRUNK = (("ti4", "no_hand_limit", "the hand limit holds after every resolution"),
          ("ti4", "no_reshuffle", "a depleted deck is reshuffled at once"),
          ("ti4", "hand_shown_to_all", "hands are hidden from other viewers"),
          ("ti4", "players_start_with_a_card", "players start with zero cards"),
          ("eu-pop", "hands_shown_to_all",
           "hands are hidden from other viewers, their sizes public"),
          ("eu-pop", "display_also_discarded", "cards are conserved"),
          ("eu-pop", "no_display_limit",
           "a third display card makes its player choose one to discard"),
          ("eu-pop", "countered_cost_refunded", "a countered card's cost stays paid"))


def bench_shrink(b: Bench) -> dict[str, float]:
    """Seconds each finding's shrink took (``oracle.explore.shrink``), from the game the
    search found to the minimal scenario: the single-engine exploration's findings and the
    differential's (reference against the mutant), on the mutants of ``SHRUNK``."""
    from oracle.engines import EngineClient
    from oracle.explore import default_budget, explore, load_model
    from oracle.explore.differential import compare
    from oracle.mutants import find_mutant
    from oracle.suite.games import discover_games

    games = discover_games()
    single, differential = [], []
    for game_id, name, invariant in SHRUNK:
        game, mutant = find_mutant([games[game_id]], name)
        result = explore(game, EngineClient(mutant(), name), 0, default_budget(40), {invariant})
        single += [s.seconds for s in result.shrinks]
        found = compare(game, load_model(game), _reference_client(game), EngineClient(
            mutant(), name), 0, default_budget(40), ("reference", name), max_findings=1)
        differential += [s.seconds for s in found.shrinks]
    both = single + differential
    return {"explore_shrink_s_median": statistics.median(both),
            "explore_shrink_s_max": max(both),
            "explore_shrink_single_s_median": statistics.median(single),
            "explore_shrink_diff_s_median": statistics.median(differential)}


def _reference_client(game: Any) -> Any:
    from oracle.engines import ConnectOptions, EngineSpec, connect

    return connect(EngineSpec.parse("reference"), {game.id: game}, ConnectOptions(guard=False))


def bench_diff(b: Bench) -> dict[str, float]:
    """Moves per second of differential exploration: the TI4 reference engine against a
    second one, in process, every reply and every viewer's view compared after every move
    (the median of three identical seeded searches, wall and process CPU time)."""
    from oracle.explore import default_budget, load_model
    from oracle.explore.differential import compare
    from oracle.suite.games import discover_games

    rates, cpu_rates, eu = [], [], []
    games = discover_games()
    for _ in range(3):
        for game_id in ("ti4", "eu-pop"):
            game = games[game_id]
            cpu = time.process_time()
            result = compare(game, load_model(game), _reference_client(game),
                             _reference_client(game), 0,
                             default_budget(20 if b.quick else 60), ("a", "b"))
            cpu = time.process_time() - cpu
            if game_id == "ti4":
                rates.append(result.moves / result.seconds)
                cpu_rates.append(result.moves / cpu)
            else:
                eu.append(result.moves / result.seconds)
    return {"diff_moves_per_s": statistics.median(rates),
            "diff_moves_per_cpu_s": statistics.median(cpu_rates),
            "diff_eu_moves_per_s": statistics.median(eu)}


BENCHMARKS: dict[str, Callable[[Bench], dict[str, float]]] = {
    "startup": bench_startup, "scenario": bench_scenario, "steps": bench_steps,
    "pipe": bench_pipe, "scale": bench_scale, "explore": bench_explore,
    "shrink": bench_shrink, "diff": bench_diff,
}

TARGETS: dict[str, tuple[str, float]] = {
    "startup_ratio": ("<=", 1.5), "scenario_ratio": ("<=", 1.5),
    "step_growth_ratio": ("<=", 1.2), "pipe_rtps": (">=", 10_000), "pipe_ratio": (">=", 0.5),
    "strict_ratio": (">=", 0.5), "scale_ratio": ("<=", 11), "suite_5000_s": ("<=", 15),
    "xdist2_speedup_5000": (">=", 1.6), "xdist2_same_report": (">=", 1),
    "explore_moves_per_s": (">=", 5_000), "explore_shrink_s_median": ("<=", 1),
    "diff_moves_per_s": (">=", 2_000),
}


def table(results: dict[str, float]) -> str:
    rows = []
    for key, value in results.items():
        shown = f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"
        target = TARGETS.get(key)
        verdict = ""
        if target:
            op, limit = target
            ok = value <= limit if op == "<=" else value >= limit
            verdict = f"{'met' if ok else 'NOT met'} (target {op} {limit:g})"
        rows.append(f"  {key:<22} {shown:>10}  {verdict}")
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and rounds")
    parser.add_argument("--json", type=Path, metavar="PATH", help="write the figures here")
    parser.add_argument("--only", default="", help=f"comma-separated: {', '.join(BENCHMARKS)}")
    ns = parser.parse_args()
    chosen = [n for n in ns.only.split(",") if n] or list(BENCHMARKS)
    unknown = set(chosen) - set(BENCHMARKS)
    if unknown:
        parser.error(f"no benchmark {', '.join(sorted(unknown))}; choose from "
                     f"{', '.join(BENCHMARKS)}")
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="rules-oracle-bench-") as tmp:
        bench = Bench(Path(tmp), ns.quick)
        for name in chosen:
            start = time.perf_counter()
            figures = BENCHMARKS[name](bench)
            results.update(figures)
            print(f"{name} ({time.perf_counter() - start:.0f} s)", flush=True)
            print(table(figures), flush=True)
    print(textwrap.dedent(f"""
        python {sys.version.split()[0]}, {os.cpu_count()} cores, load average
        {' '.join(f'{x:.1f}' for x in os.getloadavg())}""").strip().replace("\n", " "))
    if ns.json:
        ns.json.write_text(json.dumps(results, indent=1) + "\n")
        print(f"figures written to {ns.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
