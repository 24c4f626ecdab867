// system: identity (serial, model, version), uptime, the operating parameters every BrainStem module has,
// save (to Preference), reset and factory defaults (both restart after the answer is sent), and the
// error word. What save, reset, factory defaults and errors do is the same on the simulator HAL:
// tests/hal-behaviour.ts.

import Time from 'time';
import { deepFreeze } from '../../util/freeze';
import type { EntityOps, OpLimits, ValueOf, ValuesOf } from '../types';
import type { BoardProfile } from './board';
import { DeviceEntity } from './entity';
import { indexOrNone, MODULE_OFFSETS, NO_BOOT_SLOT } from '../kit/value-limits';
import { READ, RUN, WRITE, type OpTable } from './op-table';
import type { LedOutput } from './onoff-pin';
import type { Settings } from './settings';
import { ERR_STORAGE, ErrorWord } from '../kit/error-word';
import { asBool, asNumber } from '../kit/value-guards';
import { packHardwareVersion } from '../kit/version';

type Op = EntityOps['system'];

export interface Firmware {
  /** Packed major.minor.patch (BrainStem: 4 bits, 4 bits, 24 bits). */
  readonly version: number;
  readonly build: number;
}

/** What system/reset and factory defaults ask of the module. */
export interface ResetRequester {
  /** Restart once the current answer has been sent. */
  requestReset(): void;
}

const OPS: OpTable<ValuesOf<'system'>> = deepFreeze({
  module: { code: READ },
  modulebaseaddress: { code: READ },
  modulehardwareoffset: { fixed: 0 },
  // Module addresses are even; the new offset takes effect after save and a reset.
  modulesoftwareoffset: { setting: 'swoffset', factory: 0, limits: MODULE_OFFSETS },
  router: { setting: 'router', factory: 0 },
  // The router saved for the next boot; `router` reads the one set since.
  routeraddresssetting: { code: READ },
  hbinterval: { setting: 'hbint', factory: 10 },
  led: { code: READ | WRITE },
  ledmaxbrightness: { setting: 'ledmax', factory: 255 },
  // Accepted: the board's store slots and NO_BOOT_SLOT (SystemEntity.limits, from the board).
  bootslot: { setting: 'bootslot', factory: NO_BOOT_SLOT },
  version: { code: READ },
  build: { code: READ },
  model: { code: READ },
  hardwareversion: { code: READ },
  serialnumber: { code: READ },
  uptime: { code: READ },
  name: { setting: 'name' }, // factory: the board's name (defined by the constructor)
  linkinterface: { setting: 'linkif', factory: 0 },
  errors: { code: READ },
  save: { code: RUN },
  reset: { code: RUN },
  resetdevicetofactorydefaults: { code: RUN },
});

export class SystemEntity extends DeviceEntity<ValuesOf<'system'>> {
  private readonly board: BoardProfile;
  /** The module: its serial number may be set after boot (DeviceModule.identify). */
  private readonly identity: { readonly serialNumber: number };
  private readonly firmware: Firmware;
  private readonly ledPin: LedOutput | null;
  private readonly resets: ResetRequester;
  /** Monotonic milliseconds (src/device/ticks.ts, which never wraps); Time.ticks where none is given. */
  private readonly ticks: (() => number) | undefined;
  /** The clock at the last boot (a soft reset on the desktop host included). */
  private bootTicks = 0;
  private ledOn = false;
  /** system/errors: cleared by reading it and by every boot (a RAM word). */
  private readonly errors = new ErrorWord();
  /** The software offset saved at the last boot: system/module follows it only after a reset. */
  private offsetAtBoot = 0;
  /** system/bootslot: a store slot of this board, or none (as on the simulator). */
  private readonly bootSlots: OpLimits;

