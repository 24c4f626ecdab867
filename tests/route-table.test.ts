// The route table compiles into routes. That src/api/route/route-table.ts is what spec/operations.tsv makes
// (line for line, byte for byte) is tests/generated.test.ts's check.
import { strict as assert } from 'node:assert';
import { ROUTE_LINES } from '../src/api/route/route-table';
import { routeForms, allRoutes } from '../src/api/route/routes';
import { EXTENSION_ROWS } from '../src/api/route/route-extensions';

describe('route table', () => {
  it('has one route per line of spec/operations.tsv (298)', () => {
    assert.equal(ROUTE_LINES.length, 298);
  });

  it('compiles every row into a route with parsed parameters and ranges', () => {
    assert.equal(allRoutes().length, 298 + EXTENSION_ROWS.length);
    const pdo = routeForms('powerdelivery', 'powerdataobject')!;
    assert.equal(pdo.length, 2);
    assert.deepEqual(pdo.map((r) => r.params.length).sort(), [2, 3]);
    const hb = routeForms('system', 'hbinterval')![0];
    assert.deepEqual([hb.min, hb.max, hb.type, hb.put], [1, 255, 'u8', 'I8']);
    const ch = routeForms('usb', 'portcurrent')![0].params[0];
    assert.deepEqual([ch.name, ch.min, ch.max], ['channel', 0, -1]);
    assert.equal(routeForms('port', 'name')![0].putEmpty, true);
    assert.equal(routeForms('ethernet', 'staticipv4dnsaddress')![0].list, true);
  });
});
