// The host server's rollouts (docs/firmware.md §A rollout): POST /api/v1/rollouts starts one,
// GET /api/v1/rollouts lists them, GET /api/v1/rollouts/{id} tells one's progress. The request names
// an image file on the host server's machine and the modules: a list of serials, or every online
// module of a model. The module tokens come from the host server's --tokens (tokens.ts).

import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ApiError, aErrInvalidOption, aErrNotFound, aErrParam, aErrRange } from '../hal/kit/errors';
import { parseSerial, serialText } from '../src/api/route/serial';
import { Rollout, type RolloutTarget } from './rollout';
import { tokenFor } from './tokens';
import type { Registry } from './registry';

export const ROLLOUTS_PATH = '/api/v1/rollouts';
/** The largest image a rollout sends (an ESP32 app slot is 1,920 KiB; the simulator's slot 4 MiB). */
export const IMAGE_MAX = 4 * 1024 * 1024;
export const WAVE_DEFAULT = 3;
export const BACK_WITHIN_DEFAULT_MS = 120000;
/** Rollouts remembered (the oldest finished one goes first). */
const KEPT = 32;

export function isRolloutsPath(p: string): boolean {
  return p === ROLLOUTS_PATH || p.startsWith(ROLLOUTS_PATH + '/');
}

interface StartRequest {
  image?: unknown;
  modules?: unknown;
  model?: unknown;
  waveSize?: unknown;
  backWithinS?: unknown;
}

export interface Answered { status: number; response: string }

export class Rollouts {
  private readonly list: Rollout[] = [];
  private next = 1;

  constructor(private readonly registry: Registry, private readonly tokens: ReadonlyMap<number | '*', string>) {}

  /** A request to /api/v1/rollouts[/{id}]: access already checked (a POST is a write). */
  answer(method: string, p: string, body: string): Answered | ApiError {
    if (p === ROLLOUTS_PATH) {
      if (method === 'POST') return this.start(body);
      if (method === 'GET' || method === 'HEAD') return { status: 200, response: '[' + this.list.map((r) => r.json()).join(',') + ']' };
      return new ApiError(aErrInvalidOption, `${method} is not allowed on ${p}; allowed: GET, HEAD, POST`, 405);
    }
    const r = this.list.find((x) => x.id === p.slice(ROLLOUTS_PATH.length + 1));
    if (!r) return new ApiError(aErrNotFound, `no rollout ${p.slice(ROLLOUTS_PATH.length + 1)}; GET ${ROLLOUTS_PATH} lists them`);
    if (method !== 'GET' && method !== 'HEAD') return new ApiError(aErrInvalidOption, `${method} is not allowed on ${p}; allowed: GET, HEAD`, 405);
    return { status: 200, response: r.json() };
  }

  /** Every rollout's end (tests, shutdown). */
  settled(): Promise<void> {
    return Promise.all(this.running).then(() => undefined);
  }

  private readonly running = new Set<Promise<void>>();

  private start(body: string): Answered | ApiError {
    let req: StartRequest;
    try {
      req = JSON.parse(body) as StartRequest;
    } catch {
      return new ApiError(aErrParam, 'the body must be JSON: {"image": "/path/to/image.bin", "modules": ["0x…"] or "model": N, "waveSize": 3}');
    }
    if (!req || typeof req !== 'object') return new ApiError(aErrParam, 'the body must be a JSON object');
    const image = this.readImage(req.image);
    if (image instanceof ApiError) return image;
    const targets = this.targets(req);
    if (targets instanceof ApiError) return targets;
    const waveSize = req.waveSize === undefined ? WAVE_DEFAULT : req.waveSize;
    if (typeof waveSize !== 'number' || !Number.isInteger(waveSize) || waveSize < 1 || waveSize > 64) return new ApiError(aErrRange, 'waveSize must be a whole number 1..64');
    const back = req.backWithinS === undefined ? BACK_WITHIN_DEFAULT_MS / 1000 : req.backWithinS;
    if (typeof back !== 'number' || !(back >= 1 && back <= 3600)) return new ApiError(aErrRange, 'backWithinS must be 1..3600 seconds');
    const rollout = new Rollout(String(this.next++), {
      image: image.bytes, digest: `sha-256=:${createHash('sha256').update(image.bytes).digest('base64')}:`, imageName: image.name,
      targets, waveSize, backWithinMs: back * 1000, uploadWithinMs: 60000,
    });
    this.list.push(rollout);
    if (this.list.length > KEPT) {
      const old = this.list.findIndex((r) => r.state !== 'running');
      if (old >= 0) this.list.splice(old, 1);
    }
    const done = rollout.run().finally(() => this.running.delete(done));
    this.running.add(done);
    return { status: 202, response: rollout.json() };
  }

  private readImage(name: unknown): { bytes: Buffer; name: string } | ApiError {
    if (typeof name !== 'string' || !path.isAbsolute(name)) return new ApiError(aErrParam, 'image must be the absolute path of an image file on the host server\'s machine');
    try {
      const size = statSync(name).size;
      if (size === 0 || size > IMAGE_MAX) return new ApiError(aErrRange, `the image ${name} has ${size} bytes; 1..${IMAGE_MAX} are sent`);
      return { bytes: readFileSync(name), name };
    } catch (e) {
      return new ApiError(aErrParam, `cannot read the image ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }

  /** The modules named: each serial listed (known and online), or every online module of `model`. */
  private targets(req: StartRequest): RolloutTarget[] | ApiError {
    const out: RolloutTarget[] = [];
    const add = (serial: number, origin: string) => out.push({ serial, origin, token: tokenFor(this.tokens, serial) });
    if (Array.isArray(req.modules) && req.model === undefined) {
      for (const s of req.modules) {
        const serial = typeof s === 'string' ? parseSerial(s) : -1;
        if (serial < 0 || serial > 0xffffffff) return new ApiError(aErrParam, `modules: ${JSON.stringify(s)} is not a serial number ("0x1234ABCD")`);
        const online = this.registry.find(serial).filter((f) => f.link.online);
        if (online.length !== 1) return new ApiError(aErrNotFound, `module ${serialText(serial)} is ${online.length ? 'answered by two addresses' : 'not online here'}; GET /api/v1/device lists them`);
        if (out.some((t) => t.serial === serial)) return new ApiError(aErrParam, `modules: ${serialText(serial)} is named twice`);
        add(serial, online[0].link.origin);
      }
    } else if (typeof req.model === 'number' && req.modules === undefined) {
      for (const link of this.registry.all()) {
        if (!link.online) continue;
        for (const e of link.entries) if (e.model === req.model) add(e.serial, link.origin);
      }
      out.sort((a, b) => a.serial - b.serial);
    } else {
      return new ApiError(aErrParam, 'name the modules: "modules": ["0x…", …] or "model": N (not both)');
    }
    if (out.length === 0) return new ApiError(aErrNotFound, 'no module to update: none named, or none of that model online');
    return out;
  }
}
