"""Tests of the TI4 rule-catalog importer and the files it generates.

Why: every TI4 scenario cites an id from ``features/ti4/catalog.yaml`` and follows its wording,
so the catalog must (a) be exactly what the sources give today (staleness), (b) have the
agreed ids and editorial decisions, and (c) refuse sources that disagree with each other
instead of quietly picking one. The tamper tests change one thing in a copy of the sources
and expect the importer to name the file and the rule.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from oracle.games.ti4 import importer
from oracle.games.ti4.importer import CatalogError
from oracle.suite.catalog import load_catalog

REPO = Path(__file__).resolve().parents[1]
CATALOG_PATH = REPO / "features" / "ti4" / "catalog.yaml"
CARDS_PATH = REPO / "features" / "ti4" / "cards.yaml"

EXPECTED_IDS = [
    "2.1", "2.2", "2.3", "2.4", "2.4.1", "2.5", "2.6", "2.6.1", "2.6.2", "2.7", "2.8",
    "note-1", "note-2", "note-3", "note-4", "note-5", "note-5.1", "note-5.2",
    "note-6", "note-7", "note-8", "note-9", "note-10", "note-11",
]
MISSING_IN_RUSSIAN = ["note-2", "note-5.1", "note-5.2", "note-11"]

needs_sources = pytest.mark.skipif(
    not (importer.DEFAULT_SOURCES / importer.CANONICAL).exists(),
    reason=f"rule sources not found at {importer.DEFAULT_SOURCES} (../shared/sources)",
)
needs_data = pytest.mark.skipif(
    not (importer.DEFAULT_DATA / importer.ACTION_DECK).exists(),
    reason=f"card data not found at {importer.DEFAULT_DATA} (../shared/data)",
)

SOURCE_FILES = (importer.CANONICAL, importer.MARKDOWN, importer.HTML_PAGE, importer.RUSSIAN)


@pytest.fixture(scope="module")
def catalog() -> dict[str, Any]:
    """The committed catalog: what scenarios actually use."""
    return yaml.safe_load(CATALOG_PATH.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cards() -> dict[str, Any]:
    """The committed card facts."""
    return yaml.safe_load(CARDS_PATH.read_text(encoding="utf-8"))


@pytest.fixture
def sources(tmp_path: Path) -> Path:
    """A writable copy of the four renderings and the related chapters (the originals are
    read-only and must stay so)."""
    if not (importer.DEFAULT_SOURCES / importer.CANONICAL).exists():
        pytest.skip(f"rule sources not found at {importer.DEFAULT_SOURCES}")
    root = tmp_path / "sources"
    for rel in (*SOURCE_FILES, *importer.related_files(importer.DEFAULT_SOURCES)):
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((importer.DEFAULT_SOURCES / rel).read_bytes())
    return root


def edit(root: Path, rel: str, old: str, new: str) -> None:
    """Replace exactly one occurrence, so a test cannot pass because its edit missed."""
    path = root / rel
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times in {rel}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def rules_by_id(catalog: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {rule["id"]: rule for rule in catalog["rules"]}


# ----------------------------------------------------------------------------- staleness


@needs_sources
def test_committed_catalog_is_what_the_sources_give() -> None:
    built = importer.render(importer.build_catalog(importer.DEFAULT_SOURCES))
    assert CATALOG_PATH.read_bytes() == built.encode("utf-8"), (
        "features/ti4/catalog.yaml is stale: run python -m oracle.games.ti4.importer"
    )


@needs_data
def test_committed_cards_are_what_the_data_gives() -> None:
    built = importer.render(importer.build_cards(importer.DEFAULT_DATA))
    assert CARDS_PATH.read_bytes() == built.encode("utf-8"), (
        "features/ti4/cards.yaml is stale: run python -m oracle.games.ti4.importer"
    )


@needs_sources
@needs_data
def test_main_writes_then_check_passes_and_detects_staleness(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert importer.main(["--out", str(out), "--check"]) == 1
    assert not out.exists(), "--check must not write"
    assert "catalog.yaml" in capsys.readouterr().err
    assert importer.main(["--out", str(out)]) == 0
    assert (out / "catalog.yaml").read_bytes() == CATALOG_PATH.read_bytes()
    assert (out / "cards.yaml").read_bytes() == CARDS_PATH.read_bytes()
    assert importer.main(["--out", str(out), "--check"]) == 0
    (out / "cards.yaml").write_text("game: ti4\n", encoding="utf-8")
    assert importer.main(["--out", str(out), "--check"]) == 1
    err = capsys.readouterr().err
    assert "cards.yaml" in err and "catalog.yaml" not in err


def test_main_reports_errors_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert importer.main(["--sources", str(tmp_path / "nowhere"), "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert importer.CANONICAL in err and "--sources" in err


# ----------------------------------------------------------------------------- catalog


def test_catalog_header(catalog: dict[str, Any]) -> None:
    assert list(catalog) == [
        "game", "title", "generated_by", "sources", "editions", "missing_in_translation",
        "rules", "context",
    ]
    assert catalog["game"] == "ti4"
    assert [(s["path"], s["role"]) for s in catalog["sources"]] == [
        ("ti4/action-cards.lrr.en.yaml", "canonical"),
        ("ti4/action-cards.lrr-wiki.en.md", "cross-check"),
        ("ti4/action-cards.lrr-site.en.php.txt", "cross-check"),
        ("ti4/action-cards.rules.ru.md", "translation"),
        *((f"ti4/related/{name}", "context") for name in (
            "R_abilities.txt", "R_component_action.txt", "R_game_round.php",
            "R_initiative_order.php", "R_politics.txt", "R_status_phase.txt",
            "R_strategy_card.php")),
    ]
    assert all(len(s["sha256"]) == 64 for s in catalog["sources"])


def test_24_ids_in_reading_order(catalog: dict[str, Any]) -> None:
    assert [rule["id"] for rule in catalog["rules"]] == EXPECTED_IDS


def test_kinds_and_parents(catalog: dict[str, Any]) -> None:
    rules = rules_by_id(catalog)
    assert {r["kind"] for r in catalog["rules"] if r["id"].startswith("note-")} == {"note"}
    assert {r["kind"] for r in catalog["rules"] if not r["id"].startswith("note-")} == {"rule"}
    parents = {i: r["parent"] for i, r in rules.items() if r["parent"] is not None}
    assert parents == {
        "2.4.1": "2.4", "2.6.1": "2.6", "2.6.2": "2.6",
        "note-5.1": "note-5", "note-5.2": "note-5",
    }
    assert rules["2.4.1"]["source"] == (
        "ti4/action-cards.lrr.en.yaml > Rules Reference > 2.4 > 2.4.1"
    )
    assert rules["note-10"]["source"] == "ti4/action-cards.lrr.en.yaml > Notes > 10"
    assert rules["2.1"]["text"] == "Each player draws one action card during each status phase."


def test_only_note_11_is_untestable(catalog: dict[str, Any]) -> None:
    untestable = [r for r in catalog["rules"] if not r["testable"]]
    assert [r["id"] for r in untestable] == ["note-11"]
    assert "pointer" in untestable[0]["untestable_reason"]
    assert all(r["testable"] is True for r in catalog["rules"] if r["id"] != "note-11")
    assert all("untestable_reason" not in r for r in catalog["rules"] if r["testable"])


def test_note_5_carries_its_remark(catalog: dict[str, Any]) -> None:
    remarks = {r["id"]: r["remark"] for r in catalog["rules"] if "remark" in r}
    assert list(remarks) == ["note-5"]
    assert "status phase" in remarks["note-5"] and "initiative order" in remarks["note-5"]


# ----------------------------------------------------------------------------- cross-checks


@needs_sources
def test_renderings_parse_to_the_canonical_ids() -> None:
    root = importer.DEFAULT_SOURCES
    canonical = [item.id for item in importer.parse_canonical(root)]
    assert canonical == EXPECTED_IDS
    assert [item.id for item in importer.parse_markdown(root)] == EXPECTED_IDS
    assert [item.id for item in importer.parse_html(root)] == EXPECTED_IDS


def test_comparable_forgives_only_markup_entities_spacing() -> None:
    assert importer.comparable("a <b>seven</b>  cards .") == "a seven cards."
    assert importer.comparable("Lucky Shot&nbsp;.") == "Lucky Shot."
    assert importer.comparable("the word “Action”") != importer.comparable('the word "Action"')


def test_markdown_word_change_is_named(sources: Path) -> None:
    edit(sources, importer.MARKDOWN, "number of cards a player’s hand", "number of cards a"
         " player’s deck")
    with pytest.raises(CatalogError) as caught:
        importer.build_catalog(sources)
    assert caught.value.path == importer.MARKDOWN
    assert caught.value.item_id == "2.4.1"
    assert caught.value.line == 9
    message = str(caught.value)
    assert importer.MARKDOWN in message and "2.4.1" in message
    assert "player’s deck can have" in message and "player’s hand can have" in message


def test_html_word_change_is_named(sources: Path) -> None:
    edit(sources, importer.HTML_PAGE, "shuffle the discard pile", "shuffle the draw pile")
    with pytest.raises(CatalogError) as caught:
        importer.build_catalog(sources)
    assert (caught.value.path, caught.value.item_id) == (importer.HTML_PAGE, "note-4")
    message = str(caught.value)
    assert importer.HTML_PAGE in message and "note-4" in message
    assert "shuffle the draw pile" in message and "shuffle the discard pile" in message
    assert "page line" in message


def test_html_straight_quotes_are_not_forgiven(sources: Path) -> None:
    edit(sources, importer.HTML_PAGE, "the word “Action”", 'the word "Action"')
    with pytest.raises(CatalogError) as caught:
        importer.build_catalog(sources)
    assert (caught.value.path, caught.value.item_id) == (importer.HTML_PAGE, "2.6.1")


def test_html_dropped_note_is_named(sources: Path) -> None:
    edit(sources, importer.HTML_PAGE,
         "<li>The number of action cards in a player’s hand is public information.</li>\n", "")
    with pytest.raises(CatalogError) as caught:
        importer.build_catalog(sources)
    assert (caught.value.path, caught.value.item_id) == (importer.HTML_PAGE, "note-2")
    assert "note-3" in str(caught.value)  # the hint: what is there instead


def test_html_nested_list_inside_item_gives_same_ids(sources: Path) -> None:
    edit(sources, importer.HTML_PAGE,
         "discard the rest.</li>\n<ol><li>A game effect can increase or decrease the number of"
         " cards a player’s hand can have.</li></ol>",
         "discard the rest.\n<ol><li>A game effect can increase or decrease the number of"
         " cards a player’s hand can have.</li></ol></li>")
    assert [item.id for item in importer.parse_html(sources)] == EXPECTED_IDS
    importer.build_catalog(sources)


def test_markdown_missing_subpoint_is_named(sources: Path) -> None:
    edit(sources, importer.MARKDOWN,
         "\n    2. Multiple action cards with the same name", "\n7. Multiple action cards with"
         " the same name")
    with pytest.raises(CatalogError) as caught:
        importer.build_catalog(sources)
    assert caught.value.path == importer.MARKDOWN


# ----------------------------------------------------------------------------- Russian


def test_russian_rules_map_by_number(catalog: dict[str, Any]) -> None:
    rules = rules_by_id(catalog)
    assert rules["2.4"]["translation"]["ref"] == "28.4"
    assert rules["2.4.1"]["translation"]["ref"] == "28.4 а)"
    assert rules["2.6.2"]["translation"]["ref"] == "28.6 б)"
    assert "7 карт" in rules["2.4"]["translation"]["text"]
    assert all(r["translation"]["lang"] == "ru" for r in catalog["rules"] if r["translation"])


def test_russian_comments_map_to_notes(catalog: dict[str, Any]) -> None:
    mapped = {
        r["id"]: r["translation"]["ref"]
        for r in catalog["rules"]
        if r["kind"] == "note" and r["translation"]
    }
    assert mapped == {
        "note-1": "comment 1", "note-3": "comment 2", "note-4": "comment 3",
        "note-5": "comment 4", "note-6": "comment 5", "note-7": "comment 6",
        "note-8": "comment 7", "note-9": "comment 8", "note-10": "comment 9",
    }
    rules = rules_by_id(catalog)
    assert "Саботаж" in rules["note-6"]["translation"]["text"]
    assert "Отклонить закон" in rules["note-9"]["translation"]["text"]


def test_missing_in_translation_is_exactly_four(catalog: dict[str, Any]) -> None:
    assert catalog["missing_in_translation"] == MISSING_IN_RUSSIAN
    assert [r["id"] for r in catalog["rules"] if r["translation"] is None] == MISSING_IN_RUSSIAN


def test_russian_comment_removed_raises(sources: Path) -> None:
    edit(sources, importer.RUSSIAN,
         "2) Игрок может показать любую или все карты действий со своей руки, если он этого"
         " захочет.\n", "")
    with pytest.raises(CatalogError) as caught:
        importer.build_catalog(sources)
    assert caught.value.path == importer.RUSSIAN


def test_russian_last_comment_removed_raises(sources: Path) -> None:
    path = sources / importer.RUSSIAN
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith("9) ")]
    assert len(kept) == len(lines) - 1
    path.write_text("".join(kept), encoding="utf-8")
    with pytest.raises(CatalogError, match="alignment table") as caught:
        importer.build_catalog(sources)
    assert caught.value.path == importer.RUSSIAN


def test_russian_swapped_comments_fail_the_content_check(sources: Path) -> None:
    path = sources / importer.RUSSIAN
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    five = next(i for i, line in enumerate(lines) if line.startswith("5) "))
    six = next(i for i, line in enumerate(lines) if line.startswith("6) "))
    lines[five], lines[six] = "5) " + lines[six][3:], "6) " + lines[five][3:]
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(CatalogError, match="alignment check failed") as caught:
        importer.build_catalog(sources)
    assert caught.value.item_id == "note-6"


@needs_sources
def test_shifted_alignment_table_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The naive table (comment n -> note n) must fail: the checks tell neighbours apart."""
    monkeypatch.setattr(importer, "RU_COMMENT_TO_NOTE", {n: f"note-{n}" for n in range(1, 10)})
    with pytest.raises(CatalogError, match="alignment check failed"):
        importer.build_catalog(importer.DEFAULT_SOURCES)


