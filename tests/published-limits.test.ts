// What is published is exactly what is enforced (docs/api.md §What a module has and accepts), walked for every
// operation of every simulator profile: GET /api/v1/device/{serial} is read, then for each settable
// operation with min/max or values, at every instance, each published bound is accepted and the
// integer just outside is refused 400 aErrRange (for values: every non-member next to a member).
// Operations published without `put` answer PUT with 501. Generated from the description itself, so
// a new limit is walked without a new test.
import { strict as assert } from 'node:assert';
import { Api } from '../src/api/api';
import { routeForms } from '../src/api/route/routes';
import { routeBounds } from '../src/openapi/schemas';
import { createSimModule, PROFILES, type SimProfile } from '../hal/sim/index';
import type { HalOf, ModuleHal } from '../hal/types';
import { call, type Answer } from './helpers';
import { OpenApiValidator } from './openapi-validator';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';

// Every answer of the walk is also checked against the OpenAPI document.
const validator = new OpenApiValidator(JSON.parse(gunzipSync(fs.readFileSync(path.resolve(__dirname, '../../resources/openapi-sim.json.gz'))).toString('utf8')));

function conforms(method: string, p: string, a: Answer): Answer {
  assert.equal(validator.check(method, p, a.status, a.json), '');
  return a;
}

const SERIAL = 0x0badcafe;
const BASE = '/api/v1/device/0x0BADCAFE';

interface Param { name: string; min: number; max: number }
interface Op { get?: string; put?: string; type: string; params: Param[]; putParams?: Param[]; min?: number; max?: number; values?: number[] }

/** State a bound needs first (the module refuses it, 409, in its default state). */
const PREPARE: { [route: string]: [string, unknown][] } = {
  'analog/voltage': [['configuration', 1], ['range', 12]], // an output, on the 20 V range
  'analog/value': [['configuration', 1]],
  'clock/day': [['month', 1]], // a month of 31 days
  'digital/value': [['configuration', 1]],
  'signal/t3time': [['t2time', 0]],
  'signal/t2time': [['t3time', 4294967295]],
};

/**
 * Bit-field words: the bounds are the word's, and a field inside is checked on its own (400 aErrRange
 * naming the field). The walk sends a word whose fields are valid: here the power mode (low nibble) 6.
 */
const WORD_FIELDS: { [route: string]: (v: number) => number } = {
  'port/portmode': (v) => ((v & ~0x0f) | (v & 0x0f ? 6 : 0)) >>> 0,
  'usb/portmode': (v) => ((v & ~0x0f) | (v & 0x0f ? 6 : 0)) >>> 0,
  'usbsystem/modelist': (v) => ((v & ~0x0f) | (v & 0x0f ? 6 : 0)) >>> 0, // entries are portmode words
};

/** In-bound values the simulated module's fixed state refuses (409 aErrMode): the partner is a sink. */
const STATE_REFUSES = new Set(['powerdelivery/requestdataobject']);

/** Path parameters other than the lowest: rule 1 of a PDO table is the fixed 5 V supply, walk rule 2. */
const PARAMS: { [route: string]: number[] } = {
  'powerdelivery/powerdataobject': [1, 2],
};

/** Operations whose bound is the largest instance's (a store's slots): walked at that instance. */
const LARGEST_INSTANCE = new Set(['store/slotenable', 'store/slotdisable']);

const INTEGER_PUT = ['I8', 'I16', 'I32', 'L32'];

/** The published values as a message lists them (hal/kit/value-limits.ts). */
function listed(v: number[]): string {
  return v.length <= 8 ? v.join(', ') : v.slice(0, 6).join(', ') + ', ... ' + v[v.length - 1];
}

function fresh(profile: SimProfile): Api {
  return new Api([createSimModule({ serialNumber: SERIAL, profile })]);
}

async function describeOf(profile: SimProfile): Promise<{ [entity: string]: { count: number; operations: { [op: string]: Op } } }> {
  const a = await call(fresh(profile), 'GET', BASE);
  assert.equal(a.status, 200);
  return a.json.response.entities;
}

/** The integers the walk sends for a limit: [accepted, refused]. */
function probes(op: Op, lo: number, hi: number): [number[], number[]] {
  if (op.values) {
    const refused: number[] = [];
    for (const v of op.values) {
      for (const n of [v - 1, v + 1]) if (op.values.indexOf(n) < 0 && refused.indexOf(n) < 0) refused.push(n);
    }
    if (refused.length === 0) refused.push(lo - 1);
    return [op.values, refused.filter((n) => n >= lo - 1 && n <= hi + 1)];
  }
  const min = op.min ?? lo;
  const max = op.max ?? hi;
  return [[min, max], [min - 1, max + 1]];
}

async function putAt(api: Api, entity: string, index: number, name: string, op: Op, value: unknown) {
  const p = `${BASE}/${entity}/${index}/${name}` + (PARAMS[`${entity}/${name}`] ?? (op.putParams ?? op.params).map((q) => q.min)).map((q) => '/' + q).join('');
  return conforms('PUT', p, await call(api, 'PUT', p, { value: op.type.startsWith('list') ? [value] : value }));
}

