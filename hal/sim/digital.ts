// digital: pins configured as input, output, RC servo, HighZ or link ends. Outputs read back what they
// drive; inputs read the simulated level (or, for a link input, the linked link output). servo is built
// on the digital pin of the same index: enabling a servo configures that pin as an RC servo output.
// The pin logic is digital-pins.ts; this file wires it into the two entities.

import type { HalOf } from '../types';
import type { SimContext } from './context';
import { CONFIG_INPUT, CONFIG_SERVO_OUTPUT, DigitalPins } from './digital-pins';
import { makeEntity } from './entity';
import { indexOf, range } from './profile-limits';
import { asBool, asNumber, checkIndex } from '../kit/value-guards';

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
  const pins = new DigitalPins(regs, ctx.profile.digitalInputs);

  const digital = makeEntity(ctx, 'digital', {
    registers: regs,
    limits: { value: range(0, 1), linkchannel: indexOf(n) },
    get: {
      state: (i) => pins.level(i),
      value: (i) => (pins.level(i) ? 1 : 0),
      stateall: () => pins.stateAll(),
    },
    set: {
      state: (i, _p, v) => pins.drive(i, asBool(v, 'state')),
      value: (i, _p, v) => {
        pins.drive(i, asNumber(v, 'value') === 1);
      },
      stateall: (_i, _p, v) => pins.driveAll(asNumber(v, 'stateall')),
      linkchannel: (i, _p, v) => regs.write(i, 'linkchannel', [], asNumber(v, 'linkchannel')),
    },
  });

  const servoRegs = ctx.registers('servo', { position: 128, reverse: false });
  const servo = makeEntity(ctx, 'servo', {
    registers: servoRegs,
    get: { enable: (i) => i < n && pins.config(i) === CONFIG_SERVO_OUTPUT },
    set: {
      enable: (i, _p, v) => {
        checkIndex('servo pin', i, n);
        pins.setServo(i, asBool(v, 'enable'));
      },
    },
  });

  return { digital, servo, setInput: (i, on) => pins.setInput(i, on) };
}
