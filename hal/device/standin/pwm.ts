// Desktop-host (lin) stand-in for embedded:io/pwm: keeps the duty written at a 10-bit resolution; a
// frequency outside 1 Hz..40 MHz throws RangeError as the ESP32 LEDC driver does.

export default class PWM {
  readonly resolution = 10;
  readonly hz: number;
  private readonly pin: number;
  private value = 0;

  constructor(options: { pin: number; hz?: number }) {
    const hz = options.hz ?? 1024;
    if (!(hz >= 1 && hz <= 40000000)) throw new RangeError(`invalid frequency ${hz}`);
    this.pin = options.pin;
    this.hz = hz;
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
