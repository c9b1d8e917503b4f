"""Rulings, as a rules committee writes them: provenance, standing, and what reports show.

One CLI round trip runs the example committee folder (an official, a pending and a
superseded ruling, and one with a new id) on the reference engine; the rest calls the suite
checks and the plugin in-process.
"""

from __future__ import annotations

import json
import shutil
import textwrap
from pathlib import Path

import pytest
from test_suite_checks import CARDS, CATALOG, GOOD, MANIFEST, TOY_ENGINE

from oracle.suite.games import bundled_features_dir, discover_games
from oracle.suite.lint import check_suite

ROOT = Path(__file__).resolve().parent.parent
COUNCIL = ROOT / "examples" / "council-rulings"


def test_a_committee_folder_runs_with_every_ruling_on_its_own_row(oracle, pytester):
    markdown, page = pytester.path / "r.md", pytester.path / "r.html"
    junit, cucumber = pytester.path / "r.xml", pytester.path / "r.cucumber.json"
    run = oracle("run", "--features", str(COUNCIL), "--rule", "ti4:2.6.2",
                 "--rule", "ti4:council", "--markdown", str(markdown), "--html", str(page),
                 "--junitxml", str(junit), "--cucumber", str(cucumber))
    # r1 (superseded) and r2 (pending) disagree with the engine: probes fail nothing.
    assert run.code == 0, run.out + run.err
    rules = {r["id"]: r for r in run.report["rules"]}
    rule = rules["ti4:2.6.2"]
    assert rule["status"] == "pass"
    # The rulings of action-cards.feature (flow.feature adds official ones that pass).
    rulings = {r["id"]: r for r in rule["rulings"] if "action-cards" in r["location"]}
    assert {i: (r["standing"], r["status"], r["probe"]) for i, r in rulings.items()} == {
        "ti4:2.6.2/r1": ("superseded", "fail", True),
        "ti4:2.6.2/r2": ("pending", "fail", True),
        "ti4:2.6.2/r3": ("official", "pass", False)}
    assert rulings["ti4:2.6.2/r1"]["provenance"] == {
        "source": "Council FAQ, questions 12 and 14 (https://example.org/council/faq)",
        "date": "2023-06-30", "authority": "The Council of Rules",
        "status": "superseded by ti4:2.6.2/r3"}
    assert rule["tally"] == {"scenarios_passed": len(rule["scenarios"]),
                             "scenarios": len(rule["scenarios"]),
                             "rulings_passed": len(rule["rulings"]) - 2,
                             "rulings": len(rule["rulings"])}
    added = rules["ti4:council:opening-hand"]
    assert added["status"] == "pass" and added["added_by"] == "ti4:council:opening-hand/r1"
    assert added["text"] == "Players start the game with no action cards, whatever their faction"
    declared = sum(line.strip().startswith("Ruling:")
                   for path in (COUNCIL / "ti4").rglob("*.feature")
                   for line in path.read_text(encoding="utf-8").splitlines())
    assert run.report["summary"]["probes"] == 2
    assert run.report["summary"]["rulings"] == declared  # every ruling of the folder
    assert "2 xfailed" in run.out
    for ruling_id in rulings:
        assert f"ruling {ruling_id} [" in run.out  # the terminal table
        assert f"`{ruling_id}`" in markdown.read_text()
    assert "2023-06-30;" in run.out and "(https://example.org/council/faq)" in run.out
    assert "| ↳ `ti4:2.6.2/r2` | fail (pending) |" in markdown.read_text()
    html = page.read_text()
    for ruling_id in rulings:
        assert f'<details class="ruling" id="r/{ruling_id}"' in html
    assert "<dt>authority</dt><dd>The Council of Rules</dd>" in html
    assert '<span class="standing">superseded by ti4:2.6.2/r3</span>' in html
    assert 'href="https://' not in html  # a source is text: the page links nothing outside
    xml = junit.read_text()
    assert '<property name="ruling" value="ti4:2.6.2/r2" />' in xml
    assert '<property name="ruling_authority" value="The Council of Rules" />' in xml
    assert 'failures="0"' in xml and "<skipped message=\"probe (pending), fail" in xml
    elements = {e["name"]: e for f in json.loads(cucumber.read_text()) for e in f["elements"]}
    pending = elements["A card cancelled in a window still counts as played in it"]
    assert pending["description"].startswith("Ruling ti4:2.6.2/r2 (pending): Council FAQ")
    assert {s["result"]["status"] for s in pending["steps"]} <= {"passed", "pending",
                                                                 "skipped"}


