"""The report model: built from verdicts, written in every format, read back unchanged."""

from __future__ import annotations

from oracle.protocol import validate as schemas


def test_a_blocked_scenario_charges_the_rule_that_blocked_it() -> None:
    """One bug, one rule: a scenario of rule B that failed on rule A's check shows B as
    blocked (not failed) and charges A, and the report names the chain in every format."""
    from oracle.report import Report, ScenarioVerdict, Status, build_report
    from oracle.report.formats import formats
    from oracle.suite.games import discover_games

    catalog = discover_games()["ti4"].catalog
    verdicts = [
        ScenarioVerdict("deals in order", "ti4", ("ti4:note-5",), Status.BLOCKED, "x:1",
                        "no card reached a hand", blocked_by="ti4:2.3"),
        ScenarioVerdict("draws the top card", "ti4", ("ti4:2.3",), Status.PASS, "x:2"),
        ScenarioVerdict("limit", "ti4", ("ti4:2.4",), Status.PASS, "x:3"),
    ]
    report = build_report([catalog], verdicts, {"spec": "test"})
    note5, rule23, rule24 = (report.rule(i) for i in ("ti4:note-5", "ti4:2.3", "ti4:2.4"))
    assert note5.status == Status.BLOCKED
    assert note5.scenarios[0].blocked_by == "ti4:2.3"
    assert rule23.status == Status.FAIL
    assert [s.charged_from for s in rule23.scenarios if s.status == Status.FAIL] == [
        ("ti4:note-5",)]
    assert rule24.status == Status.PASS
    assert report.summary["blocked"] == 1 and report.summary["scenarios"] == 3
    data = report.to_json()
    assert schemas.problems("report", data) == []
    assert Report.from_json(data) == report
    table = formats()["table"].render(report)
    assert "blocked by ti4:2.3" in table
    assert "blocked by `ti4:2.3`" in formats()["markdown"].render(report)
