"""The HTML report, for a run and for an engine matrix, checked as a page and in a real
headless Chromium (Debian's ``chromium`` driven by Selenium through Debian's
``chromedriver``; skipped, saying why, where either is missing).

What is proved: ``rules-oracle run --html`` writes the page, a real failure's message is
shown in its parts (step, reproduce command, exchanges); the page loads nothing from
outside; engine-provided text cannot inject markup (a hostile engine's name, message and
error are shown as text, and nothing of theirs runs in the browser); the page loads without
console errors; the filters by status, game and rule text show exactly the rows they should;
a matrix cell's link opens its rule in that engine's report; the summary reads with
JavaScript off. One browser for the whole module; one ``rules-oracle run`` for its data.
"""

from __future__ import annotations

import json
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from browser import console_errors, load, screenshot, visible_rows

from oracle.report import Report, RuleResult, ScenarioResult, Status, load_report
from oracle.report.formats.html import render_html, render_matrix_html
from oracle.report.formats.htmlpage import badge, esc, status_order
from oracle.report.matrix import EngineColumn, build_matrix
from oracle.report.message import MessageParts, split_message

MUTANT = "mutant:ti4/no_hand_limit"
HOSTILE = '"><script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">'



@pytest.fixture(scope="module")
def run_files(tmp_path_factory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``rules-oracle run --html --json`` once, on a mutant that breaks the hand limit."""
    out = tmp_path_factory.mktemp("run")
    done = subprocess.run(
        [sys.executable, "-m", "oracle.cli", "run", "--engine", MUTANT, "--rule", "ti4",
         "--all-games", "--json", str(out / "r.json"), "--html", str(out / "r.html")],
        capture_output=True, text=True, cwd=out, stdin=subprocess.DEVNULL, check=False,
        timeout=600)
    return done, out


def hostile_report() -> Report:
    """A report in which every piece of engine-provided text tries to inject markup."""
    scenarios = (ScenarioResult(f"scenario {HOSTILE}", Status.FAIL, f"x.feature:1 {HOSTILE}",
                                f"line 3: Then {HOSTILE}\nexpected {HOSTILE}\n"
                                f"reproduce: rules-oracle run {HOSTILE}\n"
                                f"last exchanges with the engine:\n  < {HOSTILE}"),)
    return Report({"spec": f"evil {HOSTILE}", "seed": 0,
                   "games": {"ti4": {"name": HOSTILE, "version": HOSTILE, "label": HOSTILE}}},
                  (RuleResult("ti4:2.4", Status.FAIL, f"rule {HOSTILE}", scenarios),
                   RuleResult("ti4:2.5", Status.UNSUPPORTED, "x", (), f"lacks {HOSTILE}")),
                  {"rules": 2, "scenarios": 1})


class _Tags(HTMLParser):
    """The tags of a page and their attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))


def tags_of(page: str) -> list[tuple[str, dict[str, str | None]]]:
    parser = _Tags()
    parser.feed(page)
    return parser.tags


# -- the page, without a browser ------------------------------------------------------------


def test_run_html_shows_a_real_failure_in_its_parts(run_files):
    done, out = run_files
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"report written to {out / 'r.html'}" in done.stdout
    page = (out / "r.html").read_text()
    report = load_report(out / "r.json")
    failures = [s for r in report.rules for s in r.scenarios if s.status == Status.FAIL]
    assert failures
    for scenario in failures:
        parts = split_message(scenario.message)
        assert parts.exchanges and parts.context, scenario.message
        assert parts.reproduce.startswith(f"rules-oracle run --engine {MUTANT} ")
        assert f'<pre class="cmd"><code>{esc(parts.reproduce)}</code></pre>' in page
        if not scenario.charged_from:  # a charged one starts with the blame, kept as text
            assert f'<p class="step">{esc(parts.step)}</p>' in page
            assert parts.step.startswith("line "), scenario.message
    assert page.count('<details class="rule"') == len(report.rules)


def test_a_message_of_another_layout_is_kept_whole_as_text():
    message = "the engine said:\n  > not an exchange\nreproduce nothing"
    assert split_message(message) == MessageParts(text=message)
    parts = split_message("line 2: Then x\nwrong\nlast exchanges with the engine:\n"
                          "  > {}\n  < {}\nafterwards")
    assert (parts.step, parts.text, parts.exchanges) == (
        "line 2: Then x", "wrong\nafterwards", ((">", "{}"), ("<", "{}")))