# ----------------------------------------------------------------------------- sentences

ENGLISH = (importer.CANONICAL, importer.MARKDOWN, importer.HTML_PAGE)
NOTE_2 = "The number of action cards in a player’s hand is public information."


def edit_english(root: Path, old: str, new: str) -> None:
    """The same edit in all three English renderings (the cross-check wants them to agree)."""
    for rel in ENGLISH:
        edit(root, rel, old, new)


def sentences_of(catalog: dict[str, Any], rule_id: str) -> list[tuple[int, str]]:
    return [(s["n"], s["text"]) for s in rules_by_id(catalog)[rule_id]["sentences"]]


def test_every_rule_is_its_sentences_in_order(catalog: dict[str, Any]) -> None:
    for rule in catalog["rules"]:
        assert " ".join(s["text"] for s in rule["sentences"]) == rule["text"], rule["id"]
        assert [s["n"] for s in rule["sentences"]] == list(range(1, len(rule["sentences"]) + 1))
    assert sentences_of(catalog, "2.4") == [
        (1, "Each player’s hand can have a maximum of seven action cards."),
        (2, "If a player ever has more than seven action cards, that player must choose seven "
            "cards to keep and discard the rest.")]
    rules = rules_by_id(catalog)
    assert [s["line"] for s in rules["2.6.1"]["sentences"]] == [28, 29]  # where each starts


