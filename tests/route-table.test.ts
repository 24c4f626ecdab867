// The route table (src/api/route-table.ts) and the contract (operations.tsv) agree line for line.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ROUTE_ROWS } from '../src/api/route-table';
import { routeForms, allRoutes } from '../src/api/routes';
import { EXTENSION_ROWS } from '../src/api/route-extensions';

const ROOT = path.resolve(__dirname, '../..');

function tsvRows(file: string): string[][] {
  return readFileSync(file, 'utf8').split('\n')
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('entity\t'))
    .map((l) => l.split('\t'));
}

describe('route table', () => {
  const rows = tsvRows(path.join(ROOT, 'tests/fixtures/operations.tsv'));

  it('has one route per line of operations.tsv (298)', () => {
    assert.equal(rows.length, 298);
    assert.equal(ROUTE_ROWS.length, rows.length);
  });

  it('matches operations.tsv line for line in every column the server uses', () => {
    rows.forEach((cols, i) => {
      const [entity, op, params, get, put, type, unit, range] = cols;
      assert.deepEqual(ROUTE_ROWS[i].slice(0, 8), [entity, op, params, get, put, type, unit, range], `line ${i + 1}: ${entity}/${op}`);
    });
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
