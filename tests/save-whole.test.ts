// system/save lands whole (hal/device/saved-banks.ts): a save that fails part-way or is cut by a power
// loss at any flash step leaves, at the next boot, every value of the previous save or every value of
// the new one; values longer than the Pico's Preference keeps are split; settings saved one key a
// domain entry (the format before the banks) still load, and move into a bank at the next save.

import { strict as assert } from 'node:assert';
import { freshWorld, makeModule } from './fakes/world';
import Preference, { nvs, powerBack, savedPreferences } from './fakes/preference';
import type { DeviceModule } from '../hal/device/module';
import type { EntityHal } from '../hal/types';

function hal(m: DeviceModule, name: string): EntityHal {
  return (m.entities as unknown as { readonly [n: string]: EntityHal })[name];
}

function text(s: string): Uint8Array {
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/** What a test sets and reads back: values a save writes, from every kind (number, bool, string, bytes). */
interface Snapshot {
  hb: number;
  name: string;
  host: string;
  dns: number[];
  port: number;
  invert: boolean;
}

const OLD: Snapshot = { hb: 30, name: 'rack 1', host: 'h'.repeat(63), dns: [10, 0, 0, 1], port: 8081, invert: true };
// 64-byte values: the largest L8 (16 DNS servers) and a 62-character name, split in pieces
const NEW: Snapshot = {
  hb: 200, name: 'n'.repeat(32), host: 'k'.repeat(40),
  dns: Array.from({ length: 64 }, (_v, k) => k + 1), port: 9090, invert: false,
};

function write(m: DeviceModule, s: Snapshot): void {
  hal(m, 'system').set(0, 'hbinterval', [], s.hb);
  hal(m, 'system').set(0, 'name', [], s.name);
  hal(m, 'ethernet').set(0, 'hostname', [], text(s.host));
  hal(m, 'ethernet').set(0, 'staticipv4dnsaddress', [], Uint8Array.from(s.dns));
  hal(m, 'ethernet').set(0, 'interfaceport', [0], s.port);
  hal(m, 'signal').set(0, 'invert', [], s.invert);
}

function read(m: DeviceModule): Snapshot {
  return {
    hb: hal(m, 'system').get(0, 'hbinterval', []) as number,
    name: hal(m, 'system').get(0, 'name', []) as string,
    host: String.fromCharCode(...(hal(m, 'ethernet').get(0, 'hostname', []) as Uint8Array)),
    dns: [...(hal(m, 'ethernet').get(0, 'staticipv4dnsaddress', []) as Uint8Array)],
    port: hal(m, 'ethernet').get(0, 'interfaceport', [0]) as number,
    invert: hal(m, 'signal').get(0, 'invert', []) as boolean,
  };
}

function save(m: DeviceModule): void {
  hal(m, 'system').run(0, 'save', []);
}

/** A module with OLD saved, then NEW set (not saved yet). */
function oldSavedNewSet(pico: boolean): DeviceModule {
  freshWorld();
  nvs.pico = pico;
  const m = makeModule();
  write(m, OLD);
  save(m);
  write(m, NEW);
  return m;
}

/** The next boot's values: all of `a` or all of `b`, never a mix. */
function assertOneOf(got: Snapshot, a: Snapshot, b: Snapshot, at: string): 'a' | 'b' {
  try {
    assert.deepEqual(got, a);
    return 'a';
  } catch {
    assert.deepEqual(got, b, `${at}: a mix of two saves: ${JSON.stringify(got)}`);
    return 'b';
  }
}

describe('system/save lands whole', () => {
  beforeEach(() => freshWorld());

  for (const pico of [false, true]) {
    const chip = pico ? 'Pico' : 'ESP32';

    it(`saves and loads 64-byte values (${chip} Preference)`, () => {
      nvs.pico = pico;
      const m = makeModule();
      write(m, NEW);
      save(m);
      assert.deepEqual(read(makeModule()), NEW);
      if (pico) for (const v of savedPreferences().values()) assert.ok(!(v instanceof ArrayBuffer) || v.byteLength <= 61);
    });

    it(`a power cut at any flash step of a save leaves the old save or the new one (${chip})`, () => {
      const seen = new Set<string>();
      for (let cut = 0; ; cut++) {
        const m = oldSavedNewSet(pico);
        nvs.cutAfter = cut;
        let failed = false;
        try { save(m); } catch { failed = true; }
        powerBack();
        const got = assertOneOf(read(makeModule()), OLD, NEW, `cut after ${cut} steps`);
        seen.add(got);
        if (failed) assert.equal(got, 'a', `cut after ${cut} steps: a save that failed reads as done`);
        if (!failed) break; // the whole save fitted in `cut` steps
      }
      assert.deepEqual([...seen].sort(), ['a', 'b']);
    });

    it(`a save that fails part-way reports it, keeps the old save and the values set (${chip})`, () => {
      for (let left = 0; ; left++) {
        const m = oldSavedNewSet(pico);
        nvs.writesLeft = left;
        let code = 0;
        try { save(m); } catch (e) { code = (e as { code: number }).code; }
        powerBack();
        if (code === 0) {
          assert.deepEqual(read(makeModule()), NEW);
          break;
        }
        assert.equal(code, 6, 'aErrIO'); // hal/kit/errors.ts
        assert.deepEqual(read(m), NEW, 'what was set is still set');
        assert.deepEqual(read(makeModule()), OLD, `${left} writes landed`);
        save(m); // the flash works again: the same save lands
        assert.deepEqual(read(makeModule()), NEW);
      }
    });
  }

  it('saves again and again, each time into the bank not in use', () => {
    const m = makeModule();
    for (let k = 0; k < 5; k++) {
      write(m, k % 2 ? NEW : OLD);
      save(m);
      assert.deepEqual(read(makeModule()), k % 2 ? NEW : OLD);
    }
  });

  it('factory defaults are whole too: a cut leaves the last save or the factory values', () => {
    const factory = read(makeModule());
    for (let cut = 0; ; cut++) {
      freshWorld();
      const m = makeModule();
      write(m, OLD);
      save(m);
      nvs.cutAfter = cut;
      let failed = false;
      try { hal(m, 'system').run(0, 'resetdevicetofactorydefaults', []); } catch { failed = true; }
      powerBack();
      assertOneOf(read(makeModule()), OLD, factory, `cut after ${cut} steps`);
      if (!failed) {
        assert.deepEqual(read(makeModule()), factory);
        break;
      }
    }
  });

  it('loads settings saved one entry a key (the format before the banks), and moves them at the next save', () => {
    Preference.set('brainstem', 'sys.hbint', 42);
    Preference.set('brainstem', 'sys.name', 'older firmware');
    Preference.set('brainstem', 'eth.dns', Uint8Array.from([8, 8, 8, 8, 1, 1, 1, 1]).buffer);
    const m = makeModule();
    assert.equal(hal(m, 'system').get(0, 'hbinterval', []), 42);
    assert.equal(hal(m, 'system').get(0, 'name', []), 'older firmware');
    assert.deepEqual([...(hal(m, 'ethernet').get(0, 'staticipv4dnsaddress', []) as Uint8Array)], [8, 8, 8, 8, 1, 1, 1, 1]);
    hal(m, 'system').set(0, 'hbinterval', [], 43);
    save(m);
    assert.equal([...savedPreferences().keys()].filter((k) => k.startsWith('brainstem/')).length, 0, 'the old entries are gone');
    const again = makeModule();
    assert.equal(hal(again, 'system').get(0, 'hbinterval', []), 43);
    assert.equal(hal(again, 'system').get(0, 'name', []), 'older firmware');
  });
});
