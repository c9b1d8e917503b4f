"""``rules-oracle errata NEW_SOURCE`` and review stamps: a changed sentence of the rules is
traced to exactly the scenarios and rulings that rest on it, and to their verdicts; a run on
the changed text shows them ``stale``, and no other scenario; ``rules-oracle review`` stamps
them again once their citations are brought up to date.

Why: the issue's test. One sentence of a copy of the canonical TI4 source changes (2.6.2's
first: "Multiple" becomes "Several"); the scenarios expected are found by a plain scan of
the feature files (``test_drift.citing``), the verdicts by reading the report, not by the
code under test. The run on the changed text is made in a copy of a rules-oracle checkout
(a ``pyproject.toml`` naming the project and a ``features/`` folder), which ``rules-oracle``
uses instead of the installed features, as it does for a committee editing a checkout.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from conftest import cli_in_process
from test_drift import RUSSIAN, citing

from oracle.games.ti4 import importer
from oracle.suite import games

REPO = Path(__file__).resolve().parents[1]
COUNCIL = REPO / "examples" / "council-rulings"
OLD, NEW = "Multiple action cards with the same name", "Several action cards with the same name"


@pytest.fixture(scope="module")
def errata(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The errata of the changed copy, with a report of a run before the change."""
    folder = tmp_path_factory.mktemp("errata")
    source = importer.DEFAULT_SOURCES / importer.CANONICAL
    if not source.exists():
        pytest.skip(f"rule sources not found at {importer.DEFAULT_SOURCES}")
    text = source.read_text(encoding="utf-8")
    assert text.count(OLD) == 1
    new = folder / Path(importer.CANONICAL).name
    new.write_text(text.replace(OLD, NEW), encoding="utf-8")
    report = folder / "before.json"
    code, out, err = cli_in_process(folder, [
        "run", "--rule", "ti4:2.6.2", "--features", str(COUNCIL), "--features", str(RUSSIAN),
        "--json", str(report), "-q"])
    assert code == 0, out + err
    code, out, err = cli_in_process(folder, [
        "errata", str(new), "--report", str(report), "--features", str(COUNCIL),
        "--features", str(RUSSIAN), "--out", str(folder / "catalog.yaml"),
        "--json", str(folder / "errata.json")])
    return {"code": code, "out": out, "err": err, "folder": folder,
            "data": json.loads((folder / "errata.json").read_text(encoding="utf-8")),
            "report": json.loads(report.read_text(encoding="utf-8"))}


def test_the_changed_sentence_with_exactly_its_scenarios_and_rulings(errata) -> None:
    assert errata["code"] == 1, errata["out"] + errata["err"]  # something rests on it
    data = errata["data"]
    assert (data["game"], data["replaced"]) == ("ti4", importer.CANONICAL)
    (change,) = data["changes"]  # one sentence changed, nothing else
    assert (change["kind"], change["anchor"], change["new_anchor"]) == (
        "changed", "ti4:2.6.2#1", "ti4:2.6.2#3")
    assert change["kinds"] == ["words"]
    assert change["diff"].startswith("[-Multiple-]{+Several+} action cards with the same name")
    expected = citing("ti4:2.6.2#1", REPO / "features" / "ti4", COUNCIL, RUSSIAN)
    assert {c["name"] for c in change["stale"]} == expected
    assert change["stale"] == change["cited_by"]
    rulings = {c["name"]: (c["ruling"], c["standing"]) for c in change["stale"]
               if c["kind"] == "ruling"}
    assert set(rulings) == citing("ti4:2.6.2#1", COUNCIL)
    assert {("ti4:2.6.2/r1", "superseded by ti4:2.6.2/r3"), ("ti4:2.6.2/r2", "pending"),
            ("ti4:2.6.2/r3", "official")} <= set(rulings.values())
    assert "changed ti4:2.6.2#1 -> ti4:2.6.2#3 (words)" in errata["out"]


