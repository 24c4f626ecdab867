// resolve (src/api/route/resolve.ts) with a tiny fake ModuleHal: the device a serial names, the entity's
// HAL, the index against its count, and the 404s of docs/api.md §Addresses.
import { strict as assert } from 'node:assert';
import { Address, ADDRESS_DEVICE, ADDRESS_DEVICES, ADDRESS_ROUTE, parsePath } from '../src/api/route/parse-path';
import { lookup, resolve, Target } from '../src/api/route/resolve';
import { checkParams } from '../src/api/route/params';
import { ApiError, errorName, statusOf } from '../hal/kit/errors';
import type { EntityHal, HalValue, ModuleHal } from '../hal/types';

function fakeEntity(count: number, limit = 0): EntityHal {
  return {
    count,
    supports: () => true,
    limit: () => limit,
    get: (): HalValue => 0,
    set: () => undefined,
    run: () => undefined,
  } as unknown as EntityHal;
}

function fakeModule(serialNumber: number, entities: Record<string, EntityHal>): ModuleHal {
  return { serialNumber, entities, now: () => 0, afterResponse: () => undefined } as unknown as ModuleHal;
}

const ONE = fakeModule(0x1234abcd, { system: fakeEntity(1), rail: fakeEntity(2), store: fakeEntity(2, 4) });
const TWO = fakeModule(0xcafe0002, { system: fakeEntity(1) });
const B = '/api/v1/device';

function miss(r: Target | ApiError, status: number, code: string, message: RegExp): void {
  assert.ok(r instanceof ApiError, 'expected a miss');
  assert.equal(r.status || statusOf(r.code), status);
  assert.equal(errorName(r.code), code);
  assert.match(r.message, message);
}

