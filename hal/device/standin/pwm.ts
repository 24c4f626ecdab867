// Desktop-host (lin) stand-in for embedded:io/pwm: keeps the duty written at the resolution asked for
// (10 bits unless given, as the SDK's ESP32 PWM); a frequency outside 1 Hz..40 MHz throws RangeError.

export default class PWM {
  readonly resolution: number;
  readonly hz: number;
  private readonly pin: number;
  private value = 0;

  constructor(options: { pin: number; hz?: number; resolution?: number }) {
    const hz = options.hz ?? 1024;
    if (!(hz >= 1 && hz <= 40000000)) throw new RangeError(`invalid frequency ${hz}`);
    this.pin = options.pin;
    this.hz = hz;
    this.resolution = options.resolution ?? 10;
  }

  write(value: number): void {
    this.value = value;
  }

  close(): void {
    this.value = 0;
  }

  get format(): 'number' { return 'number'; }
  set format(_value: 'number') { /* only number */ }
}
Object.freeze(PWM.prototype);
