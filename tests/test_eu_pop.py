"""The second game, Europa Universalis: The Price of Power "6. Action Cards", from the outside.

Why these tests: the EU catalog's ids are our own (the chapter numbers nothing), so they must
be reproduced exactly by the importer and refuse a changed source loudly; the reference engine
must be right through ``handle()`` alone, as every engine is seen; it must pass every EU id
through the real CLI; and each EU mutant must be flagged on exactly the ids it declares,
which is the proof that the EU scenarios can fail.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from oracle.games.eu_pop import importer
from oracle.games.eu_pop.cards import CardDataError, load_card_facts, parse_cards
from oracle.games.eu_pop.engine import ReferenceEngine, factory
from oracle.games.eu_pop.importer import CatalogError
from oracle.games.eu_pop.mutants import ALL as MUTANTS
from oracle.steps.eu_pop import parse_dice
from oracle.suite.games import discover_games
from oracle.suite.lint import check_suite

JSON = dict[str, Any]
REPO = Path(__file__).resolve().parents[1]
CATALOG_PATH = REPO / "features" / "eu-pop" / "catalog.yaml"
CARDS_PATH = REPO / "features" / "eu-pop" / "cards.yaml"

#: The ids scenarios and reports cite. They may grow; an existing one never changes.
EXPECTED_IDS = [
    *(f"6.action-cards.{n}" for n in range(1, 9)),
    "6.characters.1", "6.characters.2", "6.characters.3",
    "6.cards-in-hand.1", "6.cards-in-hand.2",
    *(f"6.decks.{n}" for n in range(1, 6)),
    "6.1.administrative.1", "6.1.diplomatic.1", "6.1.diplomatic.2", "6.1.diplomatic.3",
    "6.1.military.1", "6.1.military.2",
    *(f"6.2.display.{n}" for n in range(1, 11)),
    *(f"6.2.battle.{n}" for n in range(1, 7)),
    "6.2.reactions.1",
    *(f"6.2.covert.{n}" for n in range(1, 5)),
    "4.5.c.1", "4.5.c.2", "4.5.c.3",
]
UNTESTABLE = {
    "6.action-cards.1", "6.characters.3", "6.1.administrative.1", "6.1.diplomatic.1",
    "6.1.diplomatic.2", "6.1.diplomatic.3", "6.1.military.1", "6.1.military.2",
    "6.2.display.1", "6.2.display.3", "6.2.covert.1",
}

needs_sources = pytest.mark.skipif(
    not (importer.DEFAULT_SOURCES / importer.CHAPTER).exists(),
    reason=f"rule sources not found at {importer.DEFAULT_SOURCES} (../shared/sources)",
)


@pytest.fixture(scope="module")
def catalog() -> dict[str, Any]:
    return yaml.safe_load(CATALOG_PATH.read_text(encoding="utf-8"))


# -- the catalog and its importer ------------------------------------------------------------


@needs_sources
def test_rerunning_the_importer_reproduces_the_committed_catalog() -> None:
    built = importer.render(importer.build_catalog(importer.DEFAULT_SOURCES))
    assert built == CATALOG_PATH.read_text(encoding="utf-8"), (
        "features/eu-pop/catalog.yaml is stale: run python -m oracle.games.eu_pop.importer")
    assert importer.main(["--check"]) == 0


def test_the_ids_are_the_agreed_stable_ones(catalog: dict[str, Any]) -> None:
    ids = [rule["id"] for rule in catalog["rules"]]
    assert ids == EXPECTED_IDS
    assert {r["id"] for r in catalog["rules"] if not r["testable"]} == UNTESTABLE
    for rule in catalog["rules"]:
        assert rule["text"] and rule["source"].startswith("eu-pop/")
        if not rule["testable"]:
            assert rule["untestable_reason"]


def test_every_rule_records_its_exact_sentence_and_heading(catalog: dict[str, Any]) -> None:
    by_id = {r["id"]: r for r in catalog["rules"]}
    limit = by_id["6.cards-in-hand.2"]
    assert limit["text"] == ("The hand size limit for Action Cards is 5, but this is only "
                             "checked in Phase 5, Step C.")
    assert limit["source"] == ("eu-pop/action-cards.rulebook.en.wiki:22 > 6. Action Cards > "
                               "Cards in Hand")
    assert by_id["4.5.c.3"]["source"].startswith("eu-pop/related/4-5-phase-5-cleanup.md:32 > ")
    assert by_id["6.2.display.2"]["text"].startswith(
        "They act differently from other Action Cards in that they are placed face-up")


def test_the_table_refuses_an_id_that_is_not_its_headings_prefix_and_counter() -> None:
    bad = (importer.Section(importer.CHAPTER, ("X",), "6.x",
                            (importer.Statement("6.y.1", "Something"),)),)
    with pytest.raises(CatalogError, match=r"6\.x\.N"):
        importer.check_table(bad)
    same = (importer.Statement("6.x.1", "A"), importer.Statement("6.x.1", "B"))
    twice = (importer.Section(importer.CHAPTER, ("X",), "6.x", same),)
    with pytest.raises(CatalogError, match="two sentences"):
        importer.check_table(twice)


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    """A writable copy of the sources (the originals are read-only and must stay so)."""
    if not (importer.DEFAULT_SOURCES / importer.CHAPTER).exists():
        pytest.skip(f"rule sources not found at {importer.DEFAULT_SOURCES}")
    root = tmp_path / "sources"
    for rel in dict.fromkeys((*(rel for rel, _ in importer.SOURCES),
                              *importer.related_files(importer.DEFAULT_SOURCES))):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(importer.DEFAULT_SOURCES / rel, root / rel)
    return root


def edit(root: Path, rel: str, old: str, new: str) -> None:
    """Replace exactly one occurrence, so a test cannot pass because its edit missed."""
    path = root / rel
    path.chmod(0o644)
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {rel}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_a_new_sentence_is_an_error_naming_its_line(sources: Path) -> None:
    edit(sources, importer.CHAPTER, "The discard piles are public information.",
         "The discard piles are public information. Decks are never searched.")
    with pytest.raises(CatalogError) as caught:
        importer.build_catalog(sources)
    assert (caught.value.path, caught.value.line) == (importer.CHAPTER, 26)
    assert "Decks are never searched." in str(caught.value) and "6.decks" in str(caught.value)


def test_a_removed_sentence_is_an_error_naming_its_id(sources: Path) -> None:
    edit(sources, importer.CHAPTER, " The discard piles are public information.", "")
    with pytest.raises(CatalogError) as caught:
        importer.build_catalog(sources)
    assert caught.value.item_id == "6.decks.3"
    assert caught.value.line == 26


def test_a_sentence_under_an_unknown_heading_is_an_error(sources: Path) -> None:
    edit(sources, importer.CHAPTER, "=== Cards in Hand ===", "=== Cards Held ===")
    with pytest.raises(CatalogError, match="Cards Held") as caught:
        importer.build_catalog(sources)
    assert caught.value.line == 20


def test_a_related_chapter_contributes_only_its_listed_heading(sources: Path) -> None:
    edit(sources, importer.CLEANUP, "If it is the end of an Age", "When it is the end of an Age")
    ids = [r["id"] for r in importer.build_catalog(sources)["rules"]]
    assert ids == EXPECTED_IDS


def test_each_statement_is_its_sentences_split_only_by_the_clause_table(
        catalog: dict[str, Any]) -> None:
    split = {r["id"]: [s["text"] for s in r["sentences"]] for r in catalog["rules"]
             if len(r["sentences"]) > 1}
    assert sorted(split) == sorted(c.owner for c in importer.CLAUSES)
    assert split["6.2.covert.3"] == ["If a card is countered, it is discarded",
                                     "and its cost must still be paid."]
    for rule in catalog["rules"]:
        assert " ".join(s["text"] for s in rule["sentences"]) == rule["text"]
        assert {s["line"] for s in rule["sentences"]} == {
            int(rule["source"].split(" > ")[0].rpartition(":")[2])}
    waived = {f"{r['id']}#{s['n']}" for r in catalog["rules"] for s in r["sentences"]
              if "waiver" in s}
    assert waived == {"6.action-cards.3#1", "6.2.battle.2#1"}


def test_a_changed_statement_gets_a_new_anchor_and_keeps_the_others(
        sources: Path, tmp_path: Path) -> None:
    previous = tmp_path / "catalog.yaml"
    previous.write_bytes(CATALOG_PATH.read_bytes())
    edit(sources, importer.CHAPTER, "let them remain as a discard pile",
         "let them remain in a discard pile")
    built = importer.build_catalog(sources, previous)
    by_id = {r["id"]: r for r in built["rules"]}
    assert [s["n"] for s in by_id["6.decks.4"]["sentences"]] == [2]
    assert by_id["6.decks.4"]["retired"][0]["n"] == 1
    before = yaml.safe_load(CATALOG_PATH.read_text(encoding="utf-8"))
    assert [r for r in built["rules"] if r["id"] != "6.decks.4"] == [
        r for r in before["rules"] if r["id"] != "6.decks.4"]


def test_the_related_chapters_are_context_in_the_rulebook_numbering(
        catalog: dict[str, Any]) -> None:
    assert [c["id"] for c in catalog["context"]] == [
        "3.0", "4.0", "4.1", "4.2", "4.5", "5.0", "5.2", "5.4", "9.0a"]
    related = sorted(importer.related_files(importer.DEFAULT_SOURCES))
    assert sorted(s["path"] for s in catalog["sources"] if s["path"] in related) == related
    items = {i["id"]: i for c in catalog["context"] for i in c["items"]}
    assert items["4.1.b"]["sentences"][0]["text"].startswith("Going in Turn order, each player")
    assert items["4.2.taking-a-turn"]["heading"] == "Taking a Turn"
    assert items["4.2"]["sentences"][0]["text"].startswith(
        "In this phase players take Turns in clockwise order")
    battle = items["9.6.2"]
    assert (battle["label"], battle["parent"], battle["line"]) == ("Play Battle Actions", "9.6",
                                                                   249)
    assert battle["sentences"] == [{"n": 1, "text": "Attacker first, then defender.",
                                    "line": 249}]
    assert items["9.6.4"]["text"] == "Assign Casualties" and "label" not in items["9.6.4"]
    assert items["4.5.a.2"]["parent"] == "4.5.a"
    assert items["4.0.3"]["sentences"][0]["text"] == "A. Remove Casus Belli and Truces"
    assert "Remove any `z` from their Changed Nat. Focus slot" in items["4.5.a.6"]["text"]
    assert items["9.7"]["sentences"][4]["text"].startswith("* No Battle is triggered")
    assert items["4.2.passing"]["sentences"][-1]["text"] == "4th to Pass: | – | – | 1`D`"
    assert items["4.2.basic-actions"]["sentences"][1]["text"] == "Event (mandatory)"
    # Phase 5 Step C is imported as rules: never as context too
    assert not [i for i in items if i.startswith("4.5.c")]
    rules = {r["text"] for r in catalog["rules"]}
    assert not [s for i in items.values() for s in i["sentences"] if s["text"] in rules]
    ids = list(items)
    assert len(ids) == sum(len(c["items"]) for c in catalog["context"])
    assert not set(ids) & {r["id"] for r in catalog["rules"]}


def test_a_related_heading_the_rules_do_not_import_is_context(sources: Path) -> None:
    edit(sources, importer.CLEANUP, "If it is the end of an Age", "When it is the end of an Age")
    built = importer.build_catalog(sources)
    (end_of_age,) = [i for c in built["context"] for i in c["items"] if i["id"] == "4.5.d"]
    assert [(s["n"], s["text"][:30]) for s in end_of_age["sentences"]] == [
        (2, "When it is the end of an Age, ")]
    assert end_of_age["retired"][0]["n"] == 1


def test_sentences_split_at_ends_only() -> None:
    assert importer.split_sentences("Take it (see p. 13) now. See more in section 7.2.") == [
        "Take it (see p. 13) now.", "See more in section 7.2."]
    assert importer.render_inline("'''''Appoint''''' a <code>d</code> and <code></code>x") == (
        "Appoint a `d` and x")


# -- the card facts ----------------------------------------------------------------------------


def test_the_card_facts_are_illustrative_and_cover_every_class_the_rules_name() -> None:
    text = CARDS_PATH.read_text(encoding="utf-8")
    assert "ILLUSTRATIVE" in text and yaml.safe_load(text)["illustrative"] is True
    facts = load_card_facts()
    assert {f.deck for f in facts} == {"administrative", "diplomatic", "military"}
    kinds = Counter(k for f in facts for k in f.kinds)
    assert all(kinds[k] for k in ("action", "display", "battle_action", "reaction", "covert"))
    names = {f.name for f in facts}
    assert {"Spy Network", "Counterespionage"} <= names
    actions = [a for f in facts for a in f.actions]
    assert any(a.uses > 1 for a in actions) and any("covert" in a.kinds for a in actions)
    assert any("?" in f.dice for f in facts) and any(f.ducats for f in facts)
    assert {f.character for f in facts} == {"leader", "advisor"}


def test_malformed_card_facts_are_refused_with_the_card() -> None:
    data = yaml.safe_load(CARDS_PATH.read_text(encoding="utf-8"))
    data["decks"]["military"][0]["kinds"] = ["spell"]
    with pytest.raises(CardDataError, match="Forced March"):
        parse_cards(data)


def test_dice_phrases() -> None:
    assert parse_dice("a cavalry die and 2 artillery dice") == (
        Counter({"cavalry": 1, "artillery": 2}), 0)
    assert parse_dice("no dice") == (Counter(), 0)
    assert parse_dice("3 dice") == (Counter(), 3)


# -- the reference engine, through handle() only --------------------------------------------


def setup(state: JSON, seed: int = 1) -> ReferenceEngine:
    engine = factory()
    reply = engine.handle({"op": "setup", "game": "eu-pop", "seed": seed, "state": state})
    assert reply == {"reply": "ready"}, reply
    return engine


def players(*names: str, **hands: list[str]) -> list[JSON]:
    return [{"name": n, "hand": list(hands.get(n, []))} for n in names or ("Alice", "Bob")]


def act(engine: ReferenceEngine, **action: Any) -> JSON:
    return engine.handle({"op": "act", "action": action})


def view(engine: ReferenceEngine, viewer: str | None = "*") -> JSON:
    reply = engine.handle({"op": "observe", "viewer": viewer})
    assert reply["reply"] == "view", reply
    return reply["view"]


def test_describe_names_the_game_and_its_capabilities() -> None:
    reply = factory().handle({"op": "describe"})
    assert reply["reply"] == "described"
    engine = reply["engine"]
    assert engine["games"][0]["game"] == "eu-pop" and engine["protocol"] == 1
    assert {"eu-pop/draw", "eu-pop/play", "eu-pop/display", "eu-pop/battle",
            "eu-pop/card/Counterespionage"} <= set(engine["capabilities"])


def test_a_new_game_has_default_power_ducats_and_three_full_decks() -> None:
    engine = setup({"players": [{"name": "Alice"}, {"name": "Bob"}]})
    table = view(engine)
    assert table["players"]["Alice"]["power"] == {
        "administrative": 3, "diplomatic": 3, "military": 3}
    assert table["players"]["Alice"]["ducats"] == 15
    assert table["players"]["Alice"]["hand"] == {"count": 0, "cards": []}
    for deck in ("administrative", "diplomatic", "military"):
        expected = sum(f.count for f in load_card_facts() if f.deck == deck)
        assert table["decks"][deck]["draw"]["count"] == expected
        assert table["decks"][deck]["discard"] == []


@pytest.mark.parametrize("request_, kind", [
    ({"op": "teleport"}, "errored"),
    ("not a dict", "errored"),
    ({"op": "setup", "game": "ti4", "seed": 1, "state": {"players": [{"name": "A"}]}},
     "unsupported"),
    ({"op": "setup", "game": "eu-pop", "seed": 1,
      "state": {"players": [{"name": "A", "hand": ["Nonsense"]}]}}, "errored"),
    ({"op": "setup", "game": "eu-pop", "seed": 1,
      "state": {"players": [{"name": "A", "display": [{"card": "Royal Decree"}]}]}}, "errored"),
    ({"op": "act", "action": {"type": "draw", "player": "A", "deck": "military", "count": 1}},
     "errored"),
])
def test_handle_never_raises(request_: Any, kind: str) -> None:
    assert factory().handle(request_)["reply"] == kind


def test_unknown_action_types_are_unsupported_and_bad_fields_errored() -> None:
    engine = setup({"players": players()})
    assert act(engine, type="reveal", player="Alice", cards=[])["reply"] == "unsupported"
    assert act(engine, type="draw", player="Alice", deck="events", count=1)["reply"] == "errored"
    assert act(engine, type="draw", player="Zed", deck="military", count=1)["reply"] == "errored"


def test_a_rejected_action_changes_nothing() -> None:
    engine = setup({"players": [
        {"name": "Alice", "hand": ["Royal Marriage"], "power": {"diplomatic": 1}},
        {"name": "Bob", "hand": []}], "phase": "action", "active_player": "Alice"})
    before = view(engine)
    reply = act(engine, type="play", player="Alice", card="Royal Marriage")
    assert reply["reply"] == "rejected" and reply["rule"] == "eu-pop:6.action-cards.3"
    assert view(engine) == before


def test_hands_are_hidden_per_viewer_while_sizes_and_discards_are_public() -> None:
    engine = setup({"players": players(Alice=["Royal Decree", "Secret Treaty"]),
                    "decks": {"military": {"draw": [], "discard": ["Volley Fire"]}}})
    for viewer in ("Bob", None):
        alice = view(engine, viewer)["players"]["Alice"]["hand"]
        assert alice == {"count": 2, "cards": []}
        assert view(engine, viewer)["decks"]["military"]["discard"] == ["Volley Fire"]
        assert "cards" not in view(engine, viewer)["decks"]["military"]["draw"]
    assert view(engine, "Alice")["players"]["Alice"]["hand"]["cards"] == [
        "Royal Decree", "Secret Treaty"]


def test_the_rebuild_leaves_the_top_five_and_is_seeded() -> None:
    discard = ["Forced March", "Combined Arms", "Bold Gambit", "Forced March", "Volley Fire",
               "Volley Fire", "Combined Arms", "Bold Gambit"]
    state = {"players": players(), "decks": {"military": {"draw": [], "discard": discard}}}
    drawn = []
    for _ in range(2):
        engine = setup(state, seed=7)
        assert act(engine, type="draw", player="Alice", deck="military", count=1)["reply"] == (
            "accepted")
        table = view(engine)
        assert table["decks"]["military"]["discard"] == discard[:5]
        assert table["decks"]["military"]["draw"]["count"] == 2
        drawn.append(table["players"]["Alice"]["hand"]["cards"])
    assert drawn[0] == drawn[1]


def test_step_c_asks_every_player_over_five_and_keeps_their_choice() -> None:
    hand = ["Royal Decree", "Tax Reform", "Secret Treaty", "Forced March", "Volley Fire",
            "Royal Marriage"]
    engine = setup({"players": players(Alice=hand, Bob=hand[:5]), "phase": "cleanup"})
    assert act(engine, type="draw", player="Bob", deck="military", count=1)["reply"] == "accepted"
    assert view(engine)["pending"] == []
    assert act(engine, type="discard_down")["reply"] == "accepted"
    pending = view(engine)["pending"]
    assert {(p["player"], p["decision"], p["count"]) for p in pending} == {
        ("Alice", "keep", 5), ("Bob", "keep", 5)}
    keep = hand[1:]
    assert engine.handle({"op": "choose", "player": "Alice", "choice": {"keep": keep}})[
        "reply"] == "accepted"
    table = view(engine)
    assert table["players"]["Alice"]["hand"]["cards"] == keep
    assert table["decks"]["administrative"]["discard"] == ["Royal Decree"]


def test_a_display_card_is_charged_used_and_discarded_at_zero() -> None:
    engine = setup({"players": [{"name": "Alice", "hand": ["Royal Manufactory"],
                                 "power": {"administrative": 4}},
                                {"name": "Bob", "hand": []}], "phase": "action"})
    assert act(engine, type="play", player="Alice", card="Royal Manufactory")["reply"] == (
        "accepted")
    assert act(engine, type="resolve")["reply"] == "accepted"
    assert view(engine, "Bob")["players"]["Alice"]["display"] == [
        {"card": "Royal Manufactory", "charges": 3}]
    use = {"type": "use", "player": "Alice", "card": "Royal Manufactory",
           "action": "Expand Production"}
    assert act(engine, **use)["rule"] == "eu-pop:6.2.display.4"  # not this Turn
    for name in ("Alice", "Bob"):
        assert act(engine, type="end_turn", player=name)["reply"] == "accepted"
    for _ in range(3):
        assert act(engine, **use)["reply"] == "accepted"
        assert act(engine, type="resolve")["reply"] == "accepted"
        for name in ("Alice", "Bob"):
            act(engine, type="end_turn", player=name)
    table = view(engine)
    assert table["players"]["Alice"]["display"] == []
    assert table["decks"]["administrative"]["discard"] == ["Royal Manufactory"]
    assert table["players"]["Alice"]["ducats"] == 15 + 3 * 2


def test_battle_dice_per_side_stay_for_the_battle_and_uses_reset_each_round() -> None:
    engine = setup({"players": players("Alice", "Bob", Alice=["Volley Fire", "Volley Fire",
                                                              "Bold Gambit"]),
                    "phase": "action", "battle": {"attackers": ["Alice"],
                                                  "defenders": ["Bob"]}})
    assert act(engine, type="play", player="Alice", card="Volley Fire")["reply"] == "accepted"
    again = act(engine, type="play", player="Alice", card="Volley Fire")
    assert again["reply"] == "rejected" and again["rule"] == "eu-pop:6.2.battle.3"
    assert act(engine, type="resolve")["reply"] == "accepted"
    assert act(engine, type="play", player="Alice", card="Bold Gambit")["rule"] == (
        "eu-pop:6.2.battle.6")
    assert act(engine, type="battle_round")["reply"] == "accepted"
    assert act(engine, type="play", player="Alice", card="Bold Gambit",
               targets={"dice": ["cavalry"]})["reply"] == "accepted"
    act(engine, type="resolve")
    assert view(engine)["battle"]["dice"] == {"attackers": ["artillery", "cavalry"],
                                              "defenders": []}
    assert act(engine, type="battle_end")["reply"] == "accepted"
    assert view(engine)["battle"] is None


def test_counterespionage_counters_covert_actions_only_and_the_cost_stays_paid() -> None:
    engine = setup({"players": players("Alice", "Bob", Alice=["Secret Treaty", "Royal Marriage"],
                                       Bob=["Counterespionage", "Counterespionage"]),
                    "phase": "action"})
    assert act(engine, type="play", player="Alice", card="Secret Treaty")["reply"] == "accepted"
    assert act(engine, type="play", player="Bob", card="Counterespionage",
               targets={"card": "Secret Treaty"})["reply"] == "accepted"
    assert act(engine, type="resolve")["reply"] == "accepted"
    table = view(engine)
    assert table["players"]["Alice"]["ducats"] == 15
    assert table["players"]["Alice"]["power"]["diplomatic"] == 2
    assert Counter(table["decks"]["diplomatic"]["discard"]) == Counter(
        ["Secret Treaty", "Counterespionage"])
    for name in ("Alice", "Bob"):
        act(engine, type="end_turn", player=name)
    assert act(engine, type="play", player="Alice", card="Royal Marriage")["reply"] == "accepted"
    refused = act(engine, type="play", player="Bob", card="Counterespionage",
                  targets={"card": "Royal Marriage"})
    assert refused["reply"] == "rejected" and refused["rule"] == "eu-pop:6.2.covert.2"


def test_the_engine_session_is_schema_valid() -> None:
    """Every reply of an EU session fits the protocol schemas (EU keys are allowed extras)."""
    pytest.importorskip("jsonschema")
    from oracle.protocol import validate as schemas

    reply_schema = schemas.validator("reply")
    engine = factory()
    session: list[JSON] = [
        {"op": "describe"},
        {"op": "setup", "game": "eu-pop", "seed": 2, "state": {
            "players": [{"name": "Alice", "hand": ["Spy Network"]},
                        {"name": "Bob", "hand": ["Counterespionage"]}],
            "phase": "action", "active_player": "Alice",
            "battle": {"attackers": ["Alice"], "defenders": ["Bob"]}}},
        {"op": "act", "action": {"type": "play", "player": "Alice", "card": "Spy Network"}},
        {"op": "act", "action": {"type": "resolve"}},
        {"op": "observe", "viewer": None},
        {"op": "observe", "viewer": "*"},
    ]
    for request in session:
        reply = engine.handle(json.loads(json.dumps(request)))
        assert list(reply_schema.iter_errors(reply)) == [], (request, reply)


# -- through the CLI: the reference passes, every mutant is flagged exactly ------------------


def test_the_reference_engine_passes_every_eu_id(oracle: Any) -> None:
    run = oracle("run", "--rule", "eu-pop")
    assert run.code == 0, run.out + run.err
    rules = [r for r in run.report["rules"] if r["id"].startswith("eu-pop:")]
    assert [r["id"] for r in rules] == [f"eu-pop:{i}" for i in EXPECTED_IDS]
    for rule in rules:
        if rule["id"].partition(":")[2] in UNTESTABLE:
            assert rule["status"] == "untestable" and rule["reason"], rule
        else:
            assert rule["status"] == "pass", rule
            assert rule["scenarios"] and all(s["status"] == "pass" for s in rule["scenarios"])


def test_every_testable_eu_id_has_three_mutants_that_go_wrong_differently() -> None:
    """Issue 9: at least three mutants per testable id (their kills are checked in
    tests/test_selftest.py), each a different slip (no two of an id describe the same
    change), and none declares an id that is not testable."""
    testable = {f"eu-pop:{i}" for i in EXPECTED_IDS if i not in UNTESTABLE}
    assert all(set(m.breaks) <= testable for m in MUTANTS)
    per_id = {i: [m for m in MUTANTS if i in m.breaks] for i in testable}
    assert {i: [m.name for m in ms] for i, ms in per_id.items() if len(ms) < 3} == {}
    for mutants in per_id.values():
        assert len({m.change for m in mutants}) == len(mutants)


# Every EU mutant is run, and its kill checked, by the selftest test in
# tests/test_conformance_run.py (one matrix for every game's mutants).


# -- the shared vocabulary ------------------------------------------------------------------


def test_every_step_of_both_games_matches_exactly_one_definition() -> None:
    """Each game's scenarios see the shared steps and the game's own (and no other game's):
    every step of every feature must match exactly one of those definitions, or pytest-bdd
    would pick one of them silently."""
    from oracle.mutants.harness import game_cases
    from oracle.suite.games import discover_games
    from oracle.suite.vocabulary import vocabulary_for

    games = discover_games()
    assert {"ti4", "eu-pop"} <= set(games)
    assert {d.function.__module__ for d in vocabulary_for(games["eu-pop"]).defs} == {
        "oracle.steps.common", "oracle.steps.eu_pop"}
    problems = []
    for game in games.values():
        words = vocabulary_for(game)
        for case in game_cases(game):  # as the scenarios run: an Outline's rows filled in
            for kind, text in case.steps:
                hits = [d.where for d in words.match(kind, text)]
                if len(hits) != 1:
                    problems.append(f"{case.location} {case.name} {text!r}: {hits}")
    assert problems == []


def test_eu_mutant_names_are_unique_across_games() -> None:
    """``--engine mutant:NAME`` looks a name up in every game's list: a shared name would
    run the wrong game's mutant."""
    from oracle.mutants import game_mutants
    from oracle.suite.games import discover_games

    names = [m.name for game in discover_games().values() for m in game_mutants(game)]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []


def test_every_eu_scenario_cites_and_every_testable_sentence_is_cited_or_waived() -> None:
    """Issue 19: the EU manifest requires citations, the bundled suite meets them (no
    problem from the suite checks), and every sentence of every testable rule is cited by a
    scenario or waived; the audit's context sentences (the attacker plays first, one Action
    per Turn, Minor Actions) are among those cited."""
    games = discover_games()
    eu = games["eu-pop"]
    assert eu.cites_required
    checked = check_suite([eu], games)
    assert not checked.problems, [str(p) for p in checked.problems]
    cited = {c.anchor for s in checked.scenarios for c in s.citations}
    testable = {s.anchor: s for r in eu.catalog.rules if r.testable for s in r.sentences}
    assert {a for a, s in testable.items() if not s.waived} <= cited
    assert {"eu-pop:9.6.2#1", "eu-pop:9.7.2#1", "eu-pop:4.0.2#1",
            "eu-pop:4.2.taking-a-turn#6"} <= cited
