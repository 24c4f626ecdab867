// analog: inputs read a simulated signal per channel through a 16-bit converter whose full scale is set
// by `range`; outputs hold DAC bits. Bulk capture samples the input signal in simulated time and, once
// samples/rate seconds have passed, writes 2-byte little-endian samples into RAM store slot 0. The
// signal, the converter and the capture scheduler are capture.ts; this file wires them.

import { ApiError, aErrMode } from '../kit/errors';
import type { HalOf } from '../types';
import { CaptureScheduler, MAX_FULL_SCALE, RANGE_FULL_SCALE, signal, toBits, toMicrovolts } from './capture';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import type { StoreModel } from './store';
import { range } from './profile-limits';
import { asNumber } from '../kit/value-guards';

const CONFIG_INPUT = 0;
const CONFIG_OUTPUT = 1;

export function createAnalog(ctx: SimContext, stores: StoreModel): HalOf<'analog'> {
  const regs = ctx.registers('analog', {
    value: 0, // DAC bits (outputs)
    range: 0,
    enable: false,
    configuration: CONFIG_INPUT,
    bulkcapturesamplerate: 10_000,
    bulkcapturenumberofsamples: 1_000,
  });
  const captures = new CaptureScheduler(ctx, stores, regs.count);
  const fullScale = (i: number) => RANGE_FULL_SCALE[regs.num(i, 'range') & 15];
  const isOutput = (i: number) => regs.num(i, 'configuration') === CONFIG_OUTPUT;
  const bits = (i: number) => (isOutput(i) ? regs.num(i, 'value') : toBits(signal(ctx.serial, i, ctx.wall()), fullScale(i)));
  const requireOutput = (i: number, op: string) => {
    if (!isOutput(i)) throw new ApiError(aErrMode, `analog ${i} ${op}: configuration ${regs.num(i, 'configuration')} is not an output (set configuration 1)`);
  };

  return makeEntity(ctx, 'analog', {
    registers: regs,
    // voltage: up to the widest range's full scale; above the present range's it is 409 (change range).
    limits: { voltage: range(0, MAX_FULL_SCALE), bulkcapturenumberofsamples: range(1, 4294967295) },
    get: {
      value: (i) => bits(i),
      voltage: (i) => toMicrovolts(bits(i), fullScale(i)),
      bulkcapturestate: (i) => captures.state(i),
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
        captures.start(i, regs.num(i, 'bulkcapturesamplerate'), regs.num(i, 'bulkcapturenumberofsamples'), regs.num(i, 'range'));
      },
    },
  });
}
