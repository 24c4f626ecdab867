// What the HTTP core hands to a request handler, what the handler fills in, and what a Connection is
// given (its transport, its options). One HttpResponse is shared by a server's connections: nothing
// is allocated per request but the strings.

import type { TextCodec } from '../../util/text';

export interface HttpRequest {
  /** Method token as sent (case-sensitive, RFC 9110). */
  readonly method: string;
  /** Request target as sent (origin-form; an absolute-form target is reduced to its path). */
  readonly target: string;
  /** 0 for HTTP/1.0, 1 for HTTP/1.1. */
  readonly versionMinor: number;
  /**
   * The few header values the server acts on ('' when absent), as sent, surrounding white space
   * removed: access control (Host, Origin, Sec-Fetch-Site, Authorization) and resources served
   * compressed or revalidated (Accept-Encoding, If-None-Match).
   */
  readonly host: string;
  readonly origin: string;
  readonly secFetchSite: string;
  readonly authorization: string;
  readonly acceptEncoding: string;
  readonly ifNoneMatch: string;
  /** What the fields say of the sender (src/http/client-marks.ts); absent: 0, a script's request. */
  readonly clientMarks?: number;
  /** Access-Control-Request-Method: marks an OPTIONS as a CORS preflight. */
  readonly accessControlRequestMethod: string;
  /** The client's address as the transport knows it ('' when unknown): per-client limits. */
  readonly peer: string;
  /** Content-Digest (RFC 9530), '' when absent: a streamed body's digest. */
  readonly contentDigest?: string;
  /** The sink a streamed body went to (RequestHandler.bodySink), or null: then body() holds it. */
  readonly sink?: RequestBodySink | null;
  /** The body, de-chunked: a view valid until the next request on the connection. */
  body(): Uint8Array;
  /** The body as UTF-8 text (invalid sequences U+FFFD), decoded with `codec`. */
  bodyText(codec: TextCodec): string;
}

/**
 * A response body that goes on after its head, made a piece at a time so it is never held whole.
 * An event stream (src/api/resources/events.ts) never ends: the Connection polls it from the server's timer
 * until the client goes. A finite one (HttpResponse.streamEnds: the device description,
 * src/api/resources/describe.ts) is polled whenever the transport has room, one chunk per piece, until it
 * returns null; the connection then reads its next request.
 */
export interface ResponseStream {
  /** Text to send now, '' for nothing yet, null at the end; `now` is the connection's millisecond clock. */
  poll(now: number): string | null;
  /** The connection closed: release what the stream holds. */
  close(): void;
}

/**
 * An answer not ready when the handler returns (a host server waiting for a module's): the handler
 * sets HttpResponse.pending and returns. The Connection answers nothing more meanwhile (requests
 * pipelined behind it wait their turn, its slot counts as answering) until `ready` is called; it
 * then has the answer made (`fill`) and sends it as if the handler had made it at once. The request
 * stays as it was parsed until then, but for its body: a view of a read that is gone (copy it).
 */
export interface PendingAnswer {
  /** Called once, as the handler returns: call `ready` (later, never from here) once `fill` can make the answer, and
   * again whenever more of a finite stream it set has come (the connection sends it on). */
  wait(ready: () => void): void;
  /** Make the answer in `res`, reset for it (it may set a finite stream); called once, after `ready`. */
  fill(res: HttpResponse): void;
  /** The connection closed before the answer was made. */
  cancel(): void;
}

export class HttpResponse {
  status = 200;
  contentType = 'application/json';
  body = '';
  /** A binary body (application/octet-stream); when set it is sent instead of `body`. */
  bytes: Uint8Array | null = null;
  /** Value of the Allow header, or '' for none. */
  allow = '';
  /** Further header lines, each ending in CRLF (CORS). */
  extraHeaders = '';
  /** Close the connection after this response. */
  close = false;
  /** Set by a handler that streams: sent without Content-Length, then polled (HOOK console). */
  stream: ResponseStream | null = null;
  /** Set with `stream` when it ends (poll gives null): the connection stays usable after it. */
  streamEnds = false;
  /** Set by the Connection: the streamed body goes `Transfer-Encoding: chunked` (HTTP/1.1). */
  chunked = false;
  /** Seconds for a Retry-After header (503 at the connection cap); 0 for none. */
  retryAfter = 0;
  /** Content-Length of a head-only answer whose body is not at hand (a module's answer to HEAD,
   * relayed); -1: the body's own length. */
  length = -1;
  /** Set by a handler whose answer comes later (PendingAnswer); null when it filled this one. */
  pending: PendingAnswer | null = null;

  reset(): void {
    this.status = 200;
    this.contentType = 'application/json';
    this.body = '';
    this.bytes = null;
    this.allow = '';
    this.extraHeaders = '';
    this.close = false;
    this.stream = null;
    this.streamEnds = false;
    this.chunked = false;
    this.retryAfter = 0;
    this.length = -1;
    // `pending` is not reset: the Connection takes it and clears it as soon as a handler sets it.
  }
}
Object.freeze(HttpResponse.prototype);

/**
 * Where one resource's request body goes as it arrives, instead of the 4 KiB body buffer (a firmware
 * image): never held whole. Only a body with Content-Length is streamed.
 */
export interface RequestBodySink {
  /** Most body bytes it takes (413 beyond, before any is read). */
  readonly limit: number;
  /** Body bytes as they arrive, data[start, end): not kept after the call. */
  write(data: Uint8Array, start: number, end: number): void;
  /** The request ended before its body did (the connection closed, 408): let go of what it holds. */
  abort(): void;
}

export interface RequestHandler {
  /**
   * Optional: once a head is parsed and a body of `length` bytes (Content-Length) follows, a sink that
   * takes that body as it arrives, or null for the body buffer. The request is answered by handle()
   * once the body has all come (req.sink names the sink then).
   */
  bodySink?(req: HttpRequest, length: number): RequestBodySink | null;
  /** Answer one parsed request by filling `res`. Must not throw. */
  handle(req: HttpRequest, res: HttpResponse): void;
  /** Answer a request that could not be parsed (status 400/408/413/414/431/501/505). */
  fail(status: number, message: string, target: string, res: HttpResponse): void;
  /** Called after each response has been handed to the transport. */
  afterResponse(): void;
}
