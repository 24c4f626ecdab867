// One PWM output that can change frequency: an ECMA-419 PWM has its frequency for life, so a new one is
// opened when it changes. Shared by servo (50 Hz) and signal (any period).

import PWM from 'embedded:io/pwm';
import { ApiError, aErrIO, aErrRange } from '../kit/errors';

export class PwmPin {
  private readonly pin: number;
  private io: PWM | null = null;
  private hz = 0;

  constructor(pin: number) {
    this.pin = pin;
  }

  /** Drive `duty` (0..1) at `hz`; hz 0 or duty < 0 stops the output (pin low). */
  drive(hz: number, duty: number): void {
    if (hz <= 0) {
      this.stop();
      return;
    }
    try {
      if (!this.io || this.hz !== hz) {
        this.stop();
        this.io = new PWM({ pin: this.pin, hz });
        this.hz = hz;
      }
      const max = (1 << this.io.resolution) - 1;
      this.io.write(Math.round(Math.min(1, Math.max(0, duty)) * max));
    } catch (e) {
      this.stop();
      // The LEDC timer cannot make every frequency: a range error names the asked-for one.
      if (e instanceof RangeError) throw new ApiError(aErrRange, `pin ${this.pin}: ${hz} Hz is not possible (${e.message})`);
      throw new ApiError(aErrIO, `pin ${this.pin}: ${(e as Error).message}`);
    }
  }

  stop(): void {
    const io = this.io as (PWM & { close?(): void }) | null;
    this.io = null;
    this.hz = 0;
    if (io && io.close) io.close();
  }
}
Object.freeze(PwmPin.prototype);
