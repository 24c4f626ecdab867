// The host-sim HAL (hal/sim) through the ModuleHal interface: every route answers with the right type,
// every settable route reads back what was set, and the coupled behaviour (rail physics, port views,
// pointer and store, bulk capture, save/reset, clock) holds with an injected clock and storage.

import assert from 'node:assert/strict';
import { ApiError } from '../hal/kit/errors';
import { allRoutes, type Route } from '../src/api/routes';
import type { EntityHal, HalValue, ModuleHal } from '../hal/types';
import { createSimModule, memoryStorage, type SimModule, type SimStorage } from '../hal/sim';
import { fixedPdo, fixedRdo } from '../hal/sim/powerdelivery';

const T0 = Date.UTC(2024, 0, 15, 12, 0, 0);

interface Rig { m: SimModule; clock: { t: number }; storage: SimStorage }

function rig(storage: SimStorage = memoryStorage(), start = T0): Rig {
  const clock = { t: start };
  const m = createSimModule({ now: () => clock.t, storage });
  return { m, clock, storage };
}

function ent(m: ModuleHal, name: string): EntityHal {
  const e = (m.entities as { [k: string]: EntityHal | undefined })[name];
  assert.ok(e, `module lacks ${name}`);
  return e;
}

const get = (m: ModuleHal, e: string, i: number, op: string, p: number[] = []) => ent(m, e).get(i, op, p);
const num = (m: ModuleHal, e: string, i: number, op: string, p: number[] = []) => {
  const v = get(m, e, i, op, p);
  assert.equal(typeof v, 'number', `${e}/${op} is not a number`);
  return v as number;
};
const set = (m: ModuleHal, e: string, i: number, op: string, v: HalValue, p: number[] = []) => ent(m, e).set(i, op, p, v);
const run = (m: ModuleHal, e: string, i: number, op: string, p: number[] = []) => ent(m, e).run(i, op, p);

function throwsCode(f: () => unknown, code: number, what?: string): void {
  assert.throws(f, (err: unknown) => {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    assert.equal(err.code, code, `${what ?? ''} code ${err.code}: ${err.message}`);
    assert.ok(err.message.length > 0);
    return true;
  });
}

const E_MODE = 7, E_PERMISSION = 12, E_RANGE = 13, E_UNIMPLEMENTED = 21, E_DUPLICATE = 22;

const TYPE_BOUNDS: { [t: string]: [number, number] } = {
  u8: [0, 255], i8: [-128, 127], u16: [0, 65535], i16: [-32768, 32767], u32: [0, 4294967295], i32: [-2147483648, 2147483647],
};

function paramSets(m: ModuleHal, r: Route, index: number): number[][] {
  // The first and last value of every parameter (module-defined ones from limit()).
  let sets: number[][] = [[]];
  for (const p of r.params) {
    const hi = p.max >= 0 ? p.max : ent(m, r.entity).limit(index, p.name) - 1;
    assert.ok(hi >= p.min, `${r.entity}/${r.op}: no valid ${p.name}`);
    const vals = hi === p.min ? [p.min] : [p.min, hi];
    sets = sets.flatMap((s) => vals.map((v) => [...s, v]));
  }
  return sets;
}

function checkType(r: Route, v: HalValue, where: string): void {
  if (r.get === 'bool') return assert.equal(typeof v, 'boolean', where);
  if (r.get === 'ilist') {
    assert.ok(Array.isArray(v), where);
    for (const x of v as number[]) assert.ok(Number.isInteger(x) && x >= 0 && x <= 4294967295, `${where}: ${x}`);
    return;
  }
  if (r.get === 'bytes') return assert.ok(v instanceof Uint8Array, where);
  if (r.get === 'str') {
    if (r.type === 'string') return assert.equal(typeof v, 'string', where);
    assert.ok(v instanceof Uint8Array, where);
    if (r.type === 'bytes:ipv4') assert.equal((v as Uint8Array).length % 4, 0, where);
    if (r.type === 'bytes:mac') assert.equal((v as Uint8Array).length, 6, where);
    return;
  }
  assert.equal(typeof v, 'number', where);
  const [lo, hi] = TYPE_BOUNDS[r.type];
  assert.ok(Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi, `${where}: ${String(v)} not a ${r.type}`);
}

