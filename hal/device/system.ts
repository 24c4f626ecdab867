// system: identity (serial, model, version), uptime, the operating parameters every BrainStem module has,
// save (to Preference), reset (after the answer is sent) and factory defaults.

import Time from 'time';
import { ApiError, aErrRange } from '../../src/api/errors';
import { utf8Length } from '../../src/util/text';
import type { EntityHal, EntityOps } from '../types';
import type { BoardProfile } from './board';
import { makeEntity } from './entity';
import type { Settings } from './settings';
import { asBool, asNumber, asString, checkRange } from './values';

type Op = EntityOps['system'];

export interface Firmware {
  /** Packed major.minor.patch (BrainStem: 4 bits, 4 bits, 24 bits). */
  readonly version: number;
  readonly build: number;
}

export function packVersion(major: number, minor: number, patch: number): number {
  return (((major & 0xf) << 28) | ((minor & 0xf) << 24) | (patch & 0xffffff)) >>> 0;
}

export interface SystemHooks {
  /** Turn the LED on or off at a brightness 0..255 (absent when the board has no LED). */
  led?(on: boolean, brightness: number): void;
  /** Ask for a restart once the current answer has been sent. */
  requestReset(): void;
}

export function defineSystemSettings(s: Settings, b: BoardProfile): void {
  s.define('sys.router', 0);
  s.define('sys.hbint', 10);
  s.define('sys.ledmax', 255);
  s.define('sys.bootslot', 255);
  s.define('sys.swoffset', 0);
  s.define('sys.name', b.name);
  s.define('sys.linkif', 0);
}

export interface SystemModel {
  readonly entity: EntityHal<Op>;
  /** Re-apply what a boot applies (after a soft reset). */
  reboot(): void;
}

export function createSystem(
  s: Settings, b: BoardProfile, serial: number, fw: Firmware, hooks: SystemHooks,
): SystemModel {
  const bootTicks = Time.ticks;
  let led = false;
  // module address: the base plus the software offset saved at the last boot (takes effect after reset).
  let offsetAtBoot = s.num('sys.swoffset');
  const applyLed = (): void => { if (hooks.led) hooks.led(led, s.num('sys.ledmax')); };

  const get: { [K in Op]?: () => number | boolean | string } = {
    module: () => (b.moduleAddress + offsetAtBoot) & 0xff,
    modulebaseaddress: () => b.moduleAddress,
    modulehardwareoffset: () => 0,
    modulesoftwareoffset: () => s.num('sys.swoffset'),
    router: () => s.num('sys.router'),
    routeraddresssetting: () => s.num('sys.router'),
    hbinterval: () => s.num('sys.hbint'),
    bootslot: () => s.num('sys.bootslot'),
    version: () => fw.version,
    build: () => fw.build,
    model: () => b.model,
    hardwareversion: () => ((b.model << 24) | (b.hardwareVersion & 0xffffff)) >>> 0,
    serialnumber: () => serial,
    // Time.ticks is milliseconds since boot; on ESP32 it wraps after 49.7 days, uptime with it.
    uptime: () => Math.floor(((Time.ticks - bootTicks) >>> 0) / 60000),
    name: () => s.str('sys.name'),
    linkinterface: () => s.num('sys.linkif'),
    errors: () => 0,
  };
  const set: { [K in Op]?: (v: unknown) => void } = {
    router: (v) => s.set('sys.router', asNumber(v as number, 'router')),
    hbinterval: (v) => s.set('sys.hbint', asNumber(v as number, 'hbinterval')),
    bootslot: (v) => s.set('sys.bootslot', asNumber(v as number, 'bootslot')),
    modulesoftwareoffset: (v) => {
      const n = asNumber(v as number, 'modulesoftwareoffset');
      if (n & 1) throw new ApiError(aErrRange, `modulesoftwareoffset ${n} must be even (0..254)`);
      s.set('sys.swoffset', n);
    },
    name: (v) => {
      const text = asString(v as string, 'name');
      checkRange('name length', utf8Length(text), 0, 32);
      s.set('sys.name', text);
    },
    linkinterface: (v) => s.set('sys.linkif', asNumber(v as number, 'linkinterface')),
  };
  if (hooks.led) {
    get.led = () => led;
    get.ledmaxbrightness = () => s.num('sys.ledmax');
    set.led = (v) => { led = asBool(v as boolean, 'led'); applyLed(); };
    set.ledmaxbrightness = (v) => { s.set('sys.ledmax', asNumber(v as number, 'ledmaxbrightness')); applyLed(); };
  }

  const getters: { [K in Op]?: () => number | boolean | string } = get;
  const setters: { [K in Op]?: (i: number, p: readonly number[], v: unknown) => void } = {};
  for (const k in set) {
    const f = set[k as Op]!;
    setters[k as Op] = (_i, _p, v) => f(v);
  }
  const entity = makeEntity('system', {
    count: 1,
    get: getters,
    set: setters,
    run: {
      save: () => s.save(),
      reset: () => hooks.requestReset(),
      resetdevicetofactorydefaults: () => {
        s.erase();
        offsetAtBoot = 0;
        hooks.requestReset();
      },
    },
  });
  return {
    entity,
    // What a boot re-reads: the module address follows the saved software offset.
    reboot: () => { offsetAtBoot = s.num('sys.swoffset'); led = false; applyLed(); },
  };
}
