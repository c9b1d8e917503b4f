"""Build the Europa Universalis: The Price of Power "6. Action Cards" rule catalog.

Why this exists: every EU scenario cites a rule id (``eu-pop:6.cards-in-hand.2``) and follows
its wording, but the rulebook chapter numbers nothing below "6.1" and "6.2". So the ids are
ours, and they must never move: each is the id prefix of its heading plus a counter, written
once in the table below next to the opening words of the sentence it stands for. The importer
reads the chapter as received, splits it into sentences under their headings and matches every
sentence to exactly one table entry. A sentence the table does not map, or an entry whose
sentence is gone, stops the build naming the file and line, instead of silently adding,
dropping or renumbering a rule. Rerunning on the same sources writes the same bytes.

One related chapter contributes too: Phase 5 Step C (``related/4-5-phase-5-cleanup.md``) is
where the chapter's hand limit is checked, and it adds that Display Cards in play do not count
towards it. Only the headings listed in the table are read from related chapters; the rest of
them is context.

Regenerate with ``python -m oracle.games.eu_pop.importer``; ``--check`` reports a stale file
without writing, which is what the test suite relies on.
"""

from __future__ import annotations

import argparse
import hashlib
import html
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from oracle.suite.catalog import render_generated

#: Repository root: the sources live *beside* it (``../shared/sources``), never at a fixed path.
REPO_ROOT = Path(__file__).resolve().parents[3]
DEFAULT_SOURCES = REPO_ROOT.parent / "shared" / "sources"
DEFAULT_OUT = REPO_ROOT / "features" / "eu-pop"

GAME = "eu-pop"
MODULE = "oracle.games.eu_pop.importer"
TITLE = "Europa Universalis: The Price of Power — 6. Action Cards"
CATALOG_FILE = "catalog.yaml"

CHAPTER = "eu-pop/action-cards.rulebook.en.wiki"
CLEANUP = "eu-pop/related/4-5-phase-5-cleanup.md"
#: Every source the catalog reads, in the order its rules are listed, with its role.
SOURCES: tuple[tuple[str, str], ...] = ((CHAPTER, "canonical"), (CLEANUP, "related"))

ACTION_CARDS = "6. Action Cards"
THREE_DECKS = "6.1 The Three Decks"
SPECIAL_CARDS = "6.2 Special Cards"


@dataclass(frozen=True)
class Statement:
    """One sentence of a rules text, under the stable id it is tested as.

    ``opening`` is how the sentence begins, as rendered (markup removed, icons in backticks):
    enough words to tell it from every other sentence under its heading. ``untestable`` is the
    editorial reason a pure description cannot be tested; ``remark`` the reading we test.
    """

    id: str
    opening: str
    untestable: str | None = None
    remark: str | None = None


@dataclass(frozen=True)
class Section:
    """The sentences under one heading of one source, and the id prefix they share."""

    source: str
    headings: tuple[str, ...]
    prefix: str
    statements: tuple[Statement, ...]


def _section(source: str, headings: tuple[str, ...], prefix: str,
             *statements: Statement) -> Section:
    return Section(source, headings, prefix, statements)


S = Statement