describe('sim HAL: shape', () => {
  it('has every entity of the route table with the profile counts', () => {
    const { m } = rig();
    const counts: { [k: string]: number } = {
      system: 1, clock: 1, rail: 2, port: 8, usb: 1, usbsystem: 1, powerdelivery: 2, ethernet: 1, poe: 1, uart: 2,
      analog: 4, digital: 15, servo: 8, signal: 5, mux: 1, hdbaset: 1, store: 2, timer: 8, pointer: 1,
      temperature: 1, relay: 2, equalizer: 1, userconfig: 1, app: 1,
    };
    for (const r of allRoutes()) assert.equal(ent(m, r.entity).count, counts[r.entity], r.entity);
    assert.equal(m.serialNumber, 0x1234abcd);
  });

  it('supports everything but app and i2c', () => {
    const { m } = rig();
    for (const r of allRoutes()) assert.equal(ent(m, r.entity).supports(r.op), r.entity !== 'app', `${r.entity}/${r.op}`);
    throwsCode(() => set(m, 'app', 0, 'execute', 1), E_UNIMPLEMENTED);
  });

  it('answers every GET of every instance with a value of the route type', () => {
    const { m, clock } = rig();
    let n = 0;
    for (const r of allRoutes()) {
      if (r.get === '-' || r.get === 'none' || r.entity === 'app') continue;
      const e = ent(m, r.entity);
      for (let i = 0; i < e.count; i++) {
        for (const p of paramSets(m, r, i)) {
          clock.t += 7;
          checkType(r, e.get(i, r.op, p), `${r.entity}/${i}/${r.op}/${p.join('/')}`);
          n++;
        }
      }
    }
    assert.ok(n > 300, `only ${n} reads`);
  });

  it('gives module-defined parameter bounds through limit()', () => {
    const { m } = rig();
    assert.equal(ent(m, 'usb').limit(0, 'channel'), 8);
    assert.equal(ent(m, 'mux').limit(0, 'channel'), 4);
    assert.equal(ent(m, 'equalizer').limit(0, 'channel'), 2);
    assert.equal(ent(m, 'store').limit(0, 'slot'), 12);
    assert.equal(ent(m, 'store').limit(1, 'slot'), 4);
  });
});

// ---- set-then-get for every settable route ----

const IPV4 = new Uint8Array([10, 1, 2, 3]);
const VALID_MODE = 0x71 | (1 << 12); // SDP, USB2 both sides, Vbus, CC1

/** Values where "the current value plus one" is not a valid setting. */
const OVERRIDES: { [route: string]: HalValue } = {
  'store/slotdata': new Uint8Array([1, 2, 3, 250]),
  'rail/currentlimit': 2_000_000,
  'rail/voltagemaxlimit': 15_000_000,
  'rail/powerlimit': 30_000,
  'system/modulesoftwareoffset': 4,
  'port/currentlimit': 1_230_000,
  'usb/portcurrentlimit': 1_230_000,
  'port/portmode': VALID_MODE,
  'usb/portmode': VALID_MODE,
  'usb/upstreammode': 255,
  'usb/hubmode': 0x5555,
  'usbsystem/enabledlist': 0x55,
  'usbsystem/modelist': [VALID_MODE, VALID_MODE, 0x46, 0x46, VALID_MODE, 0, VALID_MODE, 0x46],
  'usbsystem/upstreamport': 3,
  'analog/voltage': 1_000_000,
  'digital/stateall': 0x1234,
  'ethernet/staticipv4netmask': new Uint8Array([255, 255, 0, 0]),
  'ethernet/staticipv4dnsaddress': new Uint8Array([8, 8, 8, 8, 8, 8, 4, 4]),
  'ethernet/hostname': new Uint8Array([115, 105, 109, 45, 116, 101, 115, 116]),
  'system/name': 'Bench A',
  'port/name': 'Charger',
  'system/inputpowerbehaviorconfig': [1, 2],
};

