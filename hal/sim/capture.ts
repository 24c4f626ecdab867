// The analog inputs' simulated signal and the bulk capture that samples it: a capture started at time
// t finishes once samples/rate seconds of simulated time have passed, at the next HAL call, and writes
// 2-byte little-endian samples into RAM store slot 0. analog.ts wires these into the analog entity.

import { ApiError, aErrBusy } from '../kit/errors';
import { checkUnlocked } from '../kit/store-rules';
import { ERR_CAPTURE } from '../kit/error-word';
import type { SimContext } from './context';
import type { StoreModel } from './store';
import { RAM_SLOT, RAM_STORE } from './system';
import { clampInt, noise } from './values';

const BITS_MAX = 65535;
/** Full scale of each `range` code, uV (0..15): unipolar spans the simulated converter offers. */
export const RANGE_FULL_SCALE: readonly number[] = [
  3_300_000, 5_000_000, 10_000_000, 1_250_000, 2_500_000, 1_000_000, 500_000, 250_000,
  100_000, 4_096_000, 2_048_000, 1_024_000, 20_000_000, 15_000_000, 12_000_000, 6_000_000,
];
export const MAX_FULL_SCALE = Math.max(...RANGE_FULL_SCALE);
/** bulkcapturestate */
export const CAPTURE_IDLE = 0;
export const CAPTURE_PENDING = 1;
export const CAPTURE_FINISHED = 2;
export const CAPTURE_ERROR = 3;

/** The signal on input i at time t (ms): a DC level plus a 1 kHz tone, a little converter noise. */
export function signal(serial: number, i: number, tMs: number): number {
  const s = tMs / 1000;
  return 400_000 + 500_000 * i + 200_000 * Math.sin(2 * Math.PI * 1000 * s + i) + 1500 * noise(serial, 700 + i, Math.floor(tMs * 1000));
}

/** The 16-bit converter: microvolts to code at full scale fs, and back. */
export function toBits(uV: number, fs: number): number {
  return clampInt((uV / fs) * BITS_MAX, 0, BITS_MAX);
}

export function toMicrovolts(bits: number, fs: number): number {
  return Math.round((bits * fs) / BITS_MAX);
}

interface Capture { state: number; start: number; rate: number; samples: number; range: number }

/** One capture per input; at most one pending on the module (they share the RAM slot). */
export class CaptureScheduler {
  private readonly captures: Capture[] = [];

  constructor(private readonly ctx: SimContext, private readonly stores: StoreModel, private readonly count: number) {
    this.powerUp();
    ctx.onReboot(() => this.powerUp());
    // A pending capture whose time has come writes its samples (at any HAL call, so RAM slot readers see them).
    ctx.onAdvance((t) => this.captures.forEach((c, i) => this.finish(c, i, t)));
  }

  private powerUp(): void {
    for (let i = 0; i < this.count; i++) this.captures[i] = { state: CAPTURE_IDLE, start: 0, rate: 1, samples: 0, range: 0 };
  }

  private finish(c: Capture, i: number, t: number): void {
    if (c.state !== CAPTURE_PENDING || t - c.start < (c.samples * 1000) / c.rate) return;
    const room = Math.floor(this.stores.slot(RAM_STORE, RAM_SLOT).data.length / 2);
    const n = Math.min(c.samples, room);
    if (n < c.samples) this.ctx.flagError(ERR_CAPTURE, `analog ${i} capture clamped to ${n} samples`);
    const out = new Uint8Array(n * 2);
    for (let k = 0; k < n; k++) {
      const b = toBits(signal(this.ctx.serial, i, c.start + (k * 1000) / c.rate), RANGE_FULL_SCALE[c.range & 15]);
      out[2 * k] = b & 0xff;
      out[2 * k + 1] = b >> 8;
    }
    try {
      this.stores.write(RAM_STORE, RAM_SLOT, out);
      c.state = CAPTURE_FINISHED;
    } catch {
      c.state = CAPTURE_ERROR; // the slot was locked meanwhile
      this.ctx.flagError(ERR_CAPTURE, `analog ${i} capture could not be stored`);
    }
  }

  state(i: number): number {
    return this.captures[i].state;
  }

  /** Starts a capture on input i now (the caller has checked that i is an input). */
  start(i: number, rate: number, samples: number, range: number): void {
    if (this.captures.some((c) => c.state === CAPTURE_PENDING)) throw new ApiError(aErrBusy, 'a bulk capture is already running');
    const s = this.stores.slot(RAM_STORE, RAM_SLOT); // aErrRange when the module has no RAM store
    checkUnlocked(RAM_STORE, RAM_SLOT, s.locked);
    this.captures[i] = { state: CAPTURE_PENDING, start: this.ctx.wall(), rate, samples, range };
  }
}
Object.freeze(CaptureScheduler.prototype);
