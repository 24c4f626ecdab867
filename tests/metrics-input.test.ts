// GET /metrics under bad or unusual input (docs/api.md §Requests and value forms, docs/security.md): a query string is
// ignored, HEAD sends the head alone, other methods are 405, a cross-site page may read (harmlessly),
// the Host check and a token on reads apply, a scrape during a reset or a bulk capture is answered and
// disturbs neither, and a scrape reads through the HAL only: no set, no action, nothing cleared.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Api, type ApiOptions } from '../src/api/api';
import { Connection } from '../src/http/connection';
import { METRIC_FAMILIES, metricRow } from '../src/api/resources/metric-family';
import { createSimModule, type SimModule } from '../hal/sim/index';
import type { EntityHal } from '../hal/types';
import { assertError, call, rawExchange, splitResponses } from './helpers';
import { ask } from './access-helpers';
import { NOW, parseExposition, scrape, scrapeRequest } from './metrics-helpers';
import { OpenApiValidator } from './openapi-validator';
import { nodeRandom, nodeSha256 } from '../host-sim/sha256';

/** Every family, as the module derives it from its route row. */
const METRIC_ROWS = Array.from({ length: METRIC_FAMILIES }, (_, i) => metricRow(i));

const sim = (now: () => number = () => NOW): SimModule => createSimModule({ serialNumber: 0x1234abcd, now });
const api = (options?: ApiOptions, m: SimModule = sim()): Api => new Api([m], { sha256: nodeSha256, random: nodeRandom, ...options });
const valueOf = (text: string, name: string, index = '0'): number | undefined =>
  parseExposition(text).find((f) => f.name === name)?.samples.find((s) => s.labels.index === index)?.value;

describe('GET /metrics: bad and unusual input', () => {
  it('ignores a query string', () => {
    const a = api();
    const plain = scrape(a).body;
    for (const q of ['?', '?reset=1', '?name[]=x&match[]={job="a"}', '?%zz']) {
      const r = scrape(a, 'GET', '/metrics' + q);
      assert.equal(r.status, 200, q);
      assert.equal(r.body, plain, q);
    }
  });

  it('HEAD: the same head, no body, and the connection reads on', () => {
    const x = rawExchange(api(), [scrapeRequest('HEAD') + scrapeRequest('GET')], () => NOW);
    const end = x.out.indexOf('\r\n\r\n');
    const head = x.out.slice(0, end);
    assert.match(head, /^HTTP\/1\.1 200 OK/);
    assert.match(head, /^Content-Type: text\/plain; version=0\.0\.4; charset=utf-8$/m);
    const [get] = splitResponses(x.out.slice(end + 4));
    assert.equal(get.status, 200);
    assert.ok(parseExposition(get.body).length > 50);
  });

  it('HTTP/1.0: the body ends with the connection', () => {
    const x = rawExchange(api(), [scrapeRequest('GET', '/metrics', '', '1.0')], () => NOW);
    const end = x.out.indexOf('\r\n\r\n');
    assert.doesNotMatch(x.out.slice(0, end), /chunked/i);
    assert.ok(parseExposition(x.out.slice(end + 4)).length > 50);
    assert.equal(x.closed, true);
  });

  it('other methods: 405 with Allow (the PUT body is not applied), OPTIONS 204, an unknown method 501', async () => {
    const a = api();
    for (const method of ['PUT', 'POST', 'DELETE', 'PATCH']) {
      const r = await call(a, method, '/metrics', { value: 1 });
      assertError(r, 405, 'aErrInvalidOption');
      assert.equal(r.headers.allow, 'GET, HEAD, OPTIONS');
    }
    const o = await call(a, 'OPTIONS', '/metrics');
    assert.equal(o.status, 204);
    assert.equal(o.headers.allow, 'GET, HEAD, OPTIONS');
    assert.equal((await call(a, 'BREW', '/metrics')).status, 501);
  });

  it('the OpenAPI documents describe what is answered: the exposition, and the error envelopes', function () {
    this.timeout(30_000);
    const type = /^Content-Type: (.*)$/m.exec(scrape(api()).head)![1];
    for (const file of ['openapi-sim.json.gz', 'openapi-device.json.gz']) {
      const doc = JSON.parse(gunzipSync(fs.readFileSync(path.resolve(__dirname, '../../resources', file))).toString('utf8'));
      assert.ok(doc.paths['/metrics'].get.responses[200].content[type], `${file}: 200 ${type}`);
      if (file !== 'openapi-sim.json.gz') continue;
      const v = new OpenApiValidator(doc);
      assert.equal(v.check('GET', '/metrics', 200, undefined), '');
      assert.equal(v.check('GET', '/metrics', 401, ask(api({ token: 't', tokenReads: true }), { target: '/metrics' }).json), '');
      assert.equal(v.check('GET', '/metrics', 403, ask(api(), { target: '/metrics', host: 'evil.example' }).json), '');
    }
  });

  it('only /metrics itself: a trailing slash, a segment more or another case is 404', async () => {
    for (const p of ['/metrics/', '/metrics/x', '/METRICS', '/api/v1/metrics']) assert.equal((await call(api(), 'GET', p)).status, 404, p);
  });

  it('a cross-site page may read it: 200, without CORS headers unless its origin is allowed', () => {
    const cross = { target: '/metrics', origin: 'http://evil.example', site: 'cross-site' };
    const r = ask(api(), cross);
    assert.equal(r.status, 200);
    assert.equal(r.headers['access-control-allow-origin'], undefined);
    const allowed = ask(api({ cors: ['http://lab.example'] }), { ...cross, origin: 'http://lab.example' });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers['access-control-allow-origin'], 'http://lab.example');
  });

  it('the Host check applies (DNS rebinding): 403, nothing read', () => {
    const r = ask(api(), { target: '/metrics', host: 'rebind.example' });
    assert.equal(r.status, 403);
    assert.equal(r.json.response.error, 'aErrPermission');
  });

  it('a token: reads stay open unless the operator closes them; then 401 without it, 200 with it', () => {
    assert.equal(ask(api({ token: 's3cret' }), { target: '/metrics' }).status, 200);
    const closed = api({ token: 's3cret', tokenReads: true });
    const no = ask(closed, { target: '/metrics' });
    assert.equal(no.status, 401);
    assert.match(no.headers['www-authenticate'], /^Digest .*, Bearer$/);
    assert.equal(ask(closed, { target: '/metrics', auth: 'Bearer s3cret' }).status, 200);
    assert.equal(scrape(closed, 'GET', '/metrics', 'Authorization: Bearer s3cret\r\n').status, 200);
  });
});

