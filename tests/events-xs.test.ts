// The event stream and the console page under the real XS engine (xsnap-worker): the device-side code
// (tests/xs/xs-events.ts bundles HTTP core + API core + simulated HAL) streams events on its timer and
// serves the console page's bytes (resources/console.html.gz, handed in as a module maps its resource).
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { XsnapWorker } from './xs/xsnap-worker';
import { bundleForXs } from './xs/bundle';
import { simConsolePage } from '../host-sim/console-source';

const ROOT = path.resolve(__dirname, '../..');

describe('event stream and console page under XS', function () {
  this.timeout(30_000);
  let worker: XsnapWorker;
  const send = async (text: string): Promise<Buffer> => Buffer.from((await worker.command(new Uint8Array(Buffer.from(text, 'latin1')))).reply);
  const last = (): Promise<Buffer> => send('last');

  before(async () => {
    worker = new XsnapWorker({ name: 'events-xs', meteringLimit: 100_000_000 });
    await worker.start();
    await worker.evaluate(await bundleForXs(ROOT, 'tests/xs/xs-events.ts'));
    const page = simConsolePage();
    const loaded = await worker.command(new Uint8Array([...Buffer.from('gzip ', 'latin1'), ...page]));
    assert.equal(Number(Buffer.from(loaded.reply).toString()), page.length);
  });
  after(() => worker.close());

  it('streams one event per interval on the connection clock', async () => {
    await send('open watch=rail/0/voltage,system/0/serialnumber&interval=300');
    const head = (await last()).toString('latin1');
    assert.match(head, /^HTTP\/1\.1 200 OK\r\nContent-Type: text\/event-stream\r\nCache-Control: no-store\r\nDate: Thu, 02 Jan 2025 03:04:05 GMT\r\nConnection: close\r\n\r\nretry: 2000\n\ndata: \{"timestamp":"2025-01-02T03:04:05\.678Z","values":\{"rail\/0\/voltage":\{"value":-?\d+,"rawValue":\d+\},"system\/0\/serialnumber":\{"value":305441741,"rawValue":305441741\}\}\}\n\n$/);
    assert.equal(Number((await send('tick 100')).toString()), 0);
    assert.equal(Number((await send('tick 100')).toString()), 0);
    assert.ok(Number((await send('tick 100')).toString()) > 0, 'due after 300 ms');
    assert.match((await last()).toString('latin1'), /^data: \{"timestamp":"[^"]+","values":\{"rail\/0\/voltage":\{[^}]+\},"system\/0\/serialnumber":\{[^}]+\}\}\}\n\n$/);
    assert.equal(Number((await send('tick 15000')).toString()) > 0, true);
    await send('close');
  });

  it('serves the console page: the gzip bytes it was handed, as they are', async () => {
    await send('page');
    const out = await last();
    const end = out.indexOf('\r\n\r\n');
    assert.match(out.subarray(0, end).toString('latin1'), /Content-Encoding: gzip/);
    const body = out.subarray(end + 4);
    assert.deepEqual(body, Buffer.from(simConsolePage()));
    assert.match(gunzipSync(body).toString(), /^<!doctype html>/);
  });
});
