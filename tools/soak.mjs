// `make soak`: memory of the simulator over at least 1,000,000 keep-alive requests (wrk), reading
// the server process's RSS from /proc once a second. Prints the RSS after warm-up, the peak and
// the last, with the request count. SOAK_REQUESTS (default 1000000) sets the target.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, waitForPort } from './ports.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TARGET = Number(process.env.SOAK_REQUESTS ?? 1000000);
const PORT = await freePort();

const rssKiB = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);

const sim = spawn(process.execPath, [join(ROOT, 'build/host-sim/main.js'), '--port', String(PORT), '--no-state'], { stdio: 'ignore' });
try {
  await waitForPort(PORT);
  const url = `http://127.0.0.1:${PORT}/api/v1/device/system/0/serialnumber`;
  // Warm-up, so that the JIT and the heap have settled before the first reading.
  spawnSync('wrk', ['-t1', '-c32', '-d2s', url]);
  const start = rssKiB(sim.pid);
  let total = 0;
  let peak = start;
  const samples = [];
  while (total < TARGET) {
    const r = spawnSync('wrk', ['-t1', '-c32', '-d5s', url], { encoding: 'utf8' });
    const m = /(\d+) requests in/.exec(r.stdout);
    if (!m) throw new Error(`wrk failed: ${r.stderr || r.stdout}`);
    total += Number(m[1]);
    const now = rssKiB(sim.pid);
    peak = Math.max(peak, now);
    samples.push(`${total}: ${(now / 1024).toFixed(1)} MiB`);
  }
  const end = rssKiB(sim.pid);
  console.log(`requests: ${total}`);
  console.log(`RSS after warm-up: ${(start / 1024).toFixed(1)} MiB, peak: ${(peak / 1024).toFixed(1)} MiB, at the end: ${(end / 1024).toFixed(1)} MiB`);
  console.log(`samples (requests: RSS): ${samples.join('; ')}`);
} finally {
  sim.kill();
}
