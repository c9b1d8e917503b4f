#!/usr/bin/env node
'use strict';
/**
 * A rules-oracle adapter over a pipe: one JSON request per line on stdin, one JSON reply per
 * line on stdout, each echoing the request's "id" (docs/protocol.md, "Over a pipe").
 *
 * Written by `rules-oracle new-adapter`. It already answers every request, so it passes
 * `rules-oracle smoke` as it is, and a run reports every rule `unsupported` (each scenario
 * says what was missing) until you fill in the methods below. Start with `setup` and
 * `observe`: docs/adapters.md walks from here to a first passing rule, and docs/protocol.md
 * says what each request means and which reply to give.
 *
 * From this folder:
 *
 *   rules-oracle smoke --engine "cmd:node adapter.js"
 *   rules-oracle run --engine 'cmd:node adapter.js' --rule eu-pop
 *
 * An adapter translates; it never implements a rule. Whatever the rules decide (is this move
 * legal? what does this card do? who may see this card?) is your engine's to decide.
 */

const readline = require('node:readline');

const path = require('node:path');
const fs = require('node:fs');
const { Game, CardBook, RuleError, Lacks, BadInput, MODELLED } = require('./game.js');

// Card facts as printed by `rules-oracle cards --game eu-pop --json` (cards.json beside this file).
const BOOK = new CardBook(JSON.parse(fs.readFileSync(path.join(__dirname, 'cards.json'), 'utf8')));

const ENGINE = {
  name: 'cleanroom EU action cards (Node)',
  version: '0.1.0',
  protocol: 1,
  games: [{ game: 'eu-pop', edition: 'chapter 6, illustrative stand-in cards' }],
  capabilities: [
    'eu-pop/draw', 'eu-pop/play', 'eu-pop/hand-limit', 'eu-pop/monarch-power', 'eu-pop/ducats',
    'eu-pop/cost-reductions', 'eu-pop/appoint',
    ...[...MODELLED].map((c) => `eu-pop/card/${c}`),
  ],
};

function unsupported(reason, capability = null) {
  return capability ? { reply: 'unsupported', reason, capability } : { reply: 'unsupported', reason };
}
function errored(message, context) {
  return context ? { reply: 'errored', message, context } : { reply: 'errored', message };
}

/** Keys of an object that are not in `known`: the adapter refuses what it was not told. */
function unknownKeys(obj, known) {
  return Object.keys(obj || {}).filter((k) => !known.includes(k));
}

const STATE_KEYS = ['players', 'decks', 'phase', 'active_player', 'window', 'battle'];
const PLAYER_KEYS = ['name', 'hand', 'power', 'ducats', 'cost_reductions', 'display', 'advisors', 'leaders'];
const ACTION_FIELDS = {
  draw: ['type', 'player', 'deck', 'count'],
  play: ['type', 'player', 'card', 'targets'],
  resolve: ['type'],
  end_turn: ['type', 'player'],
  appoint: ['type', 'player', 'card'],
  discard_down: ['type'],
};
const LACKED_ACTIONS = {
  use: 'eu-pop/display', battle_step: 'eu-pop/battle', battle_round: 'eu-pop/battle',
  battle_end: 'eu-pop/battle',
};

class Adapter {
  constructor() {
    this.game = null;
  }

  handle(request) {
    try {
      switch (request.op) {
        case 'describe': return { reply: 'described', engine: ENGINE };
        case 'setup': return this.setup(request.game, request.state, request.seed);
        case 'act': return this.needGame() || this.act(request.action);
        case 'choose': return this.needGame() || this.choose(request.player, request.choice);
        case 'observe': return this.needGame() || this.observe(request.viewer);
        default: return errored(`unknown op ${JSON.stringify(request.op)}`);
      }
    } catch (e) {
      if (e instanceof RuleError) {
        return e.rule ? { reply: 'rejected', reason: e.message, rule: e.rule } : { reply: 'rejected', reason: e.message };
      }
      if (e instanceof Lacks) return unsupported(e.message, e.capability);
      if (e instanceof BadInput) return errored(e.message, e.context);
      throw e;
    }
  }

  needGame() {
    return this.game ? null : errored('no game: setup first');
  }

