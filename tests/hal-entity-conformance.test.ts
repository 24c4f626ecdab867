// Both HALs on every entity both have (tests/hal-entity-behaviour.ts): the same answers to the rules
// that do not depend on hardware, and the same published operations and limits except where the table
// lists a hardware reason. Out-of-bounds values are refused 400 aErrRange in the one form of
// hal/kit/value-limits.ts, checked against what each HAL publishes.

import './fakes/install';
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshWorld, makeModule } from './fakes/world';
import { ENTITY_BEHAVIOUR, HARDWARE_DIFFERENCES, SHARED_ENTITIES, type EntityStep } from './hal-entity-behaviour';
import { ApiError, errorName } from '../hal/kit/errors';
import { createSimModule } from '../hal/sim/module';
import type { EntityHal, ModuleHal } from '../hal/types';

const MODULES = [
  ['simulator HAL (hal/sim, everything profile)', () => createSimModule()],
  ['device HAL (hal/device on the fakes, FULL_BOARD)', () => (freshWorld(), makeModule())],
] as const;

/** The operations of each entity, from the generated hal/entity-ops.ts. */
function entityOps(): Map<string, string[]> {
  const text = readFileSync(join(__dirname, '..', '..', 'hal', 'entity-ops.ts'), 'utf8');
  const out = new Map<string, string[]>();
  for (const m of text.matchAll(/^ {2}(\w+): ([^;]+);$/gm)) out.set(m[1], m[2] === 'never' ? [] : m[2].split('|').map((s) => s.trim().replace(/'/g, '')));
  return out;
}

function entityOf(m: ModuleHal, name: string): EntityHal {
  const e = (m.entities as Record<string, EntityHal | undefined>)[name];
  assert.ok(e, `the module has ${name}`);
  return e;
}

function refusal(f: () => unknown): { error: string; message: string } | 'none' {
  try {
    f();
    return 'none';
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    return { error: errorName(e.code), message: e.message };
  }
}

function runStep(e: EntityHal, index: number, s: EntityStep, at: string): void {
  const params = s.params ?? [];
  if (s.set !== undefined) {
    const value = s.text !== undefined ? new TextEncoder().encode(s.text) : s.value!;
    assert.deepEqual(refusal(() => e.set(index, s.set!, params, value)), s.fails ?? 'none', at);
    return;
  }
  const got = e.get(index, s.read!, params);
  assert.deepEqual(got instanceof Uint8Array ? new TextDecoder().decode(got) : got, s.expect, at);
}

for (const [hal, make] of MODULES) {
  describe(`rules that do not depend on hardware: ${hal}`, () => {
    for (const c of ENTITY_BEHAVIOUR) {
      it(c.name, () => {
        const e = entityOf(make(), c.entity);
        c.steps.forEach((s, k) => runStep(e, c.index, s, `step ${k + 1} ${JSON.stringify(s)}`));
      });
    }

    it('refuses a value above a published maximum with 400 aErrRange in the one form', () => {
      const checked: string[] = [];
      for (const name of SHARED_ENTITIES) {
        const e = entityOf(make(), name);
        for (const op of entityOps().get(name) ?? []) {
          const l = e.supports(op) ? e.limits?.(op) : null;
          if (!l || l.max === undefined || l.min === undefined) continue;
          const v = l.max + 1;
          assert.deepEqual(refusal(() => e.set(0, op, [], v)), { error: 'aErrRange', message: `${op}: ${v} is out of range ${l.min}..${l.max}` }, `${name}/${op}`);
          checked.push(`${name}/${op}`);
        }
      }
      assert.ok(checked.length >= 5, `checked ${checked.join(' ')}`);
    });
  });
}

describe('what both HALs publish, entity by entity', () => {
  it('differs only where the hardware differs, each difference listed with its reason', () => {
    const sim = createSimModule();
    freshWorld();
    const dev = makeModule();
    const found: string[] = [];
    for (const name of SHARED_ENTITIES) {
      const a = entityOf(sim, name);
      const b = entityOf(dev, name);
      if (a.count !== b.count) found.push(`${name} count`);
      for (const op of entityOps().get(name) ?? []) {
        if (a.supports(op) !== b.supports(op)) found.push(`${name}/${op} supports`);
        else if (a.supports(op) && JSON.stringify(a.limits?.(op) ?? null) !== JSON.stringify(b.limits?.(op) ?? null)) found.push(`${name}/${op} limits`);
      }
    }
    assert.deepEqual(found.sort(), Object.keys(HARDWARE_DIFFERENCES).sort());
  });
});
