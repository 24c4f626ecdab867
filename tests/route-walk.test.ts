// Walks every route of the table with GET and PUT through the whole request path (raw bytes in,
// bytes out) and checks each answer's status and shape against its get/put codes.
import { strict as assert } from 'node:assert';
import { allRoutes, type Route } from '../src/api/route/routes';
import { rawExchange, simApi, splitResponses } from './helpers';
import type { Api } from '../src/api/api';

/** Path parameters: the lowest valid value, but a real entity code for userconfig's {command}. */
function pathOf(r: Route): string {
  const param = (name: string, min: number): number => (name === 'command' ? 3 : Math.max(min, 0));
  return `/api/v1/device/${r.entity}/0/${r.op}` + r.params.map((p) => '/' + param(p.name, p.min)).join('');
}

function exchange(api: Api, method: string, path: string, body?: unknown): { status: number; head: string; json: any } {
  const text = body === undefined ? '' : JSON.stringify(body);
  const req = `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`;
  const [res] = splitResponses(rawExchange(api, [req]).out);
  return { status: res.status, head: res.head, json: JSON.parse(res.body) };
}

function assertShape(r: Route, response: any, what: string): void {
  switch (r.get) {
    case 'int':
      assert.equal(typeof response.value, 'number', what);
      assert.ok(Number.isInteger(response.rawValue) && response.rawValue >= 0 && response.rawValue <= 0xffffffff, what);
      assert.equal(response.value >>> 0, response.rawValue, what);
      break;
    case 'bool':
      assert.equal(typeof response.value, 'boolean', what);
      assert.equal(response.rawValue, response.value ? 1 : 0, what);
      break;
    case 'ilist':
      assert.ok(Array.isArray(response.rawValue), what);
      assert.equal(response.value, response.rawValue.join(', '), what);
      break;
    case 'str':
      assert.equal(typeof response.value, 'string', what);
      assert.ok(Array.isArray(response.rawValue) && response.rawValue.every((b: number) => b >= 0 && b <= 255), what);
      break;
    default:
      assert.deepEqual(response, {}, what);
  }
}

/** What a route needs the module to be in first: outputs to write values, an input to capture. */
const SETUP: { [route: string]: [string, unknown][] } = {
  'analog/value': [['/api/v1/device/analog/0/configuration', 1]],
  'analog/voltage': [['/api/v1/device/analog/0/configuration', 1]],
  'analog/bulkcapture': [['/api/v1/device/analog/0/configuration', 0]],
  'digital/state': [['/api/v1/device/digital/0/configuration', 1]],
  'digital/value': [['/api/v1/device/digital/0/configuration', 1]],
};

/** Values for the PUT-only routes whose values the module checks (a valid 5 V fixed-supply PDO). */
const PUT_ONLY_VALUES: { [path: string]: unknown } = {
  'powerdelivery/powerdataobject': 0x0001912c,
};

/** A value to PUT that the route accepts: the current one for numbers, the other one for flags. */
function valueFor(r: Route, current: any): unknown {
  const fixed = PUT_ONLY_VALUES[`${r.entity}/${r.op}`];
  if (fixed !== undefined && r.get === '-') return fixed;
  switch (r.put) {
    case 'BOOL': return current === undefined ? true : !current.value;
    case 'L32': return current ? current.rawValue : [0];
    case 'L8':
      if (r.type !== 'bytes:ipv4') return 'walker';
      return r.list ? '8.8.8.8, 1.1.1.1' : r.op.endsWith('netmask') ? '255.255.255.0' : '10.0.0.2';
    case 'STR': return 'walker';
    default:
      if (current) return current.value;
      return r.min <= r.max ? r.min : 0;
  }
}

describe('route walk: every route with GET and PUT', () => {
  const api = simApi();
  // The contract's routes (the raw-bytes extension is tested in api-slotdata.test.ts).
  const routes = allRoutes().filter((r) => r.get !== 'bytes' && r.entity !== 'app' &&
    !(r.entity === 'system' && (r.op === 'reset' || r.op === 'resetdevicetofactorydefaults')));

  for (const r of routes) {
    const path = pathOf(r);
    it(`${path} (GET ${r.get}, PUT ${r.put})`, () => {
      for (const [setupPath, value] of SETUP[`${r.entity}/${r.op}`] ?? []) {
        assert.equal(exchange(api, 'PUT', setupPath, { value }).status, 200, `setup ${setupPath}`);
      }
      const get = exchange(api, 'GET', path);
      if (r.get === '-') {
        assert.equal(get.status, 405, `GET ${path}`);
        assert.match(get.head, /\r\nAllow: PUT, OPTIONS/);
      } else {
        assert.equal(get.status, 200, `GET ${path}: ${JSON.stringify(get.json)}`);
        assert.equal(get.json.request.endpointName, path);
        assertShape(r, get.json.response, `GET ${path}`);
      }
      const put = exchange(api, 'PUT', path, { value: valueFor(r, r.get !== '-' && r.get !== 'none' ? get.json.response : undefined) });
      if (r.put === '-') {
        assert.equal(put.status, 405, `PUT ${path}`);
        assert.equal(put.json.response.error, 'aErrInvalidOption');
        return;
      }
      assert.equal(put.status, 200, `PUT ${path}: ${JSON.stringify(put.json)}`);
      if (r.get === '-' || r.putEmpty) assert.deepEqual(put.json.response, {}, `PUT ${path}`);
      else assertShape(r, put.json.response, `PUT ${path}`);
    });
  }

  it('covers all 298 routes but the resets (walked elsewhere) and app (501)', () => {
    assert.equal(routes.length, 298 - 3);
  });
});
