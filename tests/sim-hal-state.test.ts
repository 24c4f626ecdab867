// The sim HAL's coupled behaviour, part 2 (tests/sim-hal.test.ts has the shape and readback):
// save, reset and factory defaults, the clock, digital/servo/signal/uart/mux, ethernet/poe/PD.

import assert from 'node:assert/strict';
import { memoryStorage } from '../hal/sim';
import { fixedPdo, fixedRdo } from '../hal/sim/powerdelivery';
import { E_MODE, E_RANGE, T0, get, num, rig, run, set, throwsCode } from './sim-rig';

describe('sim HAL: save, reset, factory defaults', () => {
  it('reset drops unsaved settings and keeps saved ones, after the response', () => {
    const storage = memoryStorage();
    const { m, clock } = rig(storage);
    set(m, 'system', 0, 'hbinterval', 20);
    set(m, 'port', 1, 'name', 'Scanner');
    run(m, 'system', 0, 'save');
    set(m, 'system', 0, 'hbinterval', 30);
    set(m, 'rail', 0, 'enable', true);
    clock.t += 5 * 60_000;
    assert.equal(num(m, 'system', 0, 'uptime'), 5);
    run(m, 'system', 0, 'reset');
    assert.equal(m.resetPending(), true);
    assert.equal(num(m, 'system', 0, 'hbinterval'), 30, 'not before the answer is out');
    m.afterResponse();
    assert.equal(m.resetPending(), false);
    assert.equal(num(m, 'system', 0, 'hbinterval'), 20);
    assert.equal(get(m, 'port', 1, 'name'), 'Scanner');
    assert.equal(get(m, 'rail', 0, 'enable'), false);
    assert.equal(num(m, 'system', 0, 'uptime'), 0);
    const cycled = rig(storage).m;
    assert.equal(num(cycled, 'system', 0, 'hbinterval'), 20, 'saved settings survive a power cycle');
    run(cycled, 'system', 0, 'resetdevicetofactorydefaults');
    assert.equal(num(cycled, 'system', 0, 'hbinterval'), 10);
    assert.equal(num(rig(storage).m, 'system', 0, 'hbinterval'), 10);
  });

  it('applies the software offset and router after save and reset only', () => {
    const { m } = rig();
    set(m, 'system', 0, 'modulesoftwareoffset', 4);
    set(m, 'system', 0, 'router', 6);
    assert.equal(num(m, 'system', 0, 'module'), 2);
    assert.equal(num(m, 'system', 0, 'routeraddresssetting'), 2);
    run(m, 'system', 0, 'reset');
    m.afterResponse();
    assert.equal(num(m, 'system', 0, 'module'), 2, 'not saved: dropped');
    set(m, 'system', 0, 'modulesoftwareoffset', 4);
    set(m, 'system', 0, 'router', 6);
    run(m, 'system', 0, 'save');
    assert.equal(num(m, 'system', 0, 'routeraddresssetting'), 6);
    run(m, 'system', 0, 'reset');
    m.afterResponse();
    assert.equal(num(m, 'system', 0, 'module'), 6);
    throwsCode(() => set(m, 'system', 0, 'modulesoftwareoffset', 3), E_RANGE);
  });

  it('takes ethernet service ports into effect after save and reset', () => {
    const { m } = rig();
    assert.equal(m.activeInterfacePort(0), 80);
    set(m, 'ethernet', 0, 'interfaceport', 8080, [0]);
    run(m, 'system', 0, 'save');
    assert.equal(m.activeInterfacePort(0), 80);
    run(m, 'system', 0, 'reset');
    m.afterResponse();
    assert.equal(m.activeInterfacePort(0), 8080);
  });

  it('saves, loads and resets one entity instance through userconfig', () => {
    const { m } = rig();
    set(m, 'timer', 3, 'expiration', 5000);
    run(m, 'userconfig', 0, 'saveentitytostore', [79, 3]);
    set(m, 'timer', 3, 'expiration', 7000);
    run(m, 'userconfig', 0, 'loadentityfromstore', [79, 3]);
    assert.equal(num(m, 'timer', 3, 'expiration'), 5000);
    run(m, 'userconfig', 0, 'resetentitytofactorydefaults', [79, 3]);
    assert.equal(num(m, 'timer', 3, 'expiration'), 0);
    run(m, 'system', 0, 'reset');
    m.afterResponse();
    assert.equal(num(m, 'timer', 3, 'expiration'), 5000, 'the saved one comes back');
    throwsCode(() => run(m, 'userconfig', 0, 'saveentitytostore', [99, 0]), E_RANGE);
    throwsCode(() => run(m, 'userconfig', 0, 'saveentitytostore', [79, 8]), E_RANGE);
  });

  it('logs events into RAM slot 0 and clears errors when read', () => {
    const { m } = rig();
    run(m, 'system', 0, 'save');
    run(m, 'system', 0, 'logevents');
    assert.ok(num(m, 'store', 1, 'slotsize', [0]) > 10);
    set(m, 'pointer', 0, 'transferstore', 1);
    set(m, 'pointer', 0, 'transferfromstore', 0);
    set(m, 'pointer', 0, 'mode', 1);
    let text = '';
    for (let k = 0; k < 40; k++) text += String.fromCharCode(num(m, 'pointer', 0, 'char'));
    assert.match(text, /settings saved/);
    set(m, 'port', 2, 'currentlimit', 100_000);
    assert.ok(num(m, 'system', 0, 'errors') !== 0);
    assert.equal(num(m, 'system', 0, 'errors'), 0);
  });
});

