"""Tests of the catalog's sentences and context as the core reads them (``load_catalog``).

Why: scenarios cite sentence anchors (``ti4:2.4#2``) and the suite checks look them up, so
the loader must give every sentence its anchor, refuse a catalog whose anchors or ids clash
(a context id that is also a rule id would make a citation ambiguous), refuse a misspelt key
instead of ignoring it, and still read a catalog written before sentences existed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from oracle.games.kit.sentences import (
    Chapter,
    Clause,
    Numbering,
    Passage,
    Waiver,
    apply_clauses,
    check_tables,
    context_entries,
    split_located,
    split_sentences,
    waivers_of,
)
from oracle.games.kit.sources import CatalogError
from oracle.suite.catalog import CatalogFileError, closest_anchors, load_catalog

OLD_STYLE = """\
game: toy
title: Toy
rules:
- {id: '1.1', text: Draw a card. Then pass., translation: {lang: ru, ref: '9.1', text: Возьмите.}}
- {id: '1.2', text: Flavour., testable: false, untestable_reason: flavour text}
"""

WITH_SENTENCES = """\
game: toy
title: Toy
editions:
- {name: yaml, source: toy/rules.yaml, role: canonical, lang: en, numbering: '1.1-1.3'}
- {name: wiki, source: toy/rules.md, role: rendering, lang: en, version: a wiki, date: null}
- {name: ru, source: toy/rules.ru.md, role: translation, lang: ru, changes: [lacks 1.2]}
rules:
- id: '1.1'
  text: Draw a card. Then pass.
  source: toy/rules.yaml > 1.1
  sentences:
  - {n: 1, text: Draw a card., line: 3, translations: {ru: Возьмите карту.}}
  - {n: 3, text: Then pass., line: 4, renderings: {toy/rules.md: 'Then, pass.'}}
  retired: [{n: 2, text: Then rest., by: 3}]
- id: '1.2'
  text: The cards are red. They are drawn face down.
  source: 'toy/rules.wiki:7 > Cards'
  sentences:
  - {n: 1, text: The cards are red., line: 7, waiver: the colour of the print}
  - {n: 2, text: They are drawn face down., line: 7}
- id: '1.3'
  text: Flavour.
  testable: false
  untestable_reason: flavour text
  sentences:
  - {n: 1, text: Flavour.}
context:
- id: '7'
  title: Turns
  source: toy/related/turns.txt
  items:
  - id: '7'
    text: A round has turns.
    line: 4
    sentences:
    - {n: 1, text: A round has turns., line: 4}
  - id: '7.1'
    label: Step 1 – Draw
    text: Each player draws.
    line: 5
    sentences:
    - {n: 1, text: Each player draws., line: 5}
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "catalog.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_catalog_without_sentences_has_one_per_rule(tmp_path: Path) -> None:
    catalog = load_catalog(write(tmp_path, OLD_STYLE))
    assert [s.anchor for s in catalog.sentences] == ["toy:1.1#1", "toy:1.2#1"]
    first = catalog.sentence("toy:1.1#1")
    assert first is not None and first.text == "Draw a card. Then pass."
    assert first.translations == {"ru": "Возьмите."} and not first.waived
    assert catalog.sentence("toy:1.2#1").waiver == "flavour text"  # type: ignore[union-attr]
    assert catalog.context == ()


