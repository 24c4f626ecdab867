// Builds the simulated modules a SimConfig describes, each with its saved state: in memory, in one
// shared state file, or in a file per module. Kept apart from main.ts so tests build the same thing.

import * as path from 'node:path';
import { createSimModule, memoryStorage, profileProblems, type SimModule, type SimStorage } from '../hal/sim/index';
import { stateFileName, type DevicePlan, type StatePlan } from './options';
import { StateFile, type Warn } from './state-file';
import { wallClock } from './read-clock';
import { simFirmware } from './firmware';
import type { FirmwareHal } from '../hal/types';

/**
 * The live simulator's time resolution (SimContext timeStepMs): far finer than the models' own effects
 * (a capture lasts tens of ms, energy counts in mWh), and it spares the models (every port, rail,
 * PoE pair...) a pass per millisecond under load.
 */
export const LIVE_TIME_STEP_MS = 10;

export interface BuiltDevice {
  module: SimModule;
  /** Where its saved settings live, for the start-up banner ('memory' when nowhere). */
  stateLocation: string;
}

export interface BuildOptions {
  warn?: Warn;
  /** Time source for every module (tests inject one); default the process's wall clock (read-clock.ts). */
  now?: () => number;
}

export function buildDevices(devices: readonly DevicePlan[], state: StatePlan, options: BuildOptions = {}): BuiltDevice[] {
  const warn = options.warn ?? ((m: string) => console.error(m));
  // One StateFile per path, so modules sharing a file share one copy of its document.
  const files = new Map<string, StateFile>();
  const fileAt = (p: string): StateFile => {
    let f = files.get(p);
    if (!f) files.set(p, (f = new StateFile(p, warn)));
    return f;
  };
  return devices.map(({ serial, profile }) => {
    const problems = profileProblems(profile);
    if (problems.length) throw new Error(`profile ${profile.name} is inconsistent: ${problems.join('; ')}`);
    let storage: SimStorage;
    let stateLocation: string;
    if (state.kind === 'memory') {
      storage = memoryStorage();
      stateLocation = 'memory';
    } else {
      stateLocation = state.kind === 'file' ? state.path : path.join(state.dir, stateFileName(serial));
      storage = fileAt(stateLocation).storageFor(serial, profile.name, profile.model);
    }
    // On the real clock the models step in LIVE_TIME_STEP_MS: a request stream does not re-run them
    // every millisecond. A test's fake clock keeps them exact.
    const timeStepMs = options.now ? 0 : LIVE_TIME_STEP_MS;
    const module = createSimModule({ serialNumber: serial, profile, storage, now: options.now ?? wallClock.now, timeStepMs });
    (module as { firmware?: FirmwareHal }).firmware = simFirmware(module); // images of tools/firmware-image.mjs
    return { module, stateLocation };
  });
}
