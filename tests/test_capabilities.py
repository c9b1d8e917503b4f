"""The capability map tells the truth: it is what a run decides, and docs/capabilities.md is it.

Why: an adapter writer declares capabilities from this map; a map that says a capability
unlocks rules a run then reports ``unsupported`` (or the reverse) sends them the wrong way.
So the map is checked against an actual run of an engine lacking a capability, and the
page against the command that generates it.
"""

from __future__ import annotations

import re
from pathlib import Path

import engine_sources
import pytest

from oracle.cli.capabilities import FIX, render_markdown
from oracle.mutants.harness import Case
from oracle.probe.capabilities import case_needs, family, game_map
from oracle.suite.games import discover_games

ROOT = Path(__file__).resolve().parent.parent
GAMES = discover_games()
TI4 = GAMES["ti4"]

def test_docs_capabilities_is_fresh() -> None:
    page = ROOT / "docs" / "capabilities.md"
    fresh = render_markdown([game_map(g) for g in GAMES.values()])
    assert page.read_text() == fresh, f"docs/capabilities.md is stale; regenerate it: {FIX}"


def test_a_capability_lists_the_steps_and_requests_it_gates() -> None:
    gates = game_map(TI4).gates
    assert gates["ti4/draw"].steps == {"When <player> draws <count> <deck> card(s)"}
    assert gates["ti4/draw"].requests == {"act draw"}
    assert gates["ti4/hand-limit"].requests == {"setup players[].hand_limit_modifier"}
    assert gates["ti4/politics"].needed_by == {"ti4:2.2"}
    # ending a turn and answering decisions need no capability: no gate lists them
    sent = set().union(*(g.requests for g in gates.values()))
    assert not sent & {"act end_turn", "choose"}


def test_a_card_class_is_needed_open_and_bound_to_a_card_the_engine_models() -> None:
    case = Case("ti4", "class", "test_class", ("ti4:2.6",), "x.feature:1", (
        ("given", "the players are Alice and Bob"),
        ("given", 'card A is any "Action" card'),
        ("when", "Alice plays card A")))
    assert case_needs(TI4, case) == ("ti4/card/any \"Action\" card", "ti4/play")
    # Sabotage is not an "Action" card (its window is another); Repeal Law is
    assert case_needs(TI4, case, frozenset({"ti4/play", "ti4/card/Sabotage",
                                            "ti4/card/Repeal Law"})) == (
        "ti4/card/Repeal Law", "ti4/play")
    assert "ti4/card/any \"Action\" card" in case_needs(
        TI4, case, frozenset({"ti4/play", "ti4/card/Sabotage"}))


def test_the_example_adapter_lists_what_it_lacks(oracle, monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT))
    run = oracle("capabilities", "--engine", "examples.python_adapter:factory")
    assert run.code == 0, run.err
    assert "eu-pop: not played" in run.out and "37 tested rules are unsupported" in run.out
    from oracle.games.ti4.engine import ReferenceEngine

    declared = len(ReferenceEngine().capabilities())
    assert f"ti4: declares {declared}" in run.out
    assert "lacks nothing the scenarios need" in run.out
    assert "declared, needed by no scenario: ti4/sabotage" in run.out


def _listed(out: str, capability: str) -> set[str]:
    """The rules the capabilities command says a missing capability leaves unsupported:
    the lines indented under the capability's own line."""
    lines = out.splitlines()
    first = next(i for i, line in enumerate(lines) if line.strip().startswith(f"{capability}:"))
    depth = len(lines[first]) - len(lines[first].lstrip())
    block = []
    for line in lines[first + 1:]:
        if not line.strip() or len(line) - len(line.lstrip()) <= depth:
            break
        block.append(line)
    text = "\n".join(block)
    assert "leaves unsupported:" in text, out
    return set(re.findall(r"ti4:[\w.-]+", text))