describe('GET /metrics changes nothing', () => {
  it('reads through the HAL only: no set, no action, only operations of the metric table', () => {
    const m = sim();
    const reads = new Set<string>();
    const writes: string[] = [];
    for (const [name, hal] of Object.entries(m.entities as Record<string, EntityHal>)) {
      const get = hal.get.bind(hal);
      hal.get = ((i: number, op: string, p: readonly number[]) => { reads.add(name + '/' + op); return get(i, op, p); }) as EntityHal['get'];
      hal.set = (() => { writes.push(name); }) as EntityHal['set'];
      hal.run = ((_i: number, op: string) => { writes.push(name + '/' + op); }) as EntityHal['run'];
    }
    assert.equal(scrape(api(undefined, m)).status, 200);
    assert.deepEqual(writes, []);
    const table = new Set(METRIC_ROWS.map((r) => r[0] + '/' + r[1]));
    for (const r of reads) assert.ok(table.has(r), `${r} read by a scrape`);
    assert.ok(reads.size > 60, `${reads.size} operations read`);
  });

  it('latched errors and accumulated energy survive a scrape', async () => {
    const clock = { t: NOW };
    const m = sim(() => clock.t);
    const a = api(undefined, m);
    // A device drawing 9 A trips port 0: port/errors and system/errors latch until read.
    m.setPortDevice(0, { loadMicroamp: 9_000_000, speed: 'high', vconnMicroamp: 0 });
    clock.t += 5000;
    const energy = '/api/v1/device/port/0/vbusaccumulatedpower';
    const before = (await call(a, 'GET', energy)).json.response.value;
    scrape(a);
    scrape(a);
    assert.equal((await call(a, 'GET', energy)).json.response.value, before);
    assert.notEqual((await call(a, 'GET', '/api/v1/device/port/0/errors')).json.response.value, 0, 'port errors still latched');
    assert.notEqual((await call(a, 'GET', '/api/v1/device/system/0/errors')).json.response.value, 0, 'system errors still latched');
    assert.equal((await call(a, 'GET', '/api/v1/device/system/0/errors')).json.response.value, 0, 'a REST read clears them');
  });

  it('a scrape during a bulk capture: answered, the capture state shown, the capture undisturbed', async () => {
    const clock = { t: NOW };
    const a = api(undefined, sim(() => clock.t));
    assert.equal((await call(a, 'GET', '/api/v1/device/analog/0/bulkcapture')).status, 200);
    const r = scrape(a);
    assert.equal(r.status, 200);
    assert.equal(valueOf(r.body, 'brainstem_analog_bulkcapturestate'), 1, 'pending');
    assert.equal((await call(a, 'GET', '/api/v1/device/analog/0/bulkcapturestate')).json.response.value, 1);
    clock.t += 60_000;
    assert.equal(valueOf(scrape(a).body, 'brainstem_analog_bulkcapturestate'), 2, 'finished as it would have');
  });

  it('a scrape during a reset: the stream ends well, the reset does what it does, the scrape resets nothing', async () => {
    const m = sim();
    const a = api(undefined, m);
    const setpoint = '/api/v1/device/rail/0/voltagesetpoint';
    const saved = (await call(a, 'GET', setpoint)).json.response.value;
    await call(a, 'PUT', setpoint, { value: 3300000 });
    await call(a, 'PUT', '/api/v1/device/rail/0/enable', { value: true });
    let out = '';
    // A scrape whose client reads slowly: the reset comes between two of its pieces.
    const paced = new Api([m]);
    let queued = 0;
    const c = new Connection(paced, { write: (b) => { out += Buffer.from(b).toString('utf8'); queued += b.length; }, close: () => undefined, backlog: () => queued }, { now: () => NOW });
    c.receive(Buffer.from(scrapeRequest()));
    assert.ok(!out.endsWith('\r\n0\r\n\r\n'), 'the scrape is still going');
    assert.equal((await call(a, 'GET', '/api/v1/device/system/0/reset')).status, 200);
    for (let i = 0; i < 2000 && !out.endsWith('\r\n0\r\n\r\n'); i++) { queued = 0; c.drained(); }
    const [r] = splitResponses(out);
    assert.equal(r.status, 200);
    assert.ok(parseExposition(r.body).length > 50);
    assert.equal((await call(a, 'GET', setpoint)).json.response.value, saved, 'the unsaved setpoint went with the reset');
    assert.notEqual(valueOf(scrape(a).body, 'brainstem_rail_voltage_volts'), 3.3);
  });
});
