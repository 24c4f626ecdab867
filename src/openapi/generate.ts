// The OpenAPI 3.1 document of this server, generated from the route table (src/api/route/routes.ts): one
// generator for the simulator and the device build. tools/gen-openapi.mjs runs it at build time and
// stores the result gzip-compressed (resources/); the server only sends those bytes.

import { allRoutes, type Route, type RouteParam } from '../api/route/routes';
import { addExamples, bodyExample } from './examples';
import { EVENT_DATA, eventPaths } from './events';
import { firmwarePaths } from './firmware';
import { metricsPaths } from './metrics-path';
import type { BoundsSource } from './module-bounds';
import { envelope, ERROR_RESPONSE, RESPONSE_BY_GET, routeBounds, valueSchema, type Schema } from './schemas';
import type { OpLimits } from '../../hal/types';

const BASE = '/api/v1/device/{serial}';

/** Error statuses every operation can answer (docs/api.md §Answers, §HTTP limits, §Access control). */
const ERROR_STATUSES: readonly (readonly [string, string])[] = [
  ['400', 'aErrParse, aErrParam, aErrRange, aErrSize: a malformed or out-of-range request'],
  ['401', 'aErrPermission: the token (HTTP Digest, or Bearer where taken) is missing or wrong, or the Digest nonce is stale'],
  ['403', 'aErrPermission: refused by the host or cross-site check'],
  ['404', 'aErrNotFound, aErrInvalidEntity, aErrIndexRange, aErrInvalidOption: no such device, entity, index or operation'],
  ['405', 'aErrInvalidOption: the method is not offered here (see Allow)'],
  ['409', 'aErrMode, aErrConfiguration, aErrDuplicate: the module\'s present state forbids it (the message says what to change)'],
  ['413', 'aErrSize: the body is over 4 KiB'],
  ['429', 'aErrPermission: too many wrong credentials from this address'],
  ['500', 'another error code'],
  ['501', 'aErrUnimplemented: this module cannot do it'],
  ['503', 'aErrBusy, aErrNotReady, aErrResource, aErrMemory: try again'],
  ['504', 'aErrTimeout'],
];

const UNIT_NAMES: { readonly [unit: string]: string } = {
  uV: 'µV', uA: 'µA', 'u°C': 'µ°C', mOhm: 'mΩ', us: 'µs',
};

function ref(name: string): Schema {
  return { $ref: '#/components/schemas/' + name };
}

function errorResponses(): Schema {
  const out: Schema = {};
  for (const e of ERROR_STATUSES) out[e[0]] = { $ref: '#/components/responses/Error' + e[0] };
  return out;
}

function jsonAnswer(description: string, schema: Schema): Schema {
  return { description, content: { 'application/json': { schema } } };
}

function pathParam(name: string, schema: Schema, description: string): Schema {
  return { name, in: 'path', required: true, description, schema };
}

/** The userconfig rows' second {index} is the target entity's instance: renamed so it does not clash. */
function paramName(p: RouteParam): string {
  return p.name === 'index' ? 'entityIndex' : p.name;
}

function routePath(r: Route): string {
  let path = BASE + '/' + r.entity + '/{index}/' + r.op;
  for (const p of r.params) path += '/{' + paramName(p) + '}';
  return path;
}

function parametersOf(r: Route): Schema[] {
  const out: Schema[] = [{ $ref: '#/components/parameters/serial' }, { $ref: '#/components/parameters/index' }];
  for (const p of r.params) {
    const schema: Schema = { type: 'integer', minimum: p.min };
    if (p.max >= 0) schema.maximum = p.max;
    out.push(pathParam(paramName(p), schema, p.max >= 0 ? `${p.min}..${p.max}` : `${p.min} up to the module's count (GET ${BASE} publishes it)`));
  }
  return out;
}

