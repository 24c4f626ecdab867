// The host server: one endpoint for every module of a lab (docs/lab.md). Its front is the modules'
// own HTTP core over Node's sockets, as the simulator's is (host-sim/server.ts: framing, limits,
// deadlines, the connection cap and who gets a slot at it). It answers itself GET /api/v1/device (the
// modules it knows), GET /api/v1/targets (for Prometheus), GET /api/v1, its OpenAPI document and
// BrainD's names (braind.ts), and forwards /api/v1/{device|brainstem}/{serial}/... to the module, the
// answer coming later (forward.ts). Access control is the modules' own (src/api/access/access.ts) and
// runs before anything else.

import * as os from 'node:os';
import { AccessControl, type AccessOptions } from '../src/api/access/access';
import { AnswerHeaders } from '../src/api/answer-headers';
import { envelope, errorResponse, TimestampClock } from '../src/api/values/envelope';
import { failureCode } from '../src/api/api';
import { READ_ALLOW, unknownMethod, notAllowed, pick } from '../src/api/route/methods';
import { parseJson } from '../src/api/values/request-body';
import { parsePath, ADDRESS_ROUTE } from '../src/api/route/parse-path';
import { isEventsPath } from '../src/api/resources/events';
import { hexPrefix, parseSerial, serialText } from '../src/api/route/serial';
import { ApiError, aErrConnection, aErrDuplicate, aErrNotFound, aErrUnknown, statusOf } from '../hal/kit/errors';
import type { HttpRequest, HttpResponse, RequestHandler } from '../src/http/request';
import { nodeTextCodec, startServer, type RunningServer } from '../host-sim/server';
import type { Registry, Found } from './registry';
import { FIRMWARE_ANSWER_MS, FIRMWARE_PATH, Forwarded, ImageBody, Later, outgoing, relay } from './forward';
import type { Outcome } from './link';
import { tokenFor } from './tokens';
import { CONNECTIONS_DEFAULT } from './options';
import { BrainD, ACRONAME_DEVICES_PATH, ACRONAME_STATE_PATH, VERSION_PATH, serverVersion } from './braind';
import { hostOpenApi } from './openapi';
import { isRolloutsPath, Rollouts } from './rollouts';
import { ACCESS_READ, ACCESS_UPDATE } from '../src/api/access/doors';

export interface HostServerOptions {
  port: number;
  host: string;
  registry: Registry;
  access: AccessOptions;
  tokens: ReadonlyMap<number | '*', string>;
  /**
   * Most client connections served at once (default CONNECTIONS_DEFAULT). At the cap a newcomer takes
   * the slot of the longest-idle connection or of the oldest partial request older than 2 s, else it
   * is answered 503 with Retry-After: 1, as at a module (src/http/connection-slots.ts).
   */
  maxConnections?: number;
  /** Millisecond clock of the front's deadlines and slot ages (tests pass a fake one); default the wall clock. */
  now?: () => number;
}

/** The front's socket server: its port, open sockets and slots (stats), its timer's check (tests), close. */
export type RunningHostServer = RunningServer;

const DEVICE_PREFIX = /^\/api\/v1\/(?:device|brainstem)(?:\/|$)/;

/** Shared by every request: access control, the clock of the envelopes, the modules. */
interface Front {
  readonly options: HostServerOptions;
  readonly access: AccessControl;
  readonly clock: TimestampClock;
  readonly headers: AnswerHeaders;
  readonly braind: BrainD;
  readonly rollouts: Rollouts;
}

/** /api/v1/rollouts[/{id}] (rollouts.ts): starting one is a firmware update (a token must be set); reading one a read. */
function rolloutsAnswer(front: Front, req: HttpRequest, res: HttpResponse, path: string, extra: { extraHeaders: string }, cors: string): void {
  front.access.admit(req, req.method === 'POST' ? ACCESS_UPDATE : ACCESS_READ, extra);
  const r = front.rollouts.answer(req.method, path, req.method === 'POST' ? req.bodyText(nodeTextCodec) : '');
  if (r instanceof ApiError) throw r;
  answer(front, res, r.status, envelope(front.clock.format(Date.now()), path, '{}', r.response), cors);
}

