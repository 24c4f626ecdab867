// What a request's fields say of its sender, for the cross-site rule (src/api/access/access.ts,
// docs/security.md): whether a browser sent it, and whether it carries the header that proves it
// comes from a page allowed to write. Browsers send Fetch Metadata (`Sec-Fetch-Site`) only to
// potentially trustworthy URLs (https, localhost), and no `Origin` on a no-cors GET (`<img>`, a link,
// a form's GET): a page elsewhere reaches a module at `http://<address>/` with neither. A browser still
// names itself (a `User-Agent` starting `Mozilla/`, which every browser sends and no page can change
// without a CORS preflight) and usually sends `Referer`. `Sec-Fetch-Site` is judged by itself
// (src/api/access/access.ts); `Sec-Fetch-Mode` alone marks nothing: Node's fetch sends it, and a
// browser sends it only beside `Sec-Fetch-Site`.

/** The request looks like a browser's: a `Mozilla/` User-Agent or a Referer. */
export const CLIENT_BROWSER = 1;
/**
 * The request carries the proof header: a field a page on another origin cannot send without a CORS
 * preflight, which the server refuses unless its operator allowed that origin. The console sends it.
 */
export const CLIENT_PROOF = 2;

/** The proof header's name as the console sends it (any non-empty value). */
export const PROOF_HEADER = 'X-Requested-With';

/** The mark a field adds (0 for none), its name in lower case. */
export function clientMark(name: string, value: string): number {
  switch (name) {
    case 'user-agent': return value.startsWith('Mozilla/') ? CLIENT_BROWSER : 0;
    case 'referer': return CLIENT_BROWSER;
    case 'x-requested-with': return value === '' ? 0 : CLIENT_PROOF;
  }
  return 0;
}
