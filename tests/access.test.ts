// docs/api.md §Access control (Host check, cross-site writes, CORS) and §HTTP limits answer headers
// (Cache-Control, Date), through Api.handle with every header under the test's control.
import { strict as assert } from 'node:assert';
import { ask, HB, PATH, putHb, readHb, simWithApi } from './access-helpers';
import { imfFixdate } from '../src/api/answer-headers';
import { rawExchange, splitResponses } from './helpers';

describe('access: Host check (DNS rebinding)', () => {
  it('refuses a PUT, a read and an action under a foreign Host, and runs none of them', () => {
    const { api, module } = simWithApi();
    for (const host of ['evil.example', 'evil.example:9005', 'EVIL.example', '127.0.0.1.evil.example', 'localhost.evil.example',
      'brainstem-1234abcd.evil.example', '1.2.3', '256.1.1.1', '1.2.3.4.5', '[::1', '[::1]x', 'localhost:x', ':9005']) {
      const put = putHb(api, 77, { host });
      assert.equal(put.status, 403, host);
      assert.equal(put.json.response.error, 'aErrPermission');
      assert.match(put.json.response.message, /Host/);
      assert.equal(ask(api, { target: HB, host }).status, 403, host);
      assert.equal(ask(api, { target: PATH, host }).status, 403, host);
    }
    assert.notEqual(readHb(api), 77);
    // An unsaved setting survives a reset attempted under a foreign Host.
    putHb(api, 33);
    assert.equal(ask(api, { target: `${PATH}/system/0/reset`, host: 'evil.example' }).status, 403);
    assert.equal(module.resetPending(), false);
    assert.equal(readHb(api), 33);
  });

  it('accepts IP literals, localhost and the module hostname (also .local), port ignored', () => {
    const { api } = simWithApi();
    for (const host of ['127.0.0.1', '127.0.0.1:9005', '192.168.1.50', '[::1]', '[::1]:9005', '[fe80::1:2]:80', 'localhost',
      'LocalHost:8080', 'brainstem-1234abcd', 'Brainstem-1234ABCD.local:9005', '']) {
      assert.equal(putHb(api, 21, { host }).status, 200, host);
    }
  });

  it('follows the hostname set through the API, and operator-allowed names', () => {
    const { api } = simWithApi({ allowHosts: ['Lab-Module.example'] });
    assert.equal(putHb(api, 20, { host: 'lab-module.example:9005' }).status, 200);
    assert.equal(putHb(api, 20, { host: 'bench7' }).status, 403);
    const set = ask(api, { method: 'PUT', target: `${PATH}/ethernet/0/hostname`, body: '{"value":"bench7"}' });
    assert.equal(set.status, 200);
    assert.equal(putHb(api, 20, { host: 'bench7' }).status, 200);
    assert.equal(putHb(api, 20, { host: 'BENCH7.local' }).status, 200);
    assert.equal(putHb(api, 20, { host: 'brainstem-1234abcd' }).status, 403);
    // A hostname is checked again on every request (only fixed names are remembered): renamed, it is refused.
    assert.equal(putHb(api, 20, { host: 'bench7' }).status, 200);
    assert.equal(ask(api, { method: 'PUT', target: `${PATH}/ethernet/0/hostname`, body: '{"value":"bench8"}', host: 'bench7' }).status, 200);
    assert.equal(putHb(api, 20, { host: 'bench7' }).status, 403);
    assert.equal(putHb(api, 20, { host: 'bench8' }).status, 200);
  });

  it('refuses a foreign Host right after an accepted one, and accepts the accepted one again', () => {
    const { api } = simWithApi();
    for (const host of ['127.0.0.1:9005', 'evil.example', '127.0.0.1:9005', '127.0.0.1:9006', 'localhost.evil.example', 'localhost']) {
      assert.equal(putHb(api, 21, { host }).status, host.indexOf('evil') >= 0 ? 403 : 200, host);
    }
  });
});