/** Preparation a route needs first (the module refuses the set in its default mode). */
const PREPARE: { [route: string]: (m: ModuleHal) => void } = {
  'analog/value': (m) => set(m, 'analog', 0, 'configuration', 1),
  'analog/voltage': (m) => set(m, 'analog', 0, 'configuration', 1),
  'digital/state': (m) => set(m, 'digital', 0, 'configuration', 1),
  'digital/value': (m) => set(m, 'digital', 0, 'configuration', 1),
  'digital/stateall': (m) => { for (let i = 0; i < 15; i++) set(m, 'digital', i, 'configuration', 1); },
};

/** Readback that is not the value itself (quantised). */
const TOLERANCE: { [route: string]: number } = { 'analog/voltage': 60 }; // one DAC step at 3.3 V full scale

function nextValue(r: Route, current: HalValue): HalValue {
  const key = `${r.entity}/${r.op}`;
  if (key in OVERRIDES) return OVERRIDES[key];
  if (r.type === 'bool') return !current;
  if (r.type === 'list:u32') return (current as number[]).slice().reverse();
  if (r.type === 'bytes:ipv4') return IPV4;
  const [tlo, thi] = TYPE_BOUNDS[r.type];
  const lo = r.min <= r.max ? r.min : tlo;
  const hi = r.min <= r.max ? r.max : thi;
  const v = (current as number) + 1;
  return v > hi ? lo : v;
}

/** The GET that reads back a PUT route: same operation and parameters, or the GET form with partner 0. */
function readbackOf(r: Route): { route: Route; params: (p: number[]) => number[] } | null {
  const forms = allRoutes().filter((x) => x.entity === r.entity && x.op === r.op && x.get !== '-' && x.get !== 'none');
  const same = forms.find((x) => x.params.length === r.params.length);
  if (same) return { route: same, params: (p) => p };
  const local = forms.find((x) => x.params.length === r.params.length + 1 && x.params[0].name === 'partner');
  if (local) return { route: local, params: (p) => [0, ...p] };
  return null;
}