def test_the_editorial_clauses_and_waivers(catalog: dict[str, Any]) -> None:
    assert sentences_of(catalog, "2.6") == [
        (1, "The first paragraph of each action card is presented in bold text"),
        (2, "and describes the timing of when that card’s ability can be resolved.")]
    assert sentences_of(catalog, "2.8")[1] == (2, "and is discarded.")
    assert sentences_of(catalog, "note-10")[2] == (3, "and the Hacan player cannot trade them.")
    waived = {f"{r['id']}#{s['n']}": s["waiver"] for r in catalog["rules"]
              for s in r["sentences"] if "waiver" in s}
    assert list(waived) == ["2.6#1"] and "bold" in waived["2.6#1"]
    assert all(clause.why.strip() for clause in importer.CLAUSES)


def test_the_russian_is_aligned_sentence_by_sentence(catalog: dict[str, Any]) -> None:
    rules = rules_by_id(catalog)
    ru = [s["translations"]["ru"] for s in rules["2.4"]["sentences"]]
    assert ru[0].startswith("У каждого игрока") and ru[1].startswith("Если у игрока")
    assert [s["translations"]["ru"] for s in rules["2.8"]["sentences"]] == [
        "Если карта действия отменена, её эффект не применяется,", "а карта сбрасывается."]
    assert rules["note-10"]["sentences"][2]["translations"]["ru"].startswith("Хакан")
    for rule in catalog["rules"]:
        translated = ["translations" in s for s in rule["sentences"]]
        assert all(translated) if rule["translation"] else not any(translated), rule["id"]


