// One firmware rollout across a lab (docs/firmware.md §A rollout): one module first, then the rest a
// few at a time; each wave starts only after every module of the one before answered 202 and then
// came back serving the new version. The first failure stops it: the modules not yet started are
// left untouched ("not started"). Progress is a plain object the routes serve while it runs.

import { request } from 'undici';
import { serialText } from '../src/api/route/serial';
import { ModuleAuth } from './module-auth';

export type ModuleState = 'not started' | 'updating' | 'restarting' | 'done' | 'failed';

export interface ModuleProgress {
  serialNumber: string;
  address: string;
  state: ModuleState;
  /** Why it failed ('' otherwise). */
  why: string;
  /** The version its 202 named ('' until then). */
  version: string;
  wave: number;
}

export interface RolloutTarget {
  serial: number;
  /** http://addr:port of the module's server. */
  origin: string;
  token: string;
}

export interface RolloutPlan {
  image: Buffer;
  /** Content-Digest of the image. */
  digest: string;
  imageName: string;
  targets: RolloutTarget[];
  /** Modules updated at once after the first one. */
  waveSize: number;
  /** How long a module may take to come back with the new version (ms). */
  backWithinMs: number;
  /** How long one upload may take (ms). */
  uploadWithinMs: number;
}

/** How often a restarting module is asked for its firmware. */
export const POLL_MS = 250;

export class Rollout {
  readonly id: string;
  state: 'running' | 'done' | 'stopped' = 'running';
  readonly started = new Date().toISOString();
  finished: string | null = null;
  readonly modules: ModuleProgress[];
  private readonly plan: RolloutPlan;
  private readonly auths = new Map<string, ModuleAuth>();

  constructor(id: string, plan: RolloutPlan) {
    this.id = id;
    this.plan = plan;
    this.modules = plan.targets.map((t) => ({ serialNumber: serialText(t.serial), address: t.origin.slice(7), state: 'not started', why: '', version: '', wave: 0 }));
  }

  /** The waves: the first module alone, then `waveSize` at a time. */
  waves(): number[][] {
    const out: number[][] = [];
    const n = this.modules.length;
    if (n > 0) out.push([0]);
    for (let i = 1; i < n; i += this.plan.waveSize) out.push(Array.from({ length: Math.min(this.plan.waveSize, n - i) }, (_, k) => i + k));
    return out;
  }

  /** Run every wave in turn; resolves when it is done or stopped. */
  async run(): Promise<void> {
    const waves = this.waves();
    for (let w = 0; w < waves.length; w++) {
      for (const i of waves[w]) this.modules[i].wave = w + 1;
      await Promise.all(waves[w].map((i) => this.updateOne(i)));
      if (waves[w].some((i) => this.modules[i].state === 'failed')) {
        this.state = 'stopped';
        break;
      }
    }
    if (this.state === 'running') this.state = 'done';
    this.finished = new Date().toISOString();
  }

  /** The progress as JSON (the `response` of GET /api/v1/rollouts/{id}). */
  json(): string {
    const count = (s: ModuleState) => this.modules.filter((m) => m.state === s).length;
    return JSON.stringify({
      id: this.id, state: this.state, image: this.plan.imageName, started: this.started, finished: this.finished,
      waveSize: this.plan.waveSize, done: count('done'), failed: count('failed'), notStarted: count('not started'), modules: this.modules,
    });
  }

  private async updateOne(i: number): Promise<void> {
    const m = this.modules[i];
    const t = this.plan.targets[i];
    m.state = 'updating';
    try {
      m.version = await this.upload(t);
      m.state = 'restarting';
      await this.comesBack(t, m.version);
      m.state = 'done';
    } catch (e) {
      m.state = 'failed';
      m.why = e instanceof Error ? e.message : String(e);
    }
  }

  /** PUT the image: the version its 202 names, or why not. */
  private async upload(t: RolloutTarget): Promise<string> {
    const headers: Record<string, string> = {
      'content-type': 'application/octet-stream', 'content-digest': this.plan.digest, host: t.origin.slice(7),
    };
    const target = `/api/v1/device/${serialText(t.serial)}/firmware`;
    let r;
    try {
      r = await this.authOf(t).send(t.token, 'PUT', target, this.plan.image.length, async (authorization, empty) => {
        const res = await request(t.origin + target, {
          method: 'PUT', body: empty ? Buffer.alloc(0) : this.plan.image, headers: authorization ? { ...headers, authorization } : headers,
          headersTimeout: this.plan.uploadWithinMs, bodyTimeout: this.plan.uploadWithinMs,
        });
        return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
      });
    } catch (e) {
      throw new Error(`the upload failed: ${(e as Error).message}`);
    }
    let response: { version?: string; error?: string; message?: string } = {};
    try {
      response = JSON.parse(r.text).response ?? {};
    } catch { /* not the envelope: said below */ }
    if (r.status !== 202 || typeof response.version !== 'string') {
      throw new Error(`the module answered ${r.status}${response.error ? ` ${response.error}: ${response.message}` : ''}`);
    }
    return response.version;
  }

  /** The token of `t`'s module goes as HTTP Digest, a nonce per module server (host-server/module-auth.ts). */
  private authOf(t: RolloutTarget): ModuleAuth {
    let auth = this.auths.get(t.origin);
    if (!auth) this.auths.set(t.origin, (auth = new ModuleAuth()));
    return auth;
  }

  /** Poll GET …/firmware until the module serves `version`, or fail once backWithinMs has passed. */
  private async comesBack(t: RolloutTarget, version: string): Promise<void> {
    const until = Date.now() + this.plan.backWithinMs;
    let last = 'no answer';
    const headers: Record<string, string> = { host: t.origin.slice(7) };
    const target = `/api/v1/device/${serialText(t.serial)}/firmware`;
    while (Date.now() < until) {
      try {
        const r = await this.authOf(t).send(t.token, 'GET', target, 0, async (authorization) => {
          const res = await request(t.origin + target, { headers: authorization ? { ...headers, authorization } : headers, headersTimeout: 2000, bodyTimeout: 2000 });
          return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
        });
        const running = JSON.parse(r.text).response?.version;
        if (r.status === 200 && running === version) return;
        last = r.status === 200 ? `it runs ${running}` : `it answered ${r.status}`;
      } catch (e) {
        last = (e as Error).message;
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    throw new Error(`it did not come back with ${version} within ${this.plan.backWithinMs / 1000} s (last: ${last})`);
  }
}
