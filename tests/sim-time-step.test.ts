// The simulator's time step (SimContext timeStepMs, host-sim/devices.ts LIVE_TIME_STEP_MS): with
// nothing changed, the models run again only once time has moved a step; a change makes the next
// derived read run them at once. The default (0) keeps every millisecond, as the HAL tests expect.

import { strict as assert } from 'node:assert';
import { createSimModule, type SimModule } from '../hal/sim';
import { buildDevices, LIVE_TIME_STEP_MS } from '../host-sim/devices';
import { EVERYTHING } from '../hal/sim/profile';

const T0 = Date.UTC(2024, 0, 15, 12, 0, 0);

function captureRig(timeStepMs?: number): { m: SimModule; clock: { t: number }; state: () => number } {
  const clock = { t: T0 };
  const m = createSimModule({ now: () => clock.t, timeStepMs });
  const analog = m.entities.analog!;
  analog.set(1, 'bulkcapturesamplerate', [], 10_000);
  analog.set(1, 'bulkcapturenumberofsamples', [], 500); // 50 ms
  analog.run(1, 'bulkcapture', []);
  return { m, clock, state: () => analog.get(1, 'bulkcapturestate', []) as number };
}

describe('sim time step', () => {
  it('is exact by default: a capture ends on its millisecond', () => {
    const { clock, state } = captureRig();
    clock.t += 45;
    assert.equal(state(), 1);
    clock.t += 5;
    assert.equal(state(), 2);
  });

  it('with a 10 ms step, reads within a step of the last pass see that pass; the next step sees the end', () => {
    const { clock, state } = captureRig(10);
    clock.t += 45;
    assert.equal(state(), 1); // a pass at +45 (the run() changed state)
    clock.t += 5;
    assert.equal(state(), 1); // +50, 5 ms after the last pass: not run again
    clock.t += 5;
    assert.equal(state(), 2); // +55: a step later, the capture has ended
  });

  it('a change makes the next derived read run the models however soon it comes', () => {
    const { m, clock, state } = captureRig(10);
    clock.t += 45;
    assert.equal(state(), 1);
    clock.t += 5;
    m.entities.system!.set(0, 'hbinterval', [], 20); // a change: the models are due
    assert.equal(state(), 2);
  });

  it('time going backwards is not taken for a recent pass', () => {
    const { clock, state } = captureRig(10);
    clock.t += 60;
    assert.equal(state(), 2);
    clock.t -= 30;
    assert.equal(state(), 2); // runs again at the earlier instant and keeps the finished capture
  });

  it('the live simulator steps; a test clock keeps it exact', () => {
    assert.ok(LIVE_TIME_STEP_MS > 0 && LIVE_TIME_STEP_MS <= 10);
    const clock = { t: T0 };
    const [fake] = buildDevices([{ serial: 1, profile: EVERYTHING }], { kind: 'memory' }, { now: () => clock.t });
    const analog = fake.module.entities.analog!;
    analog.set(1, 'bulkcapturesamplerate', [], 10_000);
    analog.set(1, 'bulkcapturenumberofsamples', [], 500);
    analog.run(1, 'bulkcapture', []);
    clock.t += 49;
    assert.equal(analog.get(1, 'bulkcapturestate', []), 1);
    clock.t += 1;
    assert.equal(analog.get(1, 'bulkcapturestate', []), 2);
  });
});