@pytest.mark.parametrize("lacking", [("ti4/card/Sabotage",), ("ti4/card/Sabotage", "ti4/draw")])
def test_the_map_names_exactly_the_rules_a_run_reports_unsupported(
        oracle, engine_module, lacking) -> None:
    engine_module("lacking", engine_sources.lacking(*lacking))
    told = oracle("capabilities", "--engine", "lacking:factory", "--game", "ti4")
    assert told.code == 0, told.err
    run = oracle("run", "--engine", "lacking:factory", "--rule", "ti4")
    reported = {r["id"] for r in run.report["rules"] if r["status"] == "unsupported"}
    assert reported, "the engine should lose some rule for lack of the capability"
    listed = {c: _listed(told.out, c) for c in lacking}
    assert set().union(*listed.values()) == reported
    assert f"{len(reported)} of 23 tested rules unsupported" in told.out
    if len(lacking) == 1:
        assert listed[lacking[0]] == reported
        assert f"    {lacking[0]}: unlocks {len(reported)}," in told.out
    for rule in run.report["rules"]:  # each is unsupported for a capability the map names
        if rule["status"] == "unsupported":
            assert any(rule["id"] in listed[c] and c in rule["reason"] for c in lacking)
    # The Markdown form says the same: a row per missing capability, with the rules it leaves
    # unsupported, and a row per unsupported rule.
    md = oracle("capabilities", "--engine", "lacking:factory", "--game", "ti4", "--markdown")
    assert md.code == 0, md.err
    rows = {cells[0].strip("` "): cells for line in md.out.splitlines()
            if line.startswith("| ") and len(cells := line.strip("| ").split(" | ")) >= 2}
    for capability in lacking:
        assert set(re.findall(r"ti4:[\w.-]+", rows[capability][-1])) == listed[capability]
    assert {r for r in rows if r.startswith("ti4:")} == reported
    assert f"{len(reported)} of 23 tested rules unsupported." in md.out


def _protocol_table() -> set[str]:
    """The capabilities docs/protocol.md's table says some step needs, as families."""
    text = (ROOT / "docs" / "protocol.md").read_text()
    section = text.split("## Capabilities", 1)[1].split("\n## ", 1)[0]
    found = set()
    for row in re.findall(r"^\| (`[^|]+) \| ([^|]+) \|", section, re.M):
        if "nothing today" not in row[1]:
            found |= {family(c) for c in re.findall(r"`([^`]+)`", row[0])}
    return found


def test_the_protocol_pages_table_names_every_capability_the_map_finds() -> None:
    """The hand-written short table in docs/protocol.md neither misses a capability some
    step needs nor lists one no step needs (``GAME/x``: some game's ``x``)."""
    maps = [game_map(g, record_requests=False) for g in GAMES.values()]
    found = {family(c) for m in maps for c in m.gates}
    generic = {c.split("/", 1)[1] for c in found}
    table = _protocol_table()
    undocumented = {c for c in found
                    if c not in table and f"GAME/{c.split('/', 1)[1]}" not in table}
    unknown = {c for c in table if c not in found
               and not (c.startswith("GAME/") and c.split("/", 1)[1] in generic)}
    assert not undocumented and not unknown, (undocumented, unknown)


@pytest.mark.parametrize("args, says", [
    (("--game", "chess"), "--game chess: no such game (games: eu-pop, ti4)"),
    (("--engine", "nonsense"), "is not an engine spec"),
])
def test_bad_options_are_a_usage_error_saying_what_to_do(oracle, args, says) -> None:
    run = oracle("capabilities", *args)
    assert run.code == 2 and says in run.err, run.err


def test_a_scenario_whose_setup_sends_a_key_the_engine_refuses_is_not_counted_runnable(
        oracle, engine_module) -> None:
    """Why: 'eu-pop: 212 of 212 scenarios have all they need' for an engine that refused the
    EU 'window' key and so answered unsupported to 154 of them. The key is tried (as smoke
    does) and the scenarios that send it are counted, and the rules they leave, as a run
    reports them."""
    from oracle.probe.sent import sent
    from oracle.suite.games import discover_games

    runs = sent(discover_games()["eu-pop"])
    without = sum("window" not in r.paths for r in runs)
    assert 0 < without < len(runs)
    engine_module("refusing", engine_sources.refusing_key("window"))
    told = oracle("capabilities", "--engine", "refusing:factory", "--game", "eu-pop")
    assert told.code == 0, told.err
    assert f"{without} of {len(runs)} scenarios have all they need" in told.out
    assert "refuses setup keys its scenarios send" in told.out
    assert "window: unsupported: unknown state key window" in told.out
    listed = set(re.findall(r"eu-pop:[\w.-]+", told.out.split("setup key 'window' (refused)",
                                                              1)[1].split("\n  the fewest", 1)[0]))
    run = oracle("run", "--engine", "refusing:factory", "--rule", "eu-pop")
    reported = {r["id"] for r in run.report["rules"] if r["status"] == "unsupported"}
    assert reported and listed == reported
    ran = [s for r in run.report["rules"] for s in r["scenarios"] if s["status"] != "unsupported"]
    assert len({(s["location"], s["name"]) for s in ran}) == without
    # An engine that takes every key is told so.
    told = oracle("capabilities", "--engine", "reference", "--game", "eu-pop")
    assert "takes every setup key its scenarios send" in told.out


