// The API core: one RequestHandler that turns a parsed request into a call on the HAL and the
// envelope of docs/api.md §Answers. Order of checks, left to right along the path: method known
// (501) -> path (404/501: parse-path.ts, resolve.ts) -> method offered (405 + Allow) -> capability
// (501) -> path parameters (400) -> body (400) -> the HAL (invoke.ts). Every check returns its miss
// as an ApiError value; what the HAL, the value decoder and access control throw is caught once, here.

import { ApiError, aErrNotReady, aErrParam, aErrResource, aErrParse, aErrSize, aErrTimeout, aErrUnimplemented, aErrUnknown, aErrVersion, statusOf } from '../../hal/kit/errors';
import { Address, ADDRESS_ROUTE, parsePath } from './route/parse-path';
import { resolve, Target } from './route/resolve';
import { checkParams } from './route/params';
import { notAllowed, pick, SERVER_ALLOW, unknownMethod } from './route/methods';
import { parseJson } from './values/request-body';
import { invoke } from './invoke';
import { answerListing, answerMetrics, answerSite, preflight } from './resources/listing';
import { readableFamilies } from './resources/readable-families';
import type { OpenApiSource } from './access/site';
import { ACCESS_ACT, ACCESS_READ, ACCESS_UPDATE, accessOf, DOOR_CONSOLE, DOOR_EVENTS, DOOR_FIRMWARE, DOOR_LISTING, DOOR_METRICS, DOORS, doorOf, NO_ACCESS, NO_DOOR } from './access/doors';
import { envelope, errorResponse, TimestampClock } from './values/envelope';
import type { HttpRequest, HttpResponse, RequestBodySink, RequestHandler } from '../http/request';
import { acceptedJson, firmwareDevice, firmwareStatusJson, FirmwareUploads, type Upload } from './resources/firmware';
import type { ModuleHal } from '../../hal/types';
import { standardTextCodec, type TextCodec } from '../../util/text';
import { AccessControl, type AccessOptions } from './access/access';
import { AnswerHeaders } from './answer-headers';
import { EventStreams } from './resources/events';
import { serveConsole } from '../web/console';

/** Access control (allowed hosts, CORS origins, token: src/api/access/access.ts) and the codec. */
export interface ApiOptions extends AccessOptions {
  /** UTF-8 codec for bodies and names; default the engine's own. */
  codec?: TextCodec;
  /** GET /api/v1/openapi.json: the generated document (absent: 404). */
  openapi?: OpenApiSource;
  /** event streams served at once (docs/api.md §Events); default 1, a module's. */
  maxStreams?: number;
  /** inflates the console page for a client that does not take gzip (the simulator's). */
  gunzip?: (bytes: Uint8Array) => Uint8Array;
  /** the console page gzip-compressed, mapped from flash on a module (no RAM copy); absent: GET / is 404. */
  consoleGzip?: Uint8Array;
}

export class Api implements RequestHandler {
  private readonly devices: readonly ModuleHal[];
  private readonly access: AccessControl;
  private readonly headers = new AnswerHeaders();
  private readonly codec: TextCodec;
  private readonly openapi: OpenApiSource | null;
  private readonly clock = new TimestampClock();
  private readonly events: EventStreams;
  private readonly gunzip: ((bytes: Uint8Array) => Uint8Array) | null;
  private readonly consoleGzip: Uint8Array | null;
  /** The parsed path and what it names (target.address): filled in place by every request. */
  private readonly target = new Target(new Address());
  /**
   * The device the current request names: its clock stamps the answer, and its afterResponse runs
   * once the answer is sent (a pending reset). null: the first device's clock, no afterResponse.
   */
  private lastDevice: ModuleHal | null = null;
  /** The module clock for the current request, read once (NaN until read): stamps and Date agree. */
  private stamp = NaN;
  /** Firmware images on their way in, one per module at a time; the one whose 202 is being sent. */
  private readonly uploads = new FirmwareUploads();
  private restarting: Upload | null = null;
  /** The metric families some module reads (readable-families.ts), found at the first scrape. */
  private readable: string | null = null;

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

  /**
   * The name module `index` announced itself under by DNS-SD (`brainstem-1234abcd-2` after a
   * conflict; '' when withdrawn): a name the Host check accepts, as it accepts the saved hostname.
   */
  setAnnouncedName(index: number, name: string): void {
    this.access.setAnnouncedName(index, name);
  }