#: The reviewed sentence -> id table. To map a new sentence, give it the next free counter of
#: its heading's prefix; never reuse or renumber an id (scenarios and reports cite them).
SECTIONS: tuple[Section, ...] = (
    _section(
        CHAPTER, (ACTION_CARDS,), "6.action-cards",
        S("6.action-cards.1", "Action Cards work very much like Basic Actions.",
          untestable="a comparison that introduces the chapter; what it implies (a card takes "
                     "a Turn and costs Monarch Power) is stated, and tested, as 6.action-cards.2 "
                     "and 6.action-cards.3"),
        S("6.action-cards.2", "Playing an Action Card takes up a whole Turn",
          remark="'Unless otherwise specified': Reactions and Battle Actions (6.2) do not take "
                 "the Turn, and Appoint Advisor/Leader is a Minor Action (5.2). Tested: a "
                 "card that takes the Turn is played only by the active player in the Action "
                 "Phase, once per Turn; a Minor Action leaves the Turn's Action free."),
        S("6.action-cards.3", "The Monarch Power (`d`) cost of playing an Action Card"),
        S("6.action-cards.4", "Some cards also have a Ducat cost"),
        S("6.action-cards.5", "The cost of playing an Action Card (or Action on a Display Card)",
          remark="Tested with a game effect that reduces a cost below zero: the cost paid is 0 "
                 "and the player gains nothing."),
        S("6.action-cards.6", "When playing a card for its Action, resolve its effect"),
        S("6.action-cards.7", "All Action Cards are dual-purpose."),
        S("6.action-cards.8", "You may play the card to take its Action, or to Appoint"),
    ),
    _section(
        CHAPTER, (ACTION_CARDS, "Characters (Leaders & Advisors)"), "6.characters",
        S("6.characters.1", "Each Action Card depicts a character"),
        S("6.characters.2", "Take the Appoint Advisor/Leader Action",
          remark="Tested: a character serves only once appointed from the hand; playing the "
                 "card for its Action appoints nobody. Hiring costs (5.2, 9.4) are not part "
                 "of this chapter."),
        S("6.characters.3", "See more in section 7.2.",
          untestable="a pointer to section 7.2; it states no behaviour to test"),
    ),
    _section(
        CHAPTER, (ACTION_CARDS, "Cards in Hand"), "6.cards-in-hand",
        S("6.cards-in-hand.1", "Cards in hand should be kept secret"),
        S("6.cards-in-hand.2", "The hand size limit for Action Cards is 5",
          remark="Between two checks a hand may hold any number of cards."),
    ),
    _section(
        CHAPTER, (ACTION_CARDS, "Decks and Discard Piles"), "6.decks",
        S("6.decks.1", "The Action Card decks are placed next to each other",
          remark="Where the decks lie on the table cannot be tested; what is tested is that "
                 "there are three decks (Administrative, Diplomatic, Military), kept apart: "
                 "each starts with its own cards and is drawn from on its own."),
        S("6.decks.2", "Discard piles are created as needed",
          remark="Each deck has its own discard pile; a discarded card goes face up on top "
                 "of the pile of the deck it belongs to."),
        S("6.decks.3", "The discard piles are public information."),
        S("6.decks.4", "If a deck is empty when you need to draw a card",
          remark="The deck is rebuilt when a card must be drawn from it, not when it empties."),
        S("6.decks.5", "If the discard pile has 5 or fewer cards when the deck is empty"),
    ),
    _section(
        CHAPTER, (ACTION_CARDS, THREE_DECKS, "Administrative Deck"), "6.1.administrative",
        S("6.1.administrative.1", "The Administrative Deck is in many ways",
          untestable="a description of what the deck's cards are about; no behaviour to test"),
    ),
    _section(
        CHAPTER, (ACTION_CARDS, THREE_DECKS, "Diplomatic Deck"), "6.1.diplomatic",
        S("6.1.diplomatic.1", "Cards in the Diplomatic Deck will be useful",
          untestable="a description of what the deck's cards are about; no behaviour to test"),
        S("6.1.diplomatic.2", "They are also necessary if you wish to expand",
          untestable="a description of what the deck's cards are about; no behaviour to test"),
        S("6.1.diplomatic.3", "Many cards require a minimum of",
          untestable="says that many cards state a requirement of their own; which cards and "
                     "what minimum is card text, not a rule of this chapter"),
    ),
    _section(
        CHAPTER, (ACTION_CARDS, THREE_DECKS, "Military Deck"), "6.1.military",
        S("6.1.military.1", "Unsurprisingly, the Military Deck contains",
          untestable="a description of what the deck's cards are about; no behaviour to test"),
        S("6.1.military.2", "They can give increased mobility",
          untestable="a description of what the deck's cards are about; no behaviour to test"),
    ),
    _section(
        CHAPTER, (ACTION_CARDS, SPECIAL_CARDS, "Display Cards"), "6.2.display",
        S("6.2.display.1", "Display Cards are marked with",
          untestable="how a Display Card is recognised in print; the card facts record it as "
                     "the kind 'display'"),
        S("6.2.display.2", "They act differently from other Action Cards",
          remark="Tested: the card's place (on display, seen by every player) and its "
                 "charges; the player's Supply of tokens is not modelled."),
        S("6.2.display.3", "They rarely have any other effect",
          untestable="'rarely' describes the card texts, not a rule; what a card does on the "
                     "Turn it is played is card text"),
        S("6.2.display.4", "In subsequent Turns, when on display"),
        S("6.2.display.5", "These Actions work just like any other Actions"),
        S("6.2.display.6", "However, some of them are marked as Battle Actions or Reactions"),
        S("6.2.display.7", "Each time you take one of the Actions on a Display Card"),
        S("6.2.display.8", "Once the last `z` on a Display Card has been spent"),
        S("6.2.display.9", "Note: You can have a maximum of 2 Display Cards",
          remark="Playing a second copy of a card already on display is refused; the maximum "
                 "of 2 is kept by the discard of 6.2.display.10."),
        S("6.2.display.10", "If you play a Display Card when you already have 2 in play",
          remark="The player chooses the card to discard (a pending decision); the reference "
                 "engine offers the two that were in play before."),
    ),
    _section(
        CHAPTER, (ACTION_CARDS, SPECIAL_CARDS, "Battle Actions"), "6.2.battle",
        S("6.2.battle.1", "Battle Actions are cards (and Actions on Action Cards)"),
        S("6.2.battle.2", "These Actions are marked with a `€` icon"),
        S("6.2.battle.3", "In each Round of Battle, each side may only benefit",
          remark="'Side': all attackers, or all defenders. 'Particular': by name; two "
                 "copies of one card are the same Battle Action."),
        S("6.2.battle.4", "Battle Dice gained from Battle Actions remain"),
        S("6.2.battle.5", "For each Battle Die icon depicted"),
        S("6.2.battle.6", "A die icon with a \"?\" on it"),
    ),
    _section(
        CHAPTER, (ACTION_CARDS, SPECIAL_CARDS, "Reactions"), "6.2.reactions",
        S("6.2.reactions.1", "Action Cards that are marked as Reactions",
          remark="Like other Reactions (5.2): played out of turn or outside the Action Phase, "
                 "even while another card is being played, without taking a Turn."),
    ),
    _section(
        CHAPTER, (ACTION_CARDS, SPECIAL_CARDS, "Covert Actions"), "6.2.covert",
        S("6.2.covert.1", "The Diplomatic Deck has a number of Action Cards",
          untestable="says which cards carry the Covert Action mark; that is card data (the "
                     "card facts' kind 'covert'), and countering them is 6.2.covert.2"),
        S("6.2.covert.2", "Just like other Covert Actions",
          remark="Tested both ways: a countered Covert Action has no effect, and "
                 "Counterespionage counters nothing that is not a Covert Action."),
        S("6.2.covert.3", "If a card is countered, it is discarded"),
        S("6.2.covert.4", "If a Covert Action on a Display Card is prevented"),
    ),
    _section(
        CLEANUP, ("4.5 Phase 5: Cleanup", "C. Discard down to 5 Action Cards"), "4.5.c",
        S("4.5.c.1", "All players must discard down to a maximum hand size of 5"),
        S("4.5.c.2", "Players may choose which card(s) to discard."),
        S("4.5.c.3", "Display Cards that are in play do not count towards the 5-card limit."),
    ),
)


