"""``rules-oracle drift``: where the editions of a game's rules part, and where its sources
contradict each other, each with the scenarios citing it.

Why: the bundled TI4 sources hold real drift (the Russian edition numbers the section 28,
lacks four notes; the wiki and the site page write some sentences otherwise) and real
contradictions (note 5 deals "During the action phase ... in initiative order", Politics
clockwise from the active player, the status phase in initiative order). The command must
list each, from the catalog and the reviewed table, with who cites it; the expected
citations here are read from the feature files by a plain scan, not by the command's index.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_citations import CATALOG, GOOD, MANIFEST
from test_suite_checks import write_toy

REPO = Path(__file__).resolve().parents[1]
RUSSIAN = REPO / "examples" / "russian"


_RULE = re.compile(r"^(Rule|Правило):")
_SCENARIO = re.compile(r"^(Scenario|Scenario Outline|Сценарий|Структура сценария):\s*(.*)$")


def citing(anchor: str, *folders: Path) -> set[str]:
    """The scenarios whose ``Cites:`` lines name ``anchor``, by a scan of the files: a
    Rule: block's line (before its first scenario) counts for each of its scenarios."""
    found = set()
    for folder in folders:
        for path in folder.rglob("*.feature"):
            rule_head, block_cites, name = False, False, None
            for line in path.read_text(encoding="utf-8").splitlines():
                stripped = line.strip()
                if _RULE.match(stripped):
                    rule_head, block_cites, name = True, False, None
                elif head := _SCENARIO.match(stripped):
                    rule_head, name = False, head[2]
                    if block_cites:
                        found.add(name)
                elif stripped.startswith("Cites:") and stripped.split()[1] == anchor:
                    if rule_head:
                        block_cites = True
                    elif name is not None:
                        found.add(name)
    return found


@pytest.fixture(scope="module")
def drift(tmp_path_factory: pytest.TempPathFactory) -> dict:
    from conftest import cli_in_process

    folder = tmp_path_factory.mktemp("drift")
    out = folder / "drift.json"
    code, text, err = cli_in_process(folder, ["drift", "--game", "ti4", "--features",
                                              str(RUSSIAN), "--json", str(out),
                                              "--markdown", str(folder / "drift.md")])
    assert code == 0, text + err
    data = json.loads(out.read_text(encoding="utf-8"))
    data["text"] = text
    data["markdown"] = (folder / "drift.md").read_text(encoding="utf-8")
    (game,) = data["games"]
    data["ti4"] = game
    return data


def test_every_sentence_the_russian_lacks_with_who_cites_it(drift: dict) -> None:
    game = drift["ti4"]
    missing = {m["anchor"]: m for m in game["missing"] if m["edition"] == "ru"}
    assert sorted(missing) == ["ti4:note-11#1", "ti4:note-2#1", "ti4:note-5.1#1",
                               "ti4:note-5.2#1"]
    assert all(m["whole_rule"] for m in missing.values())
    for anchor, entry in missing.items():
        names = {c["name"] for c in entry["cited_by"]}
        assert names == citing(anchor, REPO / "features" / "ti4", RUSSIAN), anchor
    assert missing["ti4:note-2#1"]["cited_by"], "note 2 is cited (hidden information)"
    assert "missing in ru: 4 sentence(s); whole rules: ti4:note-2, ti4:note-5.1" in drift["text"]


def test_the_russian_renumbering(drift: dict) -> None:
    renumbered = {r["rule"]: r for r in drift["ti4"]["renumbered"]}
    assert len(renumbered) == 20  # every rule it has: 24 less the four it lacks
    assert renumbered["ti4:2.4.1"]["ref"] == "28.4 а)"
    assert renumbered["ti4:2.4.1"]["how"].startswith("section 2 is 28")
    assert renumbered["ti4:note-1"]["how"].startswith("same number")
    assert renumbered["ti4:note-3"]["how"] == (
        "moved: note-3 is comment 2 (its number 3 is 2 there)")
    assert sum(r["how"].startswith("moved") for r in renumbered.values()) == 8  # notes 3-10


def test_renderings_worded_otherwise_verbatim(drift: dict) -> None:
    """The wiki's space before a full stop and the site's emphasis, which the importer's
    cross-check forgives, each named, with a word diff."""
    wording = {(w["anchor"], w["edition"]): w for w in drift["ti4"]["wording"]}
    wiki = wording[("ti4:2.4#1", "lrr-wiki")]
    assert wiki["kinds"] == ["spacing"]
    assert wiki["diff"] == "Each player’s hand can have a maximum of seven action cards{+ +}."
    site = wording[("ti4:2.6.2#1", "lrr-site")]
    assert site["kinds"] == ["markup"] and "{+<b>+}same{+</b>+}" in site["diff"]
    assert {c["name"] for c in site["cited_by"]} == citing(
        "ti4:2.6.2#1", REPO / "features" / "ti4", RUSSIAN)
    assert {e for _, e in wording} == {"lrr-wiki", "lrr-site"}


