// The API core: one RequestHandler that turns a parsed request into a call on the HAL and the
// envelope of DECISIONS.md §Responses. Order of checks, left to right along the path: method known
// (501) -> path (404/501) -> method offered (405 + Allow) -> capability (501) -> path parameters
// (400) -> body (400) -> the HAL.

import {
  ApiError, aErrInvalidOption, aErrNotFound, aErrParam, aErrParse, aErrRange, aErrSize, aErrTimeout, aErrUnimplemented,
  aErrResource, aErrUnknown, aErrVersion, statusOf,
} from '../../hal/kit/errors';
import { MATCH_DEVICE, MATCH_DEVICES, matchPath, serialText, type PathMatch } from './path-match';
import { allRoutes, type Route } from './routes';
import { decodeValue } from './value-decode';
import { formatValue } from './value-format';
import { DescriptionStream, identity } from './describe';
import { answerOpenApi, checkSiteMethod, INDEX_RESPONSE, isSitePath, OPENAPI_PATH, type OpenApiSource } from './site';
import { envelope, errorResponse, TimestampClock } from './envelope';
import type { HttpRequest, HttpResponse, RequestHandler } from '../http/request';
import type { EntityHal, ModuleHal } from '../../hal/types';
import { standardTextCodec, type TextCodec } from '../util/text';
import { AccessControl, type AccessOptions } from './access';
import { AnswerHeaders } from './answer-headers';
import { EventStreams, isEventsPath } from './events';
import { serveConsole } from '../web/console';
import { deepFreeze } from '../util/freeze';

/** Access control (allowed hosts, CORS origins, token: src/api/access.ts) and the codec. */
export interface ApiOptions extends AccessOptions {
  /** UTF-8 codec for bodies and names; default the engine's own. */
  codec?: TextCodec;
  /** GET /api/v1/openapi.json: the generated document (absent: 404). */
  openapi?: OpenApiSource;
  /** event streams served at once (DECISIONS.md §Events); default 1, a module's. */
  maxStreams?: number;
  /** inflates the console page for a client that does not take gzip (the simulator's). */
  gunzip?: (bytes: Uint8Array) => Uint8Array;
  /** the console page gzip-compressed, mapped from flash on a module (no RAM copy). */
  consoleGzip?: Uint8Array;
}

/** Methods this server knows; any other answers 501 (DECISIONS.md §Requests). */
const KNOWN_METHODS: readonly string[] = deepFreeze(['GET', 'HEAD', 'PUT', 'OPTIONS', 'POST', 'DELETE', 'PATCH', 'TRACE', 'CONNECT']);

export class Api implements RequestHandler {
  private readonly devices: readonly ModuleHal[];
  private readonly access: AccessControl;
  private readonly headers = new AnswerHeaders();
  private readonly codec: TextCodec;
  private readonly openapi: OpenApiSource | null;
  private readonly clock = new TimestampClock();
  /** The device whose afterResponse runs after the current answer (a pending reset). */
  private lastDevice: ModuleHal | null = null;
  private readonly events: EventStreams;
  private readonly gunzip: ((bytes: Uint8Array) => Uint8Array) | null;
  private readonly consoleGzip: Uint8Array | null;

  constructor(devices: readonly ModuleHal[], options?: ApiOptions) {
    if (devices.length === 0) throw new Error('Api needs at least one device');
    this.devices = devices;
    this.access = new AccessControl(options);
    this.codec = options?.codec ?? standardTextCodec();
    this.openapi = options?.openapi ?? null;
    this.events = new EventStreams(options?.maxStreams ?? 1, this.clock, this.codec);
    this.gunzip = options?.gunzip ?? null;
    this.consoleGzip = options?.consoleGzip ?? null;
  }