def test_an_official_ruling_the_engine_breaks_fails_its_rule(oracle, pytester):
    council = pytester.path / "council"
    shutil.copytree(COUNCIL, council)
    feature = council / "ti4" / "action-cards.feature"
    feature.write_text(_r3_broken(feature.read_text()))
    run = oracle("run", "--features", str(council), "--rule", "ti4:2.6.2")
    assert run.code == 1, run.out + run.err
    assert run.status("ti4:2.6.2") == "fail"
    ruling = next(g for r in run.report["rules"] for g in r.get("rulings", [])
                  if g["id"] == "ti4:2.6.2/r3")
    assert (ruling["status"], ruling["probe"]) == ("fail", False)


def _r3_broken(text: str) -> str:
    """The official ruling r3 as an engine that honours it cannot pass (so the reference
    engine breaks it): three Direct Hits that leave all three dreadnoughts."""
    assert "Then Bob has 0 dreadnoughts" in text
    return text.replace("Then Bob has 0 dreadnoughts", "Then Bob has 3 dreadnoughts")


# -- the suite checks, in-process -----------------------------------------------------------

RULING = """\
Feature: Council rulings
  Background:
    Given the players are Alice, Bob and Carol

  @{rule}
  Rule: {title}
    Ruling: r1
    Source: Council FAQ 1
    Date: {date}
    Authority: The Council
    Status: {status}
    Cites: ti4:2.6#2 "describes the timing"

    Scenario: {name}
{steps}
"""
STEPS = """\
      Given it is the action phase
      And the timing window "At the start of a combat round" is open
      And Alice holds "Morale Boost"
      And Alice has a cruiser
      When Alice plays "Morale Boost"
      Then Alice holds no cards"""


def council_problems(tmp_path: Path, text: str = "", **fields: str) -> list[str]:
    """Write a committee folder with one feature file; the suite checks' messages."""
    values = {"rule": "ti4:2.6", "title": "2.6 A ruling", "date": "2024-01-02",
              "status": "official", "name": "A council scenario", "steps": STEPS, **fields}
    folder = tmp_path / "council" / "ti4"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rulings.feature").write_text(text or RULING.format(**values))
    games = discover_games([bundled_features_dir(), tmp_path / "council"])
    return [str(p) for p in check_suite(games.values(), games).problems]


def test_a_well_formed_ruling_passes_the_checks(tmp_path):
    assert council_problems(tmp_path) == []


@pytest.mark.parametrize(("fields", "expected"), [
    ({"date": "11/02/2024"}, "rulings.feature:9: '11/02/2024' is not a date; write it "
                             "YYYY-MM-DD"),
    ({"status": "pendng"}, "rulings.feature:11: unknown status 'pendng': write official, "
                           "pending, disputed, or superseded by RULING-ID; did you mean "
                           "'pending'?"),
    ({"status": "superseded by r9"}, "rulings.feature:7: ruling ti4:2.6/r1 is superseded by "
                                     "ti4:2.6/r9, which is no ruling of this run"),
    ({"rule": "ti4:council:setup"}, ""),  # a committee id its ruling declares is fine
    ({"steps": STEPS.replace('"Morale Boost"', '"Moral Boost"')},
     'rulings.feature:17: "Moral Boost" is not a card of ti4; did you mean "Morale Boost"?'),
    ({"steps": STEPS.replace("combat round", "combat rond")},
     'rulings.feature:16: "At the start of a combat rond" is not a window of ti4; did you mean '
     '"At the start of a combat round"'),
    ({"steps": STEPS.replace("cruiser", "cruisr")}, "no given step matches"),
    ({"steps": STEPS + '\n      And the law "Minister of Comerce" is not in play'},
     'rulings.feature:21: "Minister of Comerce" is not a law of ti4; did you mean '
     '"Minister of Commerce"'),
    ({"steps": STEPS + "\n      And Dave holds no cards"},
     "rulings.feature:21: 'Dave' is not a player of this scenario (players: Alice, Bob, "
     "Carol)"),
    ({"steps": '      Given Alice is the Yssaryl player\n      Then Alice holds no cards'},
     'rulings.feature:15: "Yssaryl" is not a faction of ti4; did you mean "Yssaril"?'),
    ({"steps": '      Given Alice has researched "Neural Motivater"\n'
               '      Then Alice holds no cards'},
     'rulings.feature:15: "Neural Motivater" is not a technology of ti4; did you mean '
     '"Neural Motivator"?'),
    ({"steps": "      Given Bob has 2 dreadnoughts\n      When Alice plays \"Direct Hit\" "
               "targeting Bob's dreadnaught 2\n      Then Bob has 1 dreadnought"},
     'rulings.feature:16: "dreadnaught" is not a unit type of ti4; did you mean '
     '"dreadnought"?'),
    ({"steps": STEPS + '\n      Given Bob holds "Sabotage"'},
     "rulings.feature:21: a Given step after the scenario started (line 19"),
    ({"steps": "      Given Alice holds 2 cards\n      Then the action is allowed"},
     "rulings.feature:16: 'the action is allowed' checks the engine's answer to an action, "
     "and no When step before it sends one"),
])
def test_a_writing_mistake_is_refused_with_file_line_and_the_closest(tmp_path, fields,
                                                                      expected):
    problems = council_problems(tmp_path, **fields)
    if not expected:
        assert problems == []
        return
    assert any(expected in p for p in problems), "\n".join(problems)