def test_the_recorded_contradictions_with_the_scenarios_on_each_side(drift: dict) -> None:
    contradictions = {c["id"]: c for c in drift["ti4"]["contradictions"]}
    order = contradictions["ti4/note-5-dealing-order"]
    assert order["fact"] == "order"
    sides = {s["anchor"]: s for s in order["sides"]}
    assert set(sides) == {"ti4:note-5#1", "ti4:66.note-1#1", "ti4:66.3#1"}
    assert "in initiative order" in sides["ti4:note-5#1"]["says"]
    assert sides["ti4:66.note-1#1"]["source"] == "ti4/related/R_politics.txt"
    for anchor, side in sides.items():
        assert {c["name"] for c in side["cited_by"]} == citing(
            anchor, REPO / "features" / "ti4", RUSSIAN), anchor
    assert sides["ti4:66.3#1"]["cited_by"]
    phase = contradictions["ti4/note-5-dealing-phase"]
    assert phase["fact"] == "phase"
    assert {s["anchor"] for s in phase["sides"]} == {"ti4:note-5#1", "ti4:81.3#1",
                                                     "ti4:2.1#1"}
    assert "ti4/note-5-dealing-order [order]" in drift["text"]
    assert "**ti4/note-5-dealing-phase** (phase)" in drift["markdown"]


def test_eu_records_its_setup_hand_limit(oracle) -> None:
    run = oracle("drift", "--game", "eu-pop")
    assert run.code == 0, run.err
    assert "eu-pop/setup-hand-limit-count [count]" in run.out
    assert "eu-pop:3.0.4#4 says 'hold up to 4 Action Cards in their hand'" in run.out
    assert "wording: 0 sentence(s)" in run.out  # one edition: nothing to part from


@pytest.mark.parametrize(("table", "message"), [
    ("sides:\n  - {cites: toy:1#1, says: the top card}\n  - {cites: toy:9.1#1, says: in "
     "turn order}", "toy:9.1#1 does not say 'in turn order'"),
    ("sides:\n  - {cites: toy:1#1, says: the top card}\n  - {cites: toy:1#9, says: x}",
     "toy:1#9 is no sentence of the toy catalog (closest: toy:1#3"),
    ("sides:\n  - {cites: toy:1#1, says: the top card}", "two sides or more"),
    ("sides:\n  - {cites: toy:1#1, says: the top card}\n  - {cites: toy:1#1, says: Игрок, "
     "edition: russian}", "no edition 'russian'"),
])
def test_a_contradiction_that_no_longer_holds_is_refused(oracle, pytester, engine_module,
                                                         table: str, message: str) -> None:
    write_toy(pytester, engine_module, MANIFEST, CATALOG, GOOD)
    path = pytester.path / "games" / "toy" / "contradictions.yaml"
    path.write_text("contradictions:\n- id: order\n  fact: order\n  question: Which?\n  "
                    + table.replace("\n", "\n  ") + "\n", encoding="utf-8")
    run = oracle("drift", "--features", "games", "--game", "toy")
    assert run.code == 2
    assert f"{path}:2: " in run.err and message in run.err, run.err


def test_a_side_in_an_edition_is_checked_in_its_wording(oracle, pytester, engine_module
                                                        ) -> None:
    catalog = CATALOG.replace("title: Toy rules\n", "title: Toy rules\neditions:\n"
                              "  - {name: en, source: toy.yaml, role: canonical, lang: en}\n"
                              "  - {name: ru, source: toy.ru.md, role: translation, lang: ru}\n")
    write_toy(pytester, engine_module, MANIFEST, catalog, GOOD)
    (pytester.path / "games" / "toy" / "contradictions.yaml").write_text(
        "contradictions:\n- id: who\n  fact: who\n  question: Who draws?\n  sides:\n"
        "  - {cites: toy:1#1, says: takes the top card}\n"
        "  - {cites: toy:1#1, edition: ru, says: Игрок берёт}\n", encoding="utf-8")
    run = oracle("drift", "--features", "games", "--game", "toy", "--json", "d.json")
    assert run.code == 0, run.err
    data = json.loads((pytester.path / "d.json").read_text(encoding="utf-8"))
    (game,) = data["games"]
    assert [s.get("edition") for s in game["contradictions"][0]["sides"]] == [None, "ru"]
    assert [m["anchor"] for m in game["missing"]] == ["toy:1#2", "toy:1#3", "toy:2#1", "toy:3#1"]
