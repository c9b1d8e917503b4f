"""Charge the governing rule (issue 20 item 2): an action a scenario needs, refused or
answered with an error, charges the rule that governs it (``features/GAME/governs.yaml``),
not the scenario's own; a check no sentence states charges no rule.

The engines here are not our mutants: they break the rules the way outside engines did
(a strategy card's secondary ability always refused, a card pulled back out of a discard
pile, a card dealt at setup), run in this process as ``pytest --oracle-engine`` runs them.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from oracle.suite.catalog import CatalogFileError
from oracle.suite.games import discover_games
from oracle.suite.governs import action_key, check_governs

GAMES = discover_games()

ENGINES = '''
from oracle.games.eu_pop.engine import ReferenceEngine as EuEngine
from oracle.games.kit import Rejected, Rejection
from oracle.games.ti4.engine import ReferenceEngine as Ti4Engine


class SecondaryRefused(Ti4Engine):
    """Strategy cards' secondary abilities are not implemented: always refused."""
    def act_politics_secondary(self, action):
        raise Rejected(Rejection("secondary abilities are not implemented"))

    def check_politics_secondary(self, player, open_=True):
        raise Rejected(Rejection("secondary abilities are not implemented"))


class SecondaryCrashes(Ti4Engine):
    """Politics' secondary ability crashes the engine (an errored reply)."""
    def act_politics_secondary(self, action):
        raise RuntimeError("strategy pool not modelled")


class PullsBack(EuEngine):
    """Discards a resolved card, then pulls the bottom card of that pile back into its
    player's hand."""
    def finish_card(self, record):
        super().finish_card(record)
        pile = self.g.decks[self.deck_of(record.card)].discard
        if len(pile) > 1 and pile[0] == record.card:
            self.g.players[record.player].hand.append(pile.pop())


class DealsAtSetup(EuEngine):
    """Deals a player set up without a hand one card (docs/protocol.md: they hold none)."""
    def build_state(self, state, rng):
        game = super().build_state(state, rng)
        for entry in state["players"]:
            if "hand" not in entry:
                game.players[entry["name"]].hand.append("Royal Decree")
        return game


class TurnsNeverEnd(EuEngine):
    """Refuses to end a Turn (an engine that models one Turn)."""
    def act_end_turn(self, action):
        raise Rejected(Rejection("this engine models one Turn"))


def turns_never_end():
    return TurnsNeverEnd()

def secondary_refused():
    return SecondaryRefused()

def secondary_crashes():
    return SecondaryCrashes()

def pulls_back():
    return PullsBack()

def deals_at_setup():
    return DealsAtSetup()