class CatalogError(Exception):
    """The sources and the sentence table disagree; names the file, line and id when known."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 item_id: str | None = None) -> None:
        self.path, self.line, self.item_id = path, line, item_id
        where = f"{path}:{line}" if path and line is not None else (path or "")
        prefix = f"{where}: " if where else ""
        if item_id:
            prefix += f"[{item_id}] "
        super().__init__(prefix + message)


@dataclass(frozen=True)
class Sentence:
    """One sentence of a source, under its headings (outermost first), where it was."""

    source: str
    line: int
    headings: tuple[str, ...]
    text: str


# -- reading the sources ---------------------------------------------------------------------

_WIKI_HEADING = re.compile(r"^(?P<marks>={2,6})\s*(?P<title>.*?)\s*(?P=marks)\s*$")
_MD_HEADING = re.compile(r"^(?P<marks>#{1,6})\s+(?P<title>.*?)\s*$")
_CODE = re.compile(r"<code>(?P<icon>[^<]*)</code>")
_ICON_IN_PARENS = re.compile(r"\s*\(\s*(?:<code>[^<]*</code>|`[^`]*`)\s*\)")
_LIST_MARKER = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
#: A sentence ends at . ! or ? followed by a space and a capital, an icon or an opening mark;
#: "p. 13" and "7.2." inside a sentence are therefore never ends.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"'])")


def _collapse(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def render_inline(text: str) -> str:
    """Markup to words: wiki/Markdown emphasis dropped, icons kept in backticks.

    The chapter marks icons with ``<code>d</code>``; the related chapters with `` `d` ``.
    Both become `` `d` ``, so that a catalog sentence reads the same whichever file it is from.
    """
    text = _CODE.sub(lambda m: f"`{m['icon']}`" if m["icon"] else "", text)
    text = re.sub(r"'{2,}", "", text)  # wiki ''italic'', '''bold''', '''''both'''''
    text = re.sub(r"\*{1,3}", "", text)  # Markdown *italic*, **bold**
    return _collapse(html.unescape(text))


def heading_title(raw: str) -> str:
    """A heading as the table names it: the icon after a title, ``Display Cards (™)``, dropped."""
    return render_inline(_ICON_IN_PARENS.sub("", raw))


def split_sentences(paragraph: str) -> list[str]:
    return [s for s in _SENTENCE_END.split(paragraph) if s]


def parse_source(text: str, rel: str) -> list[Sentence]:
    """Every sentence of a wiki or Markdown chapter, with its headings and line.

    Both files use one line per paragraph; a front-matter block (``---`` ... ``---``) is
    skipped. Headings nest by level: ``#`` is 1, ``==`` 2, ``===`` 3 (``##``, ``###`` alike); a
    level may be skipped (the chapter puts ``===`` right under ``#``).
    """
    lines = text.splitlines()
    start = 0
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
        if end is None:
            raise CatalogError("the front matter opened on line 1 is never closed", path=rel,
                               line=1)
        start = end + 1
    headings: list[tuple[int, str]] = []  # (level, title), outermost first
    sentences: list[Sentence] = []
    for lineno in range(start + 1, len(lines) + 1):
        line = lines[lineno - 1]
        if not line.strip():
            continue
        heading = _WIKI_HEADING.match(line) or _MD_HEADING.match(line)
        if heading:
            level = len(heading["marks"])
            while headings and headings[-1][0] >= level:
                headings.pop()
            headings.append((level, heading_title(heading["title"])))
            continue
        paragraph = render_inline(_LIST_MARKER.sub("", line))
        for sentence in split_sentences(paragraph):
            sentences.append(Sentence(rel, lineno, tuple(t for _, t in headings), sentence))
    return sentences


def _read(sources_dir: Path, rel: str) -> str:
    try:
        return (sources_dir / rel).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CatalogError(f"file not found under {sources_dir} (pass the right --sources)",
                           path=rel) from None


def _sha256(sources_dir: Path, rel: str) -> str:
    """Hash a source so that the catalog records exactly which input it came from."""
    return hashlib.sha256((sources_dir / rel).read_bytes()).hexdigest()


# -- the table, checked ----------------------------------------------------------------------


def check_table(sections: Sequence[Section] = SECTIONS) -> None:
    """The table itself: ids unique, each its section's prefix and a counter, prefixes unique."""
    seen: dict[str, str] = {}
    prefixes: dict[str, tuple[str, ...]] = {}
    for section in sections:
        if prefixes.setdefault(section.prefix, section.headings) != section.headings:
            raise CatalogError(f"two headings share the id prefix {section.prefix!r}",
                               path=section.source)
        for statement in section.statements:
            if not re.fullmatch(re.escape(section.prefix) + r"\.[1-9]\d*", statement.id):
                raise CatalogError(
                    f"an id under {' > '.join(section.headings)} must be "
                    f"{section.prefix}.N (N = 1, 2, ...)", path=section.source,
                    item_id=statement.id)
            if statement.id in seen:
                raise CatalogError("the id is given to two sentences", path=section.source,
                                   item_id=statement.id)
            seen[statement.id] = statement.opening
            if statement.untestable is not None and not statement.untestable.strip():
                raise CatalogError("an untestable mark needs its reason", path=section.source,
                                   item_id=statement.id)


def map_sentences(sentences_by_source: dict[str, list[Sentence]],
                  sections: Sequence[Section] = SECTIONS) -> list[tuple[Statement, Sentence]]:
    """Match every sentence to exactly one statement of the table, in reading order.

    Every sentence of the canonical chapter must be mapped; in a related chapter, every
    sentence under a heading the table lists. Every statement must find its sentence.
    """
    check_table(sections)
    by_heading = {(s.source, s.headings): s for s in sections}
    canonical = {rel for rel, role in SOURCES if role == "canonical"}
    mapped: list[tuple[Statement, Sentence]] = []
    found: dict[str, Sentence] = {}
    for rel, sentences in sentences_by_source.items():
        for sentence in sentences:
            section = by_heading.get((rel, sentence.headings))
            if section is None:
                if rel in canonical:
                    raise CatalogError(
                        f"the heading {' > '.join(sentence.headings) or '(none)'} is not in "
                        f"the sentence table, so this sentence has no id: {sentence.text!r}. "
                        f"Add the heading to SECTIONS in {MODULE}",
                        path=rel, line=sentence.line)
                continue
            hits = [s for s in section.statements if sentence.text.startswith(s.opening)]
            if not hits:
                raise CatalogError(
                    f"a sentence with no id under {' > '.join(sentence.headings)}: "
                    f"{sentence.text!r}. Map it in SECTIONS in {MODULE} with the next free "
                    f"{section.prefix}.N (existing ids never change)",
                    path=rel, line=sentence.line)
            if len(hits) > 1:
                raise CatalogError(
                    f"the sentence matches {', '.join(h.id for h in hits)}; make their "
                    f"openings tell them apart: {sentence.text!r}", path=rel, line=sentence.line)
            statement = hits[0]
            if statement.id in found:
                raise CatalogError(
                    f"a second sentence starts with {statement.opening!r} (the first is on "
                    f"line {found[statement.id].line}): {sentence.text!r}",
                    path=rel, line=sentence.line, item_id=statement.id)
            found[statement.id] = sentence
            mapped.append((statement, sentence))
    for section in sections:
        for statement in section.statements:
            if statement.id not in found:
                lines = [s.line for s in sentences_by_source.get(section.source, [])
                         if s.headings == section.headings]
                raise CatalogError(
                    f"no sentence under {' > '.join(section.headings)} starts with "
                    f"{statement.opening!r} any more: the rule was reworded or removed; review "
                    f"the source and the table in {MODULE} (ids of removed rules are retired, "
                    "never reused)",
                    path=section.source, line=min(lines) if lines else None,
                    item_id=statement.id)
    return mapped


# -- catalog -------------------------------------------------------------------------------


def _source_ref(sentence: Sentence) -> str:
    return f"{sentence.source}:{sentence.line} > {' > '.join(sentence.headings)}"


def build_catalog(sources_dir: Path = DEFAULT_SOURCES) -> dict[str, Any]:
    """Read the sources, map every sentence to its id, return the catalog as plain data."""
    sources_dir = Path(sources_dir)
    sentences = {rel: parse_source(_read(sources_dir, rel), rel) for rel, _ in SOURCES}
    rules: list[dict[str, Any]] = []
    for statement, sentence in map_sentences(sentences):
        entry: dict[str, Any] = {
            "id": statement.id,
            "kind": "rule",
            "parent": None,
            "text": sentence.text,
            "source": _source_ref(sentence),
            "testable": statement.untestable is None,
        }
        if statement.untestable is not None:
            entry["untestable_reason"] = statement.untestable
        if statement.remark is not None:
            entry["remark"] = statement.remark
        rules.append(entry)
    return {
        "game": GAME,
        "title": TITLE,
        "generated_by": MODULE,
        "sources": [{"path": rel, "role": role, "sha256": _sha256(sources_dir, rel)}
                    for rel, role in SOURCES],
        "rules": rules,
    }


def render(obj: Any) -> str:
    """The catalog as written to disk (the layout every generated catalog shares)."""
    return render_generated(obj, MODULE)


def main(argv: Sequence[str] | None = None) -> int:
    """Write (or, with --check, verify) catalog.yaml; 0 ok, 1 stale, 2 error."""
    parser = argparse.ArgumentParser(prog=f"python -m {MODULE}",
                                     description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--sources", type=Path, default=DEFAULT_SOURCES,
                        help=f"rule sources directory (default: {DEFAULT_SOURCES})")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"where the catalog goes (default: {DEFAULT_OUT})")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if the catalog is stale")
    args = parser.parse_args(argv)
    try:
        text = render(build_catalog(args.sources))
    except CatalogError as exc:
        print(f"error: {exc}", file=sys.stderr)
        print("The sources are kept as received: if a source changed, review the change and "
              f"update the sentence table in {MODULE}; if a path is wrong, pass --sources.",
              file=sys.stderr)
        return 2
    path = args.out / CATALOG_FILE
    if path.exists() and path.read_bytes() == text.encode("utf-8"):
        return 0
    if args.check:
        print(f"stale: {path} (regenerate with: python -m {MODULE})", file=sys.stderr)
        return 1
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