  handle(req: HttpRequest, res: HttpResponse): void {
    const query = req.target.indexOf('?');
    const path = query < 0 ? req.target : req.target.slice(0, query);
    // The PUT body, parsed once: echoed in request.parameters on every answer when it is an object,
    // as the text it came as (valid JSON already: no second serialisation).
    const json = req.method === 'PUT' && !req.sink; // a streamed body (a firmware image) is no JSON
    const text = json ? req.bodyText(this.codec) : '';
    const body = json ? parseJson(text) : null;
    const parameters = body !== null && !(body instanceof ApiError) ? text : '{}';
    this.lastDevice = null;
    this.stamp = NaN;
    let miss: ApiError | null;
    try {
      miss = this.answer(req, path, query, body, parameters, res);
    } catch (e) {
      miss = e instanceof ApiError ? e : new ApiError(aErrUnknown, e instanceof Error ? 'internal error: ' + e.message : 'internal error');
    }
    if (miss) this.answerError(miss, path, parameters, res);
    this.target.address.path = ''; // hold nothing of a request after its answer
    const now = this.now();
    // The console page is a versioned resource (ETag, no-cache), not a live value: no no-store.
    res.extraHeaders += (path === '/' && !miss ? this.headers.dateAt(now) : this.headers.at(now)) + this.access.corsHeaders(req);
  }

  /** The checks of docs/api.md in order, up to the operation; null when `res` holds the answer. */
  private answer(req: HttpRequest, path: string, query: number, body: object | ApiError | null, parameters: string,
    res: HttpResponse): ApiError | null {
    if (req.sink) return this.finishUpload(req.sink as Upload, path, res); // its door was passed at its head
    this.access.checkHost(req, this.devices);
    const unknown = unknownMethod(req.method);
    if (unknown) return unknown;
    // OPTIONS * asks about the server as a whole (RFC 9110 §9.3.7).
    if (path === '*' && req.method === 'OPTIONS') return preflight204(res, SERVER_ALLOW);
    const door = doorOf(path);
    if (door !== NO_DOOR) return this.enter(req, door, path, query, parameters, null, res);
    const t = resolve(parsePath(path, this.target.address), this.devices, this.target);
    if (t instanceof ApiError) return t;
    this.lastDevice = t.device;
    if (t.device && t.device.serving && !t.device.serving()) return notServing(res);
    if (t.address.kind !== ADDRESS_ROUTE) return this.enter(req, DOOR_LISTING, path, query, parameters, t, res);
    return this.operate(req, t, path, body, parameters, res);
  }

  /**
   * A top-level resource (src/api/access/doors.ts): OPTIONS, the method offered (405), access decided
   * once (AccessControl.admit), then the resource itself.
   */
  private enter(req: HttpRequest, door: number, path: string, query: number, parameters: string, t: Target | null,
    res: HttpResponse): ApiError | null {
    const d = DOORS[door];
    if (req.method === 'OPTIONS' && d.options) return preflight(req, d.allow, this.access, res);
    const access = accessOf(d, req.method);
    if (access === NO_ACCESS) {
      res.allow = d.allow;
      return notAllowed(req.method, door === DOOR_CONSOLE ? '/' : path, d.allow);
    }
    this.access.admit(req, access, res);
    switch (door) {
      case DOOR_CONSOLE: serveConsole(req, res, this.gunzip, this.consoleGzip); return null;
      case DOOR_METRICS: return answerMetrics(this.devices, this.metricFamilies(), res);
      case DOOR_LISTING: return answerListing(t!, path, this.devices, this.clock, res);
      case DOOR_EVENTS:
        this.lastDevice = this.events.answer(path, query < 0 ? '' : req.target.slice(query + 1), this.devices, res);
        return null;
      case DOOR_FIRMWARE: return this.firmwareStatus(req, path, res);
      default: return answerSite(req, path, parameters, this.openapi, this.clock.format(this.now()), res);
    }
  }

  /**
   * The HTTP core asks, once a head is parsed and a body follows, where the body goes: a firmware PUT
   * streams it into an Upload, its door (Host, access class update) passed now, before any byte is
   * written; its answer comes once the body has (finishUpload). Any other body: the body buffer.
   */
  bodySink(req: HttpRequest, length: number): RequestBodySink | null {
    if (req.method !== 'PUT') return null;
    const query = req.target.indexOf('?');
    const path = query < 0 ? req.target : req.target.slice(0, query);
    if (doorOf(path) !== DOOR_FIRMWARE) return null;
    const headers = { extraHeaders: '' };
    let refusal: ApiError | null = null;
    try {
      this.access.checkHost(req, this.devices);
      this.access.admit(req, ACCESS_UPDATE, headers);
    } catch (e) {
      refusal = e instanceof ApiError ? e : new ApiError(aErrUnknown, 'internal error');
    }
    const upload = this.uploads.open(req, firmwareDevice(path, this.devices), length, refusal);
    upload.headers = headers.extraHeaders;
    return upload;
  }

  /** PUT …/firmware once its body has come: 202 with the image's version, or why it was refused. */
  private finishUpload(upload: Upload, path: string, res: HttpResponse): ApiError | null {
    res.extraHeaders += upload.headers;
    this.lastDevice = upload.device;
    const version = upload.finish();
    if (version instanceof ApiError) return version;
    this.restarting = upload;
    res.status = 202;
    res.body = envelope(this.clock.format(this.now()), path, '{}', acceptedJson(version));
    return null;
  }

