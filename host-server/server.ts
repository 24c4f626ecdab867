// The host server's HTTP front (node:http): one endpoint for every module of a lab (docs/lab.md).
// It answers GET /api/v1/device (the modules it knows), GET /api/v1/targets (for
// Prometheus) and GET /api/v1 itself, and forwards /api/v1/{device|brainstem}/{serial}/... to the
// module. Access control is the modules' own (src/api/access/access.ts) and runs before anything else.

import * as http from 'node:http';
import * as os from 'node:os';
import type { AddressInfo } from 'node:net';
import { AccessControl, type AccessOptions } from '../src/api/access/access';
import { AnswerHeaders } from '../src/api/answer-headers';
import { envelope, errorResponse, TimestampClock } from '../src/api/values/envelope';
import { READ_ALLOW, unknownMethod, notAllowed, pick } from '../src/api/route/methods';
import { INDEX_RESPONSE } from '../src/api/access/site';
import { parseJson } from '../src/api/values/request-body';
import { parsePath, ADDRESS_ROUTE } from '../src/api/route/parse-path';
import { isEventsPath } from '../src/api/resources/events';
import { hexPrefix, parseSerial, serialText } from '../src/api/route/serial';
import { BODY_MAX } from '../src/http/http-limits';
import { ApiError, aErrConnection, aErrDuplicate, aErrNotFound, aErrSize, aErrUnknown, statusOf } from '../hal/kit/errors';
import type { HttpRequest } from '../src/http/request';
import type { Registry, Found } from './registry';
import { addLines, outgoing, relay } from './forward';
import { tokenFor } from './tokens';
import { isRolloutsPath, Rollouts } from './rollouts';
import { ACCESS_READ, ACCESS_UPDATE } from '../src/api/access/doors';

export interface HostServerOptions {
  port: number;
  host: string;
  registry: Registry;
  access: AccessOptions;
  tokens: ReadonlyMap<number | '*', string>;
}

export interface RunningHostServer {
  readonly server: http.Server;
  readonly port: number;
  close(): Promise<void>;
}

const DEVICE_PREFIX = /^\/api\/v1\/(?:device|brainstem)(?:\/|$)/;

/** Shared by every request: access control, the clock of the envelopes, the modules. */
interface Front {
  readonly options: HostServerOptions;
  readonly access: AccessControl;
  readonly clock: TimestampClock;
  readonly headers: AnswerHeaders;
  readonly rollouts: Rollouts;
}

/** /api/v1/rollouts[/{id}] (rollouts.ts): starting one is a firmware update (a token must be set); reading one a read. */
function rolloutsAnswer(front: Front, req: http.IncomingMessage, res: http.ServerResponse, path: string, view: HttpRequest,
  body: Buffer, extra: { extraHeaders: string }, cors: string): void {
  front.access.admit(view, req.method === 'POST' ? ACCESS_UPDATE : ACCESS_READ, extra);
  const r = front.rollouts.answer(req.method ?? '', path, body.toString('utf8'));
  if (r instanceof ApiError) throw r;
  answer(front, res, r.status, envelope(front.clock.format(Date.now()), path, '{}', r.response), cors);
}

/** The few request headers access control reads, as the HTTP core hands them (src/http/request.ts). */
function accessView(req: http.IncomingMessage, body: Buffer): HttpRequest {
  const h = (v: string | string[] | undefined): string => (v === undefined ? '' : Array.isArray(v) ? v.join(', ') : v.trim());
  return {
    method: req.method ?? 'GET', target: req.url ?? '/', versionMinor: req.httpVersionMinor === 0 ? 0 : 1,
    host: h(req.headers.host), origin: h(req.headers.origin), secFetchSite: h(req.headers['sec-fetch-site']),
    authorization: h(req.headers.authorization), acceptEncoding: h(req.headers['accept-encoding']),
    ifNoneMatch: h(req.headers['if-none-match']), accessControlRequestMethod: h(req.headers['access-control-request-method']),
    peer: req.socket.remoteAddress ?? '', body: () => body, bodyText: () => body.toString('utf8'),
  };
}

/** An answer made here: the envelope (or raw JSON for /api/v1/targets) with no-store, Date and CORS. */
function answer(front: Front, res: http.ServerResponse, status: number, body: string, extra: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  addLines(headers, front.headers.at(Date.now()) + extra);
  res.sendDate = false;
  headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(status, headers);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

function fail(front: Front, res: http.ServerResponse, e: ApiError, path: string, parameters: string, extra: string): void {
  const body = envelope(front.clock.format(Date.now()), path, parameters, errorResponse(e.code, e.message));
  answer(front, res, e.status || statusOf(e.code), body, extra);
}

/** GET/HEAD only (405 with Allow otherwise); OPTIONS answered 204. Returns false when answered. */
function readOnly(front: Front, req: http.IncomingMessage, res: http.ServerResponse, view: HttpRequest, path: string, cors: string): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  if (req.method === 'OPTIONS') {
    res.writeHead(204, { allow: READ_ALLOW, ...linesObject(cors + front.access.preflightHeaders(view, READ_ALLOW)) });
    res.end();
    return false;
  }
  fail(front, res, notAllowed(req.method ?? '', path, READ_ALLOW), path, '{}', 'Allow: ' + READ_ALLOW + '\r\n' + cors);
  return false;
}

function linesObject(lines: string): Record<string, string> {
  const out: Record<string, string> = {};
  addLines(out, lines);
  return out;
}

