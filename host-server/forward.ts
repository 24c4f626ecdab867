// Forwarding one request to the module that serves its serial, and its answer back unchanged: the
// status, the headers that describe the body, the body byte for byte (an event stream relayed as it
// comes). The client's Origin and Sec-Fetch-Site were judged here and stay here; the module gets
// the token the operator gave for it (or the client's own when there is none to give).

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ModuleLink, Outcome, Outgoing } from './link';

/** Answer headers passed on: those that describe the body or how to use it. */
const PASSED = Object.freeze(['content-type', 'content-encoding', 'cache-control', 'date', 'allow', 'retry-after',
  'www-authenticate', 'etag', 'last-modified', 'vary']);

/** Request headers passed on to the module. */
const SENT = Object.freeze(['content-type', 'accept-encoding', 'if-none-match', 'access-control-request-method']);

export interface ForwardPlan {
  link: ModuleLink;
  /** The token for this module from --tokens, '' when none. */
  token: string;
  /** The client's Authorization may go on (the host server keeps no token of its own). */
  passAuthorization: boolean;
  stream: boolean;
}

export function outgoing(req: IncomingMessage, body: Buffer | null, plan: ForwardPlan): Outgoing {
  const headers: Record<string, string> = {};
  for (const name of SENT) {
    const v = req.headers[name];
    if (typeof v === 'string') headers[name] = v;
  }
  if (plan.token !== '') headers.authorization = 'Bearer ' + plan.token;
  else if (plan.passAuthorization && typeof req.headers.authorization === 'string') headers.authorization = req.headers.authorization;
  return { method: req.method ?? 'GET', path: req.url ?? '/', headers, body };
}

/** The header lines of `extra` (each ending in CRLF) added to `headers`; a second Vary joins the first. */
export function addLines(headers: Record<string, string>, extra: string): void {
  for (const line of extra.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name === 'vary' && headers.vary ? headers.vary + ', ' + value : value;
  }
}

/** Write a module's answer (not an error outcome) to the client. `cors`: this server's CORS lines. */
export function relay(req: IncomingMessage, res: ServerResponse, o: Exclude<Outcome, { kind: 'error' }>, cors: string): void {
  const headers: Record<string, string> = {};
  for (const name of PASSED) {
    const v = o.headers[name];
    if (v !== undefined) headers[name] = Array.isArray(v) ? v.join(', ') : v;
  }
  addLines(headers, cors);
  res.sendDate = false; // the module's own Date, when it sent one
  if (o.kind === 'stream') {
    res.writeHead(o.status, headers);
    res.flushHeaders();
    o.body.on('data', (chunk: Buffer) => res.write(chunk));
    o.body.on('end', () => res.end());
    o.body.on('error', () => res.destroy());
    res.on('close', () => o.body.destroy());
    return;
  }
  const bodyless = o.status === 204 || o.status === 304;
  if (!bodyless) {
    const length = o.headers['content-length'];
    headers['content-length'] = req.method === 'HEAD' && typeof length === 'string' ? length : String(o.body.length);
  }
  res.writeHead(o.status, headers);
  res.end(bodyless || req.method === 'HEAD' ? undefined : o.body);
}