describe('access: cross-site writes', () => {
  it('refuses PUTs and actions marked cross-site or same-site; reads and same-origin pass', () => {
    const { api, module } = simWithApi();
    putHb(api, 30);
    for (const site of ['cross-site', 'same-site']) {
      const r = putHb(api, 31, { site });
      assert.equal(r.status, 403, site);
      assert.equal(r.json.response.error, 'aErrPermission');
      assert.equal(ask(api, { target: `${PATH}/system/0/reset`, site }).status, 403);
      assert.equal(ask(api, { target: `${PATH}/system/0/save`, site }).status, 403);
      assert.equal(ask(api, { target: HB, site }).status, 200, 'a read is not refused');
    }
    assert.equal(module.resetPending(), false);
    assert.equal(readHb(api), 30);
    assert.equal(putHb(api, 32, { site: 'same-origin' }).status, 200);
    assert.equal(putHb(api, 33, { site: 'none' }).status, 200);
    assert.equal(readHb(api), 33);
  });

  it('refuses a write whose Origin is neither this server nor an allowed CORS origin', () => {
    const { api } = simWithApi();
    for (const origin of ['http://evil.example', 'null', 'http://127.0.0.1:9006', 'https://127.0.0.1:9005', 'http://127.0.0.1']) {
      assert.equal(putHb(api, 40, { origin }).status, 403, origin);
    }
    assert.notEqual(readHb(api), 40);
    assert.equal(putHb(api, 41, { origin: 'http://127.0.0.1:9005', site: 'same-origin' }).status, 200);
    assert.equal(putHb(api, 42, { origin: 'http://LOCALHOST', host: 'localhost:80', fields: { 'x-requested-with': 'x' } }).status, 200,
      'default port');
    assert.equal(ask(api, { target: HB, origin: 'http://evil.example' }).status, 200, 'reads are open');
  });

  const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

  it('refuses a browser\'s write over plain HTTP (no Fetch Metadata) unless it carries the proof header', () => {
    const { api, module } = simWithApi();
    putHb(api, 30);
    // What Chromium sends to http://<address>/ for an <img>, a link, a no-cors fetch or a form's GET from a
    // page elsewhere: a browser's User-Agent, perhaps a Referer, never Origin or Sec-Fetch-*.
    const looks: Record<string, string>[] = [{ 'user-agent': BROWSER }, { 'user-agent': BROWSER, referer: 'http://wiki.example/page' },
      { referer: 'http://wiki.example/' }, { 'user-agent': BROWSER, 'x-requested-with': '' }];
    for (const fields of looks) {
      const label = JSON.stringify(fields);
      const put = putHb(api, 31, { fields });
      assert.equal(put.status, 403, label);
      assert.equal(put.json.response.error, 'aErrPermission');
      assert.match(put.json.response.message, /console at \/, or curl, or send the header X-Requested-With/, label);
      for (const action of ['reset', 'save']) assert.equal(ask(api, { target: `${PATH}/system/0/${action}`, fields }).status, 403, label);
      assert.equal(ask(api, { target: HB, fields }).status, 200, `a read is not refused: ${label}`);
    }
    // The console's same-origin PUT over plain HTTP carries its own Origin; without the proof it is refused too.
    assert.equal(putHb(api, 32, { origin: 'http://127.0.0.1:9005', fields: { 'user-agent': BROWSER } }).status, 403);
    assert.equal(module.resetPending(), false);
    assert.equal(readHb(api), 30);
    // With the proof header (any value), or Fetch Metadata that says same-origin or none, it runs.
    assert.equal(putHb(api, 33, { fields: { 'user-agent': BROWSER, 'x-requested-with': 'brainstem-console' } }).status, 200);
    assert.equal(putHb(api, 34, { origin: 'http://127.0.0.1:9005', fields: { 'user-agent': BROWSER, 'x-requested-with': '1' } }).status, 200);
    assert.equal(putHb(api, 35, { site: 'same-origin', fields: { 'user-agent': BROWSER } }).status, 200);
    assert.equal(putHb(api, 36, { site: 'none', fields: { 'user-agent': BROWSER } }).status, 200);
    assert.equal(ask(api, { target: `${PATH}/system/0/save`, fields: { 'user-agent': BROWSER, 'x-requested-with': 'x' } }).status, 200);
    // The proof does not lift the other refusals: a foreign Origin, or Fetch Metadata that says another site.
    assert.equal(putHb(api, 37, { origin: 'http://evil.example', fields: { 'x-requested-with': 'x' } }).status, 403);
    assert.equal(putHb(api, 38, { site: 'cross-site', fields: { 'x-requested-with': 'x' } }).status, 403);
    assert.equal(readHb(api), 36);
  });

  it('lets scripts write as before: curl, Python, Prometheus, Go and Node clients name themselves', () => {
    const { api } = simWithApi();
    for (const agent of ['curl/7.88.1', 'python-requests/2.28.1', 'Python-urllib/3.11', 'Prometheus/2.42.0', 'Go-http-client/1.1',
      'node', 'undici', 'Wget/1.21.3', '']) {
      assert.equal(putHb(api, 60, { fields: agent ? { 'user-agent': agent } : {} }).status, 200, agent);
      assert.equal(ask(api, { target: `${PATH}/system/0/save`, fields: { 'user-agent': agent } }).status, 200, agent);
    }
    // Node's fetch (undici) sends Sec-Fetch-Mode: cors, and no Sec-Fetch-Site, Origin or Referer.
    assert.equal(putHb(api, 61, { fields: { 'user-agent': 'node', 'sec-fetch-mode': 'cors', 'accept-language': '*' } }).status, 200);
    // An unknown Sec-Fetch-Site is not one that vouches for the request: it needs the proof.
    assert.equal(putHb(api, 62, { site: 'elsewhere' }).status, 403);
    assert.equal(putHb(api, 63, { site: 'elsewhere', fields: { 'x-requested-with': 'x' } }).status, 200);
  });

  it('lets an allowed CORS origin write whatever its Sec-Fetch-Site', () => {
    const { api } = simWithApi({ cors: ['http://console.example:8000/'] });
    assert.equal(putHb(api, 50, { origin: 'http://console.example:8000', site: 'cross-site' }).status, 200);
    assert.equal(putHb(api, 50, { origin: 'http://console.example:8000', fields: { 'user-agent': BROWSER } }).status, 200, 'plain HTTP');
    assert.equal(putHb(api, 51, { origin: 'http://other.example:8000', site: 'cross-site' }).status, 403);
    assert.equal(putHb(api, 52, { site: 'cross-site' }).status, 403, 'no Origin, cross-site');
    assert.equal(readHb(api), 50);
  });
});

