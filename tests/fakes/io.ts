// What the fake ECMA-419 io classes (digital, analog, pwm, serial) record, for assertions: pin levels,
// analog readings, PWM outputs and open serial ports, and the ESP32 state behind them (pins held by an
// io object, LEDC channels and timers). Shared by the fake modules; reset between tests.

/** One LEDC timer: the frequency and resolution its channels share (modules/io/pwm/esp32/_pwm.c). */
export interface LedcTimer { hz: number; resolution: number; use: number }

export const pins = {
  /** Whose digital pulls the fake follows (tests/fakes/digital.ts): the ESP32's, or the Pico's. */
  chip: 'esp32' as 'esp32' | 'pico',
  /** Digital level per pin (an output's last write, or what drives an input from outside). */
  level: new Map<number, number>(),
  /** An input's pull where it has been set; a Pico pin never set has the RP2040's reset pull-down. */
  pull: new Map<number, 'up' | 'down' | 'none'>(),
  /** What an input with no pull and nothing driving it reads (it floats). */
  floating: 0,
  /** Raw 12-bit analog reading per pin. */
  analog: new Map<number, number>(),
  /** Millivolts on an analog pin: read through the ESP32 SDK's scale (tests/fakes/analog.ts). */
  millivolts: new Map<number, number>(),
  /** Pins with an Analog open (the Pico's ADC samples the channel of the last one made). */
  analogOpen: new Set<number>(),
  /** What each pin outputs from an LEDC channel: {hz, value (duty in `resolution` bits), resolution}. */
  pwm: new Map<number, { hz: number; value: number; resolution: number }>(),
  /** Open serial ports: port -> baud. */
  serial: new Map<number, number>(),
  /** Pins (and serial ports) whose hardware fails: opening or writing them throws Error. */
  broken: new Set<number>(),
  /** Pins an io object holds (the SDK's builtinIsPinFree): a second open throws "in use". */
  used: new Set<number>(),
  /** LEDC: free channels (bit n = channel n), the four timers, and the channel each pin is routed to. */
  ledc: { free: 0xf0, timers: [] as LedcTimer[], routed: new Map<number, number>() },
};

export function resetPins(): void {
  pins.chip = 'esp32';
  pins.level.clear();
  pins.pull.clear();
  pins.floating = 0;
  pins.analog.clear();
  pins.millivolts.clear();
  pins.analogOpen.clear();
  pins.pwm.clear();
  pins.serial.clear();
  pins.used.clear();
  pins.broken.clear();
  pins.ledc.free = 0xf0;
  pins.ledc.timers = [0, 1, 2, 3].map(() => ({ hz: 0, resolution: 0, use: 0 }));
  pins.ledc.routed.clear();
}
resetPins();

/** Throw as a failing driver does when `pin` is broken. */
export function check(pin: number): void {
  if (pins.broken.has(pin)) throw new Error(`hardware fault on ${pin}`);
}

/** A pin leaves the LEDC (a Digital selects it as a plain GPIO: esp_rom_gpio_pad_select_gpio). */
export function unroute(pin: number): void {
  pins.ledc.routed.delete(pin);
  pins.pwm.delete(pin);
}
