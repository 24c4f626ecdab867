// The requests of make pico-emu-figures and their order, for the module's image and for the anchor's
// (run.mjs --anchor: tools/pico-anchor, the Moddable SDK's http Server on port 80 and lwIP's raw API in C
// on port 81, answering bodies of the module's sizes). Each server gets the same: one GET, one PUT and
// each document alone with its cycles by function; four clients GETting at once; GETs and PUTs one after
// another. The module's summary is written to PICO_EMU_FIGURES_JSON; the anchor's run reads it back
// (for the documents' sizes) and prints the two side by side.
import fs from 'node:fs';
import { profiled, series, together, untilAnswered, ask } from './board-requests.mjs';
import { compareTable, partsTable, summarize, topFunctions, topJsFunctions } from './board-profile-report.mjs';

const VALUE = '/api/v1/device/system/0/serialnumber';
const PUT = { method: 'PUT', path: '/api/v1/device/system/0/hbinterval', body: '{"value": 20}' };
const DOCS = { openapi: '/api/v1/openapi.json', metrics: '/metrics', page: '/' };
const GETS = Number(process.env.PICO_EMU_FIGURES_GETS || 15);
const PUTS = Math.ceil(GETS / 2);
const FOUR_ROUNDS = 3;
const LOAD_ROUNDS = 2;
const n = (x) => Math.round(x).toLocaleString('en-US');

/** One server's requests: a GET, a PUT and each document alone (profiled), four at once, series. */
async function requestsOf(ctx, label, { get, put, docs }) {
  console.log(`figures: ${label}: one GET, one PUT, each document alone (profiled), then four at once, then series`);
  const profiles = [[`${label} GET`, await profiled(ctx, get)], [`${label} PUT`, await profiled(ctx, put)]];
  const docAnswers = {};
  for (const [key, req] of Object.entries(docs)) {
    docAnswers[key] = await profiled(ctx, req);
    profiles.push([`${label} ${req.path}`, docAnswers[key]]);
  }
  const four = await together(ctx, get, 4, FOUR_ROUNDS);
  const gets = await series(ctx, get, GETS);
  const puts = await series(ctx, put, PUTS);
  return { summary: summarize(label, { gets, puts, docs: docAnswers, four }), profiles };
}

/** A profiled request's frames and socket calls, in emulated ms from its SYN (the first GET's; every one's with PICO_EMU_TIMELINES=1). */
function timelineLines(label, p) {
  const t0 = p.timeline[0]?.[0] ?? 0;
  return [`${label}: timeline (ms from the SYN in)`, ...p.timeline.map(([ms, what]) => `  ${(ms - t0).toFixed(2).padStart(8)}  ${what}`), ''];
}

function profileLines(profiles) {
  return [
    ...partsTable(profiles.map(([label, p]) => [label, p.fns])),
    '',
    ...profiles.flatMap(([label, p]) => [...topFunctions(`${label} (${n(p.bytes ?? 0)} B, ${p.ms?.toFixed(1)} ms)`, p.fns, 15, p.callers), '']),
    ...profiles.flatMap(([label, p]) => (p.js?.length ? [...topJsFunctions(label, p.js, Number(process.env.PICO_EMU_JS_TOP || 25), p.jsDetails), ''] : [])),
    ...(process.env.PICO_EMU_TIMELINES ? profiles : profiles.slice(0, 1)).flatMap(([label, p]) => timelineLines(label, p)),
  ];
}

const idleLines = (idle) => [
  ...topFunctions('the idle board, 10 s', idle.idle, 10),
  `the main loop idle: ${n(idle.turns)} turns, ${n(idle.meanTurn)} cycles a turn; a GET's cycles of work are its turns' cycles beyond that`,
];

/** Four clients at once fetching the module's documents, LOAD_ROUNDS times: memory, whole answers. */
async function loadOfDocuments(ctx, serial) {
  const targets = ['/', DOCS.openapi, `/api/v1/device/${serial}`, DOCS.metrics];
  const whole = [];
  ctx.fresh();
  for (let r = 0; r < LOAD_ROUNDS; r++) {
    const answers = await Promise.all(targets.map((path) => ask({ path })));
    answers.forEach((a, i) => whole.push(`${targets[i]} ${a.status ?? a.error} ${a.bytes ?? 0} B${a.whole ? '' : ' CUT'}`));
  }
  return { load: ctx.fresh(), whole };
}

export async function measureModule(ctx) {
  const first = await untilAnswered({ path: VALUE });
  const answered = ctx.traffic.get(first.localPort);
  const idle = await ctx.measureIdle(ctx, answered.lastOut.ms);
  const serial = `0x${Number(JSON.parse(first.text()).response.value).toString(16).toUpperCase()}`;
  const docs = Object.fromEntries(Object.entries(DOCS).map(([k, path]) => [k, { path }]));
  const { load, whole } = await loadOfDocuments(ctx, serial);
  const { summary, profiles } = await requestsOf(ctx, 'module', { get: { path: VALUE }, put: PUT, docs });
  if (process.env.PICO_EMU_FIGURES_JSON) fs.writeFileSync(process.env.PICO_EMU_FIGURES_JSON, JSON.stringify(summary));
  return [
    '', ...ctx.memoryTable({ servingMs: ctx.servingMs(), answered, idle, load }), '',
    ...compareTable(summary, []), '',
    `answers under load: ${whole.join('; ')}`, '',
    ...idleLines(idle), '', ...profileLines(profiles),
  ];
}

export async function measureAnchor(ctx) {
  const module = process.env.PICO_EMU_FIGURES_JSON && fs.existsSync(process.env.PICO_EMU_FIGURES_JSON)
    ? JSON.parse(fs.readFileSync(process.env.PICO_EMU_FIGURES_JSON, 'utf8')) : null;
  const sizes = { openapi: 18130, metrics: 677, page: 8471 }; // without the module's run: its sizes in docs/pico.md
  for (const key of Object.keys(sizes)) if (module?.docs[key]?.bytes) sizes[key] = module.docs[key].bytes;
  const first = await untilAnswered({ path: '/value' });
  const idle = await ctx.measureIdle(ctx, ctx.traffic.get(first.localPort).lastOut.ms);
  const runs = [];
  // The raw C server first, on a board that has served nothing yet (PICO_EMU_ANCHOR_PORTS: which, in order).
  const servers = { 80: 'SDK http Server', 81: 'lwIP raw (C)' };
  const order = (process.env.PICO_EMU_ANCHOR_PORTS ?? '81,80').split(',').map(Number).filter((p) => servers[p]);
  for (const [label, port] of order.map((p) => [servers[p], p])) {
    const docs = Object.fromEntries(Object.entries(sizes).map(([k, size]) => [k, { port, path: `/bytes/${size}` }]));
    runs.push(await requestsOf(ctx, label, { get: { port, path: '/value' }, put: { port, method: 'PUT', path: '/value', body: PUT.body }, docs }));
    // each server's figures as soon as they are in: a run the time limit ends still shows the first
    for (const l of compareTable(module ?? { ...runs[0].summary, label: 'module (not run)' }, runs.map((r) => r.summary))) console.log(`figures so far: ${l}`);
  }
  // The SDK's server first in the tables: the module's ratio is to it.
  const anchors = runs.map((r) => r.summary).sort((a, b) => (a.label === servers[80] ? -1 : b.label === servers[80] ? 1 : 0));
  return [
    '', ...compareTable(module ?? { ...anchors[0], label: 'module (not run)' }, anchors), '',
    ...idleLines(idle), '', ...profileLines(runs.flatMap((r) => r.profiles)),
  ];
}