def test_a_ruling_without_provenance_is_refused(tmp_path):
    text = RULING.format(rule="ti4:2.6", title="2.6 x", date="2024-01-02", status="official",
                         name="A council scenario", steps=STEPS)
    problems = council_problems(tmp_path, text.replace("    Source: Council FAQ 1\n", ""))
    assert any("rulings.feature:7: ruling ti4:2.6/r1 has no 'Source:' line" in p
               for p in problems), problems
    problems = council_problems(tmp_path, text.replace("    Ruling: r1\n", ""))
    assert any("no 'Ruling: ID' line" in p for p in problems), problems


def test_an_undeclared_committee_id_is_refused(tmp_path):
    text = RULING.format(rule="ti4:council:setup", title="x", date="2024-01-02",
                         status="official", name="A council scenario", steps=STEPS)
    text += "\n  @ti4:council:setpu\n  Rule: another\n    Scenario: Cites a typo\n" + STEPS
    problems = council_problems(tmp_path, text)
    assert any("ti4:council:setpu is a committee rule id that no ruling declares (did you "
               "mean ti4:council:setup?)" in p for p in problems), problems


def test_contradicting_scenarios_are_refused_naming_both(tmp_path):
    steps = STEPS.replace("has a cruiser", "has 2 cruisers")  # unlike any bundled scenario
    text = RULING.format(rule="ti4:2.6", title="2.6 x", date="2024-01-02", status="official",
                         name="First", steps=steps)
    text += "\n    Scenario: Second\n" + steps.replace("holds no cards", 'holds "Morale Boost"')
    problems = council_problems(tmp_path, text)
    assert any("this scenario ('Second') and 'First'" in p and "contradicting Then steps" in p
               for p in problems), problems
    superseded = text.replace("    Scenario: Second\n", "    Scenario: Second\n"
                              "      Ruling: r2\n      Status: superseded by r1\n")
    assert council_problems(tmp_path, superseded) == []


def test_retiring_a_scenario_that_does_not_exist_names_the_closest(tmp_path):
    text = RULING.format(rule="ti4:2.6", title="2.6 x", date="2024-01-02", status="official",
                         name="A council scenario", steps=STEPS)
    real = _a_bundled_scenario_name("ti4")
    typo = real + "s"  # one letter off a real name
    text = text.replace("    Status: official\n", "    Status: official\n"
                        f"    Retires: {typo}\n")
    problems = council_problems(tmp_path, text)
    assert any("without saying why; add a 'Reason: ...' line" in p for p in problems)
    text = text.replace(f"{typo}\n", f"{typo}\n    Reason: tested by the council's own\n")
    problems = council_problems(tmp_path, text)
    assert any(f"which is no scenario of ti4; did you mean {real!r}" in p
               for p in problems), problems


def _a_bundled_scenario_name(game: str) -> str:
    """A plain scenario's name from the bundled features (whatever they are named today)."""
    from oracle.suite.features import read_feature
    from oracle.suite.games import discover_games

    return next(s.name for path in discover_games()[game].feature_files()
                for s in read_feature(path).scenarios if not s.outline)