/** GET /api/v1 here: the host server's own links (it serves no console page; each module serves its own). */
const HOST_INDEX_RESPONSE = '{"links":{"devices":"/api/v1/device","openapi":"/api/v1/openapi.json","targets":"/api/v1/targets",' +
  '"rollouts":"/api/v1/rollouts","events":"/api/v1/device/{serial}/events"}}';

/** What the host server answers itself (GET and HEAD): its index, lists, document and BrainD's names. */
const OWN_PATHS = new Set(['/api/v1', '/api/v1/targets', '/api/v1/device', '/api/v1/brainstem', '/api/v1/openapi.json',
  ACRONAME_DEVICES_PATH, ACRONAME_STATE_PATH, VERSION_PATH]);

/** An answer made here: the envelope (or raw JSON: /api/v1/targets, /api/v1/version, the document) with no-store, Date and CORS. */
function answer(front: Front, res: HttpResponse, status: number, body: string | Uint8Array, extra: string): void {
  res.status = status;
  if (typeof body === 'string') res.body = body; // the HTTP core leaves it out for HEAD
  else res.bytes = body;
  res.extraHeaders += front.headers.at(Date.now()) + extra;
}

function fail(front: Front, res: HttpResponse, e: ApiError, path: string, parameters: string, extra: string): void {
  const body = envelope(front.clock.format(Date.now()), path, parameters, errorResponse(e.code, e.message));
  answer(front, res, e.status || statusOf(e.code), body, extra);
}