describe('sim HAL: clock', () => {
  it('ticks with the time source and sets one field at a time', () => {
    const { m, clock } = rig();
    assert.equal(m.now(), T0);
    set(m, 'clock', 0, 'year', 2030);
    set(m, 'clock', 0, 'hour', 23);
    assert.equal(m.now(), Date.UTC(2030, 0, 15, 23, 0, 0));
    clock.t += 90_000;
    assert.equal(num(m, 'clock', 0, 'minute'), 1);
    assert.equal(num(m, 'clock', 0, 'second'), 30);
    clock.t += 3_600_000;
    assert.equal(num(m, 'clock', 0, 'day'), 16, 'rolls over midnight');
    assert.equal(num(m, 'clock', 0, 'hour'), 0);
    run(m, 'system', 0, 'reset');
    m.afterResponse();
    assert.equal(num(m, 'clock', 0, 'year'), 2030, 'survives reset');
  });

  it('validates the day against month and year', () => {
    const { m } = rig();
    set(m, 'clock', 0, 'month', 4);
    throwsCode(() => set(m, 'clock', 0, 'day', 31), E_MODE); // depends on the month: 409
    set(m, 'clock', 0, 'month', 2);
    set(m, 'clock', 0, 'day', 29); // 2024 is a leap year
    assert.equal(num(m, 'clock', 0, 'day'), 29);
    set(m, 'clock', 0, 'year', 2023); // Feb 29 does not exist: the last day of the month
    assert.equal(num(m, 'clock', 0, 'day'), 28);
    throwsCode(() => set(m, 'clock', 0, 'day', 29), E_MODE);
    set(m, 'clock', 0, 'year', 50); // no 1900s mapping for small years
    assert.equal(num(m, 'clock', 0, 'year'), 50);
  });
});