def test_sentences_rules_then_context_each_with_its_anchor(tmp_path: Path) -> None:
    catalog = load_catalog(write(tmp_path, WITH_SENTENCES))
    assert [s.anchor for s in catalog.sentences] == [
        "toy:1.1#1", "toy:1.1#3", "toy:1.2#1", "toy:1.2#2", "toy:1.3#1", "toy:7#1", "toy:7.1#1"]
    drawn = catalog.sentence("toy:1.1#1")
    assert drawn is not None
    assert (drawn.owner, drawn.number, drawn.source, drawn.line) == (
        "toy:1.1", 1, "toy/rules.yaml", 3)
    assert drawn.translations["ru"] == "Возьмите карту." and drawn.text_in("ru") == (
        "Возьмите карту.")
    assert catalog.sentence("toy:1.1#3").renderings == {"toy/rules.md": "Then, pass."}  # type: ignore[union-attr]
    assert catalog.sentence("toy:1.1#2") is None  # retired: never an anchor again
    retired = catalog.retired_sentence("toy:1.1#2")
    assert retired is not None and retired.text == "Then rest."
    assert retired.successor == "toy:1.1#3"
    red = catalog.sentence("toy:1.2#1")
    assert red is not None and red.waived and red.source == "toy/rules.wiki"
    assert not catalog.sentence("toy:1.2#2").waived  # type: ignore[union-attr]
    assert catalog.sentence("toy:1.3#1").waiver == "flavour text"  # type: ignore[union-attr]
    assert catalog.get("toy:1.2").sentences[1].text == "They are drawn face down."  # type: ignore[union-attr]
    step = catalog.sentence("toy:7.1#1")
    assert step is not None and step.context and not step.waived
    assert step.source == "toy/related/turns.txt"
    (chapter,) = catalog.context
    assert (chapter.id, chapter.title, [i.id for i in chapter.items]) == (
        "toy:7", "Turns", ["toy:7", "toy:7.1"])
    assert chapter.items[1].label == "Step 1 – Draw"
    assert all(not s.context for r in catalog.rules for s in r.sentences)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("  - id: '7.1'\n", "  - id: '1.2'\n", "toy:1.2 is both a rule and a context item"),
    ("  - id: '7.1'\n", "  - id: '7'\n", "toy:7 is both a context item and a context item"),
    ("{n: 3, text: Then pass.", "{n: 1, text: Then pass.", "toy:1.1#1 is given twice"),
    ("line: 4, renderings", "lin: 4, renderings", "unknown key 'lin'"),
    ("waiver: the colour of the print", "waiver: ' '", "a waiver must say why"),
    ("{n: 2, text: They", "{n: 0, text: They",
     "0 is less than the minimum of 1 at rules/1/sentences/1/n"),
    ("lang: ru, changes", "lang: ru, change",
     "unknown key 'change' at editions/2; did you mean 'changes'?"),
    ("role: translation", "role: translated",
     "'translated' at editions/2/role is not one of canonical, rendering, translation"),
    ("{name: wiki, source: toy/rules.md, role: rendering",
     "{name: wiki, source: toy/rules.md, role: canonical", "one canonical"),
    ("{n: 2, text: Then rest., by: 3}", "{n: 1, text: Then rest.}", "toy:1.1#1 is both"),
    ("{n: 2, text: Then rest., by: 3}", "{n: 2, text: Then rest., bye: 3}",
     "unknown key 'bye' at rules/0/retired/0; did you mean 'by'?"),
])
def test_clashing_or_misspelt_catalogs_are_refused(tmp_path: Path, old: str, new: str,
                                                   message: str) -> None:
    assert WITH_SENTENCES.count(old) == 1
    with pytest.raises(CatalogFileError) as caught:
        load_catalog(write(tmp_path, WITH_SENTENCES.replace(old, new)))
    assert message in str(caught.value) and "catalog.yaml" in str(caught.value)


def test_closest_anchors(tmp_path: Path) -> None:
    catalog = load_catalog(write(tmp_path, WITH_SENTENCES))
    assert closest_anchors(catalog, "toy:1.2#5") == ["toy:1.2#2", "toy:1.2#1"]
    assert closest_anchors([catalog], "toy:1.1") == ["toy:1.1#1", "toy:1.1#3"]
    assert closest_anchors(catalog, "1.1#3") == ["toy:1.1#3", "toy:1.1#1"]
    assert closest_anchors(catalog, "toy:7.l#1")[0] == "toy:7.1#1"
    assert closest_anchors(catalog, "elsewhere:99#1") == []


# -- how importers split and number (oracle.games.kit.sentences) ----------------------------


def test_the_shared_splitter() -> None:
    assert split_sentences("Take it (see p. 13) now. See more in section 7.2.") == [
        "Take it (see p. 13) now.", "See more in section 7.2."]
    assert split_sentences("Remove any `z` from their Changed Nat. Focus slot. Then rest.") == [
        "Remove any `z` from their Changed Nat. Focus slot.", "Then rest."]
    assert split_sentences("Its value is “3”. Next. «Политика» — да! Он ждёт.") == [
        "Its value is “3”.", "Next.", "«Политика» — да!", "Он ждёт."]
    assert split_located([(3, "One sentence that wraps"), (4, "  here. And a second"),
                          (5, "one. Third.")]) == [
        (3, "One sentence that wraps here."), (4, "And a second one."), (5, "Third.")]


def test_numbers_are_kept_renewed_and_never_reused() -> None:
    numbering = Numbering(current={"1.1": [(1, "A."), (2, "B."), (3, "C.")]},
                          retired={"1.1": [(4, "D.", None)]})
    assert numbering.number("1.1", ["C.", "New.", "A."]) == (
        [3, 5, 1], [{"n": 2, "text": "B."}, {"n": 4, "text": "D."}])
    assert numbering.number("9.9", ["X.", "Y."]) == ([1, 2], [])


