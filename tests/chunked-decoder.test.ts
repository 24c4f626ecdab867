// The chunked transfer coding decoder on its own (RFC 9112 §7.1): any split of the bytes, where it
// stops, the chunk-extension grammar of §7.1.1, trailers, and its limits.
import { strict as assert } from 'node:assert';
import { CHUNKS_DONE, CHUNKS_FAILED, CHUNKS_NEED_MORE, ChunkedDecoder } from '../src/http/chunked-decoder';
import { ByteBuffer } from '../src/http/byte-buffer';
import { BODY_MAX, CHUNK_EXT_MAX, HEADER_BLOCK_MAX } from '../src/http/http-limits';

const enc = (s: string): Uint8Array => Buffer.from(s, 'latin1');

interface Decoded { result: number; body: string; consumed: number; status: number }

function decode(text: string, step = 0): Decoded {
  const bytes = enc(text);
  const d = new ChunkedDecoder();
  const body = new ByteBuffer(0, BODY_MAX);
  let result = CHUNKS_NEED_MORE;
  let consumed = 0;
  const size = step || bytes.length;
  for (let off = 0; off < bytes.length && result === CHUNKS_NEED_MORE; off += size) {
    result = d.decode(bytes, off, Math.min(off + size, bytes.length), body);
    consumed += d.consumed;
  }
  return { result, body: Buffer.from(body.view()).toString('latin1'), consumed, status: d.errorStatus };
}

describe('chunked decoder', () => {
  const BODY = '5\r\nhello\r\n6;a=b\r\n world\r\n0\r\nX-T: 1\r\n\r\n';

  it('decodes the same whatever the split, and stops after the final CRLF', () => {
    const whole = decode(BODY + 'GET / HTTP/1.1');
    assert.deepEqual([whole.result, whole.body, whole.consumed], [CHUNKS_DONE, 'hello world', BODY.length]);
    for (let step = 1; step < BODY.length; step++) assert.deepEqual(decode(BODY, step), { ...whole }, `step ${step}`);
  });

  it('needs more until the last chunk and its trailer section have come', () => {
    assert.equal(decode('5\r\nhello\r\n0\r\n').result, CHUNKS_NEED_MORE);
    assert.equal(decode('5\r\nhello\r\n0\r\n\r\n').result, CHUNKS_DONE);
  });

  const valid = ['5;a', '5;a=b', '5 ;a', '5; a', '5;a = b', '5;a="b c"', '5;a="b\\"c"', '5;a="\\\\"', '5;a=b;c;d="e"',
    '5;a="" ;b', '5;a=\'b', '5;a="\x80"'];
  const invalid = ['5;', '5 ', '5;a ', '5;a=', '5;=b', '5;a=b c', '5;a="b', '5;a="b\r', '5;a="b\nc"', '5;a=b"',
    '5;;a', '5;a==b', '5;a="b"c', '5;a\x01', '5 a', '5;a=(b)', '5;a="b\x7f"'];
  for (const ext of valid) {
    it(`accepts the chunk extension ${JSON.stringify(ext.slice(1))}`, () => {
      assert.deepEqual([decode(`${ext}\r\nhello\r\n0\r\n\r\n`).result, decode(`${ext}\r\nhello\r\n0\r\n\r\n`).body], [CHUNKS_DONE, 'hello']);
    });
  }
  for (const ext of invalid) {
    it(`refuses the chunk extension ${JSON.stringify(ext.slice(1))} with 400`, () => {
      const d = decode(`${ext}\r\nhello\r\n0\r\n\r\n`);
      assert.deepEqual([d.result, d.status], [CHUNKS_FAILED, 400]);
    });
  }

  it('holds chunk extensions, the body and trailers to their limits', () => {
    const longExt = decode(`5;a=${'b'.repeat(CHUNK_EXT_MAX)}\r\nhello\r\n0\r\n\r\n`);
    assert.deepEqual([longExt.result, longExt.status], [CHUNKS_FAILED, 400]);
    const big = decode(`${(BODY_MAX + 1).toString(16)}\r\n`);
    assert.deepEqual([big.result, big.status], [CHUNKS_FAILED, 413]);
    const trailers = decode(`0\r\nX: ${'t'.repeat(HEADER_BLOCK_MAX)}\r\n\r\n`);
    assert.deepEqual([trailers.result, trailers.status], [CHUNKS_FAILED, 431]);
  });
});
