// XS bundle entry for `make bench-xs`'s breakdown: each stage of the device-side request path run
// on its own, with the real modules, for the bench's request kinds. handleCommand([kind, stage])
// runs one stage once; the bench subtracts the cost of an empty command. Stages:
//   0 nothing (the harness itself, subtracted from the others)
//   1 parse     the request parser over the request's bytes
//   2 route     the path parser and resolve (parse-path.ts, resolve.ts)
//   3 body      a PUT body: JSON, then decoded to the route's type
//   4 hal       the HAL call(s): get; or set and the read-back get
//   5 format    the `response` object's JSON text
//   6 envelope  timestamp and envelope
//   7 write     status line, headers and body to bytes
//   8 total     Connection.receive of the whole request (parse, Api.handle, write, reset)

import { Connection, type Transport } from '../../src/http/connection';
import { RequestParser } from '../../src/http/request-parser';
import { HttpResponse } from '../../src/http/request';
import { writeResponse } from '../../src/http/response-writer';
import { Api } from '../../src/api/api';
import { Address, parsePath } from '../../src/api/route/parse-path';
import { lookup, resolve, Target } from '../../src/api/route/resolve';
import { ApiError } from '../../hal/kit/errors';
import { formatValue } from '../../src/api/values/value-format';
import { decodeValue } from '../../src/api/values/value-decode';
import { envelope, TimestampClock } from '../../src/api/values/envelope';
import { createSimModule } from '../../hal/sim/index';
import { standardTextCodec } from '../../util/text';
import type { HalValue } from '../../hal/types';
import { latin1Bytes } from './script-format';
import { FIXED_MS, SERIAL_NUMBER } from './xs-entry';

const now = (): number => FIXED_MS;
const device = createSimModule({ serialNumber: SERIAL_NUMBER, now });
const api = new Api([device]);
const codec = standardTextCodec();
let answer: Uint8Array = new Uint8Array(0);
const sink: Transport = { write(bytes) { answer = bytes; }, close() {} };
const connection = new Connection(api, sink, { now });
const parser = new RequestParser();
const res = new HttpResponse();
const clock = new TimestampClock();

interface Kind {
  readonly bytes: Uint8Array;
  readonly path: string;
  readonly body: string;
  match: Target | ApiError;
  value: HalValue;
  response: string;
  envelope: string;
}

const kinds: Kind[] = [];
/** Reused like the Api's own (filled in place). */
const address = new Address();
const target = new Target(address);

/** What Api.handle does to route a path. */
function route(path: string): void {
  resolve(parsePath(path, address), [device], target);
}

/** Sets up a request kind (called once per kind by the bench, before measuring). */
function prepare(request: string): number {
  const head = request.slice(0, request.indexOf('\r\n'));
  const path = head.split(' ')[1];
  const bodyAt = request.indexOf('\r\n\r\n') + 4;
  const m = lookup(path, [device]);
  const kind: Kind = {
    bytes: latin1Bytes(request), path, body: request.slice(bodyAt),
    match: m, value: 0, response: '{}', envelope: '',
  };
  connection.receive(kind.bytes);
  const text = String.fromCharCode.apply(null, answer as unknown as number[]);
  kind.envelope = text.slice(text.indexOf('\r\n\r\n') + 4);
  if (m instanceof ApiError) {
    kind.response = kind.envelope.slice(kind.envelope.indexOf('"response":') + 11, -1);
  } else {
    kind.value = m.hal!.get(m.index, m.address.op, []);
    kind.response = formatValue(m.address.forms!.routes[0], kind.value, codec);
  }
  kinds.push(kind);
  return kinds.length - 1;
}

function run(k: Kind, stage: number): void {
  const m = k.match as Target;
  const isRoute = !(k.match instanceof ApiError);
  switch (stage) {
    case 1: parser.reset(); parser.feed(k.bytes, 0, k.bytes.length); break;
    case 2: route(k.path); break;
    case 3: if (k.body) decodeValue(m.address.forms!.routes[0], (JSON.parse(k.body) as { value: unknown }).value, codec); break;
    case 4:
      if (!isRoute) break;
      if (k.body) m.hal!.set(m.index, m.address.op, [], (JSON.parse(k.body) as { value: HalValue }).value);
      m.hal!.get(m.index, m.address.op, []);
      break;
    case 5: if (isRoute) formatValue(m.address.forms!.routes[0], k.value, codec); break;
    case 6: envelope(clock.format(now()), k.path, k.body || '{}', k.response); break;
    case 7: res.body = k.envelope; writeResponse(res, false, codec); break;
    case 8: connection.receive(k.bytes); break;
  }
}

const g = globalThis as unknown as {
  handleCommand: (m: ArrayBuffer) => ArrayBuffer;
  prepareKind: (request: string) => number;
};
g.prepareKind = prepare;
g.handleCommand = (msg: ArrayBuffer): ArrayBuffer => {
  const b = new Uint8Array(msg);
  run(kinds[b[0]], b[1]);
  return new ArrayBuffer(0);
};
