// The event stream in the OpenAPI document (docs/api.md §Events): GET .../events?watch=...&interval=...
// answers text/event-stream, one event of EventData every interval, a comment line while idle.
// Build-time code (tools/gen-openapi.mjs).

import { INTERVAL_DEFAULT_MS, INTERVAL_MAX_MS, INTERVAL_MIN_MS, WATCH_MAX } from '../api/resources/events';
import type { Schema } from './schemas';

/** One event's `data`: the watched operations' values, each as its GET answers it. */
export const EVENT_DATA: Schema = {
  type: 'object', required: ['timestamp', 'values'],
  properties: {
    timestamp: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\\.[0-9]{3}Z$' },
    values: {
      type: 'object', description: 'entity/index/operation -> the `response` its GET answers ({value, rawValue}, or {error, message} when the read failed)',
      additionalProperties: {
        type: 'object',
        properties: { value: {}, rawValue: {}, error: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

const EXAMPLE = 'retry: 2000\n\ndata: {"timestamp":"2026-01-15T09:30:00.000Z","values":{"rail/0/voltage":{"value":12000000,"rawValue":12000000}}}\n\n';

/** The events path item; `errors` are the shared error answers. */
export function eventPaths(errors: Schema): Schema {
  return {
    '/api/v1/device/{serial}/events': {
      parameters: [{ $ref: '#/components/parameters/serial' }],
      get: {
        operationId: 'events',
        summary: 'Server-sent events: the watched values every interval',
        description: 'Every `interval` ms one event whose `data` is an EventData object (the schema of this answer); a comment line every 15 s while idle. A module serves one stream at a time (a second: 503 aErrResource).',
        parameters: [
          { name: 'watch', in: 'query', required: true, description: `up to ${WATCH_MAX} GET-readable operations, comma-separated (entity/index/operation[/param...])`, schema: { type: 'string' }, example: 'rail/0/voltage,rail/0/current' },
          { name: 'interval', in: 'query', required: false, description: 'milliseconds between events', schema: { type: 'integer', minimum: INTERVAL_MIN_MS, maximum: INTERVAL_MAX_MS, default: INTERVAL_DEFAULT_MS }, example: 250 },
        ],
        responses: {
          200: { description: 'the stream (text/event-stream)', content: { 'text/event-stream': { schema: { type: 'string', contentSchema: { $ref: '#/components/schemas/EventData' } }, example: EXAMPLE } } },
          ...errors,
        },
      },
    },
  };
}