describe('access: CORS', () => {
  const ALLOWED = 'http://console.example:8000';

  it('is off by default: no CORS header whatever the Origin, and preflights fail', () => {
    const { api } = simWithApi();
    const g = ask(api, { target: HB, origin: ALLOWED });
    assert.equal(g.headers['access-control-allow-origin'], undefined);
    const p = ask(api, { method: 'OPTIONS', target: HB, origin: ALLOWED, preflight: 'PUT' });
    assert.equal(p.status, 204);
    assert.equal(p.headers['access-control-allow-methods'], undefined);
  });

  it('answers only listed origins, echoing the origin with Vary', () => {
    const { api } = simWithApi({ cors: [ALLOWED, 'http://b.example'] });
    const g = ask(api, { target: HB, origin: ALLOWED });
    assert.equal(g.headers['access-control-allow-origin'], ALLOWED);
    assert.equal(g.headers.vary, 'Origin');
    assert.equal(ask(api, { target: HB, origin: 'http://b.example' }).headers['access-control-allow-origin'], 'http://b.example');
    assert.equal(ask(api, { target: HB, origin: 'http://c.example' }).headers['access-control-allow-origin'], undefined);
    assert.equal(ask(api, { target: HB }).headers['access-control-allow-origin'], undefined, 'no Origin, no CORS');
    const e = ask(api, { target: `${PATH}/system/0/nosuch`, origin: ALLOWED });
    assert.equal(e.status, 404);
    assert.equal(e.headers['access-control-allow-origin'], ALLOWED, 'errors are readable too');
  });

  it('puts preflight headers only on preflights from allowed origins, allowing Authorization', () => {
    const { api } = simWithApi({ cors: [ALLOWED] });
    const p = ask(api, { method: 'OPTIONS', target: HB, origin: ALLOWED, preflight: 'PUT' });
    assert.equal(p.status, 204);
    assert.equal(p.headers['access-control-allow-methods'], 'GET, HEAD, PUT, OPTIONS');
    assert.equal(p.headers['access-control-allow-headers'], 'Authorization, Content-Type, X-Requested-With');
    assert.equal(p.headers['access-control-allow-origin'], ALLOWED);
    const listing = ask(api, { method: 'OPTIONS', target: PATH, origin: ALLOWED, preflight: 'GET' });
    assert.equal(listing.headers['access-control-allow-methods'], 'GET, HEAD, OPTIONS');
    const plain = ask(api, { method: 'OPTIONS', target: HB, origin: ALLOWED });
    assert.equal(plain.headers['access-control-allow-methods'], undefined, 'an OPTIONS that is no preflight');
    const bare = ask(api, { method: 'OPTIONS', target: HB, preflight: 'PUT' });
    assert.equal(bare.headers['access-control-allow-methods'], undefined, 'no Origin');
    const other = ask(api, { method: 'OPTIONS', target: HB, origin: 'http://evil.example', preflight: 'PUT' });
    assert.equal(other.headers['access-control-allow-methods'], undefined);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
  });

  it("allows every origin only with an explicit '*'", () => {
    const { api } = simWithApi({ cors: ['*'] });
    const g = ask(api, { target: HB, origin: 'http://anything.example' });
    assert.equal(g.headers['access-control-allow-origin'], '*');
    assert.equal(putHb(api, 60, { origin: 'http://anything.example', site: 'cross-site' }).status, 200);
  });
});

