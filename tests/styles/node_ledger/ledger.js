// "Ledger": an event-sourced TI4 action-card engine, written from docs/protocol.md alone.
//
// The game is an append-only log of events. A command is checked against the current
// projection (the fold of the log), and either refused (nothing is appended) or turned into
// events that are appended; the projection is the fold of every event, each applied by a
// pure function returning a new state. Views are computed from the projection per viewer.
//
// It models drawing (with an immediate reshuffle), the hand limit (a keep decision), the
// status phase's deal, reveals, phases and timing windows, turns, and two cards: Lucky
// Shot and Sabotage. It has no factions, laws, planets, trade goods or politics.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const readline = require("node:readline");

const FACTS = JSON.parse(fs.readFileSync(path.join(__dirname, "cards.json"), "utf8"));
const CARDS = new Map(FACTS.decks.action.map((c) => [c.name, c]));
const MODELLED = new Set(["Lucky Shot", "Sabotage"]);
const UNIT_TYPES = new Set(["dreadnought", "carrier", "cruiser", "destroyer", "fighter", "flagship",
  "war sun", "infantry", "mech", "pds", "space dock"]);
const LUCKY_SHOT_TARGETS = new Set(["dreadnought", "cruiser", "destroyer"]);
const HAND_LIMIT = 7;
// The projection's folds switched off, by event name (LEDGER_IGNORES=revealed,kept): the
// author's broken copies, engines that report a result in their events but leave the state
// unchanged, as a projection that does not know an event type does.
const IGNORED = new Set((process.env.LEDGER_IGNORES || "").split(",").filter(Boolean));

class Refused extends Error {
  constructor(reason, rule) { super(reason); this.rule = rule; }
}
class Nonsense extends Error {}
class Lacks extends Error {
  constructor(reason, capability) { super(reason); this.capability = capability; }
}

