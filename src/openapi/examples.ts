// Examples of the OpenAPI document: one request body per put code and one answer per shape (the
// envelope of each get code, an error, the index, the device list, the description). Build-time code
// (tools/gen-openapi.mjs); tests/openapi.test.ts checks each example against its own schema.

import type { Route } from '../api/route/routes';
import { routeBounds, type Schema } from './schemas';
import type { OpLimits } from '../../hal/types';

const TIMESTAMP = '2026-01-15T09:30:00.000Z';

/**
 * A `value` a PUT of `r` accepts: the lowest integer of its range (of `b`, the bounds the build's module
 * publishes, where it has them), a typical text or list otherwise.
 */
export function bodyExample(r: Route, b: OpLimits | null): { value: unknown } {
  switch (r.put) {
    case 'I8': case 'I16': case 'I32': return { value: b ? b.values?.[0] ?? b.min : routeBounds(r)[0] };
    case 'BOOL': return { value: true };
    case 'L32': return { value: b ? b.values?.slice(0, 3) ?? [b.min, b.max] : [1, 2, 3] };
    case 'L8':
      if (r.type === 'bytes:ipv4') return { value: r.list ? '8.8.8.8, 1.1.1.1' : '192.168.1.20' };
      return { value: r.op === 'hostname' ? 'bench-7' : 'text' };
    default: return { value: 'bench supply' }; // STR
  }
}

function envelopeOf(path: string, response: unknown, parameters: object = {}): Schema {
  return { timestamp: TIMESTAMP, request: { endpointName: path, parameters }, response };
}

const RAIL = '/api/v1/device/0x1234ABCD/rail/0/';

/** An example of each answer shape, by the component schema it illustrates. */
export const ANSWER_EXAMPLES: { readonly [schema: string]: unknown } = {
  Envelope_int: envelopeOf(RAIL + 'voltage', { value: 12000000, rawValue: 12000000 }),
  Envelope_bool: envelopeOf(RAIL + 'enable', { value: true, rawValue: 1 }, { value: true }),
  Envelope_ilist: envelopeOf('/api/v1/device/0x1234ABCD/usbsystem/0/modelist', { value: '1, 2, 3', rawValue: [1, 2, 3] }),
  Envelope_str: envelopeOf('/api/v1/device/0x1234ABCD/ethernet/0/hostname', { value: 'bench-7', rawValue: [98, 101, 110, 99, 104, 45, 55] }),
  Envelope_none: envelopeOf('/api/v1/device/0x1234ABCD/system/0/save', {}),
  ErrorEnvelope: envelopeOf('/api/v1/device/0x1234ABCD/system/0/hbinterval', { error: 'aErrRange', message: 'hbinterval: 0 is out of range 1..255' }, { value: 0 }),
  Envelope_index: envelopeOf('/api/v1', { links: { devices: '/api/v1/device', openapi: '/api/v1/openapi.json', events: '/api/v1/device/{serial}/events', console: '/' } }),
  Identity: { serialNumber: '0x1234ABCD', model: 14, module: 6 },
  Description: {
    serialNumber: '0x1234ABCD', model: 14, module: 6, name: 'mtm-pm-1', firmware: '2.11.3',
    entities: {
      system: { count: 1, operations: { hbinterval: { get: 'int', put: 'I8', type: 'u8', unit: '25.6ms', params: [], min: 1, max: 255 } } },
      rail: { count: 1, operations: { voltagesetpoint: { get: 'int', put: 'I32', type: 'i32', unit: 'uV', params: [], min: 0, max: 20000000 } } },
    },
  },
  EventData: { timestamp: TIMESTAMP, values: { 'rail/0/voltage': { value: 12000000, rawValue: 12000000 } } },
};

/** Each component schema with an example gets it (JSON Schema `examples`). */
export function addExamples(schemas: Schema): void {
  for (const name in ANSWER_EXAMPLES) {
    const s = schemas[name] as Schema | undefined;
    if (s) s.examples = [ANSWER_EXAMPLES[name]];
  }
}
