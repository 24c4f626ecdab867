// Calls straight into Api.handle with every header field the access rules read, so tests control
// Host, Origin, Sec-Fetch-Site, Authorization and the client address (peer).
import { Api, type ApiOptions } from '../src/api/api';
import { HttpResponse, type HttpRequest } from '../src/http/request';
import { createSimModule, type SimModule } from '../hal/sim/index';
import { nodeRandom, nodeSha256 } from '../host-sim/sha256';
import { clientMark } from '../src/http/client-marks';

export const PATH = '/api/v1/device';
export const HB = `${PATH}/system/0/hbinterval`;

export interface Ask {
  method?: string;
  target: string;
  host?: string;
  origin?: string;
  site?: string;
  auth?: string;
  peer?: string;
  preflight?: string;
  body?: string;
  /** Fields that say who sent the request (lower-case name -> value): User-Agent, Referer, X-Requested-With… */
  fields?: Record<string, string>;
}

export interface Reply {
  status: number;
  /** Header lines beyond the fixed ones, as a lower-cased name -> value map (a repeated one joined by ', ', as Node does). */
  headers: Record<string, string>;
  json: any;
  body: string;
}

export function ask(api: Api, a: Ask): Reply {
  const body = new TextEncoder().encode(a.body ?? '');
  const req: HttpRequest = {
    method: a.method ?? 'GET',
    target: a.target,
    versionMinor: 1,
    host: a.host ?? '127.0.0.1:9005',
    origin: a.origin ?? '',
    secFetchSite: a.site ?? '',
    authorization: a.auth ?? '',
    acceptEncoding: '',
    ifNoneMatch: '',
    accessControlRequestMethod: a.preflight ?? '',
    clientMarks: Object.entries(a.fields ?? {}).reduce((m, [name, value]) => m | clientMark(name, value), 0),
    peer: a.peer ?? '192.0.2.1',
    body: () => body,
    bodyText: (codec) => codec.decode(body),
  };
  const res = new HttpResponse();
  api.handle(req, res);
  api.afterResponse();
  const headers: Record<string, string> = {};
  for (const line of res.extraHeaders.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? headers[name] + ', ' + value : value;
  }
  if (res.allow) headers.allow = res.allow;
  return { status: res.status, headers, json: res.body ? JSON.parse(res.body) : undefined, body: res.body };
}

/** A PUT of hbinterval. */
export function putHb(api: Api, value: number, extra: Omit<Ask, 'target'> = {}): Reply {
  return ask(api, { method: 'PUT', target: HB, body: JSON.stringify({ value }), ...extra });
}

/** hbinterval as read by a plain local client. */
export function readHb(api: Api): number {
  return ask(api, { target: HB }).json.response.value;
}

export function simWithApi(options?: ApiOptions, now?: () => number): { api: Api; module: SimModule } {
  const module = createSimModule({ serialNumber: 0x1234abcd, now });
  return { api: new Api([module], { sha256: nodeSha256, random: nodeRandom, ...options }), module };
}
