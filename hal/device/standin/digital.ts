// Desktop-host (lin) stand-in for embedded:io/digital, which the Moddable Linux host does not have.
// Pins are simulated levels: an output keeps what was written; an input reads what the last output on
// that pin wrote (a wire looped back), else 0. Same shape as the ECMA-419 class the HAL uses.

// Made on first use, at run time: a Map created while a device build preloads this module (it is
// imported by the preloaded hal/device/digital) would be read-only in flash.
let levels: Map<number, 0 | 1> | undefined;
const pinLevels = (): Map<number, 0 | 1> => (levels ??= new Map());

export default class Digital {
  static readonly Input = 0;
  static readonly InputPullUp = 1;
  static readonly InputPullDown = 2;
  static readonly InputPullUpDown = 3;
  static readonly Output = 8;
  static readonly OutputOpenDrain = 9;
  static readonly Rising = 1;
  static readonly Falling = 2;

  private readonly pin: number;
  private open = true;

  constructor(options: { pin: number; mode: number }) {
    this.pin = options.pin;
    if (!pinLevels().has(this.pin)) pinLevels().set(this.pin, options.mode === Digital.InputPullUp ? 1 : 0);
  }

  read(): 0 | 1 {
    return pinLevels().get(this.pin) ?? 0;
  }

  write(value: 0 | 1): void {
    if (!this.open) throw new Error('closed');
    pinLevels().set(this.pin, value ? 1 : 0);
  }

  close(): void {
    this.open = false;
  }

  get format(): 'number' { return 'number'; }
  set format(_value: 'number') { /* only number */ }
}
