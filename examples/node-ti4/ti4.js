'use strict';
/**
 * A Twilight Imperium 4 action-card engine speaking the rules-oracle adapter protocol v1
 * (docs/protocol.md), written from the protocol and the Living Rules Reference "Action Cards"
 * rules. `new Ti4Engine().handle(request)` takes one request object and returns one reply
 * object; it never throws. `engine.js` puts it on stdin/stdout.
 *
 * Card facts (names, copies, phase, timing window) come from cards.json, generated from
 * features/ti4/cards.yaml by make_cards.py. The few card effects the engine carries out are
 * described below as structure (what they target), never as card text.
 */

const fs = require('fs');
const path = require('path');

const REFEREE = '*';
const ACTION_DECK = 'action';
const ACTION_WINDOW = 'Action';
const SABOTAGE = 'Sabotage';

/** The laws this engine holds in play (declared as ti4/law/NAME): Minister of Commerce's
 * effect (trade goods when commodities are replenished) touches nothing it holds. */
const LAWS = ['Minister of Commerce'];

const RULE = {
  r2_1: 'ti4:2.1', r2_2: 'ti4:2.2', r2_4: 'ti4:2.4', r2_6: 'ti4:2.6', r2_6_1: 'ti4:2.6.1',
  r2_6_2: 'ti4:2.6.2', r2_7: 'ti4:2.7', note3: 'ti4:note-3', note5_2: 'ti4:note-5.2',
  note7: 'ti4:note-7', note9: 'ti4:note-9', note10: 'ti4:note-10',
};

const BASE_HAND_LIMIT = 7;          // ti4:2.4
const STARTING_HAND_SIZE = 0;       // ti4:note-1
const STATUS_DRAW = 1;              // ti4:2.1
const NEURAL_MOTIVATOR_DRAW = 2;    // ti4:note-5.1
const POLITICS_DRAW = 2;            // ti4:2.2
const SCHEMING_EXTRA = 1;           // ti4:note-5.2
const SCHEMING_DISCARD = 1;         // ti4:note-5.2
const PHASES = ['strategy', 'action', 'status', 'agenda'];
const YSSARIL = 'Yssaril';
const HACAN = 'Hacan';
const NEURAL_MOTIVATOR = 'Neural Motivator';
const POLITICS = 'Politics';
const TOKEN_POOLS = ['tactic', 'fleet', 'strategy'];
const STARTING_TOKENS = { tactic: 3, fleet: 3, strategy: 2 };

const SHIPS = ['war_sun', 'dreadnought', 'cruiser', 'carrier', 'destroyer', 'fighter', 'flagship'];
const GROUND_FORCES = ['infantry', 'mech'];
const STRUCTURES = ['pds', 'space_dock'];
const UNIT_TYPES = new Set([...SHIPS, ...GROUND_FORCES, ...STRUCTURES]);

/**
 * The modelled cards. target: what the card chooses (unit, law, player, trade_goods, units =
 * "each of your units", card = a card being played). specific: needs that many objects to
 * exist (ti4:note-9); anyNumber: "any number"/"up to"/"each" (ti4:note-8); offensive: may not
 * target its own player (ti4:note-7).
 */
const MODELS = {
  'Lucky Shot': { target: 'unit', unitTypes: ['dreadnought', 'cruiser', 'destroyer'],
    offensive: true, specific: true, effect: 'destroyUnit' },
  'Direct Hit': { target: 'unit', unitTypes: SHIPS, offensive: true, specific: true,
    effect: 'destroyUnit' },
  'Repeal Law': { target: 'law', specific: true, effect: 'repealLaw' },
  Insubordination: { target: 'player', offensive: true, specific: true,
    effect: 'removeTacticToken' },
  Bribery: { target: 'trade_goods', anyNumber: true, effect: 'spendTradeGoods' },
  'Morale Boost': { target: 'units', anyNumber: true, effect: 'combatModifier' },
  [SABOTAGE]: { target: 'card', effect: 'cancel' },
};

const ACTIONS = {
  draw: 'actDraw',
  play: 'actPlay',
  resolve: 'actResolve',
  reveal: 'actReveal',
  window: 'actWindow',
  end_turn: 'actEndTurn',
  politics_primary: 'actPoliticsPrimary',
  politics_secondary: 'actPoliticsSecondary',
  status_draw: 'actStatusDraw',
  trade: 'actTrade',
};

const STATE_KEYS = new Set(['players', 'decks', 'phase', 'active_player', 'window', 'speaker',
  'initiative', 'laws', 'units']);
const PLAYER_KEYS = new Set(['name', 'hand', 'faction', 'technologies', 'command_tokens',
  'trade_goods', 'strategy_cards', 'hand_limit_modifier']);
const TARGET_KEYS = new Set(['unit', 'law', 'player', 'trade_goods', 'card']);

// -- outcomes other than "accepted" ---------------------------------------------------------

/** A broken request or impossible state: reply `errored`. */
class RequestError extends Error {
  constructor(message, context = {}) { super(message); this.context = context; }
}

/** Something this engine does not model: reply `unsupported`. */
class Unsupported extends Error {
  constructor(reason, capability = null) { super(reason); this.capability = capability; }
}

/** The rules forbid the action: reply `rejected`, and the state is put back. */
class Rejected extends Error {
  constructor(reason, rule = null) { super(reason); this.rule = rule; }
}

function reject(reason, rule = null) { throw new Rejected(reason, rule); }

// -- small helpers --------------------------------------------------------------------------

const repr = (v) => (v === undefined ? 'undefined' : JSON.stringify(v));
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (obj, key) => Object.prototype.hasOwnProperty.call(obj, key);
const isInt = (v) => typeof v === 'number' && Number.isInteger(v);

function need(obj, key, kind, where) {
  if (!has(obj, key)) throw new RequestError(`${where} needs '${key}'`);
  const v = obj[key];
  const ok = kind === 'object' ? isObject(v) : kind === 'array' ? Array.isArray(v)
    : typeof v === kind;
  if (!ok) throw new RequestError(`${where}: '${key}' has the wrong type: ${repr(v)}`);
  return v;
}

