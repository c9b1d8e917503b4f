"""The reviewed editorial tables of the TI4 catalog: what is untestable, how a rule is read,
where a sentence is split into clauses and which sentences are waived, how the Russian
comments and sentences align with the English ones, and which renderings word a rule
differently.

Why apart: these are decisions a reviewer makes and checks, not parsing; keeping them in one
place shows the whole of what the importer adds to the sources.
"""

from __future__ import annotations

from oracle.games.kit.editions import EditionSource
from oracle.games.kit.sentences import Clause, Waiver
from oracle.games.ti4.importer.common import CANONICAL, HTML_PAGE, MARKDOWN, RUSSIAN

#: Editorial decision: ids that state no behaviour, so no scenario can check them.
UNTESTABLE: dict[str, str] = {
    "note-11": (
        "a pointer to the action card component notes page; it states no behaviour to test"
    ),
}

#: Interpretation remarks, kept next to the rule so that a reviewer sees the reading we test.
REMARKS: dict[str, str] = {
    "note-5": (
        'The text says "During the action phase", but the dealing it describes (with notes '
        "5.1 and 5.2) is the status phase's Draw Action Cards step, which deals in initiative "
        "order. Scenarios test the dealing order wherever several players are dealt cards."
    ),
}

#: Reviewed alignment of the Russian comments ("КОММЕНТАРИИ", numbered 1-9) with the English
#: notes. The Russian edition lacks note 2 (hand size is public), sub-notes 5.1 and 5.2
#: (Neural Motivator, Yssaril) and the pointer note 11, so from comment 2 on the numbers drift.
RU_COMMENT_TO_NOTE: dict[int, str] = {
    1: "note-1",
    2: "note-3",
    3: "note-4",
    4: "note-5",
    5: "note-6",
    6: "note-7",
    7: "note-8",
    8: "note-9",
    9: "note-10",
}

#: One (English, Russian) marker pair per comment. Each marker must occur in its own item and in
#: *no other* note (English) or comment (Russian), case-insensitively, so a shifted or swapped
#: pair cannot pass. (Numerals such as "zero"/"0" were rejected: note 8 and comment 7 also say
#: zero/0, so they would not tell neighbours apart.)
RU_COMMENT_CHECKS: dict[int, tuple[str, str]] = {
    1: ("start the game", "начинают игру"),
    2: ("reveal", "показать"),
    3: ("shuffle", "замешайте"),
    4: ("initiative order", "порядке инициативы"),
    5: ("Sabotage", "Саботаж"),
    6: ("Lucky Shot", "Удачное попадание"),
    7: ("no effect", "никакого эффекта"),
    8: ("Repeal Law", "Отклонить закон"),
    9: ("seven", "семи"),
}

#: Editorial splits: a sentence that states two things is cited as two clauses, split where
#: the second begins (in the Russian too, where its sentence joins them the same way).
CLAUSES: tuple[Clause, ...] = (
    Clause("2.6", "and describes the timing",
           "how the card is printed (bold) is not a rule an engine can break; what the "
           "paragraph is for (the card's timing) is",
           {"ru": "и описывает"}),
    Clause("2.8", "and is discarded",
           "two outcomes of a cancel, broken apart by different mistakes: the card's "
           "effect happens anyway, or the card stays out of the discard pile",
           {"ru": "а карта сбрасывается"}),
    Clause("note-10", "and the Hacan player cannot trade them",
           "two ways out of the discard that are refused, by different rules (playing a "
           "card; the Hacan's trading); the Russian already gives each its own sentence"),
)

#: Editorial waivers: sentences of testable rules that state nothing an engine does.
WAIVERS: tuple[Waiver, ...] = (
    Waiver("2.6", "The first paragraph of each action card is presented in bold text",
           "how the card is printed (bold type); an engine shows no print, and the card "
           "facts record each card's timing, which 2.6's second clause states"),
)

