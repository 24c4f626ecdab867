// make bench-host-server: what the host server costs in front of 8 simulated modules on loopback.
//   Latency: one keep-alive connection, sequential GETs of a value, directly to a module and through
//   the host server, in alternating rounds after a warm-up of each path; p50 and p99 of each, and the
//   difference (added), with the spread of the rounds' own p99s.
//   Throughput: 8 modules, 3 connections each (a module's 4 less the one the host server leaves
//   free), wrk for a few seconds directly to each module at once, then through the host server:
//   first with modules at a module's pace (the simulator's --answer-time: one request at a time,
//   each taking its milliseconds, as a module's single engine does; a module does not share the
//   host server's CPU), then with simulators answering as fast as this machine lets them, where the
//   simulators, wrk and the host server share the same cores and the ratio measures the host
//   server's own CPU per request against a simulator's.
// Targets: p99 added <= 1 ms; aggregate through the host server >= 0.8 x the sum of direct, for
// modules at a module's pace. Prints the numbers; it is not a test. Needs wrk (make
// bench-host-server installs it).

import { spawn, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODULES = 8;
const CONNECTIONS = 3;
const WARM_UP = 5000;
const ROUNDS = 10;
const PER_ROUND = 1000;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
/** Milliseconds a paced module takes per request: 2 (500 a second each), then 1; 0 = unpaced. */
const PACES = (process.env.BENCH_PACES ?? '2,1,0').split(',').map(Number);
const children = new Set();

function start(main, args, portRe) {
  const child = spawn(process.execPath, [path.join(ROOT, main), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.add(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = portRe.exec(out);
      if (m) resolve({ port: Number(m[1]), child });
    });
    child.on('exit', (code) => { children.delete(child); reject(new Error(`${main} exited ${code}`)); });
  });
}

const serials = Array.from({ length: MODULES }, (_, i) => '0x' + (0xb0000001 + i).toString(16).toUpperCase());
const value = (s) => `/api/v1/device/${s}/system/0/serialnumber`;

/** 8 simulators (at `pace` ms a request, 0: unpaced) and a host server naming them. */
async function rack(pace) {
  const sims = await Promise.all(serials.map((s) => start('build/host-sim/main.js',
    ['--port', '0', '--no-state', '--serial', s, ...(pace ? ['--answer-time', String(pace)] : [])], /\ntry: .*127\.0\.0\.1:(\d+)/)));
  const host = await start('build/host-server/main.js',
    ['--port', '0', '--no-discovery', ...sims.flatMap((p) => ['--module', `http://127.0.0.1:${p.port}`])], /host server: http:\/\/[^:]+:(\d+)/);
  await new Promise((r) => setTimeout(r, 1500)); // every module probed
  return {
    ports: sims.map((p) => p.port), host: host.port, hostPid: host.child.pid,
    stop: () => { for (const p of [...sims, host]) { children.delete(p.child); p.child.removeAllListeners('exit'); p.child.kill(); } },
  };
}

/** Sequential GETs on one keep-alive connection; the latency of each in microseconds. */
function timed(port, target, count) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const request = `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const times = [];
    let buffered = '';
    let t0 = 0n;
    const send = () => { t0 = process.hrtime.bigint(); socket.write(request); };
    socket.on('connect', send);
    socket.on('error', reject);
    socket.on('data', (d) => {
      buffered += d;
      const head = buffered.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(buffered);
      if (head < 0 || !length || buffered.length < head + 4 + Number(length[1])) return;
      times.push(Number(process.hrtime.bigint() - t0) / 1000);
      buffered = '';
      if (times.length === count) { socket.destroy(); resolve(times); } else send();
    });
  });
}

const sorted = (a) => [...a].sort((x, y) => x - y);
const pct = (s, p) => s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
const ms = (us) => `${(us / 1000).toFixed(3)} ms`;

async function latency() {
  const r = await rack(0);
  const target = value(serials[0]);
  await timed(r.ports[0], target, WARM_UP); // both paths past Node's compilers and the pools' first connections
  await timed(r.host, target, WARM_UP);
  const direct = [];
  const via = [];
  const added99 = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [[via, r.host], [direct, r.ports[0]]] : [[direct, r.ports[0]], [via, r.host]];
    const got = [];
    for (const [into, port] of order) {
      const t = await timed(port, target, PER_ROUND);
      into.push(...t);
      got.push([into, sorted(t)]);
    }
    const d = got.find(([into]) => into === direct)[1];
    const v = got.find(([into]) => into === via)[1];
    added99.push(pct(v, 99) - pct(d, 99));
  }
  r.stop();
  const d = sorted(direct);
  const v = sorted(via);
  const a99 = pct(v, 99) - pct(d, 99);
  const rounds = sorted(added99);
  console.log(`latency, one keep-alive connection, ${d.length} GETs each after ${WARM_UP} to warm up (${ROUNDS} alternating rounds):`);
  console.log(`  direct to a module:   p50 ${ms(pct(d, 50))}  p99 ${ms(pct(d, 99))}`);
  console.log(`  through host server:  p50 ${ms(pct(v, 50))}  p99 ${ms(pct(v, 99))}`);
  console.log(`  added by host server: p50 ${ms(pct(v, 50) - pct(d, 50))}  p99 ${ms(a99)}  (target p99 <= 1 ms: ${a99 <= 1000 ? 'met' : 'NOT met'})`);
  console.log(`  p99 added, round by round: min ${ms(rounds[0])}, median ${ms(pct(rounds, 50))}, max ${ms(rounds.at(-1))}`);
}

/** CPU seconds a process has used (Linux /proc; null elsewhere). */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in clock ticks of 10 ms
  } catch {
    return null;
  }
}

async function wrk(urls) {
  const run = promisify(execFile);
  const outs = await Promise.all(urls.map((u) => run('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, u])));
  return outs.reduce((sum, { stdout }) => sum + Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)[1]), 0);
}

async function throughput(pace) {
  const r = await rack(pace);
  const sum = await wrk(r.ports.map((p, i) => `http://127.0.0.1:${p}${value(serials[i])}`));
  const cpu0 = cpuSeconds(r.hostPid);
  const through = await wrk(serials.map((s) => `http://127.0.0.1:${r.host}${value(s)}`));
  const cpu = cpu0 === null ? null : cpuSeconds(r.hostPid) - cpu0;
  r.stop();
  const ratio = through / sum;
  const what = pace ? `modules at ${pace} ms a request (--answer-time ${pace})` : 'simulators as fast as this machine (unpaced, sharing its cores)';
  console.log(`  ${what}:`);
  console.log(`    direct, all modules at once: ${sum.toFixed(0)} requests/s; through the host server: ${through.toFixed(0)} requests/s` +
    ` = ${ratio.toFixed(2)} x direct${pace ? ` (target >= 0.8: ${ratio >= 0.8 ? 'met' : 'NOT met'})` : ''}`);
  if (cpu !== null) console.log(`    host server CPU: ${((cpu * 1e6) / (through * SECONDS)).toFixed(0)} µs a forwarded request`);
}

async function main() {
  await latency();
  console.log(`throughput, ${MODULES} modules x ${CONNECTIONS} connections, wrk ${SECONDS} s each way:`);
  for (const pace of PACES) await throughput(pace);
}

main().catch((e) => { console.error(e); process.exitCode = 1; }).finally(() => { for (const c of children) c.kill(); });