// == random: mulberry32, seeded ==========================================================
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function shuffled(cards, random) {
  const out = cards.slice();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

// == the projection: pure folds of events ================================================
const FOLDS = {
  started: (s, e) => e.state,
  drew: (s, e) => {
    const draw = s.draw.slice(e.cards.length);
    return { ...s, draw, hands: { ...s.hands, [e.player]: [...s.hands[e.player], ...e.cards] } };
  },
  reshuffled: (s, e) => ({ ...s, draw: e.order, discard: [] }),
  owes: (s, e) => ({ ...s, pending: [...s.pending, { player: e.player, decision: "keep", count: e.count }] }),
  kept: (s, e) => ({
    ...s,
    hands: { ...s.hands, [e.player]: e.keep },
    discard: [...e.discarded, ...s.discard],
    pending: s.pending.filter((p) => p.player !== e.player),
  }),
  played: (s, e) => ({
    ...s,
    hands: { ...s.hands, [e.player]: without(s.hands[e.player], [e.card]) },
    stack: [...s.stack, { player: e.player, card: e.card, targets: e.targets, cancelled: false }],
  }),
  cancelled: (s, e) => ({
    ...s, stack: s.stack.map((p, i) => (i === e.index ? { ...p, cancelled: true } : p)),
  }),
  resolved: (s, e) => {
    const top = s.stack[s.stack.length - 1];
    let next = { ...s, stack: s.stack.slice(0, -1), discard: [top.card, ...s.discard] };
    if (!top.cancelled && CARDS.get(top.card).window === "Action") next = { ...next, actionTaken: true };
    return next;
  },
  destroyed: (s, e) => ({ ...s, units: s.units.filter((u) => u.id !== e.unit) }),
  revealed: (s, e) => ({ ...s, revealed: { ...s.revealed, [e.player]: [...(s.revealed[e.player] || []), ...e.cards] } }),
  window: (s, e) => ({ ...s, window: e.window }),
  turn: (s, e) => ({ ...s, active: e.active, window: "Action", actionTaken: false }),
  deal: (s, e) => ({ ...s, deal: e.queue, statusDrawn: e.statusDrawn ?? s.statusDrawn }),
};

function fold(state, event) {
  if (IGNORED.has(event.event)) return state;
  return FOLDS[event.event](state, event);
}

function without(hand, cards) {
  const out = hand.slice();
  for (const c of cards) {
    const i = out.indexOf(c);
    if (i < 0) return null;
    out.splice(i, 1);
  }
  return out;
}

// == the engine: commands turn into events ===============================================
class Ledger {
  constructor(state, seed) {
    this.random = rng(seed);
    this.log = [];
    this.state = undefined;
    this.append([{ event: "started", state }]);
    for (const p of state.order) {
      if (state.hands[p].length > this.limit(p)) this.append([{ event: "owes", player: p, count: this.limit(p) }]);
    }
  }

  append(events) {
    for (const e of events) {
      this.log.push(Object.freeze(e));
      this.state = fold(this.state, e);
    }
  }

  limit() { return HAND_LIMIT; }

  player(name) {
    if (!(name in this.state.hands)) throw new Nonsense(`unknown player '${name}'`);
    return name;
  }

  idle(name) {
    if (this.state.pending.some((p) => p.player === name)) {
      throw new Refused(`${name} must first choose the cards to keep`, "ti4:note-10");
    }
  }

  // Draw `count` cards for `player`, reshuffling the moment the deck runs out.
  drawEvents(player, count) {
    for (let i = 0; i < count; i++) {
      if (this.state.draw.length === 0) {
        if (this.state.discard.length === 0) break;
        this.append([{ event: "reshuffled", order: shuffled(this.state.discard, this.random) }]);
      }
      this.append([{ event: "drew", player, cards: [this.state.draw[0]] }]);
    }
    if (this.state.draw.length === 0 && this.state.discard.length > 0 && !this.state.deal) {
      this.append([{ event: "reshuffled", order: shuffled(this.state.discard, this.random) }]);
    }
  }

  checkLimit(player) {
    const s = this.state;
    if (s.hands[player].length > this.limit(player) && !s.pending.some((p) => p.player === player)) {
      this.append([{ event: "owes", player, count: this.limit(player) }]);
    }
  }

  draw(a) {
    const player = this.player(a.player);
    if (a.deck !== "action") throw new Nonsense(`no deck '${a.deck}'`);
    this.idle(player);
    if (this.state.stack.length) throw new Refused("a card is being played", "ti4:2.7");
    this.drawEvents(player, a.count);
    this.checkLimit(player);
  }

  // The status phase's deal: one card each in initiative order; a hand over the limit
  // pauses it, and a deck that runs out waits until the players dealt its cards discarded.
  statusDraw() {
    const s = this.state;
    if (s.phase !== "status") throw new Refused("action cards are dealt in the status phase", "ti4:2.1");
    if (s.statusDrawn) throw new Refused("action cards were already dealt this status phase", "ti4:2.1");
    this.append([{ event: "deal", queue: s.initiative.slice(), statusDrawn: true }]);
    this.continueDeal();
  }

  continueDeal() {
    while (this.state.deal && this.state.deal.length) {
      if (this.state.pending.length) return;
      const [player, ...rest] = this.state.deal;
      if (this.state.draw.length === 0 && this.state.discard.length > 0) {
        this.append([{ event: "reshuffled", order: shuffled(this.state.discard, this.random) }]);
      }
      if (this.state.draw.length) this.append([{ event: "drew", player, cards: [this.state.draw[0]] }]);
      this.append([{ event: "deal", queue: rest }]);
      this.checkLimit(player);
    }
    if (this.state.deal && !this.state.pending.length) {
      this.append([{ event: "deal", queue: null }]);
      if (this.state.draw.length === 0 && this.state.discard.length) {
        this.append([{ event: "reshuffled", order: shuffled(this.state.discard, this.random) }]);
      }
    }
  }

  play(a) {
    const player = this.player(a.player);
    const card = a.card;
    if (!CARDS.has(card)) throw new Nonsense(`no card '${card}' in TI4`);
    if (!MODELLED.has(card)) throw new Lacks(`this engine does not model '${card}'`, `ti4/card/${card}`);
    const s = this.state;
    this.idle(player);
    if (without(s.hands[player], [card]) === null) throw new Refused(`${player} has no '${card}' in hand`, "ti4:2.7");
    const targets = a.targets || {};
    if (card === "Sabotage") {
      const open = s.stack.map((p, i) => ({ ...p, i })).filter((p) => !p.cancelled && p.card !== "Sabotage" && p.player !== player);
      const aim = targets.card ? open.filter((p) => p.card === targets.card).pop() : open.pop();
      if (!aim) throw new Refused("no other player's card is being played for Sabotage to cancel", "ti4:2.6");
      this.append([{ event: "played", player, card, targets: { index: aim.i } }]);
      return;
    }
    if (s.stack.length) throw new Refused("a card is being played", "ti4:2.7");
    const facts = CARDS.get(card);
    if (facts.phase !== "Any" && facts.phase.toLowerCase() !== s.phase) {
      throw new Refused(`'${card}' is played in the ${facts.phase.toLowerCase()} phase`, "ti4:2.6");
    }
    if (facts.window === "Action") {
      if (s.phase !== "action" || s.active !== player) throw new Refused(`it is not ${player}'s turn`, "ti4:2.6");
      if (s.actionTaken) throw new Refused(`${player} has taken an action this turn`, "ti4:2.6");
      if (s.window !== "Action") throw new Refused("the Action window is not open", "ti4:2.6");
    } else if (facts.window !== s.window) {
      throw new Refused(`'${card}' is played '${facts.window}'`, "ti4:2.6");
    }
    if (card === "Lucky Shot") {
      if (!("unit" in targets)) throw new Nonsense("Lucky Shot needs targets.unit");
      const unit = s.units.find((u) => u.id === targets.unit);
      if (!unit) throw new Refused(`no unit '${targets.unit}' is on the board`, "ti4:note-9");
      if (unit.owner === player) throw new Refused("Lucky Shot targets another player's ship", "ti4:note-7");
      if (!LUCKY_SHOT_TARGETS.has(unit.type)) throw new Refused(`Lucky Shot cannot target a ${unit.type}`, "ti4:2.6.1");
    }
    this.append([{ event: "played", player, card, targets }]);
  }

  resolve() {
    while (this.state.stack.length) {
      const top = this.state.stack[this.state.stack.length - 1];
      if (!top.cancelled) {
        if (top.card === "Sabotage") {
          this.append([{ event: "cancelled", index: top.targets.index }]);
        } else if (top.card === "Lucky Shot" && this.state.units.some((u) => u.id === top.targets.unit)) {
          this.append([{ event: "destroyed", unit: top.targets.unit }]);
        }
      }
      this.append([{ event: "resolved" }]);
    }
  }

  reveal(a) {
    const player = this.player(a.player);
    for (const c of a.cards) if (!CARDS.has(c)) throw new Nonsense(`no card '${c}' in TI4`);
    if (without(this.state.hands[player], a.cards) === null) throw new Refused(`${player} does not hold ${a.cards}`);
    this.append([{ event: "revealed", player, cards: a.cards }]);
  }

  openWindow(a) {
    if (this.state.stack.length) throw new Refused("a card is being played", "ti4:2.7");
    this.append([{ event: "window", window: a.window }]);
  }

  endTurn(a) {
    const player = this.player(a.player);
    const s = this.state;
    if (s.phase !== "action" || s.active !== player) throw new Refused(`${player} is not the active player`);
    this.idle(player);
    if (s.stack.length) throw new Refused("a card is being played", "ti4:2.7");
    const i = s.initiative.indexOf(player);
    this.append([{ event: "turn", active: s.initiative[(i + 1) % s.initiative.length] }]);
  }

  choose(player, choice) {
    this.player(player);
    const owed = this.state.pending.find((p) => p.player === player);
    if (!owed) throw new Refused(`${player} has no decision to make`);
    if (!Array.isArray(choice.keep)) throw new Refused("the decision is which cards to keep");
    if (choice.keep.length !== owed.count) throw new Refused(`keep exactly ${owed.count} cards`, "ti4:2.4");
    const discarded = without(this.state.hands[player], choice.keep);
    if (discarded === null) throw new Refused(`${player} does not hold ${choice.keep}`);
    this.append([{ event: "kept", player, keep: choice.keep, discarded }]);
    this.continueDeal();
  }

  view(viewer) {
    const s = this.state;
    if (viewer !== null && viewer !== "*" && !(viewer in s.hands)) throw new Nonsense(`unknown viewer '${viewer}'`);
    const players = {};
    for (const name of s.order) {
      const hand = s.hands[name];
      let cards;
      if (viewer === "*" || viewer === name) cards = hand.slice();
      else {
        cards = [];
        let left = hand.slice();
        for (const c of s.revealed[name] || []) {
          const rest = without(left, [c]);
          if (rest !== null) { cards.push(c); left = rest; }
        }
      }
      players[name] = { hand: { count: hand.length, cards }, hand_limit: this.limit(name) };
    }
    const draw = { count: s.draw.length };
    if (viewer === "*") draw.cards = s.draw.slice();
    return {
      phase: s.phase, window: s.window, active_player: s.active, initiative: s.initiative,
      players, decks: { action: { draw, discard: s.discard.slice() } },
      being_played: s.stack.map((p) => ({ player: p.player, card: p.card })),
      pending: s.pending.slice(),
      units: s.units.slice(),
    };
  }
}

// == the adapter: the protocol onto the ledger ===========================================
const STATE_KEYS = new Set(["players", "decks", "phase", "active_player", "window", "initiative", "units"]);
const PLAYER_KEYS = new Set(["name", "hand", "faction"]);
const CAPABILITIES = ["ti4/draw", "ti4/play", "ti4/reveal", "ti4/windows", "ti4/status-phase",
  "ti4/units", "ti4/card/Lucky Shot", "ti4/card/Sabotage"];

let game = null;

function setup(state, seed) {
  for (const k of Object.keys(state)) if (!STATE_KEYS.has(k)) throw new Lacks(`this engine has no state key '${k}'`);
  const order = [];
  const hands = {};
  for (const p of state.players) {
    for (const k of Object.keys(p)) if (!PLAYER_KEYS.has(k)) throw new Lacks(`this engine has no player key '${k}'`);
    if (p.faction === "Yssaril" || p.faction === "Hacan") throw new Lacks(`this engine does not model ${p.faction}`, `ti4/faction/${p.faction}`);
    if (p.name in hands) throw new Nonsense(`player '${p.name}' listed twice`);
    order.push(p.name);
    hands[p.name] = (p.hand || []).slice();
  }
  const all = Object.values(hands).flat();
  for (const c of all) if (!CARDS.has(c)) throw new Nonsense(`no card '${c}' in TI4`);
  const decks = state.decks || {};
  const counted = [...all];
  if (decks.action) counted.push(...decks.action.draw, ...decks.action.discard);
  for (const c of new Set(counted)) {
    if (!CARDS.has(c)) throw new Nonsense(`no card '${c}' in TI4`);
    const n = counted.filter((x) => x === c).length;
    if (n > CARDS.get(c).count) throw new Nonsense(`${n} copies of '${c}': the deck has ${CARDS.get(c).count}`);
  }
  let draw;
  let discard;
  if (decks.action) {
    draw = decks.action.draw.slice();
    discard = decks.action.discard.slice();
  } else {
    const rest = [];
    for (const c of FACTS.decks.action) for (let i = 0; i < c.count; i++) rest.push(c.name);
    for (const c of all) rest.splice(rest.indexOf(c), 1);
    draw = shuffled(rest, rng(seed ^ 0x5eed));
    discard = [];
  }
  const units = (state.units || []).map((u) => {
    if (!UNIT_TYPES.has(u.type)) throw new Nonsense(`no unit type '${u.type}'`);
    if (!(u.owner in hands)) throw new Nonsense(`unknown owner '${u.owner}'`);
    return { id: u.id, owner: u.owner, type: u.type };
  });
  const phase = state.phase || "action";
  const initiative = state.initiative || order;
  const active = "active_player" in state ? state.active_player : phase === "action" ? initiative[0] : null;
  const window = "window" in state ? state.window : phase === "action" ? "Action" : null;
  game = new Ledger({
    order, hands, draw, discard, units, phase, initiative, active, window, actionTaken: false,
    stack: [], pending: [], revealed: {}, deal: null, statusDrawn: false,
  }, seed);
}

function act(a) {
  switch (a.type) {
    case "draw": return game.draw(a);
    case "play": return game.play(a);
    case "resolve": return game.resolve();
    case "reveal": return game.reveal(a);
    case "window": return game.openWindow(a);
    case "end_turn": return game.endTurn(a);
    case "status_draw": return game.statusDraw();
    default: throw new Lacks(`this engine does not know the action type '${a.type}'`);
  }
}

function handle(request) {
  try {
    switch (request.op) {
      case "describe":
        return { reply: "described", engine: { name: "ledger", version: "0.1.0", protocol: 1,
          games: [{ game: "ti4" }], capabilities: CAPABILITIES } };
      case "setup":
        if (request.game !== "ti4") throw new Lacks(`this engine plays ti4, not ${request.game}`);
        setup(request.state, request.seed);
        return { reply: "ready" };
      case "act": {
        const before = game.log.length;
        act(request.action);
        return { reply: "accepted", events: game.log.slice(before) };
      }
      case "choose": {
        const before = game.log.length;
        game.choose(request.player, request.choice);
        return { reply: "accepted", events: game.log.slice(before) };
      }
      case "observe":
        return { reply: "view", view: game.view(request.viewer) };
      default:
        return { reply: "errored", message: `unknown op '${request.op}'` };
    }
  } catch (e) {
    if (e instanceof Refused) return { reply: "rejected", reason: e.message, ...(e.rule ? { rule: e.rule } : {}) };
    if (e instanceof Lacks) return { reply: "unsupported", reason: e.message, ...(e.capability ? { capability: e.capability } : {}) };
    if (e instanceof Nonsense) return { reply: "errored", message: e.message };
    return { reply: "errored", message: String((e && e.stack) || e) };
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  let request = null;
  let reply;
  try {
    request = JSON.parse(line);
    reply = handle(request);
  } catch (e) {
    reply = { reply: "errored", message: String((e && e.stack) || e) };
  }
  const id = request && Number.isInteger(request.id) ? request.id : null;
  process.stdout.write(JSON.stringify({ ...reply, id }) + "\n");
});
