// This project's HTTP core (src/http/connection.ts) with a handler that answers every request with one
// fixed body, `globalThis.anchorBody`: the same work the SDK's http Server does in tools/xs-anchor/
// entry.js, for tools/bench-xs-anchor.mjs. handleCommand(msg): msg[0] 1 = a new connection, 0 = the
// kept one; the rest is the request's bytes. The reply is empty (an empty msg: the last answer).

import { Connection, type Transport } from '../../src/http/connection';
import type { HttpRequest, HttpResponse, RequestHandler } from '../../src/http/request';
import { standardTextCodec } from '../../util/text';

const g = globalThis as unknown as { anchorBody: string; handleCommand: (msg: ArrayBuffer) => ArrayBuffer };

const handler: RequestHandler = {
  handle(_req: HttpRequest, res: HttpResponse): void {
    res.body = g.anchorBody;
  },
  fail(status: number, message: string, _target: string, res: HttpResponse): void {
    res.status = status;
    res.body = message;
    res.close = true;
  },
  afterResponse(): void { /* nothing to do */ },
};

/** What the last request was answered (kept, not copied: a device's socket sends it natively). */
let answer: Uint8Array[] = [];
const transport: Transport = {
  write(bytes: Uint8Array): void {
    answer.push(bytes);
  },
  close(): void { /* nothing held */ },
};

const codec = standardTextCodec();
const now = (): number => 0;
let kept: Connection | null = null;
const empty = new ArrayBuffer(0);

/** An empty msg replies with the bytes written for the last request. */
function lastAnswer(): ArrayBuffer {
  let size = 0;
  for (const b of answer) size += b.length;
  const out = new Uint8Array(size);
  size = 0;
  for (const b of answer) {
    out.set(b, size);
    size += b.length;
  }
  return out.buffer;
}

g.handleCommand = (msg: ArrayBuffer): ArrayBuffer => {
  if (msg.byteLength === 0) return lastAnswer();
  answer = [];
  const bytes = new Uint8Array(msg);
  let c = kept;
  if (bytes[0] === 1 || !c) c = new Connection(handler, transport, { now, codec });
  if (bytes[0] === 0) kept = c;
  c.receive(bytes.subarray(1));
  return empty;
};
