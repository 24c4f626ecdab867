// system: identity, addressing, heartbeat, LED, supply measurements and temperatures, plus the
// module-wide actions: save (settings to SimStorage), reset and factory defaults (both restart after
// the answer is sent), and logevents (the event log as text into RAM store slot 0). What save, reset,
// factory defaults and errors do is the same on the device HAL: tests/hal-behaviour.ts.

import { ERR_STORAGE } from '../kit/error-word';
import { ApiError, aErrIO, aErrResource } from '../kit/errors';
import type { EntityOps, HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity, type Runner } from './entity';
import type { StoreModel } from './store';
import { indexOrNone, NO_BOOT_SLOT } from '../kit/value-limits';
import { MODULE_OFFSETS } from '../kit/value-limits';
import { asNumber } from '../kit/value-guards';
import { bytesOfText } from './values';
import type { RegisterFile } from './registers';
import { BootState, SUPPLY_MAX_MW, SystemPhysics } from './system-model';
import { packHardwareVersion } from '../kit/version';
import { FIRMWARE, type FirmwareSlots } from './firmware-slots';

export { FIRMWARE };
const HARDWARE_REVISION = 3;
/** protocolfeatures: bit 0 REST API, bit 1 BrainStem link, bit 2 reflexes. */
const PROTOCOL_FEATURES = 0b111;
/** inputpowersource: 1 = DC input. */
const SOURCE_DC = 1;
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

/** save, reset, factory defaults and logevents (the same on the device HAL: tests/hal-behaviour.ts). */
function systemActions(ctx: SimContext, stores: StoreModel, physics: SystemPhysics, boot: BootState): { [K in EntityOps['system']]?: Runner } {
  return {
    save: () => {
      ctx.persist.temperature = physics.extremes;
      ctx.saveAll();
      if (!ctx.persist.failed) return;
      ctx.persist.failed = false;
      ctx.flagError(ERR_STORAGE, 'settings could not be saved');
      throw new ApiError(aErrIO, 'save failed: the settings could not be written');
    },
    // Only marked here: the module resets in afterResponse(), once the answer is on its way.
    reset: () => { boot.pending = true; },
    // Saved settings erased and every setting back to factory now; then a restart once the answer
    // is on its way, as after system/reset (address and router take effect then).
    resetdevicetofactorydefaults: () => {
      ctx.factoryDefaults();
      boot.pending = true;
    },
    logevents: () => {
      if (stores.slotCount(RAM_STORE) === 0) throw new ApiError(aErrResource, 'no RAM store slot for the event log');
      ctx.log('log events written');
      stores.write(RAM_STORE, RAM_SLOT, bytesOfText(ctx.eventLog().join('\n') + '\n'));
    },
  };
}

function systemRegisters(ctx: SimContext): RegisterFile {
  const p = ctx.profile;
  return ctx.registers('system', {
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
}

export function createSystem(ctx: SimContext, stores: StoreModel, load: () => number, slots: FirmwareSlots): SystemModel {
  const p = ctx.profile;
  const regs = systemRegisters(ctx);
  const boot = new BootState(regs, ctx);
  const physics = new SystemPhysics(ctx, regs, load);
  const moduleAddress = () => (p.moduleBaseAddress + p.moduleHardwareOffset + boot.offset) & 0xff;

  const entity = makeEntity(ctx, 'system', {
    registers: regs,
    limits: {
      modulesoftwareoffset: MODULE_OFFSETS,
      // An internal store slot, or 255 for none.
      bootslot: indexOrNone(stores.slotCount(0), NO_BOOT_SLOT),
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
      version: () => slots.state.running.version,
      build: () => slots.state.running.build,
      model: () => p.model,
      hardwareversion: () => packHardwareVersion(p.model, (1 << 16) | HARDWARE_REVISION),
      serialnumber: () => ctx.serial,
      uptime: () => Math.floor(ctx.uptimeMs() / 60_000),
      temperature: () => physics.temperature(),
      mintemperature: () => physics.extremes.min,
      maxtemperature: () => physics.extremes.max,
      inputvoltage: () => physics.inputVoltage(),
      inputcurrent: () => physics.inputCurrentAt(physics.inputVoltage()),
      unregulatedvoltage: () => physics.inputVoltage(),
      unregulatedcurrent: () => physics.inputCurrentAt(physics.inputVoltage()),
      inputpowersource: () => SOURCE_DC,
      powerlimit: () => physics.budget(),
      powerlimitstate: () => physics.powerLimitState(),
      errors: () => ctx.errors.take(),
      protocolfeatures: () => PROTOCOL_FEATURES,
    },
    set: {
      modulesoftwareoffset: (_i, _p, v) => regs.write(0, 'modulesoftwareoffset', [], asNumber(v, 'modulesoftwareoffset')),
      bootslot: (_i, _p, v) => regs.write(0, 'bootslot', [], asNumber(v, 'bootslot')),
    },
    run: systemActions(ctx, stores, physics, boot),
  });

  return {
    entity,
    resetPending: () => boot.pending,
    takeReset: () => boot.takeReset(),
    moduleAddress,
    activeRouter: () => boot.router,
  };
}