function strList(v, where) {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
    throw new RequestError(`${where} must be a list of strings, got ${repr(v)}`);
  }
  return [...v];
}

function count(v, where) {
  if (!isInt(v) || v < 0) {
    throw new RequestError(`${where} must be a non-negative integer, got ${repr(v)}`);
  }
  return v;
}

function tally(cards) {
  const t = new Map();
  for (const c of cards) t.set(c, (t.get(c) || 0) + 1);
  return t;
}

/** Is `cards` a sub-multiset of `hand`? */
function contains(hand, cards) {
  const have = tally(hand);
  for (const [c, n] of tally(cards)) if ((have.get(c) || 0) < n) return false;
  return true;
}

function normaliseUnitType(kind) {
  return kind.trim().toLowerCase().replace(/[ -]/g, '_');
}

const sameKey = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// -- the seeded shuffle ---------------------------------------------------------------------

/** A 32-bit seed from the setup's `seed` (an integer, or a string). */
function seedFrom(seed) {
  const text = String(seed);
  let h = 2166136261 >>> 0; // FNV-1a
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h;
}

/** mulberry32: one step of the generator kept in `game.rng` (so snapshots include it). */
function nextRandom(game) {
  game.rng = (game.rng + 0x6d2b79f5) >>> 0;
  let t = game.rng;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function shuffle(game, list) {
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(nextRandom(game) * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
}

// -- card facts -----------------------------------------------------------------------------

function loadFacts(file = path.join(__dirname, 'cards.json')) {
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  const facts = new Map();
  const deck = [];
  for (const entry of data.decks[ACTION_DECK]) {
    facts.set(entry.name, entry);
    for (let i = 0; i < entry.count; i += 1) deck.push(entry.name);
  }
  return { facts, deck };
}

// -- the engine -----------------------------------------------------------------------------

class Ti4Engine {
  constructor(facts = loadFacts()) {
    this.name = 'rules-oracle node TI4 example';
    this.version = '0.1.0';
    this.facts = facts.facts;
    this.fullDeck = facts.deck;
    this.game = null;
    this.events = [];
  }

  /** Answer one request; every failure becomes a reply. */
  handle(request) {
    const op = isObject(request) ? request.op : undefined;
    try {
      if (!isObject(request)) {
        throw new RequestError(`a request must be a JSON object, got ${repr(request)}`);
      }
      switch (op) {
        case 'describe': return this.opDescribe();
        case 'setup': return this.opSetup(request);
        case 'act': return this.opAct(request);
        case 'choose': return this.opChoose(request);
        case 'observe': return this.opObserve(request);
        default: throw new RequestError(`unknown op ${repr(op)}`, { op: op === undefined ? null : op });
      }
    } catch (err) {
      if (err instanceof RequestError) {
        return { reply: 'errored', message: err.message, context: { op: op ?? null, ...err.context } };
      }
      if (err instanceof Unsupported) {
        const reply = { reply: 'unsupported', reason: err.message };
        if (err.capability) reply.capability = err.capability;
        return reply;
      }
      const e = err instanceof Error ? err : new Error(String(err));
      return {
        reply: 'errored',
        message: `internal error: ${e.name}: ${e.message}`,
        context: { op: op ?? null, exception: e.name, traceback: String(e.stack || '') },
      };
    }
  }

  capabilities() {
    return [
      'ti4/draw', 'ti4/play', 'ti4/windows', 'ti4/reveal', 'ti4/hand-limit', 'ti4/status-phase',
      'ti4/politics', 'ti4/transactions', 'ti4/sabotage', 'ti4/units', 'ti4/laws',
      ...LAWS.map((law) => `ti4/law/${law}`),
      'ti4/trade-goods', `ti4/faction/${YSSARIL}`, `ti4/faction/${HACAN}`,
      `ti4/technology/${NEURAL_MOTIVATOR}`,
      ...Object.keys(MODELS).map((card) => `ti4/card/${card}`),
    ];
  }

  opDescribe() {
    return {
      reply: 'described',
      engine: {
        name: this.name,
        version: this.version,
        protocol: 1,
        games: [{ game: 'ti4', edition: 'LRR, Prophecy of Kings action deck' }],
        capabilities: this.capabilities(),
      },
    };
  }

  requireGame() {
    if (this.game === null) throw new RequestError("no game is set up: send 'setup' first");
    return this.game;
  }

  /** The named player, or errored: an unknown name is a broken scenario, not a rule. */
  player(name) {
    const game = this.requireGame();
    if (typeof name !== 'string' || !has(game.players, name)) {
      throw new RequestError(`unknown player ${repr(name)}`, { players: game.seats });
    }
    return game.players[name];
  }

  fact(name, where) {
    if (typeof name !== 'string' || !this.facts.has(name)) {
      throw new RequestError(`${where}: unknown action card ${repr(name)}`);
    }
    return this.facts.get(name);
  }

  cardList(v, where) {
    const cards = strList(v, where);
    for (const c of cards) this.fact(c, where);
    return cards;
  }

  emit(event, fields = {}) { this.events.push({ event, ...fields }); }

  opAct(request) {
    const action = need(request, 'action', 'object', 'act');
    const type = need(action, 'type', 'string', 'action');
    const method = has(ACTIONS, type) ? ACTIONS[type] : null;
    if (!method) throw new Unsupported(`this engine does not know the action type ${repr(type)}`);
    return this.transaction(() => this[method](action));
  }

  opChoose(request) {
    const player = this.player(need(request, 'player', 'string', 'choose'));
    const choice = need(request, 'choice', 'object', 'choose');
    return this.transaction(() => this.choose(player, choice));
  }

  /** Run one act/choose; a rejection or any failure puts the snapshot back. */
  transaction(run) {
    const snapshot = structuredClone(this.requireGame());
    this.events = [];
    try {
      run();
    } catch (err) {
      this.game = snapshot;
      if (err instanceof Rejected) {
        const reply = { reply: 'rejected', reason: err.message };
        if (err.rule) reply.rule = err.rule;
        return reply;
      }
      throw err;
    }
    return { reply: 'accepted', events: this.events };
  }

  // -- setup --------------------------------------------------------------------------------

  opSetup(request) {
    this.game = null;
    if (request.game !== 'ti4') {
      throw new Unsupported(`this engine plays only 'ti4', not ${repr(request.game)}`);
    }
    const seed = has(request, 'seed') ? request.seed : 0;
    if (!isInt(seed) && typeof seed !== 'string') {
      throw new RequestError(`'seed' must be an integer, got ${repr(seed)}`);
    }
    const state = need(request, 'state', 'object', 'setup');
    this.game = this.buildState(state, seedFrom(seed));
    return { reply: 'ready' };
  }

  buildState(state, rng) {
    const unknown = Object.keys(state).filter((k) => !STATE_KEYS.has(k)).sort();
    if (unknown.length) throw new Unsupported(`this engine does not model state keys ${repr(unknown)}`);
    const rawPlayers = need(state, 'players', 'array', 'state');
    if (!rawPlayers.length) throw new RequestError('state.players must list at least one player');
    const players = {};
    const seats = [];
    const newPlayers = [];
    rawPlayers.forEach((raw, i) => {
      const { player, hasHand } = this.buildPlayer(raw, `state.players[${i}]`);
      if (has(players, player.name)) throw new RequestError(`player ${repr(player.name)} is listed twice`);
      players[player.name] = player;
      seats.push(player.name);
      if (!hasHand) newPlayers.push(player.name);
    });
    const known = (name, where) => {
      if (typeof name !== 'string' || !has(players, name)) {
        throw new RequestError(`${where}: unknown player ${repr(name)}`);
      }
      return name;
    };

    let initiative = [...seats];
    if (has(state, 'initiative')) {
      initiative = strList(state.initiative, 'state.initiative').map((n) => known(n, 'state.initiative'));
      if (initiative.length !== seats.length || new Set(initiative).size !== seats.length) {
        throw new RequestError(`state.initiative must list every player exactly once, got ${repr(initiative)}`);
      }
    }
    let phase = has(state, 'phase') ? state.phase : 'action';
    if (typeof phase !== 'string' || !PHASES.includes(phase.toLowerCase())) {
      throw new RequestError(`state.phase must be one of ${repr(PHASES)}, got ${repr(phase)}`);
    }
    phase = phase.toLowerCase();
    let active = state.active_player ?? null;
    if (active !== null) active = known(active, 'state.active_player');
    else if (phase === 'action') [active] = initiative;
    let speaker = state.speaker ?? null;
    if (speaker !== null) speaker = known(speaker, 'state.speaker');
    let window = state.window ?? null;
    if (window !== null && typeof window !== 'string') {
      throw new RequestError(`state.window must be a string, got ${repr(window)}`);
    }
    if (window === null && phase === 'action') window = ACTION_WINDOW;
    const laws = strList(state.laws ?? [], 'state.laws');
    for (const law of laws) {
      if (!LAWS.includes(law)) {
        throw new Unsupported(`this engine does not model the law ${repr(law)}`, `ti4/law/${law}`);
      }
    }
    const units = this.buildUnits(state.units ?? [], players);

    const decks = state.decks ?? {};
    if (!isObject(decks)) throw new RequestError(`state.decks must be an object, got ${repr(decks)}`);
    const otherDecks = Object.keys(decks).filter((d) => d !== ACTION_DECK).sort();
    if (otherDecks.length) {
      throw new Unsupported(`this engine models only the action deck, not ${repr(otherDecks)}`);
    }
    const game = {
      players, seats, initiative, phase, activePlayer: active, window, speaker, laws, units,
      draw: [], discard: [], rng,
      beingPlayed: [], // play records on the stack, in play order
      played: [], // play records that resolved (cancelled ones never get here)
      pending: [], // {player, decision, count}
      dealing: [], // the rest of a status-phase deal: [name, count], next first
      dealOpen: false, // a deal is going on: an emptied deck waits (ti4:81.note-2)
      dealResume: null, // [name, cards still to take, Scheming's extra, cards taken before]
      statusDealt: false,
      turn: 0,
      windowOccurrence: 0,
      actionTaken: false,
      strategicAction: null, // the card whose primary was resolved this turn (ti4:66.3)
      exhausted: [],
      nextSeq: 0,
    };
    if (has(decks, ACTION_DECK)) {
      const deck = decks[ACTION_DECK];
      if (!isObject(deck) || Object.keys(deck).some((k) => k !== 'draw' && k !== 'discard')) {
        throw new RequestError("state.decks.action must be {'draw': [...], 'discard': [...]}");
      }
      game.draw = this.cardList(deck.draw ?? [], 'state.decks.action.draw');
      game.discard = this.cardList(deck.discard ?? [], 'state.decks.action.discard');
    } else {
      // An absent deck is the full deck, less the cards already in hands, shuffled.
      game.draw = [...this.fullDeck];
      for (const name of seats) {
        for (const card of players[name].hand) {
          const at = game.draw.indexOf(card);
          if (at >= 0) game.draw.splice(at, 1);
        }
      }
      shuffle(game, game.draw);
    }
    this.game = game;
    // ti4:note-1: a player with no `hand` gets a new game's hand, dealt in initiative order.
    for (const name of initiative) {
      if (newPlayers.includes(name)) players[name].hand.push(...this.takeFromDeck(STARTING_HAND_SIZE));
    }
    for (const name of initiative) this.handChanged(players[name]);
    this.events = [];
    return game;
  }

  buildPlayer(raw, where) {
    if (!isObject(raw)) throw new RequestError(`${where} must be an object, got ${repr(raw)}`);
    const unknown = Object.keys(raw).filter((k) => !PLAYER_KEYS.has(k)).sort();
    if (unknown.length) throw new Unsupported(`${where}: this engine does not model ${repr(unknown)}`);
    const name = need(raw, 'name', 'string', where);
    if (name === '__proto__') throw new RequestError(`${where}: a player cannot be called '__proto__'`);
    const faction = raw.faction ?? null;
    if (faction !== null && typeof faction !== 'string') {
      throw new RequestError(`${where}.faction must be a string, got ${repr(faction)}`);
    }
    const tokens = { ...STARTING_TOKENS };
    const rawTokens = raw.command_tokens ?? {};
    if (!isObject(rawTokens)) {
      throw new RequestError(`${where}.command_tokens must be an object, got ${repr(rawTokens)}`);
    }
    for (const [pool, n] of Object.entries(rawTokens)) {
      if (!TOKEN_POOLS.includes(pool)) throw new RequestError(`${where}.command_tokens: unknown pool ${repr(pool)}`);
      tokens[pool] = count(n, `${where}.command_tokens.${pool}`);
    }
    const modifier = raw.hand_limit_modifier ?? 0;
    if (!isInt(modifier)) {
      throw new RequestError(`${where}.hand_limit_modifier must be an integer, got ${repr(modifier)}`);
    }
    const player = {
      name,
      faction,
      technologies: strList(raw.technologies ?? [], `${where}.technologies`),
      commandTokens: tokens,
      tradeGoods: count(raw.trade_goods ?? 0, `${where}.trade_goods`),
      strategyCards: strList(raw.strategy_cards ?? [], `${where}.strategy_cards`),
      handLimitModifier: modifier,
      hand: this.cardList(raw.hand ?? [], `${where}.hand`),
      revealed: {}, // card -> how many copies in the hand everybody may see (ti4:note-3)
    };
    return { player, hasHand: has(raw, 'hand') };
  }

  buildUnits(rawUnits, players) {
    if (!Array.isArray(rawUnits)) throw new RequestError(`state.units must be a list, got ${repr(rawUnits)}`);
    const seen = new Set();
    return rawUnits.map((raw, i) => {
      const where = `state.units[${i}]`;
      if (!isObject(raw)) throw new RequestError(`${where} must be an object, got ${repr(raw)}`);
      const id = need(raw, 'id', 'string', where);
      const owner = need(raw, 'owner', 'string', where);
      const type = need(raw, 'type', 'string', where);
      if (seen.has(id)) throw new RequestError(`unit id ${repr(id)} is used twice`);
      seen.add(id);
      if (!has(players, owner)) throw new RequestError(`${where}: unknown owner ${repr(owner)}`);
      if (!UNIT_TYPES.has(normaliseUnitType(type))) {
        throw new RequestError(`${where}: unknown unit type ${repr(type)}`);
      }
      return { ...raw };
    });
  }

  // -- the deck (ti4:2.3, ti4:note-4) ---------------------------------------------------------

  /** ti4:2.3: cards come off the top one at a time; an emptied pile is reshuffled at once. */
  takeFromDeck(n) {
    const game = this.game;
    const taken = [];
    for (let i = 0; i < n; i += 1) {
      this.reshuffleIfDepleted();
      if (!game.draw.length) break;
      taken.push(game.draw.shift());
      // ti4:note-4: immediately, not at the next draw; in a deal, once those dealt from the
      // old deck have discarded down to their hand limit (ti4:81.note-2: dealTo does it).
      if (!game.dealOpen) this.reshuffleIfDepleted();
    }
    return taken;
  }

  /** ti4:note-4: an empty draw pile becomes the shuffled discard pile. */
  reshuffleIfDepleted() {
    const game = this.game;
    if (game.draw.length || !game.discard.length) return;
    game.draw = game.discard;
    game.discard = [];
    shuffle(game, game.draw);
    this.emit('reshuffled', { deck: ACTION_DECK, count: game.draw.length });
  }

  /** ti4:2.7, ti4:2.8: discarded cards go on top of the action discard pile. */
  discard(card) { this.game.discard.unshift(card); }

  /** ti4:2.3 with Scheming (ti4:note-5.2), then the hand limit (ti4:2.4). */
  playerDraws(player, n) {
    if (n <= 0) return;
    const extra = player.faction === YSSARIL ? SCHEMING_EXTRA : 0;
    this.drawCards(player, n + extra, extra, 0);
  }

  /** Take `total` cards (Scheming's `extra` among them; `before`: taken before a deal
   * waited), then the Scheming discard or the hand-limit check. */
  drawCards(player, total, extra, before) {
    const drawn = this.takeFromDeck(total);
    player.hand.push(...drawn);
    this.emit('drew', { player: player.name, count: drawn.length });
    if (extra && (drawn.length || before) && player.hand.length) {
      this.addPending(player.name, 'discard', Math.min(SCHEMING_DISCARD, player.hand.length));
      return;
    }
    this.handChanged(player);
  }

  // -- the hand limit (ti4:2.4, ti4:2.4.1, ti4:note-10) -------------------------------------

  handLimit(player) { return BASE_HAND_LIMIT + player.handLimitModifier; }

  handChanged(player) {
    const limit = this.handLimit(player);
    if (player.hand.length > limit && !this.pendingFor(player.name)) {
      this.addPending(player.name, 'keep', Math.max(0, limit));
    }
  }

  addPending(player, decision, n) {
    this.game.pending.push({ player, decision, count: n });
    this.emit('must_choose', { player, decision, count: n });
  }

  pendingFor(name) { return this.game.pending.find((p) => p.player === name) || null; }

  /** ti4:note-10 / ti4:note-5.2: a pending decision comes before anything else the player does. */
  checkNotPending(name, doing) {
    const p = this.pendingFor(name);
    if (!p) return;
    if (p.decision === 'keep') {
      reject(`${name} has more action cards than the hand limit and must discard down to `
        + `${p.count} before they can ${doing}`, RULE.note10);
    }
    reject(`${name} must first discard ${p.count} card(s) for Scheming before they can ${doing}`,
      RULE.note5_2);
  }

  choose(player, choice) {
    const p = this.pendingFor(player.name);
    if (!p) reject(`${player.name} has no decision to make`);
    const rule = p.decision === 'keep' ? RULE.r2_4 : RULE.note5_2;
    const keys = Object.keys(choice);
    if (keys.length !== 1 || keys[0] !== p.decision) {
      reject(`${player.name} must answer with '${p.decision}', got ${repr(keys.sort())}`, rule);
    }
    const cards = strList(choice[p.decision], `choice.${p.decision}`);
    if (cards.length !== p.count) {
      reject(`${player.name} must ${p.decision} exactly ${p.count} card(s), not ${cards.length}`, rule);
    }
    if (!contains(player.hand, cards)) reject(`${player.name}'s hand does not hold ${repr(cards)}`, rule);
    this.game.pending.splice(this.game.pending.indexOf(p), 1);
    if (p.decision === 'keep') {
      const keep = tally(cards);
      const gone = [];
      for (const card of player.hand) {
        if (keep.get(card) > 0) keep.set(card, keep.get(card) - 1);
        else gone.push(card);
      }
      this.removeFromHand(player, gone);
      gone.forEach((c) => this.discard(c));
      this.emit('discarded', { player: player.name, cards: gone });
    } else {
      this.removeFromHand(player, cards);
      cards.forEach((c) => this.discard(c));
      this.emit('discarded', { player: player.name, cards });
      this.handChanged(player);
    }
    this.continueDealing();
  }

  /** Take cards out of a hand; a revealed copy stays known only while a copy remains. */
  removeFromHand(player, cards) {
    for (const card of cards) player.hand.splice(player.hand.indexOf(card), 1);
    const have = tally(player.hand);
    const revealed = {};
    for (const [card, n] of Object.entries(player.revealed)) {
      const k = Math.min(n, have.get(card) || 0);
      if (k > 0) revealed[card] = k;
    }
    player.revealed = revealed;
  }

  // -- dealing (ti4:2.1, ti4:note-5, ti4:note-5.1, ti4:note-5.2) -------------------------------

  /** Deal the rest of the queue, one player at a time, pausing while a decision is pending;
   * a deal over reshuffles a deck it emptied (ti4:note-4). */
  continueDealing() {
    const game = this.game;
    while (!game.pending.length) {
      if (game.dealResume) {
        const [name, total, extra, before] = game.dealResume;
        game.dealResume = null;
        this.drawCards(game.players[name], total, extra, before);
      } else if (game.dealing.length) {
        const [name, n] = game.dealing.shift();
        this.dealTo(game.players[name], n);
      } else {
        break;
      }
    }
    if (game.dealOpen && !game.dealing.length && !game.dealResume && !game.pending.length) {
      game.dealOpen = false;
      this.reshuffleIfDepleted();
    }
  }

  /** One player's turn in a deal: when the deck runs out part-way through their cards, they
   * take the old deck's last cards and discard down to the hand limit if they must; the
   * deal waits, reshuffles, then deals them the rest (ti4:81.note-2, ti4:66.note-1). */
  dealTo(player, n) {
    const game = this.game;
    const extra = player.faction === YSSARIL ? SCHEMING_EXTRA : 0;
    const total = n + extra;
    if (n <= 0 || game.draw.length >= total || !game.draw.length || !game.discard.length) {
      this.playerDraws(player, n);
      return;
    }
    const last = this.takeFromDeck(game.draw.length);
    player.hand.push(...last);
    this.emit('drew', { player: player.name, count: last.length });
    this.handChanged(player);
    game.dealResume = [player.name, total - last.length, extra, last.length];
  }

  actStatusDraw() {
    const game = this.game;
    this.checkNothingBeingPlayed('draw action cards');
    if (game.phase !== 'status') reject('action cards are dealt in the status phase', RULE.r2_1);
    for (const p of game.pending) this.checkNotPending(p.player, 'go on with the dealing');
    if (game.dealing.length || game.dealResume || game.statusDealt) {
      reject("this status phase's cards were already dealt", RULE.r2_1);
    }
    game.statusDealt = true;
    game.dealing = game.initiative.map((name) => [name,
      game.players[name].technologies.includes(NEURAL_MOTIVATOR) ? NEURAL_MOTIVATOR_DRAW : STATUS_DRAW]);
    game.dealOpen = true;
    this.continueDealing();
  }

  // -- Politics (ti4:2.2) ------------------------------------------------------------------------

  actPoliticsPrimary(action) {
    const game = this.game;
    const player = this.player(action.player);
    const speaker = this.player(action.speaker);
    this.checkNothingBeingPlayed('resolve Politics');
    this.checkNotPending(player.name, 'resolve Politics');
    if (game.phase !== 'action') reject('Politics is resolved in the action phase', RULE.r2_2);
    if (game.activePlayer !== player.name) reject(`${player.name} is not the active player`, RULE.r2_2);
    if (!player.strategyCards.includes(POLITICS)) reject(`${player.name} does not hold Politics`, RULE.r2_2);
    if (game.exhausted.includes(POLITICS)) reject("Politics' primary ability was already used", RULE.r2_2);
    if (game.actionTaken) reject(`${player.name} has already performed an action this turn`, RULE.r2_2);
    if (speaker.name === game.speaker) reject(`${speaker.name} already holds the speaker token`, RULE.r2_2);
    game.speaker = speaker.name;
    game.exhausted.push(POLITICS);
    game.actionTaken = true;
    game.strategicAction = POLITICS;
    this.emit('speaker', { player: speaker.name });
    this.playerDraws(player, POLITICS_DRAW); // Neural Motivator does not apply here
  }

  actPoliticsSecondary(action) {
    const game = this.game;
    const player = this.player(action.player);
    this.checkNothingBeingPlayed('resolve Politics');
    this.checkNotPending(player.name, 'resolve Politics');
    if (game.phase !== 'action') reject('Politics is resolved in the action phase', RULE.r2_2);
    if (player.strategyCards.includes(POLITICS)) {
      reject(`${player.name} holds Politics and resolves its primary`, RULE.r2_2);
    }
    if (game.strategicAction !== POLITICS) {
      reject("Politics' secondary ability is resolved after the active player resolves its primary",
        RULE.r2_2);
    }
    if ((player.commandTokens.strategy || 0) < 1) {
      reject(`${player.name} has no command token in their strategy pool`, RULE.r2_2);
    }
    player.commandTokens.strategy -= 1;
    this.playerDraws(player, POLITICS_DRAW);
  }

  // -- generic actions ---------------------------------------------------------------------------

  /** ti4:2.7: a card being played resolves (or is cancelled) before the game goes on. */
  checkNothingBeingPlayed(doing) {
    const stack = this.game.beingPlayed;
    if (stack.length) {
      const top = stack[stack.length - 1];
      reject(`${top.player}'s '${top.card}' is being played: resolve it before you ${doing}`, RULE.r2_7);
    }
  }

  actDraw(action) {
    const player = this.player(action.player);
    const deck = has(action, 'deck') ? action.deck : ACTION_DECK;
    if (deck !== ACTION_DECK) throw new Unsupported(`this engine models only the action deck, not ${repr(deck)}`);
    const n = count(has(action, 'count') ? action.count : 1, 'draw.count');
    this.checkNothingBeingPlayed('draw');
    this.checkNotPending(player.name, 'draw');
    this.playerDraws(player, n);
  }

  /** ti4:note-3: a player may show any of their cards to everyone. */
  actReveal(action) {
    const player = this.player(action.player);
    const cards = this.cardList(action.cards, 'reveal.cards');
    this.checkNothingBeingPlayed('reveal cards');
    this.checkNotPending(player.name, 'reveal cards');
    if (!contains(player.hand, cards)) reject(`${player.name}'s hand does not hold ${repr(cards)}`, RULE.note3);
    const have = tally(player.hand);
    for (const [card, n] of tally(cards)) {
      player.revealed[card] = Math.min(have.get(card), Math.max(player.revealed[card] || 0, n));
    }
    this.emit('revealed', { player: player.name, cards });
  }

  /** ti4:2.6.2: a new occurrence of a timing window (same-name plays count afresh). */
  openWindow(window) {
    this.game.window = window;
    this.game.windowOccurrence += 1;
  }

  actWindow(action) {
    const window = need(action, 'window', 'string', 'window action');
    this.checkNothingBeingPlayed('open a new timing window');
    this.openWindow(window);
    this.emit('window', { window });
  }

  actEndTurn(action) {
    const game = this.game;
    const player = this.player(action.player);
    this.checkNothingBeingPlayed('end the turn');
    this.checkNotPending(player.name, 'end the turn');
    if (game.phase !== 'action') reject('turns are taken in the action phase');
    if (game.activePlayer !== player.name) reject(`${player.name} is not the active player`);
    const order = game.initiative;
    game.activePlayer = order[(order.indexOf(player.name) + 1) % order.length];
    game.turn += 1;
    game.actionTaken = false;
    game.strategicAction = null;
    this.openWindow(ACTION_WINDOW);
    this.emit('turn', { player: game.activePlayer });
  }

  /** A transaction of action cards: only with the Hacan player, never over the limit. */
  actTrade(action) {
    const game = this.game;
    const giver = this.player(action.player);
    const receiver = this.player(action.to);
    const cards = this.cardList(action.cards, 'trade.cards');
    if (!cards.length) throw new RequestError('trade.cards must name at least one card');
    if (giver.name === receiver.name) throw new RequestError('a player cannot trade with themselves');
    this.checkNothingBeingPlayed('trade');
    if (game.phase !== 'action') reject('transactions happen in the action phase');
    if (giver.faction !== HACAN && receiver.faction !== HACAN) {
      reject('only the Hacan player can exchange action cards in transactions');
    }
    this.checkNotPending(giver.name, 'trade action cards'); // ti4:note-10
    if (!contains(giver.hand, cards)) reject(`${giver.name}'s hand does not hold ${repr(cards)}`);
    this.removeFromHand(giver, cards);
    receiver.hand.push(...cards);
    this.emit('traded', { player: giver.name, to: receiver.name, count: cards.length });
    this.handChanged(receiver);
  }

  // -- playing a card: the checks ---------------------------------------------------------------

  isComponentAction(fact) { return fact.window === ACTION_WINDOW; }

  isOffensive(card) { return Boolean(MODELS[card] && MODELS[card].offensive); }

  /** ti4:note-7: an offensive card may not target its own player or their units. */
  mayTarget(name, owner, card) { return owner !== name || !this.isOffensive(card); }

  findUnit(id) { return this.game.units.find((u) => u.id === id) || null; }

  unitFits(model, unit) { return model.unitTypes.includes(normaliseUnitType(unit.type)); }

  /** ti4:2.6: Sabotage answers another player's card being played that is not a Sabotage. */
  sabotageTarget(name, targets) {
    const wanted = has(targets, 'card') ? targets.card : null;
    const stack = this.game.beingPlayed;
    for (let i = stack.length - 1; i >= 0; i -= 1) {
      const r = stack[i];
      if ((wanted === null || r.card === wanted) && r.player !== name && r.card !== SABOTAGE && !r.cancelled) {
        return r;
      }
    }
    return null;
  }

  /** ti4:2.6, ti4:2.6.1: when a card may be played. */
  checkTiming(name, fact, targets) {
    const game = this.game;
    if (fact.name === SABOTAGE) {
      if (!this.sabotageTarget(name, targets)) {
        const what = has(targets, 'card') ? `'${targets.card}'` : 'an action card';
        reject(`'${fact.name}' is played when another player plays ${what} other than `
          + `'${SABOTAGE}', and no such card is being played`, RULE.r2_6);
      }
      return;
    }
    this.checkNothingBeingPlayed(`play '${fact.name}'`);
    if (this.isComponentAction(fact)) {
      if (game.phase !== 'action') {
        reject(`'${fact.name}' is a component action: it needs the action phase`, RULE.r2_6_1);
      }
      if (game.activePlayer !== name) {
        reject(`'${fact.name}' is a component action: only the active player may play it`, RULE.r2_6_1);
      }
      if (game.actionTaken) reject(`${name} has already performed an action this turn`, RULE.r2_6_1);
      return;
    }
    if (game.window !== fact.window) {
      reject(`'${fact.name}' is played '${fact.window}'; the open window is ${repr(game.window)}`, RULE.r2_6);
    }
    const phase = fact.phase.toLowerCase();
    if (phase !== 'any' && phase !== game.phase) {
      reject(`'${fact.name}' is played in the ${phase} phase, not the ${game.phase} phase`, RULE.r2_6);
    }
  }

  /** ti4:note-7: no offensive card against oneself. */
  checkNotSelfTarget(name, fact, targets) {
    if (has(targets, 'unit')) {
      const unit = this.findUnit(targets.unit);
      if (unit && !this.mayTarget(name, unit.owner, fact.name)) {
        reject(`'${fact.name}' is offensive: ${name} cannot target their own unit '${unit.id}'`, RULE.note7);
      }
    }
    if (has(targets, 'player') && !this.mayTarget(name, targets.player, fact.name)) {
      reject(`'${fact.name}' is offensive: ${name} cannot target themselves`, RULE.note7);
    }
  }

  /** ti4:note-9: a card that needs a specific number of objects needs them to exist. */
  checkRequiredObjects(name, fact, model, targets) {
    if (!model || !model.specific) return;
    const game = this.game;
    if (model.target === 'law') {
      if (!game.laws.length) reject(`'${fact.name}' needs a law in play, and there is none`, RULE.note9);
      if (has(targets, 'law') && !game.laws.includes(targets.law)) {
        reject(`no law named '${targets.law}' is in play`, RULE.note9);
      }
    } else if (model.target === 'unit') {
      const eligible = game.units.filter((u) => this.unitFits(model, u) && this.mayTarget(name, u.owner, fact.name));
      if (!eligible.length) reject(`'${fact.name}' needs a unit it can target, and there is none`, RULE.note9);
      if (has(targets, 'unit') && !this.findUnit(targets.unit)) {
        reject(`no unit '${targets.unit}' is on the board`, RULE.note9);
      }
    } else if (model.target === 'player') {
      const eligible = game.seats.filter((p) => this.mayTarget(name, p, fact.name)
        && (game.players[p].commandTokens.tactic || 0) >= 1);
      if (!eligible.length) {
        reject(`'${fact.name}' needs another player with a tactic token, and there is none`, RULE.note9);
      }
    }
  }

  /** ti4:2.7: the choices the card asks for are made, and legally. */
  checkTargetChoice(name, fact, model, targets) {
    if (!model) return;
    if (['unit', 'law', 'player'].includes(model.target) && !has(targets, model.target)) {
      reject(`'${fact.name}' must target exactly one ${model.target}`, RULE.r2_7);
    }
    if (model.target === 'unit') {
      const unit = this.findUnit(targets.unit);
      if (unit && !this.unitFits(model, unit)) {
        reject(`'${fact.name}' targets a ${[...model.unitTypes].sort().join(', ')}; '${unit.id}' is a ${unit.type}`, RULE.r2_7);
      }
    }
    if (model.target === 'trade_goods') {
      const have = this.game.players[name].tradeGoods;
      if ((targets.trade_goods ?? 0) > have) {
        reject(`${name} cannot spend ${targets.trade_goods} trade goods with only ${have}`, RULE.r2_7);
      }
    }
  }

  /** ti4:2.6.1: a component action is played only if it can be resolved completely. */
  checkFullyResolvable(name, fact, model, targets) {
    if (!this.isComponentAction(fact) || !model) return;
    const chosen = targets[model.target];
    let why = null;
    if (model.target === 'player') {
      const target = typeof chosen === 'string' && has(this.game.players, chosen) ? this.game.players[chosen] : null;
      if (!target || (target.commandTokens.tactic || 0) < 1) why = `${chosen} has no tactic token to remove`;
    } else if (model.target === 'unit' && (!chosen || !this.findUnit(chosen))) {
      why = `unit ${repr(chosen)} is not on the board`;
    } else if (model.target === 'law' && !this.game.laws.includes(chosen)) {
      why = `law ${repr(chosen)} is not in play`;
    }
    if (why) reject(`'${fact.name}' is a component action that cannot be completely resolved: ${why}`, RULE.r2_6_1);
  }

  /**
   * ti4:2.6.2: which occurrence of a timing window a play belongs to: the turn for a
   * component action, the card it answers for a Sabotage, else the open window's occurrence.
   */
  occurrence(name, fact, targets) {
    if (fact.name === SABOTAGE) {
      const t = this.sabotageTarget(name, targets);
      return ['play', t ? t.seq : null];
    }
    if (this.isComponentAction(fact)) return ['turn', this.game.turn];
    return ['window', this.game.windowOccurrence];
  }

  /** ti4:2.6.2: what a play affects: a unit, a law, a player, a card, or the game effect (null). */
  targetKey(name, fact, targets) {
    for (const kind of ['unit', 'law', 'player']) if (has(targets, kind)) return [kind, targets[kind]];
    if (fact.name === SABOTAGE) {
      const t = this.sabotageTarget(name, targets);
      return ['card', t ? t.seq : null];
    }
    return null;
  }

  /** ti4:2.6.2: one card of a name per window occurrence and target; cancelled ones don't count. */
  checkSameName(name, fact, targets) {
    const occurrence = this.occurrence(name, fact, targets);
    const key = this.targetKey(name, fact, targets);
    const live = this.game.beingPlayed.filter((r) => !r.cancelled);
    for (const r of [...this.game.played, ...live]) {
      if (r.card === fact.name && sameKey(r.occurrence, occurrence) && sameKey(r.targetKey, key)) {
        reject(`a '${fact.name}' was already played in this timing window to affect the same thing`, RULE.r2_6_2);
      }
    }
  }

  parseTargets(raw) {
    if (raw === undefined || raw === null) return {};
    if (!isObject(raw)) throw new RequestError(`play.targets must be an object, got ${repr(raw)}`);
    const unknown = Object.keys(raw).filter((k) => !TARGET_KEYS.has(k)).sort();
    if (unknown.length) throw new RequestError(`play.targets: unknown keys ${repr(unknown)}`);
    for (const key of ['unit', 'law', 'card']) {
      if (has(raw, key) && typeof raw[key] !== 'string') {
        throw new RequestError(`play.targets.${key} must be a string, got ${repr(raw[key])}`);
      }
    }
    if (has(raw, 'player')) this.player(raw.player);
    if (has(raw, 'trade_goods')) count(raw.trade_goods, 'play.targets.trade_goods');
    if (has(raw, 'card')) this.fact(raw.card, 'play.targets.card');
    return { ...raw };
  }

  /** ti4:2.6, ti4:2.7: a player starts playing a card; it stays on the stack until `resolve`. */
  actPlay(action) {
    const game = this.game;
    const player = this.player(action.player);
    const fact = this.fact(action.card, 'play.card');
    const targets = this.parseTargets(action.targets);
    const model = MODELS[fact.name] || null;
    const name = player.name;
    this.checkNotPending(name, `play '${fact.name}'`); // ti4:note-10
    if (!player.hand.includes(fact.name)) reject(`${name} has no '${fact.name}' in hand`, RULE.r2_7);
    this.checkTiming(name, fact, targets);
    this.checkNotSelfTarget(name, fact, targets);
    this.checkRequiredObjects(name, fact, model, targets);
    this.checkTargetChoice(name, fact, model, targets);
    // ti4:note-8: an "any number"/"up to"/"each" card (anyNumber) may affect zero objects, so
    // Bribery for 0 trade goods or Morale Boost with no units is never refused for that.
    this.checkFullyResolvable(name, fact, model, targets);
    this.checkSameName(name, fact, targets);
    // A card the rules allow here but whose effect this engine does not carry out is
    // unsupported, never accepted (docs/protocol.md, "describe").
    if (!model) throw new Unsupported(`this engine does not model the effect of '${fact.name}'`,
      `ti4/card/${fact.name}`);

    const answered = fact.name === SABOTAGE ? this.sabotageTarget(name, targets) : null;
    const record = {
      seq: game.nextSeq,
      player: name,
      card: fact.name,
      targets,
      occurrence: this.occurrence(name, fact, targets),
      targetKey: this.targetKey(name, fact, targets),
      cancels: answered ? answered.seq : null,
      cancelled: false,
    };
    game.nextSeq += 1;
    this.removeFromHand(player, [fact.name]);
    game.beingPlayed.push(record);
    this.emit('playing', { player: name, card: fact.name, targets });
  }

  /**
   * ti4:2.7, ti4:2.8: everyone passes; cards resolve last played first. With nothing being
   * played, passing changes nothing and is allowed (docs/protocol.md, act).
   */
  actResolve() {
    const game = this.game;
    while (game.beingPlayed.length) {
      const record = game.beingPlayed.pop();
      if (record.cancelled) {
        // ti4:2.8, ti4:note-6: no effect, discarded, not treated as played (the action is unused).
        this.discard(record.card);
        this.emit('cancelled', { player: record.player, card: record.card });
        continue;
      }
      const model = MODELS[record.card];
      if (model) this[model.effect](record);
      game.played.push(record);
      if (this.isComponentAction(this.facts.get(record.card))) game.actionTaken = true;
      this.discard(record.card);
      this.emit('resolved', { player: record.player, card: record.card });
    }
  }

  // -- card effects (structured; no card text) ----------------------------------------------------

  destroyUnit(record) {
    const unit = this.findUnit(record.targets.unit);
    if (!unit) return;
    this.game.units.splice(this.game.units.indexOf(unit), 1);
    this.emit('destroyed', { unit: unit.id });
  }

  repealLaw(record) {
    const at = this.game.laws.indexOf(record.targets.law);
    if (at < 0) return;
    this.game.laws.splice(at, 1);
    this.emit('repealed', { law: record.targets.law });
  }

  removeTacticToken(record) {
    const target = this.game.players[record.targets.player];
    if ((target.commandTokens.tactic || 0) > 0) {
      target.commandTokens.tactic -= 1;
      this.emit('token_removed', { player: target.name, pool: 'tactic' });
    }
  }

  spendTradeGoods(record) {
    const player = this.game.players[record.player];
    const spent = Math.min(record.targets.trade_goods ?? 0, player.tradeGoods);
    player.tradeGoods -= spent;
    this.emit('spent', { player: player.name, trade_goods: spent });
  }

  /** Affects combat rolls this round, which this engine does not model. */
  combatModifier(record) { this.emit('combat_modifier', { player: record.player, card: record.card }); }

  cancel(record) {
    const target = this.game.beingPlayed.find((r) => r.seq === record.cancels);
    if (target) target.cancelled = true;
  }

  // -- observe -------------------------------------------------------------------------------------

  opObserve(request) {
    this.requireGame();
    if (!has(request, 'viewer')) throw new RequestError("observe needs 'viewer' (a player's name, null or '*')");
    const viewer = request.viewer;
    if (viewer !== null && viewer !== REFEREE) this.player(viewer);
    return { reply: 'view', view: this.view(viewer) };
  }

  /** ti4:2.5, ti4:note-3: the owner and the referee see every card; others the revealed ones. */
  visibleHand(viewer, owner) {
    if (viewer === REFEREE || viewer === owner.name) return [...owner.hand];
    const shown = { ...owner.revealed };
    return owner.hand.filter((card) => {
      if (!(shown[card] > 0)) return false;
      shown[card] -= 1;
      return true;
    });
  }

  view(viewer) {
    const game = this.game;
    const players = {};
    for (const name of game.seats) {
      const p = game.players[name];
      players[name] = {
        hand: { count: p.hand.length, cards: this.visibleHand(viewer, p) }, // ti4:note-2
        hand_limit: this.handLimit(p),
        faction: p.faction,
        technologies: [...p.technologies],
        command_tokens: { ...p.commandTokens },
        trade_goods: p.tradeGoods,
      };
    }
    const draw = { count: game.draw.length };
    if (viewer === REFEREE) draw.cards = [...game.draw];
    return {
      phase: game.phase,
      window: game.window,
      active_player: game.activePlayer,
      players,
      decks: { [ACTION_DECK]: { draw, discard: [...game.discard] } },
      being_played: game.beingPlayed.map((r) => ({ player: r.player, card: r.card })),
      pending: game.pending.map((p) => ({ player: p.player, decision: p.decision, count: p.count })),
      speaker: game.speaker,
      initiative: [...game.initiative],
      laws: [...game.laws],
      units: game.units.map((u) => ({ ...u })),
    };
  }
}

module.exports = { Ti4Engine, loadFacts, seedFrom };
