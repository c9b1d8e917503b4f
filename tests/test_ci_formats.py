"""The formats CI reads: JUnit with rule ids, Cucumber JSON with rule tags (under xdist too),
a diff of two runs, shards combined into one run's report, a badge, a workflow."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
import yaml

from oracle.report.judge import Exit
from oracle.suite.games import discover_games

TI4_IDS = discover_games()["ti4"].catalog.ids()
ROOT = Path(__file__).resolve().parent.parent
SERVE_REFERENCE = f"cmd:{shlex.quote(sys.executable)} -m oracle.pipe serve reference:ti4"


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, Path]:
    """One run of the reference engine and one of a mutant over TI4, every format written:
    the tests of this module read them (a run each would cost a second each)."""
    from conftest import cli_in_process

    folder = tmp_path_factory.mktemp("runs")
    for name, engine in (("ok", "reference"), ("bad", "mutant:lazy_reshuffle")):
        cli_in_process(folder, [
            "run", "--engine", engine, "--rule", "ti4", "--json", str(folder / f"{name}.json"),
            "--badge", str(folder / f"{name}.badge.json"), "--junitxml",
            str(folder / f"{name}.xml"), "--cucumber", str(folder / f"{name}.cucumber.json"),
            "--cucumber-messages", str(folder / f"{name}.ndjson")])
    return {p.name: p for p in folder.iterdir()}


def shape(report: dict) -> list:
    """What must be equal between two runs of one suite: rules, statuses, scenario lists."""
    return [(r["id"], r["status"], [(s["name"], s["status"]) for s in r["scenarios"]])
            for r in report["rules"]]


def _junit(path: Path) -> tuple[ET.Element, list[ET.Element], list[dict[str, str]]]:
    root = ET.parse(path).getroot()
    cases = root.findall("./testsuite/testcase")
    return root, cases, [{p.get("name"): p.get("value") for p in c.findall("./properties/"
                                                                          "property")}
                         for c in cases]


def test_junit_carries_rule_ids_and_statuses(runs, ti4_scenarios):
    root, cases, props = _junit(runs["bad.xml"])
    assert len(cases) == ti4_scenarios() == int(root.get("tests"))  # one case a scenario
    rules = {p.get("name"): p.get("value")
             for p in root.findall("./testsuite/properties/property")}
    assert set(TI4_IDS) <= set(rules)  # every rule appears, with its status
    assert rules["ti4:note-4"] == "fail"
    assert rules["ti4:note-11"].startswith("untestable: a pointer")
    failing = [(c, p) for c, p in zip(cases, props, strict=True) if p["status"] == "fail"]
    assert {p["rule"] for _, p in failing} == {"ti4:note-4"}
    assert all(p["rule_status"] == "fail" for _, p in failing)
    assert all(c.find("failure") is not None for c, _ in failing)
    assert root.get("failures") == str(len(failing))


def _messages(text: str) -> list[dict]:
    """Every envelope of a Cucumber Messages stream, each checked against the messages
    schema of @cucumber/messages (vendored beside the format)."""
    from jsonschema import Draft202012Validator

    schema = ROOT / "oracle" / "report" / "formats" / "cucumber_messages.schema.json"
    validator = Draft202012Validator(json.loads(schema.read_text()))
    envelopes = [json.loads(line) for line in text.splitlines()]
    for envelope in envelopes:
        problems = [e.message for e in validator.iter_errors(envelope)]
        assert not problems, (envelope, problems)
    assert list(validator.iter_errors({"testCase": {"id": "1"}})) != []  # it can fail
    return envelopes


def test_cucumber_messages_follow_the_schema_a_test_case_per_scenario(runs, ti4_scenarios):
    envelopes = _messages(runs["bad.ndjson"].read_text())
    kinds = [next(iter(e)) for e in envelopes]
    assert kinds[0] == "meta" and kinds[-1] == "testRunFinished"
    assert kinds.count("testCase") == kinds.count("pickle") == ti4_scenarios()
    assert kinds.count("gherkinDocument") == kinds.count("source") > 0
    pickles = {e["pickle"]["id"]: e["pickle"] for e in envelopes if "pickle" in e}
    cases = {e["testCase"]["id"]: e["testCase"] for e in envelopes if "testCase" in e}
    assert all(c["pickleId"] in pickles for c in cases.values())
    assert all(any(t["name"].startswith("@ti4:") for t in p["tags"]) for p in pickles.values())
    finished = [e["testStepFinished"] for e in envelopes if "testStepFinished" in e]
    steps = {t["id"]: c for c in cases.values() for t in c["testSteps"]}
    started = {e["testCaseStarted"]["id"]: e["testCaseStarted"]["testCaseId"]
               for e in envelopes if "testCaseStarted" in e}
    failed = {pickles[cases[started[f["testCaseStartedId"]]]["pickleId"]]["name"]
              for f in finished if f["testStepResult"]["status"] == "FAILED"}
    assert failed == {"Drawing the last card reshuffles the discard pile immediately"}
    assert all(f["testStepId"] in steps for f in finished)
    assert envelopes[-1]["testRunFinished"]["success"] is False
    ok = _messages(runs["ok.ndjson"].read_text())
    assert ok[-1]["testRunFinished"]["success"] is True


def test_cucumber_messages_of_a_scenario_whose_file_is_not_at_hand(runs):
    """A scenario from a folder the report does not locate (a committee's, given by an
    absolute path elsewhere) gets a pickle made from its recorded steps."""
    from oracle.report.formats.cucumber_messages import render_cucumber_messages
    from oracle.report.model import Report

    report = Report.from_json(json.loads(runs["bad.json"].read_text()))
    moved = Report.from_json(json.loads(json.dumps(report.to_json()).replace(
        '"location": "ti4/', '"location": "nowhere/ti4/')))
    envelopes = _messages(render_cucumber_messages(moved))
    pickles = [e["pickle"] for e in envelopes if "pickle" in e]
    assert len(pickles) == sum(1 for e in envelopes if "testCase" in e) > 0
    assert all(p["uri"].startswith("nowhere/") and p["steps"] for p in pickles)
    rebuilt = [e["source"]["data"] for e in envelopes if "source" in e]
    assert rebuilt and all("Rebuilt by rules-oracle" in text for text in rebuilt)


def test_check_runs_the_suite_checks_with_no_engine(oracle, pytester):
    """Cucumber's --dry-run: the checks a run refuses a suite on, alone (exit 0 or 2)."""
    sound = oracle("check")
    assert sound.code == 0 and "the suite passes every check: eu-pop, ti4" in sound.out
    (pytester.path / "more" / "ti4").mkdir(parents=True)
    (pytester.path / "more" / "ti4" / "typo.feature").write_text(
        "Feature: a typo\n  @ti4:2.4\n  Scenario: A step nobody defined\n"
        "    Cites: ti4:2.4#1\n    Given the players are Alice and Bob\n"
        "    When Alice juggles 3 cards\n")
    broken = oracle("check", "--features", "more", "--game", "ti4")
    assert broken.code == 2, broken.out + broken.err
    assert "typo.feature:6: " in broken.err and "Alice juggles 3 cards" in broken.err
    assert oracle("check", "--game", "chess").code == 2


