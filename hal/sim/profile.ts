// What a simulated module is made of, as data: instance counts, the capability table, and the simulated
// hardware around it (rail ratings, devices plugged into the USB ports, the PD partner, store slots).
// A new module type is a new SimProfile value; no entity code changes (USB hub, power module...).

import type { EntityName, EntityOps } from '../types';

export interface RailSpec {
  readonly maxVoltage: number; // uV
  readonly maxCurrent: number; // uA
  readonly maxPower: number; // mW
  /** false: `enable` answers aErrUnimplemented (a fixed rail). */
  readonly switchable: boolean;
  /** Simulated load across the rail output at power-up, mOhm (SimModule.setRailLoad changes it). */
  readonly loadMilliohm: number;
}

export type UsbSpeed = 'low' | 'full' | 'high' | 'super';

/** A device plugged into a USB port: what it draws from Vbus and the fastest link it can do. */
export interface PortDevice {
  readonly loadMicroamp: number;
  readonly speed: UsbSpeed;
  /** Current an e-marked cable draws from Vconn, uA (0: no e-marker). */
  readonly vconnMicroamp: number;
}

/** A fixed-supply PDO table entry, in mV and mA (0,0 = empty rule). */
export type Pdo = readonly [number, number];

export interface PdPartner {
  /** What the far end can be: 'sink' (a phone) or 'source' (a charger). */
  readonly role: 'sink' | 'source';
  readonly pdos: readonly Pdo[];
  /** e-mark answers: voltage, current, speed, type, orientation (powerdelivery cable* enumerations). */
  readonly cable: readonly [number, number, number, number, number];
}

export interface StoreSpec {
  readonly name: string;
  /** Capacity of each slot, bytes. */
  readonly slots: readonly number[];
  /** true: contents survive reset and power cycles (kept in SimStorage). */
  readonly persistent: boolean;
}

/** The internal flash store every modelled module has: 12 slots of 1 KiB, kept across resets. */
export const INTERNAL_STORE: StoreSpec = {
  name: 'internal', slots: [1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024, 1024], persistent: true,
};

/** What a modelled module has none of unless its profile says otherwise: spread first, then override. */
export const BARE_MODULE = {
  moduleHardwareOffset: 0,
  rails: [],
  portDevices: [],
  muxChannels: 0,
  equalizerChannels: 0,
  padSize: 1024,
  pdPartners: [],
  digitalInputs: 0,
  uartProtocols: 0,
} as const satisfies Partial<SimProfile>;

export type Capabilities = { readonly [E in EntityName]?: 'none' | readonly EntityOps[E][] };

export interface SimProfile {
  readonly name: string;
  /** system/model (docs/api.md §Units and codes). */
  readonly model: number;
  /** Instances of each entity; an entity left out (or 0) is absent: 404 aErrInvalidEntity. */
  readonly counts: { readonly [E in EntityName]?: number };
  /** Operations the module cannot do (501): 'none' = the whole entity, or a list of operations. */
  readonly unsupported: Capabilities;
  readonly moduleBaseAddress: number;
  readonly moduleHardwareOffset: number;
  readonly rails: readonly RailSpec[];
  /** Devices in the port entity's ports at power-up (null = empty port); also the usb channels. */
  readonly portDevices: readonly (PortDevice | null)[];
  readonly muxChannels: number;
  readonly equalizerChannels: number;
  readonly padSize: number;
  /** Store handles: 0 = internal, 1 = RAM, 2 = SD, 3 = EEPROM; a handle beyond this list is absent. */
  readonly stores: readonly StoreSpec[];
  /** Partner on the far end of each powerdelivery instance (null = nothing attached). */
  readonly pdPartners: readonly (PdPartner | null)[];
  /** Level seen on each digital pin configured as an input, bit N = digital N. */
  readonly digitalInputs: number;
  /** uart protocols the hardware can run, bit N = protocol N. */
  readonly uartProtocols: number;
}

const KEY: PortDevice = { loadMicroamp: 45_000, speed: 'low', vconnMicroamp: 0 };
const DRIVE: PortDevice = { loadMicroamp: 320_000, speed: 'super', vconnMicroamp: 12_000 };
const PHONE: PortDevice = { loadMicroamp: 1_500_000, speed: 'high', vconnMicroamp: 0 };
const CAMERA: PortDevice = { loadMicroamp: 450_000, speed: 'super', vconnMicroamp: 12_000 };

/** The default module: every entity of operations.tsv, everything supported but app and i2c. */
export const EVERYTHING: SimProfile = {
  name: 'everything',
  model: 4, // USBStem: the spec's entity overview module; this simulated one has every entity.
  counts: {
    system: 1, clock: 1, rail: 2, port: 8, usb: 1, usbsystem: 1, powerdelivery: 2, ethernet: 1, poe: 1,
    uart: 2, analog: 4, digital: 15, servo: 8, signal: 5, mux: 1, hdbaset: 1, store: 2, timer: 8,
    pointer: 1, temperature: 1, relay: 2, equalizer: 1, userconfig: 1, app: 1, i2c: 1,
  },
  // The spec lists app and i2c as unsupported at this time: present, every operation 501.
  unsupported: { app: 'none', i2c: 'none' },
  moduleBaseAddress: 2,
  moduleHardwareOffset: 0,
  rails: [
    { maxVoltage: 20_000_000, maxCurrent: 5_000_000, maxPower: 60_000, switchable: true, loadMilliohm: 25_000 },
    { maxVoltage: 20_000_000, maxCurrent: 5_000_000, maxPower: 60_000, switchable: true, loadMilliohm: 100_000 },
  ],
  portDevices: [DRIVE, KEY, PHONE, null, CAMERA, null, null, null],
  muxChannels: 4,
  equalizerChannels: 2,
  padSize: 1024,
  stores: [
    INTERNAL_STORE,
    { name: 'RAM', slots: [16384, 1024, 1024, 1024], persistent: false },
  ],
  pdPartners: [
    // A phone: sinks 5 V and 9 V.
    { role: 'sink', pdos: [[5000, 3000], [9000, 2000]], cable: [1, 2, 3, 1, 1] },
    // A 65 W charger with a captive non-e-marked cable, plugged in flipped.
    { role: 'source', pdos: [[5000, 3000], [9000, 3000], [15000, 3000], [20000, 3250]], cable: [0, 0, 0, 0, 2] },
  ],
  digitalInputs: 0x2a55,
  uartProtocols: 0b1001111, // 0 undefined, 1 Extron responder, 2 BrainStem, 3 Extron initiator, 6 loopback
};

export function countOf(profile: SimProfile, entity: EntityName): number {
  return profile.counts[entity] ?? 0;
}

export function supportsOp(profile: SimProfile, entity: EntityName, op: string): boolean {
  const no = profile.unsupported[entity] as 'none' | readonly string[] | undefined;
  if (no === undefined) return true;
  if (no === 'none') return false;
  return no.indexOf(op) < 0;
}
