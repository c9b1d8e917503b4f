"""``rules-oracle run --repeat N``: every scenario N times, with the same seed; a scenario
whose runs end differently is ``flaky`` (with the outcomes seen), in every format, and fails
the run.

What is proved (issue 20 item 7): an engine with a seeded nondeterminism (its own random
generator, never reseeded by a ``setup``, picks its hand limit at each setup) is ``flaky``
under ``--repeat 3`` on the rule it breaks and on nothing else; the reference engine and a
deterministic mutant report no ``flaky``; each scenario's runs are sent the seed a run
without ``--repeat`` sends it; the report lists each scenario once.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter

from oracle.report import ScenarioVerdict, Status, build_report, load_report
from oracle.report.judge import nothing_tested
from oracle.report.model import Report, RuleResult, ScenarioResult
from oracle.report.repeats import merge_repeats

#: The reference engine, except that at each setup its own generator (seeded once, when the
#: engine is made) picks the hand limit, 6 or 7, never the same three setups in a row: a
#: scenario's three runs are sent one after another, so each run of a scenario that checks
#: the limit sees both limits. Every setup's seed is logged.
FLAKY_ENGINE = '''
import random

from oracle.games.ti4.engine import ReferenceEngine


class Flaky(ReferenceEngine):
    def __init__(self):
        super().__init__()
        self.rng = random.Random(7)
        self.limits = []

    def handle(self, request):
        if request.get("op") == "setup":
            limit = self.rng.choice((6, 7))
            if self.limits[-2:] == [limit, limit]:
                limit = 13 - limit
            self.limits.append(limit)
            self.BASE_HAND_LIMIT = limit
            with open("seeds.txt", "a") as out:
                out.write(f"{request['seed']}\\n")
        return super().handle(request)


def factory():
    return Flaky()
'''


def _statuses(report: dict) -> dict[str, str]:
    return {r["id"]: r["status"] for r in report["rules"]}


def _seeds(pytester) -> Counter[str]:
    path = pytester.path / "seeds.txt"
    seeds = Counter(path.read_text().split())
    path.unlink()
    return seeds


def test_repeat_3_finds_the_seeded_nondeterminism_and_nothing_else(oracle, pytester):
    pytester.makepyfile(flaky_engine=FLAKY_ENGINE)
    once = oracle("run", "--engine", "flaky_engine:factory", "--rule", "ti4")
    seeds_once = _seeds(pytester)
    run = oracle("run", "--engine", "flaky_engine:factory", "--rule", "ti4", "--repeat", "3",
                 "--markdown", "r.md", "--html", "r.html", "--junitxml", "r.xml",
                 "--cucumber", "r.cucumber.json")
    assert run.code == 1, run.out + run.err
    assert _seeds(pytester) == Counter({s: 3 * n for s, n in seeds_once.items()})

    load_report(pytester.path / "report.json")  # valid against the report's schema
    report = run.report
    assert report["repeat"] == 3 and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ",
                                                  report["started"])
    assert report["summary"]["scenarios"] == once.report["summary"]["scenarios"]
    statuses = _statuses(report)
    assert [i for i, s in statuses.items() if s == "flaky"] == ["ti4:2.4"]
    assert set(statuses.values()) <= {"pass", "flaky", "blocked", "untestable"}
    flaky = [(r["id"], s) for r in report["rules"] for s in r["scenarios"]
             if s["status"] == "flaky"]
    assert flaky
    for rule, s in flaky:
        assert rule == "ti4:2.4", s["name"]  # its own, or a blocked scenario's charge
        assert len(s["outcomes"]) == 3 and len(set(s["outcomes"])) > 1, s
        assert "pass" in s["outcomes"]
        assert s["message"].startswith(f"flaky: 3 runs of this scenario (the same seed, the "
                                       f"same requests) gave {', '.join(s['outcomes'])}")
    for rule in report["rules"]:  # a scenario blocked in some runs only: by ti4:2.4
        for s in rule["scenarios"]:
            if s["status"] == "blocked":
                assert s["blocked_by"] == "ti4:2.4" and "pass" in s["outcomes"]
    names = [(s["location"], s["name"]) for r in report["rules"] for s in r["scenarios"]
             if not s.get("charged_from")]
    assert len(names) == len(set(names))  # each scenario once, not once per run

    assert re.search(r"^ti4:2\.4\s+flaky ", run.out, re.MULTILINE), run.out
    assert re.search(r"^ti4:2\.4 fail: .*\(ti4/hand-limit\.feature:\d+\), run [123] of 3$",
                     run.out, re.MULTILINE)  # each failing run's details say which run
    assert re.search(r"└ flaky \((pass|fail) \d, (pass|fail) \d of 3 runs\): ", run.out)
    markdown = (pytester.path / "r.md").read_text()
    assert "\n- `ti4:2.4` flaky: **" in markdown and "flaky: 3 runs of this scenario" in markdown
    assert 'class="st st-flaky"' in (pytester.path / "r.html").read_text()
    xml = (pytester.path / "r.xml").read_text()
    assert xml.count('type="flaky"') == len(flaky)
    cucumber = json.loads((pytester.path / "r.cucumber.json").read_text())
    failed = [step["result"]["error_message"] for feature in cucumber
              for element in feature["elements"] for step in element["steps"]
              if step["result"]["status"] == "failed"]
    assert any(m.startswith("flaky: 3 runs") for m in failed)


def test_repeat_3_reports_no_flaky_on_the_reference_engine_nor_on_a_mutant(oracle):
    reference = oracle("run", "--rule", "ti4", "--repeat", "3")
    assert reference.code == 0, reference.out + reference.err
    assert "flaky" not in _statuses(reference.report).values()
    assert not [s for s in reference.scenarios() if s.get("outcomes")]
    mutant = oracle("run", "--engine", "mutant:ti4/hand_limit_off_by_one", "--rule", "ti4",
                    "--repeat", "3")
    assert mutant.code == 1
    statuses = _statuses(mutant.report)
    assert statuses["ti4:2.4"] == "fail" and "flaky" not in statuses.values()
    assert not [s for s in mutant.scenarios() if s.get("outcomes")]


def _verdict(status: Status, blocked_by: str | None = None, name: str = "s") -> ScenarioVerdict:
    return ScenarioVerdict(name, "ti4", ("ti4:2.5",), status, "ti4/x.feature:3",
                           message=f"it went {status}", blocked_by=blocked_by)


def test_runs_that_differ_are_flaky_with_the_first_unclean_run_and_charged_alike():
    from oracle.report.model import FAILING

    merged = merge_repeats([_verdict(Status.PASS), _verdict(Status.BLOCKED, "ti4:2.4"),
                            _verdict(Status.FAIL), _verdict(Status.PASS, name="t"),
                            _verdict(Status.PASS, name="t")])
    assert [(v.name, v.status) for v in merged] == [("s", Status.FLAKY), ("t", Status.PASS)]
    flaky = merged[0]
    assert flaky.outcomes == (Status.PASS, Status.BLOCKED, Status.FAIL)
    assert flaky.blocked_by == "ti4:2.4"  # the first run that did not pass: run 2
    assert flaky.message == ("flaky: 3 runs of this scenario (the same seed, the same "
                             "requests) gave pass, blocked, fail; run 2 (blocked) follows\n"
                             "it went blocked")
    from oracle.suite.games import discover_games, feature_roots

    catalog = discover_games(feature_roots([]))["ti4"].catalog
    report = build_report([catalog], merged, {"spec": "x"})
    assert report.rule("ti4:2.5").status == Status.BLOCKED  # its own check not trusted
    assert report.rule("ti4:2.4").status == Status.FLAKY  # the charge: flaky, not fail
    assert Status.FLAKY in FAILING and not report.conforms
    assert report.summary["flaky"] == 1


def test_a_known_failure_that_passes_in_some_runs_is_flaky_and_fails_the_run(oracle,
                                                                            pytester):
    """Each run of a scenario an expectations file lists is a known failure (``xfail``) or
    passes now (``xpass``): pytest sees no failed test, yet the runs differ, so the scenario
    is flaky and the run exits 1 (a baseline cannot hold a scenario whose outcome is luck)."""
    pytester.makepyfile(flaky_engine=FLAKY_ENGINE)
    name = "The player chooses the seven cards to keep and discards the rest"
    (pytester.path / "known.yaml").write_text(
        f"known_failures:\n  - rule: ti4:2.4\n    scenario: {name}\n    reason: limit\n")
    run = oracle("run", "--engine", "flaky_engine:factory", "--rule", "ti4:2.4",
                 "--repeat", "3", "--expectations", "known.yaml",
                 "-k", "test_the_player_chooses_the_seven_cards_to_keep_and_discards_the_rest")
    assert run.code == 1, run.out + run.err
    assert not re.search(r"\d+ failed", run.out)  # pytest: an xfailed run, xpassed ones
    [scenario] = [s for s in run.scenarios() if s["name"] == name]
    assert scenario["status"] == "flaky"
    assert set(scenario["outcomes"]) == {"xfail", "xpass"}
    assert run.status("ti4:2.4") == "flaky"


def test_a_run_whose_scenarios_are_all_flaky_tested_something():
    """A flaky scenario ran on the engine (every one of its runs did): a run of flaky
    scenarios alone fails (1), never 'nothing was tested' (5)."""
    def report(*statuses: Status) -> Report:
        scenarios = tuple(ScenarioResult(f"s{n}", status, f"x.feature:{n}")
                          for n, status in enumerate(statuses))
        return Report({}, (RuleResult("ti4:2.4", Status.FLAKY, "", scenarios),))

    assert nothing_tested(report(Status.FLAKY)) is None
    assert nothing_tested(report(Status.FLAKY, Status.UNSUPPORTED)) is None
    assert nothing_tested(report(Status.UNSUPPORTED)) is not None


def test_a_baseline_lists_flaky_scenarios_as_known_flaky_and_holds(oracle, pytester):
    """``expectations --from`` a report with flaky scenarios lists them under
    ``known_flaky``; ``--repeat 3`` with that file on the same engine exits 0 (each run
    that failed is ``xfail``, the runs together ``xfail`` with their outcomes, no
    ``flaky``), also under ``--strict-expectations``; with one entry left out, that scenario
    is a new flaky one and the run exits 1 naming it."""
    pytester.makepyfile(flaky_engine=FLAKY_ENGINE)
    args = ("run", "--engine", "flaky_engine:factory", "--rule", "ti4:2.4", "--repeat", "3")
    first = oracle(*args)
    assert first.code == 1
    flaky = {s["name"] for s in first.scenarios("flaky")}
    assert len(flaky) >= 2, first.out
    (pytester.path / "r.json").write_text(json.dumps(first.report))
    wrote = oracle("expectations", "--from", "r.json", "--out", "known.yaml")
    assert wrote.code == 0, wrote.out + wrote.err
    import yaml

    listed = yaml.safe_load((pytester.path / "known.yaml").read_text())
    assert {e["scenario"] for e in listed["known_flaky"]} == flaky
    assert all(e["rule"] == "ti4:2.4" for e in listed["known_flaky"])
    assert not any(e["reason"].startswith(("flaky", "known")) for e in listed["known_flaky"])

    again = oracle(*args, "--expectations", "known.yaml", "--strict-expectations")
    assert again.code == 0, again.out[-3000:]
    assert not again.scenarios("flaky")
    known = [s for s in again.scenarios("xfail") if s["name"] in flaky]
    assert {s["name"] for s in known} == flaky
    for s in known:
        assert set(s["outcomes"]) == {"pass", "xfail"}, s
        assert s["message"].startswith("known flaky: 3 runs of this scenario")
        assert "known flaky (known.yaml:" in s["message"]
    assert again.status("ti4:2.4") == "xfail"
    (pytester.path / "r.json").write_text(json.dumps(again.report))
    second = oracle("expectations", "--from", "r.json")
    assert {e["scenario"] for e in yaml.safe_load(second.out)["known_flaky"]} == flaky

    left_out = sorted(flaky)[0]
    kept = [e for e in listed["known_flaky"] if e["scenario"] != left_out]
    (pytester.path / "fewer.yaml").write_text(yaml.safe_dump({"known_flaky": kept}))
    new = oracle(*args, "--expectations", "fewer.yaml")
    assert new.code == 1, new.out[-3000:]
    assert [s["name"] for s in new.scenarios("flaky")] == [left_out]
    assert new.status("ti4:2.4") == "flaky"


def test_a_known_flaky_rule_holds_its_runs_that_pass_and_those_that_fail():
    """A rule-level ``known_flaky`` entry: a failing run is ``xfail``, a passing one stays
    ``pass`` (passing is one of its outcomes, never ``xpass``), and runs that differ merge
    to ``xfail``; a known failure that passes in some runs is still ``flaky``."""
    from pathlib import Path

    from oracle.report.expectations import Expectations, KnownFailure

    entry = KnownFailure("luck", rule="ti4:2.4", line=3, flaky=True)
    known = Expectations(Path("known.yaml"), (), (entry,))
    failing = _verdict(Status.FAIL, name="s")
    failing = dataclasses.replace(failing, rules=("ti4:2.4",))
    passing = dataclasses.replace(failing, status=Status.PASS, message="")
    runs = [known.apply(v)[0] for v in (passing, failing, passing)]
    assert [v.status for v in runs] == [Status.PASS, Status.XFAIL, Status.PASS]
    assert runs[1].message.startswith("known flaky (known.yaml:3): luck\n")
    [merged] = merge_repeats(runs, known)
    assert merged.status == Status.XFAIL
    assert merged.outcomes == (Status.PASS, Status.XFAIL, Status.PASS)
    assert [v.status for v in merge_repeats(runs)] == [Status.FLAKY]  # no file: flaky

    as_failure = Expectations(Path("known.yaml"), (dataclasses.replace(entry, flaky=False),))
    runs = [as_failure.apply(v)[0] for v in (dataclasses.replace(passing, name="t"),
                                              dataclasses.replace(failing, name="t"))]
    assert [v.status for v in runs] == [Status.PASS, Status.XFAIL]  # rule-level: no xpass
    assert [v.status for v in merge_repeats(runs, as_failure)] == [Status.FLAKY]
