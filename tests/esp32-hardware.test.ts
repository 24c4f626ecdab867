// The device HAL against fakes of the Moddable SDK's ESP32 io (tests/fakes/pwm.ts, digital.ts,
// analog.ts: LEDC channels 4..7, the SDK's frequency/resolution rule, a closed channel's pin left on the
// LEDC, the analog scale), with the ESP32-DevKitC profile of manifest.json: the PWM outputs fit the
// channels, a released pin is a plain output, the signal and servo outputs are what the chip makes,
// analog volts are right, a failed hardware write changes nothing, and the profile uses only what the
// board has.

import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { board, FULL_BOARD, freshWorld, makeModule } from './fakes/world';
import { pins } from './fakes/io';
import { nvs } from './fakes/preference';
import { call } from './helpers';
import { Api } from '../src/api/api';
import type { BoardProfile } from '../hal/device/board';

const BASE = '/api/v1/device';
const MANIFEST = JSON.parse(readFileSync(resolve(__dirname, '..', '..', 'manifest.json'), 'utf8'));
/** The ESP32-DevKitC profile as the esp32 build gets it. */
const DEVKITC = MANIFEST.platforms.esp32.config.board as Record<string, unknown>;

function world(raw: Record<string, unknown> = DEVKITC): Api {
  freshWorld();
  return new Api([makeModule(board(raw) as BoardProfile)]);
}

async function put(api: Api, p: string, value: unknown): Promise<{ status: number; error?: string; message?: string }> {
  const a = await call(api, 'PUT', `${BASE}/${p}`, { value });
  return { status: a.status, error: a.json.response.error, message: a.json.response.message };
}

async function value(api: Api, p: string): Promise<unknown> {
  const a = await call(api, 'GET', `${BASE}/${p}`);
  assert.equal(a.status, 200, JSON.stringify(a.json));
  return a.json.response.value;
}

describe('ESP32 PWM outputs (fake of the SDK\'s LEDC driver)', () => {
  it('runs every PWM output of the DevKitC profile at once', async () => {
    const api = world();
    for (const p of ['servo/0', 'servo/1', 'signal/0', 'signal/1']) {
      const r = await put(api, `${p}/enable`, true);
      assert.equal(r.status, 200, `${p}: ${r.message}`);
    }
    for (const pin of [26, 27, 13, 14]) assert.ok(pins.pwm.has(pin), `pin ${pin} not driven`);
  });

  it('refuses an output beyond the channels with 409 aErrMode, keeping it off', async () => {
    const api = world({ ...FULL_BOARD, servo: [10, 15] }); // LED + 2 servos + 2 signals: 5 outputs, 4 channels
    assert.equal((await put(api, 'system/0/led', true)).status, 200);
    for (const p of ['servo/0', 'servo/1', 'signal/0']) assert.equal((await put(api, `${p}/enable`, true)).status, 200);
    const r = await put(api, 'signal/1/enable', true);
    assert.equal(r.status, 409);
    assert.equal(r.error, 'aErrMode');
    assert.match(r.message!, /all 4 PWM channels are in use/);
    assert.equal(await value(api, 'signal/1/enable'), false);
    assert.equal(pins.pwm.has(13), false);
    // An LED that is off holds no channel: the fifth output runs once the LED is off.
    assert.equal((await put(api, 'system/0/led', false)).status, 200);
    assert.equal((await put(api, 'signal/1/enable', true)).status, 200);
  });

  it('makes a released pin a plain output, low, that copies no other output', async () => {
    const api = world(FULL_BOARD); // LED 12, servo 10, signals 11 and 13
    await put(api, 'system/0/led', true); // 1 kHz
    await put(api, 'signal/0/enable', true); // 1 kHz too: one LEDC timer for both
    assert.ok(pins.pwm.has(11));
    await put(api, 'signal/0/enable', false);
    await put(api, 'servo/0/enable', true); // takes the channel signal 0 gave back
    assert.equal(pins.pwm.has(11), false, 'the released signal pin follows the servo');
    assert.equal(pins.level.get(11), 0);
    assert.ok(pins.used.has(11), 'the released pin is held as a plain output');
  });

  it('publishes the signal periods the chip makes, and refuses others with 400 aErrRange naming them', async () => {
    const api = world();
    const d = await call(api, 'GET', `${BASE}/0x1234ABCD`);
    const t3 = d.json.response.entities.signal.operations.t3time;
    assert.deepEqual([t3.min, t3.max], [3200, 500000000]);
    assert.equal((await put(api, 'signal/0/t2time', 0)).status, 200);
    assert.equal((await put(api, 'signal/0/enable', true)).status, 200);
    for (const ns of [3200, 12800, 58800000, 100000000, 500000000, 1000000]) {
      const r = await put(api, 'signal/0/t3time', ns);
      assert.equal(r.status, 200, `${ns} ns: ${r.message}`);
      assert.equal(pins.pwm.get(13)!.hz, Math.round(1e9 / ns));
    }
    for (const ns of [3199, 500000001]) {
      const r = await put(api, 'signal/0/t3time', ns);
      assert.equal(r.status, 400, String(ns));
      assert.equal(r.error, 'aErrRange');
      assert.match(r.message!, /3200\.\.500000000/);
      assert.equal(await value(api, 'signal/0/t3time'), 1000000);
    }
  });

  it('gives each of the 256 servo positions its own pulse width', async () => {
    const api = world();
    await put(api, 'servo/0/enable', true);
    const widths = new Set<number>();
    for (let p = 0; p < 256; p++) {
      await put(api, 'servo/0/position', p);
      widths.add(pins.pwm.get(26)!.value);
    }
    assert.equal(widths.size, 256);
  });
});

