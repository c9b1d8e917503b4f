#!/usr/bin/env node
'use strict';
/**
 * The TI4 example engine as a process: newline-delimited JSON requests on stdin, exactly one
 * newline-delimited JSON reply per request on stdout, each echoing the request's "id".
 * Every input line gets one reply (an unparseable one: errored, with id null). Nothing else
 * is written to stdout; logs go to stderr (TI4_ENGINE_LOG=1 logs every request and reply).
 * The process exits when stdin closes.
 *
 *   node examples/node-ti4/engine.js
 *   rules-oracle run --engine "cmd:node examples/node-ti4/engine.js"
 */

const readline = require('readline');
const { Ti4Engine } = require('./ti4');

const LOG = Boolean(process.env.TI4_ENGINE_LOG);
const log = (...parts) => process.stderr.write(`[node-ti4] ${parts.join(' ')}\n`);

// stdout belongs to the protocol: anything a library prints goes to stderr instead.
console.log = (...args) => log(...args.map(String));
console.info = console.log;

// The oracle went away mid-reply: nobody is left to answer.
process.stdout.on('error', (err) => {
  if (err.code !== 'EPIPE') log('stdout error:', err.message);
  process.exit(0);
});

const engine = new Ti4Engine();

function errored(message, context) {
  return { reply: 'errored', message, context };
}

/** One input line -> one reply object (never throws). */
function answer(line) {
  let request;
  try {
    request = JSON.parse(line);
  } catch (err) {
    return { id: null, ...errored(`the request is not JSON: ${err.message}`, { line: line.slice(0, 200) }) };
  }
  const id = request !== null && typeof request === 'object' && !Array.isArray(request)
    && Object.prototype.hasOwnProperty.call(request, 'id') ? request.id : null;
  let reply;
  try {
    reply = engine.handle(request);
  } catch (err) { // handle() never throws; this is a last line of defence
    reply = errored(`internal error: ${err && err.message}`, { traceback: String(err && err.stack) });
  }
  return { id, ...reply };
}

function send(reply) {
  let text;
  try {
    text = JSON.stringify(reply);
  } catch (err) {
    text = JSON.stringify({ id: reply.id ?? null, ...errored(`reply is not JSON data: ${err.message}`, {}) });
  }
  if (LOG) log('<-', text);
  process.stdout.write(`${text}\n`);
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });

// One line in, one line out: even a blank or garbled line gets its (errored) reply, so the
// oracle never waits for an answer that is not coming.
input.on('line', (line) => {
  if (LOG) log('->', line);
  send(answer(line));
});

// stdin closed: the oracle is done. Node exits once stdout has drained.
input.on('close', () => {
  if (LOG) log('stdin closed; exiting');
  process.exitCode = 0;
});
