// ethernet/0/hostname is one DNS label (RFC 1123) on the simulator and on the device HAL, and a path
// segment where an index stands that is not one (`-1`, `01`, `x`) is 404 aErrIndexRange naming it
// (docs/api.md §Addresses, docs/limits.md).
import { strict as assert } from 'node:assert';
import { Api } from '../src/api/api';
import { createSimModule } from '../hal/sim/index';
import { freshWorld, makeModule } from './fakes/world';
import { call } from './helpers';

const HOST = '/api/v1/device/ethernet/0/hostname';
const BAD = ['bad host name!', '-lab', 'lab-', '', 'a'.repeat(64), 'lab.local', 'läb', 'lab_1'];
const GOOD = ['a', 'lab-7', 'A1-b2', 'x'.repeat(63), '7'];

const modules: [string, () => Api][] = [
  ['simulator', () => new Api([createSimModule({ serialNumber: 0x1234abcd })])],
  ['device HAL', () => { freshWorld(); return new Api([makeModule()]); }],
];

for (const [name, fresh] of modules) {
  describe(`ethernet/0/hostname is a DNS label: ${name}`, () => {
    it('refuses anything else with 400 aErrParam saying what a host name is, and keeps the saved one', async () => {
      const api = fresh();
      assert.equal((await call(api, 'PUT', HOST, { value: 'bench-1' })).status, 200);
      for (const value of BAD) {
        const a = await call(api, 'PUT', HOST, { value });
        assert.equal(a.status, 400, `${JSON.stringify(value)}: ${a.text}`);
        assert.equal(a.json.response.error, 'aErrParam');
        assert.match(a.json.response.message, /1 to 63 letters, digits and hyphens/);
      }
      assert.equal((await call(api, 'GET', HOST)).json.response.value, 'bench-1');
    });

    it('starts as brainstem-<serial>, and accepts letters, digits and inner hyphens, 1 to 63 bytes', async () => {
      const api = fresh();
      assert.equal((await call(api, 'GET', HOST)).json.response.value, 'brainstem-1234abcd');
      for (const value of GOOD) {
        const a = await call(api, 'PUT', HOST, { value });
        assert.equal(a.status, 200, `${value}: ${a.text}`);
        assert.equal(a.json.response.value, value);
      }
    });
  });
}

describe('an index that is not an index', () => {
  it('is 404 aErrIndexRange naming the segment', async () => {
    const api = modules[0][1]();
    for (const index of ['-1', '01', 'x', '+1', '1e1']) {
      const a = await call(api, 'GET', `/api/v1/device/system/${index}/serialnumber`);
      assert.equal(a.status, 404, `${index}: ${a.text}`);
      assert.equal(a.json.response.error, 'aErrIndexRange');
      assert.equal(a.json.response.message.indexOf(`'${index}' is not an index of system`), 0, a.json.response.message);
    }
  });

  it('leaves an unknown operation an unknown operation', async () => {
    const api = modules[0][1]();
    for (const p of ['system/0/nosuch', 'system/nosuch', 'system/0/nosuch/serialnumber']) {
      const a = await call(api, 'GET', `/api/v1/device/${p}`);
      assert.equal(a.status, 404, p);
      assert.equal(a.json.response.error, 'aErrInvalidOption', p);
    }
  });
});
