#!/usr/bin/env node
'use strict';
/**
 * Several copies of an adapter in one Node process, with V8's block coverage on: the test
 * engine room of tests/test_node_eu_engine.py (one process start instead of one per copy).
 *
 *   node host.js NAME=path/to/adapter.js NAME2=other/adapter.js ...
 *
 * Each adapter is loaded as it is (it reads its requests with readline: the 'line' listener
 * it registers is kept, and the host reads stdin once). Requests go to the copy in use (the
 * first at start); the host answers two requests of its own:
 *
 * - {"op": "use", "adapter": NAME}: later requests go to that copy; answered {"reply": "used"};
 * - {"op": "coverage", "files": [PATH, ...]}: for each loaded script whose path ends with
 *   one of the PATHs, its code ranges [start, end, count] (offsets in UTF-16 units) as run
 *   since the previous such request (V8 resets the counts when they are taken):
 *   {"reply": "coverage", "scripts": {PATH: ranges}}.
 */
const inspector = require('node:inspector');
const path = require('node:path');
const readline = require('node:readline');

const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
// Started before any adapter loads, so that every function is compiled with block counters.
session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

const adapters = new Map(); // name -> its 'line' listener
let loading = null;
const createInterface = readline.createInterface;
readline.createInterface = () => {
  const lines = { on(event, listener) { if (event === 'line') adapters.set(loading, listener); return lines; } };
  return lines;
};
for (const arg of process.argv.slice(2)) {
  const at = arg.indexOf('=');
  loading = arg.slice(0, at);
  require(path.resolve(arg.slice(at + 1)));
}
readline.createInterface = createInterface;
let current = adapters.keys().next().value;

function reply(id, body) {
  process.stdout.write(`${JSON.stringify({ id, ...body })}\n`);
}

function coverage(request) {
  session.post('Profiler.takePreciseCoverage', (error, taken) => {
    const scripts = {};
    for (const file of request.files) {
      const script = error ? null : taken.result.find((s) => s.url.endsWith(file));
      scripts[file] = script
        ? script.functions.flatMap((f) => f.ranges.map((r) => [r.startOffset, r.endOffset, r.count]))
        : [];
    }
    reply(request.id, { reply: 'coverage', scripts });
  });
}

const input = createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
input.on('line', (line) => {
  let request = null;
  try { request = JSON.parse(line); } catch (e) { /* not JSON: the adapter answers it */ }
  if (request && request.op === 'coverage') return coverage(request);
  if (request && request.op === 'use') {
    if (!adapters.has(request.adapter)) return reply(request.id, { reply: 'errored', message: `no adapter ${request.adapter}` });
    current = request.adapter;
    return reply(request.id, { reply: 'used' });
  }
  return adapters.get(current)(line);
});
