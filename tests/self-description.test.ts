// request.parameters echoes the PUT body on every answer (errors included), the /api/v1 index, 404s
// outside the API that point to it, and GET /api/v1/openapi.json with and without gzip.
import { strict as assert } from 'node:assert';
import { gunzipSync } from 'node:zlib';
import { EventEmitter } from 'node:events';
import * as httpMocks from 'node-mocks-http';
import { Api } from '../src/api/api';
import { acceptsGzip } from '../src/api/access/site';
import { describeDevice, PIECE_TARGET } from '../src/api/resources/describe';
import { nodeHttpListener } from './node-http-adapter';
import { simOpenApi } from '../host-sim/openapi-source';
import { createSimModule } from '../hal/sim/index';
import { call, SERIAL, wholeDescription } from './helpers';

const BASE = '/api/v1/device';
const BODY = { value: 1, note: 'kept' };

function api(): Api {
  return new Api([createSimModule({ serialNumber: SERIAL })], { openapi: simOpenApi() });
}

/** One request with headers; the raw body bytes and headers of the answer. */
function fetchRaw(a: Api, url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; raw: Buffer }> {
  const req = httpMocks.createRequest({ method: 'GET', url, headers });
  const res = httpMocks.createResponse({ eventEmitter: EventEmitter });
  return new Promise((resolve) => {
    res.on('end', () => {
      const bytes = res._getBuffer();
      resolve({ status: res.statusCode, headers: res._getHeaders(), raw: bytes.length ? bytes : Buffer.from(res._getData() as string) });
    });
    nodeHttpListener(a)(req as never, res as never);
    req.send();
  });
}

describe('request.parameters echoes the PUT body on every answer', () => {
  const cases: [string, string, number, string][] = [
    ['unknown entity', `${BASE}/nosuch/0/value`, 404, 'aErrInvalidEntity'],
    ['unknown operation', `${BASE}/system/0/nosuch`, 404, 'aErrInvalidOption'],
    ['index out of range', `${BASE}/digital/99/value`, 404, 'aErrIndexRange'],
    ['method not offered', `${BASE}/system/0/serialnumber`, 405, 'aErrInvalidOption'],
    ['unsupported entity', `${BASE}/app/0/execute`, 501, 'aErrUnimplemented'],
    ['state forbids it', `${BASE}/digital/0/value`, 409, 'aErrMode'],
    ['empty segment', `${BASE}/system/0/hbinterval/`, 404, 'aErrNotFound'],
    ['set', `${BASE}/system/0/hbinterval`, 0, ''],
    ['outside the API', '/nowhere', 404, 'aErrNotFound'],
  ];
  for (const [what, path, status, error] of cases) {
    it(`${what}: ${status || 'success'}`, async () => {
      const a = await call(api(), 'PUT', path, BODY);
      if (status) {
        assert.equal(a.status, status, a.text);
        assert.equal(a.json.response.error, error);
      }
      assert.deepEqual(a.json.request.parameters, BODY);
    });
  }

  it('400 after parsing: the body that was refused', async () => {
    const a = await call(api(), 'PUT', `${BASE}/system/0/hbinterval`, { value: 0 });
    assert.equal(a.status, 400);
    assert.deepEqual(a.json.request.parameters, { value: 0 });
    const b = await call(api(), 'PUT', `${BASE}/system/0/hbinterval`, { other: 1 });
    assert.equal(b.json.response.error, 'aErrParam');
    assert.deepEqual(b.json.request.parameters, { other: 1 });
  });

  it('{} when the body is not a JSON object', async () => {
    for (const body of ['[1]', 'not json', '5']) {
      const a = await call(api(), 'PUT', `${BASE}/system/0/hbinterval`, body);
      assert.equal(a.status, 400);
      assert.deepEqual(a.json.request.parameters, {});
    }
  });
});

describe('the API index and paths outside the API', () => {
  it('GET /api/v1 links the devices, the OpenAPI document, the events and the console', async () => {
    const a = await call(api(), 'GET', '/api/v1');
    assert.equal(a.status, 200);
    assert.deepEqual(a.json.response.links, {
      devices: '/api/v1/device', openapi: '/api/v1/openapi.json', events: '/api/v1/device/{serial}/events', console: '/',
    });
    assert.equal((await call(api(), 'PUT', '/api/v1', BODY)).status, 405);
  });

  // `/` is the web console (tests/console-page.test.ts); every other path outside the API is a 404.
  for (const path of ['/index.html', '/api', '/api/v2/device', '/api/v1/nothing']) {
    it(`${path}: 404 envelope pointing to /api/v1`, async () => {
      const a = await call(api(), 'GET', path);
      assert.equal(a.status, 404);
      assert.equal(a.json.response.error, 'aErrNotFound');
      assert.match(a.json.response.message, /\/api\/v1 \(the API index\)/);
    });
  }
});

describe('GET /api/v1/openapi.json', () => {
  it('sends the stored gzip bytes with Content-Encoding when the client accepts gzip', async () => {
    const a = await fetchRaw(api(), '/api/v1/openapi.json', { 'accept-encoding': 'gzip, deflate, br' });
    assert.equal(a.status, 200);
    assert.equal(a.headers['content-encoding'], 'gzip');
    const doc = JSON.parse(gunzipSync(a.raw).toString('utf8'));
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '2.11.3');
  });

  it('sends it uncompressed when the client refuses gzip', async () => {
    const a = await fetchRaw(api(), '/api/v1/openapi.json', { 'accept-encoding': 'identity' });
    assert.equal(a.status, 200);
    assert.equal(a.headers['content-encoding'], undefined);
    assert.equal(JSON.parse(a.raw.toString('utf8')).jsonSchemaDialect, 'https://json-schema.org/draft/2020-12/schema');
  });

  it('answers 406 on a module (no uncompressed copy) when gzip is refused', async () => {
    const device = new Api([createSimModule({ serialNumber: SERIAL })], { openapi: { gzip: simOpenApi().gzip } });
    const a = await fetchRaw(device, '/api/v1/openapi.json', { 'accept-encoding': 'gzip;q=0' });
    assert.equal(a.status, 406);
    assert.equal(JSON.parse(a.raw.toString('utf8')).response.error, 'aErrUnimplemented');
  });

  it('reads Accept-Encoding as RFC 9110 says', () => {
    assert.equal(acceptsGzip(''), true);
    assert.equal(acceptsGzip('gzip'), true);
    assert.equal(acceptsGzip('GZIP;q=0.5'), true);
    assert.equal(acceptsGzip('*'), true);
    assert.equal(acceptsGzip('identity'), false);
    assert.equal(acceptsGzip('gzip;q=0, *'), false);
    assert.equal(acceptsGzip('br, *;q=0'), false);
  });
});

describe('the device description is made in pieces', () => {
  it('pieces of a few operations, between a head and a tail, that join into the answer byte for byte', async () => {
    const module = createSimModule({ serialNumber: SERIAL });
    const pieces: string[] = [];
    describeDevice(module, (piece) => { pieces.push(piece); });
    const answer = await call(new Api([module]), 'GET', `${BASE}/0x1234ABCD`);
    assert.ok(pieces.length > Object.keys(answer.json.response.entities).length + 2, `${pieces.length} pieces`);
    assert.equal(pieces.join(''), wholeDescription(module));
    assert.deepEqual(JSON.parse(pieces.join('')), answer.json.response);
    // A piece grows to PIECE_TARGET and then takes one operation more at most.
    const largest = Math.max(...pieces.map((p) => p.length));
    assert.ok(largest < 2 * PIECE_TARGET, `largest piece ${largest} characters`);
  });
});
