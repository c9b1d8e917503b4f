"""The flow vocabulary (issue 19, item 5): what a committee can now say about the game's flow,
each concept with the check that an engine which lacks it is ``unsupported``, not failed.

The mutants that break each concept are in the kill matrix (``tests/test_selftest.py``);
these tests show what the matrix cannot: an engine that does not declare (or does not say)
what a step needs gets ``unsupported``, and a writing mistake is refused before any engine
runs.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from oracle.mutants import game_mutants
from oracle.mutants.harness import flagged_rules, game_cases, mutant_outcomes, trace_cases
from oracle.report.model import Status
from oracle.suite.games import bundled_features_dir, discover_games

# -- 'Then the action is rejected, citing RULE' -------------------------------------------------

def reference_engine(doc: str, body: str, game: str = "ti4") -> str:
    """The source of a module whose ``factory`` makes the game's (TI4's) reference engine
    with ``body`` (methods, indented for the class) changed as ``doc`` says."""
    package = {"ti4": "ti4", "eu-pop": "eu_pop"}[game]
    return (f"from oracle.games.{package}.engine import ReferenceEngine\n\n"
            f"class Engine(ReferenceEngine):\n    {doc!r}\n{textwrap.indent(body, '    ')}\n"
            f"def factory():\n    return Engine()\n")


NAMES_NO_RULE = reference_engine(
    "Rejects what the rules forbid, without saying which rule (the protocol allows it).",
    """def handle(self, request):
    reply = super().handle(request)
    if reply.get("reply") == "rejected":
        reply.pop("rule", None)
    return reply
""")


def test_a_rejection_that_names_no_rule_leaves_the_citing_check_unsupported(oracle,
                                                                            engine_module):
    engine_module("norule", NAMES_NO_RULE)
    run = oracle("run", "--engine", "norule:factory", "--rule", "ti4:note-9")
    citing = [s for s in run.scenarios() if s["name"].startswith("Repeal Law cannot")]
    assert [s["status"] for s in citing] == ["unsupported"], citing
    assert "without naming the rule" in citing[0]["message"]
    assert run.status("ti4:note-9") == "pass"  # its other scenarios judged it


# -- what an engine does not declare ---------------------------------------------------------

def without(lacks: str) -> str:
    """The source of the game's reference engine without one capability (``lacks``)."""
    return f"LACKS = {lacks!r}\n" + reference_engine(
        "The reference engine without one capability (the module's LACKS).",
        """def capabilities(self):
    return [c for c in super().capabilities() if c != LACKS]
""", lacks.partition("/")[0])


@pytest.mark.parametrize("lacks, rule, scenario", [
    ("ti4/law/Executive Sanctions", "ti4:2.4.1", "A law in play sets"),
    ("ti4/politics-deal", "ti4:2.2", "Politics is dealt as one deal"),
    ("eu-pop/battle-pass", "eu-pop:6.2.battle.1", "A side that passes"),
    ("eu-pop/setup", "eu-pop:6.cards-in-hand.2", "The set-up's hold"),
])
def test_what_the_engine_does_not_declare_leaves_its_scenarios_unsupported(
        oracle, engine_module, lacks, rule, scenario):
    engine_module("without", without(lacks))
    run = oracle("run", "--engine", "without:factory", "--rule", rule)
    found = [s for s in run.scenarios() if s["name"].startswith(scenario)]
    assert found and {s["status"] for s in found} == {"unsupported"}, found
    assert lacks in found[0]["message"]
    assert run.status(rule) == "pass" and run.code == 0


# -- the Council's ruling on each concept fails on a mutant that breaks it ---------------------

COUNCIL = Path(__file__).resolve().parent.parent / "examples" / "council-rulings"

#: (game, the ruling's scenario, as its name starts, the mutant that breaks the concept).
#: One ruling per concept of the flow vocabulary, written with existing steps only.
RULINGS_AND_MUTANTS = [
    # 'Then the action is rejected, citing RULE'
    ("ti4", "Insubordination cannot target", "incomplete_action_cited_as_note_9"),
    # laws declared like cards (ti4/law/NAME)
    ("ti4", "With Executive Sanctions in play", "hand_limit_ignores_laws"),
    # Politics dealt as one clockwise deal, discards before the reshuffle
    ("ti4", "The active player discards down before the reshuffle",
     "deal_reshuffles_before_discards"),
    # timing events with their subject: a ship, a roll, a combat round
    ("ti4", "A second Shields Holding cannot cancel", "events_share_one_occurrence"),
    ("ti4", "A second Morale Boost cannot be played", "events_share_one_occurrence"),
    ("ti4", "Reverse Engineer takes an \"Action\" card discarded to the hand limit",
     "hand_limit_discards_open_no_window"),
    # the status phase's steps, in order
    ("ti4", "Once the strategy cards are returned", "status_steps_in_any_order"),
    # planets as targets
    ("ti4", "Uprising cannot be played when every planet", "exhausted_planets_count_as_ready"),
    # costs beyond trade goods: checked, and never paid for a cancelled card
    ("ti4", "Impersonation is played only with three influence", "costs_not_checked"),
    ("ti4", "Impersonation cancelled by Sabotage", "costs_paid_when_cancelled"),
    # battle order: a side passing in the 'Play Battle Actions' step
    ("eu-pop", "After passing, the attacker plays no Battle Action", "passed_side_plays_on"),
    # set-up with starting hands
    ("eu-pop", "After the set-up's hold", "setup_hold_at_the_hand_limit"),
]


@pytest.mark.parametrize("game_id, ruling, name", RULINGS_AND_MUTANTS,
                         ids=[f"{g}/{n}" for g, _, n in RULINGS_AND_MUTANTS])
def test_each_concept_s_ruling_fails_on_a_mutant_that_breaks_it(game_id, ruling, name):
    """The ruling passes on the reference engine and fails on the mutant, charged to the
    rule the mutant breaks (the ruling's own): a committee's ruling can fail."""
    games = discover_games([bundled_features_dir(), COUNCIL])
    game = games[game_id]
    cases = [c for c in game_cases(game)
             if c.name.startswith(ruling) and c.location.startswith(f"{game_id}/flow.feature")]
    assert cases, f"no ruling {ruling!r} in {COUNCIL / game_id / 'flow.feature'}"
    assert not any(c.probe for c in cases)  # an official ruling: it fails its rule
    m = next(m for m in game_mutants(game) if m.name == name)
    reference = trace_cases(game, m.base, cases)
    assert {o.status for o, _ in reference.values()} == {Status.PASS}, reference
    outcomes, _ = mutant_outcomes(game, games, m, None, cases=cases)
    failing = [o for o in outcomes if o.status in (Status.FAIL, Status.ERROR)]
    assert failing, f"{ruling!r} passes on mutant {name}"
    flagged, _ = flagged_rules(outcomes)
    assert sorted(flagged) == sorted(m.breaks), (flagged, m.breaks)
