"""Exit statuses a CI can trust: green means something was tested, and every other ending
has its own status (the table in ``rules-oracle run --help`` and the README)."""

from __future__ import annotations

import json

import engine_sources
import pytest

from oracle.report.judge import EXIT_TABLE, Exit

NOTHING = '''
"""An engine that plays TI4 but supports nothing: every setup is unsupported."""
def factory():
    class Nothing:
        def handle(self, request):
            if request["op"] == "describe":
                return {"reply": "described", "engine": {"name": "nothing", "version": "0",
                        "protocol": 1, "games": [{"game": "ti4"}], "capabilities": []}}
            return {"reply": "unsupported", "reason": "not implemented yet"}
    return Nothing()
'''

REFERENCE = '''
from oracle.games.ti4.engine import ReferenceEngine

def factory():
    return ReferenceEngine()
'''


def test_the_table_is_in_the_help_and_the_readme(oracle):
    run = oracle("run", "--help")
    assert run.code == 0
    for code in Exit:
        assert f"  {int(code)} " in run.out, code
    assert "no conftest.py" in run.out
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert EXIT_TABLE.split("\n", 1)[1] in readme


def test_an_engine_that_supports_nothing_is_not_green(oracle, engine_module, ti4_scenarios):
    """Why: 60 unsupported and exit 0."""
    engine_module("nothing", NOTHING)
    run = oracle("run", "--engine", "nothing:factory", "--rule", "ti4")
    assert run.code == Exit.NOTHING_TESTED, run.out + run.err
    assert ("nothing was tested: the engine supports none of the "
            f"{ti4_scenarios()} selected scenarios") in run.out
    assert "not implemented yet" in run.out
    assert {r["status"] for r in run.report["rules"]} == {"unsupported", "untestable"}


def test_a_selection_that_runs_nothing_is_not_green(oracle):
    run = oracle("run", "--rule", "ti4:2.4", "-k", "no_such_scenario")
    assert run.code == Exit.NOTHING_TESTED, run.out + run.err
    assert "nothing was tested: no scenario ran" in run.out


def test_an_empty_features_folder_is_a_usage_error(oracle, pytester):
    """Why: an empty --features folder ran the bundled suite only, and said nothing."""
    pytester.mkdir("rulings")
    run = oracle("run", "--features", "rulings")
    assert run.code == Exit.USAGE
    assert "rulings: holds no game folder" in run.err and "my-rulings/ti4" in run.err
    assert run.report is None


def test_require_coverage_fails_a_run_with_unsupported_rules(oracle, engine_module):
    engine_module("lacking", engine_sources.lacking("ti4/politics"))
    rules = ["--rule", "ti4:2.1", "--rule", "ti4:2.2", "--rule", "ti4:2.3"]
    lenient = oracle("run", "--engine", "lacking:factory", *rules)
    assert lenient.code == Exit.OK and lenient.status("ti4:2.2") == "unsupported"
    strict = oracle("run", "--engine", "lacking:factory", *rules, "--require-coverage")
    assert strict.code == Exit.FAILED, strict.out + strict.err
    assert "--require-coverage 100: 2 of 3 selected testable rules were tested (67%); " \
           "not tested: ti4:2.2" in strict.out
    share = oracle("run", "--engine", "lacking:factory", *rules, "--require-coverage", "60")
    assert share.code == Exit.OK, share.out
    bad = oracle("run", "--require-coverage", "150")
    assert bad.code == Exit.USAGE and "at most 100" in bad.err


def test_plain_pytest_in_an_engine_repo_with_testpaths_runs_the_scenarios(pytester,
                                                                         engine_module,
                                                                         ti4_scenarios):
    """Why: with ``testpaths = tests`` in the ini, 0 scenarios ran and pytest exited 0."""
    engine_module("myengine", REFERENCE)
    pytester.makeini("[pytest]\ntestpaths = tests\n")
    pytester.mkdir("tests").joinpath("test_unit.py").write_text("def test_ok():\n    pass\n")
    result = pytester.runpytest_inprocess("--oracle-engine=myengine:factory",
                                          "--oracle-rule=ti4:2.4", "--oracle-json=r.json",
                                          "-p", "no:cacheprovider")
    assert result.ret == 0, result.stdout.str()
    # the repo's test and the scenarios of ti4:2.4 and its sub-rules
    result.stdout.fnmatch_lines([f"*{1 + ti4_scenarios('ti4:2.4')} passed*"])
    report = json.loads((pytester.path / "r.json").read_text())
    assert next(r for r in report["rules"] if r["id"] == "ti4:2.4")["status"] == "pass"


def test_plain_pytest_pointed_elsewhere_says_nothing_was_tested(pytester, engine_module):
    engine_module("myengine", REFERENCE)
    pytester.makepyfile(test_unit="def test_ok():\n    pass\n")
    named = pytester.runpytest_inprocess("--oracle-engine=myengine:factory", "test_unit.py",
                                         "-p", "no:cacheprovider")
    assert named.ret == Exit.NOTHING_TESTED
    named.stdout.fnmatch_lines(["*nothing was tested: no scenario ran*"])
    # the engine named only in the ini: the oracle stands by while other tests run
    pytester.makeini("[pytest]\noracle_engine = myengine:factory\n")
    quiet = pytester.runpytest_inprocess("test_unit.py", "-p", "no:cacheprovider")
    assert quiet.ret == 0
    quiet.stdout.no_fnmatch_line("*rules-oracle conformance*")


IMPORT_FAILS = 'raise RuntimeError("engine config missing")\n'
FACTORY_FAILS = '''
def factory():
    raise ValueError("no licence key")
'''


@pytest.mark.parametrize("source, says", [
    (IMPORT_FAILS, "importing 'broken' raised RuntimeError: engine config missing"),
    (FACTORY_FAILS, "the factory raised ValueError: no licence key"),
])
def test_an_engine_that_cannot_be_made_is_a_short_usage_error(oracle, engine_module,
                                                              source, says):
    """Why: an import error gave INTERNALERROR and exit 3; a raising factory 8,000 lines."""
    engine_module("broken", source)
    run = oracle("run", "--engine", "broken:factory")
    assert run.code == Exit.USAGE, run.out + run.err
    assert says in run.err and "broken.py:" in run.err
    assert "INTERNALERROR" not in run.out + run.err and "Traceback" not in run.out + run.err
    assert len((run.out + run.err).splitlines()) < 10
    assert run.report is None


@pytest.mark.parametrize("args, says", [
    (["--explore-examples", "-5"], "must be at least 1"),
    (["--explore-out", "found"], "--explore-out DIR writes exploration counterexamples, so "
                                 "it needs --explore"),
    (["--shard", "3/2"], "must be K/N with 1 <= K <= N"),
])
def test_bad_run_options_are_usage_errors(oracle, pytester, args, says):
    """Why: --explore-examples -5 was reported as a rule failure; --explore-out without
    --explore was silently ignored."""
    run = oracle("run", *args)
    assert run.code == Exit.USAGE and says in run.err, run.out + run.err
    assert not (pytester.path / "found").exists()
    plain = pytester.runpytest_inprocess("--oracle-engine=reference", "-p", "no:cacheprovider",
                                         *[a if not a.startswith("--") else
                                           "--oracle-" + a[2:] for a in args])
    assert plain.ret == pytest.ExitCode.USAGE_ERROR
