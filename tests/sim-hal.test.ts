// The host-sim HAL (hal/sim) through the ModuleHal interface: every route answers with the right type
// and every settable route reads back what was set (the coupled behaviour is in sim-hal-physics.test.ts
// and sim-hal-state.test.ts).

import assert from 'node:assert/strict';
import { allRoutes, type Route } from '../src/api/route/routes';
import type { HalValue, ModuleHal } from '../hal/types';
import { type SimModule } from '../hal/sim';
import { fixedRdo } from '../hal/sim/powerdelivery';
import { E_MODE, E_UNIMPLEMENTED, VALID_MODE, ent, get, num, rig, set, throwsCode } from './sim-rig';

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
