// The board profiles of manifest.json (config.board of each platform) as the device build reads them:
// readBoard keeps every field a profile gives (a misspelt key would silently fall back to a default),
// a module pin carries one entity only, and the Raspberry Pi Pico W profile uses pins the board brings
// out for what the RP2040 can do on them (ADC, PWM slices, UART pairs, the LED on the Wi-Fi chip).
// The module each profile makes has the entities its pins give; its published limits are checked by
// tests/device-limits.test.ts.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { freshWorld, makeModule } from './fakes/world'; // first: installs the fakes of the XS modules
import { pins } from './fakes/io';
import { readBoard, type BoardProfile } from '../hal/device/board';
import type { EntityHal } from '../hal/types';
import { manifestBoards } from './manifest-boards';
import { call } from './helpers';
import { Api } from '../src/api/api';

/** Every pin a profile gives an entity, with the entity's name. */
function pinUses(b: BoardProfile): [number, string][] {
  const uses: [number, string][] = [];
  for (const k of ['digital', 'analog', 'servo', 'signal'] as const) for (const p of b[k]) uses.push([p, k]);
  for (const u of b.uart) uses.push([u.transmit, 'uart transmit'], [u.receive, 'uart receive']);
  if (b.led >= 0) uses.push([b.led, 'led']);
  return uses;
}

function entityCounts(b: BoardProfile): Record<string, number> {
  freshWorld();
  const out: Record<string, number> = {};
  const entities = makeModule(b).entities as unknown as Record<string, EntityHal | undefined>;
  for (const [name, e] of Object.entries(entities)) if (e) out[name] = e.count;
  return out;
}

describe('board profiles in manifest.json', () => {
  const boards = manifestBoards();

  it('has one for each module platform and for the desktop host', () => {
    assert.deepEqual(boards.map(([p]) => p).sort(), ['esp32', 'lin', 'pico/pico_w']);
  });

  it('names every platform in the error for any other', () => {
    const m = JSON.parse(fs.readFileSync(path.join(__dirname, '../../manifest.json'), 'utf8')) as { platforms: Record<string, { error?: string }> };
    const error = m.platforms['...'].error ?? '';
    // "esp32/*" stands for the project's subplatform folders (esp32/wired, esp32/qemu): each is named.
    const names = Object.keys(m.platforms).filter((n) => n !== '...')
      .flatMap((n) => (n.endsWith('/*') ? fs.readdirSync(path.join(__dirname, '../..', n.slice(0, -2)), { withFileTypes: true })
        .filter((d) => d.isDirectory() && fs.existsSync(path.join(__dirname, '../..', n.slice(0, -2), d.name, 'manifest.json'))).map((d) => `${n.slice(0, -2)}/${d.name}`) : [n]));
    assert.ok(names.includes('esp32/wired') && names.includes('esp32/qemu'));
    for (const name of names) assert.ok(error.includes(name), `"${name}" missing from: ${error}`);
  });

  for (const [platform, raw] of boards) {
    it(`${platform}: every field is one readBoard reads, with the value given`, () => {
      const b = readBoard(raw) as unknown as Record<string, unknown>;
      for (const key of Object.keys(raw)) {
        assert.ok(key in b, `${platform}: "${key}" is not a board profile field`);
        assert.deepEqual(b[key], raw[key], `${platform}: ${key}`);
      }
    });

    it(`${platform}: makes a module with an entity for each kind of pin it lists`, () => {
      const b = readBoard(raw);
      const counts = entityCounts(b);
      const want: Record<string, number> = { system: 1, clock: 1, ethernet: 1 };
      for (const k of ['digital', 'analog', 'servo', 'signal', 'uart'] as const) if (b[k].length) want[k] = b[k].length;
      if (b.storeSlots > 0) want.store = 1; // one store of storeSlots slots
      assert.deepEqual(counts, want);
    });
  }

  // The desktop host's stand-ins number each io class on its own; a module's pins are one set.
  for (const [platform, raw] of boards.filter(([p]) => p !== 'lin')) {
    it(`${platform}: gives each pin one entity`, () => {
      const seen = new Map<number, string>();
      for (const [p, use] of pinUses(readBoard(raw))) {
        assert.ok(!seen.has(p), `${platform}: pin ${p} is both ${seen.get(p)} and ${use}`);
        seen.set(p, use);
      }
    });
  }
});

