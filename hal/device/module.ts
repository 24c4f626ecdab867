// Wires the device module: settings, the board's entities, and the reset that waits for its answer.
// Entities the board profile gives no pins are left out (404 aErrInvalidEntity); operations a board
// cannot do are left out of each entity's handlers (501 aErrUnimplemented).

import type { EntityHal, EntityName, EntityOps, ModuleEntities, ModuleHal } from '../types';
import { createAnalog } from './analog';
import type { BoardProfile } from './board';
import { createClock } from './clock';
import { createDigital } from './digital';
import { createEthernet, defineEthernetSettings, portKey } from './ethernet';
import type { PortApi } from './port/api';
import { PwmPin } from './pwm-pin';
import { createServo } from './servo';
import { Settings } from './settings';
import { createSignal } from './signal';
import { createStore } from './store';
import { createSystem, defineSystemSettings, type Firmware } from './system';
import { createUart } from './uart';
import { macBytes } from './values';

export interface DeviceOptions {
  readonly board: BoardProfile;
  readonly port: PortApi;
  readonly firmware: Firmware;
  /** config.serial: a fixed serial number; 0 derives it from the MAC. */
  readonly serial: number;
  /** The REST port at the factory (config.http.port). */
  readonly httpPort: number;
  /**
   * Called once the answer to system/reset has been handed to the transport; `restart` does the reset.
   * The caller runs it when that answer has left (device transport flushed).
   */
  readonly onReset: (restart: () => void) => void;
}

export interface DeviceModule extends ModuleHal {
  /** The REST port to listen on: the saved ethernet/0/interfaceport/0 (DECISIONS.md §Addresses). */
  httpPort(): number;
}

type Mutable = { -readonly [E in EntityName]?: EntityHal<EntityOps[E]> };

/** The low 32 bits of the MAC: unique per chip, stable across flashes. */
export function serialFromMac(mac: string): number {
  const b = macBytes(mac);
  return ((b[2] << 24) | (b[3] << 16) | (b[4] << 8) | b[5]) >>> 0;
}

export function createDeviceModule(o: DeviceOptions): DeviceModule {
  const b = o.board;
  const settings = new Settings('brainstem');
  defineSystemSettings(settings, b);
  defineEthernetSettings(settings, o.httpPort);
  const serial = (o.serial >>> 0) || serialFromMac(o.port.macAddress());

  let resetPending = false;
  const led = b.led >= 0 ? new PwmPin(b.led) : null;
  const system = createSystem(settings, b, serial, o.firmware, {
    led: led ? (on, brightness) => led.drive(1000, on ? brightness / 255 : 0) : undefined,
    requestReset: () => { resetPending = true; },
  });
  const clock = createClock();
  const digital = b.digital.length ? createDigital(settings, b.digital) : null;
  const servo = b.servo.length ? createServo(settings, b.servo) : null;
  const signal = b.signal.length ? createSignal(settings, b.signal) : null;
  const uart = b.uart.length ? createUart(settings, b.uart) : null;

  const entities: Mutable = { system: system.entity, clock: clock.entity, ethernet: createEthernet(settings, o.port) };
  if (digital) entities.digital = digital.entity;
  if (servo) entities.servo = servo.entity;
  if (signal) entities.signal = signal.entity;
  if (uart) entities.uart = uart.entity;
  if (b.analog.length) entities.analog = createAnalog(b.analog, b.analogFullScale);
  if (b.storeSlots > 0) entities.store = createStore(b.storeSlots, b.slotCapacity);

  /** Put the hardware in its saved state: at boot and after a soft reset. */
  const boot = (): void => {
    system.reboot();
    const outputs = [digital, servo, signal, uart];
    for (const m of outputs) {
      if (!m) continue;
      try { m.apply(); } catch (e) { trace(`boot: ${(e as { message?: string }).message ?? e}\n`); }
    }
  };
  // On the desktop host there is no chip to restart: drop unsaved settings and boot again.
  const restart = (): void => {
    if (o.port.restart()) return;
    trace('reset: soft reset (no restart on this platform)\n');
    settings.reload();
    boot();
  };
  boot();

  return {
    serialNumber: serial,
    entities: entities as ModuleEntities,
    now: clock.now,
    afterResponse: () => {
      if (!resetPending) return;
      resetPending = false;
      o.onReset(restart);
    },
    httpPort: () => settings.num(portKey(0)),
  };
}
