// Shared test helpers: call the API through node-mocks-http, or through a raw Connection.
import { strict as assert } from 'node:assert';
import { EventEmitter } from 'node:events';
import * as httpMocks from 'node-mocks-http';
import { Api, type ApiOptions } from '../src/api/api';
import { Connection } from '../src/http/connection';
import { nodeHttpListener } from './node-http-adapter';
import { createSimModule } from '../hal/sim/index';
import type { EntityHal, ModuleHal } from '../hal/types';
import { identity, operationJson } from '../src/api/resources/describe';
import { ENTITY_NAMES, operationsOf, routeForms } from '../src/api/route/routes';
import { nodeRandom, nodeSha256 } from '../host-sim/sha256';

export const SERIAL = 0x1234abcd;

export interface Answer {
  status: number;
  headers: Record<string, unknown>;
  text: string;
  /** The body as bytes (application/octet-stream answers). */
  raw: Buffer;
  json: any;
}

/** An error answer: its status, its error name and a message that says something. */
export function assertError(a: { status: number; json: any }, status: number, error: string): void {
  assert.equal(a.status, status, JSON.stringify(a.json));
  assert.equal(a.json.response.error, error, JSON.stringify(a.json));
  assert.equal(typeof a.json.response.message, 'string');
  assert.ok(a.json.response.message.length > 0);
}

export function simApi(options?: ApiOptions, devices?: ModuleHal[]): Api {
  return new Api(devices ?? [createSimModule({ serialNumber: SERIAL })], { sha256: nodeSha256, random: nodeRandom, ...options });
}

/** One request through the node:http adapter with node-mocks-http. */
export function call(api: Api, method: string, url: string, body?: string | object, headers?: Record<string, string>): Promise<Answer> {
  const req = httpMocks.createRequest({ method: method as httpMocks.RequestMethod, url, headers });
  const res = httpMocks.createResponse({ eventEmitter: EventEmitter });
  return new Promise((resolve) => {
    res.on('end', () => {
      const text = res._getData() as string;
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      resolve({ status: res.statusCode, headers: res._getHeaders(), text, raw: res._getBuffer(), json });
    });
    nodeHttpListener(api)(req as never, res as never);
    if (body === undefined) req.send();
    else req.send(Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));
  });
}

/** Feed raw bytes to a fresh Connection; `out` and `closed` keep following what it writes later. */
export function rawExchange(api: Api, chunks: (string | Uint8Array)[], now?: () => number): { out: string; closed: boolean; connection: Connection } {
  const dec = new TextDecoder();
  const result = { out: '', closed: false, connection: null as unknown as Connection };
  result.connection = new Connection(api, {
    write: (b) => { result.out += dec.decode(b); },
    close: () => { result.closed = true; },
  }, now ? { now } : undefined);
  for (const c of chunks) result.connection.receive(typeof c === 'string' ? new TextEncoder().encode(c) : c);
  return result;
}

/** Split a stream of HTTP responses into [status, headers, body] triples (Content-Length framed). */
export function splitResponses(out: string): { status: number; head: string; body: string }[] {
  const list: { status: number; head: string; body: string }[] = [];
  let rest = out;
  while (rest.length) {
    const end = rest.indexOf('\r\n\r\n');
    if (end < 0) throw new Error('truncated response: ' + JSON.stringify(rest));
    const head = rest.slice(0, end);
    const status = Number(head.slice(9, 12));
    const m = /content-length: (\d+)/i.exec(head);
    const length = m && status !== 204 && status !== 100 ? Number(m[1]) : 0;
    const bytes = new TextEncoder().encode(rest.slice(end + 4));
    if (/^transfer-encoding: chunked/im.test(head)) {
      const { body, used } = dechunk(bytes);
      list.push({ status, head, body: new TextDecoder().decode(body) });
      rest = new TextDecoder().decode(bytes.subarray(used));
      continue;
    }
    const body = new TextDecoder().decode(bytes.subarray(0, length));
    list.push({ status, head, body });
    rest = new TextDecoder().decode(bytes.subarray(length));
  }
  return list;
}

/** A chunked body (RFC 9112 §7.1) at the start of `bytes`: its data and how many bytes it took. */
export function dechunk(bytes: Uint8Array): { body: Uint8Array; used: number; sizes: number[] } {
  const parts: Uint8Array[] = [];
  const sizes: number[] = [];
  let at = 0;
  for (;;) {
    let eol = at;
    while (eol + 1 < bytes.length && !(bytes[eol] === 13 && bytes[eol + 1] === 10)) eol++;
    if (eol + 1 >= bytes.length) throw new Error('truncated chunk size line at ' + at);
    const line = new TextDecoder().decode(bytes.subarray(at, eol));
    if (!/^[0-9a-f]+$/.test(line)) throw new Error('bad chunk size line ' + JSON.stringify(line));
    const size = parseInt(line, 16);
    at = eol + 2;
    if (size === 0) {
      if (bytes[at] !== 13 || bytes[at + 1] !== 10) throw new Error('no CRLF after the last chunk');
      at += 2;
      break;
    }
    if (at + size + 2 > bytes.length) throw new Error('truncated chunk');
    parts.push(bytes.subarray(at, at + size));
    sizes.push(size);
    at += size;
    if (bytes[at] !== 13 || bytes[at + 1] !== 10) throw new Error('no CRLF after a chunk');
    at += 2;
  }
  const body = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) { body.set(p, o); o += p.length; }
  return { body, used: at, sizes };
}

/**
 * GET /api/v1/device/{serial}'s `response` made whole rather than streamed (one string per
 * entity from operationJson, joined): the reference the streamed pieces must equal byte for byte.
 */
export function wholeDescription(d: ModuleHal): string {
  const entities: string[] = [];
  for (const name of ENTITY_NAMES) {
    const hal = (d.entities as Record<string, EntityHal | undefined>)[name];
    if (!hal) continue;
    const ops = operationsOf(name).filter((op) => hal.supports(op))
      .map((op) => '"' + op + '":' + operationJson(routeForms(name, op)!, hal, op));
    if (ops.length) entities.push('"' + name + '":{"count":' + hal.count + ',"operations":{' + ops.join(',') + '}}');
  }
  const version = d.entities.system ? d.entities.system.get(0, 'version', []) as number : 0;
  return identity(d).slice(0, -1) + (d.name ? ',"name":' + JSON.stringify(d.name) : '') +
    `,"firmware":"${version >>> 28}.${(version >>> 24) & 15}.${version & 0xffffff}"` + ',"entities":{' + entities.join(',') + '}}';
}