/** `b`: the bounds this build's module publishes for the route (its PUT), null where it publishes none. */
function describeRoute(r: Route, b: OpLimits | null): string {
  const parts: string[] = [];
  if (r.type) parts.push('Type: ' + r.type + '.');
  if (r.unit) parts.push('Unit: ' + (UNIT_NAMES[r.unit] ?? r.unit) + '.');
  if (b) {
    parts.push('Accepted: ' + (b.values ? 'one of ' + b.values.join(', ') : `${b.min}..${b.max}`) + ` (GET ${BASE} publishes each module's own).`);
  } else if (r.put !== '-' && r.put !== 'BYTES' && r.put.charAt(0) === 'I') {
    const [lo, hi] = routeBounds(r);
    parts.push(`Accepted: ${lo}..${hi}; a module may accept less (GET ${BASE} publishes min/max or values).`);
  }
  return parts.join(' ');
}

function successOf(code: string, description: string): Schema {
  if (code === 'bytes') return { description, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
  return jsonAnswer(description, ref('Envelope_' + code));
}

function getOperation(r: Route, b: OpLimits | null): Schema {
  const responses: Schema = { 200: successOf(r.get, r.get === 'none' ? 'the action ran' : 'the value'), ...errorResponses() };
  return {
    operationId: `get_${r.entity}_${r.op}${r.params.length ? '_' + r.params.length : ''}`,
    tags: [r.entity], summary: (r.get === 'none' ? 'Run ' : 'Read ') + r.entity + '/' + r.op,
    description: describeRoute(r, b), responses,
  };
}

function putOperation(r: Route, readBack: Route | null, b: OpLimits | null): Schema {
  const body = r.put === 'BYTES'
    ? { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } }
    : {
      required: true,
      content: { 'application/json': { schema: { type: 'object', required: ['value'], properties: { value: valueSchema(r, b) } }, example: bodyExample(r, b) } },
    };
  const code = readBack && !r.putEmpty ? readBack.get : 'none';
  return {
    operationId: `put_${r.entity}_${r.op}${r.params.length ? '_' + r.params.length : ''}`,
    tags: [r.entity], summary: 'Set ' + r.entity + '/' + r.op,
    description: describeRoute(r, b), requestBody: body,
    responses: { 200: successOf(code === 'bytes' ? 'none' : code, 'set; the value read back'), ...errorResponses() },
  };
}

/** Every route's path item; an integer PUT carries the bounds `source`'s module publishes for it. */
function routePaths(source: BoundsSource): Schema {
  const paths: Schema = {};
  for (const r of allRoutes()) {
    const key = routePath(r);
    const item = (paths[key] ??= { parameters: parametersOf(r) }) as Schema;
    const b = r.put !== '-' ? source.bounds(r) : null;
    if (r.get !== '-') item.get = getOperation(r, b);
    if (r.put !== '-') {
      let readBack: Route | null = null;
      for (const g of allRoutes()) if (g.entity === r.entity && g.op === r.op && g.get !== '-' && g.get !== 'none' && g.params.length === r.params.length) readBack = g;
      item.put = putOperation(r, readBack, b);
    }
  }
  return paths;
}

function sitePaths(): Schema {
  const any = { type: 'object' };
  return {
    '/api/v1': { get: { operationId: 'index', summary: 'Links to the device list, this document, the events and the console', responses: { 200: jsonAnswer('the index', ref('Envelope_index')), ...errorResponses() } } },
    '/api/v1/openapi.json': { get: { operationId: 'openapi', summary: 'This document (gzip-compressed when Accept-Encoding allows)', responses: { 200: jsonAnswer('the OpenAPI document', any), ...errorResponses() } } },
    '/api/v1/device': { get: { operationId: 'devices', summary: 'The devices this server reaches', responses: { 200: jsonAnswer('the devices', envelope({ type: 'array', items: ref('Identity') })), ...errorResponses() } } },
    [BASE]: {
      parameters: [{ $ref: '#/components/parameters/serial' }],
      get: { operationId: 'device', summary: 'What one module has and accepts: entities, counts, operations and their limits', responses: { 200: jsonAnswer('the description', envelope(ref('Description'))), ...errorResponses() } },
    },
  };
}

