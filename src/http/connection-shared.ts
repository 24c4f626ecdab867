// What a Connection (connection.ts) writes to, and what every connection of a server shares: made
// once per server (ServerCore) rather than held as a field each by every connection, since on a module
// each field is a heap slot per connection.

import { HttpResponse, type RequestHandler } from './request';
import { HeadFraming } from './field-line';
import { standardTextCodec, type TextCodec } from '../../util/text';
import { IDLE_TIMEOUT_MS } from './http-limits';
import { responseText, writeResponse } from './response-writer';

/** Binary bodies larger than this are written apart from their head. */
const LARGE_BODY = 1024;

export interface Transport {
  write(bytes: Uint8Array): void;
  /** Optional: write text as UTF-8, encoded natively as it is written (Node's socket.write of a
   * string): a text answer then needs no byte array of its own. Without it, encode and write(). */
  writeText?(text: string): void;
  close(): void;
  /** Bytes written and not yet taken by the peer: streamed bodies wait while it is high (streamed-body.ts). */
  backlog?(): number;
}

export interface ConnectionOptions {
  /** Millisecond clock for the timeouts; default Date.now. */
  now?: () => number;
  /** Close a connection idle between requests this long (ms); default IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
  /** UTF-8 codec for the answers; default the engine's own (share one across connections). */
  codec?: TextCodec;
  /** The client's address (HttpRequest.peer), for per-client limits. */
  peer?: string;
  /** The answer being made, shared by a server's connections: each is made and written in one call. */
  response?: HttpResponse;
  /** Everything a server's connections share (ServerCore makes it); the options above are then unused. */
  shared?: ConnectionShared;
}

/**
 * What every connection of a server shares, made once per server (ServerCore) rather than held as a
 * field each by every connection: on a module each field is a heap slot per connection.
 */
export class ConnectionShared {
  readonly handler: RequestHandler;
  readonly now: () => number;
  readonly idleTimeoutMs: number;
  readonly codec: TextCodec;
  /** The answer being made: a connection makes and writes its answer within one call. */
  readonly response: HttpResponse;
  /** The framing fields of the head being parsed, which is parsed within one call too. */
  readonly framing = new HeadFraming();

  constructor(handler: RequestHandler, options?: ConnectionOptions) {
    this.handler = handler;
    this.now = options?.now ?? Date.now;
    this.idleTimeoutMs = options?.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
    this.codec = options?.codec ?? standardTextCodec();
    this.response = options?.response ?? new HttpResponse();
  }
}
Object.freeze(ConnectionShared.prototype);

/** Write the answer in `shared.response` to `transport` (its head alone when `headOnly`). */
export function sendAnswer(shared: ConnectionShared, transport: Transport, headOnly: boolean): void {
  const { response: res, codec } = shared;
  // A large binary body (the console page, a store slot) goes as a second write of the
  // handler's own array, not copied behind the head: the module holds it once, not twice.
  if (res.bytes && res.bytes.length > LARGE_BODY && !headOnly) {
    transport.write(writeResponse(res, true, codec));
    transport.write(res.bytes);
  } else if (!res.bytes && transport.writeText) transport.writeText(responseText(res, headOnly, codec));
  else transport.write(writeResponse(res, headOnly, codec));
  shared.handler.afterResponse();
}

/**
 * Answer a socket with an error and close it without reading a request, and without a Connection
 * (503 at the cap: a refused socket holds nothing but its transport while the answer drains). The
 * same answer as Connection.refuse.
 */
export function refuseTransport(shared: ConnectionShared, transport: Transport, status: number, message: string, retryAfterS: number): void {
  const res = shared.response;
  res.reset();
  shared.handler.fail(status, message, '', res);
  res.close = true;
  res.retryAfter = retryAfterS;
  sendAnswer(shared, transport, false);
  transport.close();
}
