'use strict';
/**
 * A small rules engine for Europa Universalis: The Price of Power, chapter 6 "Action Cards",
 * written from the rulebook chapter and its neighbouring chapters. It knows nothing of
 * rules-oracle: adapter.js translates the protocol onto it.
 *
 * What it models: three Action decks with face-up discard piles (6.decks), drawing with the
 * reshuffle that leaves the top 5 discards out (6.decks.4-5), secret hands (6.cards-in-hand.1),
 * Monarch Power pools and the Treasury, playing a card for its Action (cost of the deck's
 * type, Ducat cost, reductions never below 0, effect then discard: 6.action-cards.2-6),
 * Turns of the Action Phase (a card played for its Action takes the Turn; Minor Actions do
 * not), Appointing a card's character (6.characters, 5.2; no hiring cost is charged), the
 * hand limit of 5 checked only in Phase 5 Step C (4.5.C), and Covert Actions countered by
 * Counterespionage (6.2 Covert Actions).
 *
 * What it does not model: Display Cards, Battles and Battle Actions, Reactions other than
 * Counterespionage, Passing, Events, Basic Actions other than "something else" (a Turn may
 * end without an Action of this chapter: the player took a Basic Action the engine does
 * not model).
 *
 * Errors: RuleError (the rules forbid it; the game is left as it was), Lacks (the engine
 * does not model it), BadInput (the request names something not in the game).
 */

const POWERS = ['administrative', 'diplomatic', 'military'];
const HAND_LIMIT = 5; // 6.cards-in-hand.2
const KEEP_ON_RESHUFFLE = 5; // 6.decks.4

class RuleError extends Error {
  constructor(message, rule) { super(message); this.rule = rule; }
}
class Lacks extends Error {
  constructor(message, capability) { super(message); this.capability = capability; }
}
class BadInput extends Error {
  constructor(message, context) { super(message); this.context = context; }
}