def test_junit_has_one_case_per_blocked_scenario_charged_to_its_blocker(oracle, pytester):
    """Why: a blocked scenario was a case under its own rule and another under the rule
    that blocked it (124 test cases for 119 scenarios)."""
    run = oracle("run", "--engine", "mutant:hand_limit_off_by_one", "--rule", "ti4",
                 "--junitxml", "r.xml")
    root, cases, props = _junit(pytester.path / "r.xml")
    scenarios = {(s["location"], s["name"]) for s in run.scenarios()}
    assert len(cases) == len(scenarios) == int(root.get("tests"))
    blocked = [(c, p) for c, p in zip(cases, props, strict=True) if p["status"] == "blocked"]
    assert blocked and all(c.get("classname") == p["blocked_by"] == "ti4:2.4"
                           and p["rule"] != "ti4:2.4" and c.find("failure") is not None
                           for c, p in blocked)


def test_reports_survive_xdist_with_a_pipe_engine_per_worker(oracle, pytester, runs,
                                                             ti4_scenarios):
    """The JSON report of a parallel run equals the serial one (same order too), and the
    Cucumber JSON carries the rule tags (pytest-bdd's own writes [] under xdist)."""
    serial = json.loads(runs["ok.json"].read_text())
    parallel = oracle("run", "--engine", SERVE_REFERENCE, "--rule", "ti4", "--strict-protocol",
                      "--cucumber", "c.json", "--", "-n", "2")
    assert parallel.code == Exit.OK, parallel.out + parallel.err
    assert "bringing up nodes" in parallel.out
    assert shape(parallel.report) == shape(serial)
    assert {r["status"] for r in serial["rules"]} == {"pass", "untestable"}
    assert parallel.report["engine"]["games"]["ti4"]["label"] == SERVE_REFERENCE
    features = json.loads((pytester.path / "c.json").read_text())
    elements = [e for f in features for e in f["elements"]]
    assert len(elements) == ti4_scenarios()
    tags = {t["name"] for e in elements for t in e["tags"]}
    assert tags == {f"@{i}" for i in TI4_IDS if i != "ti4:note-11"}
    assert all(s["result"]["status"] == "passed" for e in elements for s in e["steps"])
    first = elements[0]["steps"][0]
    assert first["keyword"].strip() in ("Given", "And") and first["line"] > 0