describe('sim HAL: digital, servo, signal, uart, mux', () => {
  it('stateall matches every pin, inputs refuse writes, links follow', () => {
    const { m } = rig();
    const all = num(m, 'digital', 0, 'stateall');
    for (let i = 0; i < 15; i++) assert.equal(get(m, 'digital', i, 'state'), (all & (1 << i)) !== 0, `pin ${i}`);
    throwsCode(() => set(m, 'digital', 0, 'state', true), E_MODE);
    set(m, 'digital', 4, 'configuration', 1);
    set(m, 'digital', 4, 'state', true);
    assert.ok(num(m, 'digital', 0, 'stateall') & (1 << 4));
    set(m, 'digital', 4, 'state', false);
    assert.equal(num(m, 'digital', 0, 'stateall') & (1 << 4), 0);
    // link: 7 (link input) <- 8 (link output)
    set(m, 'digital', 7, 'configuration', 5);
    set(m, 'digital', 8, 'configuration', 6);
    set(m, 'digital', 7, 'linkchannel', 8);
    set(m, 'digital', 8, 'linkchannel', 7);
    set(m, 'digital', 8, 'state', true);
    assert.equal(get(m, 'digital', 7, 'state'), true);
    set(m, 'digital', 8, 'state', false);
    assert.equal(get(m, 'digital', 7, 'state'), false);
    throwsCode(() => set(m, 'digital', 0, 'linkchannel', 15), E_RANGE);
  });

  it('servo enable configures its digital pin', () => {
    const { m } = rig();
    set(m, 'servo', 2, 'enable', true);
    assert.equal(num(m, 'digital', 2, 'configuration'), 3);
    set(m, 'digital', 2, 'configuration', 0);
    assert.equal(get(m, 'servo', 2, 'enable'), false);
  });

  it('signal keeps t2 within t3 (aErrMode: it depends on the other setting)', () => {
    const { m } = rig();
    throwsCode(() => set(m, 'signal', 0, 't2time', 2_000_000), E_MODE);
    throwsCode(() => set(m, 'signal', 0, 't3time', 400_000), E_MODE);
    throwsCode(() => set(m, 'signal', 0, 't3time', 0), E_RANGE); // the published minimum is 1 ns
    set(m, 'signal', 0, 't3time', 3_000_000);
    set(m, 'signal', 0, 't2time', 2_000_000);
    assert.equal(num(m, 'signal', 0, 't2time'), 2_000_000);
  });

  it('uart: capable protocols only, one BrainStem engine', () => {
    const { m } = rig();
    throwsCode(() => set(m, 'uart', 0, 'protocol', 4), E_RANGE);
    set(m, 'uart', 0, 'protocol', 2);
    set(m, 'uart', 0, 'enable', true);
    assert.equal(num(m, 'uart', 1, 'availableprotocols') & 4, 0);
    assert.equal(num(m, 'uart', 1, 'capableprotocols') & 4, 4);
    set(m, 'uart', 1, 'enable', true);
    throwsCode(() => set(m, 'uart', 1, 'protocol', 2), E_MODE); // module state: 409, disable uart 0 first
    throwsCode(() => set(m, 'uart', 0, 'linkchannel', 2), E_RANGE);
  });

  it('mux state follows enable, channel and split', () => {
    const { m } = rig();
    assert.equal(num(m, 'mux', 0, 'state'), 0);
    set(m, 'mux', 0, 'enable', true);
    set(m, 'mux', 0, 'channel', 2);
    assert.equal(num(m, 'mux', 0, 'state'), 4);
    set(m, 'mux', 0, 'config', 1);
    set(m, 'mux', 0, 'split', 0b1001);
    assert.equal(num(m, 'mux', 0, 'state'), 0b1001);
    throwsCode(() => set(m, 'mux', 0, 'channel', 4), E_RANGE);
  });
});

