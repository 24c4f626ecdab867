// The OpenAPI document's examples and event stream: every request body and every answer shape has an
// example that validates against its own schema (Ajv, JSON Schema 2020-12), the event stream is
// documented with its query bounds, and real events of the simulator validate against EventData.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as http from 'node:http';
import { gunzipSync } from 'node:zlib';
import Ajv2020 from 'ajv/dist/2020';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule } from '../hal/sim/index';

const ROOT = path.resolve(__dirname, '../..');

for (const file of ['resources/openapi-sim.json.gz', 'resources/openapi-device.json.gz']) {
  describe(`OpenAPI examples: ${file}`, () => {
    const doc = JSON.parse(gunzipSync(fs.readFileSync(path.join(ROOT, file))).toString('utf8'));
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(doc, 'doc');
    const schemaAt = (pointer: string) => ajv.getSchema('doc#' + pointer)!;
    const escape = (p: string) => p.replace(/~/g, '~0').replace(/\//g, '~1');

    it('has an example for every JSON request body, and each validates', () => {
      let bodies = 0;
      for (const [p, item] of Object.entries<any>(doc.paths)) {
        const json = item.put?.requestBody?.content?.['application/json'];
        if (!json) continue;
        assert.ok(json.example !== undefined, `PUT ${p} has no example`);
        const validate = schemaAt(`/paths/${escape(p)}/put/requestBody/content/application~1json/schema`);
        assert.ok(validate(json.example), `PUT ${p} ${JSON.stringify(json.example)}: ${ajv.errorsText(validate.errors)}`);
        bodies++;
      }
      assert.ok(bodies > 150, `${bodies} request bodies`);
    });

    it('has an example for every answer shape, and each validates', () => {
      const shapes = ['Envelope_int', 'Envelope_bool', 'Envelope_ilist', 'Envelope_str', 'Envelope_none', 'ErrorEnvelope', 'Envelope_index', 'Identity', 'Description', 'EventData'];
      for (const name of shapes) {
        const s = doc.components.schemas[name];
        assert.ok(s && Array.isArray(s.examples) && s.examples.length === 1, `${name} has an example`);
        const validate = schemaAt(`/components/schemas/${name}`);
        assert.ok(validate(s.examples[0]), `${name}: ${ajv.errorsText(validate.errors)}`);
      }
    });

    it('documents the event stream with its bounds', () => {
      const get = doc.paths['/api/v1/device/{serial}/events'].get;
      assert.ok(get.responses[200].content['text/event-stream']);
      const interval = get.parameters.find((q: any) => q.name === 'interval');
      assert.deepEqual([interval.schema.minimum, interval.schema.maximum, interval.schema.default], [100, 60000, 1000]);
      assert.equal(get.parameters.find((q: any) => q.name === 'watch').required, true);
      assert.ok(get.responses['503'] && get.responses['400']);
    });
  });
}

describe('OpenAPI: live events validate against EventData', () => {
  let server: SimServer;
  before(async () => {
    server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({ serialNumber: 0x1234abcd })], maxConnections: 4 });
  });
  after(() => server.close());

  it('every event of a real stream is an EventData', async () => {
    const doc = JSON.parse(gunzipSync(fs.readFileSync(path.join(ROOT, 'resources/openapi-sim.json.gz'))).toString('utf8'));
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(doc, 'doc');
    const validate = ajv.getSchema('doc#/components/schemas/EventData')!;
    const text = await new Promise<string>((resolve) => {
      let body = '';
      const req = http.get(`http://127.0.0.1:${server.port}/api/v1/device/0x1234ABCD/events?watch=rail/0/voltage,system/0/hbinterval,rail/0/enable&interval=100`, (res) => {
        res.setEncoding('utf8');
        res.on('data', (d: string) => { body += d; });
        setTimeout(() => { req.destroy(); resolve(body); }, 450);
      });
      req.on('error', () => resolve(body));
    });
    const events = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
    assert.ok(events.length >= 2, text);
    for (const ev of events) assert.ok(validate(ev), `${JSON.stringify(ev)}: ${ajv.errorsText(validate.errors)}`);
  });
});