describe('answer headers: Cache-Control and Date', () => {
  it('formats IMF-fixdate', () => {
    assert.equal(imfFixdate(784111777000), 'Sun, 06 Nov 1994 08:49:37 GMT');
    for (const t of [0, 1577836800000, 1795000000123, 253402300799000]) {
      assert.equal(imfFixdate(t), new Date(t).toUTCString());
    }
  });

  it('puts no-store and the module clock on answers, errors and framing failures', () => {
    let now = Date.UTC(2026, 10, 23, 1, 2, 3, 456);
    const { api } = simWithApi(undefined, () => now);
    for (const r of [ask(api, { target: HB }), ask(api, { target: `${PATH}/nosuch` }), putHb(api, 0),
      ask(api, { method: 'OPTIONS', target: HB })]) {
      assert.equal(r.headers['cache-control'], 'no-store');
      assert.equal(r.headers.date, 'Mon, 23 Nov 2026 01:02:03 GMT');
    }
    now += 1000;
    assert.equal(ask(api, { target: HB }).headers.date, 'Mon, 23 Nov 2026 01:02:04 GMT');
    const { out } = rawExchange(api, ['GET / HTTP/3.0\r\nHost: localhost\r\n\r\n']);
    const [failed] = splitResponses(out);
    assert.equal(failed.status, 505);
    assert.match(failed.head, /\r\nCache-Control: no-store\r\nDate: Mon, 23 Nov 2026 01:02:04 GMT(\r\n|$)/);
  });

  it('leaves Date out while the module clock is unset (before 2020)', () => {
    const { api } = simWithApi(undefined, () => 5000);
    const r = ask(api, { target: HB });
    assert.equal(r.status, 200);
    assert.equal(r.headers['cache-control'], 'no-store');
    assert.equal(r.headers.date, undefined);
  });
});
