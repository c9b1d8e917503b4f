"""The engine matrix: its model (built from typed reports, an engine without a report kept
as a column of ``error``), its JSON layout and schema, its Markdown links, and one
``rules-oracle matrix`` round trip over the reference engine, a mutant of each game, the
Node engine (where node is installed) and an engine that cannot even start.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from oracle.cli import main as cli_main
from oracle.mutants import find_mutant
from oracle.report import Report, RuleResult, ScenarioResult, Status
from oracle.report.formats.markdown import render_matrix_markdown
from oracle.report.matrix import (
    NOT_IN_REPORT,
    EngineColumn,
    Matrix,
    build_matrix,
    load_matrix,
)
from oracle.report.model import FAILING, ReportFileError
from oracle.suite.games import discover_games

NODE = shutil.which("node")
ROOT = Path(__file__).resolve().parents[1]
NODE_SPEC = f"cmd:node {ROOT / 'examples' / 'node-ti4' / 'engine.js'}"
TI4_MUTANT, EU_MUTANT = "ti4/no_hand_limit", "eu-pop/ducats_ignored"
BROKEN = "no_such_engine_module:factory"


def a_report(spec: str, statuses: dict[str, Status], message: str = "it broke") -> Report:
    """A report whose rules have the given statuses, each decided by one scenario."""
    rules = []
    for rule_id, status in statuses.items():
        scenarios = () if status in (Status.UNTESTABLE, Status.UNCOVERED) else (
            ScenarioResult(f"{rule_id} scenario", status, "g/x.feature:3",
                           message if status in FAILING else ""),)
        reason = "no scenario for it ran" if status == Status.UNCOVERED else ""
        rules.append(RuleResult(rule_id, status, f"text of {rule_id}", scenarios, reason))
    return Report({"spec": spec, "seed": 0, "games": {}}, tuple(rules), {"rules": len(rules)})


CATALOG = [("g:1", "rule one"), ("g:2", "rule two"), ("g:3", "rule three")]


def three_columns() -> Matrix:
    good = a_report("good", {"g:1": Status.PASS, "g:2": Status.PASS, "g:3": Status.UNTESTABLE})
    bad = a_report("bad", {"g:1": Status.FAIL, "g:2": Status.PASS, "g:x": Status.PASS},
                   message="line 4: Then it holds\nexpected 7, got 8")
    return build_matrix([EngineColumn("good", good, exit_code=0),
                         EngineColumn("bad", bad, exit_code=1),
                         EngineColumn("crash", None, "Traceback: boom", 3)], CATALOG)


def test_rows_are_the_catalog_then_what_reports_add_and_cells_come_from_each_report():
    matrix = three_columns()
    assert [r.id for r in matrix.rows] == ["g:1", "g:2", "g:3", "g:x"]
    assert [r.text for r in matrix.rows][:1] == ["rule one"]
    statuses = {r.id: [str(c.status) for c in matrix.cells(r)] for r in matrix.rows}
    assert statuses == {"g:1": ["pass", "fail", "error"], "g:2": ["pass", "pass", "error"],
                        "g:3": ["untestable", "uncovered", "error"],
                        "g:x": ["uncovered", "pass", "error"]}
    crash = matrix.cell(matrix.rows[0], matrix.columns[2])
    assert crash.reason == "Traceback: boom"
    assert matrix.cell(matrix.rows[2], matrix.columns[1]).reason == NOT_IN_REPORT
    assert matrix.cell(matrix.rows[0], matrix.columns[1]).failed == 1
    assert not matrix.conforms
    assert build_matrix(matrix.columns[:1], CATALOG).conforms


def test_a_matrix_of_failed_runs_still_lists_every_catalog_rule():
    matrix = build_matrix([EngineColumn("x", None, "usage error", 2)], CATALOG)
    assert [(r.id, str(matrix.cells(r)[0].status)) for r in matrix.rows] == [
        ("g:1", "error"), ("g:2", "error"), ("g:3", "error")]


def test_the_json_layout_round_trips_through_its_schema(tmp_path):
    matrix = three_columns()
    path = tmp_path / "m.json"
    path.write_text(json.dumps(matrix.to_json()))
    assert load_matrix(path) == matrix
    data = json.loads(path.read_text())
    assert data["rules"][0]["cells"][1] == {"status": "fail", "passed": 0, "failed": 1,
                                            "scenarios": 1}
    assert data["engines"][2] == {"spec": "crash", "exit_code": 3,
                                  "error": "Traceback: boom", "report": None}
    data["rules"][0]["cells"][0]["status"] = "sort of"
    path.write_text(json.dumps(data))
    with pytest.raises(ReportFileError, match=r"m\.json: not a rules-oracle matrix"):
        load_matrix(path)


def test_markdown_cells_link_to_their_messages():
    text = render_matrix_markdown(three_columns())
    row = next(line for line in text.splitlines() if line.startswith("| `g:1`"))
    assert "| pass | [**fail**](#e2r0) | [**error**](#e3) |" in row
    assert re.search(r'<a id="e2r0"></a>\s+#### `g:1` on 2\. `bad`: fail\s+'
                     r"- fail: \*\*g:1 scenario\*\* \(`g/x.feature:3`\): line 4: Then it "
                     r"holds — expected 7, got 8", text)
    assert re.search(r'<a id="e3"></a>\s+#### 3\. `crash`: the run gave no report\s+```\s+'
                     r"Traceback: boom", text)
    anchors = set(re.findall(r'<a id="([^"]+)">', text))
    assert set(re.findall(r"\]\(#([^)]+)\)", text)) <= anchors


def test_a_mistake_in_the_shared_options_is_a_usage_error_before_any_engine_runs(capsys):
    code = cli_main(["matrix", "--engine", BROKEN, "--rule", "ti4:99.9"])
    assert code == 2
    err = capsys.readouterr().err
    assert "--rule ti4:99.9: no rule has this id" in err and "[1/1]" not in err


# -- one round trip: rules-oracle matrix over real engines ----------------------------------


class _Ids(HTMLParser):
    """Every element id and every in-page link of an HTML page."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"] or "")
        if tag == "a" and (found.get("href") or "").startswith("#"):
            self.links.append(found["href"] or "")


