// The OpenAPI document: the stored files are what the generator makes today, a third-party linter
// (@redocly/cli) finds no error, and every answer of a walk over every route of every simulator
// profile (GET and PUT, successes and errors) validates against it (tests/openapi-validator.ts).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Api } from '../src/api/api';
import { allRoutes, type Route } from '../src/api/route/routes';
import { DEVICE_DOCUMENT, openApiDocuments, SIM_DOCUMENT } from '../tools/openapi-documents';
import { simOpenApi } from '../host-sim/openapi-source';
import { createSimModule, PROFILES, type SimProfile } from '../hal/sim/index';
import { call, type Answer } from './helpers';
import { OpenApiValidator } from './openapi-validator';

const ROOT = path.resolve(__dirname, '../..');
const SERIAL = 0x0badcafe;
const DEVICE = '/api/v1/device/0x0BADCAFE';

function stored(file: string): string {
  return gunzipSync(fs.readFileSync(path.join(ROOT, file))).toString('utf8');
}

describe('OpenAPI document', function () {
  this.timeout(120_000);

  it('the stored documents are what the generator makes from the route table (make gen)', () => {
    for (const { file, text } of openApiDocuments(ROOT)) assert.equal(stored(file), text, `${file} is stale: run make gen`);
  });

  it('declares the details third-party tools need', () => {
    const doc = JSON.parse(stored(SIM_DOCUMENT));
    assert.equal(doc.jsonSchemaDialect, 'https://json-schema.org/draft/2020-12/schema');
    assert.deepEqual(doc.security, [{}, { digest: [] }, { bearer: [] }], 'open, or the token as HTTP Digest, or as Bearer');
    assert.equal(doc.components.securitySchemes.digest.scheme, 'digest');
    assert.equal(doc.components.securitySchemes.bearer.scheme, 'bearer');
    assert.ok(doc.paths[`/api/v1/device/{serial}/userconfig/{index}/saveentitytostore/{command}/{entityIndex}`]);
    const vs = doc.paths['/api/v1/device/{serial}/rail/{index}/voltagesetpoint'];
    assert.match(vs.put.description, /Unit: µV/);
    // The simulator's default profile publishes its rails' bounds; the device board has no rail: the type's range.
    assert.equal(vs.put.requestBody.content['application/json'].schema.properties.value.oneOf[0].minimum, 0);
    const device = JSON.parse(stored(DEVICE_DOCUMENT)).paths['/api/v1/device/{serial}/rail/{index}/voltagesetpoint'];
    assert.equal(device.put.requestBody.content['application/json'].schema.properties.value.oneOf[0].minimum, -2147483648);
    assert.equal(doc.paths['/api/v1/device/{serial}/system/{index}/hbinterval'].put.requestBody.content['application/json'].schema.properties.value.oneOf[0].minimum, 1);
  });

  it('@redocly/cli lint finds no error or warning in either document', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
    for (const { file, text } of openApiDocuments(ROOT)) {
      const out = path.join(dir, path.basename(file, '.gz'));
      fs.writeFileSync(out, text);
      const r = spawnSync(path.join(ROOT, 'node_modules/.bin/redocly'), ['lint', out, '--format=json'], {
        encoding: 'utf8', timeout: 100_000,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
      });
      assert.equal(r.status, 0, r.stdout + r.stderr);
      const report = JSON.parse(r.stdout);
      assert.deepEqual(report.totals, { errors: 0, warnings: 0, ignored: 0 }, JSON.stringify(report.problems.slice(0, 3)));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

/** A value to PUT: what the GET answered (so the set is accepted), else the published minimum or 0. */
function valueFor(r: Route, read: Answer | null, published: { min?: number; values?: number[] } | undefined): unknown {
  if (read && read.status === 200 && read.json.response.value !== undefined) {
    const res = read.json.response;
    return r.put === 'L32' ? res.rawValue : res.value;
  }
  return published?.values?.[0] ?? published?.min ?? 0;
}

function pathOf(r: Route): string {
  return `${DEVICE}/${r.entity}/0/${r.op}` + r.params.map((p) => '/' + p.min).join('');
}

async function walk(profile: SimProfile, validator: OpenApiValidator): Promise<{ answers: number; problems: string[] }> {
  const api = new Api([createSimModule({ serialNumber: SERIAL, profile })], { openapi: simOpenApi() });
  const problems: string[] = [];
  let answers = 0;
  const check = (method: string, p: string, a: Answer) => {
    answers++;
    const problem = validator.check(method, p, a.status, a.headers['content-type'] === 'application/json' ? a.json : undefined);
    if (problem) problems.push(problem);
  };
  const description = await call(api, 'GET', DEVICE);
  check('GET', DEVICE, description);
  for (const p of ['/api/v1', '/api/v1/device']) check('GET', p, await call(api, 'GET', p));
  const entities = description.json.response.entities;
  for (const r of allRoutes()) {
    if (r.op === 'reset' || r.op === 'resetdevicetofactorydefaults') continue; // would reset the walk's module
    const p = pathOf(r);
    let read: Answer | null = null;
    if (r.get !== '-') {
      read = await call(api, 'GET', p);
      check('GET', p, read);
    } else {
      check('PUT', p, await call(api, 'GET', p)); // 405 (documented on the PUT's path item)
    }
    if (r.put !== '-' && r.put !== 'BYTES') {
      const a = await call(api, 'PUT', p, { value: valueFor(r, read, entities[r.entity]?.operations[r.op]) });
      check('PUT', p, a);
      // And refusals: a malformed value (400), a value of the wrong JSON type (400).
      check('PUT', p, await call(api, 'PUT', p, { value: '1.5x' }));
      check('PUT', p, await call(api, 'PUT', p, { value: { nested: true } }));
    }
  }
  return { answers, problems };
}

describe('every answer validates against the OpenAPI document', function () {
  this.timeout(60_000);
  const validator = new OpenApiValidator(JSON.parse(stored(SIM_DOCUMENT)));

  for (const profile of PROFILES) {
    it(`a GET and PUT walk of every route: ${profile.name}`, async () => {
      const { answers, problems } = await walk(profile, validator);
      assert.ok(answers > 300, `${answers} answers`);
      assert.deepEqual(problems.slice(0, 5), [], `${problems.length} answers do not conform`);
    });
  }

  it('the validator is not blind: a wrong answer is caught', () => {
    const p = `${DEVICE}/rail/0/voltage`;
    assert.equal(validator.check('GET', p, 200, { timestamp: '2026-01-01T00:00:00.000Z', request: { endpointName: p, parameters: {} }, response: { value: 1, rawValue: 1 } }), '');
    assert.notEqual(validator.check('GET', p, 200, { timestamp: 'now', request: { endpointName: p, parameters: {} }, response: { value: 1, rawValue: 1 } }), '');
    assert.notEqual(validator.check('GET', p, 200, { timestamp: '2026-01-01T00:00:00.000Z', request: { endpointName: p, parameters: {} }, response: { value: true, rawValue: 1 } }), '');
    assert.notEqual(validator.check('GET', p, 404, { timestamp: '2026-01-01T00:00:00.000Z', request: { endpointName: p, parameters: {} }, response: { value: 1 } }), '');
  });
});