def test_a_swapped_russian_sentence_alignment_is_refused(monkeypatch: pytest.MonkeyPatch,
                                                         sources: Path) -> None:
    checks = dict(importer.RU_SENTENCE_CHECKS)
    checks["2.7"] = tuple(reversed(checks["2.7"]))
    monkeypatch.setattr(importer, "RU_SENTENCE_CHECKS", checks)
    with pytest.raises(CatalogError, match="sentence alignment check failed") as caught:
        importer.build_catalog(sources)
    assert (caught.value.path, caught.value.item_id) == (importer.RUSSIAN, "2.7")


def test_a_russian_sentence_merged_into_another_is_refused(sources: Path) -> None:
    edit(sources, importer.RUSSIAN, "тексте. Затем он", "тексте, затем он")
    with pytest.raises(CatalogError, match="RU_SENTENCE_CHECKS") as caught:
        importer.build_catalog(sources)
    assert (caught.value.path, caught.value.item_id) == (importer.RUSSIAN, "2.7")
    assert caught.value.line is not None


def test_a_russian_sentence_the_table_says_is_missing_is_absent(
        monkeypatch: pytest.MonkeyPatch, sources: Path) -> None:
    edit(sources, importer.RUSSIAN, " Затем он кладёт карту в\xa0стопку сброса колоды действий.",
         "")
    checks = {**importer.RU_SENTENCE_CHECKS, "2.7": (("reads and resolves", "читает"),
                                                     ("discards the card", None))}
    monkeypatch.setattr(importer, "RU_SENTENCE_CHECKS", checks)
    built = importer.build_catalog(sources)
    first, second = rules_by_id(built)["2.7"]["sentences"]
    assert first["translations"]["ru"].startswith("Чтобы сыграть") and "translations" not in second