def test_cucumber_marks_the_failing_step(runs):
    features = json.loads(runs["bad.cucumber.json"].read_text())
    failed = [e for feature in features for e in feature["elements"]
              if any(s["result"]["status"] == "failed" for s in e["steps"])]
    assert len(failed) == 1
    statuses = [s["result"]["status"] for s in failed[0]["steps"]]
    first = statuses.index("failed")
    assert set(statuses[:first]) == {"passed"} and set(statuses[first + 1:]) <= {"skipped"}
    assert "the action deck has 0 card(s)" in failed[0]["steps"][first]["result"][
        "error_message"]


def test_shards_combine_into_the_report_of_one_run(oracle, pytester):
    """Done when: --shard 1/2 and 2/2, combined, give the rules and statuses of one run."""
    whole = oracle("run", "--engine", "mutant:lazy_reshuffle", "--rule", "ti4", "--rule",
                   "eu-pop:6.decks")
    codes = []
    for k in (1, 2):
        shard = oracle("run", "--engine", "mutant:lazy_reshuffle", "--rule", "ti4", "--rule",
                       "eu-pop:6.decks", "--shard", f"{k}/2", "--json", f"s{k}.json",
                       report=False)
        codes.append(shard.code)
        assert json.loads((pytester.path / f"s{k}.json").read_text())["shard"] == {
            "index": k, "count": 2}
    assert Exit.FAILED in codes
    combined = oracle("combine", "s1.json", "s2.json", "--json", "c.json",
                      "--markdown", "c.md")
    assert combined.code == Exit.FAILED, combined.out + combined.err
    merged = json.loads((pytester.path / "c.json").read_text())
    assert shape(merged) == shape(whole.report)
    assert merged["summary"] == whole.report["summary"] and "shard" not in merged
    assert (pytester.path / "c.md").read_text().startswith("## rules-oracle:")
    missing = oracle("combine", "s1.json", "--json", "d.json")
    assert missing.code == Exit.USAGE and "shard 2/2 is missing" in missing.err
    twice = oracle("combine", "s1.json", "s1.json")
    assert twice.code == Exit.USAGE and "are both shard 1/2" in twice.err


def _terminal(out: str) -> list[str]:
    """A run's terminal output without what differs between two runs of one suite: the
    time it took and the wait for --jobs' shards."""
    return [re.sub(r" in [0-9.]+s$", "", line) for line in out.splitlines()
            if not line.startswith("running 2 shard processes")]


