// The digital pins' logic: what level a pin reads (the level it drives, the simulated input level, or
// the level of the link output it is linked to) and which pins an output write may drive. digital.ts
// wires it into the digital and servo entities.

import { ApiError, aErrMode } from '../kit/errors';
import type { RegisterFile } from './registers';

export const CONFIG_INPUT = 0;
export const CONFIG_OUTPUT = 1;
export const CONFIG_SERVO_OUTPUT = 3;
/** Link configurations among the 5..10 variants: a link input follows its link output. */
export const CONFIG_LINK_INPUT = 5;
export const CONFIG_LINK_OUTPUT = 6;
const DRIVEN = [CONFIG_OUTPUT, CONFIG_SERVO_OUTPUT, CONFIG_LINK_OUTPUT];
/** stateall holds one bit per pin, pins 0..31. */
const WORD_PINS = 32;

export class DigitalPins {
  /** The simulated level on each input pin, one bit per pin (SimModule.setDigitalInput). */
  private inputs: number;

  constructor(private readonly regs: RegisterFile, inputs: number) {
    this.inputs = inputs;
  }

  get count(): number {
    return this.regs.count;
  }

  config(i: number): number {
    return this.regs.num(i, 'configuration');
  }

  driven(i: number): boolean {
    return DRIVEN.indexOf(this.config(i)) >= 0;
  }

  level(i: number, depth = 0): boolean {
    const regs = this.regs;
    if (this.driven(i)) return regs.bool(i, 'state');
    if (this.config(i) === CONFIG_LINK_INPUT && depth === 0) {
      const other = regs.num(i, 'linkchannel');
      // Two pins link when each holds the other's index and the other is a link output.
      if (other !== i && other < this.count && this.config(other) === CONFIG_LINK_OUTPUT && regs.num(other, 'linkchannel') === i) {
        return this.level(other, 1);
      }
    }
    return (this.inputs & (1 << i)) !== 0;
  }

  drive(i: number, on: boolean): void {
    if (!this.driven(i)) {
      throw new ApiError(aErrMode, `digital ${i} is not an output (configuration ${this.config(i)}); set configuration 1 first`);
    }
    this.regs.write(i, 'state', [], on);
  }

  stateAll(): number {
    let m = 0;
    for (let i = 0; i < this.count && i < WORD_PINS; i++) if (this.level(i)) m |= 1 << i;
    return m >>> 0;
  }

  /** Bit N drives digital N when it is an output; bits of inputs (and beyond the pins) are ignored. */
  driveAll(m: number): void {
    for (let i = 0; i < this.count && i < WORD_PINS; i++) if (this.driven(i)) this.regs.write(i, 'state', [], (m & (1 << i)) !== 0);
  }

  /** Enabling a servo configures its pin as an RC servo output; disabling one makes it an input again. */
  setServo(i: number, on: boolean): void {
    if (on) this.regs.write(i, 'configuration', [], CONFIG_SERVO_OUTPUT);
    else if (this.config(i) === CONFIG_SERVO_OUTPUT) this.regs.write(i, 'configuration', [], CONFIG_INPUT);
  }

  setInput(i: number, on: boolean): void {
    this.inputs = on ? this.inputs | (1 << i) : this.inputs & ~(1 << i);
  }
}
Object.freeze(DigitalPins.prototype);