  handle(req: HttpRequest, res: HttpResponse): void {
    const query = req.target.indexOf('?');
    const path = query < 0 ? req.target : req.target.slice(0, query);
    // The PUT body, parsed once: echoed in request.parameters on every answer when it is an object,
    // as the text it came as (valid JSON already: no second serialisation).
    const text = req.method === 'PUT' ? this.codec.decode(req.body()) : '';
    const body = req.method === 'PUT' ? parseJson(text) : null;
    const parameters = body !== null && !(body instanceof ApiError) ? text : '{}';
    let clock: ModuleHal = this.devices[0];
    /** The console page is a versioned resource (ETag, no-cache), not a live value: no no-store. */
    let resource = false;
    try {
      this.access.checkHost(req, this.devices);
      if (KNOWN_METHODS.indexOf(req.method) < 0) {
        throw new ApiError(aErrUnimplemented, `method ${req.method} is not implemented`, 501);
      }
      if (path === '*' && req.method === 'OPTIONS') {
        // OPTIONS * asks about the server as a whole (RFC 9110 §9.3.7).
        res.status = 204;
        res.allow = 'GET, HEAD, PUT, OPTIONS';
        return;
      }
      if (isSitePath(path)) {
        this.answerSite(req, path, parameters, res);
        return;
      }
      // The web console at / and event streams at .../events (src/web, src/api/events.ts).
      if (path === '/') {
        resource = true;
        serveConsole(req, res, this.gunzip, this.codec, this.consoleGzip);
        return;
      }
      if (isEventsPath(path)) {
        this.access.authorize(req, false, res);
        clock = this.events.answer(req.method, path, query < 0 ? '' : req.target.slice(query + 1), this.devices, res);
        return;
      }
      const match = matchPath(path, this.devices);
      if (match instanceof ApiError) return this.answerError(match, clock, path, parameters, res);
      if (match.device) clock = match.device;
      this.lastDevice = match.device;
      if (match.kind === MATCH_DEVICES || match.kind === MATCH_DEVICE) {
        this.answerListing(req, match, path, res);
        return;
      }
      const allow = match.forms[0].allow;
      if (req.method === 'OPTIONS') {
        res.status = 204;
        res.allow = allow;
        res.extraHeaders = this.access.preflightHeaders(req, allow);
        return;
      }
      const route = pick(match.forms, req.method);
      if (!route) {
        res.allow = allow;
        throw new ApiError(aErrInvalidOption,
          `${req.method} is not allowed on ${match.entity}/${match.op}; allowed: ${allow}`, 405);
      }
      this.access.authorize(req, req.method === 'PUT' || route.get === 'none', res);
      const hal = match.hal!;
      if (!hal.supports(match.op)) {
        throw new ApiError(aErrUnimplemented, `this module cannot do ${match.entity}/${match.op}`);
      }
      if (req.method === 'PUT' && route.put !== 'BYTES') {
        const limits = hal.limits ? hal.limits(match.op) : null;
        if (limits && limits.readOnly) throw new ApiError(aErrUnimplemented, `this module can read ${match.entity}/${match.op} but not set it`);
      }
      const params = checkParams(route, match, hal);
      let answer = '{}';
      if (route.put === 'BYTES' && req.method === 'PUT') {
        // A raw body (copied: the parser's buffer is reused by the next request).
        hal.set(match.index, match.op, params, req.body().slice());
      } else if (route.get === 'bytes' && req.method !== 'PUT') {
        res.contentType = 'application/octet-stream';
        res.bytes = hal.get(match.index, match.op, params) as Uint8Array;
        return;
      } else if (req.method === 'PUT') {
        const request = bodyValue(body);
        const value = decodeValue(route, request.value, this.codec);
        hal.set(match.index, match.op, params, value);
        const readBack = route.putEmpty ? null : getForm(match.forms);
        if (readBack) answer = formatValue(readBack, hal.get(match.index, match.op, params), this.codec);
      } else if (route.get === 'none') {
        hal.run(match.index, match.op, params);
      } else {
        answer = formatValue(route, hal.get(match.index, match.op, params), this.codec);
      }
      res.body = envelope(this.clock.format(clock.now()), path, parameters, answer);
    } catch (e) {
      this.answerError(e, clock, path, parameters, res);
    } finally {
      const now = clock.now();
      res.extraHeaders += (resource ? this.headers.dateAt(now) : this.headers.at(now)) + this.access.corsHeaders(req);
    }
  }

