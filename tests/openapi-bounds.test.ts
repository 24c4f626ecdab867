// The OpenAPI documents carry the bounds the description publishes: for every settable integer
// operation of the module a document is made for (the simulator's default profile for the simulator's,
// the esp32 board of manifest.json for the device build's), the value schema's minimum/maximum, or its
// enum, equal the description's min/max or values (GET /api/v1/device/{serial} of that very module).
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { board, freshWorld, makeModule } from './fakes/world';
import { manifestBoards } from './manifest-boards';
import { call } from './helpers';
import { Api } from '../src/api/api';
import { allRoutes, type Route } from '../src/api/route/routes';
import { takesIntegers } from '../src/api/values/bounds';
import { createSimModule, findProfile } from '../hal/sim/index';
import { DEFAULT_PROFILE } from '../host-sim/options';
import { DEVICE_DOCUMENT, DEVICE_PLATFORM, SIM_DOCUMENT } from '../tools/openapi-documents';
import type { ModuleHal } from '../hal/types';

const ROOT = path.resolve(__dirname, '../..');

function stored(file: string): any {
  return JSON.parse(gunzipSync(fs.readFileSync(path.join(ROOT, file))).toString('utf8'));
}

/** The integer schema of a PUT's value (of each entry, for a list). */
function integerSchema(doc: any, r: Route): any {
  const p = `/api/v1/device/{serial}/${r.entity}/{index}/${r.op}` + r.params.map((x) => `/{${x.name === 'index' ? 'entityIndex' : x.name}}`).join('');
  const value = doc.paths[p].put.requestBody.content['application/json'].schema.properties.value;
  return (r.put === 'L32' ? value.items : value).oneOf[0];
}

/** [route, what the description publishes, what the document carries] for every settable integer PUT. */
async function compare(doc: any, m: ModuleHal): Promise<[string, unknown, unknown][]> {
  const d = await call(new Api([m]), 'GET', '/api/v1/device');
  const description = await call(new Api([m]), 'GET', `/api/v1/device/${d.json.response[0].serialNumber}`);
  const entities = description.json.response.entities;
  const out: [string, unknown, unknown][] = [];
  for (const r of allRoutes()) {
    const published = entities[r.entity]?.operations[r.op];
    if (!published || published.put === undefined || !takesIntegers(r)) continue;
    const s = integerSchema(doc, r);
    const carried = s.enum ? { values: s.enum } : { min: s.minimum, max: s.maximum };
    const expected = published.values ? { values: published.values } : { min: published.min, max: published.max };
    out.push([`${r.entity}/${r.op}/${r.params.length}`, expected, carried]);
  }
  return out;
}

function deviceModule(): ModuleHal {
  const raw = manifestBoards().find(([name]) => name === DEVICE_PLATFORM)![1];
  freshWorld();
  return makeModule(board(raw));
}

describe('OpenAPI bounds are the published ones', () => {
  const cases: [string, string, () => ModuleHal][] = [
    [`the simulator's default profile (${DEFAULT_PROFILE})`, SIM_DOCUMENT, () => createSimModule({ profile: findProfile(DEFAULT_PROFILE)! })],
    [`the device board (${DEVICE_PLATFORM} of manifest.json)`, DEVICE_DOCUMENT, deviceModule],
  ];
  for (const [who, file, make] of cases) {
    it(`${file}: every settable integer operation of ${who}`, async () => {
      const doc = stored(file);
      const pairs = await compare(doc, make());
      assert.ok(pairs.length > 20, `${pairs.length} settable integer operations`);
      assert.ok(pairs.some(([, e]) => (e as { values?: number[] }).values) || file === SIM_DOCUMENT, 'an operation with values');
      for (const [route, expected, carried] of pairs) assert.deepEqual(carried, expected, route);
      assert.match(doc.info.description, /other profiles and boards may accept narrower or other bounds/);
      assert.match(doc.info.description, /GET \/api\/v1\/device\/\{serial\} publishes each module's own/);
    });
  }

  it('the two documents differ where the module does: digital/stateall (one bit per pin)', () => {
    const sim = integerSchema(stored(SIM_DOCUMENT), allRoutes().find((r) => r.entity === 'digital' && r.op === 'stateall' && r.put !== '-')!);
    const dev = integerSchema(stored(DEVICE_DOCUMENT), allRoutes().find((r) => r.entity === 'digital' && r.op === 'stateall' && r.put !== '-')!);
    const pins = (manifestBoards().find(([name]) => name === DEVICE_PLATFORM)![1].digital as number[]).length;
    assert.equal(dev.maximum, 2 ** pins - 1);
    assert.notEqual(sim.maximum, dev.maximum);
  });
});
