// parsePath alone (src/api/route/parse-path.ts): a path in, an Address out (with its fault of form and
// where it lies), no device, no HAL. Table-driven: every row is a path and what docs/api.md
// §Addresses says it names.
import { strict as assert } from 'node:assert';
import {
  Address, ADDRESS_DEVICE, ADDRESS_DEVICES, ADDRESS_ROUTE, MISS_ENTITY, MISS_NONE, MISS_OPERATION, MISS_PATH, NO_INDEX,
  NO_SEGMENTS, NO_SERIAL, parsePath, TOO_LONG_SERIAL,
} from '../src/api/route/parse-path';
import { ApiError, errorName, statusOf } from '../hal/kit/errors';
import { serialText } from '../src/api/route/serial';

const B = '/api/v1/device';

interface Expect {
  kind: number;
  serial?: number;
  entity?: string;
  index?: number;
  op?: string;
  /** Path-parameter counts of the forms the address picked. */
  count?: number;
  params?: string;
}

const HITS: [string, Expect][] = [
  [B, { kind: ADDRESS_DEVICES }],
  ['/api/v1/brainstem', { kind: ADDRESS_DEVICES }],
  ['/api/v1/DEVICE', { kind: ADDRESS_DEVICES }],
  ['/api/v1/BrainStem', { kind: ADDRESS_DEVICES }],
  [`${B}/0x1234ABCD`, { kind: ADDRESS_DEVICE, serial: 0x1234abcd }],
  [`${B}/1234abcd`, { kind: ADDRESS_DEVICE, serial: 0x1234abcd }],
  [`${B}/0X1`, { kind: ADDRESS_DEVICE, serial: 1 }],
  [`${B}/0x01234ABCD`, { kind: ADDRESS_DEVICE, serial: TOO_LONG_SERIAL }],
  [`${B}/system/0/serialnumber`, { kind: ADDRESS_ROUTE, serial: NO_SERIAL, entity: 'system', index: 0, op: 'serialnumber', count: 0, params: '' }],
  [`${B}/system/serialnumber`, { kind: ADDRESS_ROUTE, entity: 'system', index: NO_INDEX, op: 'serialnumber', count: 0 }],
  [`${B}/SYSTEM/SerialNumber`, { kind: ADDRESS_ROUTE, entity: 'system', index: NO_INDEX, op: 'serialnumber' }],
  [`${B}/0x1234ABCD/rail/3/voltage`, { kind: ADDRESS_ROUTE, serial: 0x1234abcd, entity: 'rail', index: 3, op: 'voltage' }],
  ['/api/v1/brainstem/abc/powerDelivery/1/powerDataObject/1/2/3',
    { kind: ADDRESS_ROUTE, serial: 0xabc, entity: 'powerdelivery', index: 1, op: 'powerdataobject', count: 3, params: '1/2/3' }],
  [`${B}/powerdelivery/0/powerdataobject/1/2`, { kind: ADDRESS_ROUTE, entity: 'powerdelivery', op: 'powerdataobject', count: 2, params: '1/2' }],
  [`${B}/store/1/slotdata/0`, { kind: ADDRESS_ROUTE, entity: 'store', index: 1, op: 'slotdata', count: 1, params: '0' }],
  [`${B}/rail/4294967296/voltage`, { kind: ADDRESS_ROUTE, index: 4294967296, op: 'voltage' }],
  // `add` is hex, but an entity name wins: `analog` is not read as a serial.
  [`${B}/analog/0/voltage`, { kind: ADDRESS_ROUTE, serial: NO_SERIAL, entity: 'analog' }],
];

/** path, status, code, message, where the fault lies. */
const MISSES: [string, number, string, RegExp, number][] = [
  ['/api/v2/device', 404, 'aErrNotFound', /start at \/api\/v1/, MISS_PATH],
  ['/api/v1/devices', 404, 'aErrNotFound', /start at \/api\/v1/, MISS_PATH],
  ['/api/v1/dev', 404, 'aErrNotFound', /start at \/api\/v1/, MISS_PATH],
  ['/API/v1/device', 404, 'aErrNotFound', /start at \/api\/v1/, MISS_PATH],
  ['x/api/v1/device', 404, 'aErrNotFound', /start at/, MISS_PATH],
  ['/api/v1/', 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}/`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}//system/0/serialnumber`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}/system/0/serialnumber/`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  ['/api/v1/foo//x', 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  // An empty segment anywhere comes before the fault of any segment (the parser meets it late).
  [`${B}/nosuch/0//x`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}/app//x`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}/0x1234//rail/0/voltage`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}/system//serialnumber`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}/system/0//serialnumber`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}/system/0/serialnumber//1`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}/store/0/slotdata//1`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}/system/0/nosuch/1//2`, 404, 'aErrNotFound', /empty path segment/, MISS_PATH],
  [`${B}/nosuch/0/value`, 404, 'aErrInvalidEntity', /^unknown entity 'nosuch'$/, MISS_PATH],
  [`${B}/0x1234ABCD/Nosuch`, 404, 'aErrInvalidEntity', /^unknown entity 'Nosuch'$/, MISS_ENTITY],
  [`${B}/0x/system/0/serialnumber`, 404, 'aErrInvalidEntity', /unknown entity '0x'/, MISS_PATH],
  [`${B}/__proto__/0/x`, 404, 'aErrInvalidEntity', /unknown entity/, MISS_PATH],
  [`${B}/i2c/0/anything`, 501, 'aErrUnimplemented', /entity 'i2c' is not supported/, MISS_ENTITY],
  [`${B}/App/0/x`, 501, 'aErrUnimplemented', /entity 'app' is not supported/, MISS_ENTITY],
  [`${B}/system`, 404, 'aErrInvalidOption', /^missing operation after system$/, MISS_OPERATION],
  [`${B}/system/0`, 404, 'aErrInvalidOption', /^missing operation after system\/0$/, MISS_OPERATION],
  [`${B}/system/0/nosuch`, 404, 'aErrInvalidOption', /^unknown operation 'nosuch' of system$/, MISS_OPERATION],
  // An index segment that is not canonical decimal is read as the operation.
  [`${B}/system/00/serialnumber`, 404, 'aErrIndexRange', /^'00' is not an index of system: /, MISS_OPERATION],
  [`${B}/system/-1/serialnumber`, 404, 'aErrIndexRange', /^'-1' is not an index of system: /, MISS_OPERATION],
  [`${B}/system/0/constructor`, 404, 'aErrInvalidOption', /unknown operation/, MISS_OPERATION],
  [`${B}/system/0/serialnumber/1`, 404, 'aErrInvalidOption', /^system\/serialnumber takes no path parameters; got 1 path parameter$/, MISS_OPERATION],
  [`${B}/store/0/slotdata`, 404, 'aErrInvalidOption', /store\/slotdata takes \{slot\}; got 0 path parameters/, MISS_OPERATION],
  [`${B}/powerdelivery/0/powerdataobject/1`, 404, 'aErrInvalidOption', /takes \{partner\}\/\{powerRole\}\/\{ruleIndex\} or \{powerRole\}\/\{ruleIndex\}; got 1/, MISS_OPERATION],
  [`${B}/store/0/slotdata/1/2/3/4/5`, 404, 'aErrInvalidOption', /got 5 path parameters/, MISS_OPERATION],
];

