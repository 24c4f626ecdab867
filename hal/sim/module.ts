// Wires one simulated module from a profile: the shared context, the models several entities share
// (stores, ports), and one EntityHal per entity the profile counts.

import type { EntityName, HalOf, ModuleHal } from '../types';
import { createAnalog } from './analog';
import { createClock } from './clock';
import { SimContext } from './context';
import { createDigital } from './digital';
import { createEthernet } from './ethernet';
import { createHdbaset } from './hdbaset';
import { createEqualizer, createRelay, createTemperature, createUnsupported } from './misc';
import { createMux } from './mux';
import { memoryStorage, type SimStorage } from './persist';
import { createPoe } from './poe';
import { createPointer } from './pointer';
import { createPort } from './port-entity';
import { PortModel } from './ports';
import { createPowerDelivery } from './powerdelivery';
import { EVERYTHING, type PortDevice, type SimProfile } from './profile';
import { createRails } from './rail';
import { createStore, StoreModel } from './store';
import { createSystem } from './system';
import { FirmwareSlots } from './firmware-slots';
import { createSignal, createTimer } from './timing';
import { createUart } from './uart';
import { createUsb } from './usb';
import { createUsbSystem } from './usbsystem';
import { createUserConfig } from './userconfig';

export interface SimOptions {
  /** The module's serial number; default 0x1234ABCD. */
  serialNumber?: number;
  /** Wall time source, ms since the epoch; default Date.now. Tests inject a fake. */
  now?: () => number;
  /** Time resolution of the models when nothing changed, ms (SimContext); default 0, exact. */
  timeStepMs?: number;
  /** Where saved settings and flash live (JSON text); default in memory. */
  storage?: SimStorage;
  /** What the module is made of; default EVERYTHING (every entity). */
  profile?: SimProfile;
}

/** The simulated module: a ModuleHal plus the knobs a test or the desktop simulator turns. */
export interface SimModule extends ModuleHal {
  readonly profile: SimProfile;
  /** A system/reset waits for afterResponse(). */
  resetPending(): boolean;
  /** Run `hook` after every system/reset, once the saved settings are back in effect. */
  onReset(hook: () => void): void;
  /** Module address and ethernet service ports in effect since the last reset. */
  moduleAddress(): number;
  activeInterfacePort(service: number): number;
  /** Simulated world: the load across a rail, the device in a USB port, the level on a digital input. */
  setRailLoad(rail: number, milliohm: number): void;
  setPortDevice(port: number, device: PortDevice | null): void;
  setDigitalInput(index: number, level: boolean): void;
  /** Its two firmware slots (firmware-slots.ts): the simulator's FirmwareHal restarts it through them. */
  readonly slots: FirmwareSlots;
}

type MutableEntities = { -readonly [E in EntityName]?: HalOf<E> };

// eslint-disable-next-line max-lines-per-function -- HAL factory: one table of behaviours (the module's entities and knobs, wiring only)
export function createSimModule(options: SimOptions = {}): SimModule {
  const profile = options.profile ?? EVERYTHING;
  const serial = (options.serialNumber ?? 0x1234abcd) >>> 0;
  const now = options.now ?? (() => Date.now());
  const ctx = new SimContext(serial, profile, now, options.storage ?? memoryStorage(), options.timeStepMs);
  const has = (e: EntityName) => ctx.count(e) > 0;

  const stores = new StoreModel(ctx);
  const ports = new PortModel(ctx);
  const rails = createRails(ctx);
  const slots = new FirmwareSlots(ctx);
  const system = createSystem(ctx, stores, () => rails.totalPower() + ports.totalPower(), slots);
  const ethernet = createEthernet(ctx);
  const digital = createDigital(ctx);

  const entities: MutableEntities = {};
  const add = <E extends EntityName>(name: E, make: () => HalOf<E>) => {
    if (has(name)) entities[name] = make() as MutableEntities[E];
  };
  add('system', () => system.entity);
  add('clock', () => createClock(ctx));
  add('rail', () => rails.entity);
  add('port', () => createPort(ctx, ports));
  add('usb', () => createUsb(ctx, ports));
  add('usbsystem', () => createUsbSystem(ctx, ports));
  add('powerdelivery', () => createPowerDelivery(ctx));
  add('ethernet', () => ethernet.entity);
  add('poe', () => createPoe(ctx));
  add('uart', () => createUart(ctx));
  add('analog', () => createAnalog(ctx, stores));
  add('digital', () => digital.digital);
  add('servo', () => digital.servo);
  add('signal', () => createSignal(ctx));
  add('mux', () => createMux(ctx));
  add('hdbaset', () => createHdbaset(ctx));
  add('store', () => createStore(ctx, stores));
  add('timer', () => createTimer(ctx));
  add('pointer', () => createPointer(ctx, stores));
  add('temperature', () => createTemperature(ctx));
  add('relay', () => createRelay(ctx));
  add('equalizer', () => createEqualizer(ctx));
  add('userconfig', () => createUserConfig(ctx));
  add('app', () => createUnsupported(ctx, 'app'));
  add('i2c', () => createUnsupported(ctx, 'i2c'));

  return {
    serialNumber: serial,
    name: profile.name,
    entities,
    profile,
    now: () => ctx.moduleNow(),
    afterResponse: () => {
      if (system.takeReset()) ctx.reboot();
    },
    serving: () => slots.serving(),
    slots,
    resetPending: () => system.resetPending(),
    onReset: (hook) => ctx.onReboot(hook),
    moduleAddress: () => system.moduleAddress(),
    activeInterfacePort: (service) => ethernet.activePort(service),
    setRailLoad: (rail, milliohm) => {
      ctx.touch(); // account energy and faults up to now under the old load
      rails.setLoad(rail, milliohm);
    },
    setPortDevice: (port, device) => ports.setDevice(port, device),
    setDigitalInput: (index, level) => digital.setInput(index, level),
  };
}
