// make bench-host-server: what the host server costs in front of 8 simulated modules on loopback.
//   Latency: one keep-alive connection, sequential GETs of a value, directly to a module and through
//   the host server, in alternating rounds; p50 and p99 of each, and the difference (added).
//   Throughput: 8 modules, 3 connections each (a module's 4 less the one the host server leaves
//   free), wrk for a few seconds directly to each module at once, then through the host server.
// Targets: p99 added <= 1 ms; aggregate through the host server >= 0.8 x the sum of direct.
// Prints the numbers; it is not a test. Needs wrk (make bench-host-server installs it).

import { spawn, execFile } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODULES = 8;
const CONNECTIONS = 3;
const ROUNDS = 5;
const PER_ROUND = 400;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const children = [];

function start(main, args, portRe) {
  const child = spawn(process.execPath, [path.join(ROOT, main), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = portRe.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`${main} exited ${code}`)));
  });
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

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function wrk(urls) {
  const run = promisify(execFile);
  const outs = await Promise.all(urls.map((u) => run('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${SECONDS}s`, u])));
  return outs.reduce((sum, { stdout }) => sum + Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)[1]), 0);
}

async function main() {
  const serials = Array.from({ length: MODULES }, (_, i) => '0x' + (0xb0000001 + i).toString(16).toUpperCase());
  const ports = await Promise.all(serials.map((s) => start('build/host-sim/main.js', ['--port', '0', '--no-state', '--serial', s],
    /\ntry: .*127\.0\.0\.1:(\d+)/)));
  const host = await start('build/host-server/main.js', ['--port', '0', '--no-discovery', ...ports.flatMap((p) => ['--module', `http://127.0.0.1:${p}`])],
    /host server: http:\/\/[^:]+:(\d+)/);
  await new Promise((r) => setTimeout(r, 1500)); // every module probed
  const value = (s) => `/api/v1/device/${s}/system/0/serialnumber`;
  const direct = [];
  const via = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [[via, host], [direct, ports[0]]] : [[direct, ports[0]], [via, host]];
    for (const [into, port] of order) into.push(...await timed(port, value(serials[0]), PER_ROUND));
  }
  direct.sort((a, b) => a - b);
  via.sort((a, b) => a - b);
  const f = (us) => `${(us / 1000).toFixed(3)} ms`;
  console.log(`latency, one keep-alive connection, ${direct.length} GETs each (${ROUNDS} alternating rounds):`);
  console.log(`  direct to a module:   p50 ${f(pct(direct, 50))}  p99 ${f(pct(direct, 99))}`);
  console.log(`  through host server:  p50 ${f(pct(via, 50))}  p99 ${f(pct(via, 99))}`);
  const added99 = pct(via, 99) - pct(direct, 99);
  console.log(`  added by host server: p50 ${f(pct(via, 50) - pct(direct, 50))}  p99 ${f(added99)}  (target p99 <= 1 ms: ${added99 <= 1000 ? 'met' : 'NOT met'})`);
  const sum = await wrk(ports.map((p, i) => `http://127.0.0.1:${p}${value(serials[i])}`));
  const through = await wrk(serials.map((s) => `http://127.0.0.1:${host}${value(s)}`));
  console.log(`throughput, ${MODULES} modules x ${CONNECTIONS} connections, wrk ${SECONDS} s each way:`);
  console.log(`  direct, all modules at once: ${sum.toFixed(0)} requests/s`);
  console.log(`  through the host server:     ${through.toFixed(0)} requests/s = ${(through / sum).toFixed(2)} x direct (target >= 0.8: ${through / sum >= 0.8 ? 'met' : 'NOT met'})`);
}

main().catch((e) => { console.error(e); process.exitCode = 1; }).finally(() => { for (const c of children) c.kill(); });
