// One PWM output that can change frequency: an ECMA-419 PWM has its frequency for life, so a new one is
// opened when it changes. Shared by servo (50 Hz), signal (any period) and the LED.
// An output holds one of the board's PWM channels only while it runs (PwmChannels: an ESP32 gives the
// SDK's PWM four LEDC channels); a stopped output gives it back and its pin is a plain output driven
// low. That also takes the pin off the LEDC: the SDK leaves a closed channel's pin attached while
// another channel shares its timer, where it would copy the next output opened on that channel.

import Digital from 'embedded:io/digital';
import PWM from 'embedded:io/pwm';
import { ApiError, aErrIO, aErrMode, aErrRange } from '../kit/errors';
import { ledcResolution, PWM_MAX_HZ, PWM_MIN_HZ } from './ledc';

/** The PWM channels of the board, shared by every output. */
export class PwmChannels {
  readonly max: number;
  used = 0;
  constructor(max: number) {
    this.max = max;
  }
}
Object.freeze(PwmChannels.prototype);

export class PwmPin {
  private readonly pin: number;
  private readonly name: string;
  private readonly channels: PwmChannels;
  private io: PWM | null = null;
  /** The pin as a plain output (low) while no PWM runs on it. */
  private idle: Digital | null = null;
  private hz = 0;

  /** `name` says whose output it is in error messages ("servo/0"). */
  constructor(pin: number, name: string, channels: PwmChannels) {
    this.pin = pin;
    this.name = name;
    this.channels = channels;
  }

  /** Drive `duty` (0..1) at `hz`; hz 0 stops the output (pin low). */
  drive(hz: number, duty: number): void {
    if (hz <= 0) {
      this.stop();
      return;
    }
    const bits = ledcResolution(hz);
    if (!bits) throw new ApiError(aErrRange, `${this.name}: ${hz} Hz is outside what the PWM makes (${PWM_MIN_HZ}..${PWM_MAX_HZ} Hz)`);
    if (!this.io && this.channels.used >= this.channels.max) {
      throw new ApiError(aErrMode, `${this.name}: all ${this.channels.max} PWM channels are in use; disable another servo, signal or the LED first`);
    }
    try {
      if (!this.io || this.hz !== hz) this.open(hz, bits);
      const io = this.io!;
      const max = Math.pow(2, io.resolution) - 1;
      io.write(Math.round(Math.min(1, Math.max(0, duty)) * max));
    } catch (e) {
      this.stop();
      if (e instanceof RangeError) throw new ApiError(aErrRange, `${this.name}: ${hz} Hz is not possible (${e.message})`);
      throw new ApiError(aErrIO, `${this.name} (pin ${this.pin}): ${(e as Error).message}`);
    }
  }

  /** No output: the channel goes back, the pin is a plain output driven low. */
  stop(): void {
    this.close();
    if (this.idle) return;
    try {
      const d = new Digital({ pin: this.pin, mode: Digital.Output });
      d.write(0);
      this.idle = d;
    } catch (e) {
      trace(`${this.name} (pin ${this.pin}): ${(e as Error).message}\n`);
    }
  }

  private open(hz: number, bits: number): void {
    this.close();
    const idle = this.idle;
    this.idle = null;
    if (idle) idle.close();
    // The SDK takes `resolution`; the typings leave it out (a variable passes where a literal would not).
    const options = { pin: this.pin, hz, resolution: bits };
    this.io = new PWM(options);
    this.hz = hz;
    this.channels.used++;
  }

  private close(): void {
    const io = this.io as (PWM & { close?(): void }) | null;
    if (!io) return;
    this.io = null;
    this.hz = 0;
    this.channels.used--;
    if (io.close) io.close();
  }
}
Object.freeze(PwmPin.prototype);