  constructor(s: Settings, b: BoardProfile, identity: { readonly serialNumber: number }, fw: Firmware, ledPin: LedOutput | null, resets: ResetRequester,
    ticks?: () => number) {
    super('system', OPS, 1, s, 'sys.');
    this.ticks = ticks;
    s.define('sys.name', b.name);
    this.board = b;
    this.identity = identity;
    this.firmware = fw;
    this.ledPin = ledPin;
    this.resets = resets;
    this.bootSlots = indexOrNone(b.storeSlots, NO_BOOT_SLOT);
  }

  /** The boot slot's limits come from the board; every other operation's from its row. */
  override limits(op: Op): OpLimits | null {
    return op === 'bootslot' ? this.bootSlots : super.limits(op);
  }

  override supports(op: Op): boolean {
    if ((op === 'led' || op === 'ledmaxbrightness') && !this.ledPin) return false;
    return super.supports(op);
  }

  /** A fault for system/errors (hal/kit/error-word.ts). */
  flagError(bit: number): void {
    this.errors.flag(bit);
  }

  /**
   * What a boot re-reads: the module address follows the saved software offset; the LED starts off;
   * no errors yet. The module boots the system entity first, so the others' faults are kept.
   */
  override boot(): void {
    this.errors.clear();
    this.bootTicks = this.clockMs();
    this.offsetAtBoot = this.settings.num('sys.swoffset');
    this.ledOn = false;
    this.applyLed();
  }

  /** The module's clock (no closure kept for the default: a device holds this entity for ever). */
  private clockMs(): number {
    return this.ticks ? this.ticks() : Time.ticks;
  }

  /** Milliseconds since the boot. The module's clock never wraps; a bare Time.ticks wraps at 2^32 ms
   * (2^31 and negative on an ESP32), which adding 2^32 to a negative difference undoes once. */
  private sinceBoot(): number {
    const ms = this.clockMs() - this.bootTicks;
    return ms < 0 ? ms + 2 ** 32 : ms;
  }

  protected override read(_i: number, op: Op): ValueOf<'system'> {
    const b = this.board;
    switch (op) {
      case 'module': return (b.moduleAddress + this.offsetAtBoot) & 0xff;
      case 'modulebaseaddress': return b.moduleAddress;
      case 'routeraddresssetting': return asNumber(this.settings.saved('sys.router'), 'sys.router');
      case 'led': return this.ledOn;
      case 'version': return this.firmware.version;
      case 'build': return this.firmware.build;
      case 'model': return b.model;
      case 'hardwareversion': return packHardwareVersion(b.model, b.hardwareVersion);
      case 'serialnumber': return this.identity.serialNumber;
      case 'uptime': return Math.floor(this.sinceBoot() / 60000);
      case 'errors': return this.errors.take();
    }
    throw this.unsupported(op);
  }

  protected override write(_i: number, op: Op, _p: readonly number[], v: ValueOf<'system'>): void {
    if (op !== 'led') throw this.unsupported(op);
    const old = this.ledOn;
    this.ledOn = asBool(v, 'led');
    try {
      this.applyLed();
    } catch (e) {
      this.ledOn = old; // the LED stays as it was, and says so
      try { this.applyLed(); } catch { /* off */ }
      throw e;
    }
  }

  protected override changed(_i: number, op: Op): void {
    if (op === 'ledmaxbrightness') this.applyLed();
  }

  protected override action(_i: number, op: Op): void {
    if (op === 'reset') {
      this.resets.requestReset();
      return;
    }
    try {
      if (op === 'save') {
        this.settings.save();
        return;
      }
      // Factory defaults: saved settings erased, every setting back to factory now, then a restart
      // once the answer is on its way (as system/reset).
      this.settings.erase();
    } catch (e) {
      this.errors.flag(ERR_STORAGE);
      throw e;
    }
    this.offsetAtBoot = 0;
    this.resets.requestReset();
  }

  /** An LED that is off holds no PWM channel. */
  private applyLed(): void {
    const pin = this.ledPin;
    if (!pin) return;
    const max = this.settings.num('sys.ledmax');
    if (this.ledOn && max > 0) pin.drive(1000, max / 255);
    else pin.stop();
  }
}
Object.freeze(SystemEntity.prototype);
