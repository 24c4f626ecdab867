// Published limits of the device HAL are exactly what it enforces (docs/api.md §What a module has
// and accepts): every operation of every entity of a board with every entity, through the Api, on the
// fakes. For each published bound a value at it is accepted and one just outside is 400 aErrRange; an
// operation the module only reads answers PUT with 501; a refusal that depends on the module's state is
// 409 aErrMode with a message saying what to change.

import { strict as assert } from 'node:assert';
import { board, freshWorld, makeModule, FULL_BOARD } from './fakes/world';
import { manifestBoards } from './manifest-boards';
import { call } from './helpers';
import { Api } from '../src/api/api';
import { allRoutes, type Route } from '../src/api/route/routes';
import { intType } from '../src/api/values/value-decode';
import type { EntityHal, OpLimits } from '../hal/types';

const BASE = '/api/v1/device';

/** A value to prepare with: the operation's own published max on the board. */
const MAX = 'max';

/** State an at-bound value needs first (the module refuses it otherwise, 409, tested below). */
const PREPARE: { readonly [route: string]: readonly [string, number | typeof MAX][] } = {
  // The output on, so that each bound also goes through the PWM driver (312.5 kHz .. the board's lowest).
  'signal/t3time': [['enable', 1], ['t2time', 0]],
  'signal/t2time': [['enable', 1], ['t3time', MAX]],
  'digital/state': [['configuration', 1]],
  'digital/value': [['configuration', 1]],
  'clock/day': [['month', 1]], // a month of 31 days
};

/** The board with every entity, then each board profile of manifest.json (esp32, pico/pico_w, lin). */
const BOARDS: [string, Record<string, unknown>][] = [['full test board', FULL_BOARD], ...manifestBoards()];

function fresh(raw: Record<string, unknown> = FULL_BOARD): { api: Api; entity(name: string): EntityHal | undefined } {
  freshWorld();
  const m = makeModule(board(raw));
  const entities = m.entities as { readonly [name: string]: EntityHal | undefined };
  return { api: new Api([m]), entity: (name) => entities[name] };
}

function typeBounds(r: Route): [number, number] {
  if (r.put === 'BOOL') return [0, 1];
  const t = intType(r.type);
  const lo = t.signed ? -(2 ** (t.bits - 1)) : 0;
  return [lo, t.signed ? 2 ** (t.bits - 1) - 1 : 2 ** t.bits - 1];
}

function path(r: Route, index: number): string {
  return [BASE, r.entity, index, r.op, ...r.params.map((p) => Math.max(0, p.min))].join('/');
}

function json(r: Route, n: number): unknown {
  return r.put === 'BOOL' ? n === 1 : n;
}

async function putValue(api: Api, r: Route, index: number, n: number): Promise<{ status: number; json: any }> {
  return call(api, 'PUT', path(r, index), { value: json(r, n) });
}

/** The values to try for `l`: [accepted, refused]. */
function probes(r: Route, l: OpLimits): [number[], number[]] {
  const [tlo, thi] = typeBounds(r);
  const inType = (n: number) => n >= tlo && n <= thi;
  if (l.values) {
    const refused = new Set<number>();
    for (const v of l.values) for (const n of [v - 1, v + 1]) if (inType(n) && !l.values.includes(n)) refused.add(n);
    return [[...l.values], [...refused]];
  }
  const lo = l.min ?? tlo;
  const hi = l.max ?? thi;
  return [[lo, hi], [lo - 1, hi + 1].filter((n) => n !== tlo - 1 || l.min !== undefined)];
}

/** Every operation with a PUT form that the board's module has. */
function settable(raw: Record<string, unknown> = FULL_BOARD): Route[] {
  const w = fresh(raw);
  return allRoutes().filter((r) => r.put !== '-' && r.put !== 'BYTES' && w.entity(r.entity) && w.entity(r.entity)!.supports(r.op));
}

