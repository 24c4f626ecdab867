// GET /api/v1/device[/{serial}]/events?watch=rail/0/voltage,rail/0/current&interval=250 (docs/api.md
// §Events): a text/event-stream that sends, every `interval` ms, one event whose data is
// {"timestamp", "values": {"rail/0/voltage": {value, rawValue}, ...}}, and a comment line every 15 s
// while no event went out. The watch list is checked once, before the head is sent (400 for an entry
// that names no readable operation), and kept as parallel arrays: a tick makes no closures and no
// objects, only the event's strings. The HTTP core polls the stream from the server's timer
// (HttpResponse.stream, Connection.checkTimeout); a module serves `maxStreams` at once (one), a
// second is answered 503 aErrResource.

import { ApiError, aErrInvalidOption, aErrParam, aErrRange, aErrResource, errorName } from '../../../hal/kit/errors';
import { serialText } from '../route/serial';
import { deviceResource, EVENTS_SEGMENT } from '../access/doors';
import { ADDRESS_DEVICE, ADDRESS_DEVICES, ADDRESS_ROUTE } from '../route/parse-path';
import { lookup } from '../route/resolve';
import { checkParams } from '../route/params';
import { formatValue } from '../values/value-format';
import type { TimestampClock } from '../values/envelope';
import type { Route } from '../route/routes';
import type { HttpResponse, ResponseStream } from '../../http/request';
import type { EntityHal, ModuleHal } from '../../../hal/types';
import type { TextCodec } from '../../../util/text';

export { EVENTS_SEGMENT };
export const INTERVAL_MIN_MS = 100;
export const INTERVAL_MAX_MS = 60000;
export const INTERVAL_DEFAULT_MS = 1000;
/** A comment line goes out when no event has for this long, so proxies keep the connection. */
export const IDLE_COMMENT_MS = 15000;
/** Most entries of one watch list (the request line's 1 KiB bounds it anyway). */
export const WATCH_MAX = 16;

/** True when `path` (query removed) asks for an event stream. */
export function isEventsPath(path: string): boolean {
  return deviceResource(path, EVENTS_SEGMENT);
}

/** One query parameter's raw value ('' when absent). */
function queryParam(query: string, name: string): string {
  for (const part of query.split('&')) {
    const eq = part.indexOf('=');
    if ((eq < 0 ? part : part.slice(0, eq)) === name) return eq < 0 ? '' : part.slice(eq + 1);
  }
  return '';
}

function decodeQuery(text: string): string {
  try {
    return decodeURIComponent(text.split('+').join(' '));
  } catch {
    throw new ApiError(aErrParam, `watch: malformed percent-encoding in '${text}'`);
  }
}

function parseInterval(text: string): number {
  if (text === '') return INTERVAL_DEFAULT_MS;
  let v = 0;
  for (let i = 0; i < text.length; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9 || i > 6) throw new ApiError(aErrParam, `interval must be a whole number of ms ${INTERVAL_MIN_MS}..${INTERVAL_MAX_MS}, got '${text}'`);
    v = v * 10 + d;
  }
  if (v < INTERVAL_MIN_MS || v > INTERVAL_MAX_MS) throw new ApiError(aErrRange, `interval ${v} is out of range ${INTERVAL_MIN_MS}..${INTERVAL_MAX_MS} ms`);
  return v;
}

/** The readable form of a watched path, or an ApiError saying why it is not one. */
function readableForm(forms: readonly Route[]): Route | null {
  for (const r of forms) if (r.get === 'int' || r.get === 'bool' || r.get === 'ilist' || r.get === 'str') return r;
  return null;
}

/** The stream of one connection: the watch list parsed once, as parallel arrays. */
class WatchStream implements ResponseStream {
  /** '"rail/0/voltage":' per entry: the JSON key, made once. */
  readonly keys: string[] = [];
  readonly routes: Route[] = [];
  readonly hals: EntityHal[] = [];
  readonly indices: number[] = [];
  readonly params: (readonly number[])[] = [];
  private readonly owner: EventStreams;
  private readonly device: ModuleHal;
  private readonly interval: number;
  /** When the next event is due on the connection's clock; NaN until the first poll sets it. */
  private next = NaN;
  private lastSent = 0;
  private open = true;

  constructor(owner: EventStreams, device: ModuleHal, interval: number) {
    this.owner = owner;
    this.device = device;
    this.interval = interval;
  }

  /** The first event, sent with the head; the next falls due one interval after the first poll. */
  start(): string {
    return 'retry: 2000\n\n' + this.event();
  }

