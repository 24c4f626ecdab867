// What a parsed request head says (HttpRequest's values), apart from the parser that fills it in
// (request-parser.ts): the request line, the few header values the server acts on, and a failure.

export class RequestHead {
  // Request, valid once the head is parsed.
  method = '';
  target = '';
  versionMinor = 1;
  keepAlive = true;
  /** The client sent `Expect: 100-continue` and a body is still to come. */
  expectContinue = false;
  host = '';
  origin = '';
  secFetchSite = '';
  authorization = '';
  acceptEncoding = '';
  ifNoneMatch = '';
  accessControlRequestMethod = '';
  contentDigest = '';
  // Failure, valid after FAILED.
  errorStatus = 0;
  errorMessage = '';

  /** Forget the last request's values. */
  clearHead(): void {
    this.method = '';
    this.target = '';
    this.versionMinor = 1;
    this.keepAlive = true;
    this.expectContinue = false;
    this.host = '';
    this.origin = '';
    this.secFetchSite = '';
    this.authorization = '';
    this.acceptEncoding = '';
    this.ifNoneMatch = '';
    this.accessControlRequestMethod = '';
    this.contentDigest = '';
    this.errorStatus = 0;
    this.errorMessage = '';
  }
}
Object.freeze(RequestHead.prototype);