def test_a_rendering_whose_sentences_do_not_line_up_is_named(sources: Path) -> None:
    edit(sources, importer.MARKDOWN, NOTE_2, NOTE_2 + " So is the discard pile.")
    with pytest.raises(CatalogError, match="sentences do not line up") as caught:
        importer.build_catalog(sources)
    assert (caught.value.path, caught.value.line, caught.value.item_id) == (
        importer.MARKDOWN, 20, "note-2")
    assert "So is the discard pile." in str(caught.value)


def test_a_clause_split_the_rendering_lacks_is_named(sources: Path) -> None:
    edit(sources, importer.HTML_PAGE, "no effect and is discarded", "no effect, then discarded")
    with pytest.raises(CatalogError, match="clause split") as caught:
        importer.build_catalog(sources)
    assert (caught.value.path, caught.value.item_id) == (importer.HTML_PAGE, "2.8")


def test_a_rendering_known_to_word_a_rule_otherwise_is_kept(
        monkeypatch: pytest.MonkeyPatch, sources: Path) -> None:
    edit(sources, importer.MARKDOWN, "is public information", "is open information")
    with pytest.raises(CatalogError, match="RENDERING_WORDING"):
        importer.build_catalog(sources)
    monkeypatch.setattr(importer, "RENDERING_WORDING",
                        {(importer.MARKDOWN, "note-2"): "a test's reworded wiki"})
    built = importer.build_catalog(sources)
    (sentence,) = rules_by_id(built)["note-2"]["sentences"]
    assert sentence["text"] == NOTE_2
    assert sentence["renderings"] == {importer.MARKDOWN: NOTE_2.replace("public", "open")}
    before = {r["id"]: r for r in importer.build_catalog(importer.DEFAULT_SOURCES)["rules"]}
    assert [r for r in built["rules"] if r["id"] != "note-2"] == [
        r for i, r in before.items() if i != "note-2"]


