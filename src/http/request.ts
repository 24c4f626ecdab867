// What the HTTP core hands to a request handler, and what the handler fills in.
// One HttpResponse is reused per connection: nothing is allocated per request but the strings.

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
  /** The client's address as the transport knows it ('' when unknown): per-client limits. */
  readonly peer: string;
  /** The body, de-chunked: a view valid until the next request on the connection. */
  body(): Uint8Array;
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

  reset(): void {
    this.status = 200;
    this.contentType = 'application/json';
    this.body = '';
    this.bytes = null;
    this.allow = '';
    this.extraHeaders = '';
    this.close = false;
  }
}
Object.freeze(HttpResponse.prototype);

export interface RequestHandler {
  /** Answer one parsed request by filling `res`. Must not throw. */
  handle(req: HttpRequest, res: HttpResponse): void;
  /** Answer a request that could not be parsed (status 400/408/413/414/431/501/505). */
  fail(status: number, message: string, target: string, res: HttpResponse): void;
  /** Called after each response has been handed to the transport. */
  afterResponse(): void;
}
