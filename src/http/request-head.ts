// What a parsed request head says (HttpRequest's values), apart from the parser that fills it in
// (request-parser.ts): the request line, the few header values the server acts on, and a failure.
// The header values most requests lack (a browser's Origin, Sec-Fetch-Site, its marks, a token…) live in a
// second object made only when a request carries one of them: every connection holds a RequestHead
// for its whole life, and on a module each field is a heap slot per connection. Accept-Encoding is
// not one of them: browsers, fetch, Python and Prometheus send it with every request, and a second
// object made for each request costs more than the one slot.

/** The header values a request seldom carries ('' when absent). */
class RareFields {
  origin = '';
  secFetchSite = '';
  authorization = '';
  ifNoneMatch = '';
  accessControlRequestMethod = '';
  contentDigest = '';
  clientMarks = 0;
}
Object.freeze(RareFields.prototype);

export class RequestHead {
  // Request, valid once the head is parsed.
  method = '';
  target = '';
  versionMinor = 1;
  keepAlive = true;
  /** The client sent `Expect: 100-continue` and a body is still to come. */
  expectContinue = false;
  host = '';
  acceptEncoding = '';
  // Failure, valid after FAILED.
  errorStatus = 0;
  errorMessage = '';
  /** The seldom-sent header values of this request, or null while it has none. */
  private rare: RareFields | null = null;

  private rareFields(): RareFields {
    return this.rare ?? (this.rare = new RareFields());
  }

  get origin(): string { return this.rare ? this.rare.origin : ''; }
  set origin(v: string) { if (v || this.rare) this.rareFields().origin = v; }
  get secFetchSite(): string { return this.rare ? this.rare.secFetchSite : ''; }
  set secFetchSite(v: string) { if (v || this.rare) this.rareFields().secFetchSite = v; }
  get authorization(): string { return this.rare ? this.rare.authorization : ''; }
  set authorization(v: string) { if (v || this.rare) this.rareFields().authorization = v; }
  get ifNoneMatch(): string { return this.rare ? this.rare.ifNoneMatch : ''; }
  set ifNoneMatch(v: string) { if (v || this.rare) this.rareFields().ifNoneMatch = v; }
  get accessControlRequestMethod(): string { return this.rare ? this.rare.accessControlRequestMethod : ''; }
  set accessControlRequestMethod(v: string) { if (v || this.rare) this.rareFields().accessControlRequestMethod = v; }
  get contentDigest(): string { return this.rare ? this.rare.contentDigest : ''; }
  set contentDigest(v: string) { if (v || this.rare) this.rareFields().contentDigest = v; }
  get clientMarks(): number { return this.rare ? this.rare.clientMarks : 0; }
  set clientMarks(v: number) { if (v || this.rare) this.rareFields().clientMarks = v; }

  /** Forget the last request's values. */
  clearHead(): void {
    this.method = '';
    this.target = '';
    this.versionMinor = 1;
    this.keepAlive = true;
    this.expectContinue = false;
    this.host = '';
    this.acceptEncoding = '';
    this.rare = null;
    this.errorStatus = 0;
    this.errorMessage = '';
  }
}
Object.freeze(RequestHead.prototype);