/** Checks for PUT routes without a GET: each proves its effect elsewhere. */
const PUT_ONLY: { [route: string]: (m: SimModule) => void } = {
  'pointer/transfertostore': (m) => {
    set(m, 'pointer', 0, 'int', 0xcafef00d);
    set(m, 'pointer', 0, 'transferstore', 1);
    set(m, 'pointer', 0, 'transfertostore', 2);
    assert.equal(num(m, 'store', 1, 'slotsize', [2]), 1024);
  },
  'pointer/transferfromstore': (m) => {
    set(m, 'pointer', 0, 'int', 0x01020304);
    set(m, 'pointer', 0, 'transfertostore', 3);
    set(m, 'pointer', 0, 'int', 0);
    set(m, 'pointer', 0, 'transferfromstore', 3);
    assert.equal(num(m, 'pointer', 0, 'int'), 0x01020304);
  },
  'system/routetome': (m) => set(m, 'system', 0, 'routetome', true), // no observable effect on one module
  'store/slotenable': (m) => {
    set(m, 'store', 0, 'slotenable', 5);
    assert.equal(get(m, 'store', 0, 'slotstate', [5]), true);
  },
  'store/slotdisable': (m) => {
    set(m, 'store', 0, 'slotenable', 5);
    set(m, 'store', 0, 'slotdisable', 5);
    assert.equal(get(m, 'store', 0, 'slotstate', [5]), false);
  },
  'powerdelivery/requestdataobject': (m) => {
    const rdo = fixedRdo(2, 1500, 2000); // 9 V PDO of the charger on powerdelivery 1
    const auto = num(m, 'powerdelivery', 1, 'requestdataobject', [0]);
    set(m, 'powerdelivery', 1, 'requestdataobject', rdo);
    assert.equal(num(m, 'powerdelivery', 1, 'requestdataobject', [0]), rdo);
    set(m, 'powerdelivery', 1, 'requestdataobject', 0); // withdraws it: automatic again
    assert.equal(num(m, 'powerdelivery', 1, 'requestdataobject', [0]), auto);
    assert.notEqual(auto, rdo);
    // What the attached partner offers is module state: 409 aErrMode.
    throwsCode(() => set(m, 'powerdelivery', 1, 'requestdataobject', fixedRdo(6, 100, 100)), E_MODE);
    throwsCode(() => set(m, 'powerdelivery', 1, 'requestdataobject', fixedRdo(2, 3500, 3500)), E_MODE);
  },
  'powerdelivery/requestcommand': (m) => {
    set(m, 'powerdelivery', 0, 'requestcommand', 5);
    assert.equal(num(m, 'powerdelivery', 0, 'requeststatus'), (5 << 8) | 1);
  },
  'usb/portclearerrorstatus': (m) => {
    set(m, 'port', 2, 'currentlimit', 1_000_000); // the phone draws 1.5 A
    assert.equal(num(m, 'usb', 0, 'porterror', [2]), 1);
    set(m, 'usb', 0, 'portclearerrorstatus', 2);
    assert.equal(num(m, 'usb', 0, 'porterror', [2]), 1, 'the overload persists: tripped again');
    set(m, 'port', 2, 'currentlimit', 2_000_000);
    set(m, 'usb', 0, 'portclearerrorstatus', 2);
    assert.equal(num(m, 'usb', 0, 'porterror', [2]), 0);
    assert.ok(num(m, 'usb', 0, 'portcurrent', [2]) > 1_000_000);
  },
  'app/execute': (m) => throwsCode(() => set(m, 'app', 0, 'execute', 1), E_UNIMPLEMENTED),
};
const SWITCHES: { [op: string]: [string[], boolean] } = {
  portenable: [['powerenabled', 'dataenabled'], true], portdisable: [['powerenabled', 'dataenabled'], false],
  dataenable: [['dataenabled'], true], datadisable: [['dataenabled'], false],
  hispeeddataenable: [['datahsenabled'], true], hispeeddatadisable: [['datahsenabled'], false],
  superspeeddataenable: [['datassenabled'], true], superspeeddatadisable: [['datassenabled'], false],
  powerenable: [['powerenabled'], true], powerdisable: [['powerenabled'], false],
};
for (const [op, [ports, on]] of Object.entries(SWITCHES)) {
  PUT_ONLY[`usb/${op}`] = (m) => {
    for (const p of ports) set(m, 'port', 3, p, !on);
    set(m, 'usb', 0, op, 3);
    for (const p of ports) assert.equal(get(m, 'port', 3, p), on, `${op} -> port ${p}`);
    assert.equal(get(m, 'port', 4, ports[0]), true, 'other channels untouched');
  };
}

describe('sim HAL: every settable route reads back what was set', () => {
  for (const r of allRoutes()) {
    if (r.put === '-') continue;
    const key = `${r.entity}/${r.op}${r.params.length ? '/' + r.params.map((p) => p.name).join('/') : ''}`;
    it(key, () => {
      const { m } = rig();
      const check = PUT_ONLY[`${r.entity}/${r.op}`];
      if (check) return check(m);
      const back = readbackOf(r);
      assert.ok(back, `no check for PUT-only ${key}`);
      PREPARE[`${r.entity}/${r.op}`]?.(m);
      for (const p of paramSets(m, r, 0)) {
        const rp = back.params(p);
        const before = get(m, r.entity, 0, back.route.op, rp);
        const v = nextValue(r, before);
        assert.notDeepEqual(v, before, `${key}: test value equals the current one`);
        set(m, r.entity, 0, r.op, v, p);
        const after = get(m, r.entity, 0, back.route.op, rp);
        const tol = TOLERANCE[`${r.entity}/${r.op}`];
        if (tol) assert.ok(Math.abs((after as number) - (v as number)) <= tol, `${key}: ${String(after)} vs ${String(v)}`);
        else assert.deepEqual(after, v, `${key} ${p.join('/')}`);
      }
    });
  }
});