for (const profile of PROFILES) {
  describe(`published limits are enforced: ${profile.name}`, function () {
    this.timeout(20_000);

    it('accepts each published bound and refuses the integer just outside with 400 aErrRange', async () => {
      const entities = await describeOf(profile);
      let walked = 0;
      for (const entity of Object.keys(entities)) {
        for (const [name, op] of Object.entries(entities[entity].operations)) {
          if (!op.put || !INTEGER_PUT.includes(op.put)) continue;
          assert.ok(op.values ? op.values.length > 0 : Number.isInteger(op.min) && Number.isInteger(op.max), `${entity}/${name} publishes min and max or values`);
          const put = routeForms(entity, name)!.find((r) => r.put !== '-')!;
          const [lo, hi] = op.type.startsWith('list') ? [0, 4294967295] : routeBounds(put);
          assert.ok((op.min ?? lo) >= lo && (op.max ?? hi) <= hi, `${entity}/${name}: published within the type`);
          const [ok, bad] = probes(op, lo, hi);
          const bounds = op.values ? ` is not one of ${listed(op.values)}` : ` is out of range ${op.min}..${op.max}`;
          const field = WORD_FIELDS[`${entity}/${name}`] ?? ((v: number) => v);
          const count = LARGEST_INSTANCE.has(`${entity}/${name}`) ? 1 : entities[entity].count;
          for (let index = 0; index < count; index++) {
            for (const v of ok.map(field)) {
              const api = fresh(profile);
              for (const [prep, pv] of PREPARE[`${entity}/${name}`] ?? []) {
                assert.equal((await call(api, 'PUT', `${BASE}/${entity}/${index}/${prep}`, { value: pv })).status, 200, `${entity}/${prep}`);
              }
              const a = await putAt(api, entity, index, name, op, v);
              const refused = STATE_REFUSES.has(`${entity}/${name}`) && a.json.response.error === 'aErrMode';
              assert.equal(refused ? 200 : a.status, 200, `${profile.name} ${entity}/${index}/${name} ${v}: ${a.text}`);
            }
            const api = fresh(profile);
            for (const v of bad) {
              const a = await putAt(api, entity, index, name, op, v);
              assert.equal(a.status, 400, `${profile.name} ${entity}/${index}/${name} ${v} must be refused: ${a.text}`);
              assert.equal(a.json.response.error, 'aErrRange', `${entity}/${name} ${v}`);
              assert.ok(a.json.response.message.endsWith(bounds), `${entity}/${name} ${v}: "${a.json.response.message}" names ${bounds}`);
            }
            walked++;
          }
        }
      }
      assert.ok(walked > 0, 'some limits were walked');
    });
  });
}

describe('published limits: read-only operations', () => {
  it('a module that cannot set an operation publishes no put and answers PUT with 501', async () => {
    // No simulator profile has one today, so a module wraps the simulator's system entity to say
    // hbinterval is read-only here (as a board with a fixed heartbeat would).
    const sim = createSimModule({ serialNumber: SERIAL });
    const system = sim.entities.system!;
    const fixed: HalOf<'system'> = {
      count: system.count, supports: (op) => system.supports(op), limit: (i, p) => system.limit(i, p),
      limits: (op) => (op === 'hbinterval' ? { readOnly: true } : system.limits!(op)),
      get: (i, op, p) => system.get(i, op, p), set: (i, op, p, v) => system.set(i, op, p, v), run: (i, op, p) => system.run(i, op, p),
    };
    const module: ModuleHal = { serialNumber: SERIAL, entities: { ...sim.entities, system: fixed }, now: () => sim.now(), afterResponse: () => sim.afterResponse() };
    const api = new Api([module]);
    const op = (await call(api, 'GET', BASE)).json.response.entities.system.operations.hbinterval;
    assert.deepEqual(op, { get: 'int', type: 'u8', unit: '25.6ms', params: [] });
    const a = conforms('PUT', `${BASE}/system/0/hbinterval`, await call(api, 'PUT', `${BASE}/system/0/hbinterval`, { value: 5 }));
    assert.equal(a.status, 501);
    assert.equal(a.json.response.error, 'aErrUnimplemented');
    assert.deepEqual(a.json.request.parameters, { value: 5 });
    assert.equal((await call(api, 'GET', `${BASE}/system/0/hbinterval`)).status, 200, 'still readable');
  });
});

describe('published limits: what each profile publishes', () => {
  it('publishes the rail rating, the digital value, the mux split bits and the port Vbus setpoint', async () => {
    const e = await describeOf(PROFILES[0]);
    assert.deepEqual(pick(e.rail.operations.powersetpoint), { min: 0, max: 60000 });
    assert.deepEqual(pick(e.rail.operations.voltagesetpoint), { min: 0, max: 20000000 });
    assert.deepEqual(pick(e.digital.operations.value), { min: 0, max: 1 });
    assert.deepEqual(pick(e.mux.operations.split), { min: 0, max: 15 });
    assert.deepEqual(pick(e.port.operations.voltagesetpoint), { min: 0, max: 20000000 });
    assert.deepEqual(e.usb.operations.upstreammode.values, [0, 1, 2, 255]);
    assert.deepEqual(e.usb.operations.portenable, { put: 'I8', type: 'u8', unit: '', params: [], min: 0, max: 7 });
    assert.equal(e.system.operations.serialnumber.put, undefined, 'read-only: no put');
  });

  it('a refusal that depends on the module state is 409 aErrMode saying what to change', async () => {
    const api = fresh(PROFILES[0]);
    await call(api, 'PUT', `${BASE}/rail/0/voltagemaxlimit`, { value: 5_000_000 });
    const a = await call(api, 'PUT', `${BASE}/rail/0/voltageminlimit`, { value: 6_000_000 });
    assert.equal(a.status, 409);
    assert.equal(a.json.response.error, 'aErrMode');
    assert.match(a.json.response.message, /raise voltagemaxlimit first/);
    const d = await call(api, 'PUT', `${BASE}/digital/0/value`, { value: 1 });
    assert.equal(d.status, 409);
    assert.match(d.json.response.message, /set configuration 1 first/);
  });
});

function pick(op: Op): { min?: number; max?: number } {
  return { min: op.min, max: op.max };
}
