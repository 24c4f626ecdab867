// digital: pins configured as input, output, RC servo, HighZ or link ends. Outputs read back what they
// drive; inputs read the simulated level (or, for a link input, the linked link output). servo is built
// on the digital pin of the same index: enabling a servo configures that pin as an RC servo output.

import { ApiError, aErrMode } from '../kit/errors';
import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { indexOf, range } from './limits';
import { asBool, asNumber, checkIndex } from '../kit/value-guards';

export const CONFIG_INPUT = 0;
export const CONFIG_OUTPUT = 1;
export const CONFIG_SERVO_OUTPUT = 3;
/** Link configurations among the 5..10 variants: a link input follows its link output. */
export const CONFIG_LINK_INPUT = 5;
export const CONFIG_LINK_OUTPUT = 6;
const DRIVEN = [CONFIG_OUTPUT, CONFIG_SERVO_OUTPUT, CONFIG_LINK_OUTPUT];

export interface DigitalModel {
  digital: HalOf<'digital'>;
  servo: HalOf<'servo'>;
  setInput(index: number, level: boolean): void;
}

export function createDigital(ctx: SimContext): DigitalModel {
  const n = ctx.count('digital');
  const regs = ctx.registers('digital', {
    configuration: CONFIG_INPUT,
    state: false, // the level an output drives
    linkchannel: (i) => i, // own index = not linked
  });
  let inputs = ctx.profile.digitalInputs;
  const config = (i: number) => regs.num(i, 'configuration');
  const driven = (i: number) => DRIVEN.indexOf(config(i)) >= 0;

  const level = (i: number, depth = 0): boolean => {
    if (driven(i)) return regs.bool(i, 'state');
    if (config(i) === CONFIG_LINK_INPUT && depth === 0) {
      const other = regs.num(i, 'linkchannel');
      // Two pins link when each holds the other's index and the other is a link output.
      if (other !== i && other < n && config(other) === CONFIG_LINK_OUTPUT && regs.num(other, 'linkchannel') === i) {
        return level(other, 1);
      }
    }
    return (inputs & (1 << i)) !== 0;
  };
  const drive = (i: number, on: boolean) => {
    if (!driven(i)) {
      throw new ApiError(aErrMode, `digital ${i} is not an output (configuration ${config(i)}); set configuration 1 first`);
    }
    regs.write(i, 'state', [], on);
  };

  const digital = makeEntity(ctx, 'digital', {
    registers: regs,
    limits: { value: range(0, 1), linkchannel: indexOf(n) },
    get: {
      state: (i) => level(i),
      value: (i) => (level(i) ? 1 : 0),
      stateall: () => {
        let m = 0;
        for (let i = 0; i < n && i < 32; i++) if (level(i)) m |= 1 << i;
        return m >>> 0;
      },
    },
    set: {
      state: (i, _p, v) => drive(i, asBool(v, 'state')),
      value: (i, _p, v) => {
        drive(i, asNumber(v, 'value') === 1);
      },
      // Bit N drives digital N when it is an output; bits of inputs (and beyond the pins) are ignored.
      stateall: (_i, _p, v) => {
        const m = asNumber(v, 'stateall');
        for (let i = 0; i < n && i < 32; i++) if (driven(i)) regs.write(i, 'state', [], (m & (1 << i)) !== 0);
      },
      linkchannel: (i, _p, v) => regs.write(i, 'linkchannel', [], asNumber(v, 'linkchannel')),
    },
  });

  const servoRegs = ctx.registers('servo', { position: 128, reverse: false });
  const servo = makeEntity(ctx, 'servo', {
    registers: servoRegs,
    get: { enable: (i) => i < n && config(i) === CONFIG_SERVO_OUTPUT },
    set: {
      enable: (i, _p, v) => {
        checkIndex('servo pin', i, n);
        const on = asBool(v, 'enable');
        if (on) regs.write(i, 'configuration', [], CONFIG_SERVO_OUTPUT);
        else if (config(i) === CONFIG_SERVO_OUTPUT) regs.write(i, 'configuration', [], CONFIG_INPUT);
      },
    },
  });

  return {
    digital,
    servo,
    setInput: (i, on) => {
      inputs = on ? inputs | (1 << i) : inputs & ~(1 << i);
    },
  };
}
