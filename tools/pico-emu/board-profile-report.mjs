// The tables of make pico-emu-figures that compare servers and show where a request's cycles go: the
// module beside the anchor (tools/pico-anchor: the Moddable SDK's http Server, and lwIP's raw API in C),
// and each profiled request's cycles by part and by function (board-cycles.mjs, board-parts.mjs).
const n = (x) => Math.round(x).toLocaleString('en-US');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (x) => (x === undefined || !Number.isFinite(x) ? '–' : `${x.toFixed(1)} ms`);

/** What one server's requests came to (a summary kept as JSON between the runs). */
export function summarize(label, { gets, puts, docs, four }) {
  const med = (xs, key) => (xs.length ? median(xs.map((x) => x[key])) : undefined);
  return {
    label,
    get: { count: gets.length, ms: med(gets, 'ms'), cycles: med(gets, 'cycles'), work: med(gets, 'work'), maxMs: Math.max(...gets.map((g) => g.ms)) },
    put: { count: puts.length, ms: med(puts, 'ms'), cycles: med(puts, 'cycles'), work: med(puts, 'work') },
    docs: Object.fromEntries(Object.entries(docs).map(([k, d]) => [k, { bytes: d.bytes, ms: d.ms, cycles: d.cycles, status: d.status }])),
    four: { count: four.length, maxMs: Math.max(...four.map((g) => g.ms)), ms: med(four, 'ms') },
  };
}

const DOC_ROWS = [['openapi', 'the OpenAPI document'], ['metrics', '`/metrics`'], ['page', 'the console page `/`']];

/** The module beside the anchor's servers, with the module's ratio to the first of them. */
export function compareTable(module, anchors) {
  const all = [module, ...anchors];
  const ratio = (f) => (anchors.length && f(anchors[0]) ? `${(f(module) / f(anchors[0])).toFixed(2)}×` : '');
  const row = (name, f, show) => `| ${name} | ${all.map((s) => (f(s) === undefined ? '–' : show(f(s)))).join(' | ')} | ${ratio(f)} |`;
  const lines = [
    `| Emulated Pico W (rp2040js, 125 MHz) | ${all.map((s) => s.label).join(' | ')} | module ÷ ${anchors[0]?.label ?? '–'} |`,
    `|---|${all.map(() => '---:').join('|')}|---:|`,
    row(`GET of one value, SYN in to answer out (median of ${module.get.count})`, (s) => s.get.ms, ms),
    row('GET: cycles, SYN in to answer out', (s) => s.get.cycles, n),
    row('GET: cycles of work', (s) => s.get.work, n),
    row('GET: slowest of the series', (s) => s.get.maxMs, ms),
    row(`PUT of one value, SYN in to answer out (median of ${module.put.count})`, (s) => s.put.ms, ms),
    row('PUT: cycles, SYN in to answer out', (s) => s.put.cycles, n),
    row('PUT: cycles of work', (s) => s.put.work, n),
    row(`GET, four clients at once: slowest of ${module.four.count}`, (s) => s.four.maxMs, ms),
  ];
  for (const [key, name] of DOC_ROWS) {
    lines.push(row(`${name} (${n(module.docs[key]?.bytes ?? 0)} B): SYN in to last byte out`, (s) => s.docs[key]?.ms, ms));
  }
  return lines;
}

/** Cycles by part for each profiled request: [label, fns][] from CycleProfile.end(). */
export function partsTable(profiles) {
  const byPart = profiles.map(([, fns]) => {
    const parts = new Map();
    for (const [, part, c] of fns) parts.set(part, (parts.get(part) ?? 0) + c);
    return parts;
  });
  const totals = byPart.map((p) => [...p.values()].reduce((a, b) => a + b, 0));
  const names = [...new Set(byPart.flatMap((p) => [...p.keys()]))]
    .sort((a, b) => (byPart[0].get(b) ?? 0) - (byPart[0].get(a) ?? 0));
  return [
    `| cycles by part, SYN in to last byte out | ${profiles.map(([label]) => label).join(' | ')} |`,
    `|---|${profiles.map(() => '---:').join('|')}|`,
    ...names.map((name) => `| ${name} | ${byPart.map((p, i) => `${n(p.get(name) ?? 0)} (${(100 * (p.get(name) ?? 0) / totals[i]).toFixed(0)} %)`).join(' | ')} |`),
    `| all | ${totals.map(n).join(' | ')} |`,
  ];
}

/**
 * The JavaScript functions that took the most cycles of one profiled request (board-cycles.mjs: thread
 * mode, from a function's byte code to the next function's, the natives it calls included).
 */
export function topJsFunctions(label, js, count = 25, details = []) {
  if (!js?.length) return [];
  const total = js.reduce((a, f) => a + f[1], 0);
  return [
    `${label}: ${n(total)} cycles of thread mode; the ${count} JavaScript functions that took most (natives they call included):`,
    ...js.slice(0, count).map(([name, c]) => `  ${n(c).padStart(11)}  ${(100 * c / total).toFixed(1).padStart(5)} %  ${name}`),
    ...details.flatMap(([name, by]) => [`  ${name}, by C function:`, ...by.slice(0, 12).map(([fn, c]) => `  ${n(c).padStart(15)}  ${fn}`)]),
  ];
}

/** The functions that took the most cycles of one profiled request, and the callers of those PICO_EMU_CALLERS names. */
export function topFunctions(label, fns, count = 15, callers = []) {
  const total = fns.reduce((a, f) => a + f[2], 0);
  return [
    `${label}: ${n(total)} cycles; the ${count} functions that took most:`,
    ...fns.slice(0, count).map(([name, part, c]) => `  ${n(c).padStart(11)}  ${(100 * c / total).toFixed(1).padStart(5)} %  ${name} (${part})`),
    ...callers.flatMap(([name, by]) => [`  ${name}, by caller:`, ...by.slice(0, 8).map(([caller, c]) => `  ${n(c).padStart(15)}  ${caller}`)]),
  ];
}
