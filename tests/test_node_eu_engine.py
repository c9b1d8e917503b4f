"""The clean-room EU engine (tests/styles/node_eu): written in Node.js by an outside developer
from the published pages alone, tested over the pipe as its author did.

- its card facts are ``rules-oracle cards --game eu-pop --json``, up to date;
- ``rules-oracle run`` over the pipe holds it to the verdicts its author got: the rules it
  models pass, every other testable rule is unsupported (it lacks Display Cards and
  Battles), nothing fails;
- one slip, one rule: each of its author's broken copies (``variants.py``, text
  substitutions of the engine) is flagged on exactly the rules its slip breaks. All copies
  run in one Node process (``host.js``), each only on the scenarios that reach the text its
  slip replaces (V8 block coverage of the engine); every other scenario keeps the engine's
  outcome.

Skipped where ``node`` is not installed.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from styles.node_eu.host import Host, at_top_level, reaches, utf16_span
from styles.node_eu.variants import FILES, HERE, VARIANTS, write_variant

from oracle.engines import EngineClient
from oracle.mutants.harness import Outcome, flagged_rules, game_cases, rule_statuses, run_case
from oracle.report.model import Status
from oracle.suite.games import discover_games

NODE = shutil.which("node")
EU = discover_games()["eu-pop"]
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (shutil.which)")

#: The rules the engine's author saw pass: those whose scenarios need only what the engine
#: models (drawing, hands, the hand limit, playing for the Action, costs, Appoint,
#: Counterespionage and Court Intrigue). Every other testable rule needs a Display Card or a
#: Battle, which it does not model.
PASSING = {f"eu-pop:{r}" for r in (
    "6.action-cards.2", "6.action-cards.3", "6.action-cards.4", "6.action-cards.5",
    "6.action-cards.6", "6.action-cards.7", "6.action-cards.8", "6.characters.1",
    "6.characters.2", "6.cards-in-hand.1", "6.cards-in-hand.2", "6.decks.1", "6.decks.2",
    "6.decks.3", "6.decks.4", "6.decks.5", "6.2.reactions.1", "6.2.covert.2", "6.2.covert.3",
    "4.5.c.1", "4.5.c.2")}


def node_command(adapter: Path) -> str:
    return f"cmd:{shlex.quote(str(NODE))} {shlex.quote(str(adapter))}"


def test_cards_json_is_the_games_card_facts(capsys):
    from oracle.cli import main

    assert main(["cards", "--game", "eu-pop", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert json.loads((HERE / "cards.json").read_text(encoding="utf-8")) == printed, (
        "tests/styles/node_eu/cards.json is stale: rules-oracle cards --game eu-pop --json > "
        "tests/styles/node_eu/cards.json")


@needs_node
def test_the_engine_passes_what_it_models_and_nothing_fails(oracle):
    run = oracle("run", "--strict-protocol", "--engine", node_command(HERE / "adapter.js"),
                 "--rule", "eu-pop")
    assert run.report is not None, run.out + run.err
    statuses = {r["id"]: r["status"] for r in run.report["rules"]}
    assert list(statuses) == EU.catalog.ids()
    assert {r for r, s in statuses.items() if s == "pass"} == PASSING, run.out[-3000:]
    testable = {r.id for r in EU.catalog.rules if r.testable}
    for rule, status in statuses.items():
        if rule not in PASSING:
            assert status == ("unsupported" if rule in testable else "untestable"), (rule, status)
    # what it lacks is said: a card it does not model, before anything is sent
    unsupported = run.scenarios("unsupported")
    assert unsupported and all("the engine models no such card" in s["message"]
                               or "does not declare" in s["message"] for s in unsupported)
    assert run.code == 0, run.out + run.err


# -- one slip, one rule ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    """The engine and every variant in one ``host.js`` process, and every scenario run on
    the engine with the code each one ran: (host, outcomes by test name, coverage by test
    name, the coverage of loading)."""
    folder = tmp_path_factory.mktemp("node_eu")
    adapters = {"base": HERE / "adapter.js"}
    adapters.update({v.name: write_variant(v.name, folder / v.name) for v in VARIANTS})
    host = Host(str(NODE), adapters)
    client = EngineClient(host, "clean-room EU engine, traced")
    files = [HERE / f for f in FILES[:2]]
    loading = host.coverage(files)
    outcomes, ran = {}, {}
    for case in game_cases(EU):
        outcomes[case.test_name] = run_case(EU, case, client)
        ran[case.test_name] = host.coverage(files)
    yield host, outcomes, ran, loading, adapters
    client.close()


def reaching(variant, ran, loading) -> set[str]:
    """The scenarios (test names) that run the text one of the variant's edits replaces."""
    found: set[str] = set()
    for file, text, _ in variant.edits:
        start, end = utf16_span((HERE / file).read_text(encoding="utf-8"), text)
        if at_top_level(loading[HERE / file], start):
            return set(ran)
        found |= {name for name, files in ran.items() if reaches(files[HERE / file], start, end)}
    return found


