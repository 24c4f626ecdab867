// What the sim HAL tests share: a module with an injected clock and storage, short accessors through
// the ModuleHal interface, and an assertion on the HAL error code.

import assert from 'node:assert/strict';
import { ApiError } from '../hal/kit/errors';
import type { EntityHal, HalValue, ModuleHal } from '../hal/types';
import { createSimModule, memoryStorage, type SimModule, type SimStorage } from '../hal/sim';

export const T0 = Date.UTC(2024, 0, 15, 12, 0, 0);

export interface Rig { m: SimModule; clock: { t: number }; storage: SimStorage }

export function rig(storage: SimStorage = memoryStorage(), start = T0): Rig {
  const clock = { t: start };
  const m = createSimModule({ now: () => clock.t, storage });
  return { m, clock, storage };
}

export function ent(m: ModuleHal, name: string): EntityHal {
  const e = (m.entities as { [k: string]: EntityHal | undefined })[name];
  assert.ok(e, `module lacks ${name}`);
  return e;
}

export const get = (m: ModuleHal, e: string, i: number, op: string, p: number[] = []) => ent(m, e).get(i, op, p);
export const num = (m: ModuleHal, e: string, i: number, op: string, p: number[] = []) => {
  const v = get(m, e, i, op, p);
  assert.equal(typeof v, 'number', `${e}/${op} is not a number`);
  return v as number;
};
export const set = (m: ModuleHal, e: string, i: number, op: string, v: HalValue, p: number[] = []) => ent(m, e).set(i, op, p, v);
export const run = (m: ModuleHal, e: string, i: number, op: string, p: number[] = []) => ent(m, e).run(i, op, p);

export function throwsCode(f: () => unknown, code: number, what?: string): void {
  assert.throws(f, (err: unknown) => {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    assert.equal(err.code, code, `${what ?? ''} code ${err.code}: ${err.message}`);
    assert.ok(err.message.length > 0);
    return true;
  });
}

export const E_MODE = 7, E_PERMISSION = 12, E_RANGE = 13, E_UNIMPLEMENTED = 21, E_DUPLICATE = 22;

/** A valid port mode word: SDP, USB2 both sides, Vbus, CC1. */
export const VALID_MODE = 0x71 | (1 << 12);
