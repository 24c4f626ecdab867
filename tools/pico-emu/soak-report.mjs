// Judges the hourly records of a soak (run.mjs --soak DAYS --soak-records FILE.jsonl, and the summary
// it writes beside them, FILE.summary.json) and plots them.
//
//   node tools/pico-emu/soak-report.mjs FILE.jsonl [--svg OUT.svg] [--title TEXT] [--timer-ms MS]
// (--timer-ms: the chip's clock at power-on, where the records do not carry it)
//
// Prints one `soak-report: …` line a check, `soak-report: pass` or `soak-report: FAIL` last, and exits 1
// on a failure. The checks: no restart after the power-on; every client answered (none failed, none
// refused); the clock within a second of the SNTP server whenever the board has asked it since the
// server was last stepped; every memory series flat after the first day (a least-squares slope
// times the days it spans, within the series' own tolerance: a leak of an XS slot, 8 bytes of C
// heap or 32 of XS chunks an hour is over it within a week); flash erased only in the minute after a save or a boot.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { linearRegression } from 'simple-statistics';

const { values: opt, positionals } = parseArgs({
  allowPositionals: true,
  options: { svg: { type: 'string' }, title: { type: 'string', default: 'The emulated Pico W over a soak' }, 'timer-ms': { type: 'string' } },
});
const file = positionals[0];
if (!file || !fs.existsSync(file)) {
  console.error('soak-report: FILE.jsonl of run.mjs --soak-records, please');
  process.exit(2);
}
const records = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const summaryFile = `${file.replace(/\.jsonl$/, '')}.summary.json`;
const summary = fs.existsSync(summaryFile) ? JSON.parse(fs.readFileSync(summaryFile, 'utf8')) : null;

/** Series judged flat after the first day: how to read each from a record, and how far it may move over the run. */
export const SERIES = [
  { name: 'C heap free (B)', of: (r) => r.cFree, tolerance: 1024 },
  { name: 'C heap, largest free block (B)', of: (r) => r.cLargest, tolerance: 2048 },
  // the least live set after a collection in the hour (soak.mjs says why)
  { name: 'XS slots live after a collection', of: (r) => r.xsLeastSlots, tolerance: 64 },
  { name: 'XS chunks live after a collection (B)', of: (r) => r.xsLeastChunks, tolerance: 4096 },
  { name: 'lwIP heap in use (B)', of: (r) => r.lwipHeap, tolerance: 512 },
  { name: 'lwIP TCP pcbs open (not in TIME_WAIT)', of: (r) => r.pools.TCP_PCB - r.pools.timeWait, tolerance: 1 },
  { name: 'lwIP TCP pcbs in TIME_WAIT', of: (r) => r.pools.timeWait, tolerance: 2 },
  { name: 'lwIP TCP segments in use', of: (r) => r.pools.TCP_SEG, tolerance: 1 },
  { name: 'lwIP pbufs in use', of: (r) => r.pools.PBUF + r.pools.PBUF_POOL, tolerance: 1 },
  { name: 'lwIP timeouts in use', of: (r) => r.pools.SYS_TIMEOUT, tolerance: 1 },
];

const checks = [];
const check = (ok, line) => checks.push({ ok, line });
const day = (r) => r.emulated / 86400;
const last = records.at(-1);

check(records.length > 0, `${records.length} hourly records, ${last ? day(last).toFixed(2) : 0} emulated days in ${last?.real ?? 0} s real`);
const parts = summary?.traffic ? ` of ${summary.traffic.join(', ')}` : '';
if (summary) check(summary.ended === 'soak done', `the soak ran ${summary.days} of its ${summary.asked} days${parts} (emulated/real ${summary.ratio}; ${summary.ended})`);
else check(false, `no summary at ${summaryFile}: the soak did not finish`);

// No restart: one boot, by power.
const boots = summary?.boots ?? [];
check(boots.length === 1 && boots[0].cause === 'power', `boots: ${boots.map((b) => `${b.cause} at ${b.at} s`).join(', ') || 'none seen'}`);

// Every client answered.
const counts = summary?.counts ?? last?.counts ?? {};
const bad = Object.entries(counts).filter(([, c]) => c.failed || c.refused);
check(bad.length === 0, `clients: ${Object.entries(counts).map(([k, c]) => `${k} ${c.answered} answered, ${c.refused} refused, ${c.failed} failed${c.skipped ? `, ${c.skipped} while away` : ''}`).join('; ')}`
  + (summary?.failures?.length ? `; first failures: ${JSON.stringify(summary.failures.slice(0, 5))}` : ''));

