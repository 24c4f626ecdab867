// What the fake ECMA-419 io classes (digital, analog, pwm, serial) record, for assertions: pin levels,
// analog readings, PWM outputs and open serial ports. Shared by the fake modules; reset between tests.

export const pins = {
  /** Digital level per pin (an output's last write; an input reads it too). */
  level: new Map<number, number>(),
  /** Raw 12-bit analog reading per pin. */
  analog: new Map<number, number>(),
  /** Pins with an Analog open (the Pico's ADC samples the channel of the last one made). */
  analogOpen: new Set<number>(),
  /** Open PWM outputs: pin -> {hz, value (10-bit duty)}. */
  pwm: new Map<number, { hz: number; value: number }>(),
  /** Open serial ports: port -> baud. */
  serial: new Map<number, number>(),
};

export function resetPins(): void {
  pins.level.clear();
  pins.analog.clear();
  pins.analogOpen.clear();
  pins.pwm.clear();
  pins.serial.clear();
}