def test_a_sentence_reworded_in_place_is_retired_by_its_successor() -> None:
    """What changed: the retired sentence names the one that rewords it (``by``), so a
    citation of it can be sent on; a sentence merely dropped, or replaced by other words,
    names none."""
    numbering = Numbering(current={"1.1": [(1, "Draw one card."), (2, "Keep seven cards."),
                                           (3, "Pass.")]},
                          retired={"1.1": [(4, "Old.", None)]})
    assert numbering.number("1.1", ["Draw one card.", "Keep eight cards.", "Shuffle."]) == (
        [1, 5, 6], [{"n": 2, "text": "Keep seven cards.", "by": 5}, {"n": 3, "text": "Pass."},
                    {"n": 4, "text": "Old."}])


def test_clauses_and_waivers_are_checked_against_the_text() -> None:
    located = [(7, "It is red and it is round."), (8, "Then stop.")]
    clause = Clause("1.1", "and it is round", "two facts")
    assert apply_clauses("1.1", located, [clause], path="toy.md") == [
        (7, "It is red"), (7, "and it is round."), (8, "Then stop.")]
    with pytest.raises(CatalogError, match="clause split") as caught:
        apply_clauses("1.1", located, [Clause("1.1", "and it is square", "")], path="toy.md")
    assert (caught.value.path, caught.value.line, caught.value.item_id) == ("toy.md", 7, "1.1")
    assert waivers_of("1.1", ["It is red", "Then stop."], [Waiver("1.1", "It is", "print")],
                      path="toy.md") == ["print", None]
    with pytest.raises(CatalogError, match="matches 0 sentences"):
        waivers_of("1.1", ["Then stop."], [Waiver("1.1", "It is", "print")], path="toy.md")
    with pytest.raises(CatalogError, match="not in the catalog"):
        check_tables(["1.1"], [], [Waiver("1.2", "It", "why")], path="toy.md")


def test_context_ids_clashing_with_rules_or_each_other_are_refused() -> None:
    def chapter(*ids: str) -> Chapter:
        return Chapter("7", "Turns", "toy/turns.md",
                       [Passage(i, [[(3 + n, f"Passage {n}.")]]) for n, i in enumerate(ids)])

    entries = context_entries([chapter("7", "7.1")], ["1.1"], [], Numbering())
    assert [[s["text"] for s in i["sentences"]] for i in entries[0]["items"]] == [
        ["Passage 0."], ["Passage 1."]]
    with pytest.raises(CatalogError, match="is a rule id") as caught:
        context_entries([chapter("7", "1.1")], ["1.1"], [], Numbering())
    assert (caught.value.path, caught.value.line, caught.value.item_id) == (
        "toy/turns.md", 4, "1.1")
    with pytest.raises(CatalogError, match=r"the id of toy/turns\.md:3"):
        context_entries([chapter("7", "7")], ["1.1"], [], Numbering())


def test_the_bundled_catalogs_every_waiver_has_a_reason_and_context_none() -> None:
    root = Path(__file__).resolve().parents[1] / "features"
    for game in ("ti4", "eu-pop"):
        catalog = load_catalog(root / game / "catalog.yaml")
        waived = [s for s in catalog.sentences if s.waived]
        assert waived and all(s.waiver and s.waiver.strip() for s in waived)
        assert not [s for s in catalog.sentences if s.context and s.waived]
        untestable = {r.id for r in catalog.rules if not r.testable}
        assert {s.owner for s in waived} >= untestable
        assert all(s.line for s in catalog.sentences), game
        assert {s.anchor for s in catalog.sentences} == {
            f"{o.id}#{s.number}" for o in (*catalog.rules, *catalog.context_items)
            for s in o.sentences}


def test_each_sentence_in_each_edition(tmp_path: Path) -> None:
    """A sentence as an edition words it: the canonical's text, a rendering's own wording
    where the catalog keeps one, a translation's sentence or None where it lacks it; a
    context sentence is in every edition (its chapter is no part of any)."""
    catalog = load_catalog(write(tmp_path, WITH_SENTENCES))
    yaml_, wiki, ru = catalog.editions
    assert (yaml_.role, wiki.version, wiki.date, ru.changes) == (
        "canonical", "a wiki", None, ("lacks 1.2",))
    assert catalog.edition("ru") is ru and catalog.edition("nope") is None
    drawn, passed = catalog.get("toy:1.1").sentences  # type: ignore[union-attr]
    assert [drawn.in_edition(e) for e in catalog.editions] == [
        "Draw a card.", "Draw a card.", "Возьмите карту."]
    assert [passed.in_edition(e) for e in catalog.editions] == [
        "Then pass.", "Then, pass.", None]
    step = catalog.sentence("toy:7.1#1")
    assert step is not None and step.in_edition(ru) == "Each player draws."
