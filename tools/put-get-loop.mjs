// What a test engineer's script sees (make bench, tools/bench.mjs): PUT a value, GET it back, on one
// keep-alive connection as Python's `requests.Session` does; latency per pair.
import { Agent, request } from 'node:http';

/** One keep-alive HTTP exchange; resolves with the body text. */
function exchange(agent, port, method, path, body) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers: body ? { 'Content-Type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`${method} ${path}: ${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** PUT hbinterval then GET it back, PAIRS times on one keep-alive connection: latency per pair (ms). */
export async function putGetLoop(port, pairs) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const path = '/api/v1/device/system/0/hbinterval';
  const times = [];
  try {
    for (let i = 0; i < pairs + 100; i++) {
      const value = 1 + (i % 200);
      const t0 = process.hrtime.bigint();
      await exchange(agent, port, 'PUT', path, `{"value": ${value}}`);
      const got = JSON.parse(await exchange(agent, port, 'GET', path));
      if (got.response.value !== value) throw new Error(`read back ${got.response.value}, expected ${value}`);
      if (i >= 100) times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: times[times.length - 1] };
}