// ---- behaviour ----

describe('sim HAL: rail', () => {
  const railOn = (m: ModuleHal) => {
    set(m, 'rail', 0, 'voltagesetpoint', 5_000_000);
    set(m, 'rail', 0, 'enable', true);
  };
  const meters = (m: ModuleHal) => ({
    v: num(m, 'rail', 0, 'voltage'), i: num(m, 'rail', 0, 'current'),
    p: num(m, 'rail', 0, 'power'), r: num(m, 'rail', 0, 'resistance'),
  });

  it('reads ~0 when disabled and follows the setpoint into its load when enabled (CV)', () => {
    const { m } = rig();
    assert.equal(num(m, 'rail', 0, 'voltage'), 0);
    assert.equal(num(m, 'rail', 0, 'current'), 0);
    railOn(m);
    const x = meters(m);
    assert.ok(Math.abs(x.v - 5_000_000) < 1000, `V ${x.v}`);
    assert.ok(Math.abs(x.i - 200_000) < 100, `I ${x.i}`); // 5 V into 25 ohm
    assert.equal(x.p, Math.round((x.v * x.i) / 1e9)); // mW from uV x uA
    assert.equal(x.r, Math.round((x.v * 1000) / x.i)); // mOhm from uV / uA
    assert.ok(Math.abs(x.r - 25_000) < 10);
    assert.equal((num(m, 'rail', 0, 'operationalstate') >>> 24) & 3, 1, 'CV');
    assert.equal(num(m, 'rail', 0, 'operationalstate') & 2, 2, 'enabled bit');
  });

  it('follows the load and the mode (CC, CP)', () => {
    const { m } = rig();
    railOn(m);
    m.setRailLoad(0, 10_000);
    assert.ok(Math.abs(num(m, 'rail', 0, 'current') - 500_000) < 100);
    set(m, 'rail', 0, 'operationalmode', 0x00); // CC
    set(m, 'rail', 0, 'currentsetpoint', 300_000);
    assert.ok(Math.abs(num(m, 'rail', 0, 'current') - 300_000) < 100);
    assert.ok(Math.abs(num(m, 'rail', 0, 'voltage') - 3_000_000) < 1000);
    set(m, 'rail', 0, 'operationalmode', 0x20); // CP
    set(m, 'rail', 0, 'powersetpoint', 4_000);
    assert.ok(Math.abs(num(m, 'rail', 0, 'power') - 4_000) <= 2);
  });

  it('clamps at the current limit, latches the fault until clearfaults', () => {
    const { m } = rig();
    railOn(m);
    set(m, 'rail', 0, 'currentlimit', 100_000);
    const x = meters(m);
    assert.ok(Math.abs(x.i - 100_000) < 50, `I ${x.i}`);
    assert.ok(Math.abs(x.v - 2_500_000) < 1000, `V ${x.v}`); // 100 mA into 25 ohm
    const st = num(m, 'rail', 0, 'operationalstate');
    assert.ok(st & (1 << 18), 'overcurrent');
    assert.ok(st & (1 << 2), 'fault');
    assert.equal((st >>> 24) & 3, 0, 'in current limit: CC');
    run(m, 'rail', 0, 'clearfaults');
    assert.ok(num(m, 'rail', 0, 'operationalstate') & (1 << 18), 'condition persists: latched again');
    set(m, 'rail', 0, 'currentlimit', 1_000_000);
    run(m, 'rail', 0, 'clearfaults');
    assert.equal(num(m, 'rail', 0, 'operationalstate') & ((1 << 18) | 4), 0);
    assert.ok(num(m, 'system', 0, 'errors') & 1, 'system error bit');
  });

  it('clamps at the power limit and refuses out-of-range settings', () => {
    const { m } = rig();
    railOn(m);
    set(m, 'rail', 0, 'powerlimit', 500);
    assert.ok(num(m, 'rail', 0, 'power') <= 501);
    assert.ok(num(m, 'rail', 0, 'operationalstate') & (1 << 19));
    throwsCode(() => set(m, 'rail', 0, 'voltagesetpoint', 25_000_000), E_RANGE);
    throwsCode(() => set(m, 'rail', 0, 'voltagesetpoint', -1), E_RANGE);
    throwsCode(() => set(m, 'rail', 0, 'operationalmode', 0x44), E_RANGE);
    throwsCode(() => set(m, 'rail', 0, 'voltageminlimit', 21_000_000), E_RANGE);
  });

  it('keeps instances apart', () => {
    const { m } = rig();
    railOn(m);
    assert.equal(get(m, 'rail', 1, 'enable'), false);
    assert.equal(num(m, 'rail', 1, 'voltage'), 0);
  });
});

