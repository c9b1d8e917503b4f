"""One bug, one rule: a failure is charged to the rule that was broken, and a scenario that
needs something the engine lacks is unsupported before anything is sent.

The engines here are not our mutants: they break a rule the way engines written elsewhere
do (a draw reported but nothing drawn, cards dealt from the bottom, a partial card set),
and the test is that the report names that rule alone, with the scenarios that stood on
it shown as blocked by it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

FLAGGED = ("fail", "error")


def run_inprocess(pytester: pytest.Pytester, spec: str, *args: str) -> dict:
    """Run the oracle in this process (as `pytest --oracle-engine`); return the JSON report."""
    out = pytester.path / "report.json"
    pytester.runpytest_inprocess("-p", "no:cacheprovider", "--oracle-engine", spec,
                                 "--oracle-json", str(out), *args)
    return json.loads(out.read_text())


def statuses(report: dict, prefix: str = "ti4:") -> dict[str, str]:
    return {r["id"]: r["status"] for r in report["rules"] if r["id"].startswith(prefix)}


def flagged(report: dict) -> set[str]:
    return {r["id"] for r in report["rules"] if r["status"] in FLAGGED}


DRAWS_NOTHING = '''
from oracle.games.ti4.engine import ReferenceEngine

class DrawsNothing(ReferenceEngine):
    """Reports every draw as done and leaves the deck and the hands as they were."""
    def take_from_deck(self, count):
        return []

def factory():
    return DrawsNothing()
'''

BOTTOM_DRAW = '''
from oracle.games.ti4.engine import ReferenceEngine

class BottomDraw(ReferenceEngine):
    """Takes cards from the bottom of the deck."""
    def take_from_deck(self, count):
        self.g.draw.reverse()
        try:
            return super().take_from_deck(count)
        finally:
            self.g.draw.reverse()

def factory():
    return BottomDraw()
'''


def test_an_engine_that_draws_nothing_is_charged_on_drawing_alone(pytester, engine_module):
    """Every event that draws (a draw, the status phase, Politics) does nothing: those three
    rules fail, each on its own event; every rule that only needed cards to arrive (the
    hand limit, dealing order, hidden hands, public sizes, the reshuffle) is blocked."""
    engine_module("draws_nothing", DRAWS_NOTHING)
    report = run_inprocess(pytester, "draws_nothing:factory", "--oracle-rule", "ti4")
    rules = statuses(report)
    assert flagged(report) == {"ti4:2.1", "ti4:2.2", "ti4:2.3"}, rules
    for rule in ("ti4:2.4", "ti4:2.4.1", "ti4:2.5", "ti4:note-2", "ti4:note-4", "ti4:note-5",
                 "ti4:note-10"):
        assert rules[rule] == "blocked", (rule, rules[rule])
    note5 = next(r for r in report["rules"] if r["id"] == "ti4:note-5")
    blocked = [s for s in note5["scenarios"] if s["status"] == "blocked"]
    assert blocked and all(s["blocked_by"] == "ti4:2.1" for s in blocked)
    assert blocked[0]["message"].startswith("blocked by ti4:2.1 (status-draw)")
    charged = [s for r in report["rules"] if r["id"] == "ti4:2.3" for s in r["scenarios"]
               if s.get("charged_from")]
    assert {c for s in charged for c in s["charged_from"]} >= {"ti4:note-2", "ti4:2.4"}


def test_cards_dealt_from_the_bottom_charge_the_top_card_rule(pytester, engine_module):
    engine_module("bottom_draw", BOTTOM_DRAW)
    report = run_inprocess(pytester, "bottom_draw:factory", "--oracle-rule", "ti4")
    rules = statuses(report)
    assert flagged(report) == {"ti4:2.3"}, rules
    for rule in ("ti4:2.2", "ti4:2.5", "ti4:note-5", "ti4:note-5.1", "ti4:note-5.2", "ti4:note-10"):
        assert rules[rule] == "blocked", (rule, rules[rule])


PARTIAL = '''
from oracle.games.ti4.engine import ReferenceEngine

class OneCard(ReferenceEngine):
    """Models a single card: Repeal Law (and no Sabotage)."""
    def capabilities(self):
        return [c for c in super().capabilities()
                if not c.startswith("ti4/card/") or c == "ti4/card/Repeal Law"]

def factory():
    return OneCard()
'''


def logging_engine(log: Path) -> str:
    """Source of ``logged()``: the one-card engine, writing each request's op to ``log``."""
    return f"""
class Logged(OneCard):
    def handle(self, request):
        with open({str(log)!r}, "a") as f:
            f.write(request.get("op") + "\\n")
        return super().handle(request)

def logged():
    return Logged()
"""


