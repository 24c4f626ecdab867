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
  /**
   * config.serial: a fixed serial number. 0: none configured; the serial comes from the station's MAC
   * once the network is up (identify(): no chip has its MAC before its Wi-Fi driver starts).
   */
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
  /** What the chip runs (the `watchdog` module's image()), where it tells images apart. */
  readonly image?: string;
  /**
   * Monotonic milliseconds (src/device/ticks.ts): the module clock then stays right across the Pico's
   * 32-bit millisecond wrap of Date (hal/device/wall-clock.ts), and system/uptime counts on past the
   * 49.7 days of a 32-bit millisecond count. Without it Date and Time.ticks are read as they are.
   */
  readonly ticks?: () => number;
}

/**
 * The low 32 bits of the MAC: unique per chip, stable across flashes. 0 (no identifier) for text that
 * is not a MAC, and for the all-zero and all-ones addresses a chip without one answers.
 */
export function serialFromMac(mac: string): number {
  const b = macBytes(mac);
  let and = 0xff;
  let or = 0;
  for (let i = 0; i < 6; i++) { and &= b[i]; or |= b[i]; }
  if (or === 0 || and === 0xff) return 0;
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
  /** config.serial, or the one identify() set; 0 while the module has no identifier (it is not served). */
  serialNumber: number;
  /** The board's name (its board profile), published as the description's `name`. */
  readonly name: string;
  readonly entities: ModuleEntities;
  /** Why the module started, and the restarts counted by cause. */
  readonly restarts: RestartLog;
  private readonly settings: Settings;
  private readonly platform: PlatformApi;
  private readonly clock: ClockEntity;
  private readonly system: SystemEntity;
  private readonly ethernet: EthernetEntity;
  /** Every entity, system first: what a boot puts in its saved state. */
  private readonly all: { boot(): void }[];
  private readonly onReset: (restart: () => void) => void;
  /** `restart` bound once, handed to onReset. */
  private readonly restartFn: () => void;
  private resetPending = false;

  constructor(o: DeviceOptions) {
    const b = o.board;
    this.restarts = new RestartLog(o.preferences, o.restartCause ?? 'power', o.image);
    const s = new Settings('brainstem', o.preferences);
    this.settings = s;
    this.platform = o.platform;
    this.onReset = o.onReset;
    this.serialNumber = o.serial >>> 0;
    this.name = b.name;
    this.clock = new ClockEntity(s, o.ticks);
    // Every PWM output (LED, servos, signals) holds one of the board's channels only while it runs.
    const pwm = new PwmChannels(b.pwmChannels);
    this.system = new SystemEntity(s, b, this, o.firmware, ledOutput(b, pwm), this, o.ticks);
    this.ethernet = new EthernetEntity(s, o.platform, o.httpPort, this.serialNumber, b.readsDns);
    const e: Entities = { system: this.system, clock: this.clock, ethernet: this.ethernet };
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

  /**
   * The serial of a module with none configured, from the identifier the chip carries (the low 32 bits
   * of the station's MAC, read once Wi-Fi is up); the factory host name follows it. Once only: a serial
   * never changes while the module runs. 0 (nothing readable) leaves the module without one.
   */
  identify(serial: number): void {
    if (this.serialNumber || !serial) return;
    this.serialNumber = serial >>> 0;
    this.ethernet.identify(this.serialNumber);
  }

  /** Has a PUT set the module clock since the boot? (A network answer then leaves it alone.) */
  clockSetByHand(): boolean {
    return this.clock.setByHand;
  }

  /** The chip's clock was just set to the whole second of `ms`, the network's time: keep the rest. */
  trimClock(ms: number): void {
    this.clock.trim(ms);
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