def test_each_reports_verdicts_on_them(errata) -> None:
    """The verdicts shown are the report's own, row by row."""
    rows: dict[str, list[str]] = {}
    for rule in errata["report"]["rules"]:
        for s in (*rule["scenarios"], *(x for g in rule.get("rulings", ()) for x in
                                        g["scenarios"])):
            rows.setdefault(s["name"].partition(" [")[0], []).append(s["status"])
    (change,) = errata["data"]["changes"]
    for citer in change["stale"]:
        got = sorted(v["status"] for v in citer["verdicts"])
        assert got == sorted(rows[citer["name"]]), citer
    assert {v["status"] for c in change["stale"] for v in c["verdicts"]} >= {"pass"}


def test_the_new_catalog_is_kept_only_where_asked(errata) -> None:
    kept = (errata["folder"] / "catalog.yaml").read_text(encoding="utf-8")
    assert f"{NEW} cannot be played" in kept
    bundled = (REPO / "features" / "ti4" / "catalog.yaml").read_text(encoding="utf-8")
    assert NEW not in bundled  # never over the bundled one unless --write


def checkout(root: Path, catalog: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the bundled features whose TI4 catalog is ``catalog``, installed: the
    bundled features of the runs that follow (as 'pip install -e .' of a checkout holding the
    new catalog makes them; a run never takes its features from the current folder)."""
    features = root / "features" / "ti4"
    shutil.copytree(REPO / "features" / "ti4", features)
    shutil.copyfile(catalog, features / "catalog.yaml")
    monkeypatch.setattr(games, "bundled_features_dir", lambda: root / "features")
    return features


def test_a_report_on_the_changed_text_shows_stale_on_exactly_those(errata, oracle, pytester,
                                                                    monkeypatch) -> None:
    features = checkout(pytester.path, errata["folder"] / "catalog.yaml", monkeypatch)
    run = oracle("run", "--rule", "ti4")
    assert run.code == 0, run.out + run.err  # stale says nothing of the engine
    stale = {s["name"].partition(" [")[0]: s["stale"] for s in run.scenarios() if "stale" in s}
    expected = citing("ti4:2.6.2#1", features)
    assert set(stale) == expected and len(expected) >= 2
    assert all(anchors == ["ti4:2.6.2#1"] for anchors in stale.values())
    assert f"rules-oracle: {len(expected)} scenario(s) stale" in run.out, run.out[-3000:]

    # Re-reviewed: the check names them; review refuses to stamp them as they are; once
    # their Cites: lines name the new sentence, review stamps them and the run is clean.
    check = oracle("review", "--game", "ti4", "--check")
    assert check.code == 1 and check.out.count("  stale: ") == len(expected), check.out
    refused = oracle("review", "--game", "ti4")
    assert refused.code == 1
    assert "ti4:2.6.2#1 is retired; it now reads ti4:2.6.2#3 'Several action cards" in (
        refused.out)
    for path in features.glob("*.feature"):
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("Cites: ti4:2.6.2#1 ", "Cites: ti4:2.6.2#3 "),
                        encoding="utf-8")
    reviewed = oracle("review", "--game", "ti4")
    assert reviewed.code == 0 and f"{len(expected)} re-reviewed" in reviewed.out, reviewed.out
    assert oracle("review", "--game", "ti4", "--check").code == 0
    clean = oracle("run", "--rule", "ti4:2.6.2")
    assert clean.code == 0 and not [s for s in clean.scenarios() if "stale" in s]


def test_a_changed_translation_makes_only_the_scenarios_in_its_language_stale(
        oracle, pytester, monkeypatch) -> None:
    """A stamp is of what a scenario reads: the Russian changes, the Russian scenarios citing
    that sentence go stale (their stamps no longer match), the English ones do not."""
    folder = pytester.mkdir("new")
    russian = importer.DEFAULT_SOURCES / importer.RUSSIAN
    text = russian.read_text(encoding="utf-8")
    old = "Нельзя разыгрывать несколько карт действий"
    assert text.count(old) == 1
    new = folder / Path(importer.RUSSIAN).name
    new.write_text(text.replace(old, "Запрещено разыгрывать несколько карт действий"),
                   encoding="utf-8")
    errata = oracle("errata", str(new), "--features", str(RUSSIAN), "--out",
                    str(folder / "catalog.yaml"), "--json", str(folder / "e.json"))
    assert errata.code == 1, errata.out + errata.err
    (change,) = json.loads((folder / "e.json").read_text(encoding="utf-8"))["changes"]
    assert (change["kind"], change["anchor"], change["edition"]) == (
        "translation", "ti4:2.6.2#1", "ru")
    assert {c["name"] for c in change["stale"]} == citing("ti4:2.6.2#1", RUSSIAN)
    assert {c["name"] for c in change["cited_by"]} == citing(
        "ti4:2.6.2#1", RUSSIAN, REPO / "features" / "ti4")
    checkout(pytester.path, folder / "catalog.yaml", monkeypatch)
    run = oracle("run", "--rule", "ti4:2.6.2", "--features", str(RUSSIAN))
    assert run.code == 0, run.out + run.err
    stale = {s["name"].partition(" [")[0] for s in run.scenarios() if "stale" in s}
    assert stale == citing("ti4:2.6.2#1", RUSSIAN) and stale


def test_a_source_no_game_has_is_refused(oracle, pytester) -> None:
    path = pytester.path / "rules.txt"
    path.write_text("nothing\n", encoding="utf-8")
    run = oracle("errata", str(path))
    assert run.code == 2 and "rules.txt: no game has a source of that name" in run.err
    wrong = oracle("errata", str(path), "--game", "ti4", "--replaces", "ti4/nope.yaml")
    assert wrong.code == 2 and "--replaces ti4/nope.yaml: not a source of the ti4" in wrong.err
    canonical = pytester.path / Path(importer.CANONICAL).name
    canonical.write_text("cards: []\n", encoding="utf-8")
    elsewhere = oracle("errata", str(canonical), "--sources", str(pytester.path / "none"))
    assert elsewhere.code == 2 and "with --sources DIR" in elsewhere.err, elsewhere.err


def test_the_bundled_review_stamps_are_current(oracle) -> None:
    """Like a generated catalog: a scenario added, renamed or citing other sentences needs
    'rules-oracle review' (with the example folders, as below)."""
    run = oracle("review", "--check", "--features", str(RUSSIAN), "--features", str(COUNCIL))
    assert run.code == 0, run.out + run.err + (
        "\nrun: rules-oracle review --features examples/russian "
        "--features examples/council-rulings")


def test_a_malformed_stamps_file_is_refused_with_its_line(oracle, pytester, engine_module
                                                          ) -> None:
    from test_citations import CATALOG, GOOD, MANIFEST
    from test_suite_checks import write_toy

    write_toy(pytester, engine_module, MANIFEST, CATALOG, GOOD)
    stamps = pytester.path / "games" / "toy" / "reviews.yaml"
    assert oracle("review", "--features", "games", "--game", "toy").code == 0
    assert "Drawing takes the top card" in stamps.read_text(encoding="utf-8")
    assert oracle("review", "--features", "games", "--game", "toy", "--check").code == 0
    stamps.write_text(stamps.read_text(encoding="utf-8").replace("scenarios:", "scenario:"),
                      encoding="utf-8")
    run = oracle("review", "--features", "games", "--game", "toy", "--check")
    assert run.code == 2 and f"{stamps}:" in run.err and "scenario" in run.err, run.err
    stamps.write_text(stamps.read_text(encoding="utf-8").replace("scenario:", "scenarios:")
                      .replace("toy:1#1:", "toy-1-1:"), encoding="utf-8")
    run = oracle("review", "--features", "games", "--game", "toy", "--check")
    assert run.code == 2 and "'toy-1-1' is not a sentence anchor" in run.err, run.err