def test_the_page_loads_nothing_from_outside(run_files):
    page = (run_files[1] / "r.html").read_text()
    tags = tags_of(page)
    assert [t for t, _ in tags].count("script") == 1
    assert not [t for t, a in tags if "src" in a or t in ("link", "iframe", "object")]
    assert all((a.get("href") or "#").startswith("#") for _, a in tags)
    csp = next(a["content"] for t, a in tags if a.get("http-equiv") ==
               "Content-Security-Policy")
    assert csp and csp.startswith("default-src 'none';") and "unsafe-inline" not in csp


@pytest.mark.parametrize("render", [
    render_html,
    lambda r: render_matrix_html(build_matrix([EngineColumn(HOSTILE, r, exit_code=1),
                                               EngineColumn(HOSTILE, None, HOSTILE, 2)])),
], ids=["run", "matrix"])
def test_engine_text_cannot_inject_markup(render):
    page = render(hostile_report())
    tags = tags_of(page)
    assert [t for t, _ in tags].count("script") == 1  # the page's own
    assert not [t for t, _ in tags if t == "img"]
    assert not [a for _, a in tags if "onerror" in a]
    assert esc(HOSTILE) in page


def test_a_blocked_scenario_links_the_rule_charged_and_back():
    blocked = ScenarioResult("draws then plays", Status.BLOCKED, "t.feature:9",
                             "line 3: Given ...\nthe draw went wrong", blocked_by="ti4:2.1")
    charged = ScenarioResult("draws then plays", Status.FAIL, "t.feature:9",
                             "line 3: Given ...\nthe draw went wrong",
                             charged_from=("ti4:2.7",))
    report = Report({"spec": "x"}, (RuleResult("ti4:2.1", Status.FAIL, "draw", (charged,)),
                                    RuleResult("ti4:2.7", Status.BLOCKED, "play", (blocked,))))
    page = render_html(report)
    assert ('blocked by <a href="#r/ti4:2.1"><code>ti4:2.1</code></a>, which is charged'
            in page)
    assert 'charged here from the scenario of <a href="#r/ti4:2.7">' in page
    ids = {a.get("id") for _, a in tags_of(page)}
    assert {"r/ti4:2.1", "r/ti4:2.7"} <= ids


def test_every_status_has_a_style_and_an_unknown_one_is_shown_as_text():
    from oracle.report.formats.htmlpage import CSS

    for status in Status:
        assert f".st-{status}{{" in CSS, f"no style for {status}"
    assert status_order(["blocked-by-someone", "fail", "pass"]) == [
        "pass", "fail", "blocked-by-someone"]
    assert badge("blocked-by-someone") == (
        '<span class="st st-blocked-by-someone">blocked-by-someone</span>')


# -- in Chromium ----------------------------------------------------------------------------


