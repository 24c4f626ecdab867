// The board profile: which pins carry which entity, read once from the manifest's `config.board`
// (mc/config). An entity with no pins in the profile is absent from the module (404 aErrInvalidEntity).

import config from 'mc/config';
import { PWM_MIN_HZ } from './ledc';

export interface UartPins {
  /** ECMA-419 Serial port number (UART1, UART2 on ESP32). */
  readonly port: number;
  readonly transmit: number;
  readonly receive: number;
}

export interface BoardProfile {
  readonly name: string;
  /** system/model: the BrainStem model enumeration this board answers as (docs/api.md §Units and codes). */
  readonly model: number;
  readonly hardwareVersion: number;
  /** system/module: the module address at the factory. */
  readonly moduleAddress: number;
  readonly digital: readonly number[];
  readonly analog: readonly number[];
  /**
   * Full-scale input of the ADC in µV, as the SDK scales its readings: on ESP32 2,450,000 at 12 dB
   * attenuation (modules/io/analog/esp32/_analog.c maps calibrated millivolts to 0..4095 over 2,450 mV).
   */
  readonly analogFullScale: number;
  /** ESP32 ADC attenuation in dB (0, 2.5, 6 or 12) passed to each input; -1 leaves the SDK's default. */
  readonly analogAttenuation: number;
  readonly servo: readonly number[];
  readonly signal: readonly number[];
  readonly uart: readonly UartPins[];
  /** PWM outputs that can run at once (LED, servos, signals): 4 on ESP32, the SDK's LEDC channels 4..7. */
  readonly pwmChannels: number;
  /**
   * The lowest whole frequency (Hz) the board's PWM makes, so the longest signal period is 1e9 / it
   * ns: 2 on ESP32 (hal/device/ledc.ts), 8 on RP2040, whose 8-bit integer clock divider the SDK
   * overflows below that (docs/pico.md).
   */
  readonly pwmMinHz: number;
  /** system/led: an LED pin, or -1 for none. */
  readonly led: number;
  /** false when the LED is only on or off (no PWM reaches it: the Pico W's, on the Wi-Fi chip). */
  readonly ledDimmable: boolean;
  readonly storeSlots: number;
  readonly slotCapacity: number;
  /**
   * false when the board's `net` module gives no DNS servers (the Pico W: modules/network/net/pico/modNet.c
   * comments "DNS" out): ethernet/0/ipv4dnsaddress is then left out (501 aErrUnimplemented), not 0.0.0.0.
   */
  readonly readsDns: boolean;
  /**
   * Bytes one socket write may carry, 0 for no bound: one TCP segment on the Pico W, where lwIP makes
   * every segment one full-MSS pbuf from a 4,000-byte heap (docs/pico.md §Answers on the wire).
   */
  readonly writeMax: number;
  /** Sockets that may hold unacknowledged answer bytes at once, 0 for no bound (2 on the Pico W). */
  readonly sendingMax: number;
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
    analogFullScale: num(b.analogFullScale, 2450000),
    analogAttenuation: num(b.analogAttenuation, -1),
    servo: numbers(b.servo),
    signal: numbers(b.signal),
    uart: uarts(b.uart),
    pwmChannels: num(b.pwmChannels, 4),
    pwmMinHz: Math.max(PWM_MIN_HZ, num(b.pwmMinHz, PWM_MIN_HZ)),
    led: num(b.led, -1),
    ledDimmable: b.ledDimmable !== false,
    storeSlots: num(b.storeSlots, 0),
    slotCapacity: num(b.slotCapacity, 0),
    readsDns: b.readsDns !== false,
    writeMax: num(b.writeMax, 0),
    sendingMax: num(b.sendingMax, 0),
  };
}

/** The profile of this build. */
export function board(): BoardProfile {
  return readBoard(config.board as Raw | undefined);
}