function components(): Schema {
  const schemas: Schema = { ErrorEnvelope: envelope(ERROR_RESPONSE) };
  for (const code in RESPONSE_BY_GET) schemas['Envelope_' + code] = envelope(RESPONSE_BY_GET[code]);
  schemas.Envelope_index = envelope({ type: 'object', required: ['links'], properties: { links: { type: 'object', additionalProperties: { type: 'string' } } } });
  schemas.Identity = {
    type: 'object', required: ['serialNumber', 'model', 'module'],
    properties: { serialNumber: { type: 'string', pattern: '^0x[0-9A-F]{8}$' }, model: { type: 'integer' }, module: { type: 'integer' } },
  };
  const limit = { type: 'object', required: ['name', 'min', 'max'], properties: { name: { type: 'string' }, min: { type: 'integer' }, max: { type: 'integer' } } };
  schemas.Operation = {
    type: 'object', required: ['type', 'unit', 'params'],
    properties: {
      get: { type: 'string' }, put: { type: 'string' }, type: { type: 'string' }, unit: { type: 'string' },
      params: { type: 'array', items: limit }, putParams: { type: 'array', items: limit },
      min: { type: 'integer' }, max: { type: 'integer' }, values: { type: 'array', items: { type: 'integer' } },
    },
  };
  schemas.Description = {
    allOf: [ref('Identity')],
    required: ['entities', 'firmware'],
    properties: {
      name: { type: 'string', description: 'what the module says it is: the simulator profile, the device board' },
      firmware: { type: 'string', pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$', description: 'the running firmware version (system/0/version)' },
      entities: {
        type: 'object',
        additionalProperties: {
          type: 'object', required: ['count', 'operations'],
          properties: { count: { type: 'integer', minimum: 0 }, operations: { type: 'object', additionalProperties: ref('Operation') } },
        },
      },
    },
  };
  schemas.EventData = EVENT_DATA;
  addExamples(schemas);
  const responses: Schema = {};
  for (const [status, text] of ERROR_STATUSES) responses['Error' + status] = jsonAnswer(text, ref('ErrorEnvelope'));
  return {
    schemas, responses,
    parameters: {
      serial: pathParam('serial', { type: 'string', pattern: '^(0[xX])?[0-9a-fA-F]{1,8}$' }, 'the module serial number, 8 hex digits, 0x optional (a module with one device also answers without it)'),
      index: pathParam('index', { type: 'integer', minimum: 0 }, 'the entity instance, below its count'),
    },
    securitySchemes: {
      digest: { type: 'http', scheme: 'digest', description: 'HTTP Digest (RFC 7616): SHA-256, qop=auth, realm "brainstem", the token as the password, any ' +
        'user name; required for PUTs and actions when the operator set a token. A nonce is good for 5 minutes, each nc once (a replay is 401 stale=true)' },
      bearer: { type: 'http', scheme: 'bearer', description: 'the token in clear: taken unless the operator refuses it (auth "digest")' },
    },
  };
}

/**
 * The whole document; `version` is the firmware version (info.version); `source` the module whose
 * published bounds the integer PUTs carry (the simulator's default profile, the device board).
 */
export function openApiDocument(version: string, source: BoundsSource): Schema {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'BrainStem-style device REST API',
      version,
      description: 'Every operation of operations.tsv. Values are integers in the unit named in each description. ' +
        'Every JSON answer is the envelope {timestamp, request, response}. The minimum/maximum (or enum) of each ' +
        `integer PUT are the bounds ${source.from} publishes; other profiles and boards may accept narrower ` +
        'or other bounds, and GET /api/v1/device/{serial} publishes each module\'s own.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/' }],
    security: [{}, { digest: [] }, { bearer: [] }],
    paths: { ...sitePaths(), ...eventPaths(errorResponses()), ...firmwarePaths(errorResponses()), ...metricsPaths(), ...routePaths(source) },
    components: components(),
  };
}
