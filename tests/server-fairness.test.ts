// Fairness at the connection cap (docs/api.md §HTTP limits) against the simulator over real
// sockets: under slowloris, slow-body and idle keep-alive attackers, every honest request is
// answered, and succeeds within 2 s (a client that honours Retry-After: 1). The small-cap tests run
// on a fake clock so that seconds of attack take milliseconds; one test runs the default cap of 256
// against 300 attackers on the real clock. FAIRNESS_REPORT=1 prints the figures.
import { strict as assert } from 'node:assert';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule } from '../hal/sim/index';
import { AttackerPool, type AttackKind, honestRequest, sleep, until } from './fairness-helpers';

const report = (line: string): void => { if (process.env.FAIRNESS_REPORT) console.log(`      ${line}`); };

interface Figures { requests: number; succeeded: number; first503: number; worstWaitMs: number; worstAttemptMs: number }

/**
 * 48 attackers of one kind against a cap of 16, re-opening what the server drops every 5 s of
 * (fake) time; 30 honest requests, one every 500 ms, each retried after Retry-After on a 503.
 */
async function attack(kind: AttackKind): Promise<Figures> {
  let fake = 0;
  const server: SimServer = await startSimServer({
    port: 0, host: '127.0.0.1', devices: [createSimModule({})], maxConnections: 16, now: () => fake, lingerMs: 200,
  });
  const pool = new AttackerPool(server.port, kind);
  const f: Figures = { requests: 0, succeeded: 0, first503: 0, worstWaitMs: 0, worstAttemptMs: 0 };
  try {
    await pool.open(48);
    await until(() => server.stats().slots === 16 && pool.droppedCount === 32);
    for (let round = 0; round < 30; round++) {
      fake += 500;
      server.checkTimeouts();
      pool.trickle();
      if (round % 10 === 9) {
        await pool.reopen();
        await sleep(30);
      }
      f.requests++;
      const firstTry = fake;
      for (let tries = 0; tries < 5; tries++) {
        const a = await honestRequest(server.port);
        f.worstAttemptMs = Math.max(f.worstAttemptMs, a.ms);
        if (a.status === 200) {
          f.succeeded++;
          break;
        }
        assert.deepEqual([a.status, a.retryAfter], [503, 1], `round ${round}`);
        if (tries === 0) f.first503++;
        fake += a.retryAfter * 1000;
        server.checkTimeouts();
      }
      f.worstWaitMs = Math.max(f.worstWaitMs, fake - firstTry);
      assert.ok(server.stats().slots <= 16);
    }
  } finally {
    pool.destroy();
    await server.close();
  }
  return f;
}

describe('fairness at the connection cap (simulator)', function () {
  this.timeout(20000);

  for (const kind of ['slowloris', 'slow-body', 'idle'] as AttackKind[]) {
    it(`${kind}: 48 attackers, cap 16: every honest request succeeds within 2 s`, async () => {
      const f = await attack(kind);
      report(`${kind}: ${f.succeeded}/${f.requests} succeeded, ${f.first503} first tries got 503 + Retry-After, ` +
        `worst wait ${f.worstWaitMs} ms (simulated), worst single answer ${f.worstAttemptMs.toFixed(1)} ms (real)`);
      assert.equal(f.succeeded, f.requests);
      assert.ok(f.worstWaitMs <= 2000, `waited ${f.worstWaitMs} ms`);
      assert.ok(f.worstAttemptMs < 2000, `an answer took ${f.worstAttemptMs} ms`);
      if (kind === 'idle') assert.equal(f.first503, 0, 'idle connections are always evicted first');
    });
  }

  it('slowloris at the default cap: 300 attackers, real clock, honest requests succeed', async () => {
    const server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({})], lingerMs: 500 });
    const pool = new AttackerPool(server.port, 'slowloris');
    const trickle = setInterval(() => pool.trickle(), 1000);
    try {
      const waveStart = Date.now();
      await pool.open(300);
      await until(() => server.stats().slots === 256 && pool.droppedCount === 44);
      // A newcomer during the first 2 s of the wave: every slot is a protected partial request.
      const early = await honestRequest(server.port);
      let success = early.status === 200;
      if (!success) assert.deepEqual([early.status, early.retryAfter], [503, 1]);
      let worst = early.ms;
      while (!success) {
        await sleep(1000);
        const a = await honestRequest(server.port);
        worst = Math.max(worst, a.ms);
        success = a.status === 200;
      }
      const firstSuccess = Date.now() - waveStart;
      // Then 20 honest clients at once: each takes the slot of an old partial request.
      const all = await Promise.all(Array.from({ length: 20 }, () => honestRequest(server.port)));
      for (const a of all) worst = Math.max(worst, a.ms);
      report(`slowloris 300 vs cap 256 (real clock): first success ${firstSuccess} ms after the wave began; ` +
        `then ${all.filter((a) => a.status === 200).length}/20 concurrent succeeded; worst answer ${worst.toFixed(1)} ms`);
      assert.ok(all.every((a) => a.status === 200), JSON.stringify(all.map((a) => a.status)));
      assert.ok(worst < 2000, `worst answer ${worst} ms`);
      assert.ok(firstSuccess < 4500, `first success after ${firstSuccess} ms`);
      // The first success took the slot of an old partial request, which was answered 408.
      await until(() => pool.timedOut >= 1, 2000);
      assert.equal(pool.refused, 44);
    } finally {
      clearInterval(trickle);
      pool.destroy();
      await server.close();
    }
  });
});
