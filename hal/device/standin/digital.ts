// Desktop-host (lin) stand-in for embedded:io/digital, which the Moddable Linux host does not have.
// Pins are simulated levels: an output keeps what was written; an input reads what the last output on
// that pin wrote (a wire looped back), else 0. Same shape as the ECMA-419 class the HAL uses.
// The levels live in a global made at run time, not in module state: this module may be preloaded, and
// a preloaded module's data is frozen in flash.

function wires(): Map<number, 0 | 1> {
  const g = globalThis as { standinDigitalLevels?: Map<number, 0 | 1> };
  if (!g.standinDigitalLevels) g.standinDigitalLevels = new Map<number, 0 | 1>();
  return g.standinDigitalLevels;
}

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
    const levels = wires();
    if (!levels.has(this.pin)) levels.set(this.pin, options.mode === Digital.InputPullUp ? 1 : 0);
  }

  read(): 0 | 1 {
    return wires().get(this.pin) ?? 0;
  }

  write(value: 0 | 1): void {
    if (!this.open) throw new Error('closed');
    wires().set(this.pin, value ? 1 : 0);
  }

  close(): void {
    this.open = false;
  }

  get format(): 'number' { return 'number'; }
  set format(_value: 'number') { /* only number */ }
}
Object.freeze(Digital.prototype);