  setup(game, state, seed) {
    if (game !== 'eu-pop') return unsupported(`this engine plays eu-pop only, not ${game}`);
    const extra = unknownKeys(state, STATE_KEYS);
    if (extra.length) return unsupported(`this engine does not know state key(s) ${extra.join(', ')}`);
    if (state.battle !== undefined) return unsupported('this engine does not model Battles', 'eu-pop/battle');
    if (state.window !== undefined && state.window !== 'Action') {
      return unsupported(`this engine knows no timing window ${JSON.stringify(state.window)}`);
    }
    const players = [];
    for (const p of state.players || []) {
      const bad = unknownKeys(p, PLAYER_KEYS);
      if (bad.length) return unsupported(`this engine does not know player key(s) ${bad.join(', ')}`);
      if (p.display && p.display.length) return unsupported('this engine does not model Display Cards', 'eu-pop/display');
      for (const [key, known] of [['power', ['administrative', 'diplomatic', 'military']],
        ['cost_reductions', ['administrative', 'diplomatic', 'military', 'ducats']]]) {
        const badPool = unknownKeys(p[key], known);
        if (badPool.length) return unsupported(`this engine does not know ${key} key(s) ${badPool.join(', ')}`);
      }
      players.push({
        name: p.name, hand: p.hand, power: p.power, ducats: p.ducats, reductions: p.cost_reductions,
        advisors: p.advisors, leaders: p.leaders,
      });
    }
    const piles = {};
    for (const [deck, pile] of Object.entries(state.decks || {})) {
      if (!['administrative', 'diplomatic', 'military'].includes(deck)) return errored(`no deck '${deck}' in eu-pop`);
      const bad = unknownKeys(pile, ['draw', 'discard']);
      if (bad.length) return unsupported(`this engine does not know pile key(s) ${bad.join(', ')}`);
      piles[deck] = { draw: pile.draw || [], discard: pile.discard || [] };
    }
    this.game = new Game(BOOK, {
      players, piles, phase: state.phase === undefined ? 'action' : state.phase,
      active: state.active_player, seed,
    });
    return { reply: 'ready' };
  }

  act(action) {
    const type = action.type;
    if (LACKED_ACTIONS[type]) return unsupported(`this engine does not model '${type}'`, LACKED_ACTIONS[type]);
    if (!ACTION_FIELDS[type]) return unsupported(`this engine does not know the action type '${type}'`);
    const extra = unknownKeys(action, ACTION_FIELDS[type]);
    if (extra.length) return unsupported(`this engine does not know field(s) ${extra.join(', ')} of '${type}'`);
    const g = this.game;
    let events;
    switch (type) {
      case 'draw': events = [g.draw(action.player, action.deck, action.count)]; break;
      case 'play': {
        const targets = action.targets || {};
        const bad = unknownKeys(targets, ['card', 'dice']);
        if (bad.length) return unsupported(`this engine does not know target(s) ${bad.join(', ')}`);
        if (targets.dice !== undefined) return unsupported('this engine does not model Battle Dice', 'eu-pop/battle');
        events = [g.play(action.player, action.card, targets)];
        break;
      }
      case 'resolve': events = g.resolveAll(); break;
      case 'end_turn': events = [g.endTurn(action.player)]; break;
      case 'appoint': events = [g.appoint(action.player, action.card)]; break;
      case 'discard_down': events = [g.stepC()]; break;
      default: return unsupported(`this engine does not know the action type '${type}'`);
    }
    return { reply: 'accepted', events };
  }

  choose(player, choice) {
    const extra = unknownKeys(choice, ['keep', 'discard']);
    if (extra.length) return unsupported(`this engine does not know choice key(s) ${extra.join(', ')}`);
    const kind = choice.keep !== undefined ? 'keep' : 'discard';
    return { reply: 'accepted', events: [this.game.answer(player, kind, choice[kind] || [])] };
  }

  observe(viewer) {
    return { reply: 'view', view: this.game.view(viewer) };
  }
}

// stdout carries replies only: anything logged goes to stderr.
console.log = (...args) => process.stderr.write(`${args.join(' ')}\n`);

const adapter = new Adapter();
const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
lines.on('line', (line) => {
  let request = null;
  let reply;
  try {
    request = JSON.parse(line); // inside the try: one bad line must not end the adapter
    reply = adapter.handle(request);
  } catch (e) {
    reply = { reply: 'errored', message: String((e && e.stack) || e) };
  }
  const id = request && Number.isInteger(request.id) ? request.id : null;
  process.stdout.write(`${JSON.stringify({ ...reply, id })}\n`);
});
// When the oracle closes stdin, Node exits by itself once stdout is flushed.
