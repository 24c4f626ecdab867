// The simulated HAL keeps one plan per entity (hal/sim/entity.ts planner), refilled in place when a
// call names another operation. A call that runs something which calls the same entity again (the
// models brought up to date before a derived read, the models run before a change) must still finish
// with its own operation's handler, limits and register, and the entity must answer every operation
// as before whatever order the calls come in.

import { strict as assert } from 'node:assert';
import { SimContext } from '../hal/sim/context';
import { makeEntity } from '../hal/sim/entity';
import { memoryStorage } from '../hal/sim/persist';
import { EVERYTHING } from '../hal/sim/profile';
import { ApiError } from '../hal/kit/errors';

function rig(): { hal: ReturnType<typeof makeEntity<'system'>>; log: string[]; clock: { t: number } } {
  const clock = { t: 1_000_000 };
  const ctx = new SimContext(0x1234, EVERYTHING, () => clock.t, memoryStorage(), 0);
  const log: string[] = [];
  const registers = ctx.registers('system', { hbinterval: 10, led: false, ledmaxbrightness: 255 });
  const hal = makeEntity(ctx, 'system', {
    registers,
    // A derived value: its read runs the models first.
    get: { uptime: () => { log.push('get uptime'); return 42; } },
    set: { led: (_i, _p, v) => { log.push(`set led ${String(v)}`); registers.write(0, 'led', [], v); } },
    limits: { hbinterval: { min: 1, max: 100 } },
  });
  // A model that reads other operations of the same entity whenever the models run: each read
  // refills the entity's plan with another operation in the middle of the outer call.
  ctx.onAdvance(() => {
    log.push(`models see hbinterval ${String(hal.get(0, 'hbinterval', []))}, brightness ${String(hal.get(0, 'ledmaxbrightness', []))}`);
  });
  return { hal, log, clock };
}

describe('sim entity plan (one per entity, refilled in place)', () => {
  it('a derived read whose models read other operations still runs its own handler', () => {
    const { hal, log, clock } = rig();
    clock.t += 5;
    assert.equal(hal.get(0, 'uptime', []), 42);
    assert.deepEqual(log, ['models see hbinterval 10, brightness 255', 'get uptime']);
  });

  it('a set whose models read other operations still runs its own handler, and a register set still lands in its register', () => {
    const { hal, log, clock } = rig();
    clock.t += 5;
    hal.set(0, 'led', [], true);
    assert.deepEqual(log, ['models see hbinterval 10, brightness 255', 'set led true']);
    assert.equal(hal.get(0, 'led', []), true);
    clock.t += 5;
    hal.set(0, 'hbinterval', [], 20);
    assert.equal(hal.get(0, 'hbinterval', []), 20);
    assert.equal(hal.get(0, 'ledmaxbrightness', []), 255);
  });

  it('limits, capabilities and refusals follow the operation named, in any order of calls', () => {
    const { hal } = rig();
    assert.deepEqual(hal.limits!('hbinterval'), { min: 1, max: 100 });
    assert.equal(hal.limits!('led'), null);
    assert.ok(hal.supports('hbinterval'));
    assert.throws(() => hal.set(0, 'hbinterval', [], 101), ApiError);
    hal.set(0, 'ledmaxbrightness', [], 101); // no limit of its own
    assert.equal(hal.get(0, 'ledmaxbrightness', []), 101);
    assert.throws(() => hal.set(0, 'uptime', [], 1), (e: unknown) => e instanceof ApiError && /cannot be set/.test(e.message));
    assert.throws(() => hal.run(0, 'hbinterval', []), (e: unknown) => e instanceof ApiError && /cannot be run/.test(e.message));
    assert.deepEqual(hal.limits!('uptime'), hal.limits!('serialnumber'));
  });
});
