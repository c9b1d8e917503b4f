"""An engine that models one card of each card class gets a verdict on every card-generic rule.

Why: the scenarios of rules that are not about a particular card (drawing, hidden hands,
playing and discarding, cancelling, timing, targets) name a *class* of card and the oracle
picks one the engine models. If they hard-wired cards, an engine written elsewhere with a
handful of cards would be ``unsupported`` on rules it implements, and a bug in its
play-and-discard path would go unseen. The engine here is the reference engine cut down to
the fewest cards that still give every class in ``features/ti4/plays.yaml`` a member.
"""

from __future__ import annotations

import json
import re

import pytest

from oracle.engines import EngineClient
from oracle.games.ti4.engine import ReferenceEngine
from oracle.games.ti4.mutants import ALL as MUTANTS_ALL
from oracle.mutants.harness import flagged_rules, game_cases, run_case
from oracle.report.model import Status
from oracle.scenario.cards import class_cards, class_members
from oracle.suite.games import discover_games

#: The fewest cards that cover every TI4 class: Insubordination is the only "Action" card
#: here, Direct Hit the only offensive window card, Morale Boost the only lasting one,
#: Bribery the only agenda card, Sabotage the only cancelling card.
ONE_PER_CLASS = ("Insubordination", "Direct Hit", "Morale Boost", "Bribery", "Sabotage")

ENGINE = f'''
from oracle.games.ti4.engine import ReferenceEngine

class OnePerClass(ReferenceEngine):
    """Carries out (and so declares, as ti4/card/NAME) only these cards' effects."""
    EFFECTS = {{name: method for name, method in ReferenceEngine.EFFECTS.items()
               if name in {ONE_PER_CLASS!r}}}

def factory():
    return OnePerClass()
'''


def test_the_engine_models_one_card_of_each_class_and_no_card_to_spare():
    """The cut-down engine is what the test claims: every class has a member it models,
    and dropping any one of its cards leaves some class with none."""
    game = discover_games()["ti4"]
    members = {name: set(class_members(game, name)) for name in game.plays["classes"]}
    assert all(cards & set(ONE_PER_CLASS) for cards in members.values()), members
    for card in ONE_PER_CLASS:
        rest = set(ONE_PER_CLASS) - {card}
        assert any(not cards & rest for cards in members.values()), card


def test_one_card_per_class_gets_a_verdict_on_every_card_generic_rule(pytester, engine_module):
    engine_module("one_per_class", ENGINE)
    out = pytester.path / "report.json"
    pytester.runpytest_inprocess("-p", "no:cacheprovider", "--oracle-engine",
                                 "one_per_class:factory", "--oracle-json", str(out),
                                 "--oracle-rule", "ti4")
    report = json.loads(out.read_text())
    rules = [r for r in report["rules"] if r["id"].startswith("ti4:")]
    testable = [r for r in rules if r["status"] != "untestable"]
    assert testable and all(r["status"] == "pass" for r in testable), \
        {r["id"]: r["status"] for r in testable}
    scenarios = [s for r in testable for s in r["scenarios"]]
    unsupported = [s for s in scenarios if s["status"] == "unsupported"]
    # Only the scenarios that are about one named card the engine lacks (the rules' own
    # examples: Lucky Shot on the player's own ship, Repeal Law with no law; the cards whose
    # timing events, planets and costs the flow scenarios show: Shields Holding's roll,
    # Reverse Engineer's discard, Uprising's planet, Impersonation's influence) are skipped.
    lacking = {"ti4/card/Lucky Shot", "ti4/card/Repeal Law", "ti4/card/Shields Holding",
               "ti4/card/Reverse Engineer", "ti4/card/Uprising", "ti4/card/Impersonation"}
    assert all(any(c in s["message"] for c in lacking) for s in unsupported), unsupported
    # A fifth at most: the flow scenarios (timing events, costs, planets) are about the
    # particular cards that have them, and only those are skipped (checked above).
    assert len(unsupported) < len(scenarios) // 5, [s["name"] for s in unsupported]
    chosen = {c.split(" = ")[1].split(" (")[0] for s in scenarios for c in s.get("choices", [])
              if not c.endswith(", held)")}  # a card only held is any card of the deck
    assert chosen and chosen <= set(ONE_PER_CLASS), chosen


def test_the_cut_down_engine_answers_unsupported_for_a_card_it_does_not_model():
    """Sent a legal play of a card it lacks anyway (an adapter that skips the capability
    check), the engine says ``unsupported`` and changes nothing: never a silent accept,
    which would pass a scenario about that card."""
    namespace: dict = {}
    exec(ENGINE, namespace)  # the same engine class the run above loads
    engine = namespace["factory"]()
    assert "ti4/card/Lucky Shot" not in engine.capabilities()
    state = {"players": [{"name": "Alice", "hand": ["Lucky Shot"]}, {"name": "Bob", "hand": []}],
             "phase": "action", "active_player": "Alice",
             "units": [{"id": "b1", "owner": "Bob", "type": "destroyer"}]}
    assert engine.handle({"op": "setup", "game": "ti4", "seed": 1, "state": state}) == \
        {"reply": "ready"}
    before = engine.handle({"op": "observe", "viewer": "*"})
    reply = engine.handle({"op": "act", "action": {
        "type": "play", "player": "Alice", "card": "Lucky Shot", "targets": {"unit": "b1"}}})
    assert reply["reply"] == "unsupported" and reply["capability"] == "ti4/card/Lucky Shot"
    assert engine.handle({"op": "observe", "viewer": "*"}) == before