def test_a_misspelt_card_is_exit_2_naming_file_line_and_the_closest_card(oracle, pytester):
    folder = pytester.path / "council" / "ti4"
    folder.mkdir(parents=True)
    (folder / "typo.feature").write_text(RULING.format(
        rule="ti4:2.6", title="2.6 x", date="2024-01-02", status="official",
        name="A typo", steps=STEPS.replace('holds "Morale Boost"', 'holds "Morale Bost"')))
    run = oracle("run", "--features", "council", report=False)
    assert run.code == 2, run.out + run.err
    assert 'typo.feature:17: "Morale Bost" is not a card of ti4; did you mean ' \
           '"Morale Boost"?' in run.out + run.err


# -- retiring and replacing, on a game of its own ------------------------------------------

REPLACING = """\
Feature: Toy council
  Background:
    Given the players are Ann and Ben

  @toy:1
  Rule: 1 the council's draw
    Ruling: r1
    Source: Toy FAQ
    Date: 2024-01-02
    Authority: Toy council
    Status: {status}
    Replaces: Drawing takes the top card
    Reason: checked on two cards instead

    Scenario: Two draws take the two top cards
      Given the main deck is "Ace", "King" and "Queen"
      When Ann draws 2 main cards
      Then Ann holds "Ace" and "King"
"""


def test_an_official_ruling_replaces_a_scenario_a_pending_one_does_not(pytester,
                                                                        engine_module):
    engine_module("toyengine", TOY_ENGINE)
    game = pytester.mkdir("games").joinpath("toy")
    game.mkdir()
    for name, text in (("game.yaml", MANIFEST), ("catalog.yaml", CATALOG),
                       ("cards.yaml", CARDS), ("toy.feature", GOOD)):
        (game / name).write_text(text)
    council = pytester.mkdir("council").joinpath("toy")
    council.mkdir()
    reports = {}
    for status in ("official", "pending"):
        (council / "council.feature").write_text(textwrap.dedent(REPLACING.format(
            status=status)))
        result = pytester.runpytest_inprocess(
            "--oracle-engine=toyengine:factory", "--oracle-features=games",
            "--oracle-features=council", f"--oracle-json={status}.json", "-p",
            "no:cacheprovider")
        assert result.ret == 0, result.stdout.str()
        reports[status] = json.loads((pytester.path / f"{status}.json").read_text())
    official, pending = ({r["id"]: r for r in reports[s]["rules"]}["toy:1"]
                         for s in ("official", "pending"))
    assert [s["name"] for s in official["scenarios"]] == []
    assert official["retired"] == [{
        "name": "Drawing takes the top card", "location": official["retired"][0]["location"],
        "by": "toy:1/r1", "reason": "checked on two cards instead", "replaced": True,
        "effective": True}]
    assert official["status"] == "pass" and official["rulings"][0]["status"] == "pass"
    assert [s["name"] for s in pending["scenarios"]] == ["Drawing takes the top card"]
    assert pending["retired"][0]["effective"] is False


# -- the engine matrix: which engines honour a ruling ---------------------------------------

def test_the_matrix_has_a_row_per_ruling_under_its_rule(tmp_path):
    from oracle.protocol.validate import problems
    from oracle.report import Report, RuleResult, ScenarioResult, Status
    from oracle.report.formats.markdown import render_matrix_markdown
    from oracle.report.matrix import EngineColumn, build_matrix, load_matrix
    from oracle.report.model import RulingResult

    def report(spec: str, agrees: bool) -> Report:
        status = Status.PASS if agrees else Status.FAIL
        ruling = RulingResult("g:1/r1", status, "pending", "g:1", "FAQ 3", "2024-01-02",
                              "Council", "c/g/r.feature:4",
                              scenarios=(ScenarioResult("r1 scenario", status, "c/g/r.feature:9",
                                                        "" if agrees else "line 9: no"),))
        rule = RuleResult("g:1", Status.PASS, "rule one",
                          (ScenarioResult("own", Status.PASS, "g/x.feature:3"),),
                          rulings=(ruling,))
        return Report({"spec": spec, "seed": 0, "games": {}}, (rule,), {"rules": 1})

    matrix = build_matrix([EngineColumn("a", report("a", True), exit_code=0),
                           EngineColumn("b", report("b", False), exit_code=0)],
                          [("g:1", "rule one"), ("g:2", "rule two")])
    assert [(r.id, r.ruling) for r in matrix.rows] == [
        ("g:1", False), ("g:1/r1", True), ("g:2", False)]
    ruling_row = matrix.rows[1]
    assert [c.status for c in matrix.cells(ruling_row)] == [Status.PASS, Status.FAIL]
    assert matrix.cells(ruling_row)[1].reason == "pending: the engine disagrees"
    assert "FAQ 3; 2024-01-02; Council" in ruling_row.text
    assert matrix.conforms  # a probe the engine disagrees with fails nothing
    assert matrix.summary(matrix.columns[1]) == {"pass": 1, "uncovered": 1}  # rules only
    path = tmp_path / "m.json"
    path.write_text(json.dumps(matrix.to_json()))
    assert problems("matrix", matrix.to_json()) == []
    assert load_matrix(path).rows == matrix.rows
    assert "| `g:1/r1` | pass | [**fail**](#e2r1) |" in render_matrix_markdown(matrix)


