// What the firmware tests share: simulator images (host-sim/firmware-image.ts) with their
// Content-Digest, a PUT of an image over a real socket (whole, or a part and then a pause or a cut),
// and a simulator of one or more modules with their firmware.

import * as net from 'node:net';
import { createHash } from 'node:crypto';
import { makeImage, FLAG_NEVER_STARTS } from '../host-sim/firmware-image';
import { buildDevices } from '../host-sim/devices';
import { findProfile } from '../hal/sim/index';
import { packVersion } from '../hal/kit/version';
import { startSimServer, type SimServer } from './sim-server';
import type { SimModule } from '../hal/sim/index';

export const TOKEN = 'fw-s3cret';

export interface ImageSpec { version?: string; model?: number; platform?: string; size?: number; neverStarts?: boolean }

export function image(spec: ImageSpec = {}): Uint8Array {
  const [major, minor, patch] = (spec.version ?? '2.12.0').split('.').map(Number);
  const size = spec.size ?? 20000;
  const payload = new Uint8Array(size);
  for (let i = 0; i < size; i++) payload[i] = (i * 131 + (i >> 8)) & 0xff;
  return makeImage({ platform: spec.platform ?? 'sim', model: spec.model ?? findProfile('everything')!.model,
    version: packVersion(major, minor, patch), build: 0x12345678, payloadLength: size, flags: spec.neverStarts ? FLAG_NEVER_STARTS : 0 }, payload);
}

export function digestOf(bytes: Uint8Array): string {
  return `sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`;
}

export interface Answer { status: number; head: string; json: any }

/** The head of a firmware PUT of `length` bytes. */
export function putHead(target: string, length: number, headers: Record<string, string>): string {
  let head = `PUT ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n`;
  for (const k in headers) head += `${k}: ${headers[k]}\r\n`;
  return head + '\r\n';
}

/** A socket to the server and what it has sent so far. */
export function connect(port: number): Promise<{ socket: net.Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => { text += d.toString('latin1'); });
    const closed = new Promise<void>((r) => socket.on('close', () => r()));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

/** Wait until `f` holds (polled every 10 ms), at most `ms`. */
export async function until(f: () => boolean, ms = 5000): Promise<void> {
  const t0 = Date.now();
  while (!f()) {
    if (Date.now() - t0 > ms) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The first whole answer in `text`. */
export function firstAnswer(text: string): Answer | null {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const head = text.slice(0, end);
  const m = /content-length: (\d+)/i.exec(head);
  if (!m || text.length < end + 4 + Number(m[1])) return null;
  return { status: Number(head.slice(9, 12)), head, json: JSON.parse(text.slice(end + 4, end + 4 + Number(m[1]))) };
}

/** PUT `body` to `target` in one go and read the answer. */
export async function putImage(port: number, body: Uint8Array, headers: Record<string, string>, target = '/api/v1/device/firmware'): Promise<Answer> {
  const c = await connect(port);
  c.socket.write(putHead(target, body.length, headers));
  c.socket.write(body);
  await until(() => firstAnswer(c.received()) !== null);
  c.socket.destroy();
  return firstAnswer(c.received())!;
}

/** A simulator of `count` modules of the default profile, settings in memory, token TOKEN unless `token` says. */
export async function firmwareSim(count = 1, token: string = TOKEN): Promise<{ server: SimServer; modules: SimModule[] }> {
  const plans = [];
  for (let i = 0; i < count; i++) plans.push({ serial: 0x1234abcd + i, profile: findProfile('everything')! });
  const modules = buildDevices(plans, { kind: 'memory' }).map((d) => d.module);
  const server = await startSimServer({ port: 0, host: '127.0.0.1', devices: modules, access: { token } });
  return { server, modules };
}
