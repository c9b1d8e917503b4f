"""The reviewed editorial tables of the TI4 catalog: what is untestable, how a rule is read,
and how the Russian comments align with the English notes.

Why apart: these are decisions a reviewer makes and checks, not parsing; keeping them in one
place shows the whole of what the importer adds to the sources.
"""

from __future__ import annotations

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