  fail(status: number, message: string, target: string, res: HttpResponse): void {
    const query = target.indexOf('?');
    const code = status === 408 ? aErrTimeout : status === 505 ? aErrVersion : status === 501 ? aErrUnimplemented
      : status === 413 || status === 414 || status === 431 ? aErrSize : status === 503 ? aErrResource : aErrParse;
    res.status = status;
    const now = this.devices[0].now();
    res.body = envelope(this.clock.format(now), query < 0 ? target : target.slice(0, query), '{}', errorResponse(code, message));
    res.extraHeaders += this.headers.at(now);
  }

  afterResponse(): void {
    const device = this.lastDevice;
    this.lastDevice = null;
    if (device) device.afterResponse();
  }

  /** GET /api/v1/device (the devices) and GET /api/v1/device/{serial} (what one module has). */
  private answerListing(req: HttpRequest, match: PathMatch, path: string, res: HttpResponse): void {
    const method = req.method;
    if (method === 'OPTIONS') {
      res.status = 204;
      res.allow = 'GET, HEAD, OPTIONS';
      res.extraHeaders = this.access.preflightHeaders(req, res.allow);
      return;
    }
    if (method !== 'GET' && method !== 'HEAD') {
      res.allow = 'GET, HEAD, OPTIONS';
      throw new ApiError(aErrInvalidOption, `${method} is not allowed on ${path}; allowed: GET, HEAD, OPTIONS`, 405);
    }
    this.access.authorize(req, false, res);
    const timestamp = this.clock.format((match.device ?? this.devices[0]).now());
    if (match.kind === MATCH_DEVICES) {
      const list: string[] = [];
      for (const d of this.devices) list.push(identity(d));
      res.body = envelope(timestamp, path, '{}', '[' + list.join(',') + ']');
      return;
    }
    // The description is never built whole: streamed one entity at a time inside the envelope's
    // head and tail (the envelope of an empty response, cut before its closing brace).
    const head = envelope(timestamp, path, '{}', '');
    res.stream = new DescriptionStream(match.device!, head.slice(0, -1), '}');
    res.streamEnds = true;
  }

  /** GET /api/v1 (links) and GET /api/v1/openapi.json (the stored document). */
  private answerSite(req: HttpRequest, path: string, parameters: string, res: HttpResponse): void {
    if (req.method === 'OPTIONS') {
      res.status = 204;
      res.allow = 'GET, HEAD, OPTIONS';
      res.extraHeaders = this.access.preflightHeaders(req, res.allow);
      return;
    }
    checkSiteMethod(req.method, path, res);
    if (path !== OPENAPI_PATH) {
      res.body = envelope(this.clock.format(this.devices[0].now()), path, parameters, INDEX_RESPONSE);
    } else if (!this.openapi) {
      throw new ApiError(aErrNotFound, 'this server was started without its OpenAPI document');
    } else {
      answerOpenApi(this.openapi, req.acceptEncoding, res);
    }
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

/** Path parameters: decimal integers in the table's range, or below the module's own bound. */
export function checkParams(route: Route, match: PathMatch, hal: EntityHal): number[] {
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

/** A PUT body as JSON, whatever the Content-Type: the object, or the error it earns. */
function parseJson(text: string): object | ApiError {
  if (text.length === 0) return new ApiError(aErrParam, 'a PUT needs a body {"value": ...}');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return new ApiError(aErrParse, 'the body is not valid JSON; send {"value": ...}');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return new ApiError(aErrParam, 'the body must be a JSON object {"value": ...}');
  }
  return body;
}

/** The body of a PUT that sets a value: one JSON object with a `value` member. */
function bodyValue(body: object | ApiError | null): { value: unknown } {
  if (body instanceof ApiError) throw body;
  if (body === null || !('value' in body)) throw new ApiError(aErrParam, 'the body has no "value" member');
  return body as { value: unknown };
}
