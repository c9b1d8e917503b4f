"""``rules-oracle cards``: every card fact of a game, for adapter writers who do not read the
scenarios (docs/protocol.md, "setup": card facts)."""

from __future__ import annotations

import json

import pytest

from oracle.cli import main
from oracle.suite.games import discover_games


@pytest.mark.parametrize("game_id", ["ti4", "eu-pop"])
def test_json_is_the_games_card_facts(game_id, capsys):
    assert main(["cards", "--game", game_id, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    game = discover_games()[game_id]
    assert printed["game"] == game_id
    assert printed["decks"] == game.cards
    # the file inside its features folder: no machine's path (the JSON gets checked in)
    assert printed["file"] == f"{game.folder.name}/{game.cards_file}" == f"{game_id}/cards.yaml"


def test_text_lists_every_card_and_nested_action_with_the_fields_explained(capsys):
    assert main(["cards", "--game", "eu-pop"]) == 0
    text = capsys.readouterr().out
    game = discover_games()["eu-pop"]
    for deck, cards in game.cards.items():
        assert f"{deck} deck: {len(cards)} cards" in text
        for card in cards:
            assert f"  {card['name']}  " in text
            for action in card.get("actions") or []:
                assert f"        {action['name']}  " in text  # indented under its card
    assert "charges    display cards" in text  # the file's own legend
    row = next(line for line in text.splitlines() if line.lstrip().startswith("Bold Gambit"))
    assert row.split()[2:5] == ["2", "1", "battle_action"] and "?" in row.split()


def test_an_unknown_game_is_a_usage_error(capsys):
    assert main(["cards", "--game", "chess"]) == 2
    assert "no such game (games: " in capsys.readouterr().err


def test_each_card_shows_the_classes_a_scenario_may_pick_it_for(capsys):
    """Why: an outside developer declared Counterespionage (kinds reaction, covert) expecting
    it to be 'any reaction card'; no page said which cards a class holds (only a run's
    reason did). The classes are in the JSON, and per card in the text."""
    assert main(["cards", "--game", "eu-pop", "--json"]) == 0
    classes = json.loads(capsys.readouterr().out)["classes"]
    game = discover_games()["eu-pop"]
    assert list(classes) == list(game.plays["classes"])
    assert classes["reaction card"] == ["Court Intrigue"]  # Counterespionage has no recipe
    assert "Counterespionage" not in {c for cards in classes.values() for c in cards}
    assert main(["cards", "--game", "eu-pop"]) == 0
    text = capsys.readouterr().out
    section = text.split("\nCard classes: ", 1)[1].split("\n\n", 1)[1]
    listed, card = {}, None
    for line in section.splitlines():  # a card, then its classes (wrapped lines go on)
        if line[2:3] != " ":
            card, _, line = line.strip().partition("  ")
        listed[card] = f"{listed.get(card, '')} {line.strip()}".strip()
    for name in {f["name"] for d in game.cards.values() for f in d}:
        want = [f"any {c}" for c, members in classes.items() if name in members]
        assert listed[name] == (", ".join(want) or "none"), (name, listed[name])
    assert listed["Counterespionage"] == "none"
