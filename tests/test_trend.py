"""``rules-oracle trend REPORT... | FOLDER``: each rule's status across runs, oldest first,
as text, Markdown and HTML, with the first run where each rule changed.

What is proved (issue 20 item 7): runs are ordered by the time each report records, never
by file names (the files here are named against their order); a report that records no
time is placed by its file's modification time, and the output says so; in a folder, JSON
that is no run's report is left out, and said, while a file named on its own that is not a
report is exit 2 naming it; the first change and the number of changes per rule are right;
the HTML page loads in headless Chromium with no console error, its filters show the rules
that failed in some run, and a cell's link opens that rule in that run's report.
"""

from __future__ import annotations

import dataclasses
import json
import os

import pytest
from browser import load, screenshot, visible_rows

from oracle.report import Status, load_report
from oracle.report.formats import jsonfile


@pytest.fixture
def runs(oracle, pytester):
    """A folder of four reports of one rule's runs, named against their order: the oldest
    (no start time, so placed by its file's time) and three whose ``started`` says when,
    where ti4:2.4 goes pass, pass, fail, flaky; and a badge, which is no report."""
    base = oracle("run", "--rule", "ti4:2.4")
    assert base.code == 0, base.out + base.err
    report = load_report(pytester.path / "report.json")
    folder = pytester.path / "runs"
    folder.mkdir()

    def write(name: str, started: str | None, status: Status) -> None:
        rules = tuple(dataclasses.replace(r, status=status) if r.id == "ti4:2.4" else r
                      for r in report.rules)
        (folder / name).write_text(jsonfile.render(dataclasses.replace(
            report, rules=rules, started=started)))

    write("a.json", "2026-03-04T10:00:00Z", Status.FLAKY)
    write("b.json", "2026-03-03T10:00:00Z", Status.FAIL)
    write("c.json", "2026-03-02T10:00:00Z", Status.PASS)
    write("d.json", None, Status.PASS)
    os.utime(folder / "d.json", (1_700_000_000, 1_700_000_000))  # 2023: the oldest
    (folder / "badge.json").write_text(json.dumps({"schemaVersion": 1, "label": "rules"}))
    return folder


def test_trend_orders_runs_by_their_start_not_their_names(oracle, pytester, runs):
    trend = oracle("trend", str(runs), "--markdown", "t.md", "--html", "t.html")
    assert trend.code == 0, trend.out + trend.err
    lines = trend.out.splitlines()
    files = [line.split(" (")[1].split(")")[0] for line in lines if line.startswith("[")]
    assert files == ["d.json", "c.json", "b.json", "a.json"]
    assert lines[1].startswith("[1] 2023-11-14 22:13 reference")
    assert any(f"left out {runs / 'badge.json'}: not a rules-oracle report" in line
               for line in lines)
    assert "1 report(s) record no start time" in trend.out and "d.json" in trend.out
    row = next(line for line in lines if line.startswith("ti4:2.4 "))
    assert row.split() == ["ti4:2.4", "pass", "pass", "fail", "flaky", "run", "3:", "pass",
                           "->", "fail"]
    still = next(line for line in lines if line.startswith("ti4:2.5 "))
    assert still.rstrip().endswith("-")
    assert lines[-3] == "1 of 24 rules changed status across 4 runs (more than once: " \
                        "ti4:2.4 2 times)"

    markdown = (pytester.path / "t.md").read_text()
    assert "| `ti4:2.4` | pass | pass | **fail** | **flaky** | run 3: pass -> fail |" in markdown
    assert "| `ti4:2.4` | run 3: pass -> fail | 2 | **flaky** |" in markdown
    assert "| 1 | 2023-11-14T22:13:20Z (file time) | `reference` | `d.json` |" in markdown


def test_a_named_file_that_is_no_report_is_refused(oracle, runs):
    refused = oracle("trend", str(runs / "a.json"), str(runs / "badge.json"))
    assert refused.code == 2
    assert f"{runs / 'badge.json'}: not a rules-oracle report" in refused.err
    empty = runs / "empty"
    empty.mkdir()
    assert oracle("trend", str(empty)).code == 2


def test_the_trend_page_in_chromium(browser, oracle, pytester, runs, tmp_path):
    from selenium.webdriver.common.by import By

    assert oracle("trend", str(runs), "--html", "t.html").code == 0
    page = pytester.path / "t.html"
    assert load(browser, page) == []
    bar = browser.find_element(By.ID, "filters")
    bar.find_element(By.CSS_SELECTOR, "button[data-pick=failing]").click()
    assert visible_rows(browser) == ["m/ti4:2.4"]  # failed in some run: the others never
    screenshot(browser, tmp_path / "trend.png")
    changed = browser.find_element(By.CSS_SELECTOR, "table.changed").text
    assert "ti4:2.4 run 3: pass -> fail 2 flaky" in changed
    browser.find_element(By.CSS_SELECTOR, "tr[id='m/ti4:2.4'] a.st-fail").click()
    target = browser.find_element(By.ID, "e3/ti4:2.4")
    assert browser.find_element(By.ID, "e3").get_attribute("open") is not None
    assert target.is_displayed()
