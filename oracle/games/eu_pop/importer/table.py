"""The reviewed sentence -> id table of the EU catalog, and its clause splits and waivers.

Why a table: the rulebook chapter numbers nothing below "6.1" and "6.2", so the ids are ours
and must never move; each is written once here, next to the opening words of the sentence it
stands for, with the editorial reason a sentence is untestable and the reading we test. Each
statement is one sentence, so its anchor is ``#1`` unless it states two things: then
``CLAUSES`` splits it, and ``WAIVERS`` marks a clause that states no behaviour.
"""

from __future__ import annotations

from dataclasses import dataclass

from oracle.games.eu_pop.importer.common import CHAPTER, CLEANUP
from oracle.games.kit.editions import EditionSource
from oracle.games.kit.sentences import Clause, Waiver

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

#: Editorial splits: a statement that states two things is cited as two clauses, split where
#: the second begins.
CLAUSES: tuple[Clause, ...] = (
    Clause("6.action-cards.3", "and is always of the type",
           "where the cost is printed, and which Monarch Power pays it: only the second is "
           "something an engine does"),
    Clause("6.action-cards.6", "and then discard that card",
           "resolving the effect and discarding the card are broken apart by different "
           "mistakes (a card kept in hand, an effect skipped)"),
    Clause("6.cards-in-hand.2", "but this is only checked in Phase 5, Step C",
           "the limit and the moment it is checked: a hand over 5 between checks is legal, "
           "which the first clause alone does not say"),
    Clause("6.2.display.2", "and charged up with a number of your",
           "where the card goes when played (on display) and the charges it gets: two "
           "behaviours an engine can get wrong apart"),
    Clause("6.2.display.9", "and never 2 of the same card",
           "two limits on Display Cards in play: how many, and no two of one card"),
    Clause("6.2.battle.2", "and can be used in any Battle",
           "how a Battle Action is marked in print, and when it may be used"),
    Clause("6.2.covert.3", "and its cost must still be paid",
           "two consequences of a counter: the card is discarded, and its cost is paid "
           "all the same"),
)

#: Editorial waivers: clauses of testable statements that state nothing an engine does.
WAIVERS: tuple[Waiver, ...] = (
    Waiver("6.action-cards.3", "The Monarch Power (`d`) cost of playing an Action Card is "
           "indicated in the card's top left corner",
           "where the cost is printed on the card; an engine shows no print (the card "
           "facts record each cost), and which Monarch Power pays is the next clause"),
    Waiver("6.2.battle.2", "These Actions are marked with a `€` icon",
           "how a Battle Action is recognised in print; the card facts record it as the "
           "kind 'battle'"),
)


#: Reviewed: the editions the chapter comes in. One today: the rulebook's chapter as a wiki
#: page, undated (``date`` None: unknown, never guessed). Phase 5 Step C, which adds rules,
#: is read from a related chapter of the same rulebook.
EDITIONS: tuple[EditionSource, ...] = (
    EditionSource("rulebook", CHAPTER, "canonical", "en",
                  "no numbers below 6.1 and 6.2: ids are the importer's own (6.decks.4), "
                  "Phase 5 Step C's from its chapter (4.5.c.1)",
                  "Europa Universalis: The Price of Power rulebook, chapter 6 as a wiki page "
                  "(undated)",
                  about="the canonical text: anchors are numbered from its sentences"),
)