describe('ESP32 analog inputs (fake of the SDK\'s ADC scale)', () => {
  it('reads volts right at the SDK\'s 12 dB scale (2,450 mV full scale)', async () => {
    const api = world();
    pins.millivolts.set(32, 1000);
    pins.millivolts.set(33, 3000); // above the scale: reads as its top
    const v = (await value(api, 'analog/0/voltage')) as number;
    assert.ok(Math.abs(v - 1000000) <= 600, `${v} µV for 1,000 mV`);
    assert.equal(await value(api, 'analog/1/voltage'), 2450000);
  });
});

describe('a failed hardware write changes nothing (every entity with hardware)', () => {
  const cases: [string, string, unknown, number][] = [
    // [path, operation, value, pin or port that fails]
    ['servo/0', 'enable', true, 26],
    ['signal/0', 'enable', true, 13],
    ['digital/0', 'configuration', 1, 2],
    ['uart/0', 'enable', true, 2],
  ];
  for (const [p, op, v, pin] of cases) {
    it(`${p}/${op}`, async () => {
      const api = world({ ...DEVKITC, led: 12 });
      const before = await value(api, `${p}/${op}`);
      pins.broken.add(pin);
      const r = await put(api, `${p}/${op}`, v);
      assert.equal(r.status, 500, JSON.stringify(r));
      assert.equal(r.error, 'aErrIO');
      assert.deepEqual(await value(api, `${p}/${op}`), before);
    });
  }

  it('changes of a running output: servo position, signal period, UART rate, digital state, LED', async () => {
    const api = world({ ...DEVKITC, led: 12 });
    await put(api, 'servo/0/enable', true);
    await put(api, 'signal/0/enable', true);
    await put(api, 'uart/0/enable', true);
    await put(api, 'digital/1/configuration', 1);
    for (const pin of [26, 13, 2, 5, 12]) pins.broken.add(pin);
    const changes: [string, unknown][] = [['servo/0/position', 200], ['signal/0/t3time', 2000000], ['uart/0/baudrate', 9600],
      ['digital/1/state', true], ['system/0/led', true]];
    for (const [p, v] of changes) {
      const before = await value(api, p);
      const r = await put(api, p, v);
      assert.equal(r.error, 'aErrIO', `${p}: ${JSON.stringify(r)}`);
      assert.deepEqual(await value(api, p), before, p);
    }
    pins.broken.clear(); // once the fault is gone, the same changes go through
    for (const [p, v] of changes) assert.equal((await put(api, p, v)).status, 200, p);
    assert.equal(pins.serial.get(2), 9600);
  });

  it('store flags stay as they were when NVS fails', async () => {
    freshWorld();
    const api = new Api([makeModule(board(FULL_BOARD))]);
    nvs.failing = true;
    const r = await put(api, 'store/0/lock/1', true);
    assert.equal(r.error, 'aErrIO');
    nvs.failing = false;
    assert.equal(await value(api, 'store/0/lock/1'), false);
  });
});

describe('the ESP32-DevKitC profile uses only what the board has', () => {
  const b = board(DEVKITC);
  const FLASH = [6, 7, 8, 9, 10, 11];
  const WROVER_PSRAM = [16, 17];
  const INPUT_ONLY = [34, 35, 36, 37, 38, 39];
  const ADC1 = [32, 33, 34, 35, 36, 37, 38, 39];
  const outputs = [...b.digital, ...b.servo, ...b.signal, ...b.uart.map((u) => u.transmit)];
  const all = [...outputs, ...b.analog, ...b.uart.map((u) => u.receive), ...(b.led >= 0 ? [b.led] : [])];

  it('has no LED (the DevKitC V4 has a power LED only)', () => assert.equal(b.led, -1));
  it('uses no flash pin and no pin WROVER modules give to PSRAM', () => {
    for (const p of all) assert.ok(!FLASH.includes(p) && !WROVER_PSRAM.includes(p), `GPIO ${p}`);
  });
  it('uses each pin once, input-only pins as inputs only, ADC1 for analog (ADC2 is Wi-Fi\'s)', () => {
    assert.equal(new Set(all).size, all.length);
    for (const p of outputs) assert.ok(!INPUT_ONLY.includes(p), `GPIO ${p} is input-only`);
    for (const p of b.analog) assert.ok(ADC1.includes(p), `GPIO ${p} is not ADC1`);
  });
  it('fits its PWM outputs in the PWM channels', () => {
    assert.ok(b.servo.length + b.signal.length + (b.led >= 0 ? 1 : 0) <= b.pwmChannels);
  });
});