def test_named_cards_the_engine_lacks_are_unsupported_before_setup(pytester, engine_module):
    """A scenario that names a card the engine does not model never reaches the engine."""
    log = pytester.path / "sent.txt"
    engine_module("partial_log", PARTIAL + logging_engine(log))
    report = run_inprocess(pytester, "partial_log:logged", "--oracle-rule", "ti4:2.8")
    assert statuses(report)["ti4:2.8"] == "unsupported"
    message = next(r for r in report["rules"] if r["id"] == "ti4:2.8")["reason"]
    assert "ti4/card/" in message
    sent = log.read_text().split()
    assert sent and "setup" not in sent, sent


CLASSES = '''
Feature: card classes
  @ti4:2.7
  Rule: 2.7 a played card resolves, then is discarded
    Cites: ti4:2.7#2

    Scenario: Any "Action" card resolves and is discarded
      Given the players are Alice, Bob and Carol
      And it is the action phase, Alice's turn
      And card A is any "Action" card
      And Alice holds card A and 2 other cards
      And Alice can play card A
      When Alice plays card A
      Then the effect of card A has happened
      And the action discard pile is card A
      And Alice holds 2 cards
'''


def test_a_card_class_picks_a_card_the_engine_models_and_reports_it(pytester, engine_module):
    engine_module("partial", PARTIAL)
    (pytester.path / "more" / "ti4").mkdir(parents=True)
    (pytester.path / "more" / "ti4" / "classes.feature").write_text(CLASSES)
    report = run_inprocess(pytester, "partial:factory", "--oracle-features",
                           str(pytester.path / "more"), "--oracle-rule", "ti4:2.7")
    rule = next(r for r in report["rules"] if r["id"] == "ti4:2.7")
    mine = next(s for s in rule["scenarios"] if s["name"].startswith("Any"))
    assert mine["status"] == "pass", mine
    assert mine["choices"] == ['card A = Repeal Law (any "Action" card)']


def test_a_class_the_engine_has_no_card_of_is_unsupported(pytester, engine_module):
    engine_module("partial", PARTIAL.replace("Repeal Law", "Bribery"))
    (pytester.path / "more" / "ti4").mkdir(parents=True)
    (pytester.path / "more" / "ti4" / "classes.feature").write_text(CLASSES)
    report = run_inprocess(pytester, "partial:factory", "--oracle-features",
                           str(pytester.path / "more"), "--oracle-rule", "ti4:2.7")
    rule = next(r for r in report["rules"] if r["id"] == "ti4:2.7")
    mine = next(s for s in rule["scenarios"] if s["name"].startswith("Any"))
    assert mine["status"] == "unsupported"
    assert "models no such card" in mine["message"] and "Lucky Shot" in mine["message"]


def test_unknown_card_classes_and_bad_recipes_are_refused(pytester, tmp_path: Path):
    """A class or recipe that names no card, or a recipe line no step matches, is a usage
    error naming the file."""
    from oracle.suite.games import discover_games
    from oracle.suite.lint import _check_plays
    from oracle.suite.vocabulary import vocabulary_for

    game = discover_games()["ti4"]
    assert _check_plays(game, vocabulary_for(game)) == []
    folder = tmp_path / "ti4"
    folder.mkdir()
    for name in ("catalog.yaml", "cards.yaml"):
        (folder / name).write_text((game.folder / name).read_text())
    (folder / "game.yaml").write_text((game.folder / "game.yaml").read_text())
    (folder / "plays.yaml").write_text(
        "classes:\n  ghost card: {window: Never}\nrecipes:\n  Lucky Shoot: {}\n"
        "  Bribery:\n    given: ['{player} has two trade goods please']\n")
    bad = discover_games([tmp_path])["ti4"]
    problems = [p.message for p in _check_plays(bad, vocabulary_for(bad))]
    assert any("'Lucky Shoot', which is not a card of ti4" in p and "Lucky Shot" in p
               for p in problems)
    assert any("no given step matches this given line" in p for p in problems)
    assert any("card class 'ghost card' has no card with a recipe" in p for p in problems)


NAMED = '''
Feature: named cards
  @ti4:2.7
  Rule: 2.7 a played card resolves, then is discarded
    Cites: ti4:2.7#2

    Scenario: Alice plays a named card
      Given the players are Alice, Bob and Carol
      And it is the action phase, Alice's turn
      And Alice holds "Insubordination" and 2 other cards
      And Bob has 2 command tokens in their tactic pool
      When Alice plays "Insubordination" targeting Bob
      Then the action discard pile is "Insubordination"

    Scenario: Alice only holds a named card
      Given the players are Alice, Bob and Carol
      And it is the action phase, Alice's turn
      And Alice holds "Insubordination" and 2 other cards
      Then Alice holds 3 cards
'''


