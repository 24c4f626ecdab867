#!/usr/bin/env node
// Runs a device build (its mc.so) under the Moddable simulator, mcsim, inside a network namespace of
// its own (`unshare -n`, loopback only: mcsim's listener binds every address) with a virtual display
// (Xvfb) and a configuration directory of its own (mcsim copies the app there), then runs a command
// against it on 127.0.0.1:8080 (a load tool), then stops mcsim and says what its heap did.
//
// A debug build (budget/measure/manifest.json: `make device-measure`) prints an "instruments:" line a
// second; the summary gives the live slots and chunk bytes at idle (the last sample before the command)
// and at the peak (the largest sample while it ran), and its "live peak:" lines the live heap at its
// fullest (after a collection every 10 ms, garbage left out). Any build: an abort ("fixed size heap")
// or an mcsim that died fails the run.
//
//   node tools/mcsim-run.mjs --app DIR/bin/lin/mc/release/NAME/mc.so [--idle 3] [--log FILE] -- node tools/mcsim-churn-load.mjs --mixed
//
// Needs root (unshare -n), Xvfb (Debian xvfb), and the SDK's tools on PATH (mcsim).

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const dash = process.argv.indexOf('--');
const command = dash >= 0 ? process.argv.slice(dash + 1) : [];
const { values } = parseArgs({
  args: process.argv.slice(2, dash >= 0 ? dash : undefined),
  options: { app: { type: 'string' }, idle: { type: 'string', default: '3' }, log: { type: 'string' }, port: { type: 'string', default: '8080' } },
});
if (!values.app) {
  console.error('usage: node tools/mcsim-run.mjs --app PATH/mc.so [--idle S] [--log FILE] -- COMMAND...');
  process.exit(2);
}

if (!process.env.MCSIM_RUN_NETNS) {
  // Into a network namespace of our own first: the same script runs again there.
  const r = spawnSync('unshare', ['-n', process.execPath, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit', env: { ...process.env, MCSIM_RUN_NETNS: '1' },
  });
  process.exit(r.status ?? 1);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Xvfb on the first free display (it says which on fd 3). */
function startXvfb() {
  const x = spawn('Xvfb', ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '800x600x24'], { stdio: ['ignore', 'ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    x.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ proc: x, display: ':' + out.trim() });
    });
    x.on('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
}

function answers(port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/v1/device/system/0/uptime', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
    });
    req.setTimeout(2000, () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

/** Heap samples of a debug build's console: {slots, chunks} per "instruments:" line, by the key line's names. */
class Instruments {
  key = [];
  samples = [];
  /** {slots, chunks} per "live peak:" line of budget/measure/main.js: the live heap at its fullest in a second. */
  live = [];
  aborts = [];
  line(text, phase) {
    const live = /^live peak: (\d+) slots, (\d+) chunk bytes/.exec(text);
    if (live) this.live.push({ phase, slots: Number(live[1]), chunks: Number(live[2]) });
    else if (text.startsWith('instruments key: ')) this.key = text.slice(17).split(',');
    else if (text.startsWith('instruments: ') && this.key.length) {
      const v = text.slice(13).split(',').map(Number);
      const slotBytes = v[this.key.indexOf('Slot used')];
      this.samples.push({ phase, chunks: v[this.key.indexOf('Chunk used')], slots: slotBytes / SLOT_BYTES });
    } else if (/fixed size heap|# Slot allocation|# Chunk allocation|stack overflow/i.test(text)) this.aborts.push(text);
  }
}
/** sizeof(txSlot) on a 64-bit desktop host (16 on ESP32). */
const SLOT_BYTES = 32;

async function main() {
  // The namespace's only interface carries multicast too, so that a build that announces itself
  // (budget/module-features.json) joins 224.0.0.251 and runs its DNS-SD responder as on a network.
  spawnSync('ip', ['link', 'set', 'lo', 'up', 'multicast', 'on']);
  spawnSync('ip', ['route', 'add', '224.0.0.0/4', 'dev', 'lo']);
  const xvfb = await startXvfb();
  const config = mkdtempSync(path.join(os.tmpdir(), 'mcsim-run-'));
  const inst = new Instruments();
  let phase = 'boot';
  let log = '';
  const sim = spawn('stdbuf', ['-oL', '-eL', 'mcsim', path.resolve(values.app)], {
    env: { ...process.env, DISPLAY: xvfb.display, XDG_CONFIG_HOME: config }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let exited = null;
  sim.on('exit', (code, signal) => { exited = signal ?? code; });
  let partial = '';
  const take = (d) => {
    log += d;
    partial += d;
    const lines = partial.split('\n');
    partial = lines.pop();
    for (const l of lines) inst.line(l.trim(), phase);
  };
  sim.stdout.on('data', take);
  sim.stderr.on('data', take);

  let up = false;
  for (let i = 0; i < 600 && exited === null && !up; i++) up = await answers(values.port) || (await sleep(100), false);
  let status = 1;
  if (up) {
    phase = 'idle';
    await sleep(Number(values.idle) * 1000);
    phase = 'load';
    // Not spawnSync: mcsim's output is read (and its samples taken) while the command runs.
    if (command.length) {
      const c = spawn(command[0], command.slice(1), { stdio: 'inherit' });
      status = await new Promise((resolve) => c.on('exit', (code) => resolve(code ?? 1)));
    } else status = 0;
    phase = 'after';
    await sleep(1500);
  } else console.error(`mcsim: nothing answers on 127.0.0.1:${values.port}${exited !== null ? ` (mcsim exited: ${exited})` : ''}`);
  const alive = exited === null;
  sim.kill('SIGTERM');
  xvfb.proc.kill('SIGTERM');
  await sleep(300);
  rmSync(config, { recursive: true, force: true });
  if (values.log) writeFileSync(values.log, log);
  report(inst, alive);
  process.exit(status !== 0 ? status : !alive || inst.aborts.length ? 3 : 0);
}

function report(inst, alive) {
  const of = (phase) => inst.samples.filter((s) => s.phase === phase);
  const idle = of('idle').at(-1);
  const load = of('load');
  const peak = (k) => Math.max(...load.map((s) => s[k]));
  if (idle) console.log(`heap at idle (last sample before the command): ${idle.slots} slots, ${idle.chunks} chunk bytes`);
  if (load.length) console.log(`heap while the command ran (${load.length} samples): peak ${peak('slots')} slots, ${peak('chunks')} chunk bytes`);
  const live = (phase) => inst.live.filter((s) => s.phase === phase);
  const most = (list, k) => Math.max(...list.map((s) => s[k]));
  if (live('idle').length) console.log(`live heap at idle (after a collection, largest of the last second): ${live('idle').at(-1).slots} slots, ${live('idle').at(-1).chunks} chunk bytes`);
  if (live('load').length) console.log(`live heap while the command ran (after each 10 ms collection): peak ${most(live('load'), 'slots')} slots, ${most(live('load'), 'chunks')} chunk bytes`);
  if (!inst.samples.length) console.log('no instruments lines (a release build prints none: make device-measure for figures)');
  for (const a of inst.aborts) console.log(`mcsim: ${a}`);
  console.log(alive ? 'mcsim: still running at the end' : 'mcsim: DIED during the run');
}

void main();
