// Fairness at the connection cap (docs/api.md §HTTP limits) against the simulator over real
// sockets: under slowloris, slow-body and idle keep-alive attackers, every honest request is
// answered, and succeeds within 2 s (a client that honours Retry-After: 1). The small-cap tests run
// on a fake clock so that seconds of attack take milliseconds; one test runs the default cap of 256
// against 300 attackers on the real clock. FAIRNESS_REPORT=1 prints the figures.
import { strict as assert } from 'node:assert';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule } from '../hal/sim/index';
import { AttackerPool, assertFair, attackAtCap, type AttackKind, type Figures, honestRequest, sleep, until } from './fairness-helpers';

const report = (line: string): void => { if (process.env.FAIRNESS_REPORT) console.log(`      ${line}`); };

/** 48 attackers of one kind against the simulator at a cap of 16, on a fake clock (fairness-helpers.ts). */
async function attack(kind: AttackKind): Promise<Figures> {
  let fake = 0;
  const server: SimServer = await startSimServer({
    port: 0, host: '127.0.0.1', devices: [createSimModule({})], maxConnections: 16, now: () => fake, lingerMs: 200,
  });
  try {
    return await attackAtCap(kind, {
      port: server.port, slots: () => server.stats().slots, advance: (ms) => { fake += ms; server.checkTimeouts(); },
    });
  } finally {
    await server.close();
  }
}

describe('fairness at the connection cap (simulator)', function () {
  this.timeout(20000);

  for (const kind of ['slowloris', 'slow-body', 'idle'] as AttackKind[]) {
    it(`${kind}: 48 attackers, cap 16: every honest request succeeds within 2 s`, async () => {
      const f = await attack(kind);
      report(`${kind}: ${f.succeeded}/${f.requests} succeeded, ${f.first503} first tries got 503 + Retry-After, ` +
        `worst wait ${f.worstWaitMs} ms (simulated), worst single answer ${f.worstAttemptMs.toFixed(1)} ms (real)`);
      assertFair(kind, f);
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