describe('sim HAL: ethernet, poe, powerdelivery, temperatures', () => {
  it('ethernet: static vs effective, MAC from serial', () => {
    const { m } = rig();
    assert.deepEqual(Array.from(get(m, 'ethernet', 0, 'macaddress') as Uint8Array), [2, 0x42, 0x12, 0x34, 0xab, 0xcd]);
    set(m, 'ethernet', 0, 'staticipv4address', new Uint8Array([192, 168, 7, 9]));
    assert.notDeepEqual(Array.from(get(m, 'ethernet', 0, 'ipv4address') as Uint8Array), [192, 168, 7, 9], 'DHCP');
    set(m, 'ethernet', 0, 'networkconfiguration', 1);
    assert.deepEqual(Array.from(get(m, 'ethernet', 0, 'ipv4address') as Uint8Array), [192, 168, 7, 9]);
    set(m, 'ethernet', 0, 'enabled', false);
    assert.deepEqual(Array.from(get(m, 'ethernet', 0, 'ipv4address') as Uint8Array), [0, 0, 0, 0]);
    throwsCode(() => set(m, 'ethernet', 0, 'staticipv4netmask', new Uint8Array([255, 0, 255, 0])), E_RANGE);
    throwsCode(() => set(m, 'ethernet', 0, 'staticipv4address', new Uint8Array([1, 2, 3])), 14);
  });

  it('poe: pair power is V x I, totals are sums, energy grows', () => {
    const { m, clock } = rig();
    const v = num(m, 'poe', 0, 'pairvoltage', [0]);
    const i = num(m, 'poe', 0, 'paircurrent', [0]);
    const p = num(m, 'poe', 0, 'pairpower', [0]);
    assert.ok(v > 50_000_000 && v < 57_000_000, `V ${v}`);
    assert.ok(Math.abs(p - Math.round((v * i) / 1e9)) <= 1, `${p} mW vs ${v} uV x ${i} uA`);
    assert.equal(num(m, 'poe', 0, 'totalpower'), p + num(m, 'poe', 0, 'pairpower', [1]));
    assert.equal(num(m, 'poe', 0, 'pairdetectionstatus', [1]), 2, 'open');
    clock.t += 1_800_000;
    const e = num(m, 'poe', 0, 'pairaccumulatedpower', [0]);
    assert.ok(Math.abs(e - p / 2) <= p * 0.01, `${e} mWh in half an hour at ${p} mW`);
    set(m, 'poe', 0, 'pairenabled', false, [0]);
    assert.equal(num(m, 'poe', 0, 'pairpower', [0]), 0);
    set(m, 'poe', 0, 'pairsourcingclass', 3, [0]); // class 2: 7 W budget
    set(m, 'poe', 0, 'pairenabled', true, [0]);
    assert.ok(num(m, 'poe', 0, 'pairpower', [0]) <= 7_000);
  });

  it('powerdelivery: PDO tables, enables and the negotiated RDO agree', () => {
    const { m } = rig();
    const list = get(m, 'powerdelivery', 0, 'powerdataobjectlist') as number[];
    assert.equal(list.length, 28);
    assert.equal(list[1], num(m, 'powerdelivery', 0, 'powerdataobject', [0, 1, 2]));
    assert.equal(list[21], fixedPdo(5000, 3000), 'remote sink rule 1');
    assert.equal(num(m, 'powerdelivery', 0, 'powerdataobjectenabledlist', [1]), 0b11110);
    assert.equal(num(m, 'powerdelivery', 0, 'connectionstate'), 1);
    // the phone sinks 9 V at 2 A: it asks for local source rule 2
    assert.equal(num(m, 'powerdelivery', 0, 'requestdataobject', [1]), fixedRdo(2, 2000, 2000));
    set(m, 'powerdelivery', 0, 'powerdataobjectenabled', false, [1, 2]);
    assert.equal(num(m, 'powerdelivery', 0, 'powerdataobjectenabledlist', [1]), 0b11010);
    assert.equal(num(m, 'powerdelivery', 0, 'requestdataobject', [1]), fixedRdo(1, 3000, 3000));
    set(m, 'powerdelivery', 0, 'powerdataobject', fixedPdo(9000, 1500), [1, 3]);
    set(m, 'powerdelivery', 0, 'powerdataobjectenabled', true, [1, 3]);
    assert.equal(num(m, 'powerdelivery', 0, 'requestdataobject', [1]), fixedRdo(3, 1500, 1500));
    run(m, 'powerdelivery', 0, 'resetpowerdataobjecttodefault', [1, 3]);
    assert.equal(num(m, 'powerdelivery', 0, 'powerdataobject', [0, 1, 3]), fixedPdo(15000, 3000));
    throwsCode(() => set(m, 'powerdelivery', 0, 'powerdataobject', fixedPdo(9000, 3000), [1, 1]), E_RANGE);
    throwsCode(() => set(m, 'powerdelivery', 0, 'requestdataobject', fixedRdo(1, 100, 100)), E_MODE);
    // powerdelivery 1 faces a charger: the local side sinks, the best common voltage is 9 V
    assert.equal(num(m, 'powerdelivery', 1, 'connectionstate'), 2);
    assert.equal(num(m, 'powerdelivery', 1, 'requestdataobject', [0]), fixedRdo(2, 3000, 3000));
    assert.equal(num(m, 'powerdelivery', 1, 'numberofpowerdataobjects', [1, 1]), 4);
    set(m, 'powerdelivery', 1, 'powerrole', 1); // source only facing a source: nothing
    assert.equal(num(m, 'powerdelivery', 1, 'connectionstate'), 0);
    assert.equal(num(m, 'powerdelivery', 1, 'numberofpowerdataobjects', [1, 1]), 0);
    set(m, 'powerdelivery', 1, 'requestcommand', 0);
    assert.equal(num(m, 'powerdelivery', 1, 'requeststatus') & 0xff, 3, 'not sent');
  });

  it('temperatures drift and min/max track the extremes', () => {
    const { m, clock } = rig();
    const seen: number[] = [];
    for (let k = 0; k < 20; k++) {
      clock.t += 30_000;
      seen.push(num(m, 'system', 0, 'temperature'));
    }
    assert.ok(Math.max(...seen) - Math.min(...seen) > 500_000, 'drifts');
    assert.ok(num(m, 'system', 0, 'mintemperature') <= Math.min(...seen));
    assert.ok(num(m, 'system', 0, 'maxtemperature') >= Math.max(...seen));
    const t = num(m, 'temperature', 0, 'microcelsius');
    assert.ok(t > 15_000_000 && t < 35_000_000);
    assert.ok(num(m, 'temperature', 0, 'minimummicrocelsius') <= t);
  });
});