def predicted(text: str) -> tuple[int, set[str]]:
    """From ``capabilities --engine``'s text: the scenarios that have all they need, and the
    rules it says are unsupported (its list of the fewest declarations each needs)."""
    found = re.search(r"(\d+) of \d+ scenarios have all they need", text)
    assert found, text
    fewest = text.partition("the fewest declarations that would get each unsupported rule "
                            "tested:")[2]
    return int(found.group(1)), set(re.findall(r"^    ([\w-]+:[\w.-]+)  ", fewest, re.M))


@pytest.mark.parametrize("spec, game", [
    # refuses (unsupported) a setup holding a card it does not declare: the trial states
    # held such cards, and their refusal was blamed on the keys tried
    ("eu_partial_engines:strict_one_per_class", "eu-pop"),
    # refuses a setup with a draw pile: no key, no declaration says so
    ("styles.resolve_on_play:factory", "ti4"),
    ("styles.partial_cards:factory", "ti4"),
])
def test_what_capabilities_predicts_is_what_a_run_does(oracle, spec, game) -> None:
    """Why: on an engine refusing cards it does not declare, capabilities --engine predicted
    14 of 216 scenarios runnable and the run had 110. Now the prediction replays each
    scenario's requests as a run on that engine sends them (tests/test_node_eu_engine.py
    compares them on that engine too)."""
    told = oracle("capabilities", "--engine", spec, "--game", game)
    assert told.code == 0, told.err
    runnable, unsupported = predicted(told.out)
    run = oracle("run", "--engine", spec, "--rule", game)
    ran = {(s["location"], s["name"]) for s in run.scenarios() if s["status"] != "unsupported"}
    assert runnable == len(ran), told.out
    assert unsupported == {r["id"] for r in run.report["rules"]
                           if r["status"] == "unsupported"}, told.out


def test_a_declared_card_the_game_does_not_have_is_named_and_gates_nothing(
        oracle, engine_module) -> None:
    """Why: an engine declaring eu-pop/card/any reaction card (a class, as the capability
    column of docs/capabilities.md showed) instead of Court Intrigue was told '110 of 216
    scenarios have all they need' and nothing about the class, while its run left the
    Reaction rules unsupported."""
    engine_module("literal", '''
from oracle.games.eu_pop.engine import ReferenceEngine

class Literal(ReferenceEngine):
    def modelled_cards(self):
        return [c for c in super().modelled_cards() if c != "Court Intrigue"]

    def handle(self, request):
        reply = super().handle(request)
        if request["op"] == "describe":
            reply["engine"]["capabilities"] += ["eu-pop/card/any reaction card",
                                                "eu-pop/card/Nonexistent Card"]
        return reply
''')
    told = oracle("capabilities", "--engine", "literal:Literal", "--game", "eu-pop")
    assert told.code == 0, told.err
    said = " ".join(told.out.split())
    assert ("declared, but eu-pop/card/any reaction card: no such card in eu-pop: 'any "
            "reaction card' is a card class, not a card; declare eu-pop/card/NAME for each card "
            "of it the engine models (its cards: Court Intrigue)") in said, told.out
    assert "declared, but eu-pop/card/Nonexistent Card: no such card in eu-pop" in said
    assert ("eu-pop/card/any reaction card (a class: declare one of its cards: Court "
            "Intrigue): unlocks") in said
    runnable, unsupported = predicted(told.out)
    run = oracle("run", "--engine", "literal:Literal", "--rule", "eu-pop")
    ran = {(s["location"], s["name"]) for s in run.scenarios() if s["status"] != "unsupported"}
    assert (runnable, unsupported) == (len(ran), {
        r["id"] for r in run.report["rules"] if r["status"] == "unsupported"})
    assert "eu-pop:6.2.reactions.1" in unsupported


def test_docs_capabilities_shows_cards_where_a_card_goes_and_each_class_with_its_cards() -> None:
    """A capability cell names a card (or NAME); a class is shown apart, with its cards."""
    page = (ROOT / "docs" / "capabilities.md").read_text()
    cells = re.findall(r"^\| `([\w-]+)/card/([^`]+)`", page, re.M)
    assert cells
    for game, card in cells:
        names = {f["name"] for facts in GAMES[game].cards.values() for f in facts}
        assert card == "NAME" or card in names, f"{game}/card/{card} is no card"
    assert "| any reaction card | Court Intrigue |" in page