describe('sim HAL: ports, usb and usbsystem agree', () => {
  it('shows one port switched through usb in port and usbsystem', () => {
    const { m } = rig();
    assert.equal(num(m, 'usbsystem', 0, 'enabledlist'), 0xff);
    assert.ok(Math.abs(num(m, 'port', 0, 'vbusvoltage') - 5_000_000) < 200_000);
    set(m, 'usb', 0, 'portdisable', 0);
    assert.equal(get(m, 'port', 0, 'portenabled'), false);
    assert.equal(num(m, 'usbsystem', 0, 'enabledlist'), 0xfe);
    assert.ok(num(m, 'port', 0, 'vbusvoltage') < 100_000);
    assert.equal(num(m, 'usb', 0, 'portcurrent', [0]), 0);
    assert.equal(num(m, 'usb', 0, 'portstate', [0]) & 1, 0);
    assert.equal((num(m, 'usbsystem', 0, 'datarolelist') >> 0) & 3, 0, 'data role disabled');
    assert.equal((get(m, 'usbsystem', 0, 'statelist') as number[])[0], num(m, 'port', 0, 'portstate'));
    set(m, 'usb', 0, 'portenable', 0);
    assert.equal(num(m, 'usbsystem', 0, 'enabledlist'), 0xff);
    assert.ok(Math.abs(num(m, 'usb', 0, 'portvoltage', [0]) - 5_000_000) < 200_000);
    assert.ok(Math.abs(num(m, 'port', 0, 'vbuscurrent') - 320_000) < 5_000, 'the drive draws 320 mA');
    throwsCode(() => set(m, 'usb', 0, 'portenable', 9), E_RANGE);
  });

  it('has one portmode word for port, usb channel and modelist', () => {
    const { m } = rig();
    set(m, 'port', 5, 'portmode', VALID_MODE);
    assert.equal(num(m, 'usb', 0, 'portmode', [5]), VALID_MODE);
    assert.equal((get(m, 'usbsystem', 0, 'modelist') as number[])[5], VALID_MODE);
    assert.equal(get(m, 'port', 5, 'datassenabled'), false);
    assert.equal(num(m, 'port', 5, 'powermode'), 1);
    set(m, 'usbsystem', 0, 'modelist', [0x46]);
    assert.equal(num(m, 'port', 0, 'portmode'), 0x46);
    assert.equal(get(m, 'port', 0, 'dataenabled'), false);
    throwsCode(() => set(m, 'port', 0, 'portmode', 0x7), E_RANGE);
    throwsCode(() => set(m, 'usbsystem', 0, 'modelist', new Array(9).fill(0)), E_RANGE);
  });

  it('derives data roles from the upstream port', () => {
    const { m } = rig();
    set(m, 'usbsystem', 0, 'upstreamport', 3);
    assert.equal(num(m, 'port', 3, 'datarole'), 1);
    assert.equal(num(m, 'port', 2, 'datarole'), 2);
    assert.equal((num(m, 'usbsystem', 0, 'datarolelist') >> 6) & 3, 1);
    throwsCode(() => set(m, 'usbsystem', 0, 'upstreamport', 8), E_RANGE);
    throwsCode(() => set(m, 'usbsystem', 0, 'powerbehaviorconfig', [1, 1]), E_DUPLICATE);
  });

  it('accumulates Vbus energy with time and trips on overcurrent', () => {
    const { m, clock } = rig();
    const p = num(m, 'port', 2, 'allocatedpower'); // the phone: ~7.5 W
    assert.ok(p > 7_000 && p < 7_600, `power ${p}`);
    clock.t += 3_600_000;
    const e = num(m, 'port', 2, 'vbusaccumulatedpower');
    assert.ok(Math.abs(e - p) < p * 0.02, `${e} mWh after an hour at ${p} mW`);
    run(m, 'port', 2, 'resetvbusaccumulatedpower');
    assert.equal(num(m, 'port', 2, 'vbusaccumulatedpower'), 0);
    assert.equal(num(m, 'port', 3, 'vbusaccumulatedpower'), 0, 'empty port');
    set(m, 'usb', 0, 'portcurrentlimit', 1_000_000, [2]);
    assert.ok(num(m, 'port', 2, 'portstate') & (1 << 7), 'tripped');
    assert.equal(num(m, 'port', 2, 'vbuscurrent'), 0);
    assert.equal(num(m, 'usb', 0, 'porterror', [2]), 1);
    assert.equal(num(m, 'system', 0, 'errors') & 2, 2);
    set(m, 'port', 2, 'currentlimit', 2_000_000);
    assert.ok(num(m, 'port', 2, 'portstate') & (1 << 7), 'stays tripped until the error is cleared');
    assert.equal(num(m, 'port', 2, 'errors'), 1);
    assert.equal(num(m, 'port', 2, 'errors'), 0, 'reading cleared it');
    assert.ok(num(m, 'port', 2, 'vbuscurrent') > 1_000_000, 'power back');
  });

  it('rounds an unachievable current limit down', () => {
    const { m } = rig();
    set(m, 'usb', 0, 'portcurrentlimit', 1_234_567, [1]);
    assert.equal(num(m, 'port', 1, 'currentlimit'), 1_230_000);
  });
});

