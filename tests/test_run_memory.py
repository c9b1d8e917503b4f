"""What a run keeps of each test once it has run: nothing it will not read again.

A 5,000-scenario run (10,000 tests) held about 100 KB a scenario at its peak
(``benchmarks/run.py``, ``peak_rss_5000_mb``); these hold the pieces that made it small:
the verdict's JSON leaves the reports pytest keeps once logged, the step records leave the
items once in the verdict, pytest-bdd's records of each test are let go once its reporters
read them, the verdicts share their repeated values, and the JSON report is written a rule
at a time, byte for byte what ``render`` gives.
"""

from __future__ import annotations

import dataclasses
import json

from oracle.engines.wire import dumps_document
from oracle.report.formats import jsonfile
from oracle.report.model import Report

PROBE = '''
import json
import pytest
from oracle.plugin import bdd
from oracle.plugin.run import run_key
from oracle.plugin.verdicts import failed_step_key, steps_key
from oracle.report.model import USER_PROPERTY

@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    reports = [r for kept in reporter.stats.values() for r in kept
               if hasattr(r, "user_properties")]
    run = session.config.stash[run_key]
    steps = [s for v in run.sink.verdicts for s in v.steps]
    with open("kept.json", "w") as f:
        json.dump({
            "reports": len(reports),
            "with_verdict_text": sum(1 for r in reports
                                     for k, _ in r.user_properties if k == USER_PROPERTY),
            "items_with_steps": sum(1 for i in session.items
                                    if steps_key in i.stash or failed_step_key in i.stash),
            "bdd_kept": list(bdd.kept()),
            "verdicts": len(run.sink.verdicts),
            "steps": len(steps), "distinct_step_objects": len({id(s) for s in steps}),
            "distinct_texts": len({id(s.text) for s in steps}),
            "texts": len({s.text for s in steps}),
        }, f)
'''


def test_a_run_keeps_no_copy_of_a_test_it_will_not_read_again(pytester):
    pytester.makepyfile(keptprobe=PROBE)
    pytester.syspathinsert()
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "keptprobe",
                                          "--oracle-engine", "mutant:lazy_reshuffle",
                                          "--oracle-rule", "ti4")
    assert result.ret == 1, result.stdout.str()  # the mutant fails some: failed steps too
    kept = json.loads((pytester.path / "kept.json").read_text())
    assert kept["reports"] >= 3 * kept["verdicts"] > 0, kept
    assert kept["with_verdict_text"] == 0 and kept["items_with_steps"] == 0, kept
    assert kept["bdd_kept"] == [0, 0], kept
    # Equal steps and texts are one object each, however many verdicts hold them.
    assert kept["distinct_texts"] == kept["texts"] < kept["steps"], kept
    assert kept["distinct_step_objects"] < kept["steps"], kept


def test_the_json_report_written_a_rule_at_a_time_is_render_s_text(oracle, pytester):
    """The file a run writes a rule at a time holds ``render``'s text, the whole report
    rendered at once (interrupted, a shard's, and with no rules too)."""
    run = oracle("run", "--engine", "mutant:lazy_reshuffle")
    assert run.code == 1 and run.report is not None, run.out + run.err
    report = Report.from_json(run.report)
    assert (pytester.path / "report.json").read_text(encoding="utf-8") == jsonfile.render(report)
    for variant in (report, dataclasses.replace(report, interrupted=True),
                    dataclasses.replace(report, shard=(2, 3)),
                    dataclasses.replace(report, rules=())):
        whole = dumps_document(variant.to_json())
        if variant.interrupted:
            whole = whole.replace('{\n  "interrupted": true,', '{"interrupted": true,', 1)
        assert b"".join(jsonfile.chunks(variant)).decode() == jsonfile.render(variant) == whole