describe('resolve (with a fake module)', () => {
  it('finds the only device when the serial is left out, and the entity HAL and index', () => {
    const t = lookup(`${B}/rail/1/voltage`, [ONE]) as Target;
    assert.equal(t.device, ONE);
    assert.equal(t.hal, ONE.entities.rail);
    assert.equal(t.index, 1);
    assert.equal(t.address.kind, ADDRESS_ROUTE);
  });

  it('defaults the index to 0', () => {
    assert.equal((lookup(`${B}/system/serialnumber`, [ONE]) as Target).index, 0);
  });

  it('picks the device a serial names among several', () => {
    const t = lookup(`${B}/cafe0002/system/0/serialnumber`, [ONE, TWO]) as Target;
    assert.equal(t.device, TWO);
    const d = lookup(`${B}/0x1234ABCD`, [ONE, TWO]) as Target;
    assert.equal(d.address.kind, ADDRESS_DEVICE);
    assert.equal(d.device, ONE);
    assert.equal(d.hal, null);
  });

  it('answers the device list with no device', () => {
    const t = lookup(B, [ONE, TWO]) as Target;
    assert.equal(t.address.kind, ADDRESS_DEVICES);
    assert.equal(t.device, null);
  });

  it('404 aErrNotFound: a serial naming no device, more than 8 digits, or several devices and no serial', () => {
    miss(lookup(`${B}/0xDEADBEEF/system/0/serialnumber`, [ONE]), 404, 'aErrNotFound', /^no device with serial number 0xDEADBEEF on this server$/);
    miss(lookup(`${B}/0x01234ABCD`, [ONE]), 404, 'aErrNotFound', /no device with serial number 0x01234ABCD/);
    miss(lookup(`${B}/System/0/serialnumber`, [ONE, TWO]), 404, 'aErrNotFound',
      /^this server reaches 2 devices: put the serial number in the path, \/api\/v1\/device\/\{serial\}\/System\/\.\.\.$/);
  });

  it('404 aErrInvalidEntity for an entity this module does not have', () => {
    miss(lookup(`${B}/usb/0/upstreammode`, [ONE]), 404, 'aErrInvalidEntity', /^this module has no usb entity$/);
  });

  it('404 aErrIndexRange for an index beyond the instances', () => {
    miss(lookup(`${B}/rail/2/voltage`, [ONE]), 404, 'aErrIndexRange', /^rail index 2 out of range 0\.\.1$/);
    miss(lookup(`${B}/system/1/serialnumber`, [ONE]), 404, 'aErrIndexRange', /system index 1 out of range 0\.\.0/);
  });

  it('reports the first fault along the path, of form or of substance', () => {
    // A serial naming no device comes before what follows it.
    miss(lookup(`${B}/0xDEADBEEF/nosuch/0/x`, [ONE]), 404, 'aErrNotFound', /no device with serial number 0xDEADBEEF/);
    miss(lookup(`${B}/0xDEADBEEF/i2c/0/x`, [ONE]), 404, 'aErrNotFound', /no device with serial number/);
    miss(lookup(`${B}/add/0/x`, [ONE]), 404, 'aErrNotFound', /no device with serial number add/);
    // Several devices and no serial comes before an unsupported entity.
    miss(lookup(`${B}/i2c/0/x`, [ONE, TWO]), 404, 'aErrNotFound', /this server reaches 2 devices/);
    miss(lookup(`${B}/i2c/0/x`, [ONE]), 501, 'aErrUnimplemented', /entity 'i2c' is not supported/);
    // The entity's HAL and the index come before the operation.
    miss(lookup(`${B}/usb/0/nosuch`, [ONE]), 404, 'aErrInvalidEntity', /this module has no usb entity/);
    miss(lookup(`${B}/usb`, [ONE]), 404, 'aErrInvalidEntity', /this module has no usb entity/);
    miss(lookup(`${B}/rail/9/nosuch`, [ONE]), 404, 'aErrIndexRange', /rail index 9 out of range 0\.\.1/);
    miss(lookup(`${B}/rail/9`, [ONE]), 404, 'aErrIndexRange', /rail index 9/);
    miss(lookup(`${B}/rail/1`, [ONE]), 404, 'aErrInvalidOption', /^missing operation after rail\/1$/);
    miss(lookup(`${B}/rail/1/voltage/3`, [ONE]), 404, 'aErrInvalidOption', /rail\/voltage takes no path parameters/);
    // A fault before any device is reported whatever the devices.
    miss(lookup('/api/v1/nowhere', [ONE, TWO]), 404, 'aErrNotFound', /start at \/api\/v1/);
    miss(lookup(`${B}/nosuch/0/x`, [ONE, TWO]), 404, 'aErrInvalidEntity', /^unknown entity 'nosuch'$/);
  });

  it('fills a reused Target in place', () => {
    const a = new Address();
    const out = new Target(a);
    assert.equal(resolve(parsePath(`${B}/rail/1/voltage`, a), [ONE], out), out);
    assert.equal(out.index, 1);
    resolve(parsePath(B, a), [ONE], out);
    assert.deepEqual([out.device, out.hal, out.index], [null, null, 0]);
  });

  it('checks path parameters against the table and the module bound (params.ts)', () => {
    const t = lookup(`${B}/store/1/slotdata/3`, [ONE]) as Target;
    assert.deepEqual(checkParams(t.address.forms!.routes[0], t), [3]);
    const over = lookup(`${B}/store/1/slotdata/4`, [ONE]) as Target;
    miss(checkParams(over.address.forms!.routes[0], over) as ApiError, 400, 'aErrRange', /^slot 4 is out of range 0\.\.3$/);
    const word = lookup(`${B}/store/1/slotdata/x1`, [ONE]) as Target;
    miss(checkParams(word.address.forms!.routes[0], word) as ApiError, 400, 'aErrParse', /^slot must be a decimal integer, got 'x1'$/);
    const long = lookup(`${B}/store/1/slotdata/12345678901`, [ONE]) as Target;
    miss(checkParams(long.address.forms!.routes[0], long) as ApiError, 400, 'aErrRange', /^slot 12345678901 is out of range$/);
  });
});
