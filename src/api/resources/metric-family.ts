// The families of GET /metrics, derived on the module from the route table: the generated table
// (metric-table.ts) holds only which route rows are measurements. A family's name, type, help, scale
// and label names follow from its route row by the rules of tools/gen-metric-table.mjs (metricRows),
// which tests/metrics.test.ts holds this to, row for row. A scrape derives each family once.

import { routeRow } from '../route/route-table';
import { METRIC_ROUTES } from './metric-table';
import { deepFreeze } from '../../../util/freeze';

/** entity, operation, metric name, type (gauge or counter), help, multiplier, divisor, label names. */
export type MetricRow = readonly [string, string, string, string, string, number, number, readonly string[]];

/** Unit column -> [base unit suffix, multiplier, divisor]: value * mul / div is in the base unit. */
const UNITS: { readonly [unit: string]: readonly [string, number, number] } = deepFreeze({
  uV: ['volts', 1, 1e6], uA: ['amperes', 1, 1e6], mW: ['watts', 1, 1e3], mWh: ['joules', 36, 10], mOhm: ['ohms', 1, 1e3],
  'u°C': ['celsius', 1, 1e6], min: ['seconds', 60, 1], ms: ['seconds', 1, 1e3], us: ['seconds', 1, 1e6], ns: ['seconds', 1, 1e9],
  nF: ['farads', 1, 1e9], um: ['meters', 1, 1e6], udB: ['decibels', 1, 1e6], 'm%': ['ratio', 1, 1e5], byte: ['bytes', 1, 1],
  Hz: ['hertz', 1, 1], '': ['', 1, 1],
} as const);

/** How many families there are. */
export const METRIC_FAMILIES = METRIC_ROUTES.length;

/** powerRole -> power_role: Prometheus label names are snake_case. */
function snake(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    out += c >= 65 && c <= 90 ? '_' + String.fromCharCode(c + 32) : name[i];
  }
  return out;
}

/** `{partner:0..1}/{powerRole}` -> `{partner}/{powerRole}` (the path in the help text). */
function bareParams(params: string): string {
  let out = '';
  let skip = false;
  for (let i = 0; i < params.length; i++) {
    const ch = params[i];
    if (ch === ':') skip = true;
    else if (ch === '}') skip = false;
    if (!skip) out += ch;
  }
  return out;
}

/** The family of METRIC_ROUTES[i]. */
export function metricRow(i: number): MetricRow {
  const [entity, op, params, get, , , unit] = routeRow(METRIC_ROUTES[i]);
  const [base, mul, div] = UNITS[unit];
  const counter = unit === 'mWh';
  // An operation name that spells its own unit (temperature/microcelsius) drops it: the suffix says it.
  const stem = op.endsWith('microcelsius') ? op.slice(0, op.length - 12) : op;
  const name = 'brainstem_' + entity + (stem ? '_' + stem : '') + (base ? '_' + base : '') + (counter ? '_total' : '');
  const labels: string[] = [];
  if (params) for (const p of params.split('/')) labels.push(snake(p.slice(1, -1).split(':')[0]));
  const help = entity + '/{index}/' + op + (params ? '/' + bareParams(params) : '') +
    (get === 'bool' ? ' (0 or 1)' : unit ? ' in ' + base + ' (REST: ' + unit.replace('°', '') + ')' : '') + (counter ? ', accumulated' : '');
  return [entity, op, name, counter ? 'counter' : 'gauge', help, mul, div, labels];
}