@pytest.fixture(scope="module")
def matrix_run(tmp_path_factory):
    """``rules-oracle matrix`` once, writing JSON, Markdown and HTML."""
    import subprocess

    out = tmp_path_factory.mktemp("matrix")
    engines = ["reference", f"mutant:{TI4_MUTANT}", f"mutant:{EU_MUTANT}",
               *([NODE_SPEC] if NODE else []), BROKEN]
    argv = [sys.executable, "-m", "oracle.cli", "matrix",
            *[a for e in engines for a in ("--engine", e)],
            "--rule", "ti4", "--rule", "eu-pop:6.action-cards.4",
            "--json", str(out / "m.json"), "--markdown", str(out / "m.md"),
            "--html", str(out / "m.html")]
    done = subprocess.run(argv, capture_output=True, text=True, cwd=out, check=False,
                          stdin=subprocess.DEVNULL, timeout=900)
    return done, out, engines


def _flagged(matrix: Matrix, spec: str) -> set[str]:
    column = next(c for c in matrix.columns if c.spec == spec)
    return {r.id for r in matrix.rows if matrix.cell(r, column).status in FAILING}


def _declared(name: str) -> set[str]:
    return set(find_mutant(discover_games().values(), name)[1].breaks)


def test_the_matrix_flags_each_engine_on_exactly_its_rules(matrix_run):
    done, out, engines = matrix_run
    assert done.returncode == 1, done.stdout + done.stderr
    matrix = load_matrix(out / "m.json")
    assert [c.spec for c in matrix.columns] == engines
    catalog = [r.id for g in discover_games().values() for r in g.catalog.rules]
    assert [r.id for r in matrix.rows] == catalog
    assert _flagged(matrix, "reference") == set()
    assert _flagged(matrix, f"mutant:{TI4_MUTANT}") == _declared(TI4_MUTANT)
    assert _flagged(matrix, f"mutant:{EU_MUTANT}") == _declared(EU_MUTANT)
    row = next(r for r in matrix.rows if r.id == "ti4:2.4")
    assert [str(c.status) for c in matrix.cells(row)][:3] == ["pass", "fail", "unsupported"]
    for line in (f"[{i}] {spec}" for i, spec in enumerate(engines, 1)):
        assert line in done.stdout


