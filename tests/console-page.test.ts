// GET / : the console page (src/web/console.ts), its one stored copy (resources/console.html.gz, the
// file the simulator reads and a module links) and the generated constants beside it (in sync with web/).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { acceptsGzip } from '../src/web/console';
import { CONSOLE_ETAG, CONSOLE_GZIP_SIZE, CONSOLE_SIZE } from '../src/web/console-page';
import { simConsolePage } from '../host-sim/console-source';
import { rawExchange, simApi } from './helpers';

const ROOT = path.resolve(__dirname, '..', '..');

/** One request through a Connection (the Api given the page file unless `page` is null); head text, body bytes. */
function exchange(head: string, gunzip = false, page: Uint8Array | null = simConsolePage()): { status: number; head: string; body: Buffer } {
  const api = simApi({ ...(gunzip ? { gunzip: (b: Uint8Array) => gunzipSync(b) } : {}), ...(page ? { consoleGzip: page } : {}) });
  const chunks: Buffer[] = [];
  const { connection } = rawExchange(api, []);
  (connection as unknown as { transport: { write(b: Uint8Array): void } }).transport.write = (b) => { chunks.push(Buffer.from(b)); };
  connection.receive(new TextEncoder().encode(head + '\r\n'));
  const out = Buffer.concat(chunks);
  const end = out.indexOf('\r\n\r\n');
  return { status: Number(out.subarray(9, 12).toString()), head: out.subarray(0, end + 2).toString('latin1'), body: out.subarray(end + 4) };
}

describe('console page resource', () => {
  it('is in sync with web/ (tools/build-console.mjs --check)', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'tools', 'build-console.mjs'), '--check'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
  });

  it('stays within its 24 KB budget and holds the whole HTML page built from web/', async () => {
    const gz = Buffer.from(simConsolePage());
    assert.equal(gz.length, CONSOLE_GZIP_SIZE);
    assert.ok(gz.length <= 24 * 1024, `${gz.length} bytes`);
    const html = gunzipSync(gz);
    assert.equal(html.length, CONSOLE_SIZE);
    type Built = { buildPage(): { raw: Buffer; etag: string } };
    const built = (await import(path.join(ROOT, 'tools', 'build-console.mjs')) as Built).buildPage();
    assert.ok(html.equals(built.raw), 'the stored page is the page tools/build-console.mjs builds from web/ today');
    assert.equal(built.etag, CONSOLE_ETAG);
    const text = html.toString('utf8');
    assert.match(text, /^<!doctype html>/);
    assert.match(text, /<\/script>\n<\/body>\n<\/html>$/);
    assert.doesNotMatch(text, /(src|href)="https?:|\/\/cdn|@import/i, 'nothing from outside');
  });

  it('keeps no copy of the page in the device-side modules (only its ETag and sizes)', () => {
    const source = fs.readFileSync(path.join(ROOT, 'src', 'web', 'console-page.ts'), 'utf8');
    assert.ok(source.length < 1024, `${source.length} characters`);
    assert.doesNotMatch(source, /BASE64|[A-Za-z0-9+/]{200}/);
  });

  it('reads Accept-Encoding', () => {
    for (const h of ['gzip', 'gzip, deflate, br', 'br;q=1, gzip;q=0.5', '*', 'x-gzip', 'GZIP']) assert.equal(acceptsGzip(h), true, h);
    for (const h of ['', 'identity', 'br', 'gzip;q=0', 'gzip; q=0.000', 'gzipx']) assert.equal(acceptsGzip(h), false, h);
  });

  it('serves the page file as is with an ETag, and 304 when the ETag is presented', () => {
    const a = exchange('GET / HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip, br\r\n');
    assert.equal(a.status, 200);
    assert.ok(a.body.equals(simConsolePage()), 'the bytes of resources/console.html.gz');
    assert.match(a.head, /\r\nContent-Type: text\/html; charset=utf-8\r\n/);
    assert.match(a.head, /\r\nContent-Encoding: gzip\r\n/);
    assert.match(a.head, new RegExp(`\\r\\nContent-Length: ${CONSOLE_GZIP_SIZE}\\r\\n`));
    assert.ok(a.head.includes('\r\nETag: ' + CONSOLE_ETAG));
    assert.match(gunzipSync(a.body).toString(), /<title>Module console<\/title>/);
    const b = exchange(`GET / HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\nIf-None-Match: "other", W/${CONSOLE_ETAG}\r\n`);
    assert.equal(b.status, 304);
    assert.doesNotMatch(b.head, /Content-Length|Content-Encoding/);
    assert.ok(b.head.includes('\r\nETag: ' + CONSOLE_ETAG));
    assert.equal(b.body.length, 0);
    assert.equal(exchange('GET / HTTP/1.1\r\nHost: localhost\r\nIf-None-Match: "stale"\r\n').status, 200);
  });

  it('inflates for a client without gzip when the server can (simulator); a module sends gzip anyway', () => {
    const sim = exchange('GET / HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: identity\r\n', true);
    assert.doesNotMatch(sim.head, /Content-Encoding/);
    assert.equal(sim.body.length, CONSOLE_SIZE);
    assert.match(sim.body.toString(), /^<!doctype html>/);
    assert.ok(!sim.head.includes('ETag: ' + CONSOLE_ETAG + '\r'), 'the inflated form has its own ETag');
    const device = exchange('GET / HTTP/1.1\r\nHost: localhost\r\n');
    assert.match(device.head, /Content-Encoding: gzip/);
    const head = exchange('HEAD / HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    const put = exchange('PUT / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n');
    assert.equal(put.status, 405);
    assert.match(put.head, /\r\nAllow: GET, HEAD\r\n/);
  });

  it('answers 404 in the error envelope when the Api has no page (a build without the resource)', () => {
    for (const method of ['GET', 'HEAD']) {
      const r = exchange(`${method} / HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n`, true, null);
      assert.equal(r.status, 404, method);
      assert.doesNotMatch(r.head, /ETag|Content-Encoding/);
      assert.match(r.head, /\r\nContent-Type: application\/json/);
      if (method === 'GET') {
        const body = JSON.parse(r.body.toString()) as { response: { error: string; message: string } };
        assert.equal(body.response.error, 'aErrNotFound');
        assert.match(body.response.message, /no web console page/);
      } else {
        assert.equal(r.body.length, 0);
      }
    }
    const put = exchange('PUT / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n', false, null);
    assert.equal(put.status, 405);
    assert.match(put.head, /\r\nAllow: GET, HEAD\r\n/);
  });
});
