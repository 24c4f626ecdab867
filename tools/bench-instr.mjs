#!/usr/bin/env node
// `make bench-instr`: machine instructions per request of the simulator's request path on Node,
// counted by valgrind's callgrind. An instruction count does not move with the machine's load, so
// it compares two versions of the code where `make bench` (wall-clock req/s on a shared machine)
// cannot see a 5 % change. Each case runs Connection.receive in one process (no sockets: the bench's
// syscalls are the same for every version) on a fake clock under `node --predictable` (no background
// compiler threads, so a count repeats to the instruction), once for N1 and once for N2 requests;
// the difference over N2 - N1 is what one request costs, start-up and warm-up cancelled out. It
// includes the loop and a Buffer copy of the request per iteration (about 1,100 instructions: the
// `baseline` row), as the socket hands the simulator a new Buffer per read.
// BENCH_INSTR_BUILD names another build folder (another commit's `build/`, for a before-and-after).
//   BENCH_INSTR_N1 (default 60000), BENCH_INSTR_N2 (default 100000); takes about 4 minutes.
import { execFileSync, spawnSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const N1 = Number(process.env.BENCH_INSTR_N1 ?? 60000);
const N2 = Number(process.env.BENCH_INSTR_N2 ?? 100000);
const BUILD = process.env.BENCH_INSTR_BUILD ?? join(ROOT, 'build');

const CASES = [
  ['baseline (loop and Buffer copy only)', 'baseline', ''],
  ['GET int (system/0/serialnumber)', 'receive', 'GET /api/v1/device/system/0/serialnumber HTTP/1.1\r\nHost: 127.0.0.1:9005\r\n\r\n'],
  ['GET str (ethernet/0/macaddress)', 'receive', 'GET /api/v1/device/ethernet/0/macaddress HTTP/1.1\r\nHost: 127.0.0.1:9005\r\n\r\n'],
  ['PUT (system/0/hbinterval {"value": 12})', 'receive',
    'PUT /api/v1/device/system/0/hbinterval HTTP/1.1\r\nHost: 127.0.0.1:9005\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{"value": 12}'],
  ['404 (unknown entity)', 'receive', 'GET /api/v1/device/nosuch/0/op HTTP/1.1\r\nHost: 127.0.0.1:9005\r\n\r\n'],
];

/** The loop callgrind runs: `mode`, the request, the count; the simulator as `make sim` builds it. */
const CHILD = `
const [mode, request, n] = [process.argv[1], process.argv[2], Number(process.argv[3])];
const root = ${JSON.stringify(BUILD)};
const { Connection } = require(root + '/src/http/connection.js');
const { Api } = require(root + '/src/api/api.js');
const { createSimModule } = require(root + '/hal/sim/index.js');
const { nodeTextCodec } = require(root + '/host-sim/server.js');
let t = Date.UTC(2026, 10, 23, 12, 0, 0);
const now = () => t;
// 10 us a request, as under load: the date changes once a second, the models step every 10 ms.
const api = new Api([createSimModule({ serialNumber: 0x1234abcd, now, timeStepMs: 10 })], { codec: nodeTextCodec });
let written = 0;
const transport = { write(b) { written += b.length; }, writeText(s) { written += s.length; }, close() {} };
const connection = new Connection(api, transport, { now, codec: nodeTextCodec, peer: '127.0.0.1' });
const bytes = Buffer.from(mode === 'baseline' ? 'x' : request, 'latin1');
if (mode === 'baseline') for (let i = 0; i < n; i++) { t += 0.01; written += Buffer.from(bytes).length; }
else for (let i = 0; i < n; i++) { t += 0.01; connection.receive(Buffer.from(bytes)); }
if (written === 0) throw new Error('nothing written');
`;

function instructions(mode, request, n) {
  const r = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', process.execPath, '--predictable',
    '-e', CHILD, mode, request, String(n)], { encoding: 'utf8' });
  const m = /Collected : (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`callgrind failed (${r.status}): ${r.stderr.slice(-500)}`);
  return Number(m[1]);
}

function main() {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error('valgrind is not installed (make bench-instr installs it with apt-get)');
  }
  console.log(`instructions per request of ${BUILD} (callgrind, node ${process.version} --predictable, (I(${N2}) - I(${N1})) / ${N2 - N1})`);
  console.log('| request | instructions |');
  console.log('|---|---:|');
  for (const [name, mode, request] of CASES) {
    const per = (instructions(mode, request, N2) - instructions(mode, request, N1)) / (N2 - N1);
    console.log(`| ${name} | ${Math.round(per)} |`);
  }
}

main();