def test_an_engine_that_cannot_start_is_a_column_of_errors_with_the_reason(matrix_run):
    done, out, _ = matrix_run
    matrix = load_matrix(out / "m.json")
    broken = matrix.columns[-1]
    assert broken.report is None and broken.exit_code == 2
    assert "cannot import 'no_such_engine_module'" in broken.error
    cells = {str(matrix.cell(r, broken).status) for r in matrix.rows}
    assert cells == {"error"}
    assert f"[{len(matrix.columns)}] {BROKEN}: no report" in done.stdout


@pytest.mark.skipif(NODE is None, reason="node is not installed (shutil.which)")
def test_the_node_engine_is_a_column_like_any_other(matrix_run):
    _, out, _ = matrix_run
    matrix = load_matrix(out / "m.json")
    assert _flagged(matrix, NODE_SPEC) == set()
    column = next(c for c in matrix.columns if c.spec == NODE_SPEC)
    assert column.report is not None
    assert column.report.rule("ti4:2.4").status == Status.PASS
    assert column.report.rule("eu-pop:6.action-cards.4").status == Status.UNSUPPORTED


def test_markdown_and_html_link_every_cell_to_something_on_the_page(matrix_run):
    _, out, engines = matrix_run
    markdown = (out / "m.md").read_text()
    anchors = set(re.findall(r'<a id="([^"]+)">', markdown))
    links = re.findall(r"\]\(#([^)]+)\)", markdown)
    assert links and set(links) <= anchors
    assert "cannot import 'no_such_engine_module'" in markdown
    page = _Ids()
    page.feed((out / "m.html").read_text())
    from urllib.parse import unquote

    targets = [unquote(link[1:]) for link in page.links]
    assert targets and set(targets) <= page.ids
    assert "e2/ti4:2.4" in targets  # the mutant's failing cell, linked to its rule
    assert {f"e{i}" for i in range(1, len(engines) + 1)} <= page.ids


def test_each_row_says_how_many_engines_pass_it_and_disagreements_come_first():
    """test262-report's "passed by N": per row, the engines passing and failing it (an
    engine without a report judges nothing); the rows some pass and others fail are the
    candidates for a ruling, listed first in every format."""
    from oracle.report.formats.html import render_matrix_html
    from oracle.report.formats.table import render_matrix_table

    matrix = three_columns()
    agreement = {r.id: matrix.agreement(r) for r in matrix.rows}
    assert (agreement["g:1"].passed, agreement["g:1"].failed, agreement["g:1"].engines) == (
        1, 1, 2)
    assert agreement["g:1"].disagree and str(agreement["g:1"]) == "1/2"
    assert not agreement["g:2"].disagree and str(agreement["g:2"]) == "2/2"
    assert str(agreement["g:3"]) == "-"  # untestable on one, not in the other's report
    assert [r.id for r in matrix.disagreements()] == ["g:1"]
    assert matrix.passed_by() == {2: 1, 1: 2, 0: 0}
    data = matrix.to_json()
    assert data["disagreements"] == ["g:1"] and data["passed_by"] == {"2": 1, "1": 2, "0": 0}
    assert data["rules"][0]["agreement"] == {"passed": 1, "failed": 1, "judged": 2,
                                             "disagree": True}
    table = render_matrix_table(matrix)
    assert "rules passed by 2 engines: 1, by 1: 2, by 0: 0; the engines disagree on 1 rule" \
        in table
    found = re.search(r"^  g:1 +passed by 1/2: pass \[1\], fail \[2\]$", table, re.M)
    assert found and found.start() < table.index("\nrule ")
    markdown = render_matrix_markdown(matrix)
    assert markdown.index("| 1/2 | `g:1` | 1 | 2 |") < markdown.index("| `g:1` |")
    assert "| `g:2` | pass | pass | [**error**](#e3) | 2/2 |" in markdown
    page = render_matrix_html(matrix)
    assert page.index("Where the engines disagree") < page.index("Rules against engines")
    agree = build_matrix(matrix.columns[:1], CATALOG)
    assert not agree.disagreements() and "disagree" not in render_matrix_table(agree)
