// The short form of make pico-emu-soak: two emulated days of a lab's traffic on the emulated Pico W, the
// board running ahead of real time while nothing waits on it (tools/pico-emu/soak.mjs), judged by
// tools/pico-emu/soak-report.mjs: no restart, every client answered, the clock within a second of the
// SNTP server after each exchange, every memory series flat over the second day, flash erased only
// by the save and the boot. About 15 minutes of real time; skips where the Pico tools are not
// (tests/pico-emu-run.ts says which). A quarter of a day of only the parts --soak-traffic names, too.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { missing, runBoard, runFigures } from './pico-emu-run';

const DAYS = 2;
const REAL_SECONDS = DAYS * 1200; // a day takes about 7 minutes here
const ROOT = path.resolve(__dirname, '../..');

describe('Pico W image on an emulated board: two days of a lab', function () {
  const why = missing();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pico-emu-soak-'));
  const records = path.join(dir, 'records.jsonl');
  let out = '';
  let report = '';
  let status: number | null = null;
  before(async function () {
    if (why) this.skip();
    this.timeout((REAL_SECONDS + 120) * 1000);
    out = await runBoard({ seconds: REAL_SECONDS, args: ['--soak', String(DAYS), '--soak-records', records],
      env: { PICO_EMU_DNS: '1', PICO_EMU_CURL: '0' } });
    const r = spawnSync('node', [path.join(ROOT, 'tools/pico-emu/soak-report.mjs'), records], { encoding: 'utf8' });
    report = r.stdout + r.stderr;
    status = r.status;
    console.log(`      ${runFigures(out)}`);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const skipped = why ? ` (skipped: ${why})` : '';
  const line = (start: string): string => report.split('\n').find((l) => l.startsWith(`soak-report: ok ${start}`) || l.startsWith(`soak-report: FAIL ${start}`)) ?? `(no line "${start}")\n${report}`;

  it(`runs its days without a restart and answers every client${skipped}`, function () {
    assert.match(out, /pico-emu: soak done/, out.slice(-3000));
    assert.match(line('boots'), /^soak-report: ok/);
    assert.match(line('clients'), /^soak-report: ok/);
    // each kind of client of the day was there
    for (const kind of ['scrape', 'read', 'put', 'save', 'console', 'events', 'dns-sd', 'probe', 'after-hostile']) {
      assert.match(line('clients'), new RegExp(`${kind} [1-9]\\d* answered`), `${kind}: ${line('clients')}`);
    }
  });

  it(`keeps its clock within a second of the SNTP server, asking it every hour${skipped}`, function () {
    assert.match(line('clock'), /^soak-report: ok/);
    const sets = out.match(/SNTP: clock set/g) ?? [];
    assert.ok(sets.length >= DAYS * 24 - 2, `${sets.length} exchanges in ${DAYS} days`);
  });

  it(`holds every heap and pool flat after the first day, and writes flash only when told${skipped}`, function () {
    const memory = report.split('\n').filter((l) => /(heap|XS|lwIP)/.test(l));
    assert.ok(memory.length >= 10, report);
    assert.deepEqual(memory.filter((l) => !l.startsWith('soak-report: ok')), []);
    assert.match(line('flash'), /^soak-report: ok/);
    assert.equal(status, 0, report);
  });
});

describe('Pico W image on an emulated board: a soak of some parts of the day', function () {
  const why = missing();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pico-emu-soak-parts-'));
  const records = path.join(dir, 'records.jsonl');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const skipped = why ? ` (skipped: ${why})` : '';

  it(`runs only the clients --soak-traffic names${skipped}`, async function () {
    if (why) this.skip();
    this.timeout(900 * 1000);
    // six emulated hours of scrapes and PUTs: no reads, console, browse, hostile clients or away AP
    const out = await runBoard({ seconds: 800, args: ['--soak', '0.25', '--soak-records', records, '--soak-traffic', 'scrape,put'],
      env: { PICO_EMU_DNS: '1', PICO_EMU_CURL: '0' } });
    assert.match(out, /pico-emu: soak done/, out.slice(-3000));
    const summary = JSON.parse(fs.readFileSync(records.replace(/\.jsonl$/, '.summary.json'), 'utf8'));
    assert.deepEqual(summary.traffic, ['scrape', 'put']);
    assert.deepEqual(Object.keys(summary.counts).sort(), ['put', 'scrape']);
    assert.ok(summary.counts.scrape.answered >= 6 * 60 - 2, JSON.stringify(summary.counts));
    assert.equal(summary.counts.put.answered, 6, JSON.stringify(summary.counts));
    assert.doesNotMatch(out, /access point goes away/);
  });

  it(`refuses a part of the day it does not know, naming those it does${skipped}`, async function () {
    if (why) this.skip();
    this.timeout(120 * 1000);
    const out = await runBoard({ seconds: 60, args: ['--soak', '1', '--soak-traffic', 'scrape,reboot'], env: { PICO_EMU_DNS: '1', PICO_EMU_CURL: '0' } });
    assert.match(out, /--soak-traffic takes some of scrape,read,put,save,console,dns-sd,away,hostile,sntp-step, not scrape,reboot/);
    assert.doesNotMatch(out, /soak: \{/);
  });
});