def test_shards_of_a_run_with_rulings_combine_into_the_whole_run(pytester):
    from oracle.report import load_report
    from oracle.report.combine import combine

    def run(*extra: str) -> Path:
        out = pytester.path / f"r{len(list(pytester.path.glob('r*.json')))}.json"
        result = pytester.runpytest_inprocess(
            "--oracle-engine=reference", f"--oracle-features={COUNCIL}",
            "--oracle-rule=ti4:2.6.2", "--oracle-rule=ti4:council", f"--oracle-json={out}",
            "-p", "no:cacheprovider", *extra)
        assert result.ret == 0, result.stdout.str()
        return out

    whole = load_report(run())
    shards = [load_report(run(f"--oracle-shard={k}/2")) for k in (1, 2)]
    ran = [sum(len(g.scenarios) for r in s.rules for g in r.rulings) for s in shards]
    every = sum(len(g.scenarios) for r in whole.rules for g in r.rulings)
    assert sum(ran) == every and all(ran)  # the rulings' scenarios are split between shards
    combined = combine([("1", shards[0]), ("2", shards[1])])

    def rows(report):
        return [(r.id, r.status, [(g.id, g.status, [s.name for s in g.scenarios])
                                  for g in r.rulings]) for r in report.rules]

    assert rows(combined) == rows(whole)
    assert combined.summary == whole.summary


def test_diff_shows_rulings_and_a_probe_never_regresses():
    from oracle.report import Report, RuleResult, ScenarioResult, Status
    from oracle.report.diff import diff_reports
    from oracle.report.model import RulingResult

    def report(official: Status, pending: Status) -> Report:
        rulings = tuple(RulingResult(f"g:1/{i}", st, standing, "g:1", "FAQ", "2024-01-02",
                                     "Council", scenarios=(ScenarioResult(i, st, "c:1"),))
                        for i, st, standing in (("r1", official, "official"),
                                                ("r2", pending, "pending")))
        return Report({"spec": "e"}, (RuleResult("g:1", Status.PASS, "t", rulings=rulings),),
                      {})

    changes = diff_reports(report(Status.PASS, Status.PASS),
                           report(Status.FAIL, Status.FAIL)).changes
    rulings = {c.name: c.category for c in changes if c.kind == "ruling"}
    assert rulings == {"g:1/r1": "regressed", "g:1/r2": "changed"}


def test_a_failing_official_ruling_can_be_a_known_failure(oracle, pytester):
    council = pytester.path / "council"
    shutil.copytree(COUNCIL, council)
    feature = council / "ti4" / "action-cards.feature"
    feature.write_text(_r3_broken(feature.read_text()))
    first = oracle("run", "--features", str(council), "--rule", "ti4:2.6.2")
    assert first.code == 1
    (pytester.path / "r.json").write_text(json.dumps(first.report))
    made = oracle("expectations", "--from", "r.json", "--out", "known.yaml")
    assert made.code == 0, made.out + made.err
    known = (pytester.path / "known.yaml").read_text()
    assert "Three Direct Hits destroy three different dreadnoughts in one window" in known
    again = oracle("run", "--features", str(council), "--rule", "ti4:2.6.2",
                   "--expectations", "known.yaml")
    assert again.code == 0, again.out + again.err
    ruling = {g["id"]: g for r in again.report["rules"] for g in r.get("rulings", [])}
    assert ruling["ti4:2.6.2/r3"]["status"] == "xfail"
