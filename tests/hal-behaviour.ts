// What both HALs (the simulator, hal/sim, and the device, hal/device) must do on save, reset, factory
// defaults and system/errors: one table, run against each by tests/hal-conformance.test.ts. Every step is
// one request to system/0/...; after each the module is told its answer was sent (afterResponse), as
// the API does, which is when a reset happens.
//
// The rules, as the cases below check them:
// - A PUT changes the value in RAM. system/save writes every setting to the saved settings.
// - system/reset restarts the module after its answer is sent: saved settings come back, unsaved ones
//   are dropped, state (the LED) starts over, and the error word is empty.
// - A power cycle is a reset that also forgets RAM: only saved settings survive it.
// - system/resetdevicetofactorydefaults erases the saved settings, puts every setting back to its
//   factory value now, and restarts after its answer is sent, like system/reset.
// - The module address follows modulesoftwareoffset only after save and a reset; routeraddresssetting
//   reads the saved router (the one the next reset takes), `router` the one set since.
// - system/bootslot takes a slot of the module's store or 255 (none); the limit is published as such.
// - system/errors is a word of fault bits: reading it returns it and clears it (BrainStem: "calling this
//   function will clear the current errors"); a reset clears it too. A failed save answers aErrIO and
//   sets ERR_STORAGE (hal/kit/error-word.ts), and what was saved before stays saved.

import { deepFreeze } from '../util/freeze';
import { ERR_STORAGE } from '../hal/kit/error-word';

/** An expected value: itself, or the module's factory value plus `factory` (0: the factory value). */
export type Expect = number | boolean | string | { readonly factory: number };

export type Step =
  /** PUT system/0/<set>; `fails` names the error the answer must carry. */
  | { readonly set: string; readonly value: number | boolean | string; readonly fails?: string }
  /** GET system/0/<read>. */
  | { readonly read: string; readonly expect: Expect }
  /** GET of an action; `restarts`: the module restarts once the answer is sent. */
  | { readonly run: 'save' | 'reset' | 'resetdevicetofactorydefaults'; readonly restarts: boolean; readonly fails?: string }
  /** Power off and on: a new module from the saved settings. */
  | { readonly power: 'cycle' }
  /** The saved-settings storage starts (true) or stops (false) failing every write. */
  | { readonly storageFails: boolean };

export interface BehaviourCase {
  readonly name: string;
  readonly steps: readonly Step[];
}

const FACTORY = { factory: 0 };

