// Strict framing and on-demand buffers inside the real XS engine (xsnap), as under Node: bare LF
// and bare CR 400, CONNECT 501, the chunk-extension grammar, and a 4 KiB body that makes the
// buffers grow, each fed in random splits. The same script runs on both engines; the bytes written
// and whether the connection closed must be the same (timestamps aside).
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { bundleForXs } from './xs/bundle';
import { XsnapWorker } from './xs/xsnap-worker';
import { runScript } from './xs/xs-entry';
import { FLAG_RESET, decodeEvents, encodeScript, latin1Bytes, latin1String, type ScriptOp } from './xs/script-format';

const ROOT = path.resolve(__dirname, '../..');
const CRLF = '\r\n';
const HOST = 'Host: 192.168.1.50' + CRLF;
const P_HB = '/api/v1/device/system/0/hbinterval';
const CHUNKED = `PUT ${P_HB} HTTP/1.1${CRLF}${HOST}Transfer-Encoding: chunked${CRLF}${CRLF}`;
const put = (body: string): string => `PUT ${P_HB} HTTP/1.1${CRLF}${HOST}Content-Length: ${body.length}${CRLF}${CRLF}${body}`;

const CASES: [string, string, number[], boolean][] = [
  ['bare LF in the head', `GET ${P_HB} HTTP/1.1${CRLF}${HOST}x:x\nTransfer-Encoding: chunked${CRLF}${CRLF}`, [400], true],
  ['bare CR in the head', `GET ${P_HB} HTTP/1.1${CRLF}${HOST}x:x\ry${CRLF}${CRLF}`, [400], true],
  ['CONNECT', `CONNECT 192.168.1.50:443 HTTP/1.1${CRLF}${HOST}${CRLF}`, [501], true],
  ['unterminated quoted chunk extension', `${CHUNKED}5;a="b${CRLF}{"v":${CRLF}0${CRLF}${CRLF}`, [400], true],
  ['quoted chunk extension', `${CHUNKED}c;a="b\\"c" ; d = e${CRLF}{"value":21}${CRLF}0${CRLF}${CRLF}`, [200], false],
  ['a 4 KiB body, then a GET', put(`{"value":22${' '.repeat(4096 - 12)}}`) + `GET ${P_HB} HTTP/1.1${CRLF}${HOST}${CRLF}`, [200, 200], false],
];

/** Split `text` into pieces of 1..max bytes from a fixed seed (the same on every run). */
function pieces(text: string, seed: number, max: number): ScriptOp[] {
  const bytes = latin1Bytes(text);
  const ops: ScriptOp[] = [];
  let a = seed;
  for (let at = 0; at < bytes.length;) {
    a = (a * 1103515245 + 12345) % 2147483648;
    const n = 1 + (a % max);
    ops.push({ receive: bytes.slice(at, at + n) });
    at += n;
  }
  return ops;
}

function outcome(reply: Uint8Array): { text: string; closed: boolean } {
  const events = decodeEvents(reply);
  const text = events.map((e) => (e.type === 'write' ? latin1String(e.bytes) : e.type === 'close' ? '' : `X ${e.message}`)).join('');
  return { text: text.replace(/"timestamp":"[^"]*"/g, '"timestamp":""'), closed: events.some((e) => e.type === 'close') };
}

describe('strict framing and growing buffers under XS (xsnap) == under Node', function () {
  this.timeout(30_000);
  let worker: XsnapWorker | undefined;

  before(async function () {
    this.timeout(120_000);
    const code = await bundleForXs(ROOT, 'tests/xs/xs-main.ts');
    worker = new XsnapWorker({ name: 'xs-framing' });
    await worker.start();
    await worker.evaluate(code);
  });

  after(async () => {
    await worker?.close();
    worker = undefined;
  });

  for (const [name, text, statuses, closed] of CASES) {
    it(`${name}: ${statuses.join(', ')}${closed ? ', then closed' : ''}`, async () => {
      for (const seed of [1, 7]) {
        const script = encodeScript(FLAG_RESET, pieces(text, seed, 300));
        const node = outcome(runScript(script));
        const xs = outcome((await worker!.command(script)).reply);
        assert.deepEqual(xs, node, 'XS (actual) and Node (expected) answered differently');
        assert.deepEqual((node.text.match(/HTTP\/1\.1 \d{3}/g) ?? []).map((l) => Number(l.slice(9))), statuses);
        assert.equal(node.closed, closed);
      }
    });
  }
});
