"""Broken copies of the clean-room EU engine, one slip each, as text substitutions.

Why a table and not copies: the outside developer who wrote the engine (from the pages
alone) tested the oracle by breaking their own engine in 28 ways, one slip per copy, and
checking what the oracle charged. Each slip is one edit of ``game.js`` or ``adapter.js``;
``write_variant`` applies it to a fresh copy of the engine, so the variants follow the engine
when it changes, and a slip whose text is no longer there fails loudly.

``rules`` is what a run must flag (``fail`` or ``error``) for the slip, and nothing else: the
rule whose sentence the slip breaks ("one slip, one rule"; two rules where two sentences
state the broken thing). An empty set is a slip no chapter-6 sentence forbids (the engine's
choice, or a statement of a context chapter, which gets no verdict). ``known`` names the
issue that will make a variant right where today's oracle charges more than ``rules``.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
FILES = ("game.js", "adapter.js", "cards.json")

@dataclass(frozen=True)
class Variant:
    name: str
    slip: str  # what the copy gets wrong, in words
    rules: frozenset[str]  # what a run must flag, and nothing else
    edits: tuple[tuple[str, str, str], ...]  # (file, text, replacement), each text once
    known: str = ""  # why today's oracle charges more (an issue), if it does


def _v(name: str, slip: str, rules: tuple[str, ...], *edits: tuple[str, str, str],
       known: str = "") -> Variant:
    return Variant(name, slip, frozenset(f"eu-pop:{r}" for r in rules), edits, known)


G, A = "game.js", "adapter.js"
PLAYED = "      removeOne(p.hand, card);\n      const paid"
DISCARD = "      this.discard(entry.card); // 6.action-cards.6"
APPOINT = "(facts.character === 'advisor' ? p.advisors : p.leaders).push(card);"

VARIANTS: tuple[Variant, ...] = (
    # -- Turns and Actions (6.action-cards.2, 6.characters, 6.2.reactions)
    _v("second_action_same_turn", "a second card may be played for its Action in one Turn",
       ("6.action-cards.2",),
       (G, "        if (this.turnActionTaken) throw", "        if (false) throw")),
    _v("appoint_takes_turn", "Appoint takes the Turn's Action (it is a Minor Action)",
       ("6.action-cards.2",),
       (G, f"      {APPOINT}", "      if (this.turnActionTaken) throw new RuleError('turn used',"
        f" null); this.turnActionTaken = true; {APPOINT}")),
    _v("appoint_wrong_place", "an Advisor is appointed as a Leader and the other way round",
       ("6.characters.1",),
       (G, APPOINT, "(facts.character === 'advisor' ? p.leaders : p.advisors).push(card);")),
    _v("appoint_any_time", "a player may appoint on another player's Turn", ("6.characters.2",),
       (G, "      if (this.active !== name) throw new RuleError(`it is ${this.active}'s Turn, "
        "not ${name}'s`, 'eu-pop:6.characters.2');", "")),
    _v("reaction_takes_turn", "a Reaction is played like an Action: on its player's Turn, "
       "taking it", ("6.2.reactions.1",),
       (G, "      if (!kinds.includes('reaction')) {", "      if (true) {")),
    _v("reaction_action_phase_only", "a Reaction may be played in the Action Phase only",
       ("6.2.reactions.1",),
       (G, PLAYED, "      if (this.phase !== 'action') throw new RuleError('no', null);\n"
        f"{PLAYED}")),
    _v("counterclockwise", "the Turn passes anticlockwise; only 4.2, a context chapter, says "
       "clockwise", (),
       (G, "const next = (this.seats.indexOf(name) + 1) % this.seats.length;",
        "const next = (this.seats.indexOf(name) + this.seats.length - 1) % "
        "this.seats.length;")),
    # -- costs (6.action-cards.3-5)
    _v("wrong_power_type", "every card costs Administrative power", ("6.action-cards.3",),
       (G, "      power: facts.deck,", "      power: 'administrative',")),
    _v("counter_free", "Counterespionage costs nothing", ("6.action-cards.3",),
       (G, "      const paid = this.pay(name, card);", "      const paid = card === "
        "'Counterespionage' ? null : this.pay(name, card);")),
    _v("ducats_ignored", "a Ducat cost is paid even without the Ducats", ("6.action-cards.4",),
       (G, "    if (p.ducats < cost.ducats) {", "    if (false) {")),
    _v("cost_below_zero", "reductions take a cost below 0", ("6.action-cards.5",),
       (G, "amount: Math.max(0, (facts.cost || 0) - (r[facts.deck] || 0)),",
        "amount: (facts.cost || 0) - (r[facts.deck] || 0),")),
    # -- resolving and discarding (6.action-cards.6)
    _v("no_discard_after_play", "a resolved card is not discarded", ("6.action-cards.6",),
       (G, DISCARD, "      if (entry.countered) this.discard(entry.card); // 6.action-cards.6")),
    _v("effect_on_play", "a card's effect happens when it is played, not when it resolves",
       ("6.action-cards.6",),
       (G, "      this.stack.push({ player: name, card, countered: false, counters });",
        "      const ef = facts.effect; if (ef && ef.ducats) p.ducats += ef.ducats; "
        "this.stack.push({ player: name, card, countered: false, counters, early: true });"),
       (G, "if (effect && effect.ducats) this.player",
        "if (effect && effect.ducats && !entry.early) this.player")),
    _v("card_stays_in_hand_while_played", "a played card stays in its player's hand",
       ("6.action-cards.6",), (G, PLAYED, "      const paid")),
    # -- Covert Actions (6.2.covert)
    _v("counter_anything", "Counterespionage counters any card", ("6.2.covert.2",),
       (G, "    if (!this.book.kinds(target.card).includes('covert')) {", "    if (false) {")),
    _v("effect_before_counter_check", "a countered card still takes effect",
       ("6.2.covert.2",), (G, "      if (entry.countered) {", "      if (false) {")),
    _v("countered_refund", "a countered card's cost is given back", ("6.2.covert.3",),
       (G, "      if (entry.countered) {\n", "      if (entry.countered) {\n        const c = "
        "this.costOf(entry.player, entry.card); this.player(entry.player).power[c.power] += "
        "c.amount; this.player(entry.player).ducats += c.ducats;\n")),
    _v("countered_back_to_hand", "a countered card goes back to its player's hand",
       ("6.2.covert.3",),
       (G, DISCARD, "      if (entry.countered) this.player(entry.player).hand.push(entry.card);"
        " else this.discard(entry.card); // 6.action-cards.6")),
    # -- hands (6.cards-in-hand, 4.5.C)
    _v("hands_public", "every viewer sees every hand", ("6.cards-in-hand.1",),
       (G, "const own = referee || viewer === name;", "const own = true;")),
    _v("other_sees_count_null_and_cards", "other viewers see a hand's first card (and no "
       "count)", ("6.cards-in-hand.1",),
       (G, "hand: { count: p.hand.length, cards: own ? [...p.hand] : [] },",
        "hand: { count: own ? p.hand.length : null, cards: own ? [...p.hand] : "
        "[p.hand[0]].filter(Boolean) },")),
    _v("size_hidden", "other viewers are not shown how many cards a hand holds (the chapter "
       "says nothing of the size: the engine's choice)", (),
       (G, "hand: { count: p.hand.length, cards: own ? [...p.hand] : [] },",
        "hand: { count: own ? p.hand.length : null, cards: own ? [...p.hand] : [] },")),
    _v("stepc_any_phase", "Step C's discard happens in any phase", ("6.cards-in-hand.2",),
       (G, "      if (this.phase !== 'cleanup') {", "      if (false) {")),
    _v("step_c_counts_nothing", "Step C asks only hands over 6", ("6.cards-in-hand.2", "4.5.c.1"),
       (G, "const over = this.players[name].hand.length > HAND_LIMIT;",
        "const over = this.players[name].hand.length > HAND_LIMIT + 1;")),
    _v("keep_any_number", "Step C lets a player keep fewer than 5 (the engine's choice)", (),
       (G, "      if (cards.length !== decision.count)",
        "      if (cards.length > decision.count)")),
    # -- decks and discard piles (6.decks)
    _v("discard_bottom", "a discarded card goes under its pile", ("6.decks.2",),
       (G, "    this.decks[this.book.deckOf(card)].discard.unshift(card);",
        "    this.decks[this.book.deckOf(card)].discard.push(card);")),
    _v("discards_hidden", "only the referee sees the discard piles", ("6.decks.3",),
       (G, "      decks[deck] = { draw, discard: [...this.decks[deck].discard] };",
        "      decks[deck] = { draw, discard: referee ? [...this.decks[deck].discard] : [] };")),
    _v("reshuffle_all", "the whole discard pile is reshuffled, the top 5 too", ("6.decks.4",),
       (G, "if (piles.discard.length > KEEP_ON_RESHUFFLE) {", "if (false) {")),
    _v("boundary_5", "a pile of exactly 5 is cut as if it had more", ("6.decks.5",),
       (G, "if (piles.discard.length > KEEP_ON_RESHUFFLE) {",
        "if (piles.discard.length >= KEEP_ON_RESHUFFLE) {")),
    _v("no_reshuffle", "an empty deck is never rebuilt (both sentences about it broken)",
       ("6.decks.4", "6.decks.5"),
       (G, "      if (piles.draw.length === 0) this.rebuild(deck);",
        "      if (false) this.rebuild(deck);")),
    # -- the setup (docs/protocol.md: "A player without `hand` starts with none")
    _v("setup_draw_dealt", "a player given no hand is dealt a card at setup (a protocol slip: "
       "no rule of chapter 6 is broken)", (),
       (G, "hand: [...(p.hand || [])],", "hand: p.hand ? [...p.hand] : ['Royal Decree'],")),
    # -- adapters (legal: the verdicts stay the engine's)
    _v("strict_cards", "the adapter refuses (unsupported) a setup holding a card the engine "
       "does not declare, as docs/protocol.md's 'Partial card sets' allows", (),
       (A, "      players.push({\n", "      for (const c of [...(p.hand || []), ...(p.advisors "
        "|| []), ...(p.leaders || [])]) {\n        if (BOOK.has(c) && !MODELLED.has(c)) return "
        "unsupported(`this engine does not model '${c}'`, `eu-pop/card/${c}`);\n      }\n"
        "      players.push({\n")),
)

BY_NAME = {v.name: v for v in VARIANTS}


def write_variant(name: str, folder: Path) -> Path:
    """A copy of the engine in ``folder`` with the variant's edits (``name`` "base": none);
    the adapter's path."""
    folder.mkdir(parents=True, exist_ok=True)
    for file in FILES:
        shutil.copyfile(HERE / file, folder / file)
    for file, text, replacement in (BY_NAME[name].edits if name != "base" else ()):
        source = (folder / file).read_text(encoding="utf-8")
        if source.count(text) != 1:
            raise AssertionError(f"variant {name}: {file} holds {source.count(text)} copies of "
                                 f"{text!r}, not one: has the engine changed?")
        (folder / file).write_text(source.replace(text, replacement), encoding="utf-8")
    return folder / "adapter.js"
