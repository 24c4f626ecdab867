// The budget builds' `preference` (hal/device/standin/preference.ts, on the `file` fake that behaves as
// the desktop host's file module): values of every kind Preference takes come back as they were set,
// one file per key and nothing held between calls; NVS names only; and a module saves its settings
// through it and a module made again (a restart) reads them back.

import './fakes/install';
import { strict as assert } from 'node:assert';
import Preference from '../hal/device/standin/preference';
import { clearFiles, filePaths } from './fakes/file';
import { freshWorld, board } from './fakes/world';
import platform from './fakes/platform';
import { DeviceModule } from '../hal/device/module';
import type { EntityHal } from '../hal/types';

function module(): DeviceModule {
  return new DeviceModule({ board: board(), platform, preferences: Preference, firmware: { version: 1, build: 2 },
    serial: 0x1234abcd, httpPort: 8080, onReset: (restart) => restart() });
}

function hal(m: DeviceModule, name: string): EntityHal {
  return (m.entities as unknown as { readonly [n: string]: EntityHal })[name];
}

describe('preference stand-in of the budget builds (hal/device/standin/preference.ts)', () => {
  beforeEach(() => {
    freshWorld();
    clearFiles();
  });

  it('gives back each kind of value as it was set, one file per key, and undefined for a key never set', () => {
    Preference.set('brainstem', 'name', 'rack é 1');
    Preference.set('brainstem', 'hb', -42.5);
    Preference.set('brainstem', 'on', true);
    Preference.set('brainstem', 'off', false);
    Preference.set('brainstem', 'bytes', Uint8Array.of(0, 255, 7).buffer);
    assert.equal(Preference.get('brainstem', 'name'), 'rack é 1');
    assert.equal(Preference.get('brainstem', 'hb'), -42.5);
    assert.equal(Preference.get('brainstem', 'on'), true);
    assert.equal(Preference.get('brainstem', 'off'), false);
    assert.deepEqual([...new Uint8Array(Preference.get('brainstem', 'bytes') as ArrayBuffer)], [0, 255, 7]);
    assert.equal(Preference.get('brainstem', 'none'), undefined);
    assert.equal(Preference.get('other', 'name'), undefined);
    assert.equal(filePaths().length, 5);
  });

  it('replaces a value (of another kind too) and deletes one', () => {
    Preference.set('d', 'k', 'a long first value');
    Preference.set('d', 'k', 'short');
    assert.equal(Preference.get('d', 'k'), 'short');
    Preference.set('d', 'k', 7);
    assert.equal(Preference.get('d', 'k'), 7);
    Preference.delete('d', 'k');
    assert.equal(Preference.get('d', 'k'), undefined);
    Preference.delete('d', 'k'); // deleting what is not there is no error
  });

  it('refuses names longer than NVS takes (15 characters)', () => {
    assert.throws(() => Preference.set('d', 'k'.repeat(16), 1), RangeError);
    assert.throws(() => Preference.get('d'.repeat(16), 'k'), RangeError);
  });

  it('keeps a module\'s saved settings across a restart', () => {
    const first = module();
    hal(first, 'system').set(0, 'hbinterval', [], 200);
    hal(first, 'system').set(0, 'name', [], 'bench 7');
    hal(first, 'ethernet').set(0, 'staticipv4dnsaddress', [], Uint8Array.of(10, 0, 0, 1));
    hal(first, 'system').run(0, 'save', []);
    hal(first, 'system').set(0, 'hbinterval', [], 50); // not saved
    const again = module();
    assert.equal(hal(again, 'system').get(0, 'hbinterval', []), 200);
    assert.equal(hal(again, 'system').get(0, 'name', []), 'bench 7');
    assert.deepEqual([...(hal(again, 'ethernet').get(0, 'staticipv4dnsaddress', []) as Uint8Array)], [10, 0, 0, 1]);
    assert.deepEqual([...(hal(again, 'ethernet').get(0, 'staticipv4gateway', []) as Uint8Array)], [0, 0, 0, 0]);
  });
});
