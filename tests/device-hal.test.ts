// The device HAL (hal/device) on fake ECMA-419 io: what each operation does to the pins, the settings
// it keeps, and how its tables are built (frozen, shared by every module made).

import { strict as assert } from 'node:assert';
import { board, freshWorld, makeModule, radio } from './fakes/world';
import WiFi from './fakes/wifi';
import { pins } from './fakes/io';
import { savedPreferences } from './fakes/preference';
import { DeviceEntity } from '../hal/device/entity';
import { SignalEntity } from '../hal/device/signal';
import { SystemEntity } from '../hal/device/system';
import { DeviceModule, serialFromMac } from '../hal/device/module';
import type { EntityHal } from '../hal/types';
import StandinDigital from '../hal/device/standin/digital';
import StandinPwm from '../hal/device/standin/pwm';

type Any = EntityHal;
function entities(m: DeviceModule): { readonly [name: string]: Any } {
  return m.entities as unknown as { readonly [name: string]: Any };
}

function error(f: () => unknown): string {
  try { f(); } catch (e) { return String((e as { code: number }).code); }
  return 'none';
}

describe('device HAL on fake io', () => {
  beforeEach(() => freshWorld());

  it('drives signal outputs at the period and duty set', () => {
    const s = entities(makeModule()).signal;
    s.set(0, 't3time', [], 2000000); // 500 Hz
    s.set(0, 't2time', [], 500000); // 25 %
    assert.equal(pins.pwm.has(11), false); // not enabled yet
    s.set(0, 'enable', [], true);
    assert.deepEqual(pins.pwm.get(11), { hz: 500, value: Math.round(0.25 * 16383), resolution: 14 });
    s.set(0, 'invert', [], true);
    assert.equal(pins.pwm.get(11)!.value, Math.round(0.75 * 16383));
    s.set(0, 'enable', [], false);
    assert.equal(pins.pwm.has(11), false);
  });

  it('drives servos at 50 Hz with the position and its mirror', () => {
    const s = entities(makeModule()).servo;
    s.set(0, 'position', [], 192);
    s.set(0, 'enable', [], true);
    assert.deepEqual(pins.pwm.get(10), { hz: 50, value: Math.round((2 / 20) * 16383), resolution: 14 }); // 2 ms of 20
    s.set(0, 'reverse', [], true);
    assert.equal(pins.pwm.get(10)!.value, Math.round((1 / 20) * 16383));
  });

  it('writes digital outputs, reads inputs, and refuses writes to inputs', () => {
    const d = entities(makeModule()).digital;
    pins.level.set(2, 1);
    assert.equal(d.get(2, 'value', []), 1);
    assert.equal(error(() => d.set(0, 'state', [], true)), '7'); // aErrMode: an input
    d.set(0, 'configuration', [], 1);
    d.set(0, 'state', [], true);
    assert.equal(pins.level.get(0), 1);
    d.set(1, 'configuration', [], 1);
    d.set(0, 'stateall', [], 0b0010); // outputs 0 and 1; inputs 2, 3 ignored
    assert.equal(pins.level.get(0), 0);
    assert.equal(pins.level.get(1), 1);
    assert.equal(d.get(0, 'stateall', []), 0b0110);
  });

  it('scales analog readings to 16 bits and µV', () => {
    const a = entities(makeModule()).analog;
    pins.analog.set(4, 4095);
    pins.analog.set(5, 0);
    assert.equal(a.get(0, 'value', []), 65535);
    assert.equal(a.get(0, 'voltage', []), 3100000);
    assert.equal(a.get(1, 'value', []), 0);
  });

  it('opens a UART only while enabled, at the saved rate', () => {
    const u = entities(makeModule()).uart;
    u.set(0, 'baudrate', [], 9600);
    assert.equal(pins.serial.has(2), false);
    u.set(0, 'enable', [], true);
    assert.equal(pins.serial.get(2), 9600);
    u.set(0, 'baudrate', [], 57600);
    assert.equal(pins.serial.get(2), 57600);
    u.set(0, 'enable', [], false);
    assert.equal(pins.serial.has(2), false);
  });

  it('lights the LED at its maximum brightness', () => {
    const s = entities(makeModule()).system;
    s.set(0, 'ledmaxbrightness', [], 51);
    s.set(0, 'led', [], true);
    assert.equal(pins.pwm.get(12)!.value, Math.round(0.2 * 16383));
    assert.equal(entities(makeModule(board({ ...board(), led: -1 } as never))).system.supports('led'), false);
  });

  it('moves the module clock and keeps the other fields', () => {
    const c = entities(makeModule()).clock;
    c.set(0, 'year', [], 2030);
    c.set(0, 'month', [], 1);
    c.set(0, 'day', [], 31);
    c.set(0, 'month', [], 2); // Jan 31 -> Feb takes its last day
    assert.deepEqual(['year', 'month', 'day'].map((f) => c.get(0, f, [])), [2030, 2, 28]);
  });

  it('keeps store flags in Preference and honours the lock', () => {
    const s = entities(makeModule()).store;
    assert.equal(s.limit(0, 'slot'), 2);
    s.set(0, 'slotdisable', [], 1);
    assert.equal(s.get(0, 'slotstate', [1]), false);
    s.set(0, 'lock', [1], true);
    assert.equal(error(() => s.set(0, 'slotenable', [], 1)), '12'); // aErrPermission
    assert.equal(savedPreferences().get('store/s1lock'), true);
  });

  it('reads addresses from the platform (its MAC once the Wi-Fi driver has started) and derives a serial from a MAC', () => {
    const e = entities(makeModule()).ethernet;
    assert.deepEqual([...(e.get(0, 'ipv4address', []) as Uint8Array)], [192, 168, 1, 50]);
    assert.deepEqual([...(e.get(0, 'macaddress', []) as Uint8Array)], [0, 0, 0, 0, 0, 0]); // no driver yet
    new WiFi({}).close(); // the driver starts
    assert.deepEqual([...(e.get(0, 'macaddress', []) as Uint8Array)], [2, 0, 0, 0x12, 0x34, 0x56]);
    assert.equal(serialFromMac(radio.mac), 0x00123456);
    for (const none of ['', '00:00:00:00:00:00', 'FF:FF:FF:FF:FF:FF', 'not a mac']) assert.equal(serialFromMac(none), 0, none);
    assert.equal(e.supports('ipv4netmask'), false);
  });

  it('saves settings only on system/save, under NVS-sized keys', () => {
    const m = makeModule();
    entities(m).system.set(0, 'hbinterval', [], 30);
    assert.equal([...savedPreferences().keys()].filter((k) => !k.startsWith('restarts/')).length, 0);
    entities(m).system.run(0, 'save', []);
    const saved = savedPreferences();
    assert.equal(saved.get('set.a/sys.hbint'), 30);
    for (const key of saved.keys()) assert.ok(key.split('/')[1].length <= 15, key);
  });

  it('keeps methods on frozen prototypes and its tables frozen', () => {
    for (const C of [DeviceEntity, SignalEntity, SystemEntity, DeviceModule]) assert.ok(Object.isFrozen(C.prototype), C.name);
    const a = makeModule();
    const b = makeModule();
    const ops = (m: DeviceModule) => (entities(m).signal as unknown as { ops: object }).ops;
    assert.equal(ops(a), ops(b)); // one table for every module
    assert.ok(Object.isFrozen(ops(a)));
    assert.ok(Object.values(ops(a)).every((row) => Object.isFrozen(row) && (!row.limits || Object.isFrozen(row.limits))));
  });

  it('lin stand-ins: a digital pin loops back, a PWM refuses what the LEDC cannot make', () => {
    const out = new StandinDigital({ pin: 40, mode: StandinDigital.Output });
    out.write(1);
    assert.equal(new StandinDigital({ pin: 40, mode: StandinDigital.Input }).read(), 1);
    out.close();
    assert.throws(() => out.write(0), /closed/);
    assert.throws(() => new StandinPwm({ pin: 41, hz: 50000000 }), RangeError);
    assert.ok(Object.isFrozen(StandinDigital.prototype));
  });
});
