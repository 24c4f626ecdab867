// A Transport that takes text (writeText, the simulator's socket.write of a string) gets the same
// answers as one that takes bytes: same head, Content-Length in UTF-8 bytes, and binary bodies still
// as bytes.
import { strict as assert } from 'node:assert';
import { Connection, type Transport } from '../src/http/connection';
import { HttpResponse, type HttpRequest, type RequestHandler } from '../src/http/request';
import { standardTextCodec } from '../util/text';
import { nodeTextCodec } from '../host-sim/server';

const codec = standardTextCodec();

/** Answers /text with a non-ASCII JSON body, /bytes with a binary one, /head-only with 204. */
const handler: RequestHandler = {
  handle(req: HttpRequest, res: HttpResponse): void {
    if (req.target === '/bytes') {
      res.contentType = 'application/octet-stream';
      res.bytes = new Uint8Array([0, 255, 1]);
    } else if (req.target === '/none') {
      res.status = 204;
    } else {
      res.body = '{"name":"Zürich ☃"}';
    }
  },
  fail(status: number, message: string, _target: string, res: HttpResponse): void {
    res.status = status;
    res.body = JSON.stringify({ message });
  },
  afterResponse(): void {},
};

function exchange(text: boolean, request: string): { out: string; texts: number; arrays: number } {
  const chunks: Uint8Array[] = [];
  let texts = 0;
  let arrays = 0;
  const transport: Transport = {
    write(bytes: Uint8Array): void { arrays++; chunks.push(bytes.slice()); },
    close(): void {},
  };
  if (text) transport.writeText = (t: string): void => { texts++; chunks.push(codec.encode(t)); };
  const c = new Connection(handler, transport, { codec: nodeTextCodec });
  c.receive(codec.encode(request));
  return { out: Buffer.concat(chunks).toString('latin1'), texts, arrays };
}

describe('transport with writeText', () => {
  for (const target of ['/text', '/bytes', '/none']) {
    for (const method of ['GET', 'HEAD']) {
      it(`${method} ${target}: the same bytes as a byte-only transport`, () => {
        const req = `${method} ${target} HTTP/1.1\r\nHost: h\r\n\r\n`;
        const viaText = exchange(true, req);
        const viaBytes = exchange(false, req);
        assert.equal(viaText.out, viaBytes.out);
        assert.equal(viaBytes.texts, 0);
        // Text answers go as text in one call; a binary body still goes as bytes.
        if (target === '/bytes') assert.equal(viaText.texts, 0);
        else assert.deepEqual([viaText.texts, viaText.arrays], [1, 0]);
      });
    }
  }

  it('counts Content-Length in UTF-8 bytes, not characters', () => {
    const { out } = exchange(true, 'GET /text HTTP/1.1\r\nHost: h\r\n\r\n');
    const body = '{"name":"Zürich ☃"}';
    assert.match(out, new RegExp(`Content-Length: ${codec.encode(body).length}\\r\\n`));
    assert.ok(codec.encode(body).length > body.length);
  });

  it('a request that fails to parse is answered through writeText too', () => {
    const viaText = exchange(true, 'GET /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n');
    assert.match(viaText.out, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.match(viaText.out, /Connection: close\r\n/);
    assert.equal(viaText.texts, 1);
  });
});