def test_each_rendering_keeps_its_own_wording_verbatim(catalog: dict[str, Any]) -> None:
    """What the cross-check forgives (the wiki's space before a full stop, the site's
    emphasis and links) is no error, but it is how that rendering reads: the catalog keeps
    each such sentence as the rendering writes it, and each edition says what changed."""
    rules = rules_by_id(catalog)
    first = rules["2.4"]["sentences"][0]
    assert first["renderings"] == {
        importer.MARKDOWN: "Each player’s hand can have a maximum of seven action cards .",
        importer.HTML_PAGE: "Each player’s hand can have a maximum of <b>seven action cards</b>."}
    assert "renderings" not in rules["2.4"]["sentences"][1]
    assert "renderings" not in rules["2.1"]["sentences"][0]
    editions = {e["name"]: e for e in catalog["editions"]}
    assert list(editions) == ["lrr", "lrr-wiki", "lrr-site", "ru"]
    assert editions["lrr"]["role"] == "canonical" and "changes" not in editions["lrr"]
    assert editions["lrr-wiki"]["changes"] == ["spacing: 2.4#1, note-7#1, note-11#1"]
    assert editions["lrr-site"]["changes"][0].startswith("markup: 2.2#1, 2.4#1, 2.6.2#1")
    assert editions["ru"]["changes"][0] == "lacks rules: " + ", ".join(MISSING_IN_RUSSIAN)
    assert "note-3 is comment 2" in editions["ru"]["changes"][1]
    assert all(e["date"] is None for e in editions.values())  # undated: never guessed


