// GET /metrics in the OpenAPI document: the Prometheus text exposition (docs/telemetry.md), with the
// answers access control and the method check can give instead.

type Schema = { [key: string]: unknown };

const EXAMPLE = '# HELP brainstem_rail_voltage_volts rail/{index}/voltage in volts (REST: uV)\n' +
  '# TYPE brainstem_rail_voltage_volts gauge\n' +
  'brainstem_rail_voltage_volts{serial="0x1234ABCD",index="0"} 5\n';

/** The paths entry of GET /metrics. */
export function metricsPaths(): Schema {
  const error = (status: string): Schema => ({ $ref: '#/components/responses/Error' + status });
  return {
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['telemetry'],
        summary: 'Every measurement of every module, for Prometheus',
        description: 'Prometheus text exposition format 0.0.4, sent chunked as it is made: one series per readable ' +
          'measurement, named brainstem_{entity}_{operation}_{base unit} (counters end in _total), values in base units ' +
          '(volts, amperes, watts, ohms, celsius, seconds, joules), labels serial, index and the path parameters. ' +
          'Reading it changes nothing on the module; a read the module refuses leaves its series out.',
        responses: {
          200: {
            description: 'the exposition',
            content: { 'text/plain; version=0.0.4; charset=utf-8': { schema: { type: 'string' }, example: EXAMPLE } },
          },
          401: error('401'), 403: error('403'), 405: error('405'), 429: error('429'),
        },
      },
    },
  };
}
