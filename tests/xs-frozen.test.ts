// Frozen data in flash: under a real XS engine, every module-level table of the device-side
// core (route rows, the compiled route table, error names, reason phrases, integer types) is deep-frozen
// and every class prototype is frozen, so a preloaded device build keeps them in flash (xsl warns
// "not frozen" and copies the object into RAM otherwise).

import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { bundleForXs } from './xs/bundle';
import { XsnapWorker } from './xs/xsnap-worker';
import { deepFreeze } from '../util/freeze';
import { isTchar } from '../src/http/syntax';

const ROOT = path.resolve(__dirname, '../..');

describe('frozen module data under XS', function () {
  this.timeout(60_000);
  let worker: XsnapWorker;

  before(async function () {
    worker = new XsnapWorker({ name: 'xs-frozen' });
    await worker.start();
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/frozen-entry.ts'));
  });

  after(async () => {
    await worker?.close();
  });

  it('finds every table and prototype deep-frozen', async () => {
    const { reply } = await worker.command(new Uint8Array(0));
    const result = JSON.parse(Buffer.from(reply).toString('latin1')) as { checked: number; routes: number; unfrozen: string[] };
    assert.ok(result.routes > 290, `the walk saw ${result.routes} routes`);
    assert.deepEqual(result.unfrozen, [], 'not frozen: ' + result.unfrozen.join(', '));
  });

  it('the walk reports an unfrozen table (so the check can fail)', async () => {
    const { reply } = await worker.command(new Uint8Array([1]));
    const result = JSON.parse(Buffer.from(reply).toString('latin1')) as { unfrozen: string[] };
    assert.deepEqual(result.unfrozen, ['probe.rows', 'probe.rows.0']);
  });
});

describe('deepFreeze and the tchar table', () => {
  it('deepFreeze freezes nested objects and refuses typed arrays', () => {
    const t = deepFreeze({ rows: [['a', 'b']], map: { x: { y: 1 } } });
    assert.ok(Object.isFrozen(t.rows[0]) && Object.isFrozen(t.map.x));
    assert.throws(() => deepFreeze({ buf: new Uint8Array(2) }), TypeError);
  });

  it('isTchar accepts exactly the RFC 9110 token characters', () => {
    const tchar = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for (let b = 0; b < 256; b++) assert.equal(isTchar(b), tchar.includes(String.fromCharCode(b)) && b < 128, `byte ${b}`);
  });
});