@needs_node
@pytest.mark.parametrize("variant", [
    pytest.param(v, id=v.name,
                 marks=[pytest.mark.xfail(strict=True, reason=v.known)] if v.known else [])
    for v in VARIANTS])
def test_one_slip_one_rule(variant, copies):
    host, base, ran, loading, _ = copies
    reached = reaching(variant, ran, loading)
    assert reached, f"no scenario runs the text {variant.name} replaces: it proves nothing"
    host.use(variant.name)
    client = EngineClient(host, f"clean-room EU engine, {variant.name}")
    try:
        outcomes: list[Outcome] = [
            run_case(EU, case, client) if case.test_name in reached else base[case.test_name]
            for case in game_cases(EU)]
    finally:
        host.use("base")
    flagged, _blocked = flagged_rules(outcomes)
    failing = "\n".join(f"  {o.status.value} {o.case.rules} {o.case.name}: {o.message[:300]}"
                        for o in outcomes if o.status.value in ("fail", "error"))
    assert set(flagged) == variant.rules, (
        f"{variant.name} ({variant.slip}) flags {sorted(flagged)}, not "
        f"{sorted(variant.rules)}:\n{failing}")


@needs_node
def test_smoke_and_capabilities_on_an_adapter_refusing_cards_it_does_not_declare(
        oracle, copies):
    """Why (the outside developer's bugs A and B): smoke's trial states held cards the engine
    does not declare (Royal Manufactory, Combined Arms), so an adapter refusing them, as
    docs/protocol.md allows, was warned of refusing 'active_player', 'phase' and 'window',
    and capabilities --engine predicted 14 of 216 scenarios runnable where a run has 110."""
    from test_capabilities import predicted

    host, _, _, _, adapters = copies
    engine = node_command(adapters["strict_cards"])
    smoke = oracle("smoke", "--engine", engine)
    assert smoke.code == 0 and "\nwarn" not in smoke.out, smoke.out
    assert smoke.out.rstrip().endswith("checks, all ok"), smoke.out
    told = oracle("capabilities", "--engine", engine, "--game", "eu-pop")
    assert told.code == 0, told.err
    runnable, unsupported = predicted(told.out)
    host.use("strict_cards")
    try:
        client = EngineClient(host, "clean-room EU engine, strict_cards")
        outcomes = [run_case(EU, case, client) for case in game_cases(EU)]
    finally:
        host.use("base")
    assert runnable == sum(o.status != Status.UNSUPPORTED for o in outcomes), told.out
    assert unsupported == {r for r, s in rule_statuses(outcomes).items()
                           if s == Status.UNSUPPORTED}, told.out


@needs_node
def test_differential_exploration_finds_it_agreeing_with_the_reference(oracle):
    """The engine follows the rules as the reference does, its choices aside: differential
    exploration over the pipe plays hundreds of moves and finds no disagreement. Before, its
    games ended at the first view (a setup's shuffle in its own order; then its turn counter
    starting at 1), and its Step C keep of 6 cited 4.5.c.1 where the reference cited 4.5.c.2."""
    # 100 games: a game ends where the two generators shuffle (a deck the setup leaves out,
    # drawn from), and the EU scenes leave most decks out.
    run = oracle("explore", "--engine", "reference", "--engine",
                 node_command(HERE / "adapter.js"), "--game", "eu-pop", "--budget", "100",
                 report=False)
    assert run.code == 0, run.out[-3000:]
    moves = int(run.out.split(" agree: ", 1)[1].split(" moves", 1)[0].replace(",", ""))
    assert moves > 200, run.out