#: Reviewed alignment of the Russian sentences with the English ones, for every rule or
#: note of more than one sentence (a one-sentence rule aligns with its one Russian sentence):
#: per English sentence in order, an (English, Russian) marker pair, or (English, None)
#: where the Russian lacks that sentence. Each marker must occur in its own sentence and in
#: no other sentence of the rule, so a shifted or swapped alignment cannot pass.
RU_SENTENCE_CHECKS: dict[str, tuple[tuple[str, str | None], ...]] = {
    "2.4": (("maximum of seven", "не более 7"), ("must choose seven", "должен выбрать")),
    "2.6": (("bold text", "полужирным"), ("describes the timing", "описывает")),
    "2.6.1": (("must use a component action", "должен совершить"),
              ("cannot resolve a component action", "не может совершить")),
    "2.6.2": (("same name", "одинаковым названием"), ("Canceled cards", "отменённая карта")),
    "2.7": (("reads and resolves", "читает"), ("discards the card", "стопку сброса")),
    "2.8": (("no effect", "не применяется"), ("is discarded", "сбрасывается")),
    "note-8": (("may target zero", "0 таких"),
               ("even if they would cause no effect", "никакого эффекта")),
    "note-9": (("cannot be played if those objects", "этих объектов не существует"),
               ("Repeal Law", "Отклонить закон")),
    "note-10": (("discard the excess", "сбросить лишние"),
                ("cannot play them", "не может их сыграть"), ("Hacan", "Хакан")),
}

#: Reviewed: (rendering, rule id) pairs whose wording is known to differ from the canonical
#: YAML after the cross-check's normalisation, and why. Each differing sentence is kept in the
#: catalog under that rendering (for drift between editions); any other difference fails the
#: import. None today: the three English renderings agree word for word.
RENDERING_WORDING: dict[tuple[str, str], str] = {}

#: Reviewed: the lines of a related chapter that are sub-headings, not statements (the items
#: under them keep the heading). Any other line at item level that ends no statement fails.
CONTEXT_HEADINGS: dict[str, tuple[str, ...]] = {
    "ti4/related/R_abilities.txt": ("Costs", "Timing", "Component–specific Rules"),
}

#: Reviewed: the editions the section comes in (sources/README.md). The three English files
#: are renderings of one text, the Living Rules Reference; the Russian translates an older,
#: shorter edition, the printed Rules Reference, where the section is 28. None of the files
#: carries a date or a version number: ``date`` stays None (unknown) rather than guessed, and
#: ``version`` says what is known. ``rules-oracle run --edition NAME`` takes these names.
EDITIONS: tuple[EditionSource, ...] = (
    EditionSource("lrr", CANONICAL, "canonical", "en",
                  "rules 2.1-2.8 (sub-rules 2.4.1, 2.6.1, 2.6.2), notes 1-11 (5.1, 5.2)",
                  "Living Rules Reference, structured YAML (undated)",
                  about="the canonical rendering: anchors are numbered from its sentences"),
    EditionSource("lrr-wiki", MARKDOWN, "rendering", "en",
                  "rule points 1-8 with sub-points; notes unnumbered, by position",
                  "Living Rules Reference, a rules wiki's Markdown (undated)",
                  about="the same text as the canonical, cross-checked sentence by sentence"),
    EditionSource("lrr-site", HTML_PAGE, "rendering", "en",
                  "an ordered list counted 2.1-2.8 (CSS counter); notes by position",
                  "Living Rules Reference, an LRR web site's page R_action_cards.php "
                  "(48 lines, 4.19 KB; undated)",
                  about="the same text as the canonical, with the page's emphasis and links, "
                        "cross-checked sentence by sentence"),
    EditionSource("ru", RUSSIAN, "translation", "ru",
                  "section 28: points 28.1-28.8 with lettered sub-points (а, б), comments "
                  "1-9 for the notes",
                  "Russian translation of the printed Rules Reference, an older and shorter "
                  "edition (undated)",
                  about="aligned to the English sentences through reviewed markers"),
)
