"""Inside an engine's own repository: plain `pytest` with the plugin, no conftest needed."""

from __future__ import annotations

import json

import pytest

from oracle.plugin.gcpolicy import TEST_GC_THRESHOLD

ENGINE = '''
from oracle.games.ti4.engine import ReferenceEngine

def factory():
    return ReferenceEngine()
'''


def test_pytest_option_runs_the_bundled_suite(pytester, engine_module):
    engine_module("myengine", ENGINE)
    result = pytester.runpytest_inprocess("--oracle-engine=myengine:factory",
                                           "--oracle-json=r.json", "-p", "no:cacheprovider",
                                           "--oracle-rule=ti4")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines(["*rules-oracle conformance*", "*ti4:2.4 *pass*"])
    report = json.loads((pytester.path / "r.json").read_text())
    ti4 = [r["status"] for r in report["rules"] if r["id"].startswith("ti4:")]
    assert len(ti4) == 24 and ti4.count("pass") == 23 and ti4.count("untestable") == 1
    assert report["engine"]["spec"] == "myengine:factory"


def test_ini_setting_names_the_engine(pytester, engine_module, ti4_scenarios):
    engine_module("myengine", ENGINE)
    pytester.makeini("[pytest]\noracle_engine = myengine:factory\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--oracle-rule=ti4:note-4")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines([f"*{ti4_scenarios('ti4:note-4')} passed*"])


def test_the_plugin_is_inert_without_an_engine(pytester):
    pytester.makepyfile(test_plain="def test_ok():\n    assert True\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*1 passed*"])
    result.stdout.no_fnmatch_line("*rules-oracle conformance*")


def test_a_rule_mark_selects_scenarios_with_m(pytester, engine_module, ti4_scenarios):
    engine_module("myengine", ENGINE)
    result = pytester.runpytest_inprocess("--oracle-engine=myengine:factory",
                                           "-p", "no:cacheprovider", "-m", "rule", "-q")
    assert result.ret == 0
    result.stdout.fnmatch_lines([f"*{ti4_scenarios()} passed*"])


def test_rules_oracle_run_works_in_a_repo_with_its_own_conftest(oracle, pytester):
    """`rules-oracle run` reads no conftest.py of the current directory (its --help says
    so): one that would fail to import changes nothing. A real process, as a user runs it."""
    pytester.makeconftest("raise RuntimeError('the user conftest was loaded')\n")
    pytester.mkpydir("sub").joinpath("conftest.py").write_text("X = 1\n")
    run = oracle("run", "--rule", "ti4:2.3", process=True)
    assert run.code == 0, run.out + run.err
    assert run.status("ti4:2.3") == "pass"


def test_the_garbage_collector_is_back_on_after_a_run(pytester, engine_module):
    """The plugin pauses Python's cyclic garbage collector while the suite is checked and
    collected (``GcPolicy.pause``), then freezes what that built and raises the first
    threshold while the tests run (``GcPolicy.resume``): the collector must be on during every
    test, and after a run, even one that never reaches the tests (``--collect-only``),
    nothing may stay frozen and the threshold must be the user's again."""
    import gc

    engine_module("myengine", ENGINE)
    pytester.makepyfile(gccheck="import gc\n"
                        "def pytest_runtest_setup(item):\n"
                        "    with open('gc.txt', 'a') as f:\n"
                        "        f.write(f'{gc.isenabled()},{gc.get_freeze_count() > 0},'\n"
                        "                f'{gc.get_threshold()[0]}\\n')\n")
    pytester.syspathinsert()
    before = gc.get_threshold()
    for extra in ([], ["--collect-only"]):
        result = pytester.runpytest_inprocess("--oracle-engine=myengine:factory",
                                               "--oracle-rule=ti4:2.4", "-p", "gccheck",
                                               "-p", "no:cacheprovider", *extra)
        assert result.ret in (0, 5), result.stdout.str()
        assert gc.isenabled()
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == before
    seen = (pytester.path / "gc.txt").read_text().split()
    # Every test ran with the collector on, the collected suite frozen, the threshold raised.
    assert seen and set(seen) == {f"True,True,{max(TEST_GC_THRESHOLD, before[0])}"}, seen


def test_configure_parses_the_options_and_the_session_start_reads_the_files(pytester):
    """pytest reads the options before any session, also for --help: the plugin parses them
    then (a bad one is refused at once) and finds the games, rules and engine only when the
    session starts (``OracleRun.start``), where a folder that is not there is the usage
    error it always was."""
    absent = ("--oracle-engine=reference", "--oracle-features=no-such-folder",
              "-p", "no:cacheprovider")
    assert pytester.runpytest_inprocess(*absent, "--help").ret == 0
    result = pytester.runpytest_inprocess(*absent)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*no-such-folder: no such folder of games; --features*"])
    refused = pytester.runpytest_inprocess(*absent, "--oracle-explore-out=out")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR  # refused while parsing: files unread
    refused.stderr.fnmatch_lines(["*--explore-out DIR writes exploration counterexamples*"])
    assert "no-such-folder" not in refused.stderr.str()
