"""Committee files are checked against their JSON Schemas before anything runs: a misspelt
key in game.yaml, catalog.yaml, cards.yaml, facts.yaml, plays.yaml, contradictions.yaml, an
expectations file or a ruling's description is exit 2 naming the file, the line and the
closest key."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from test_suite_checks import write_toy

from oracle.report.expectations import ExpectationsError, load_expectations
from oracle.suite import filecheck
from oracle.suite.catalog import CatalogFileError
from oracle.suite.drift import load_contradictions
from oracle.suite.games import bundled_features_dir, discover_games
from oracle.suite.lint import read_suite

BUNDLED = bundled_features_dir()


@pytest.fixture(scope="module")
def games_copy(tmp_path_factory) -> Path:
    """The bundled TI4 and EU folders' YAML files, copied once (no feature files: only the
    data is read here)."""
    root = tmp_path_factory.mktemp("games")
    for game in ("ti4", "eu-pop"):
        (root / game).mkdir()
        for yaml_file in (BUNDLED / game).glob("*.yaml"):
            shutil.copy(yaml_file, root / game / yaml_file.name)
    return root


def _load_all(root: Path) -> None:
    for game in discover_games([root]).values():
        _ = game.catalog, game.cards, game.plays, game.facts, load_contradictions(game)


def _refused(root: Path, game: str, name: str, old: str, new: str) -> str:
    """The error for one edit of a copied file (the file is restored afterwards)."""
    path = root / game / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    try:
        with pytest.raises(CatalogFileError) as caught:
            _load_all(root)
    finally:
        path.write_text(text, encoding="utf-8")
    return str(caught.value)


def _line_of(root: Path, game: str, name: str, text: str) -> int:
    lines = (root / game / name).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1)
                if not line.lstrip().startswith("#") and text in line)


def test_the_bundled_files_fit_their_schemas(games_copy):
    _load_all(games_copy)  # every file of both games read and checked: nothing refused


@pytest.mark.parametrize(("game", "name", "old", "new", "near"), [
    ("ti4", "game.yaml", "twins: required", "twinz: required", "'twins'"),
    ("eu-pop", "game.yaml", "plays: plays.yaml", "play: plays.yaml", "'plays'"),
    ("ti4", "catalog.yaml", "  testable: true", "  testible: true", "'testable'"),
    ("ti4", "cards.yaml", "count: 1, phase: Agenda", "count: 1, phaze: Agenda", "'phase'"),
    ("eu-pop", "cards.yaml", "charges: 3", "chrages: 3", "'charges'"),
    ("ti4", "facts.yaml", "  from_cards: [window]", "  from_card: [window]", "'from_cards'"),
    ("eu-pop", "plays.yaml", "\nrecipes:", "\nrecipies:", "'recipes'"),
    ("ti4", "plays.yaml", "    given: [\"{other} has a destroyer\"]",
     "    givn: [\"{other} has a destroyer\"]", "'given'"),
    ("ti4", "plays.yaml", "    offensive: true", "    ofensive: true", "'offensive'"),
    ("eu-pop", "plays.yaml", "{at least: 2}}", "{at leats: 2}}", "'at least'"),
    ("ti4", "contradictions.yaml", "  question: In what order", "  qestion: In what order",
     "'question'"),
])
def test_a_misspelt_key_is_refused_with_its_line_and_the_closest_key(games_copy, game, name,
                                                                       old, new, near):
    message = _refused(games_copy, game, name, old, new)
    wrong = new.strip().split(":")[0].lstrip("{\n").split("{")[-1].strip()
    line = _line_of(games_copy, game, name, old.strip().split("\n")[-1])
    assert message.startswith(f"{games_copy / game / name}:{line}: "), message
    assert f"did you mean {near}?" in message, message
    assert wrong in message, message


def test_a_misspelt_value_and_an_unquoted_number_are_refused(games_copy):
    message = _refused(games_copy, "ti4", "contradictions.yaml", "  fact: order", "  fact: ordr")
    assert "'ordr' at contradictions/0/fact is not one of phase, order, count, moment, who; " \
        "did you mean 'order'?" in message
    message = _refused(games_copy, "ti4", "game.yaml", "cites: required", "cites: requried")
    assert "'requried' at cites is not one of required, optional; did you mean 'required'?" \
        in message
    message = _refused(games_copy, "ti4", "game.yaml", 'hand-limit: "2.4"', "hand-limit: 2.4")
    assert "concepts/hand-limit" in message and "quote it ('2.4')" in message


def test_every_schema_is_named_for_its_file():
    for name in filecheck.NAMES:
        assert filecheck.load(name)["$id"].endswith(f"/files/{name}.json")


def test_an_expectations_file_with_a_misspelt_key_is_refused(tmp_path):
    path = tmp_path / "known.yaml"
    path.write_text("known_failures:\n  - rule: ti4:2.4\n    reason: x\n"
                    "  - rule: ti4:2.5\n    reasn: hidden hands\n")
    with pytest.raises(ExpectationsError) as caught:
        load_expectations(path, ["ti4:2.4", "ti4:2.5"])
    assert str(caught.value).startswith(f"{path}:5: unknown key 'reasn' at known_failures/1; "
                                        "did you mean 'reason'?")


RULING = """\
    Feature: Council rulings

      @ti4:2.4
      Rule: 2.4 hand limit
        Ruling: r1
        Sorce: Council FAQ 3
        Date: 2024-02-11
        Authority: Council of Rules
        Status: official
        Cites: ti4:2.4#1

        Scenario: A ruling with a misspelt key
          Given the players Alice and Bob
"""


def test_a_misspelt_description_key_is_a_suite_problem(tmp_path):
    folder = tmp_path / "rulings" / "ti4"
    folder.mkdir(parents=True)
    feature = folder / "council.feature"
    feature.write_text(textwrap.dedent(RULING))
    games = discover_games([BUNDLED, tmp_path / "rulings"])
    _, _, problems = read_suite([games["ti4"]], games)
    mine = [p for p in problems if p.path == feature]
    assert mine and str(mine[0]).startswith(f"{feature}:6: unknown key 'Sorce' in a ruling's "
                                            "description; did you mean 'Source'?"), mine
    # Outside a ruling a description may hold prose: only a near miss is refused.
    feature.write_text(textwrap.dedent(RULING).replace("    Ruling: r1\n", "").replace(
        "Sorce: Council FAQ 3", "Why: the Council said so").replace("Cites:", "Cite:"))
    _, _, problems = read_suite([games["ti4"]], games)
    mine = [str(p) for p in problems if p.path == feature and "unknown key" in p.message]
    assert len(mine) == 1 and "unknown key 'Cite' in a description; did you mean 'Cites'?" \
        in mine[0], mine


def test_a_run_on_a_misspelt_manifest_exits_2_naming_the_line(oracle, pytester, engine_module):
    from test_suite_checks import MANIFEST

    write_toy(pytester, engine_module, manifest=MANIFEST.replace("cards:", "crads:"))
    run = oracle("run", "--features", "games", "--engine", "toyengine:factory",
                 "--rule", "toy")
    assert run.code == 2, run.err
    line = MANIFEST.splitlines().index(next(x for x in MANIFEST.splitlines()
                                            if x.startswith("cards:"))) + 1
    assert f"game.yaml:{line}: unknown key 'crads'; did you mean 'cards'?" in run.err
