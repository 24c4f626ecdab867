// system: identity, addressing, heartbeat, LED, supply measurements and temperatures, plus the
// module-wide actions: save (settings to SimStorage), reset and factory defaults (both restart after
// the answer is sent), and logevents (the event log as text into RAM store slot 0). What save, reset,
// factory defaults and errors do is the same on the device HAL: tests/hal-behaviour.ts.

import { ERR_STORAGE } from '../kit/error-word';
import { ApiError, aErrIO, aErrResource } from '../kit/errors';
import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import type { StoreModel } from './store';
import { indexOrNone } from './limits';
import { MODULE_OFFSETS } from '../kit/limits';
import { asNumber } from '../kit/value-guards';
import { bytesOfText, noise, slot } from './values';
import { packHardwareVersion, packVersion } from '../kit/version';

/** Firmware identity the simulated module reports. */
export const FIRMWARE = { major: 2, minor: 11, patch: 3, build: 0x5a17c0de };
const HARDWARE_REVISION = 3;
/** protocolfeatures: bit 0 REST API, bit 1 BrainStem link, bit 2 reflexes. */
const PROTOCOL_FEATURES = 0b111;
/** Supply the module is fed from, and what it can deliver. */
const SUPPLY_UV = 12_000_000;
const SUPPLY_OHM = 0.04;
const SUPPLY_MAX_MW = 100_000;
const QUIESCENT_MW = 350;
const EFFICIENCY = 0.9;
/** inputpowersource: 1 = DC input. */
const SOURCE_DC = 1;
/** powerlimitstate bits. */
const LIMIT_BY_SETTING = 1 << 0;
const LIMIT_BY_SUPPLY = 1 << 1;
const LIMIT_EXCEEDED = 1 << 2;
/** RAM store and slot that logevents and bulk capture write. */
export const RAM_STORE = 1;
export const RAM_SLOT = 0;

export interface SystemModel {
  entity: HalOf<'system'>;
  /** A reset was asked for and happens in afterResponse(). */
  resetPending(): boolean;
  takeReset(): boolean;
  /** Effective (since boot) module address and router. */
  moduleAddress(): number;
  activeRouter(): number;
}

