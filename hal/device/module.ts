// Wires the device module: settings, the board's entities, and the reset that waits for its answer.
// Entities the board profile gives no pins are left out (404 aErrInvalidEntity); operations a board
// cannot do are left out of each entity's op table (501 aErrUnimplemented).

import { ERR_HARDWARE } from '../kit/error-word';
import type { ModuleEntities, ModuleHal } from '../types';
import { AnalogEntity } from './analog';
import type { BoardProfile } from './board';
import { ClockEntity } from './clock';
import { DigitalEntity } from './digital';
import { EthernetEntity, portKey } from './ethernet';
import type { PlatformApi } from './platform/api';
import { PwmChannels, PwmPin } from './pwm-pin';
import { OnOffPin, type LedOutput } from './onoff-pin';
import { ServoEntity } from './servo';
import { Settings, type PreferenceStore } from './settings';
import { RestartLog } from './restarts';
import { SignalEntity } from './signal';
import { StoreEntity } from './store';
import { SystemEntity, type Firmware, type ResetRequester } from './system';
import { UartEntity } from './uart';
import { macBytes } from './values';

export interface DeviceOptions {
  readonly board: BoardProfile;
  readonly platform: PlatformApi;
  /** Moddable's `preference` module: saved settings and store slots (see hal/device/settings.ts). */
  readonly preferences: PreferenceStore;
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
  /** Why the chip started, as it says (the `watchdog` module's cause()); 'power' when not given. */
  readonly restartCause?: string;
}

/** The low 32 bits of the MAC: unique per chip, stable across flashes. */
export function serialFromMac(mac: string): number {
  const b = macBytes(mac);
  return ((b[2] << 24) | (b[3] << 16) | (b[4] << 8) | b[5]) >>> 0;
}

/** The LED's output: PWM where the profile's LED is dimmable, on/off otherwise; none without an LED. */
function ledOutput(b: BoardProfile, pwm: PwmChannels): LedOutput | null {
  if (b.led < 0) return null;
  return b.ledDimmable ? new PwmPin(b.led, 'system/0/led', pwm) : new OnOffPin(b.led);
}

/** The entities this HAL makes, as their classes (each is the EntityHal of its name). */
interface Entities {
  system: SystemEntity;
  clock: ClockEntity;
  ethernet: EthernetEntity;
  digital?: DigitalEntity;
  servo?: ServoEntity;
  signal?: SignalEntity;
  uart?: UartEntity;
  analog?: AnalogEntity;
  store?: StoreEntity;
}

export class DeviceModule implements ModuleHal, ResetRequester {
  readonly serialNumber: number;
  /** The board's name (its board profile), published as the description's `name`. */
  readonly name: string;
  readonly entities: ModuleEntities;
  /** Why the module started, and the restarts counted by cause. */
  readonly restarts: RestartLog;
  private readonly settings: Settings;
  private readonly platform: PlatformApi;
  private readonly clock: ClockEntity;
  private readonly system: SystemEntity;
  /** Every entity, system first: what a boot puts in its saved state. */
  private readonly all: { boot(): void }[];
  private readonly onReset: (restart: () => void) => void;
  /** `restart` bound once, handed to onReset. */
  private readonly restartFn: () => void;
  private resetPending = false;

  constructor(o: DeviceOptions) {
    const b = o.board;
    this.restarts = new RestartLog(o.preferences, o.restartCause ?? 'power');
    const s = new Settings('brainstem', o.preferences);
    this.settings = s;
    this.platform = o.platform;
    this.onReset = o.onReset;
    this.serialNumber = (o.serial >>> 0) || serialFromMac(o.platform.macAddress());
    this.name = b.name;
    this.clock = new ClockEntity(s);
    // Every PWM output (LED, servos, signals) holds one of the board's channels only while it runs.
    const pwm = new PwmChannels(b.pwmChannels);
    this.system = new SystemEntity(s, b, this.serialNumber, o.firmware, ledOutput(b, pwm), this);
    const e: Entities = {
      system: this.system,
      clock: this.clock,
      ethernet: new EthernetEntity(s, o.platform, o.httpPort, this.serialNumber),
    };
    if (b.digital.length) e.digital = new DigitalEntity(s, b.digital);
    if (b.servo.length) e.servo = new ServoEntity(s, b.servo, pwm);
    if (b.signal.length) e.signal = new SignalEntity(s, b.signal, pwm, b.pwmMinHz);
    if (b.uart.length) e.uart = new UartEntity(s, b.uart);
    if (b.analog.length) e.analog = new AnalogEntity(s, b.analog, b.analogFullScale, b.analogAttenuation);
    if (b.storeSlots > 0) e.store = new StoreEntity(s, b.storeSlots, b.slotCapacity);
    this.entities = e;
    this.all = [];
    for (const x of [e.system, e.clock, e.ethernet, e.digital, e.servo, e.signal, e.uart, e.analog, e.store]) if (x) this.all.push(x);
    this.restartFn = () => this.restart();
    this.boot();
  }

  now(): number {
    return this.clock.now();
  }

  /** Has a PUT set the module clock since the boot? (A network answer then leaves it alone.) */
  clockSetByHand(): boolean {
    return this.clock.setByHand;
  }

  /** The REST port to listen on: the saved ethernet/0/interfaceport/0 (docs/api.md §Addresses). */
  httpPort(): number {
    return this.settings.num(portKey(0));
  }

  requestReset(): void {
    this.resetPending = true;
  }

  afterResponse(): void {
    if (!this.resetPending) return;
    this.resetPending = false;
    this.onReset(this.restartFn);
  }

  restartCount(cause: string): number {
    return this.restarts.count(cause);
  }

  /** Restart the chip; where the platform cannot (the desktop host), drop unsaved settings and boot again. */
  restart(): void {
    this.restarts.expect('reset');
    if (this.platform.restart()) return;
    trace('reset: soft reset (no restart on this platform)\n');
    this.restarts.softReset();
    this.settings.reload();
    this.boot();
  }

  /** Put the hardware in its saved state: at boot and after a soft reset. A failure is a fault in system/errors. */
  private boot(): void {
    for (let k = 0; k < this.all.length; k++) {
      try {
        this.all[k].boot();
      } catch (e) {
        this.system.flagError(ERR_HARDWARE);
        trace(`boot: ${(e as { message?: string }).message ?? e}\n`);
      }
    }
  }
}
Object.freeze(DeviceModule.prototype);

/** The module of this build (kept for src/device/main.ts). */
export function createDeviceModule(o: DeviceOptions): DeviceModule {
  return new DeviceModule(o);
}