describe('the Raspberry Pi Pico W profile', () => {
  const raw = manifestBoards().find(([p]) => p === 'pico/pico_w')![1];
  const b = readBoard(raw);
  /** The GPIOs on the Pico W's header (23, 24, 25 and 29 drive the CYW43 Wi-Fi chip). */
  const HEADER = [...Array(23).keys(), 26, 27, 28];
  /** RP2040 PWM: GPIO n is channel n & 1 of slice (n >> 1) & 7; a slice's two channels share a frequency. */
  const slice = (p: number) => (p >> 1) & 7;

  it('uses only GPIOs on the header, and the LED on the Wi-Fi chip (Moddable pin 32)', () => {
    for (const [p, use] of pinUses(b)) {
      if (use === 'led') continue;
      assert.ok(HEADER.includes(p), `${use} on GPIO ${p}, not on the header`);
    }
    assert.equal(b.led, 32);
    assert.equal(b.ledDimmable, false, 'no PWM reaches the CYW43 GPIO');
  });

  it('reads analog inputs on ADC0..ADC2 (GPIO 26..28) at a 3.3 V full scale', () => {
    assert.ok(b.analog.length > 0);
    for (const p of b.analog) assert.ok(p >= 26 && p <= 28, `GPIO ${p} has no ADC`);
    assert.equal(b.analogFullScale, 3300000);
  });

  it('reads each analog input with only its own channel open', () => {
    freshWorld();
    const analog = (makeModule(b).entities as unknown as Record<string, EntityHal>).analog;
    b.analog.forEach((p, i) => pins.analog.set(p, 1000 * (i + 1)));
    for (const i of [0, 1, 2, 0]) {
      assert.equal(analog.get(i, 'value', []), Math.round((1000 * (i + 1) * 65535) / 4095));
      assert.deepEqual([...pins.analogOpen], [b.analog[i]]);
    }
  });

  it('puts every PWM output (servo, signal) on a slice of its own', () => {
    const outputs = [...b.servo, ...b.signal];
    assert.ok(outputs.length >= 2);
    const slices = outputs.map(slice);
    assert.equal(new Set(slices).size, slices.length, `slices ${slices.join(', ')}`);
  });

  it('wires each UART to a transmit/receive pair of the port it names', () => {
    const PAIRS: Record<number, [number[], number[]]> = { 0: [[0, 12, 16], [1, 13, 17]], 1: [[4, 8, 20], [5, 9, 21]] };
    assert.ok(b.uart.length > 0);
    for (const u of b.uart) {
      const pair = PAIRS[u.port];
      assert.ok(pair, `no UART${u.port}`);
      assert.ok(pair[0].includes(u.transmit) && pair[1].includes(u.receive), `UART${u.port} on ${u.transmit}/${u.receive}`);
    }
  });

  it('switches the LED on and off as a digital output, never as PWM', () => {
    freshWorld();
    const system = (makeModule(b).entities as unknown as Record<string, EntityHal>).system;
    assert.equal(pins.level.has(32), false, 'the boot leaves the LED (and the Wi-Fi chip) untouched');
    system.set(0, 'ledmaxbrightness', [], 40);
    system.set(0, 'led', [], true);
    assert.equal(pins.level.get(32), 1);
    assert.equal(system.get(0, 'led', []), true);
    system.set(0, 'led', [], false);
    assert.equal(pins.level.get(32), 0);
    assert.equal(pins.pwm.has(32), false);
  });

  /**
   * The RP2040 divider the Moddable SDK sets for `hz` (modules/io/pwm/pico/_pwm.c, pwm_set_freq_duty at
   * the 125 MHz system clock): clock_div in 1/16ths, its integer part going to an 8-bit register.
   */
  const divider = (hz: number): number => {
    const clock = 125000000;
    let div = Math.floor(clock / hz / 4096) + (clock % (hz * 4096) !== 0 ? 1 : 0);
    if (Math.floor(div / 16) === 0) div = 16;
    return Math.floor(div / 16);
  };

  it('publishes signal periods up to that of the lowest frequency the SDK\'s divider makes (8 Hz), and refuses longer ones', async () => {
    assert.equal(b.pwmMinHz, 8);
    assert.ok(divider(b.pwmMinHz) <= 255, `${b.pwmMinHz} Hz fits the 8-bit divider`);
    assert.ok(divider(b.pwmMinHz - 1) > 255, `${b.pwmMinHz - 1} Hz overflows it: the limit is the lowest that fits`);
    freshWorld();
    const api = new Api([makeModule(b)]);
    const ops = (await call(api, 'GET', '/api/v1/device/0x1234abcd')).json.response.entities.signal.operations;
    assert.deepEqual([ops.t3time.min, ops.t3time.max, ops.t2time.max], [3200, 125000000, 125000000]);
    const put = (op: string, value: number) => call(api, 'PUT', `/api/v1/device/signal/0/${op}`, { value });
    assert.equal((await put('t3time', 125000000)).status, 200);
    const longer = await put('t3time', 125000001);
    assert.equal(longer.status, 400);
    assert.equal(longer.json.response.message, 't3time: 125000001 is out of range 3200..125000000');
    assert.equal((await put('enable', 1)).status, 200);
    assert.equal(pins.pwm.get(b.signal[0])?.hz, 8, 'the longest period runs at 8 Hz');
  });
});