def test_the_run_page_in_chromium(browser, run_files, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    _, out = run_files
    report = json.loads((out / "r.json").read_text())
    rules = {r["id"]: r for r in report["rules"]}
    assert load(browser, out / "r.html") == []
    bar = browser.find_element(By.ID, "filters")
    assert bar.is_displayed()
    assert sorted(visible_rows(browser)) == sorted(f"r/{i}" for i in rules)

    bar.find_element(By.CSS_SELECTOR, "button[data-pick=failing]").click()
    failing = {f"r/{i}" for i, r in rules.items() if r["status"] in ("fail", "error")}
    assert set(visible_rows(browser)) == failing and failing
    assert browser.find_element(By.ID, "shown").text == str(len(failing))
    screenshot(browser, tmp_path / "run.png")  # the summary, and the failing rules open

    bar.find_element(By.CSS_SELECTOR, "button[data-pick=all]").click()
    Select(bar.find_element(By.NAME, "game")).select_by_value("eu-pop")
    assert set(visible_rows(browser)) == {f"r/{i}" for i in rules if i.startswith("eu-pop:")}
    Select(bar.find_element(By.NAME, "game")).select_by_value("")
    bar.find_element(By.NAME, "q").send_keys("2.4")
    assert set(visible_rows(browser)) == {
        f"r/{i}" for i, r in rules.items() if "2.4" in f"{i} {r['text']}".lower()}
    box = bar.find_element(By.CSS_SELECTOR, "input[name=status][value=pass]")
    box.click()  # the passing rules among them go
    assert set(visible_rows(browser)) == {
        f"r/{i}" for i, r in rules.items()
        if "2.4" in f"{i} {r['text']}".lower() and r["status"] != "pass"}

    rule = browser.find_element(By.ID, "r/ti4:2.4")
    assert rule.get_attribute("open") is not None  # a failing rule opens by itself
    command = rule.find_element(By.CSS_SELECTOR, "pre.cmd")
    assert command.is_displayed()
    assert command.text.startswith(f"rules-oracle run --engine {MUTANT}")
    passing = next(r for r in report["rules"] if r["status"] == "pass")
    closed = browser.find_element(By.ID, f"r/{passing['id']}")
    box.click()
    bar.find_element(By.NAME, "q").clear()
    assert sorted(visible_rows(browser)) == sorted(f"r/{i}" for i in rules)
    closed.find_element(By.TAG_NAME, "summary").click()
    assert closed.find_element(By.CSS_SELECTOR, "ul.scenarios").is_displayed()
    assert console_errors(browser) == []


def test_the_summary_reads_without_javascript(browser, run_files):
    from selenium.webdriver.common.by import By

    _, out = run_files
    report = load_report(out / "r.json")
    browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": True})
    try:
        assert load(browser, out / "r.html") == []
        assert not browser.find_element(By.ID, "filters").is_displayed()
        total = browser.find_element(By.XPATH, "//table[@class='summary']//tr[th/b='all']")
        statuses = [str(r.status) for r in report.rules]
        assert total.text.split() == ["all", str(len(statuses)), *(
            str(statuses.count(s)) for s in status_order(statuses))]
        assert browser.find_element(By.ID, "r/ti4:2.4").is_displayed()
    finally:
        browser.execute_cdp_cmd("Emulation.setScriptExecutionDisabled", {"value": False})


def test_the_matrix_page_in_chromium(browser, run_files, tmp_path):
    from selenium.webdriver.common.by import By

    _, out = run_files
    mutant = EngineColumn(MUTANT, load_report(out / "r.json"), exit_code=1)
    evil = EngineColumn(HOSTILE, hostile_report(), exit_code=1)
    crashed = EngineColumn(f"crash {HOSTILE}", None, f"Traceback {HOSTILE}", 3)
    matrix = build_matrix([mutant, evil, crashed])
    page = tmp_path / "matrix.html"
    page.write_text(render_matrix_html(matrix))

    assert load(browser, page) == []  # an injected script would be refused, and logged
    assert browser.execute_script("return window.__pwned === undefined;")
    assert HOSTILE in browser.find_element(By.CSS_SELECTOR, "table.engines").text

    rows = {f"m/{r.id}": {str(c.status) for c in matrix.cells(r)} for r in matrix.rows}
    bar = browser.find_element(By.ID, "filters")
    for box in bar.find_elements(By.CSS_SELECTOR, "input[name=status]"):
        if box.get_attribute("value") not in ("fail", "unsupported"):
            box.click()
    assert set(visible_rows(browser)) == {i for i, s in rows.items()
                                          if s & {"fail", "unsupported"}}
    screenshot(browser, tmp_path / "matrix.png")

    cell = browser.find_element(By.CSS_SELECTOR, "tr[id='m/ti4:2.4'] a.st-fail")
    cell.click()
    target = browser.find_element(By.ID, "e1/ti4:2.4")
    assert browser.find_element(By.ID, "e1").get_attribute("open") is not None
    assert target.get_attribute("open") is not None and target.is_displayed()
    assert target.find_element(By.CSS_SELECTOR, "pre.cmd").is_displayed()
    error_cell = browser.find_element(By.CSS_SELECTOR, "tr[id='m/ti4:2.4'] td:nth-child(4) a")
    assert error_cell.text == "error"
    error_cell.click()
    assert f"Traceback {HOSTILE}" in browser.find_element(By.ID, "e3").text
    assert console_errors(browser) == []
    assert browser.execute_script("return window.__pwned === undefined;")