/** GET/HEAD only (405 with Allow otherwise); OPTIONS answered 204. Returns false when answered. */
function readOnly(front: Front, req: HttpRequest, res: HttpResponse, path: string, cors: string): boolean {
  if (req.method === 'GET' || req.method === 'HEAD') return true;
  if (req.method === 'OPTIONS') {
    res.status = 204;
    res.allow = READ_ALLOW;
    res.extraHeaders += cors + front.access.preflightHeaders(req, READ_ALLOW);
    return false;
  }
  res.allow = READ_ALLOW;
  fail(front, res, notAllowed(req.method, path, READ_ALLOW), path, '{}', cors);
  return false;
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

function route(front: Front, req: HttpRequest, res: HttpResponse): void {
  const url = req.target;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const text = req.method === 'PUT' && !req.sink ? req.bodyText(nodeTextCodec) : '';
  const parsed = req.method === 'PUT' ? parseJson(text) : null;
  const parameters = parsed !== null && !(parsed instanceof ApiError) ? text : '{}';
  const extra = { extraHeaders: '' };
  let cors = '';
  try {
    front.access.checkHost(req, []);
    cors = front.access.corsHeaders(req);
    const unknown = unknownMethod(req.method);
    if (unknown) throw unknown;
    if (OWN_PATHS.has(path)) {
      if (!readOnly(front, req, res, path, cors)) return;
      front.access.authorize(req, false, extra);
      return answerOwn(front, req, res, path, cors);
    }
    if (isRolloutsPath(path)) return rolloutsAnswer(front, req, res, path, extra, cors);
    if (!DEVICE_PREFIX.test(path)) throw new ApiError(aErrNotFound, `no resource ${path} on this host server; GET /api/v1 lists what there is`);
    if (req.method !== 'OPTIONS') front.access.authorize(req, isWrite(req.method, path), extra);
    const found = target(front, path);
    if (found instanceof ApiError) throw found;
    const own = front.options.access.token ?? '';
    const plan = { link: found.link, token: tokenFor(front.options.tokens, found.entry.serial), passAuthorization: own === '', stream: isEventsPath(path) };
    // The request (its strings) stays as it is until the answer has gone (PendingAnswer).
    const within = req.sink ? FIRMWARE_ANSWER_MS : undefined;
    res.pending = new Forwarded(found.link.sendWithToken(plan.token, outgoing(req, plan), plan.stream, within), (o: Outcome, later: HttpResponse) => {
      if (o.kind === 'error') {
        const retry = o.retryAfter ? `Retry-After: ${o.retryAfter}\r\n` : '';
        return fail(front, later, new ApiError(o.code, o.message), path, parameters, retry + cors);
      }
      const preflight = req.method === 'OPTIONS' && o.status === 204 ? front.access.preflightHeaders(req, String(o.headers.allow ?? '')) : '';
      relay(req.method, later, o, cors + preflight);
    });
  } catch (e) {
    const err = e instanceof ApiError ? e : new ApiError(aErrUnknown, 'internal error: ' + (e as Error).message);
    fail(front, res, err, path, parameters, extra.extraHeaders + cors);
  }
}

/** An answer the host server makes itself, for a path of OWN_PATHS (BrainD's state once the modules' versions are read). */
function answerOwn(front: Front, req: HttpRequest, res: HttpResponse, path: string, cors: string): void {
  const reg = front.options.registry;
  if (path === '/api/v1/targets') return answer(front, res, 200, reg.targets(), cors);
  if (path === VERSION_PATH) return answer(front, res, 200, JSON.stringify(serverVersion()), cors);
  if (path === '/api/v1/openapi.json') {
    const doc = hostOpenApi();
    const gzip = /\bgzip\b/.test(req.acceptEncoding);
    return answer(front, res, 200, gzip ? doc.gzip : doc.plain, 'Vary: Accept-Encoding\r\n' + (gzip ? 'Content-Encoding: gzip\r\n' : '') + cors);
  }
  if (path === ACRONAME_STATE_PATH) {
    res.pending = new Later(front.braind.state(front.clock),
      ([stamp, response], later) => answer(front, later, 200, envelope(stamp, path, '{}', response), cors),
      (e, later) => fail(front, later, new ApiError(aErrUnknown, 'internal error: ' + e.message), path, '{}', cors));
    return;
  }
  const response = path === '/api/v1' ? HOST_INDEX_RESPONSE : path === ACRONAME_DEVICES_PATH ? front.braind.devices() : reg.listing();
  return answer(front, res, 200, envelope(front.clock.format(Date.now()), path, '{}', response), cors);
}

/** The HTTP core's request handler: route() for a request, the envelope for the core's own refusals (400, 408, 501...). */
function handler(front: Front): RequestHandler {
  return {
    // A firmware image (up to FIRMWARE_FORWARD_MAX) is taken whole for the module; Host and token are
    // judged first so that a refused request keeps none of it (route() answers the refusal).
    bodySink(req: HttpRequest): ImageBody | null {
      if (req.method !== 'PUT' || !FIRMWARE_PATH.test(req.target)) return null;
      try {
        front.access.checkHost(req, []);
        front.access.authorize(req, true, { extraHeaders: '' });
        return new ImageBody(true);
      } catch {
        return new ImageBody(false);
      }
    },
    handle: (req, res) => route(front, req, res),
    fail(status: number, message: string, target: string, res: HttpResponse): void {
      const q = target.indexOf('?');
      res.status = status;
      res.body = envelope(front.clock.format(Date.now()), q < 0 ? target : target.slice(0, q), '{}', errorResponse(failureCode(status), message));
      res.extraHeaders += front.headers.at(Date.now());
    },
    afterResponse: () => undefined,
  };
}

/** Start serving; resolves once listening (port 0 picks a free port). */
export function startHostServer(options: HostServerOptions): Promise<RunningHostServer> {
  // This machine's own name is one of the names it is reached by (besides IP literals and localhost).
  const name = os.hostname().toLowerCase();
  const allowHosts = [...(options.access.allowHosts ?? []), name, name + '.local'];
  const front: Front = {
    options, access: new AccessControl({ ...options.access, allowHosts }), clock: new TimestampClock(), headers: new AnswerHeaders(),
    braind: new BrainD(options.registry, options.tokens),
    rollouts: new Rollouts(options.registry, options.tokens),
  };
  return startServer({
    port: options.port, host: options.host, handler: handler(front), maxConnections: options.maxConnections ?? CONNECTIONS_DEFAULT,
    now: options.now,
  });
}
