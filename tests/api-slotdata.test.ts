// Store slot data through the API handler: bytes as application/octet-stream, a bulk capture
// downloaded from RAM store slot 0, raw uploads within the capacity and the lock, errors in JSON.
import { strict as assert } from 'node:assert';
import { assertError, call, simApi, SERIAL } from './helpers';
import { createSimModule } from '../hal/sim/index';
import type { Api } from '../src/api/api';

const BASE = '/api/v1/device';

describe('API handler: store slot data (application/octet-stream)', () => {
  let api: Api;
  beforeEach(() => { api = simApi(); });

  it('downloads a bulk capture from RAM store slot 0', async () => {
    let now = Date.UTC(2026, 0, 1);
    const clocked = simApi(undefined, [createSimModule({ serialNumber: SERIAL, now: () => now })]);
    assert.equal((await call(clocked, 'PUT', `${BASE}/analog/0/configuration`, { value: 0 })).status, 200);
    assert.equal((await call(clocked, 'PUT', `${BASE}/analog/0/bulkcapturesamplerate`, { value: 10000 })).status, 200);
    assert.equal((await call(clocked, 'PUT', `${BASE}/analog/0/bulkcapturenumberofsamples`, { value: 100 })).status, 200);
    assert.equal((await call(clocked, 'GET', `${BASE}/analog/0/bulkcapture`)).status, 200);
    assert.equal((await call(clocked, 'GET', `${BASE}/analog/0/bulkcapturestate`)).json.response.value, 1); // pending
    now += 20; // 100 samples at 10 kHz take 10 ms
    assert.equal((await call(clocked, 'GET', `${BASE}/analog/0/bulkcapturestate`)).json.response.value, 2); // finished
    const a = await call(clocked, 'GET', `${BASE}/store/1/slotdata/0`);
    assert.equal(a.status, 200);
    assert.equal(a.headers['content-type'], 'application/octet-stream');
    assert.equal(a.raw.length, 200); // 2 bytes per sample
    assert.equal(Number(a.headers['content-length']), 200);
    const size = await call(clocked, 'GET', `${BASE}/store/1/slotsize/0`);
    assert.equal(size.json.response.value, 200);
    const samples = new Set<number>();
    for (let i = 0; i < a.raw.length; i += 2) samples.add(a.raw.readUInt16LE(i));
    assert.ok(samples.size > 10, 'a waveform, not a constant');
  });

  it('uploads raw bytes within the capacity and honours the lock', async () => {
    const bytes = Buffer.from([0, 1, 2, 0xfe, 0xff, 0x80]);
    const put = await call(api, 'PUT', `${BASE}/store/0/slotdata/3`, bytes.toString('latin1'));
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.json.response, {});
    const back = await call(api, 'GET', `${BASE}/store/0/slotdata/3`);
    assert.deepEqual([...back.raw], [...Buffer.from(bytes.toString('latin1'))]);
    assertError(await call(api, 'PUT', `${BASE}/store/0/slotdata/3`, 'x'.repeat(2000)), 400, 'aErrSize');
    assert.equal((await call(api, 'PUT', `${BASE}/store/0/lock/3`, { value: true })).status, 200);
    assertError(await call(api, 'PUT', `${BASE}/store/0/slotdata/3`, 'new'), 403, 'aErrPermission');
    assert.equal((await call(api, 'GET', `${BASE}/store/0/slotdata/3`)).raw.length, back.raw.length);
  });

  it('answers errors in JSON and HEAD without a body', async () => {
    assertError(await call(api, 'GET', `${BASE}/store/0/slotdata/999`), 400, 'aErrRange');
    const head = await call(api, 'HEAD', `${BASE}/store/1/slotdata/0`);
    assert.equal(head.status, 200);
    assert.equal(head.raw.length, 0);
    assert.equal(head.headers['content-type'], 'application/octet-stream');
  });
});