def test_filler_never_repeats_a_card_a_check_names_nor_passes_the_deck_counts():
    """With every copy of the deck placed but a few, filler takes an unmentioned card, then
    a card mentioned elsewhere, never card A or card B (a second card B under the deck would
    let an engine that draws from the bottom pass "Alice holds card B" by chance: found when
    the Russian twin of a 2.4 scenario, whose other seed bound other cards, was blocked
    where the English passed), and refuses to place more copies than the deck has."""
    import pytest

    from oracle.scenario.cards import CardTable
    from oracle.scenario.outcomes import ScenarioError

    game = discover_games()["ti4"]
    counts = {c["name"]: int(c["count"]) for c in game.cards["action"]}
    a, b, c, d = [n for n, k in counts.items() if k >= 2][:4]  # cards with copies to spare
    placed = {n: k for n, k in counts.items()}
    placed.update({a: 0, b: 0, c: counts[c] - 1, d: counts[d] - 1})
    table = CardTable(game, frozenset(), 0)
    assert table.filler("action", 1, {a, b, d}, {a, b}, placed) == [c]
    assert sorted(table.filler("action", 2, {a, b, c, d}, {a, b}, placed)) == sorted([c, d])
    with pytest.raises(ScenarioError, match="more cards in play than the 'action' deck holds"):
        table.filler("action", 3, {a, b}, {a, b}, placed)


def test_no_scenario_puts_more_copies_of_a_card_in_play_than_the_deck_has():
    """docs/protocol.md ("Copies"): every state a scenario sends keeps within the card facts'
    counts (hands, piles, displays and characters together), so an engine that checks them
    never refuses a scenario for it."""
    from collections import Counter

    from oracle.probe.sent import sent

    for game in discover_games().values():
        counts = Counter()
        for fact in (f for deck in game.cards.values() for f in deck):
            counts[fact["name"]] += int(fact.get("count", 1))
        for run in sent(game):
            if run.setup is None:
                continue
            state, found = run.setup, Counter()
            text = json.dumps(state)
            for name in counts:
                found[name] = text.count(json.dumps(name))
            over = {n: (k, counts[n]) for n, k in found.items() if k > counts[n]}
            assert not over, (game.id, run.case.test_name, over)


# -- each card with a recipe stands alone for its classes ------------------------------------

#: The rules whose scenarios play a card of a class: a mutant breaking one must be caught by
#: scenarios bound to any card of the class, charged to that rule alone.
PLAYING_RULES = ("ti4:2.6", "ti4:2.6.1", "ti4:2.6.2", "ti4:2.7", "ti4:2.8", "ti4:note-6",
                 "ti4:note-7", "ti4:note-8", "ti4:note-9")
CLASS_STEP = re.compile(r'card [A-Z] is any (?:other )?(.+)')


def _only(card: str, base: type = ReferenceEngine) -> type:
    """``base`` carrying out (and so declaring) only ``card`` and Sabotage, which the
    cancelling scenarios play beside it."""
    keep = {card, "Sabotage"}
    return type(f"Only{base.__name__}", (base,), {"EFFECTS": {
        n: m for n, m in ReferenceEngine.EFFECTS.items() if n in keep}})


def _bound_cases(game, card: str) -> list:
    """The scenarios that play a card of a class ``card`` belongs to."""
    classes = {c for c in game.plays["classes"] if c != "card" and card in class_cards(game, c)}
    return [case for case in game_cases(game)
            if {m.group(1) for _, text in case.steps if (m := CLASS_STEP.fullmatch(text))}
            & classes]


@pytest.mark.parametrize("card", sorted(set(discover_games()["ti4"].plays["recipes"])
                                        - {"Sabotage"}))
def test_each_card_with_a_recipe_alone_gets_verdicts_and_catches_each_rule(card):
    """An engine that models only this card (and Sabotage) passes every scenario that plays
    a card of one of its classes, so each class is chosen from each of its cards, not from
    the first seven that had recipes; and a mutant of each rule those scenarios check, built
    on that engine, fails them, charged to that rule alone."""
    game = discover_games()["ti4"]
    cases = _bound_cases(game, card)
    assert cases, f"no scenario plays a card of {card!r}'s classes"
    engine = _only(card)
    outcomes = [run_case(game, case, EngineClient(engine(), card)) for case in cases]
    failed = [(o.case.test_name, o.status.value, o.message) for o in outcomes
              if o.status is not Status.PASS]
    assert not failed, failed
    rules = {r for case in cases for r in case.rules} & set(PLAYING_RULES)
    assert rules
    for rule in sorted(rules):
        caught = []
        for mutant in (m for m in MUTANTS_ALL if m.breaks == (rule,)):
            broken = _only(card, type(mutant.name, (ReferenceEngine,), dict(mutant.overrides)))
            found = [run_case(game, case, EngineClient(broken(), mutant.name)) for case in cases]
            caught.append((mutant.name, flagged_rules(found)[0]))
            if caught[-1][1]:
                break
        assert caught[-1][1] == (rule,), (card, rule, caught)
