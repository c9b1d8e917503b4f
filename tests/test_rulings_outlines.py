"""Rulings written as Scenario Outlines, and rulings an engine can only partly play: every
report format keeps each row's ruling, a probe's failing row fails nothing, a ruling with an
unsupported scenario is not ``pass``, and the unsupported summary counts every scenario.

Run from the outside: a committee folder written here, ``rules-oracle run`` in-process.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import engine_sources

WINDOW = ("After another player's ship uses SUSTAIN DAMAGE to cancel a hit produced by your "
          "units or abilities")

COUNCIL = f"""\
Feature: Council rulings written as outlines

  Background:
    Given the players are Alice, Bob and Carol

  @ti4:2.6.2
  Rule: 2.6.2 Same-name cards and different units
    Source: Council FAQ, question 20 (https://example.org/council/faq#20)
    Authority: The Council of Rules
    Cites: ti4:2.6.2#1 "to affect the same units or game effect"

    Scenario Outline: A pending ruling's rows: one Direct Hit among <have> dreadnoughts
      Ruling: r7
      Date: 2024-07-01
      Status: pending
      Given it is the action phase
      And the timing window "{WINDOW}" is open
      And Alice holds "Direct Hit"
      And Bob has <have> dreadnoughts
      When Alice plays "Direct Hit" targeting Bob's dreadnought
      Then Bob has <left> dreadnoughts

      Examples:
        | have | left |
        | 2    | 1    |
        | 3    | 3    |

    Scenario Outline: An official ruling's rows: <hits> Direct Hits on <hits> dreadnoughts
      Ruling: r8
      Date: 2024-07-02
      Status: official
      Given it is the action phase
      And the timing window "{WINDOW}" is open
      And Alice holds <cards>
      And Bob has <hits> dreadnoughts
      When Alice plays "Direct Hit" targeting Bob's dreadnought
      And Alice plays "Direct Hit" targeting Bob's dreadnought 2
      Then Bob has 0 dreadnoughts

      Examples:
        | hits | cards                        |
        | 2    | "Direct Hit" and "Direct Hit" |

    Scenario: A partly playable ruling, the part every engine plays
      Ruling: r9
      Date: 2024-07-03
      Status: official
      Given it is the action phase
      And the timing window "{WINDOW}" is open
      And Alice holds "Direct Hit" and "Direct Hit"
      And Bob has 4 dreadnoughts
      When Alice plays "Direct Hit" targeting Bob's dreadnought
      Then Bob has 3 dreadnoughts

    Scenario: A partly playable ruling, the part that needs Sabotage
      Ruling: r9
      Date: 2024-07-03
      Status: official
      Given it is the action phase
      And the timing window "{WINDOW}" is open
      And Alice holds "Direct Hit"
      And Bob has 4 dreadnoughts
      And Carol holds "Sabotage"
      When Alice plays "Direct Hit" targeting Bob's dreadnought and Carol cancels it with "Sabotage"
      Then Bob has 4 dreadnoughts
"""

COUNCIL_EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "council-rulings"
R7_ROWS = ["A pending ruling's rows: one Direct Hit among <have> dreadnoughts [2 | 1]",
           "A pending ruling's rows: one Direct Hit among <have> dreadnoughts [3 | 3]"]


def _council(root: Path) -> Path:
    folder = root / "outlines" / "ti4"
    folder.mkdir(parents=True)
    (folder / "outlines.feature").write_text(COUNCIL)
    return folder.parent


def _run(oracle, pytester, engine: str = "reference"):
    paths = {f: pytester.path / f"r.{f}" for f in ("md", "html", "xml", "cucumber", "badge")}
    run = oracle("run", "--engine", engine, "--features", str(_council(pytester.path)),
                 "--rule", "ti4:2.6.2", "--markdown", str(paths["md"]),
                 "--html", str(paths["html"]), "--junitxml", str(paths["xml"]),
                 "--cucumber", str(paths["cucumber"]), "--badge", str(paths["badge"]))
    return run, {f: p.read_text() for f, p in paths.items() if p.exists()}


def _rulings(report) -> dict[str, dict]:
    return {g["id"]: g for r in report["rules"] for g in r.get("rulings", [])}


def test_outline_rows_keep_their_ruling_and_a_probe_row_fails_nothing(oracle, pytester):
    run, out = _run(oracle, pytester)
    # r7 is pending: its second row disagrees with the engine, and that fails nothing.
    assert run.code == 0, run.out + run.err
    assert run.status("ti4:2.6.2") == "pass"
    rule = next(r for r in run.report["rules"] if r["id"] == "ti4:2.6.2")
    assert not any("<have>" in s["name"] or "<hits>" in s["name"] for s in rule["scenarios"])
    rulings = _rulings(run.report)
    r7, r8 = rulings["ti4:2.6.2/r7"], rulings["ti4:2.6.2/r8"]
    assert [(s["name"], s["status"]) for s in r7["scenarios"]] == [
        (R7_ROWS[0], "pass"), (R7_ROWS[1], "fail")]
    assert (r7["status"], r7["standing"], r7["probe"]) == ("fail", "pending", True)
    assert r7["provenance"] == {"source": "Council FAQ, question 20 "
                                "(https://example.org/council/faq#20)", "date": "2024-07-01",
                                "authority": "The Council of Rules", "status": "pending"}
    assert [s["status"] for s in r8["scenarios"]] == ["pass"]
    assert (r8["status"], r8["probe"]) == ("pass", False)
    assert rule["tally"]["rulings_passed"] >= 1
    assert run.report["summary"]["probes"] == 1

    # The terminal table, Markdown and HTML: a row for each ruling, its scenarios the rows.
    table = " ".join(run.out.split())  # the terminal wraps a ruling's line
    assert "ruling ti4:2.6.2/r7 [pending] fail (the engine disagrees, a probe" in table
    assert "ruling ti4:2.6.2/r8 [official] pass (the engine agrees)" in table
    assert "| ↳ `ti4:2.6.2/r7` | fail (pending) | 1 | 1 |" in out["md"]
    assert "| ↳ `ti4:2.6.2/r8` | pass (official) | 1 | 0 |" in out["md"]
    assert '<details class="ruling" id="r/ti4:2.6.2/r7"' in out["html"]
    for k, row in enumerate(R7_ROWS, 1):  # each row under its ruling's entry
        entry = out["html"].split(f'id="r/ti4:2.6.2/r7/s{k}"', 1)[1].split("</li>", 1)[0]
        assert html.escape(row) in entry, entry

    # JUnit: each row a case carrying its ruling; the probe's failing row is skipped.
    cases = re.findall(r"<testcase [^>]*name=\"([^\"]+)\"[^>]*>(.*?)</testcase>",
                       out["xml"], re.S)
    by_name = {name.replace("&lt;", "<").replace("&gt;", ">"): body for name, body in cases}
    for row in R7_ROWS:
        assert '<property name="ruling" value="ti4:2.6.2/r7" />' in by_name[row], by_name
        assert '<property name="ruling_status" value="pending" />' in by_name[row]
    assert "<skipped message=\"probe (pending), fail" in by_name[R7_ROWS[1]]
    assert 'failures="0"' in out["xml"]

    # Cucumber: each row an element described by its ruling; a probe's failure is pending.
    elements = {e["name"]: e for f in json.loads(out["cucumber"]) for e in f["elements"]}
    for row in R7_ROWS:
        assert elements[row]["description"].startswith("Ruling ti4:2.6.2/r7 (pending): ")
    assert "failed" not in {s["result"]["status"] for s in elements[R7_ROWS[1]]["steps"]}

    # The badge: nothing fails.
    badge = json.loads(out["badge"])
    assert badge["color"] == "brightgreen" and "fail" not in badge["message"], badge


def test_a_ruling_with_an_unsupported_scenario_is_not_pass(oracle, pytester, engine_module):
    engine_module("nosabotage", engine_sources.lacking("ti4/card/Sabotage"))
    run, out = _run(oracle, pytester, "nosabotage:factory")
    r9 = _rulings(run.report)["ti4:2.6.2/r9"]
    assert [s["status"] for s in r9["scenarios"]] == ["pass", "unsupported"]
    assert r9["status"] == "unsupported", r9
    table = " ".join(run.out.split())
    assert ("ruling ti4:2.6.2/r9 [official] unsupported (the engine cannot play 1 of its 2 "
            "scenarios)") in table
    assert "| ↳ `ti4:2.6.2/r9` | unsupported (official) |" in out["md"]
    assert run.code == 0, run.out + run.err


def test_the_unsupported_summary_counts_the_rulings_scenarios(oracle, pytester,
                                                               engine_module):
    engine_module("nosabotage", engine_sources.lacking("ti4/card/Sabotage"))
    run, _ = _run(oracle, pytester, "nosabotage:factory")
    scenarios = {(s["location"], s["name"]): s["status"] for r in run.report["rules"]
                 for s in [*r["scenarios"], *(x for g in r.get("rulings", [])
                                              for x in g["scenarios"])]}
    unsupported = sum(1 for status in scenarios.values() if status == "unsupported")
    assert len(scenarios) == run.report["summary"]["scenarios"]
    assert f"unsupported: {unsupported} of {len(scenarios)} scenarios" in run.out, run.out


def test_a_run_of_rulings_alone_is_no_nothing_tested_badge(oracle, pytester):
    """A committee id's only scenarios are its ruling's: they are what was tested."""
    badge = pytester.path / "b.json"
    run = oracle("run", "--features", str(COUNCIL_EXAMPLE), "--rule", "ti4:council",
                 "--badge", str(badge))
    assert run.code == 0, run.out + run.err
    assert json.loads(badge.read_text())["message"] == "1/1 rules pass"