'''


def run(pytester: pytest.Pytester, engine_module, factory: str, game: str
        ) -> tuple[int, dict]:
    engine_module("outside", ENGINES)
    out = pytester.path / "report.json"
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "--oracle-engine",
                                          f"outside:{factory}", "--oracle-json", str(out),
                                          "--oracle-rule", game)
    return result.ret, json.loads(out.read_text())


def statuses(report: dict) -> dict[str, str]:
    return {r["id"]: r["status"] for r in report["rules"]}


def flagged(report: dict) -> set[str]:
    return {r for r, s in statuses(report).items() if s in ("fail", "error")}


def scenarios(report: dict, rule: str) -> list[dict]:
    return next(r for r in report["rules"] if r["id"] == rule).get("scenarios", [])


def errored(report: dict) -> list[dict]:
    """Every scenario of the report that ended ``error``, under whichever rule."""
    return [s for r in report["rules"] for s in r.get("scenarios", []) if s["status"] == "error"]


@pytest.mark.parametrize("factory, what", [("secondary_refused", "refused"),
                                           ("secondary_crashes", "answered with an error")])
def test_a_strategy_card_secondary_the_engine_refuses_charges_the_rule_governing_it(
        pytester, engine_module, factory, what):
    """The issue's engine: ti4:2.5's scenario reaches a hand through Politics' secondary
    ability, which ti4:2.2 states. Refused (or crashing), it is charged to ti4:2.2 alone;
    the hidden-hand, hand-limit, public-size and reshuffle scenarios that needed it are
    blocked by it, not failed."""
    code, report = run(pytester, engine_module, factory, "ti4")
    assert code == 1
    assert flagged(report) == {"ti4:2.2"}, statuses(report)
    found = statuses(report)
    for rule in ("ti4:2.4", "ti4:2.5", "ti4:note-2", "ti4:note-4"):
        assert found[rule] == "blocked", (rule, found[rule])
    hidden = next(s for s in scenarios(report, "ti4:2.5")
                  if s["name"] == "Cards Politics' secondary ability draws are seen by "
                                  "their owner only")
    assert hidden["status"] == "blocked" and hidden["blocked_by"] == "ti4:2.2"
    assert (f"blocked by ti4:2.2 (governs politics_secondary): 'Bob resolves the secondary "
            f"ability of Politics', which ti4:2.2 governs, was {what}") in hidden["message"]
    charged = {s["name"] for s in scenarios(report, "ti4:2.2") if s.get("charged_from")}
    assert hidden["name"] in charged


def test_cards_pulled_back_out_of_a_discard_pile_charge_no_rule(pytester, engine_module):
    """Why: a card pulled back out of a discard pile was charged to eu-pop:6.decks.2,
    whose sentence speaks of cards going onto a pile, not of cards leaving one. No sentence
    of the chapter states it, so the scenario ends error with what the engine did, charged
    to no rule; 6.decks.2 is left unverified (blocked), never failed, and the run fails."""
    code, report = run(pytester, engine_module, "pulls_back", "eu-pop")
    assert code == 1
    assert "eu-pop:6.decks.2" not in flagged(report)
    assert statuses(report)["eu-pop:6.decks.2"] == "blocked"
    errors = [s for s in scenarios(report, "eu-pop:6.decks.2") if s["status"] == "error"]
    assert errors and all(s.get("uncharged") and not s.get("blocked_by") for s in errors)
    assert all(s["message"].startswith("charged to no rule (pile-intact): ")
               and "discard pile lost" in s["message"] for s in errors), errors[0]["message"]


def test_a_card_dealt_at_setup_is_an_error_charged_to_no_rule(pytester, engine_module):
    """The outside developer's setup_draw_dealt, as a Python engine: no sentence of the EU
    chapter says how a hand starts (TI4's note-1 does, and is charged there), so every
    scenario it trips ends error, no rule is flagged, and the run still fails."""
    code, report = run(pytester, engine_module, "deals_at_setup", "eu-pop")
    assert code == 1
    assert flagged(report) == set(), statuses(report)
    tripped = errored(report)
    assert tripped and all(s.get("uncharged") for s in tripped)
    assert all("charged to no rule (hands-as-set-up)" in s["message"] for s in tripped)


def test_an_action_no_sentence_governs_refused_charges_no_rule(pytester, engine_module):
    """EU's end of a Turn is 4.2's, a related chapter (governs.yaml: unstated): an engine
    refusing it breaks no sentence of chapter 6, so the scenarios that needed the next Turn
    (6.action-cards.2's, 6.2.display.4's) end error charged to no rule, not failed."""
    code, report = run(pytester, engine_module, "turns_never_end", "eu-pop")
    assert code == 1
    assert flagged(report) == set(), statuses(report)
    tripped = errored(report)
    assert tripped and all(s.get("uncharged") for s in tripped)
    assert all("which no sentence of the rules governs (a Turn passing to the next player is "
               "4.2's" in s["message"] for s in tripped), tripped[0]["message"]


def test_a_baseline_of_errors_charged_to_no_rule_holds(pytester, oracle, engine_module):
    """Issue 20 item 1's round trip with errors charged to no rule: ``expectations --from``
    lists each under its own rule, and the next run exits 0, under --strict-expectations
    too."""
    engine_module("outside", ENGINES)
    first = oracle("run", "--engine", "outside:turns_never_end", "--rule", "eu-pop")
    assert first.code == 1 and first.scenarios("error")
    (pytester.path / "first.json").write_text(json.dumps(first.report), encoding="utf-8")
    written = oracle("expectations", "--from", "first.json")
    assert written.code == 0, written.err
    (pytester.path / "known.yaml").write_text(written.out, encoding="utf-8")
    again = oracle("run", "--engine", "outside:turns_never_end", "--rule", "eu-pop",
                   "--expectations", "known.yaml", "--strict-expectations")
    assert again.code == 0, again.out[-2000:]
    assert len(again.scenarios("xfail")) == len(first.scenarios("error"))


# -- the declaration: governs.yaml -------------------------------------------------------------


def test_actions_are_named_by_type_and_answers_by_their_choice():
    assert action_key("politics_secondary", {"type": "politics_secondary"}) == \
        "politics_secondary"
    assert action_key("choose", {"choose": {"keep": ["A"]}, "player": "Alice"}) == "choose:keep"
    ti4 = GAMES["ti4"].governs
    assert ti4.rules("politics_secondary") == ("ti4:2.2",)
    assert ti4.rules("choose:keep")[0] == "ti4:2.4"
    assert ti4.rules("play") == ()  # a card played is its scenario's own subject
    assert "subject" in ti4.data["actions"]["play"] and "end_turn" in ti4.ungoverned


def test_a_refusal_is_charged_to_the_first_governing_rule_or_to_none_when_ungoverned():
    """``governing``, the one place a needed action's refusal (or error) is charged: to the
    first rule that governs it, to no rule with why when no sentence governs it, and not at
    all when a governing rule is the scenario's own or the game declares none."""
    from oracle.scenario.diagnosis import Blame, governing

    text = "Alice resolves the secondary ability of Politics"
    assert governing(text, "politics_secondary", ("ti4:2.2", "ti4:2.1"), {"ti4:2.5"}) == Blame(
        "ti4:2.2", "governs politics_secondary",
        f"'{text}', which ti4:2.2 governs, was refused")
    assert governing(text, "politics_secondary", ("ti4:2.2",), set(), error=True) == Blame(
        "ti4:2.2", "governs politics_secondary",
        f"'{text}', which ti4:2.2 governs, was answered with an error", True)
    assert governing(text, "politics_secondary", ("ti4:2.2",), {"ti4:2.2"}) is None
    assert governing(text, "play", (), set()) is None
    assert governing("Alice ends their turn", "end_turn", (), set(), error=True,
                     ungoverned="4.2's") == Blame(
        None, "ungoverned end_turn", "'Alice ends their turn', which no sentence of the rules "
        "governs (4.2's), was answered with an error")


def test_both_games_declarations_pass_their_checks():
    for game in GAMES.values():
        assert check_governs(game) == [], game.id


@pytest.fixture
def ti4_copy(tmp_path: Path):
    """TI4's manifest data with a copy of its governs.yaml in a scratch folder, to break."""
    game = GAMES["ti4"]
    shutil.copyfile(game.folder / "governs.yaml", tmp_path / "governs.yaml")
    return dataclasses.replace(game, folder=tmp_path,
                               catalog_file=str(game.folder / game.catalog_file))


def with_draw(game, entry: str) -> None:
    """The copy with ``draw:``'s entry replaced by ``entry`` (lines of YAML under it)."""
    path = game.folder / "governs.yaml"
    text = path.read_text(encoding="utf-8")
    start = text.index("  draw:\n")
    end = text.index("\n  reveal:")
    path.write_text(text[:start] + "  draw:\n" + entry + text[end:], encoding="utf-8")


def line_of(game, text: str) -> int:
    lines = (game.folder / "governs.yaml").read_text(encoding="utf-8").splitlines()
    return next(n for n, line in enumerate(lines, 1) if text in line)


@pytest.mark.parametrize("entry, at, says", [
    ("    - sentence: ti4:2.3#9", "ti4:2.3#9", "ti4:2.3#9 is no sentence of"),
    ("    - sentence: ti4:81.3#1", "ti4:81.3#1", "a sentence of a related chapter"),
    ("    - sentence: ti4:note-11#1", "ti4:note-11#1", "untestable"),
    ("    - sentence: ti4:2.3#1\n      quote: the bottom card", "the bottom card",
     "the quote 'the bottom card' is not in ti4:2.3#1"),
])
def test_a_wrong_governing_sentence_is_refused_with_its_line(ti4_copy, entry, at, says):
    with_draw(ti4_copy, entry)
    problems = check_governs(ti4_copy)
    assert len(problems) == 1 and problems[0].line == line_of(ti4_copy, at), problems
    assert says in problems[0].message


def test_every_action_type_is_listed_and_no_other(ti4_copy):
    """An action type left out would be charged to its scenario's rule without anyone
    deciding so; a misspelt one governs nothing."""
    path = ti4_copy.folder / "governs.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  trade:\n", "  trades:\n"), encoding="utf-8")
    problems = check_governs(ti4_copy)
    assert [p.line for p in problems] == [line_of(ti4_copy, "  trades:"),
                                          line_of(ti4_copy, "actions:")], problems
    assert "no action type 'trades'; did you mean 'trade'?" in problems[0].message
    assert "action(s) trade are not listed" in problems[1].message


def test_every_kind_of_answer_is_listed_and_no_other(ti4_copy):
    """The answers to decisions (``choose:KEY``, one per kind of the protocol's choice) are
    actions too: one left out would be charged to its scenario's rule unannounced."""
    path = ti4_copy.folder / "governs.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  choose:discard:\n", "  choose:discards:\n"),
                    encoding="utf-8")
    problems = check_governs(ti4_copy)
    assert [p.line for p in problems] == [line_of(ti4_copy, "  choose:discards:"),
                                          line_of(ti4_copy, "actions:")], problems
    assert ("no answer 'choose:discards'; did you mean 'choose:discard'?"
            in problems[0].message)
    assert "action(s) choose:discard are not listed" in problems[1].message


def test_a_misspelt_key_is_an_error_naming_the_line(ti4_copy):
    (ti4_copy.folder / "governs.yaml").write_text(
        "actions:\n  draw:\n    - sentence: ti4:2.3#1\nunstatd: {}\n", encoding="utf-8")
    with pytest.raises(CatalogFileError, match=r"governs.yaml:4: .*unstatd"):
        _ = ti4_copy.governs