/** mulberry32: a small seeded generator, so that every shuffle is reproducible. */
function rng(seed) {
  let a = (seed >>> 0) || 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The cards this engine can carry out (play for their Action), by name. */
const MODELLED = new Set([
  'Royal Decree', 'Tax Reform', 'Royal Marriage', 'Secret Treaty', 'Counterespionage',
  'Forced March',
  // A Reaction whose printed condition the stand-in does not give: this engine lets it
  // interrupt play at any moment, on any Turn and in any phase (5.2 Reactions).
  'Court Intrigue',
]);

class CardBook {
  constructor(facts) {
    this.byName = new Map();
    for (const deck of POWERS) {
      for (const card of facts.decks[deck] || []) this.byName.set(card.name, { ...card, deck });
    }
  }
  get(name) {
    const card = this.byName.get(name);
    if (!card) throw new BadInput(`'${name}' is no Action Card of this game`, { card: name });
    return card;
  }
  has(name) { return this.byName.has(name); }
  deckOf(name) { return this.get(name).deck; }
  kinds(name) { return this.get(name).kinds || []; }
  isModelled(name) { return MODELLED.has(name); }
  /** Every copy of every card of one deck, in card-facts order. */
  fullDeck(deck) {
    const out = [];
    for (const card of this.byName.values()) {
      if (card.deck !== deck) continue;
      for (let i = 0; i < (card.count || 1); i += 1) out.push(card.name);
    }
    return out;
  }
}

function removeOne(list, card) {
  const i = list.indexOf(card);
  if (i < 0) return false;
  list.splice(i, 1);
  return true;
}

class Game {
  /**
   * players: [{name, hand?, power?, ducats?, reductions?, advisors?, leaders?}] in seat order;
   * piles: {deck: {draw, discard}} for the decks given (top first); the others are built
   * whole and shuffled.
   */
  constructor(book, { players, piles, phase, active, seed }) {
    this.book = book;
    this.random = rng(seed);
    this.seats = players.map((p) => p.name);
    if (new Set(this.seats).size !== this.seats.length) {
      throw new BadInput('a player is seated twice', { players: this.seats });
    }
    this.players = {};
    for (const p of players) {
      const power = { administrative: 3, diplomatic: 3, military: 3, ...(p.power || {}) };
      this.players[p.name] = {
        hand: [...(p.hand || [])], // a new player holds no card (the setup draw is not modelled)
        power,
        ducats: p.ducats === undefined ? 15 : p.ducats,
        reductions: { administrative: 0, diplomatic: 0, military: 0, ducats: 0, ...(p.reductions || {}) },
        advisors: [...(p.advisors || [])],
        leaders: [...(p.leaders || [])],
      };
      for (const c of [...this.players[p.name].hand, ...this.players[p.name].advisors,
        ...this.players[p.name].leaders]) this.book.get(c);
    }
    for (const p of players) {
      for (const c of p.advisors || []) {
        if (this.book.get(c).character !== 'advisor') throw new BadInput(`'${c}' depicts no Advisor`, { card: c });
      }
      for (const c of p.leaders || []) {
        if (this.book.get(c).character !== 'leader') throw new BadInput(`'${c}' depicts no Leader`, { card: c });
      }
    }
    this.decks = {};
    for (const deck of POWERS) {
      const given = piles[deck];
      if (given) {
        for (const c of [...given.draw, ...given.discard]) {
          if (this.book.deckOf(c) !== deck) {
            throw new BadInput(`'${c}' belongs to the ${this.book.deckOf(c)} deck, not the ${deck} deck`, { card: c, deck });
          }
        }
        this.decks[deck] = { draw: [...given.draw], discard: [...given.discard] };
      }
    }
    // A deck the state leaves out is the whole deck less the copies already elsewhere.
    const elsewhere = [];
    for (const p of Object.values(this.players)) elsewhere.push(...p.hand, ...p.advisors, ...p.leaders);
    for (const deck of POWERS) {
      if (this.decks[deck]) continue;
      const cards = this.book.fullDeck(deck);
      for (const c of elsewhere) removeOne(cards, c);
      this.decks[deck] = { draw: this.shuffle(cards), discard: [] };
    }
    if (!['draw', 'action', 'peace', 'income', 'cleanup'].includes(phase)) {
      throw new BadInput(`no phase '${phase}'`, { phase });
    }
    this.phase = phase;
    this.active = active === undefined ? this.seats[0] : active;
    this.player(this.active);
    this.turn = 1;
    this.turnActionTaken = false;
    this.stack = []; // cards being played, in play order
    this.pending = []; // decisions waited for
  }

  shuffle(cards) {
    const out = [...cards];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.random() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  player(name) {
    const p = this.players[name];
    if (!p) throw new BadInput(`no player '${name}' at this table`, { players: this.seats });
    return p;
  }

  /** Run a move; if the rules forbid it, put everything back as it was. */
  atomically(move) {
    const saved = JSON.stringify(this.snapshot());
    const random = this.random;
    try {
      return move();
    } catch (e) {
      this.restore(JSON.parse(saved));
      this.random = random;
      throw e;
    }
  }
  snapshot() {
    return { players: this.players, decks: this.decks, phase: this.phase, active: this.active,
      turn: this.turn, turnActionTaken: this.turnActionTaken, stack: this.stack, pending: this.pending };
  }
  restore(s) { Object.assign(this, s); }

  owesDecision(name) {
    if (this.pending.some((d) => d.player === name)) {
      throw new RuleError(`${name} must first answer the decision they owe`, null);
    }
  }

  // --- Drawing (6.decks.4-5) ---------------------------------------------------------------

  draw(name, deck, count) {
    const p = this.player(name);
    if (!POWERS.includes(deck)) throw new BadInput(`no deck '${deck}'`, { decks: POWERS });
    if (!Number.isInteger(count) || count < 0) throw new BadInput(`cannot draw ${count} cards`, {});
    const piles = this.decks[deck];
    const drawn = [];
    for (let i = 0; i < count; i += 1) {
      if (piles.draw.length === 0) this.rebuild(deck);
      if (piles.draw.length === 0) break; // both piles empty: take what there is
      const card = piles.draw.shift();
      p.hand.push(card);
      drawn.push(card);
    }
    return { event: 'drew', player: name, deck, count: drawn.length };
  }

  rebuild(deck) {
    const piles = this.decks[deck];
    if (piles.discard.length > KEEP_ON_RESHUFFLE) {
      const stays = piles.discard.slice(0, KEEP_ON_RESHUFFLE);
      piles.draw = this.shuffle(piles.discard.slice(KEEP_ON_RESHUFFLE));
      piles.discard = stays;
    } else {
      piles.draw = this.shuffle(piles.discard);
      piles.discard = [];
    }
  }

  discard(card) {
    this.decks[this.book.deckOf(card)].discard.unshift(card);
  }

  // --- Costs (6.action-cards.3-5) ------------------------------------------------------------

  costOf(name, card) {
    const facts = this.book.get(card);
    const r = this.player(name).reductions;
    return {
      power: facts.deck,
      amount: Math.max(0, (facts.cost || 0) - (r[facts.deck] || 0)),
      ducats: Math.max(0, (facts.ducats || 0) - (r.ducats || 0)),
    };
  }

  pay(name, card) {
    const p = this.player(name);
    const cost = this.costOf(name, card);
    if (p.power[cost.power] < cost.amount) {
      throw new RuleError(`${name} has ${p.power[cost.power]} ${cost.power} power; '${card}' costs ${cost.amount}`,
        'eu-pop:6.action-cards.3');
    }
    if (p.ducats < cost.ducats) {
      throw new RuleError(`${name} has ${p.ducats} Ducats; '${card}' costs ${cost.ducats}`, 'eu-pop:6.action-cards.4');
    }
    p.power[cost.power] -= cost.amount;
    p.ducats -= cost.ducats;
    return cost;
  }

  // --- Playing a card for its Action --------------------------------------------------------

  play(name, card, targets) {
    const p = this.player(name);
    const facts = this.book.get(card);
    if (!this.book.isModelled(card)) throw new Lacks(`this engine does not model '${card}'`, `eu-pop/card/${card}`);
    return this.atomically(() => {
      this.owesDecision(name);
      if (!p.hand.includes(card)) throw new RuleError(`${name} holds no '${card}'`, null);
      const kinds = facts.kinds || [];
      let counters = null;
      if (card === 'Counterespionage') {
        counters = this.counterTarget(name, targets);
      } else if (targets && targets.card !== undefined) {
        throw new BadInput(`'${card}' counters nothing: it takes no card target`, { targets });
      }
      if (!kinds.includes('reaction')) {
        // A card played for its Action takes the whole Turn (6.action-cards.2).
        if (this.phase !== 'action') {
          throw new RuleError(`Action Cards are played for their Action on a Turn of the Action Phase, not in the ${this.phase} phase`,
            'eu-pop:6.action-cards.2');
        }
        if (this.active !== name) throw new RuleError(`it is ${this.active}'s Turn, not ${name}'s`, 'eu-pop:6.action-cards.2');
        if (this.turnActionTaken) throw new RuleError(`${name} has already taken this Turn's Action`, 'eu-pop:6.action-cards.2');
        if (this.stack.length) throw new RuleError(`'${this.stack[this.stack.length - 1].card}' is still being played`, null);
        this.turnActionTaken = true;
      }
      removeOne(p.hand, card);
      const paid = this.pay(name, card);
      this.stack.push({ player: name, card, countered: false, counters });
      return { event: 'plays', player: name, card, paid };
    });
  }

  /** Counterespionage answers a Covert Action being played (6.2 Covert Actions). */
  counterTarget(name, targets) {
    if (!this.stack.length) throw new RuleError('no Covert Action is being played to counter', 'eu-pop:6.2.covert.2');
    let index = this.stack.length - 1;
    if (targets && targets.card !== undefined) {
      this.book.get(targets.card);
      index = -1;
      for (let i = this.stack.length - 1; i >= 0; i -= 1) {
        if (this.stack[i].card === targets.card && !this.stack[i].countered) { index = i; break; }
      }
      if (index < 0) throw new RuleError(`'${targets.card}' is not being played`, 'eu-pop:6.2.covert.2');
    }
    const target = this.stack[index];
    if (!this.book.kinds(target.card).includes('covert')) {
      throw new RuleError(`'${target.card}' is no Covert Action: Counterespionage counters Covert Actions only`, 'eu-pop:6.2.covert.2');
    }
    if (target.player === name) throw new RuleError(`${name} cannot counter their own card`, null);
    return index;
  }

  /** Every player passes: the cards being played resolve, last played first. */
  resolveAll() {
    const events = [];
    while (this.stack.length) {
      const entry = this.stack.pop();
      if (entry.countered) {
        events.push({ event: 'countered', player: entry.player, card: entry.card });
      } else {
        if (entry.counters !== null && this.stack[entry.counters]) this.stack[entry.counters].countered = true;
        const effect = this.book.get(entry.card).effect;
        if (effect && effect.ducats) this.player(entry.player).ducats += effect.ducats;
        events.push({ event: 'resolved', player: entry.player, card: entry.card });
      }
      this.discard(entry.card); // 6.action-cards.6; a countered card is discarded too
    }
    return events;
  }

  // --- Minor Action: Appoint Advisor/Leader (6.characters.2, 5.2) ----------------------------

  appoint(name, card) {
    const p = this.player(name);
    const facts = this.book.get(card);
    return this.atomically(() => {
      this.owesDecision(name);
      if (!p.hand.includes(card)) throw new RuleError(`${name} holds no '${card}'`, null);
      if (this.phase !== 'action') throw new RuleError(`Appoint is taken on a Turn of the Action Phase, not in the ${this.phase} phase`, 'eu-pop:6.characters.2');
      if (this.active !== name) throw new RuleError(`it is ${this.active}'s Turn, not ${name}'s`, 'eu-pop:6.characters.2');
      if (this.stack.length) throw new RuleError(`'${this.stack[this.stack.length - 1].card}' is still being played`, null);
      removeOne(p.hand, card);
      (facts.character === 'advisor' ? p.advisors : p.leaders).push(card);
      return { event: 'appointed', player: name, card, as: facts.character };
    });
  }

  // --- Turns ---------------------------------------------------------------------------------

  /**
   * The active player ends their Turn. A Turn with no Action of this chapter was spent on a
   * Basic Action the engine does not model; the next player clockwise takes the Turn.
   */
  endTurn(name) {
    this.player(name);
    return this.atomically(() => {
      if (this.phase !== 'action') throw new RuleError(`there are no Turns in the ${this.phase} phase`, null);
      if (this.active !== name) throw new RuleError(`${name} is not the active player`, null);
      if (this.stack.length) throw new RuleError(`'${this.stack[this.stack.length - 1].card}' is still being played`, null);
      this.owesDecision(name);
      const next = (this.seats.indexOf(name) + 1) % this.seats.length;
      this.active = this.seats[next];
      this.turn += 1;
      this.turnActionTaken = false;
      return { event: 'turn', active: this.active, turn: this.turn };
    });
  }

  // --- Phase 5, Step C: discard down to 5 (4.5.C, 6.cards-in-hand.2) ---------------------------

  stepC() {
    return this.atomically(() => {
      if (this.phase !== 'cleanup') {
        throw new RuleError(`the hand limit is only checked in Phase 5, Step C, not in the ${this.phase} phase`,
          'eu-pop:6.cards-in-hand.2');
      }
      if (this.pending.length) throw new RuleError('Step C is already waiting for discards', null);
      for (const name of this.seats) {
        const over = this.players[name].hand.length > HAND_LIMIT;
        if (over) this.pending.push({ player: name, decision: 'keep', count: HAND_LIMIT, from: 'hand' });
      }
      return { event: 'step C', waiting_for: this.pending.map((d) => d.player) };
    });
  }

  /** A player answers the decision they owe: the only one this engine asks is Step C's keep. */
  answer(name, kind, cards) {
    const p = this.player(name);
    return this.atomically(() => {
      const i = this.pending.findIndex((d) => d.player === name);
      if (i < 0) throw new RuleError(`${name} has no decision to make`, null);
      const decision = this.pending[i];
      if (kind !== decision.decision) throw new RuleError(`${name} is asked which cards to ${decision.decision}, not to ${kind}`, null);
      if (cards.length !== decision.count) throw new RuleError(`${name} must keep exactly ${decision.count} cards`, 'eu-pop:4.5.c.1');
      const rest = [...p.hand];
      for (const c of cards) {
        this.book.get(c);
        if (!removeOne(rest, c)) throw new RuleError(`${name} holds no (further) '${c}'`, null);
      }
      p.hand = [...cards];
      for (const c of rest) this.discard(c);
      this.pending.splice(i, 1);
      return { event: 'kept', player: name, discarded: rest.length };
    });
  }

  // --- What a viewer sees ----------------------------------------------------------------------

  view(viewer) {
    const referee = viewer === '*';
    if (viewer !== null && !referee) this.player(viewer);
    const players = {};
    for (const name of this.seats) {
      const p = this.players[name];
      const own = referee || viewer === name; // hands are secret (6.cards-in-hand.1)
      players[name] = {
        hand: { count: p.hand.length, cards: own ? [...p.hand] : [] },
        hand_limit: HAND_LIMIT,
        power: { ...p.power },
        ducats: p.ducats,
        cost_reductions: { ...p.reductions },
        advisors: [...p.advisors],
        leaders: [...p.leaders],
      };
    }
    const decks = {};
    for (const deck of POWERS) {
      const draw = { count: this.decks[deck].draw.length };
      if (referee) draw.cards = [...this.decks[deck].draw];
      decks[deck] = { draw, discard: [...this.decks[deck].discard] }; // public (6.decks.3)
    }
    return {
      phase: this.phase,
      active_player: this.phase === 'action' ? this.active : null,
      turn: this.turn,
      players,
      decks,
      being_played: this.stack.map((e) => ({ player: e.player, card: e.card })),
      pending: this.pending.map((d) => ({ ...d })),
    };
  }
}

module.exports = { Game, CardBook, RuleError, Lacks, BadInput, POWERS, MODELLED };