@pytest.mark.parametrize("declared", ["Repeal Law", "Insubordination"])
def test_a_scenario_naming_a_card_the_engine_lacks_sends_nothing(pytester, engine_module,
                                                                 declared):
    """A played card the engine does not declare makes the scenario ``unsupported`` before
    ``setup`` is sent; a card only held needs no declaration (docs/protocol.md: an engine
    holds every card of its deck), and the played one runs when the engine declares it."""
    log = pytester.path / "sent.txt"
    engine_module("partial_named", PARTIAL.replace("Repeal Law", declared) + logging_engine(log))
    (pytester.path / "more" / "ti4").mkdir(parents=True)
    (pytester.path / "more" / "ti4" / "named.feature").write_text(NAMED)
    report = run_inprocess(pytester, "partial_named:logged", "--oracle-features",
                           str(pytester.path / "more"), "--oracle-rule", "ti4:2.7",
                           "-k", "named_card")
    rule = next(r for r in report["rules"] if r["id"] == "ti4:2.7")
    mine = {s["name"]: s for s in rule["scenarios"]}
    assert len(mine) == 2, list(mine)
    sent = log.read_text().split() if log.exists() else []
    assert mine["Alice only holds a named card"]["status"] == "pass", mine
    assert sent.count("setup") == (2 if declared == "Insubordination" else 1), sent
    played = mine["Alice plays a named card"]
    if declared == "Insubordination":
        assert played["status"] == "pass", mine
    else:
        assert played["status"] == "unsupported", mine
        assert "ti4/card/Insubordination" in played["message"], mine
        assert "act" not in sent, sent


SEAT_ORDER = '''
from oracle.games.ti4.engine import ReferenceEngine

class SeatOrder(ReferenceEngine):
    """Deals the status phase round the table from the first seat."""
    def dealing_order(self):
        return list(self.g.seats)

def factory():
    return SeatOrder()
'''

ONE_CARD_DRAWS = '''
from oracle.games.ti4.engine import ReferenceEngine

class OneCardDraws(ReferenceEngine):
    """A game effect's draw gives one card, whatever count it names."""
    def act_draw(self, action):
        super().act_draw({**action, "count": 1})

def factory():
    return OneCardDraws()
'''

LEAKY_REVEAL = '''
from oracle.games.kit import Rejected, Rejection
from oracle.games.ti4.engine import ReferenceEngine

class LeakyReveal(ReferenceEngine):
    """Shows each named card it finds in the hand, then refuses a reveal naming one it
    does not, without undoing what it showed (no transaction around its handlers). A player
    who owes the hand-limit keep reveals nothing, as on the reference (ti4:note-10)."""
    def _transaction(self, run):
        self.require_game()
        self._events = []
        try:
            run()
        except Rejected as rej:
            return {"reply": "rejected", "reason": rej.rejection.reason}
        return {"reply": "accepted", "events": list(self._events)}

    def act_reveal(self, action):
        player = self.player(action.get("player"))
        self.require(self.check_reveal_not_pending(player.name))
        for card in action.get("cards") or []:
            if card not in player.hand:
                raise Rejected(Rejection(f"{player.name} does not hold {card!r}"))
            self.apply_reveal(player, [card])

def factory():
    return LeakyReveal()
'''


@pytest.mark.parametrize("source, broken, blocked", [
    # Dealt in seat order: the hidden-hand scenario that deals a card is blocked, not failed.
    (SEAT_ORDER, {"ti4:note-5"}, {"ti4:2.5"}),
    # A draw of several gives one: the reshuffle scenario that draws three is not charged.
    (ONE_CARD_DRAWS, {"ti4:2.3"}, {"ti4:2.4", "ti4:note-2"}),
    # A refused reveal leaves a card shown: the reveal rule, not hidden hands.
    (LEAKY_REVEAL, {"ti4:note-3"}, set()),
], ids=["seat-order", "one-card-draws", "leaky-reveal"])
def test_an_outside_engine_is_charged_on_the_rule_it_breaks_alone(pytester, engine_module,
                                                                  source, broken, blocked):
    """Engines written apart from our mutants, each wrong on one rule: the report flags that
    rule alone, and the scenarios of other rules that stood on it are blocked."""
    engine_module("outside", source)
    report = run_inprocess(pytester, "outside:factory", "--oracle-rule", "ti4")
    rules = statuses(report)
    assert flagged(report) == broken, rules
    for rule in blocked:
        assert rules[rule] == "blocked", (rule, rules[rule])
