// An LED that is only on or off: the Pico W's sits on the Wi-Fi chip's GPIO (ECMA-419 Digital pin 32),
// which no PWM reaches. It takes the calls a PwmPin takes; any duty above zero is on. The board
// profile says which kind its LED is (ledDimmable).

import Digital from 'embedded:io/digital';
import { ApiError, aErrIO } from '../kit/errors';

/** What the system entity drives its LED through: a PwmPin, or an OnOffPin. */
export interface LedOutput {
  drive(hz: number, duty: number): void;
  stop(): void;
}

export class OnOffPin implements LedOutput {
  private readonly pin: number;
  private io: Digital | null = null;

  constructor(pin: number) {
    this.pin = pin;
  }

  drive(_hz: number, duty: number): void {
    // Off before the first on needs no output: the LED is off from power-up, and opening the Pico W's
    // starts the Wi-Fi chip.
    if (!this.io && duty <= 0) return;
    try {
      if (!this.io) this.io = new Digital({ pin: this.pin, mode: Digital.Output });
      this.io.write(duty > 0 ? 1 : 0);
    } catch (e) {
      this.release();
      throw new ApiError(aErrIO, `pin ${this.pin}: ${(e as Error).message}`);
    }
  }

  /** Off: the output stays open and low (closing it would leave the LED as it was). */
  stop(): void {
    if (this.io) this.drive(0, 0);
  }

  private release(): void {
    const io = this.io;
    this.io = null;
    if (io) io.close();
  }
}
Object.freeze(OnOffPin.prototype);
