// GET / : the console page resource (src/web/console.ts) and its generated module (in sync with web/).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { acceptsGzip, decodeBase64 } from '../src/web/console';
import { CONSOLE_ETAG, CONSOLE_GZIP_BASE64, CONSOLE_GZIP_SIZE, CONSOLE_SIZE } from '../src/web/console-page';
import { rawExchange, simApi } from './helpers';
import { standardTextCodec } from '../src/util/text';

const codec = standardTextCodec();

const ROOT = path.resolve(__dirname, '..', '..');

/** One request through a Connection; the head as text and the body as bytes. */
function exchange(head: string, gunzip = false): { status: number; head: string; body: Buffer } {
  const api = simApi(gunzip ? { gunzip: (b) => gunzipSync(b) } : undefined);
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

  it('stays within its 24 KB budget and holds a whole HTML page', () => {
    const gz = Buffer.from(CONSOLE_GZIP_BASE64, 'base64');
    assert.equal(gz.length, CONSOLE_GZIP_SIZE);
    assert.ok(gz.length <= 24 * 1024, `${gz.length} bytes`);
    const html = gunzipSync(gz).toString('utf8');
    assert.equal(html.length > 0 && Buffer.byteLength(html), CONSOLE_SIZE);
    assert.match(html, /^<!doctype html>/);
    assert.match(html, /<\/script>\n<\/body>\n<\/html>$/);
    assert.doesNotMatch(html, /(src|href)="https?:|\/\/cdn|@import/i, 'nothing from outside');
  });

  it('decodes base64 like Node does (the device decoder)', () => {
    assert.deepEqual(Buffer.from(decodeBase64(CONSOLE_GZIP_BASE64, codec)), Buffer.from(CONSOLE_GZIP_BASE64, 'base64'));
    const long = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) & 255)).toString('base64'); // several slices
    assert.deepEqual(Buffer.from(decodeBase64(long, codec)), Buffer.from(long, 'base64'));
    for (const s of ['', 'Zg==', 'Zm8=', 'Zm9v', 'AP8A/w==', '+/+/']) assert.deepEqual(Buffer.from(decodeBase64(s, codec)), Buffer.from(s, 'base64'), s);
    assert.throws(() => decodeBase64('Zm9!', codec), /bad character/);
    assert.throws(() => decodeBase64('Zm9vZ', codec), /truncated/);
  });

  it('reads Accept-Encoding', () => {
    for (const h of ['gzip', 'gzip, deflate, br', 'br;q=1, gzip;q=0.5', '*', 'x-gzip', 'GZIP']) assert.equal(acceptsGzip(h), true, h);
    for (const h of ['', 'identity', 'br', 'gzip;q=0', 'gzip; q=0.000', 'gzipx']) assert.equal(acceptsGzip(h), false, h);
  });

  it('serves gzip with an ETag, and 304 when the ETag is presented', () => {
    const a = exchange('GET / HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip, br\r\n');
    assert.equal(a.status, 200);
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
});