describe('device HAL: published limits are the enforced ones', () => {
  it('publishes the board limits from the op tables', () => {
    const w = fresh();
    const lim = (e: string, op: string) => w.entity(e)!.limits!(op);
    assert.deepEqual(lim('signal', 't3time'), { min: 3200, max: 500000000 });
    assert.deepEqual(lim('analog', 'range'), { values: [0] });
    assert.deepEqual(lim('analog', 'value'), { readOnly: true });
    assert.deepEqual(lim('ethernet', 'networkconfiguration'), { values: [2] });
    assert.deepEqual(lim('digital', 'configuration'), { values: [0, 1, 4] });
    assert.deepEqual(lim('digital', 'stateall'), { min: 0, max: 15 });
    assert.deepEqual(lim('uart', 'baudrate'), { min: 300, max: 5000000 });
    assert.deepEqual(lim('store', 'slotenable'), { min: 0, max: 1 });
    const offsets = lim('system', 'modulesoftwareoffset')!.values!;
    assert.equal(offsets.length, 128);
    assert.ok(offsets.every((v, k) => v === 2 * k));
    assert.equal(lim('system', 'hbinterval'), null); // the route table's 1..255 is all there is
    assert.equal(lim('system', 'save'), null); // an action
  });

  for (const [name, raw] of BOARDS) it(`${name}: publishes min and max (or values) for every integer PUT, accepts each bound and refuses one just outside`, async function () {
    this.timeout(60000);
    const entities = (await call(fresh(raw).api, 'GET', BASE + '/0x1234abcd')).json.response.entities;
    let bounds = 0;
    for (const r of settable(raw)) {
      const op = entities[r.entity]?.operations[r.op];
      if (!op || !op.put || !['I8', 'I16', 'I32', 'L32'].includes(op.put)) continue;
      assert.ok(op.values ? op.values.length > 0 : Number.isInteger(op.min) && Number.isInteger(op.max), `${r.entity}/${r.op} publishes its bounds`);
      const l: OpLimits = op.values ? { values: op.values } : { min: op.min, max: op.max };
      const named = op.values ? ' is not one of ' : ` is out of range ${op.min}..${op.max}`;
      const [accepted, refused] = probes(r, l);
      const w = fresh(raw);
      const count = w.entity(r.entity)!.count;
      for (let i = 0; i < count; i++) {
        for (const [prep, v] of PREPARE[`${r.entity}/${r.op}`] ?? []) {
          const value = v === MAX ? entities[r.entity].operations[prep].max : v;
          const p = await call(w.api, 'PUT', `${BASE}/${r.entity}/${i}/${prep}`, { value });
          assert.equal(p.status, 200, JSON.stringify(p.json));
        }
        for (const n of accepted) {
          const a = await putValue(w.api, r, i, n);
          assert.equal(a.status, 200, `${path(r, i)} ${n}: ${JSON.stringify(a.json)}`);
          bounds++;
        }
        for (const n of refused) {
          const a = await putValue(w.api, r, i, n);
          assert.equal(a.status, 400, `${path(r, i)} ${n}: ${JSON.stringify(a.json)}`);
          assert.equal(a.json.response.error, 'aErrRange', `${path(r, i)} ${n}`);
          assert.ok(a.json.response.message.includes(named), `${path(r, i)} ${n}: ${a.json.response.message} names${named}`);
          bounds++;
        }
      }
    }
    assert.ok(bounds > 100, `only ${bounds} bounds checked`);
  });

  it('answers PUT with 501 aErrUnimplemented exactly where it publishes readOnly', async () => {
    let readOnly = 0;
    for (const r of settable()) {
      const w = fresh();
      const l = w.entity(r.entity)!.limits!(r.op);
      if (!l || !l.readOnly) continue;
      readOnly++;
      const [lo] = typeBounds(r);
      const a = await putValue(w.api, r, 0, r.min <= r.max ? r.min : Math.max(0, lo));
      assert.equal(a.status, 501, `${path(r, 0)}: ${JSON.stringify(a.json)}`);
      assert.equal(a.json.response.error, 'aErrUnimplemented');
      assert.equal((await call(w.api, 'GET', path(r, 0))).status, 200, path(r, 0));
    }
    assert.equal(readOnly, 3); // analog value, analog voltage, uart linkchannel
  });

  it('refuses what the present state forbids with 409 aErrMode saying what to change', async () => {
    const cases: [string, unknown, RegExp][] = [
      ['signal/0/t3time', 3200, /lower signal\/0\/t2time first/],
      ['signal/0/t2time', 500000000, /raise signal\/0\/t3time first/],
      ['digital/1/value', 1, /set digital\/1\/configuration to 1/],
      ['digital/1/state', true, /set digital\/1\/configuration to 1/],
    ];
    for (const [p, value, message] of cases) {
      const w = fresh();
      const a = await call(w.api, 'PUT', `${BASE}/${p}`, { value });
      assert.equal(a.status, 409, p);
      assert.equal(a.json.response.error, 'aErrMode', p);
      assert.match(a.json.response.message, message);
    }
    const w = fresh(); // February has no 30th: set the month first (here: it is refused while in February)
    assert.equal((await call(w.api, 'PUT', `${BASE}/clock/0/month`, { value: 2 })).status, 200);
    const day = await call(w.api, 'PUT', `${BASE}/clock/0/day`, { value: 30 });
    assert.equal(day.status, 409);
    assert.match(day.json.response.message, /set month/);
  });
});
