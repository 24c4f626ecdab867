// digital: one ECMA-419 Digital per profile pin, reopened when its configuration changes (an io instance
// has one mode for life). Configurations a plain GPIO can do: 0 input, 1 output, 4 high-Z (input with
// no pull). The servo and link variants (2, 3, 5..10) need other hardware: 409 aErrMode.

import Digital from 'embedded:io/digital';
import { ApiError, aErrIO, aErrMode } from '../../src/api/errors';
import type { EntityHal, EntityOps } from '../types';
import { makeEntity } from './entity';
import type { Settings } from './settings';
import { asBool, asNumber } from './values';

type Op = EntityOps['digital'];
const INPUT = 0;
const OUTPUT = 1;
const HIGHZ = 4;

export interface DigitalModel {
  readonly entity: EntityHal<Op>;
  /** Open every pin in its configured mode (boot and soft reset). */
  apply(): void;
}

export function createDigital(s: Settings, pins: readonly number[]): DigitalModel {
  const io: (Digital | null)[] = pins.map(() => null);
  const level: number[] = pins.map(() => 0);
  const key = (i: number) => 'dio' + i + '.cfg';
  pins.forEach((_p, i) => s.define(key(i), INPUT));

  const open = (i: number): void => {
    const cfg = s.num(key(i));
    const old = io[i];
    io[i] = null;
    if (old) old.close();
    try {
      io[i] = cfg === OUTPUT
        ? new Digital({ pin: pins[i], mode: Digital.Output })
        : new Digital({ pin: pins[i], mode: Digital.Input });
      if (cfg === OUTPUT) io[i]!.write(level[i] ? 1 : 0);
    } catch (e) {
      throw new ApiError(aErrIO, `digital ${i} (pin ${pins[i]}): ${(e as Error).message}`);
    }
  };
  const pin = (i: number): Digital => {
    if (!io[i]) open(i);
    return io[i]!;
  };
  const read = (i: number): number => (s.num(key(i)) === OUTPUT ? level[i] : pin(i).read());
  const write = (i: number, v: number): void => {
    if (s.num(key(i)) !== OUTPUT) throw new ApiError(aErrMode, `digital ${i} is not configured as an output (configuration 1)`);
    level[i] = v ? 1 : 0;
    pin(i).write(v ? 1 : 0);
  };

  const entity = makeEntity('digital', {
    count: pins.length,
    get: {
      configuration: (i) => s.num(key(i)),
      state: (i) => read(i) === 1,
      value: (i) => read(i),
      stateall: () => {
        let bits = 0;
        for (let i = 0; i < pins.length; i++) bits |= read(i) << i;
        return bits >>> 0;
      },
    },
    set: {
      configuration: (i, _p, v) => {
        const cfg = asNumber(v, 'configuration');
        if (cfg !== INPUT && cfg !== OUTPUT && cfg !== HIGHZ) {
          throw new ApiError(aErrMode, `digital ${i}: configuration ${cfg} is not available on this board (0 input, 1 output, 4 high-Z)`);
        }
        s.set(key(i), cfg);
        open(i);
      },
      state: (i, _p, v) => write(i, asBool(v, 'state') ? 1 : 0),
      value: (i, _p, v) => write(i, asNumber(v, 'value') ? 1 : 0),
      stateall: (_i, _p, v) => {
        // Sets the outputs only; inputs keep reading their pins (bits for them are ignored).
        const bits = asNumber(v, 'stateall');
        for (let i = 0; i < pins.length; i++) {
          if (s.num(key(i)) === OUTPUT) write(i, (bits >>> i) & 1);
        }
      },
    },
  });
  return {
    entity,
    apply: () => { for (let i = 0; i < pins.length; i++) open(i); },
  };
}
