// The API core: one RequestHandler that turns a parsed request into a call on the HAL and the
// envelope of DECISIONS.md §Responses. Order of checks, left to right along the path: method known
// (501) -> path (404/501) -> method offered (405 + Allow) -> capability (501) -> path parameters
// (400) -> body (400) -> the HAL.

import {
  ApiError, aErrInvalidOption, aErrParam, aErrParse, aErrRange, aErrSize, aErrTimeout, aErrUnimplemented,
  aErrResource, aErrUnknown, aErrVersion, statusOf,
} from './errors';
import { MATCH_DEVICE, MATCH_DEVICES, matchPath, serialText, type PathMatch } from './path-match';
import { allRoutes, type Route } from './routes';
import { decodeValue } from './value-decode';
import { formatValue } from './value-format';
import { envelope, errorResponse, TimestampClock } from './envelope';
import type { HttpRequest, HttpResponse, RequestHandler } from '../http/request';
import type { EntityHal, ModuleHal } from '../../hal/types';
import { standardTextCodec, type TextCodec } from '../util/text';
import { deepFreeze } from '../util/freeze';

export interface ApiOptions {
  /** Answer CORS preflights and add Access-Control-Allow-Origin to every answer. */
  cors?: boolean;
  /** UTF-8 codec for bodies and names; default the engine's own. */
  codec?: TextCodec;
}

/** Methods this server knows; any other answers 501 (DECISIONS.md §Requests). */
const KNOWN_METHODS: readonly string[] = deepFreeze(['GET', 'HEAD', 'PUT', 'OPTIONS', 'POST', 'DELETE', 'PATCH', 'TRACE', 'CONNECT']);

const CORS_ORIGIN = 'Access-Control-Allow-Origin: *\r\n';

export class Api implements RequestHandler {
  private readonly devices: readonly ModuleHal[];
  private readonly cors: boolean;
  private readonly codec: TextCodec;
  private readonly clock = new TimestampClock();
  /** The device whose afterResponse runs after the current answer (a pending reset). */
  private lastDevice: ModuleHal | null = null;

  constructor(devices: readonly ModuleHal[], options?: ApiOptions) {
    if (devices.length === 0) throw new Error('Api needs at least one device');
    this.devices = devices;
    this.cors = options?.cors === true;
    this.codec = options?.codec ?? standardTextCodec();
  }

  handle(req: HttpRequest, res: HttpResponse): void {
    const query = req.target.indexOf('?');
    const path = query < 0 ? req.target : req.target.slice(0, query);
    let parameters = '{}';
    let clock: ModuleHal = this.devices[0];
    try {
      if (KNOWN_METHODS.indexOf(req.method) < 0) {
        throw new ApiError(aErrUnimplemented, `method ${req.method} is not implemented`, 501);
      }
      if (path === '*' && req.method === 'OPTIONS') {
        // OPTIONS * asks about the server as a whole (RFC 9110 §9.3.7).
        res.status = 204;
        res.allow = 'GET, HEAD, PUT, OPTIONS';
        return;
      }
      const match = matchPath(path, this.devices);
      if (match instanceof ApiError) {
        this.answerError(match, clock, path, parameters, res);
        return;
      }
      if (match.device) clock = match.device;
      this.lastDevice = match.device;
      if (match.kind === MATCH_DEVICES || match.kind === MATCH_DEVICE) {
        this.answerListing(req.method, match, path, res);
        return;
      }
      const allow = allowed(match.forms);
      if (req.method === 'OPTIONS') {
        res.status = 204;
        res.allow = allow;
        if (this.cors) res.extraHeaders = preflightHeaders(allow);
        return;
      }
      const route = pick(match.forms, req.method);
      if (!route) {
        res.allow = allow;
        throw new ApiError(aErrInvalidOption,
          `${req.method} is not allowed on ${match.entity}/${match.op}; allowed: ${allow}`, 405);
      }
      const hal = match.hal!;
      if (!hal.supports(match.op)) {
        throw new ApiError(aErrUnimplemented, `this module cannot do ${match.entity}/${match.op}`);
      }
      const params = checkParams(route, match, hal);
      let body = '{}';
      if (route.put === 'BYTES' && req.method === 'PUT') {
        // A raw body (copied: the parser's buffer is reused by the next request).
        hal.set(match.index, match.op, params, req.body().slice());
      } else if (route.get === 'bytes' && req.method !== 'PUT') {
        res.contentType = 'application/octet-stream';
        res.bytes = hal.get(match.index, match.op, params) as Uint8Array;
        return;
      } else if (req.method === 'PUT') {
        const request = parseBody(req.body(), this.codec);
        parameters = JSON.stringify(request);
        const value = decodeValue(route, request.value, this.codec);
        hal.set(match.index, match.op, params, value);
        const readBack = route.putEmpty ? null : getForm(match.forms);
        if (readBack) body = formatValue(readBack, hal.get(match.index, match.op, params), this.codec);
      } else if (route.get === 'none') {
        hal.run(match.index, match.op, params);
      } else {
        body = formatValue(route, hal.get(match.index, match.op, params), this.codec);
      }
      res.body = envelope(this.clock.format(clock.now()), path, parameters, body);
    } catch (e) {
      this.answerError(e, clock, path, parameters, res);
    } finally {
      if (this.cors) res.extraHeaders += CORS_ORIGIN;
    }
  }