export const HAL_BEHAVIOUR: readonly BehaviourCase[] = deepFreeze([
  {
    name: 'a reset keeps the saved value and drops the unsaved one, once its answer is sent',
    steps: [
      { set: 'hbinterval', value: 20 },
      { set: 'name', value: 'bench A' },
      { run: 'save', restarts: false },
      { set: 'hbinterval', value: 30 },
      { set: 'name', value: 'bench B' },
      { read: 'hbinterval', expect: 30 },
      { run: 'reset', restarts: true },
      { read: 'hbinterval', expect: 20 },
      { read: 'name', expect: 'bench A' },
    ],
  },
  {
    name: 'a reset without a save brings back the factory values',
    steps: [
      { set: 'hbinterval', value: 42 },
      { set: 'ledmaxbrightness', value: 100 },
      { set: 'name', value: 'unsaved' },
      { run: 'reset', restarts: true },
      { read: 'hbinterval', expect: FACTORY },
      { read: 'ledmaxbrightness', expect: FACTORY },
      { read: 'name', expect: FACTORY },
    ],
  },
  {
    name: 'saved settings survive a power cycle; unsaved ones do not',
    steps: [
      { set: 'hbinterval', value: 20 },
      { set: 'ledmaxbrightness', value: 100 },
      { run: 'save', restarts: false },
      { set: 'hbinterval', value: 30 },
      { power: 'cycle' },
      { read: 'hbinterval', expect: 20 },
      { read: 'ledmaxbrightness', expect: 100 },
    ],
  },
  {
    name: 'the LED is state, not a setting: off after a reset, saved or not',
    steps: [
      { read: 'led', expect: false },
      { set: 'led', value: true },
      { read: 'led', expect: true },
      { run: 'save', restarts: false },
      { run: 'reset', restarts: true },
      { read: 'led', expect: false },
    ],
  },
  {
    name: 'factory defaults restore the factory values now, erase the saved ones, and restart after the answer',
    steps: [
      { set: 'hbinterval', value: 42 },
      { set: 'name', value: 'bench A' },
      { run: 'save', restarts: false },
      { set: 'ledmaxbrightness', value: 7 },
      { run: 'resetdevicetofactorydefaults', restarts: true },
      { read: 'hbinterval', expect: FACTORY },
      { read: 'name', expect: FACTORY },
      { read: 'ledmaxbrightness', expect: FACTORY },
      { run: 'reset', restarts: true },
      { read: 'hbinterval', expect: FACTORY },
      { power: 'cycle' },
      { read: 'hbinterval', expect: FACTORY },
      { read: 'name', expect: FACTORY },
    ],
  },
  {
    name: 'the module address follows the software offset only after save and a reset',
    steps: [
      { set: 'modulesoftwareoffset', value: 4 },
      { read: 'modulesoftwareoffset', expect: 4 },
      { run: 'reset', restarts: true },
      { read: 'module', expect: FACTORY },
      { read: 'modulesoftwareoffset', expect: 0 },
      { set: 'modulesoftwareoffset', value: 4 },
      { run: 'save', restarts: false },
      { read: 'module', expect: FACTORY },
      { run: 'reset', restarts: true },
      { read: 'module', expect: { factory: 4 } },
      { run: 'resetdevicetofactorydefaults', restarts: true },
      { read: 'module', expect: FACTORY },
    ],
  },
  {
    name: 'routeraddresssetting reads the saved router, the one the next reset takes',
    steps: [
      { set: 'router', value: 6 },
      { read: 'router', expect: 6 },
      { read: 'routeraddresssetting', expect: FACTORY },
      { run: 'reset', restarts: true },
      { read: 'router', expect: FACTORY },
      { set: 'router', value: 6 },
      { run: 'save', restarts: false },
      { read: 'routeraddresssetting', expect: 6 },
      { set: 'router', value: 8 },
      { run: 'reset', restarts: true },
      { read: 'router', expect: 6 },
      { read: 'routeraddresssetting', expect: 6 },
    ],
  },
  {
    name: 'the module accepts even software offsets only, and says so before changing anything',
    steps: [
      { set: 'modulesoftwareoffset', value: 3, fails: 'aErrRange' },
      { read: 'modulesoftwareoffset', expect: 0 },
    ],
  },
  {
    name: 'the boot slot is a slot of the store or none (255), and nothing else',
    steps: [
      { read: 'bootslot', expect: 255 },
      { set: 'bootslot', value: 0 },
      { read: 'bootslot', expect: 0 },
      { set: 'bootslot', value: 200, fails: 'aErrRange' },
      { read: 'bootslot', expect: 0 },
      { set: 'bootslot', value: 255 },
      { read: 'bootslot', expect: 255 },
    ],
  },
  {
    name: 'a failed save answers aErrIO, sets ERR_STORAGE, and keeps what was saved before',
    steps: [
      { read: 'errors', expect: 0 },
      { set: 'hbinterval', value: 20 },
      { run: 'save', restarts: false },
      { storageFails: true },
      { set: 'hbinterval', value: 30 },
      { run: 'save', restarts: false, fails: 'aErrIO' },
      { storageFails: false },
      { run: 'reset', restarts: true },
      { read: 'hbinterval', expect: 20 },
    ],
  },
  {
    name: 'reading system/errors returns the word and clears it',
    steps: [
      { storageFails: true },
      { run: 'save', restarts: false, fails: 'aErrIO' },
      { storageFails: false },
      { read: 'errors', expect: ERR_STORAGE },
      { read: 'errors', expect: 0 },
    ],
  },
  {
    name: 'a reset and factory defaults clear system/errors',
    steps: [
      { storageFails: true },
      { run: 'save', restarts: false, fails: 'aErrIO' },
      { storageFails: false },
      { run: 'reset', restarts: true },
      { read: 'errors', expect: 0 },
      { storageFails: true },
      { run: 'save', restarts: false, fails: 'aErrIO' },
      { storageFails: false },
      { run: 'resetdevicetofactorydefaults', restarts: true },
      { read: 'errors', expect: 0 },
    ],
  },
]);