  poll(now: number): string {
    if (this.next !== this.next) { // the first poll: the connection's clock, not the module's
      this.next = now + this.interval;
      this.lastSent = now;
      return '';
    }
    if (now >= this.next) {
      this.next += this.interval;
      if (this.next <= now) this.next = now + this.interval; // late (a busy loop): no burst to catch up
      this.lastSent = now;
      return this.event();
    }
    if (now - this.lastSent >= IDLE_COMMENT_MS) {
      this.lastSent = now;
      return ': idle\n\n';
    }
    return '';
  }

  close(): void {
    if (!this.open) return;
    this.open = false;
    this.owner.active--;
  }

  /** `data: {"timestamp":…,"values":{…}}` — one HAL read per entry; a failed read shows its error. */
  private event(): string {
    const owner = this.owner;
    let out = 'data: {"timestamp":"' + owner.clock.format(this.device.now()) + '","values":{';
    for (let i = 0; i < this.keys.length; i++) {
      const route = this.routes[i];
      let value: string;
      try {
        value = formatValue(route, this.hals[i].get(this.indices[i], route.op, this.params[i]), owner.codec);
      } catch (e) {
        value = e instanceof ApiError ? '{"error":"' + errorName(e.code) + '","message":' + JSON.stringify(e.message) + '}'
          : '{"error":"aErrUnknown","message":"read failed"}';
      }
      out += (i === 0 ? '' : ',') + this.keys[i] + value;
    }
    return out + '}}\n\n';
  }
}
Object.freeze(WatchStream.prototype);

/** The event streams of one Api: checks a request and starts its stream. */
export class EventStreams {
  active = 0;
  readonly max: number;
  readonly clock: TimestampClock;
  readonly codec: TextCodec;

  constructor(max: number, clock: TimestampClock, codec: TextCodec) {
    this.max = max;
    this.clock = clock;
    this.codec = codec;
  }

  /**
   * Answer GET {device}/events?watch=…&interval=… (the method and access checked at its door, src/api/access/doors.ts): the head and the first event, with res.stream set
   * so the connection goes on polling. Throws ApiError (400/404/405/503) before anything is sent.
   */
  answer(path: string, query: string, devices: readonly ModuleHal[], res: HttpResponse): ModuleHal {
    const base = path.slice(0, -EVENTS_SEGMENT.length);
    const match = lookup(base, devices);
    if (match instanceof ApiError) throw match;
    if (match.address.kind === ADDRESS_DEVICES && devices.length !== 1) {
      throw new ApiError(aErrParam, `this server reaches ${devices.length} devices: ask /api/v1/device/{serial}/events`);
    }
    if (match.address.kind !== ADDRESS_DEVICE && match.address.kind !== ADDRESS_DEVICES) {
      throw new ApiError(aErrInvalidOption, `no event stream at ${path}; use /api/v1/device/{serial}/events`);
    }
    const device = match.device ?? devices[0];
    const stream = new WatchStream(this, device, parseInterval(queryParam(query, 'interval')));
    this.parseWatch(decodeQuery(queryParam(query, 'watch')), device, devices, stream);
    if (this.active >= this.max) {
      throw new ApiError(aErrResource, `${this.max} event stream${this.max === 1 ? ' is' : 's are'} already open; close one first`);
    }
    this.active++;
    res.contentType = 'text/event-stream';
    res.close = true;
    res.body = stream.start();
    res.stream = stream;
    return device;
  }

  private parseWatch(watch: string, device: ModuleHal, devices: readonly ModuleHal[], stream: WatchStream): void {
    if (watch === '') throw new ApiError(aErrParam, 'watch is missing: name readable operations, e.g. watch=rail/0/voltage,rail/0/current');
    const entries = watch.split(',');
    if (entries.length > WATCH_MAX) throw new ApiError(aErrRange, `watch names ${entries.length} operations; at most ${WATCH_MAX}`);
    const prefix = '/api/v1/device/' + serialText(device.serialNumber) + '/';
    for (const raw of entries) {
      const entry = raw.trim();
      const m = entry === '' || entry.charCodeAt(0) === 47 ? null : lookup(prefix + entry, devices);
      const why = m === null ? 'empty or absolute' : m instanceof ApiError ? m.message : m.address.kind !== ADDRESS_ROUTE ? 'not an operation' : '';
      const form = m && !(m instanceof ApiError) && m.address.kind === ADDRESS_ROUTE ? readableForm(m.address.forms!.routes) : null;
      if (!form || m === null || m instanceof ApiError || !m.hal!.supports(m.address.op)) {
        throw new ApiError(aErrParam, `watch entry '${entry}' names no readable operation` + (why ? `: ${why}` : ''));
      }
      stream.keys.push(JSON.stringify(entry) + ':');
      stream.routes.push(form);
      stream.hals.push(m.hal!);
      stream.indices.push(m.index);
      const params = checkParams(form, m);
      if (params instanceof ApiError) throw params;
      stream.params.push(params);
    }
  }
}
Object.freeze(EventStreams.prototype);