  fail(status: number, message: string, target: string, res: HttpResponse): void {
    const query = target.indexOf('?');
    const code = status === 408 ? aErrTimeout : status === 505 ? aErrVersion : status === 501 ? aErrUnimplemented
      : status === 413 || status === 414 || status === 431 ? aErrSize : status === 503 ? aErrResource : aErrParse;
    res.status = status;
    res.body = envelope(this.clock.format(this.devices[0].now()), query < 0 ? target : target.slice(0, query), '{}', errorResponse(code, message));
    if (this.cors) res.extraHeaders += CORS_ORIGIN;
  }

  afterResponse(): void {
    const device = this.lastDevice;
    this.lastDevice = null;
    if (device) device.afterResponse();
  }

  /** GET /api/v1/device (the devices) and GET /api/v1/device/{serial} (what one module has). */
  private answerListing(method: string, match: PathMatch, path: string, res: HttpResponse): void {
    if (method === 'OPTIONS') {
      res.status = 204;
      res.allow = 'GET, HEAD, OPTIONS';
      if (this.cors) res.extraHeaders = preflightHeaders(res.allow);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      res.allow = 'GET, HEAD, OPTIONS';
      throw new ApiError(aErrInvalidOption, `${method} is not allowed on ${path}; allowed: GET, HEAD, OPTIONS`, 405);
    }
    let body: string;
    if (match.kind === MATCH_DEVICES) {
      const list: string[] = [];
      for (const d of this.devices) list.push(identity(d));
      body = '[' + list.join(',') + ']';
    } else {
      body = describe(match.device!);
    }
    res.body = envelope(this.clock.format((match.device ?? this.devices[0]).now()), path, '{}', body);
  }

  private answerError(e: unknown, clock: ModuleHal, path: string, parameters: string, res: HttpResponse): void {
    let code = aErrUnknown;
    let message = 'internal error';
    let status = 0;
    if (e instanceof ApiError) {
      code = e.code;
      message = e.message;
      status = e.status;
    } else if (e instanceof Error) {
      message = 'internal error: ' + e.message;
    }
    res.status = status || statusOf(code);
    if (res.status !== 405) res.allow = '';
    res.body = envelope(this.clock.format(clock.now()), path, parameters, errorResponse(code, message));
  }
}
Object.freeze(Api.prototype);

function pick(forms: readonly Route[], method: string): Route | null {
  for (const r of forms) {
    if ((method === 'GET' && r.get !== '-') || (method === 'HEAD' && r.get !== '-' && r.get !== 'none') ||
      (method === 'PUT' && r.put !== '-')) return r;
  }
  return null;
}