describe('sim HAL: pointer and store', () => {
  it('auto-increments by element width, little-endian', () => {
    const { m } = rig();
    set(m, 'pointer', 0, 'mode', 1);
    set(m, 'pointer', 0, 'int', 0x11223344);
    set(m, 'pointer', 0, 'short', 0x5566);
    set(m, 'pointer', 0, 'char', 0x77);
    assert.equal(num(m, 'pointer', 0, 'offset'), 7);
    set(m, 'pointer', 0, 'offset', 0);
    assert.equal(num(m, 'pointer', 0, 'char'), 0x44);
    assert.equal(num(m, 'pointer', 0, 'char'), 0x33);
    assert.equal(num(m, 'pointer', 0, 'short'), 0x1122);
    assert.equal(num(m, 'pointer', 0, 'short'), 0x5566);
    assert.equal(num(m, 'pointer', 0, 'offset'), 6);
    set(m, 'pointer', 0, 'mode', 0);
    assert.equal(num(m, 'pointer', 0, 'char'), 0x77);
    assert.equal(num(m, 'pointer', 0, 'offset'), 6, 'static mode');
    set(m, 'pointer', 0, 'offset', 1022);
    throwsCode(() => get(m, 'pointer', 0, 'int'), E_MODE); // depends on the offset: 409, move it first
    throwsCode(() => set(m, 'pointer', 0, 'offset', 1024), E_RANGE);
  });

  it('refuses writes to a locked slot and absent stores', () => {
    const { m } = rig();
    set(m, 'pointer', 0, 'char', 9);
    set(m, 'store', 0, 'lock', true, [1]);
    throwsCode(() => set(m, 'pointer', 0, 'transfertostore', 1), E_PERMISSION);
    assert.equal(num(m, 'store', 0, 'slotsize', [1]), 0);
    set(m, 'store', 0, 'lock', false, [1]);
    set(m, 'pointer', 0, 'transfertostore', 1);
    assert.equal(num(m, 'store', 0, 'slotsize', [1]), 1024);
    throwsCode(() => set(m, 'pointer', 0, 'transferstore', 2), E_RANGE);
    throwsCode(() => set(m, 'pointer', 0, 'transfertostore', 12), E_RANGE);
    throwsCode(() => set(m, 'store', 0, 'slotenable', 12), E_RANGE);
  });

  it('keeps internal slots across reset and power cycles, wipes RAM slots', () => {
    const storage = memoryStorage();
    const { m } = rig(storage);
    set(m, 'pointer', 0, 'int', 0xabcdef01);
    set(m, 'pointer', 0, 'transfertostore', 4);
    set(m, 'pointer', 0, 'transferstore', 1);
    set(m, 'pointer', 0, 'transfertostore', 1);
    set(m, 'store', 0, 'lock', true, [4]);
    run(m, 'system', 0, 'reset');
    m.afterResponse();
    assert.equal(num(m, 'store', 1, 'slotsize', [1]), 0);
    assert.equal(num(m, 'store', 0, 'slotsize', [4]), 1024);
    const again = rig(storage).m;
    assert.equal(get(again, 'store', 0, 'lock', [4]), true);
    set(again, 'pointer', 0, 'transferfromstore', 4);
    assert.equal(num(again, 'pointer', 0, 'int'), 0xabcdef01);
  });
});

