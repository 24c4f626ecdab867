// The board profile: which pins carry which entity, read once from the manifest's `config.board`
// (mc/config). An entity with no pins in the profile is absent from the module (404 aErrInvalidEntity).

import config from 'mc/config';

export interface UartPins {
  /** ECMA-419 Serial port number (UART1, UART2 on ESP32). */
  readonly port: number;
  readonly transmit: number;
  readonly receive: number;
}

export interface BoardProfile {
  readonly name: string;
  /** system/model: the BrainStem model enumeration this board answers as (DECISIONS.md §Units). */
  readonly model: number;
  readonly hardwareVersion: number;
  /** system/module: the module address at the factory. */
  readonly moduleAddress: number;
  readonly digital: readonly number[];
  readonly analog: readonly number[];
  /** Full-scale input of the ADC in µV (ESP32 at 11 dB attenuation: about 3.1 V). */
  readonly analogFullScale: number;
  readonly servo: readonly number[];
  readonly signal: readonly number[];
  readonly uart: readonly UartPins[];
  /** system/led: an LED pin, or -1 for none. */
  readonly led: number;
  /** false when the LED is only on or off (no PWM reaches it: the Pico W's, on the Wi-Fi chip). */
  readonly ledDimmable: boolean;
  readonly storeSlots: number;
  readonly slotCapacity: number;
}

type Raw = { readonly [key: string]: unknown };

function numbers(v: unknown): number[] {
  const out: number[] = [];
  if (Array.isArray(v)) for (const x of v) if (typeof x === 'number') out.push(x);
  return out;
}

function num(v: unknown, dflt: number): number {
  return typeof v === 'number' ? v : dflt;
}

function uarts(v: unknown): UartPins[] {
  const out: UartPins[] = [];
  if (!Array.isArray(v)) return out;
  for (const u of v as Raw[]) {
    if (u && typeof u.port === 'number' && typeof u.transmit === 'number' && typeof u.receive === 'number') {
      out.push({ port: u.port, transmit: u.transmit, receive: u.receive });
    }
  }
  return out;
}

export function readBoard(raw: Raw | undefined): BoardProfile {
  const b: Raw = raw ?? {};
  return {
    name: typeof b.name === 'string' ? b.name : 'generic',
    model: num(b.model, 5),
    hardwareVersion: num(b.hardwareVersion, 1),
    moduleAddress: num(b.moduleAddress, 2),
    digital: numbers(b.digital),
    analog: numbers(b.analog),
    analogFullScale: num(b.analogFullScale, 3100000),
    servo: numbers(b.servo),
    signal: numbers(b.signal),
    uart: uarts(b.uart),
    led: num(b.led, -1),
    ledDimmable: b.ledDimmable !== false,
    storeSlots: num(b.storeSlots, 0),
    slotCapacity: num(b.slotCapacity, 0),
  };
}

/** The profile of this build. */
export function board(): BoardProfile {
  return readBoard(config.board as Raw | undefined);
}