function getForm(forms: readonly Route[]): Route | null {
  for (const r of forms) if (r.get !== '-' && r.get !== 'none') return r;
  return null;
}

/** The Allow value of a path: GET (and HEAD unless an action), PUT, OPTIONS. */
function allowed(forms: readonly Route[]): string {
  let get = false;
  let head = false;
  let put = false;
  for (const r of forms) {
    if (r.get !== '-') get = true;
    if (r.get !== '-' && r.get !== 'none') head = true;
    if (r.put !== '-') put = true;
  }
  return (get ? 'GET, ' : '') + (head ? 'HEAD, ' : '') + (put ? 'PUT, ' : '') + 'OPTIONS';
}

function preflightHeaders(allow: string): string {
  return 'Access-Control-Allow-Methods: ' + allow + '\r\nAccess-Control-Allow-Headers: Content-Type\r\n' +
    'Access-Control-Max-Age: 600\r\n';
}

/** Path parameters: decimal integers in the table's range, or below the module's own bound. */
function checkParams(route: Route, match: PathMatch, hal: EntityHal): number[] {
  const out: number[] = [];
  for (let k = 0; k < route.params.length; k++) {
    const p = route.params[k];
    const text = match.params[k];
    let v = 0;
    if (text.length > 10) throw new ApiError(aErrRange, `${p.name} ${text} is out of range`);
    for (let i = 0; i < text.length; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 9) throw new ApiError(aErrParse, `${p.name} must be a decimal integer, got '${text}'`);
      v = v * 10 + d;
    }
    const max = p.max >= 0 ? p.max : hal.limit(match.index, p.name) - 1;
    if (v < p.min || v > max) {
      throw new ApiError(aErrRange, max < p.min ? `${match.entity} ${match.index} has no ${p.name}` : `${p.name} ${v} is out of range ${p.min}..${max}`);
    }
    out.push(v);
  }
  return out;
}

/** The PUT body: one JSON object with a `value` member, whatever the Content-Type. */
function parseBody(bytes: Uint8Array, codec: TextCodec): { value: unknown } {
  if (bytes.length === 0) throw new ApiError(aErrParam, 'a PUT needs a body {"value": ...}');
  let body: unknown;
  try {
    body = JSON.parse(codec.decode(bytes));
  } catch {
    throw new ApiError(aErrParse, 'the body is not valid JSON; send {"value": ...}');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError(aErrParam, 'the body must be a JSON object {"value": ...}');
  }
  if (!('value' in body)) throw new ApiError(aErrParam, 'the body has no "value" member');
  return body as { value: unknown };
}

function readSystem(d: ModuleHal, op: 'model' | 'module'): number {
  const system = d.entities.system;
  return system && system.supports(op) ? (system.get(0, op, []) as number) : 0;
}

function identity(d: ModuleHal): string {
  return '{"serialNumber":"' + serialText(d.serialNumber) + '","model":' + readSystem(d, 'model') +
    ',"module":' + readSystem(d, 'module') + '}';
}

/** What a module has: per entity, its instance count and the operations it supports. */
function describe(d: ModuleHal): string {
  const entities: string[] = [];
  const seen: { [entity: string]: string[] } = {};
  const order: string[] = [];
  const halOf = d.entities as { readonly [name: string]: EntityHal | undefined };
  for (const r of allRoutes()) {
    const hal = halOf[r.entity];
    if (!hal || !hal.supports(r.op)) continue;
    let ops = seen[r.entity];
    if (!ops) {
      ops = seen[r.entity] = [];
      order.push(r.entity);
    }
    if (ops.indexOf(r.op) < 0) ops.push(r.op);
  }
  for (const name of order) {
    entities.push(JSON.stringify(name) + ':{"count":' + halOf[name]!.count + ',"operations":' + JSON.stringify(seen[name]) + '}');
  }
  const id = identity(d);
  return id.slice(0, -1) + ',"entities":{' + entities.join(',') + '}}';
}
