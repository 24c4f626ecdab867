// The one behaviour table (tests/hal-behaviour.ts) run against both HALs: the simulator (hal/sim, with
// its saved settings in memory) and the device (hal/device on the fakes: fake Preference as NVS, a
// platform whose chip does a soft reset). Both are driven the same way, one HAL call per step and
// afterResponse() after it, so a difference between them fails here.

import './fakes/install';
import { strict as assert } from 'node:assert';
import Preference from './fakes/preference';
import { board, freshWorld, platform } from './fakes/world';
import { HAL_BEHAVIOUR, type Expect, type Step } from './hal-behaviour';
import { DeviceModule } from '../hal/device/module';
import { errorName } from '../hal/kit/errors';
import { createSimModule } from '../hal/sim/module';
import type { SimStorage } from '../hal/sim/persist';
import type { EntityHal, HalValue, ModuleHal } from '../hal/types';

/** One powered-up module: its system entity, and what happens when an answer has been sent. */
interface Powered {
  readonly system: EntityHal;
  /** afterResponse(); true when the module restarted then. */
  answerSent(): boolean;
}

/** A module's saved-settings storage and how to power it up from it. */
interface Bench {
  storageFails: boolean;
  powerUp(): Powered;
}

function systemOf(m: ModuleHal): EntityHal {
  return m.entities.system as unknown as EntityHal;
}

function simBench(): Bench {
  let text: string | undefined;
  const bench: Bench = {
    storageFails: false,
    powerUp() {
      const storage: SimStorage = {
        load: () => text,
        save: (t) => {
          if (bench.storageFails) throw new Error('flash write failed');
          text = t;
        },
      };
      const m = createSimModule({ storage });
      return {
        system: systemOf(m),
        answerSent: () => {
          const restarts = m.resetPending();
          m.afterResponse();
          return restarts;
        },
      };
    },
  };
  return bench;
}

function deviceBench(): Bench {
  freshWorld();
  const bench: Bench = {
    storageFails: false,
    powerUp() {
      let restarted = false;
      const m = new DeviceModule({
        board: board(),
        platform,
        preferences: {
          get: (d, k) => Preference.get(d, k),
          set: (d, k, v) => {
            if (bench.storageFails) throw new Error('NVS write failed');
            Preference.set(d, k, v);
          },
          delete: (d, k) => Preference.delete(d, k),
        },
        firmware: { version: 0x01000000, build: 7 },
        serial: 0x1234abcd,
        httpPort: 8080,
        onReset: (restart) => {
          restarted = true;
          restart();
        },
      });
      return {
        system: systemOf(m),
        answerSent: () => {
          restarted = false;
          m.afterResponse();
          return restarted;
        },
      };
    },
  };
  return bench;
}

/** The error a call answers with ('none' when it succeeds). */
function answer(f: () => unknown): string {
  try {
    f();
    return 'none';
  } catch (e) {
    return errorName((e as { code: number }).code);
  }
}

/** The factory values of the operations a case compares with them, read from a factory-fresh module. */
function factoryValues(p: Powered, steps: readonly Step[]): Map<string, HalValue> {
  const out = new Map<string, HalValue>();
  for (const s of steps) {
    if ('read' in s && typeof s.expect === 'object' && !out.has(s.read)) out.set(s.read, p.system.get(0, s.read, []));
  }
  return out;
}

function expected(e: Expect, op: string, factory: Map<string, HalValue>): HalValue {
  if (typeof e !== 'object') return e;
  const f = factory.get(op);
  return e.factory === 0 ? f! : (f as number) + e.factory;
}

function runCase(bench: Bench, steps: readonly Step[]): void {
  let p = bench.powerUp();
  const factory = factoryValues(p, steps);
  steps.forEach((s, k) => {
    const at = `step ${k + 1} ${JSON.stringify(s)}`;
    if ('storageFails' in s) {
      bench.storageFails = s.storageFails;
    } else if ('power' in s) {
      p = bench.powerUp();
    } else if ('set' in s) {
      assert.equal(answer(() => p.system.set(0, s.set, [], s.value)), s.fails ?? 'none', at);
      assert.equal(p.answerSent(), false, at + ': no restart');
    } else if ('read' in s) {
      assert.deepEqual(p.system.get(0, s.read, []), expected(s.expect, s.read, factory), at);
      assert.equal(p.answerSent(), false, at + ': no restart');
    } else {
      assert.equal(answer(() => p.system.run(0, s.run, [])), s.fails ?? 'none', at);
      assert.equal(p.answerSent(), s.restarts, at + (s.restarts ? ': restarts after the answer' : ': no restart'));
    }
  });
}

for (const [hal, bench] of [['simulator HAL (hal/sim)', simBench], ['device HAL (hal/device on fakes)', deviceBench]] as const) {
  describe(`save, reset, factory defaults and errors: ${hal}`, () => {
    for (const c of HAL_BEHAVIOUR) it(c.name, () => runCase(bench(), c.steps));
  });
}
