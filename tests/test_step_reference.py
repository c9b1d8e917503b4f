"""The step reference a committee writes rulings from, its Markdown page, and suggestions."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from oracle.cli import main
from oracle.suite.games import (
    bundled_features_dir,
    checkout_features_dir,
    discover_games,
    features_note,
)
from oracle.suite.reference import render_reference
from oracle.suite.vocabulary import vocabulary_for

ROOT = Path(__file__).resolve().parent.parent


def test_docs_steps_md_is_fresh():
    games = discover_games([ROOT / "features"])
    expected = render_reference(list(games.values()), markdown=True)
    assert (ROOT / "docs" / "steps.md").read_text(encoding="utf-8") == expected, (
        "docs/steps.md is stale: rules-oracle steps --markdown > docs/steps.md")


def test_the_reference_gives_grammar_values_and_an_example(capsys):
    assert main(["steps", "--game", "ti4"]) == 0
    out = capsys.readouterr().out
    play = out[out.index("When <player> (plays|starts playing) <card>"):]
    play = play[:play.index("\n\n")]
    assert "<target>: a player (Bob), a unit (Bob's destroyer; Bob's dreadnought 2" in play
    assert 'Example: When Alice plays "Lucky Shot" targeting Bob\'s destroyer' in play
    values = out[out.index("Values (ti4)"):]
    assert '"Direct Hit"' in values and '"Yssaril"' in values and '"dreadnought"' in values
    assert '"At the start of a combat round"' in values
    assert "eu-pop" not in out


def test_an_unknown_game_is_a_usage_error(capsys):
    assert main(["steps", "--game", "ti5"]) == 2
    assert "no game ti5; games: " in capsys.readouterr().err


@pytest.mark.parametrize(("text", "meant"), [
    ('Alice plays "Spy" on Bob', "<player> (plays|starts playing) <card>"),
    ("Alice draw 2 action cards", "<player> draws <count> <deck> card(s)"),
    ('Alice gives "Sabotage" to Bob', "<giver> gives <cards> to <receiver> in a transaction"),
])
def test_suggestions_rank_steps_sharing_verb_and_shape_first(text, meant):
    words = vocabulary_for(discover_games()["ti4"])
    assert words.match("when", text) == []
    assert words.closest("when", text)[0].startswith(meant)


def test_a_run_finds_the_same_features_from_every_folder_and_names_a_differing_checkout(
        tmp_path, monkeypatch):
    checkout = tmp_path / "checkout"
    shutil.copytree(ROOT / "features", checkout / "features")
    (checkout / "pyproject.toml").write_text('[project]\nname = "rules-oracle"\n')
    (checkout / "sub").mkdir()
    monkeypatch.chdir(checkout / "sub")
    installed = bundled_features_dir()
    assert checkout_features_dir() == checkout / "features"
    assert installed != checkout / "features"  # never the folder it is run from
    assert features_note() == ""  # the same files: nothing to say
    edited = checkout / "features" / "ti4" / "drawing.feature"
    edited.write_text(edited.read_text() + "\n")
    note = features_note()
    assert note.startswith(f"the installed features at {installed.resolve()} are used, not "
                           f"those of the checkout {checkout / 'features'}, which differ in 1 "
                           "file(s): ti4/drawing.feature")
    monkeypatch.chdir(tmp_path)
    assert bundled_features_dir() == installed and features_note() == ""