export function createSystem(ctx: SimContext, stores: StoreModel, load: () => number): SystemModel {
  const p = ctx.profile;
  const regs = ctx.registers('system', {
    router: p.moduleBaseAddress + p.moduleHardwareOffset,
    hbinterval: 10,
    led: false,
    ledmaxbrightness: 255,
    bootslot: 255,
    modulesoftwareoffset: 0,
    routetome: false,
    powerlimitmax: SUPPLY_MAX_MW,
    inputpowerbehavior: 0,
    inputpowerbehaviorconfig: [],
    name: 'BrainStem sim',
    linkinterface: 0,
  }, ['routetome', 'led']); // state, not settings: never saved, back to default (LED off) at every reset

  // Settings that take effect only after save and reset are latched at boot.
  let bootOffset = 0;
  let bootRouter = 0;
  const latch = () => {
    bootOffset = regs.num(0, 'modulesoftwareoffset');
    bootRouter = regs.num(0, 'router');
  };
  latch();
  ctx.onReboot(latch);
  let pending = false;

  const inputVoltage = () =>
    Math.round(SUPPLY_UV - inputCurrentAt(SUPPLY_UV) * SUPPLY_OHM + 5000 * noise(ctx.serial, 1, slot(ctx.wall())));
  // I = P / V with P the load through the converters; uA = mW * 1e9 / uV.
  const inputCurrentAt = (uV: number) => Math.round((((load() + QUIESCENT_MW) / EFFICIENCY) * 1e9) / uV);
  const temperature = () => {
    const t = ctx.wall() / 1000;
    return Math.round(38_000_000 + 2_000_000 * Math.sin((2 * Math.PI * t) / 600) + 40 * load() +
      50_000 * noise(ctx.serial, 2, slot(ctx.wall())));
  };
  // Lifetime extremes (they survive power cycles: kept with the saved settings).
  let extremes = ctx.persist.temperature ?? { min: temperature(), max: temperature() };
  ctx.onAdvance(() => {
    const now = temperature();
    if (now < extremes.min || now > extremes.max) {
      extremes = { min: Math.min(extremes.min, now), max: Math.max(extremes.max, now) };
      ctx.persist.temperature = extremes;
    }
  });
  const budget = () => Math.min(regs.num(0, 'powerlimitmax'), SUPPLY_MAX_MW);

  const entity = makeEntity(ctx, 'system', {
    registers: regs,
    limits: {
      modulesoftwareoffset: MODULE_OFFSETS,
      // An internal store slot, or 255 for none.
      bootslot: indexOrNone(stores.slotCount(0), 255),
    },
    get: {
      module: () => moduleAddress(),
      modulebaseaddress: () => p.moduleBaseAddress,
      modulehardwareoffset: () => p.moduleHardwareOffset,
      // The router saved in flash; `router` reads the setting written since, effective after reset.
      routeraddresssetting: () => {
        const saved = ctx.persist.settingsOf('system', 0)?.router;
        return typeof saved === 'number' ? saved : asNumber(regs.defaultOf(0, 'router'), 'router');
      },
      version: () => packVersion(FIRMWARE.major, FIRMWARE.minor, FIRMWARE.patch),
      build: () => FIRMWARE.build,
      model: () => p.model,
      hardwareversion: () => packHardwareVersion(p.model, (1 << 16) | HARDWARE_REVISION),
      serialnumber: () => ctx.serial,
      uptime: () => Math.floor(ctx.uptimeMs() / 60_000),
      temperature: () => temperature(),
      mintemperature: () => extremes.min,
      maxtemperature: () => extremes.max,
      inputvoltage: () => inputVoltage(),
      inputcurrent: () => inputCurrentAt(inputVoltage()),
      unregulatedvoltage: () => inputVoltage(),
      unregulatedcurrent: () => inputCurrentAt(inputVoltage()),
      inputpowersource: () => SOURCE_DC,
      powerlimit: () => budget(),
      powerlimitstate: () => {
        let s = regs.num(0, 'powerlimitmax') < SUPPLY_MAX_MW ? LIMIT_BY_SETTING : LIMIT_BY_SUPPLY;
        if (load() > budget()) s |= LIMIT_EXCEEDED;
        return s;
      },
      errors: () => ctx.errors.take(),
      protocolfeatures: () => PROTOCOL_FEATURES,
    },
    set: {
      modulesoftwareoffset: (_i, _p, v) => regs.write(0, 'modulesoftwareoffset', [], asNumber(v, 'modulesoftwareoffset')),
      bootslot: (_i, _p, v) => regs.write(0, 'bootslot', [], asNumber(v, 'bootslot')),
    },
    run: {
      save: () => {
        ctx.persist.temperature = extremes;
        ctx.saveAll();
        if (!ctx.persist.failed) return;
        ctx.persist.failed = false;
        ctx.flagError(ERR_STORAGE, 'settings could not be saved');
        throw new ApiError(aErrIO, 'save failed: the settings could not be written');
      },
      // Only marked here: the module resets in afterResponse(), once the answer is on its way.
      reset: () => { pending = true; },
      // Saved settings erased and every setting back to factory now; then a restart once the answer
      // is on its way, as after system/reset (address and router take effect then).
      resetdevicetofactorydefaults: () => {
        ctx.factoryDefaults();
        pending = true;
      },
      logevents: () => {
        if (stores.slotCount(RAM_STORE) === 0) throw new ApiError(aErrResource, 'no RAM store slot for the event log');
        ctx.log('log events written');
        stores.write(RAM_STORE, RAM_SLOT, bytesOfText(ctx.eventLog().join('\n') + '\n'));
      },
    },
  });

  function moduleAddress(): number {
    return (p.moduleBaseAddress + p.moduleHardwareOffset + bootOffset) & 0xff;
  }

  return {
    entity,
    resetPending: () => pending,
    takeReset: () => {
      const was = pending;
      pending = false;
      return was;
    },
    moduleAddress,
    activeRouter: () => bootRouter,
  };
}