def test_anchors_are_kept_across_reimports(sources: Path, tmp_path: Path) -> None:
    """Unchanged sentences keep their numbers; a new or changed one gets the next unused
    number; a removed one's number is retired and never given again."""
    previous = tmp_path / "catalog.yaml"

    def reimport() -> dict[str, Any]:
        built = importer.build_catalog(sources, previous)
        previous.write_text(importer.render(built), encoding="utf-8")
        return built

    fresh = importer.build_catalog(sources, None)
    assert importer.render(fresh) == CATALOG_PATH.read_text(encoding="utf-8")
    previous.write_bytes(CATALOG_PATH.read_bytes())
    edit_english(sources, NOTE_2, "Hands are held face down. " + NOTE_2)
    built = reimport()
    assert sentences_of(built, "note-2") == [(2, "Hands are held face down."), (1, NOTE_2)]
    changed = NOTE_2.replace("public information", "public knowledge")
    edit_english(sources, NOTE_2, changed)
    built = reimport()
    assert sentences_of(built, "note-2") == [(2, "Hands are held face down."), (3, changed)]
    edit_english(sources, "Hands are held face down. ", "")
    built = reimport()
    assert sentences_of(built, "note-2") == [(3, changed)]
    assert rules_by_id(built)["note-2"]["retired"] == [  # 1 was reworded as 3; 2 dropped
        {"n": 1, "text": NOTE_2, "by": 3}, {"n": 2, "text": "Hands are held face down."}]
    edit_english(sources, changed, NOTE_2)  # back to the first wording: a new number still
    assert sentences_of(reimport(), "note-2") == [(4, NOTE_2)]
    unchanged = [r for r in built["rules"] if r["id"] != "note-2"]
    assert unchanged == [r for r in fresh["rules"] if r["id"] != "note-2"]


def test_the_catalogs_round_trip_byte_for_byte() -> None:
    from oracle.games.eu_pop import importer as eu

    for path, render in ((CATALOG_PATH, importer.render),
                         (REPO / "features" / "eu-pop" / "catalog.yaml", eu.render)):
        text = path.read_text(encoding="utf-8")
        assert render(yaml.safe_load(text)) == text, path


# ----------------------------------------------------------------------------- context


def context_items(catalog: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for chapter in catalog["context"] for item in chapter["items"]}


def test_the_related_chapters_are_context_in_the_lrr_numbering(catalog: dict[str, Any]) -> None:
    assert [(c["id"], c["title"]) for c in catalog["context"]] == [
        ("1", "Abilities"), ("22", "Component Action"), ("40", "Game Round"),
        ("48", "Initiative Order"), ("66", "Politics (Strategy Card)"), ("81", "Status Phase"),
        ("83", "Strategy Card")]
    items = context_items(catalog)
    step = items["81.3"]
    assert (step["label"], step["line"]) == ("Step 3 – Draw Action Cards", 9)
    assert step["sentences"] == [
        {"n": 1, "text": "Following initiative order, each player draws one action card.",
         "line": 9}]
    assert items["66"]["sentences"][2]["text"] == "This card’s initiative value is “3”."
    assert "proceeding clockwise" in items["66.3"]["sentences"][0]["text"]
    assert items["66.2.2"]["parent"] == "66.2" and items["66.note-1"]["parent"] is None
    assert items["81.note-2"]["sentences"][0]["text"].endswith("lowest in initiative order.")
    assert items["1.12"]["heading"] == "Costs"
    assert items["1.28"]["sentences"][3]["text"].endswith(": Anti–Fighter Barrage, Bombardment,"
                                                          " Deploy, Planetary Shield, Production,"
                                                          " Space Cannon, Sustain Damage")
    assert "Politics, Construction" in items["48.note-2"]["text"]
    assert items["40"]["text"] == ("A game round consists of the following four phases: Strategy"
                                   " Phase, Action Phase, Status Phase, Agenda Phase")
    assert "1.28.1" not in items and "48.note-2.1" not in items  # a list of names is no item
    for item in items.values():
        assert " ".join(s["text"] for s in item["sentences"]) == item["text"], item["id"]
        assert all(s["line"] >= item["line"] for s in item["sentences"])


def test_context_ids_are_unique_and_never_rule_ids(catalog: dict[str, Any]) -> None:
    ids = [item["id"] for chapter in catalog["context"] for item in chapter["items"]]
    assert len(ids) == len(set(ids))
    assert not set(ids) & {rule["id"] for rule in catalog["rules"]}
    loaded = load_catalog(CATALOG_PATH)
    step = loaded.sentence("ti4:81.3#1")
    assert step is not None and step.context and not step.waived
    assert (step.source, step.line) == ("ti4/related/R_status_phase.txt", 9)
    assert len(loaded.sentences) == len({s.anchor for s in loaded.sentences}) == sum(
        len(i["sentences"]) for c in catalog["context"] for i in c["items"]) + sum(
        len(r["sentences"]) for r in catalog["rules"])