describe('parsePath (pure)', () => {
  for (const [path, e] of HITS) {
    it(`${path} -> ${['devices', 'device', 'route'][e.kind]}`, () => {
      const a = parsePath(path);
      assert.equal(a.miss, null, a.miss?.message);
      assert.equal(a.missAt, MISS_NONE);
      assert.equal(a.kind, e.kind);
      if (e.serial !== undefined) assert.equal(a.serial, e.serial);
      if (e.entity !== undefined) assert.equal(a.entity, e.entity);
      if (e.index !== undefined) assert.equal(a.index, e.index);
      if (e.op !== undefined) assert.equal(a.op, e.op);
      if (e.params !== undefined) assert.equal(a.segments.slice(a.paramAt).join('/'), e.params);
      if (e.count !== undefined) for (const r of a.forms!.routes) assert.equal(r.params.length, e.count);
      if (a.kind === ADDRESS_ROUTE) assert.ok(a.forms!.routes.length > 0);
    });
  }

  for (const [path, status, code, message, at] of MISSES) {
    it(`${path} -> ${status} ${code}`, () => {
      const a = parsePath(path);
      const m = a.miss;
      assert.ok(m instanceof ApiError, `expected a miss, got ${JSON.stringify(a)}`);
      assert.equal(m.status || statusOf(m.code), status);
      assert.equal(errorName(m.code), code);
      assert.match(m.message, message);
      assert.equal(a.missAt, at);
    });
  }

  it('keeps the segments as sent for messages, and refills a reused Address completely', () => {
    const out = new Address();
    const a = parsePath(`${B}/0xCAFE/Rail/2/Voltage`, out);
    assert.equal(a, out);
    assert.equal(a.serialText, '0xCAFE');
    assert.equal(a.entityText, 'Rail');
    const b = parsePath(B, out);
    assert.deepEqual([b.kind, b.serial, b.serialText, b.entity, b.index, b.op, b.forms, b.miss],
      [ADDRESS_DEVICES, NO_SERIAL, '', '', NO_INDEX, '', null, null]);
    const bad = parsePath('/nowhere', out);
    assert.equal(bad.segments, NO_SEGMENTS);
    assert.equal(bad.missAt, MISS_PATH);
    const c = parsePath(`${B}/system/serialnumber`, out);
    assert.deepEqual([c.serial, c.serialText, c.index], [NO_SERIAL, '', NO_INDEX]);
  });

  it('gives the picked forms, what each method runs and Allow from the frozen table (no per-request work)', () => {
    const a = parsePath(`${B}/system/0/hbinterval`);
    assert.equal(a.forms!.allow, 'GET, HEAD, PUT, OPTIONS');
    assert.equal(a.forms!.get, a.forms!.put);
    assert.equal(a.forms!.head, a.forms!.get);
    const r = parsePath(`${B}/system/0/reset`);
    assert.equal(r.forms!.allow, 'GET, OPTIONS');
    assert.equal(r.forms!.head, null);
    assert.equal(r.forms!.get!.get, 'none');
    const pdo = parsePath(`${B}/powerdelivery/0/powerdataobject/1/2`);
    assert.equal(pdo.forms!.put!.params.length, 2);
    assert.ok(Object.isFrozen(a.forms));
  });
});

describe('serialText', () => {
  it('writes 0x and 8 upper-case hex digits of the 32-bit word, past 2^31 and for negative integers too', () => {
    const want = (v: number): string => '0x' + (v >>> 0).toString(16).toUpperCase().padStart(8, '0');
    for (const v of [0, 1, 0xcafe, 0x7fffffff, 0x80000000, 0xc1000001, 0xffffffff, -1, -0x80000000]) assert.equal(serialText(v), want(v));
    for (let i = 0; i < 20000; i++) {
      const v = Math.floor(Math.random() * 0x100000000);
      assert.equal(serialText(v), want(v));
      assert.equal(serialText(v | 0), want(v));
    }
  });
});
