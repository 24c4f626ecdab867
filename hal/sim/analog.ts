// analog: inputs read a simulated signal per channel through a 16-bit converter whose full scale is set
// by `range`; outputs hold DAC bits. Bulk capture samples the input signal in simulated time and, once
// samples/rate seconds have passed, writes 2-byte little-endian samples into RAM store slot 0.

import { ApiError, aErrBusy, aErrMode, aErrPermission } from '../kit/errors';
import type { HalOf } from '../types';
import { ERR_CAPTURE } from '../kit/error-word';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import type { StoreModel } from './store';
import { RAM_SLOT, RAM_STORE } from './system';
import { range } from './limits';
import { asNumber } from '../kit/value-guards';
import { clampInt, noise } from './values';

const CONFIG_INPUT = 0;
const CONFIG_OUTPUT = 1;
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

interface Capture { state: number; start: number; rate: number; samples: number; range: number }

export function createAnalog(ctx: SimContext, stores: StoreModel): HalOf<'analog'> {
  const regs = ctx.registers('analog', {
    value: 0, // DAC bits (outputs)
    range: 0,
    enable: false,
    configuration: CONFIG_INPUT,
    bulkcapturesamplerate: 10_000,
    bulkcapturenumberofsamples: 1_000,
  });
  const fullScale = (i: number) => RANGE_FULL_SCALE[regs.num(i, 'range') & 15];
  /** The signal on input i at time t (ms): a DC level plus a 1 kHz tone, a little converter noise. */
  const signal = (i: number, tMs: number): number => {
    const s = tMs / 1000;
    return 400_000 + 500_000 * i + 200_000 * Math.sin(2 * Math.PI * 1000 * s + i) + 1500 * noise(ctx.serial, 700 + i, Math.floor(tMs * 1000));
  };
  const toBits = (uV: number, fs: number) => clampInt((uV / fs) * BITS_MAX, 0, BITS_MAX);
  const toMicrovolts = (bits: number, fs: number) => Math.round((bits * fs) / BITS_MAX);
  const isOutput = (i: number) => regs.num(i, 'configuration') === CONFIG_OUTPUT;
  const bits = (i: number) => (isOutput(i) ? regs.num(i, 'value') : toBits(signal(i, ctx.wall()), fullScale(i)));
  const requireOutput = (i: number, op: string) => {
    if (!isOutput(i)) throw new ApiError(aErrMode, `analog ${i} ${op}: configuration ${regs.num(i, 'configuration')} is not an output (set configuration 1)`);
  };

  const captures: Capture[] = [];
  const powerUp = () => {
    for (let i = 0; i < regs.count; i++) captures[i] = { state: CAPTURE_IDLE, start: 0, rate: 1, samples: 0, range: 0 };
  };
  powerUp();
  ctx.onReboot(powerUp);
  // A pending capture whose time has come writes its samples (at any HAL call, so RAM slot readers see them).
  ctx.onAdvance((t) => {
    captures.forEach((c, i) => {
      if (c.state !== CAPTURE_PENDING || t - c.start < (c.samples * 1000) / c.rate) return;
      const room = Math.floor(stores.slot(RAM_STORE, RAM_SLOT).data.length / 2);
      const n = Math.min(c.samples, room);
      if (n < c.samples) ctx.flagError(ERR_CAPTURE, `analog ${i} capture clamped to ${n} samples`);
      const out = new Uint8Array(n * 2);
      for (let k = 0; k < n; k++) {
        const b = toBits(signal(i, c.start + (k * 1000) / c.rate), RANGE_FULL_SCALE[c.range & 15]);
        out[2 * k] = b & 0xff;
        out[2 * k + 1] = b >> 8;
      }
      try {
        stores.write(RAM_STORE, RAM_SLOT, out);
        c.state = CAPTURE_FINISHED;
      } catch {
        c.state = CAPTURE_ERROR; // the slot was locked meanwhile
        ctx.flagError(ERR_CAPTURE, `analog ${i} capture could not be stored`);
      }
    });
  });

  return makeEntity(ctx, 'analog', {
    registers: regs,
    // voltage: up to the widest range's full scale; above the present range's it is 409 (change range).
    limits: { voltage: range(0, MAX_FULL_SCALE), bulkcapturenumberofsamples: range(1, 4294967295) },
    get: {
      value: (i) => bits(i),
      voltage: (i) => toMicrovolts(bits(i), fullScale(i)),
      bulkcapturestate: (i) => captures[i].state,
    },
    set: {
      value: (i, _p, v) => {
        requireOutput(i, 'value');
        regs.write(i, 'value', [], asNumber(v, 'value'));
      },
      // The DAC takes the nearest code: the voltage reads back within one step (full scale / 65535).
      voltage: (i, _p, v) => {
        requireOutput(i, 'voltage');
        const fs = fullScale(i);
        const uV = asNumber(v, 'voltage');
        if (uV > fs) throw new ApiError(aErrMode, `analog ${i} voltage ${uV} is above the ${fs} uV full scale of range ${regs.num(i, 'range')}; choose a wider range first`);
        regs.write(i, 'value', [], toBits(uV, fs));
      },
      bulkcapturenumberofsamples: (i, _p, v) => regs.write(i, 'bulkcapturenumberofsamples', [], asNumber(v, 'samples')),
    },
    run: {
      bulkcapture: (i) => {
        if (isOutput(i)) throw new ApiError(aErrMode, `analog ${i} is an output: bulk capture needs an input`);
        if (captures.some((c) => c.state === CAPTURE_PENDING)) throw new ApiError(aErrBusy, 'a bulk capture is already running');
        const s = stores.slot(RAM_STORE, RAM_SLOT); // aErrRange when the module has no RAM store
        if (s.locked) throw new ApiError(aErrPermission, `RAM store slot ${RAM_SLOT} is locked`);
        captures[i] = {
          state: CAPTURE_PENDING, start: ctx.wall(), rate: regs.num(i, 'bulkcapturesamplerate'),
          samples: regs.num(i, 'bulkcapturenumberofsamples'), range: regs.num(i, 'range'),
        };
      },
    },
  });
}