def test_a_related_line_that_states_nothing_must_be_a_listed_heading(sources: Path) -> None:
    edit(sources, "ti4/related/R_abilities.txt", "    Costs\n", "    Expenses\n")
    with pytest.raises(CatalogError, match="CONTEXT_HEADINGS") as caught:
        importer.build_catalog(sources)
    assert (caught.value.path, caught.value.line) == ("ti4/related/R_abilities.txt", 16)


def test_a_step_numbered_out_of_place_is_refused(sources: Path) -> None:
    edit(sources, "ti4/related/R_status_phase.txt", "Step 3 – Draw", "Step 4 – Draw")
    with pytest.raises(CatalogError, match="is item 3") as caught:
        importer.build_catalog(sources)
    assert (caught.value.path, caught.value.line, caught.value.item_id) == (
        "ti4/related/R_status_phase.txt", 9, "81.3")


def test_a_changed_related_chapter_renumbers_only_its_changed_sentence(
        sources: Path, catalog: dict[str, Any]) -> None:
    rel = "ti4/related/R_status_phase.txt"
    edit(sources, rel, "each player draws one action card.", "each player draws two action cards.")
    built = importer.build_catalog(sources)
    step = context_items(built)["81.3"]
    assert [(s["n"], s["text"]) for s in step["sentences"]] == [
        (2, "Following initiative order, each player draws two action cards.")]
    assert step["retired"] == [
        {"n": 1, "text": "Following initiative order, each player draws one action card.",
         "by": 2}]
    before, after = context_items(catalog), context_items(built)
    assert [i for i in after if after[i] != before[i]] == ["81.3"]
    changed = [s["path"] for s, old in zip(built["sources"], catalog["sources"], strict=True)
               if s["sha256"] != old["sha256"]]
    assert changed == [rel]


# ----------------------------------------------------------------------------- cards


def test_card_facts(cards: dict[str, Any]) -> None:
    deck = cards["decks"]["action"]
    names = [card["name"] for card in deck]
    assert len(names) == 93 == len(set(names))
    assert names == sorted(names)
    assert sum(card["count"] for card in deck) == 120
    assert {card["name"]: card["count"] for card in deck}["Sabotage"] == 4
    assert {card["expansion"] for card in deck} == {"base", "pok", "codex1"}
    assert all(list(card) == ["name", "count", "phase", "window", "expansion"] for card in deck)
    assert cards["source"]["path"] == "ti4/action-deck-pok.json"


def test_cards_have_no_text_key(cards: dict[str, Any]) -> None:
    def keys(node: Any) -> set[str]:
        if isinstance(node, dict):
            return set(node).union(*(keys(v) for v in node.values()))
        if isinstance(node, list):
            return set().union(*(keys(v) for v in node))
        return set()

    assert "text" not in keys(cards)


@needs_data
def test_no_card_text_leaks_into_cards_yaml() -> None:
    records = json.loads(
        (importer.DEFAULT_DATA / importer.ACTION_DECK).read_text(encoding="utf-8")
    )["cards"]
    committed = CARDS_PATH.read_text(encoding="utf-8")
    leaked = [r["name"] for r in records if r["text"] in committed]
    assert leaked == []


def test_copies_disagreeing_on_facts_raise(tmp_path: Path) -> None:
    deck = tmp_path / importer.ACTION_DECK
    deck.parent.mkdir(parents=True)
    record = {"alias": "s1", "name": "Sabotage", "phase": "Any", "window": "x", "source": "base"}
    deck.write_text(json.dumps({"cards": [record, {**record, "phase": "Action"}]}),
                    encoding="utf-8")
    with pytest.raises(CatalogError, match="Sabotage") as caught:
        importer.build_cards(tmp_path)
    assert caught.value.path == importer.ACTION_DECK
