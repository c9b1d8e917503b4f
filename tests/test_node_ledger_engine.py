"""The event-sourced TI4 engine (tests/styles/node_ledger): written in Node.js by an outside
developer from the published pages alone, tested over the pipe as its author did.

- its card facts are ``rules-oracle cards --game ti4 --json``, up to date;
- smoke passes it (its setup checks the card counts, as the protocol page allows), and a run
  over the pipe with ``--strict-protocol`` holds it to the verdicts its author got: the
  rules it models pass, every other testable rule is unsupported, and one rule fails: its
  author's slip, kept, a reveal accepted while the player owes the hand-limit keep
  (ti4:note-10; differential exploration found it, and a scenario now checks it);
- one slip, one rule, for an engine that reports a result and leaves its state unchanged:
  each broken copy (``LEDGER_IGNORES``: the projection does not fold an event type) is
  flagged on exactly the rule whose sentence its slip breaks (beside the engine's own).

Skipped where ``node`` is not installed.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from oracle.suite.games import discover_games

NODE = shutil.which("node")
HERE = Path(__file__).resolve().parent / "styles" / "node_ledger"
TI4 = discover_games()["ti4"]
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (shutil.which)")

#: The rules its author saw pass: those whose scenarios need only what it models.
PASSING = {f"ti4:{r}" for r in (
    "2.1", "2.3", "2.4", "2.5", "2.6", "2.6.1", "2.7", "2.8", "note-1", "note-2", "note-3",
    "note-4", "note-5", "note-7", "note-9")}
#: Its author's slip, kept: ``reveal`` never asks whether the player owes a keep.
SLIP = {"ti4:note-10"}
SLIP_SCENARIOS = [
    "A player over the limit discards the excess before revealing cards [6 | rejected]"]


def command() -> str:
    return f"cmd:{shlex.quote(str(NODE))} {shlex.quote(str(HERE / 'ledger.js'))}"


def test_cards_json_is_the_games_card_facts(capsys):
    """The decks only: the engine reads no class (the oracle's own grouping, which moves
    whenever a recipe is added)."""
    from oracle.cli import main

    assert main(["cards", "--game", "ti4", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)["decks"]
    assert json.loads((HERE / "cards.json").read_text(encoding="utf-8"))["decks"] == printed, (
        "tests/styles/node_ledger/cards.json is stale: rules-oracle cards --game ti4 --json > "
        "tests/styles/node_ledger/cards.json")


@needs_node
def test_smoke_passes_and_the_engine_passes_what_it_models(oracle):
    smoke = oracle("smoke", "--engine", command(), report=False)
    assert smoke.code == 0, smoke.out + smoke.err
    run = oracle("run", "--strict-protocol", "--engine", command(), "--rule", "ti4")
    assert run.report is not None, run.out + run.err
    statuses = {r["id"]: r["status"] for r in run.report["rules"]}
    assert {r for r, s in statuses.items() if s == "pass"} == PASSING, run.out[-3000:]
    assert run.flagged() == SLIP, run.out[-3000:]
    assert [s["name"] for s in run.scenarios("fail")] == SLIP_SCENARIOS, run.out[-3000:]
    testable = {r.id for r in TI4.catalog.rules if r.testable}
    assert {r for r, s in statuses.items() if s == "unsupported"} == testable - PASSING - SLIP
    assert run.code == 1, run.out + run.err


@needs_node
@pytest.mark.parametrize("ignored, rules", [
    ("revealed", {"ti4:note-3"}),   # a reveal shows nothing
    ("cancelled", {"ti4:2.8"}),     # a Sabotage cancels nothing
    ("kept", {"ti4:2.4"}),          # the keep is accepted, the hand stays over the limit
    ("reshuffled", {"ti4:note-4"}),  # the discard pile never becomes the deck
    ("played", {"ti4:2.7"}),        # a played card stays in the hand, nothing is played
])
def test_a_result_reported_with_the_state_unchanged_is_flagged_on_its_rule_alone(
        oracle, monkeypatch, ignored, rules):
    monkeypatch.setenv("LEDGER_IGNORES", ignored)
    run = oracle("run", "--engine", command(), "--rule", "ti4")
    assert run.report is not None, run.out + run.err
    assert run.flagged() == rules | SLIP, [
        (s["location"], s["message"][:300]) for s in run.scenarios() if s["status"] in
        ("fail", "error")]
    assert run.code == 1
