// The host server's OpenAPI document (GET /api/v1/openapi.json): the simulator's generated document
// (resources/openapi-sim.json.gz: every module route, which the host server forwards unchanged) with
// what the host server answers itself in place of what only a module answers: its device list, the
// Prometheus targets and BrainD's names; no /metrics (scraped from each module, not from here).
// Made once, at the first request.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './repo-root';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ACRONAME_DEVICES_PATH, ACRONAME_STATE_PATH, VERSION_PATH, serverVersion } from './braind';

type Schema = Record<string, unknown>;
type Doc = { info: Schema; paths: Record<string, Record<string, { responses: Record<string, unknown>; [k: string]: unknown }>>; components: { schemas: Record<string, Schema> } };

const SERIAL: Schema = { type: 'string', pattern: '^0x[0-9A-F]{8}$' };
const INT_OR_NULL: Schema = { type: ['integer', 'null'] };
const VERSION: Schema = {
  type: 'object', required: ['major', 'minor', 'patch'],
  properties: { major: { type: 'integer', minimum: 0 }, minor: { type: 'integer', minimum: 0 }, patch: { type: 'integer', minimum: 0 } },
};
const SCHEMAS: Record<string, Schema> = {
  HostDevice: {
    type: 'object', required: ['serialNumber', 'model', 'module', 'address', 'online', 'lastSeen'],
    properties: { serialNumber: SERIAL, model: INT_OR_NULL, module: INT_OR_NULL, address: { type: 'string' }, online: { type: 'boolean' }, lastSeen: { type: ['string', 'null'] } },
  },
  Version: VERSION,
  AcronameDevice: {
    type: 'object', required: ['type', 'serialNumber', 'module', 'model'],
    properties: { type: { const: 'NETWORK' }, serialNumber: SERIAL, module: INT_OR_NULL, model: INT_OR_NULL },
  },
  AcronameDeviceState: {
    type: 'object', required: ['type', 'serialNumber', 'firmwareVersion', 'model', 'module', 'address', 'lastSeen'],
    properties: {
      type: { const: 'NETWORK' }, serialNumber: SERIAL, firmwareVersion: { oneOf: [{ $ref: '#/components/schemas/Version' }, { type: 'null' }] },
      model: INT_OR_NULL, module: INT_OR_NULL, address: { type: 'string' }, lastSeen: { type: ['string', 'null'] },
    },
  },
  TargetGroup: {
    type: 'object', required: ['targets', 'labels'],
    properties: {
      targets: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 1 },
      labels: { type: 'object', additionalProperties: { type: 'string' }, description: 'serial and model for one module; serials (and model when shared) for an address of several' },
    },
  },
};

/** A GET of `template`'s kind (the envelope of /api/v1/device) whose `response` is `response`; `plain`: not in the envelope. */
function get(doc: Doc, operationId: string, summary: string, response: Schema, plain = false): Record<string, unknown> {
  const model = doc.paths['/api/v1/device'].get;
  const envelope = (model.responses['200'] as { content: { 'application/json': { schema: { properties: Schema } } } }).content['application/json'].schema;
  const schema = plain ? response : { ...envelope, properties: { ...envelope.properties, response } };
  return { get: { operationId, summary, responses: { ...model.responses, 200: { description: summary, content: { 'application/json': { schema } } } } } };
}

/** The document as the host server serves it. */
export function hostDocument(simDocument: Buffer): Doc {
  const doc = JSON.parse(gunzipSync(simDocument).toString('utf8')) as Doc;
  const v = serverVersion();
  doc.info = { ...doc.info, title: 'BrainStem-style host server API', version: `${v.major}.${v.minor}.${v.patch}`,
    description: 'The host server in front of a lab of modules: /api/v1/device/{serial}/… is forwarded to the module that has the serial and answered as it answers (module bounds are those of the simulator\'s default profile; GET /api/v1/device/{serial} publishes each module\'s own). ' +
      'It answers itself its device list, GET /api/v1/targets (Prometheus HTTP service discovery) and BrainD\'s names.' };
  delete doc.paths['/metrics'];
  Object.assign(doc.components.schemas, SCHEMAS);
  const ref = (name: string): Schema => ({ $ref: '#/components/schemas/' + name });
  Object.assign(doc.paths, {
    '/api/v1/device': get(doc, 'devices', 'Every module this host server knows, online or not', { type: 'array', items: ref('HostDevice') }),
    '/api/v1/targets': get(doc, 'targets', 'Prometheus HTTP service discovery: one target per address online', { type: 'array', items: ref('TargetGroup') }, true),
    [ACRONAME_DEVICES_PATH]: get(doc, 'acronameDevices', 'The modules online, as BrainD lists them', {
      type: 'object', required: ['acronameDevices'], properties: { acronameDevices: { type: 'array', items: ref('AcronameDevice') } },
    }),
    [ACRONAME_STATE_PATH]: get(doc, 'acronameDevicesState', 'The modules online with their firmware versions; sequence counts up on each answer', {
      type: 'object', required: ['timestamp', 'sequence', 'brainstemVersion', 'acronameDevices'],
      properties: { timestamp: { type: 'string' }, sequence: { type: 'integer', minimum: 1 }, brainstemVersion: ref('Version'), acronameDevices: { type: 'array', items: ref('AcronameDeviceState') } },
    }),
    [VERSION_PATH]: get(doc, 'version', 'The host server\'s version (not in the envelope)', ref('Version'), true),
  });
  return doc;
}

let made: { gzip: Buffer; plain: Buffer } | null = null;

/** The document's bytes, plain and gzip-compressed, made at the first call. */
export function hostOpenApi(): { gzip: Buffer; plain: Buffer } {
  if (made) return made;
  const root = repoRoot();
  const plain = Buffer.from(JSON.stringify(hostDocument(fs.readFileSync(path.join(root, 'resources/openapi-sim.json.gz')))));
  made = { plain, gzip: gzipSync(plain, { level: 9 }) };
  return made;
}
