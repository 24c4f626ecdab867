// What the hostile client (hostile-client.ts) must have seen on any board: every phase run, four whole
// answers after each, and every client served while another stopped acknowledging. Shared by the
// emulated Pico W's and ESP32's hostile tests.
import { strict as assert } from 'node:assert';

export interface Phase { name: string; done: unknown; after: { path: string; status: number; whole: string }[] }

export function assertPhasesWhole(phases: Phase[], out: string): void {
  assert.deepEqual(phases.map((p) => p.name), ['four clients beside mDNS queries', 'aborts mid-answer', 'aborts mid-stream',
    'scanners', '16 at once', 'a client that stops acknowledging'], out);
  for (const p of phases) {
    for (const f of p.after) {
      assert.equal(f.status, 200, `${p.name}: ${f.path} ${JSON.stringify(f)}`);
      assert.doesNotMatch(f.whole, /cut|not whole|bad/, `${p.name}: ${f.path} ${JSON.stringify(f)}`);
    }
  }
  const stalled = phases[5].done as string[];
  assert.ok(stalled.length > 0 && stalled.every((d) => d === 'served'), `four clients while a client was stalled: ${JSON.stringify(stalled)}`);
}