describe('sim HAL: analog bulk capture', () => {
  it('is pending for samples/rate seconds, then writes LE samples into RAM slot 0', () => {
    const { m, clock } = rig();
    set(m, 'analog', 1, 'bulkcapturesamplerate', 10_000);
    set(m, 'analog', 1, 'bulkcapturenumberofsamples', 500); // 50 ms
    run(m, 'analog', 1, 'bulkcapture');
    assert.equal(num(m, 'analog', 1, 'bulkcapturestate'), 1);
    throwsCode(() => run(m, 'analog', 0, 'bulkcapture'), 5); // aErrBusy: one capture at a time
    clock.t += 49;
    assert.equal(num(m, 'analog', 1, 'bulkcapturestate'), 1);
    clock.t += 1;
    assert.equal(num(m, 'analog', 1, 'bulkcapturestate'), 2);
    assert.equal(num(m, 'store', 1, 'slotsize', [0]), 1000);
    set(m, 'pointer', 0, 'transferstore', 1);
    set(m, 'pointer', 0, 'transferfromstore', 0);
    set(m, 'pointer', 0, 'mode', 1);
    const samples: number[] = [];
    for (let k = 0; k < 500; k++) samples.push(num(m, 'pointer', 0, 'short'));
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    const volts = (mean / 65535) * 3.3;
    assert.ok(Math.abs(volts - 0.9) < 0.05, `mean ${volts} V on analog 1 (0.9 V DC + 1 kHz tone)`);
    assert.ok(Math.max(...samples) - Math.min(...samples) > 6000, 'the tone shows');
  });

  it('clamps to the slot capacity, refuses outputs and a locked slot', () => {
    const { m, clock } = rig();
    set(m, 'analog', 0, 'bulkcapturenumberofsamples', 100_000);
    set(m, 'analog', 0, 'bulkcapturesamplerate', 200_000);
    run(m, 'analog', 0, 'bulkcapture');
    clock.t += 500;
    assert.equal(num(m, 'analog', 0, 'bulkcapturestate'), 2);
    assert.equal(num(m, 'store', 1, 'slotsize', [0]), 16384);
    assert.ok(num(m, 'system', 0, 'errors') & 8);
    set(m, 'store', 1, 'lock', true, [0]);
    throwsCode(() => run(m, 'analog', 0, 'bulkcapture'), E_PERMISSION);
    set(m, 'analog', 2, 'configuration', 1);
    throwsCode(() => run(m, 'analog', 2, 'bulkcapture'), E_MODE);
    throwsCode(() => set(m, 'analog', 3, 'value', 100), E_MODE);
  });
});

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