/** The module a path names: by its serial, or the only one when the path has none. */
function target(front: Front, path: string): Found | ApiError {
  const reg = front.options.registry;
  const segment = path.split('/')[4] ?? '';
  const hex = segment.length - hexPrefix(segment) <= 8 ? parseSerial(segment) : -1;
  if (hex < 0 || (hexPrefix(segment) === 0 && !/^[0-9a-f]{8}$/i.test(segment))) {
    const only = reg.only();
    if (only) return only;
    return new ApiError(aErrNotFound, `this host server fronts ${reg.count()} modules: put the serial in the path (/api/v1/device/0x…/…); GET /api/v1/device lists them`);
  }
  const found = reg.find(hex);
  if (found.length === 0) return new ApiError(aErrNotFound, `no module with serial ${serialText(hex)} is known here; GET /api/v1/device lists them`);
  const online = found.filter((f) => f.link.online);
  if (online.length > 1) {
    return new ApiError(aErrDuplicate, `modules at ${online.map((f) => f.link.address).join(' and ')} both answer for serial ${serialText(hex)}; ` +
      'give one a serial of its own or take it off the network');
  }
  if (online.length === 0) {
    const f = found[0];
    return new ApiError(aErrConnection, `module ${serialText(hex)} at ${f.link.address} is offline (${f.link.problem || 'not answering'})`);
  }
  return online[0];
}

/** A write in the sense of access control: a PUT, or a GET of an action (get code `none`). */
function isWrite(method: string, path: string): boolean {
  if (method === 'PUT') return true;
  if (method !== 'GET' && method !== 'HEAD') return false;
  const a = parsePath(path);
  const route = a.kind === ADDRESS_ROUTE && a.forms ? pick(a.forms, 'GET') : null;
  return route !== null && route.get === 'none';
}

async function route(front: Front, req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const text = req.method === 'PUT' ? body.toString('utf8') : '';
  const parsed = req.method === 'PUT' ? parseJson(text) : null;
  const parameters = parsed !== null && !(parsed instanceof ApiError) ? text : '{}';
  const view = accessView(req, body);
  const extra = { extraHeaders: '' };
  let cors = '';
  try {
    front.access.checkHost(view, []);
    cors = front.access.corsHeaders(view);
    const unknown = unknownMethod(req.method ?? '');
    if (unknown) throw unknown;
    if (body.length > BODY_MAX) throw new ApiError(aErrSize, `body longer than ${BODY_MAX} bytes`, 413);
    if (path === '/api/v1' || path === '/api/v1/targets' || path === '/api/v1/device' || path === '/api/v1/brainstem') {
      if (!readOnly(front, req, res, view, path, cors)) return;
      front.access.authorize(view, false, extra);
      const stamp = front.clock.format(Date.now());
      if (path === '/api/v1/targets') return answer(front, res, 200, front.options.registry.targets(), cors);
      const response = path === '/api/v1' ? INDEX_RESPONSE : front.options.registry.listing();
      return answer(front, res, 200, envelope(stamp, path, '{}', response), cors);
    }
    if (isRolloutsPath(path)) return rolloutsAnswer(front, req, res, path, view, body, extra, cors);
    if (!DEVICE_PREFIX.test(path)) throw new ApiError(aErrNotFound, `no resource ${path} on this host server; GET /api/v1 lists what there is`);
    if (req.method !== 'OPTIONS') front.access.authorize(view, isWrite(req.method ?? '', path), extra);
    const found = target(front, path);
    if (found instanceof ApiError) throw found;
    const own = front.options.access.token ?? '';
    const plan = { link: found.link, token: tokenFor(front.options.tokens, found.entry.serial), passAuthorization: own === '', stream: isEventsPath(path) };
    const o = await found.link.send(outgoing(req, req.method === 'PUT' ? body : null, plan), plan.stream);
    if (o.kind === 'error') {
      const retry = o.retryAfter ? `Retry-After: ${o.retryAfter}\r\n` : '';
      return fail(front, res, new ApiError(o.code, o.message), path, parameters, retry + cors);
    }
    const preflight = req.method === 'OPTIONS' && o.status === 204 ? front.access.preflightHeaders(view, String(o.headers.allow ?? '')) : '';
    relay(req, res, o, cors + preflight);
  } catch (e) {
    const err = e instanceof ApiError ? e : new ApiError(aErrUnknown, 'internal error: ' + (e as Error).message);
    fail(front, res, err, path, parameters, extra.extraHeaders + cors);
  }
}

/** Read the body (at most BODY_MAX + 1 bytes are kept: more is 413), then answer. */
function serve(front: Front, req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (c: Buffer) => {
    if (size <= BODY_MAX) chunks.push(c);
    size += c.length;
  });
  req.on('end', () => {
    route(front, req, res, Buffer.concat(chunks)).catch(() => res.destroy());
  });
  req.on('error', () => res.destroy());
}

/** Start serving; resolves once listening (port 0 picks a free port). */
export function startHostServer(options: HostServerOptions): Promise<RunningHostServer> {
  // This machine's own name is one of the names it is reached by (besides IP literals and localhost).
  const name = os.hostname().toLowerCase();
  const allowHosts = [...(options.access.allowHosts ?? []), name, name + '.local'];
  const front: Front = {
    options, access: new AccessControl({ ...options.access, allowHosts }), clock: new TimestampClock(), headers: new AnswerHeaders(),
    rollouts: new Rollouts(options.registry, options.tokens),
  };
  const server = http.createServer({ keepAliveTimeout: 30000, headersTimeout: 10000, requestTimeout: 20000 }, (req, res) => serve(front, req, res));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        }),
      });
    });
  });
}