  /** GET …/firmware (a PUT whose body did not stream: chunked, or none, is 411). */
  private firmwareStatus(req: HttpRequest, path: string, res: HttpResponse): ApiError | null {
    if (req.method === 'PUT') {
      return new ApiError(aErrParam, 'a firmware image is sent as the body, with Content-Length (not chunked)', 411);
    }
    const device = firmwareDevice(path, this.devices);
    if (device instanceof ApiError) return device;
    this.lastDevice = device;
    if (device.serving && !device.serving()) return notServing(res);
    const json = firmwareStatusJson(device.firmware);
    if (json instanceof ApiError) return json;
    res.body = envelope(this.clock.format(this.now()), path, '{}', json);
    return null;
  }

  /** An operation: method offered (405), access, capability (501), path parameters (400), the HAL. */
  private operate(req: HttpRequest, t: Target, path: string, body: object | ApiError | null, parameters: string,
    res: HttpResponse): ApiError | null {
    const a = t.address;
    const allow = a.forms!.allow;
    if (req.method === 'OPTIONS') return preflight(req, allow, this.access, res);
    const route = pick(a.forms!, req.method);
    if (!route) {
      res.allow = allow;
      return notAllowed(req.method, a.entity + '/' + a.op, allow);
    }
    this.access.admit(req, req.method === 'PUT' || route.get === 'none' ? ACCESS_ACT : ACCESS_READ, res);
    const hal = t.hal!;
    if (!hal.supports(a.op)) return new ApiError(aErrUnimplemented, `this module cannot do ${a.entity}/${a.op}`);
    if (req.method === 'PUT' && route.put !== 'BYTES') {
      const limits = hal.limits ? hal.limits(a.op) : null;
      if (limits && limits.readOnly) return new ApiError(aErrUnimplemented, `this module can read ${a.entity}/${a.op} but not set it`);
    }
    const params = checkParams(route, t);
    if (params instanceof ApiError) return params;
    const answer = invoke(req, route, t, params, body, this.codec, res);
    if (answer instanceof ApiError) return answer;
    // The path resolved to an operation: table names, digits and a hex serial, nothing to escape.
    if (answer !== '') res.body = envelope(this.clock.format(this.now()), path, parameters, answer, true);
    return null;
  }

  fail(status: number, message: string, target: string, res: HttpResponse): void {
    const query = target.indexOf('?');
    const code = failureCode(status);
    res.status = status;
    const now = this.devices[0].now();
    res.body = envelope(this.clock.format(now), query < 0 ? target : target.slice(0, query), '{}', errorResponse(code, message));
    res.extraHeaders += this.headers.at(now);
  }

  /**
   * The module time of the current request: read from the device it names (the first device until
   * one is named) when first needed, after the operation (a clock PUT stamps its answer with the new time).
   */
  private metricFamilies(): string {
    if (this.readable === null) this.readable = readableFamilies(this.devices);
    return this.readable;
  }

  private now(): number {
    if (this.stamp !== this.stamp) this.stamp = (this.lastDevice ?? this.devices[0]).now();
    return this.stamp;
  }

  afterResponse(): void {
    const device = this.lastDevice;
    this.lastDevice = null;
    const upload = this.restarting;
    this.restarting = null;
    if (upload) upload.restart(); // a firmware update, its 202 on its way
    else {
      // The module has served a request: a firmware on trial confirms itself (a module's any request).
      const served = device ?? (this.devices.length === 1 ? this.devices[0] : null);
      const fw = served ? served.firmware : undefined;
      if (fw && fw.served) fw.served();
    }
    if (device) device.afterResponse();
  }

  /** The error envelope with the code's status (or the one the miss names: 405, 401, 429...). */
  private answerError(e: ApiError, path: string, parameters: string, res: HttpResponse): void {
    res.status = e.status || statusOf(e.code);
    if (res.status !== 405) res.allow = '';
    res.body = envelope(this.clock.format(this.now()), path, parameters, errorResponse(e.code, e.message));
  }
}
Object.freeze(Api.prototype);

/** The error code of the HTTP core's own answers (RequestHandler.fail): 408, 413/414/431, 501, 503, 505, else 400. */
export function failureCode(status: number): number {
  return status === 408 ? aErrTimeout : status === 505 ? aErrVersion : status === 501 ? aErrUnimplemented
    : status === 413 || status === 414 || status === 431 ? aErrSize : status === 503 ? aErrResource : aErrParse;
}

/** A module that does not serve now (the simulator's, restarting into an image that never starts): 503, closed. */
function notServing(res: HttpResponse): ApiError {
  res.close = true;
  return new ApiError(aErrNotReady, 'the module does not answer: it is restarting');
}

/** OPTIONS *: 204 with the server's Allow. */
function preflight204(res: HttpResponse, allow: string): null {
  res.status = 204;
  res.allow = allow;
  return null;
}