def test_jobs_is_the_serial_run(oracle, pytester, monkeypatch):
    """``--jobs 2``: two shard processes, and the terminal, the reports and the exit status
    of one process: failure details (a failing and a blocked scenario), the table at the
    terminal's width, pytest's summary, the files written where asked.

    Why: --jobs printed only the combined table, cut to another width, with no failure
    details and no summary."""
    monkeypatch.setenv("COLUMNS", "100")  # the shards format failures to this width too
    args = ("run", "--engine", "mutant:hand_limit_off_by_one", "--rule", "ti4:2.4",
            "--rule", "ti4:note-10", "--rule", "eu-pop:6.decks", "--markdown", "r.md")
    whole = oracle(*args)
    messages = [line for line in whole.out.splitlines()  # the failure messages' lines
                if line.startswith("  ") and "reproduce: " not in line]
    assert max(len(line) for line in messages) == 100  # an exchange cut to the width
    serial_md = (pytester.path / "r.md").read_text()
    jobs = oracle(*args, "--jobs", "2")
    assert jobs.code == whole.code == Exit.FAILED, jobs.out + jobs.err
    assert "blocked by ti4:2.4" in whole.out and "FAILURES" in whole.out
    assert _terminal(jobs.out) == _terminal(whole.out)
    assert jobs.err == whole.err
    assert shape(jobs.report) == shape(whole.report)
    assert jobs.report["summary"] == whole.report["summary"] and "shard" not in jobs.report
    assert (pytester.path / "r.md").read_text() == serial_md


def test_jobs_refuses_a_shard_and_an_unwritable_path_before_any_shard_runs(oracle, pytester):
    args = ("run", "--engine", "mutant:lazy_reshuffle", "--rule", "ti4")
    both = oracle(*args, "--jobs", "2", "--shard", "1/2")
    assert both.code == Exit.USAGE and "drop --shard" in both.err
    (pytester.path / "taken").mkdir()  # an output path that cannot be written: no shard runs
    unwritable = oracle(*args, "--jobs", "2", "--html", "taken", report=False)
    assert unwritable.code == Exit.USAGE and "taken" in unwritable.err, unwritable.err


def test_diff_lists_regressions_and_fails_on_them(oracle, runs):
    old, new = str(runs["ok.json"]), str(runs["bad.json"])
    worse = oracle("diff", old, new)
    assert worse.code == Exit.FAILED, worse.out + worse.err
    assert "regressed (2):" in worse.out
    assert "- ti4:note-4: pass -> fail" in worse.out
    assert ("- ti4:note-4 scenario 'Drawing the last card reshuffles the discard pile "
            "immediately': pass -> fail") in worse.out
    better = oracle("diff", new, old)
    assert better.code == Exit.OK and "fixed (2):" in better.out
    same = oracle("diff", old, old)
    assert same.code == Exit.OK and same.out.startswith("no change")
    bad = oracle("diff", old, "nope.json")
    assert bad.code == Exit.USAGE and "nope.json" in bad.err


def test_the_badge_is_a_shields_endpoint(runs):
    ok = json.loads(runs["ok.badge.json"].read_text())
    bad = json.loads(runs["bad.badge.json"].read_text())
    assert ok == {"schemaVersion": 1, "label": "rules-oracle", "message": "23/23 rules pass",
                  "color": "brightgreen"}
    assert bad["message"] == "1 of 23 rules fail" and bad["color"] == "red"


def test_the_github_actions_example_runs_diffs_and_summarises():
    workflow = yaml.safe_load((ROOT / "examples" / "github-actions.yml").read_text())
    steps = [s for job in workflow["jobs"].values() for s in job["steps"]]
    script = "\n".join(s.get("run", "") for s in steps)
    assert "rules-oracle run" in script and "--json" in script and "--markdown" in script
    assert "rules-oracle diff" in script and "GITHUB_STEP_SUMMARY" in script
    assert "rules-oracle combine" in script and "--shard" in script
    assert any("upload-artifact" in s.get("uses", "") for s in steps)
