// Forwarding one request to the module that serves its serial, and its answer back unchanged: the
// status, the headers that describe the body, the body byte for byte (an event stream relayed as it
// comes). The client's Origin and Sec-Fetch-Site were judged here and stay here; the module gets
// the token the operator gave for it (or the client's own when there is none to give). The answer
// comes later than the request handler returns: a PendingAnswer (src/http/request.ts) that the
// client's Connection sends once the module's answer (or the reason there is none) is in.

import type { HttpRequest, HttpResponse, PendingAnswer, RequestBodySink, ResponseStream } from '../src/http/request';
import type { ModuleLink, Outcome, Outgoing } from './link';
import { aErrUnknown } from '../hal/kit/errors';

/** Answer headers passed on besides Content-Type: those that describe the body or how to use it. */
const PASSED = Object.freeze([['content-encoding', 'Content-Encoding'], ['cache-control', 'Cache-Control'], ['date', 'Date'],
  ['allow', 'Allow'], ['retry-after', 'Retry-After'], ['www-authenticate', 'WWW-Authenticate'], ['etag', 'ETag'],
  ['last-modified', 'Last-Modified'], ['vary', 'Vary']] as const);

export interface ForwardPlan {
  link: ModuleLink;
  /** The token for this module from --tokens, '' when none. */
  token: string;
  /** The client's Authorization may go on (the host server keeps no token of its own). */
  passAuthorization: boolean;
  stream: boolean;
}

/** PUT /api/v1/{device|brainstem}[/{serial}]/firmware: the one request whose body may exceed 4 KiB here. */
export const FIRMWARE_PATH = /^\/api\/v1\/(?:device|brainstem)(?:\/[^/?]+)?\/firmware(?:\?|$)/;
/** The largest image forwarded: an ESP32 OTA slot is 1,920 KiB, a simulator's image at most 4 MiB. */
export const FIRMWARE_FORWARD_MAX = 4 * 1024 * 1024;
/** How long a module may take to take an image and answer (as a rollout gives it). */
export const FIRMWARE_ANSWER_MS = 60000;

/**
 * A firmware image on its way to a module: kept in the host's memory as it comes (the module checks
 * its digest and writes it as it arrives on its side), then sent on whole. A request refused here
 * (Host, token) keeps nothing: its refusal is answered once the body has been read.
 */
export class ImageBody implements RequestBodySink {
  readonly limit = FIRMWARE_FORWARD_MAX;
  private parts: Buffer[] | null;

  constructor(keep: boolean) {
    this.parts = keep ? [] : null;
  }

  write(data: Uint8Array, start: number, end: number): void {
    if (this.parts) this.parts.push(Buffer.from(data.subarray(start, end)));
  }

  abort(): void {
    this.parts = null;
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts ?? []);
  }
}

/** The request for the module: its method and target, the headers it needs, the body (copied: the request's is a view). */
export function outgoing(req: HttpRequest, plan: ForwardPlan): Outgoing {
  const headers: Record<string, string> = {};
  if (req.sink instanceof ImageBody) {
    headers['content-type'] = 'application/octet-stream';
    if (req.contentDigest) headers['content-digest'] = req.contentDigest;
  }
  if (req.acceptEncoding) headers['accept-encoding'] = req.acceptEncoding;
  if (req.ifNoneMatch) headers['if-none-match'] = req.ifNoneMatch;
  if (req.accessControlRequestMethod) headers['access-control-request-method'] = req.accessControlRequestMethod;
  if (plan.token === '' && plan.passAuthorization && req.authorization) headers.authorization = req.authorization;
  const body = req.sink instanceof ImageBody ? req.sink.bytes() : req.method === 'PUT' ? Buffer.from(req.body()) : null;
  return { method: req.method, path: req.target, headers, body };
}

/** A HEAD answer that came chunked (a module's streamed description): the head alone says so again. */
const NO_BODY: ResponseStream = Object.freeze({ poll: () => null, close: () => undefined });

/** Put a module's answer (not an error outcome) in `res`. `extra`: this server's own header lines (CORS). */
export function relay(method: string, res: HttpResponse, o: Exclude<Outcome, { kind: 'error' }>, extra: string): void {
  res.status = o.status;
  const type = o.headers['content-type'];
  res.contentType = typeof type === 'string' ? type : 'application/octet-stream';
  let lines = '';
  for (const [name, text] of PASSED) {
    const v = o.headers[name];
    if (v !== undefined) lines += text + ': ' + (Array.isArray(v) ? v.join(', ') : v) + '\r\n';
  }
  res.extraHeaders = lines + extra;
  if (o.kind === 'stream') {
    res.stream = o.body;
    res.streamEnds = true; // chunked to the client; the module's end ends it
  } else if (method !== 'HEAD') {
    res.bytes = o.body;
  } else if (typeof o.headers['content-length'] === 'string') {
    res.length = Number(o.headers['content-length']) || 0;
  } else if (o.headers['transfer-encoding'] !== undefined) {
    res.stream = NO_BODY;
    res.streamEnds = true;
  } else {
    res.length = 0;
  }
}

/**
 * The answer of a forwarded request: `sending` resolves with the module's outcome, `make` puts it
 * in the client's response once the Connection asks (fill). A relayed stream wakes the Connection
 * whenever more of it comes.
 */
export class Forwarded implements PendingAnswer {
  private outcome: Outcome | null = null;
  private ready: (() => void) | null = null;
  private cancelled = false;

  constructor(sending: Promise<Outcome>, private readonly make: (o: Outcome, res: HttpResponse) => void) {
    sending.then((o) => this.settle(o), (e: Error) => this.settle({ kind: 'error', code: aErrUnknown, message: 'internal error: ' + e.message }));
  }

  wait(ready: () => void): void {
    this.ready = ready;
  }

  fill(res: HttpResponse): void {
    const o = this.outcome!;
    if (o.kind === 'stream') o.body.wake = this.ready!;
    this.make(o, res);
  }

  cancel(): void {
    this.cancelled = true;
    if (this.outcome?.kind === 'stream') this.outcome.body.close();
  }

  private settle(o: Outcome): void {
    this.outcome = o;
    if (this.cancelled) {
      if (o.kind === 'stream') o.body.close();
    } else if (this.ready) this.ready();
  }
}

/** An answer the host server makes itself once `value` settles (BrainD's state reads the modules first). */
export class Later<T> implements PendingAnswer {
  private outcome: { value: T } | { error: Error } | null = null;
  private ready: (() => void) | null = null;

  constructor(value: Promise<T>, private readonly make: (v: T, res: HttpResponse) => void,
    private readonly failed: (e: Error, res: HttpResponse) => void) {
    value.then((v) => this.settle({ value: v }), (e: Error) => this.settle({ error: e }));
  }

  wait(ready: () => void): void {
    this.ready = ready;
  }

  fill(res: HttpResponse): void {
    const o = this.outcome!;
    if ('value' in o) this.make(o.value, res);
    else this.failed(o.error, res);
  }

  cancel(): void {
    this.ready = null;
  }

  private settle(o: { value: T } | { error: Error }): void {
    this.outcome = o;
    if (this.ready) this.ready();
  }
}