// The clock, whenever the board has asked since the server's last step.
const synced = records.filter((r) => r.synced && r.clockOffsetMs !== null);
const worst = synced.reduce((w, r) => (Math.abs(r.clockOffsetMs) > Math.abs(w?.clockOffsetMs ?? 0) ? r : w), null);
// (the answer's timestamp in ms; its Date: header in whole seconds, so one second either way)
const dates = synced.map((r) => r.dateOffset);
check(synced.length > 0 && Math.abs(worst?.clockOffsetMs ?? Infinity) <= 1000 && dates.every((d) => Math.abs(d) <= 1),
  `clock: ${synced.length} records after an exchange, the farthest ${worst ? `${worst.clockOffsetMs.toFixed(0)} ms at hour ${worst.hour}` : 'none'} from the server`
  + ` (Date: header ${Math.min(...dates)}..${Math.max(...dates)} s); ${summary?.syncs ?? '?'} exchanges answered`);
// The chip's 32-bit millisecond count wraps 2^32 ms after its timer started: the clock checked after it too.
const timerMs = Number(opt['timer-ms'] ?? summary?.timerMs ?? 0);
const chipMs = (r) => r.chipMs ?? timerMs + r.emulated * 1000;
const wrapped = synced.filter((r) => chipMs(r) > 2 ** 32);
if (records.some((r) => chipMs(r) > 2 ** 32)) {
  check(wrapped.length > 0 && wrapped.every((r) => Math.abs(r.clockOffsetMs) <= 1000),
    `across the 32-bit millisecond wrap (at ${((2 ** 32 - timerMs) / 86400e3).toFixed(2)} days): ${wrapped.length} records after it, clock and Date: header right in each`
    + ` (Date: off by ${Math.min(...wrapped.map((r) => r.dateOffset))}..${Math.max(...wrapped.map((r) => r.dateOffset))} s)`);
}

// Flat after the first day.
const after = records.filter((r) => day(r) >= 1);
for (const s of SERIES) {
  const points = after.map((r) => [day(r), s.of(r)]).filter(([, v]) => typeof v === 'number' && Number.isFinite(v));
  if (points.length < 12) {
    check(false, `${s.name}: ${points.length} readings after the first day: too few to judge`);
    continue;
  }
  const { m } = linearRegression(points);
  const span = points.at(-1)[0] - points[0][0];
  const moved = m * span;
  const values = points.map(([, v]) => v);
  check(Math.abs(moved) <= s.tolerance, `${s.name}: ${Math.min(...values)}..${Math.max(...values)}, slope ${m.toFixed(2)} a day, ${moved.toFixed(1)} over ${span.toFixed(1)} days (at most ${s.tolerance})`);
}

// Flash erased only in the minute after a save, or after a boot (which counts its restart in flash:
// hal/device/restarts.ts).
const saves = summary?.saves ?? [];
const erases = summary?.erases ?? [];
// (a save's erase follows its request; a boot's comes before its serving line, at which it is stamped)
const stray = erases.filter((e) => !saves.some((s) => e.at >= s && e.at <= s + 60) && !boots.some((b) => e.at >= b.at - 60 && e.at <= b.at));
check(stray.length === 0, `flash: ${erases.reduce((n, e) => n + e.sectors, 0)} sectors erased in ${erases.length} erases, after ${saves.length} saves and ${boots.length} boots`
  + (stray.length ? `; not after a save: ${JSON.stringify(stray.slice(0, 5))}` : ''));

for (const c of checks) console.log(`soak-report: ${c.ok ? 'ok' : 'FAIL'} ${c.line}`);
const pass = checks.every((c) => c.ok);
console.log(`soak-report: ${pass ? 'pass' : 'FAIL'}`);

if (opt.svg) {
  const vega = await import('vega');
  const { compile } = await import('vega-lite');
  const rows = [];
  // what is plotted, with names short enough for the rows' labels
  const plotted = [['C heap free (B)', SERIES[0]], ['C heap, largest block (B)', SERIES[1]], ['XS slots live', SERIES[2]],
    ['XS chunks live (B)', SERIES[3]], ['TCP pcbs open', SERIES[5]], ['TCP pcbs in TIME_WAIT', SERIES[6]],
    ['clock - server (ms)', { of: (r) => (r.synced ? r.clockOffsetMs : null) }]];
  for (const r of records) {
    for (const [label, s] of plotted) {
      const v = s.of(r);
      if (typeof v === 'number' && Number.isFinite(v)) rows.push({ day: day(r), series: label, value: v });
    }
  }
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: opt.title,
    data: { values: rows },
    facet: { row: { field: 'series', type: 'nominal', title: null, sort: plotted.map(([label]) => label), header: { labelAngle: 0, labelAlign: 'left' } } },
    spec: {
      width: 520, height: 70,
      mark: { type: 'line', strokeWidth: 1 },
      encoding: {
        x: { field: 'day', type: 'quantitative', title: 'emulated days since power-on' },
        y: { field: 'value', type: 'quantitative', title: null, scale: { zero: false } },
      },
    },
    resolve: { scale: { y: 'independent' } },
  };
  const view = new vega.View(vega.parse(compile(spec).spec), { renderer: 'none' });
  fs.writeFileSync(opt.svg, await view.toSVG());
  console.log(`soak-report: plotted ${rows.length} points in ${opt.svg}`);
}
process.exit(pass ? 0 : 1);
