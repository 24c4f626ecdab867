// The API handler through node:http request/response objects (node-mocks-http): addresses, value
// forms, envelope, errors and statuses of docs/api.md.
import { strict as assert } from 'node:assert';
import { assertError, call, simApi, SERIAL } from './helpers';
import { createSimModule } from '../hal/sim/index';
import type { Api } from '../src/api/api';

const BASE = '/api/v1/device';

describe('API handler', () => {
  let api: Api;
  beforeEach(() => { api = simApi(); });

  describe('envelope and addresses', () => {
    it('answers a GET in the envelope with timestamp, endpointName and empty parameters', async () => {
      const a = await call(api, 'GET', `${BASE}/system/0/serialnumber`);
      assert.equal(a.status, 200);
      assert.match(String(a.headers['content-type']), /^application\/json/);
      assert.equal(Number(a.headers['content-length']), Buffer.byteLength(a.text));
      assert.deepEqual(Object.keys(a.json), ['timestamp', 'request', 'response']);
      assert.match(a.json.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.deepEqual(a.json.request, { endpointName: `${BASE}/system/0/serialnumber`, parameters: {} });
      assert.deepEqual(a.json.response, { value: SERIAL, rawValue: SERIAL });
    });

    it('takes the serial with or without 0x, in any case, and the brainstem alias', async () => {
      for (const s of ['0x1234ABCD', '0x1234abcd', '1234abcd', '0X1234ABCD']) {
        const a = await call(api, 'GET', `${BASE}/${s}/system/0/serialnumber`);
        assert.equal(a.status, 200, s);
        assert.equal(a.json.response.value, SERIAL);
      }
      assert.equal((await call(api, 'GET', '/api/v1/brainstem/system/0/serialnumber')).status, 200);
      assert.equal((await call(api, 'GET', '/api/v1/brainstem/0x1234ABCD/system/0/serialnumber')).status, 200);
    });

    it('answers 404 aErrNotFound for a serial that names no device here', async () => {
      assertError(await call(api, 'GET', `${BASE}/0xDEADBEEF/system/0/serialnumber`), 404, 'aErrNotFound');
      assertError(await call(api, 'GET', `${BASE}/0x1234ABCD0/system/0/serialnumber`), 404, 'aErrNotFound');
    });

    it('defaults the index to 0 and matches entity and operation in any case, echoing the path as sent', async () => {
      const a = await call(api, 'GET', `${BASE}/SYSTEM/SerialNumber`);
      assert.equal(a.status, 200);
      assert.equal(a.json.response.value, SERIAL);
      assert.equal(a.json.request.endpointName, `${BASE}/SYSTEM/SerialNumber`);
    });

    it('ignores a query string', async () => {
      const a = await call(api, 'GET', `${BASE}/system/0/serialnumber?pretty=1`);
      assert.equal(a.status, 200);
      assert.equal(a.json.request.endpointName, `${BASE}/system/0/serialnumber`);
    });

    it('does not treat leading zeros, signs or junk as an index', async () => {
      assertError(await call(api, 'GET', `${BASE}/system/00/serialnumber`), 404, 'aErrIndexRange');
      assertError(await call(api, 'GET', `${BASE}/system/-1/serialnumber`), 404, 'aErrIndexRange');
      assertError(await call(api, 'GET', `${BASE}/system/+0/serialnumber`), 404, 'aErrIndexRange');
    });

    it('answers 404 aErrIndexRange beyond the module instances', async () => {
      assertError(await call(api, 'GET', `${BASE}/system/1/serialnumber`), 404, 'aErrIndexRange');
      assertError(await call(api, 'GET', `${BASE}/system/99999999999/serialnumber`), 404, 'aErrIndexRange');
    });

    it('answers 404 for unknown entities (aErrInvalidEntity) and operations (aErrInvalidOption)', async () => {
      assertError(await call(api, 'GET', `${BASE}/nosuch/0/x`), 404, 'aErrInvalidEntity');
      assertError(await call(api, 'GET', `${BASE}/system/0/nosuch`), 404, 'aErrInvalidOption');
      assertError(await call(api, 'GET', `${BASE}/system/0`), 404, 'aErrInvalidOption');
      assertError(await call(api, 'GET', `${BASE}/system`), 404, 'aErrInvalidOption');
    });

    it('answers 501 aErrUnimplemented for app and i2c, listed as unsupported', async () => {
      assertError(await call(api, 'PUT', `${BASE}/app/0/execute`, { value: 1 }), 501, 'aErrUnimplemented');
      assertError(await call(api, 'GET', `${BASE}/i2c/0/read`), 501, 'aErrUnimplemented');
    });

    it('treats a trailing slash or an empty segment as another resource: 404', async () => {
      assert.equal((await call(api, 'GET', `${BASE}/system/0/serialnumber/`)).status, 404);
      assert.equal((await call(api, 'GET', `${BASE}/system//serialnumber`)).status, 404);
      assert.equal((await call(api, 'GET', '/api/v2/device/system/0/serialnumber')).status, 404);
      assertError(await call(api, 'GET', '//'), 404, 'aErrNotFound'); // '/' is the web console (console-page.test.ts)
    });
  });

  describe('extra path parameters', () => {
    it('checks the range of operations.tsv: 400 aErrRange', async () => {
      assert.equal((await call(api, 'GET', `${BASE}/poe/0/pairvoltage/1`)).status, 200);
      assertError(await call(api, 'GET', `${BASE}/poe/0/pairvoltage/2`), 400, 'aErrRange');
      assertError(await call(api, 'GET', `${BASE}/powerdelivery/0/powerdataobject/0/1/8`), 400, 'aErrRange');
      assertError(await call(api, 'GET', `${BASE}/powerdelivery/0/powerdataobject/0/0/1`), 400, 'aErrRange');
    });

    it('checks module-defined ranges (usb channels) too', async () => {
      assert.equal((await call(api, 'GET', `${BASE}/usb/0/portvoltage/0`)).status, 200);
      assertError(await call(api, 'GET', `${BASE}/usb/0/portvoltage/999`), 400, 'aErrRange');
    });

    it('answers 404 aErrInvalidOption for a missing or surplus parameter, 400 aErrParse for a non-number', async () => {
      assertError(await call(api, 'GET', `${BASE}/poe/0/pairvoltage`), 404, 'aErrInvalidOption');
      assertError(await call(api, 'GET', `${BASE}/poe/0/pairvoltage/0/1`), 404, 'aErrInvalidOption');
      assertError(await call(api, 'GET', `${BASE}/system/0/serialnumber/1`), 404, 'aErrInvalidOption');
      assertError(await call(api, 'GET', `${BASE}/poe/0/pairvoltage/x`), 400, 'aErrParse');
    });

    it('tells the two forms of powerdataobject apart by their parameters', async () => {
      const put = await call(api, 'PUT', `${BASE}/powerdelivery/0/powerdataobject/1/2`, { value: 12345 });
      assert.equal(put.status, 200);
      assert.deepEqual(put.json.response, {});
      const get = await call(api, 'GET', `${BASE}/powerdelivery/0/powerdataobject/0/1/2`);
      assert.equal(get.status, 200);
      assert.equal(get.json.response.value, 12345);
      const wrong = await call(api, 'GET', `${BASE}/powerdelivery/0/powerdataobject/1/2`);
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.allow, 'PUT, OPTIONS');
    });
  });

  describe('PUT', () => {
    it('sets and answers the read-back, echoing the body in parameters', async () => {
      const a = await call(api, 'PUT', `${BASE}/system/0/hbinterval`, { value: 20 });
      assert.equal(a.status, 200);
      assert.deepEqual(a.json.request.parameters, { value: 20 });
      assert.deepEqual(a.json.response, { value: 20, rawValue: 20 });
      assert.equal((await call(api, 'GET', `${BASE}/system/0/hbinterval`)).json.response.value, 20);
    });

    it('reads the body as JSON whatever the Content-Type (curl -d sends a form type)', async () => {
      const a = await call(api, 'PUT', `${BASE}/system/0/hbinterval`, '{"value": "0x1f"}');
      assert.equal(a.status, 200);
      assert.equal(a.json.response.value, 31);
    });

    it('answers 400 with the documented codes for bad bodies and values, and keeps the old value', async () => {
      await call(api, 'PUT', `${BASE}/system/0/hbinterval`, { value: 30 });
      assertError(await call(api, 'PUT', `${BASE}/system/0/hbinterval`), 400, 'aErrParam');
      assertError(await call(api, 'PUT', `${BASE}/system/0/hbinterval`, '{"value": '), 400, 'aErrParse');
      assertError(await call(api, 'PUT', `${BASE}/system/0/hbinterval`, '{"val": 1}'), 400, 'aErrParam');
      assertError(await call(api, 'PUT', `${BASE}/system/0/hbinterval`, '[1]'), 400, 'aErrParam');
      assertError(await call(api, 'PUT', `${BASE}/system/0/hbinterval`, { value: 0 }), 400, 'aErrRange');
      assertError(await call(api, 'PUT', `${BASE}/system/0/hbinterval`, { value: 256 }), 400, 'aErrRange');
      assertError(await call(api, 'PUT', `${BASE}/system/0/hbinterval`, { value: 1.5 }), 400, 'aErrParam');
      assertError(await call(api, 'PUT', `${BASE}/system/0/hbinterval`, { value: '1.5' }), 400, 'aErrParse');
      assertError(await call(api, 'PUT', `${BASE}/system/0/hbinterval`, { value: null }), 400, 'aErrParam');
      const bad = await call(api, 'PUT', `${BASE}/system/0/hbinterval`, { value: 0 });
      assert.match(bad.json.response.message, /0.*1\.\.255/);
      assert.deepEqual(bad.json.request.parameters, { value: 0 });
      assert.equal((await call(api, 'GET', `${BASE}/system/0/hbinterval`)).json.response.value, 30);
    });

    it('answers 413 to a body over 4 KiB', async () => {
      const a = await call(api, 'PUT', `${BASE}/system/0/name`, JSON.stringify({ value: 'x', pad: 'y'.repeat(5000) }));
      assertError(a, 413, 'aErrSize');
    });

    it('answers {} for a PUT whose path has no GET, and for port/name', async () => {
      const a = await call(api, 'PUT', `${BASE}/usb/0/portdisable`, { value: 1 });
      assert.equal(a.status, 200);
      assert.deepEqual(a.json.response, {});
      const n = await call(api, 'PUT', `${BASE}/port/0/name`, { value: 'left port' });
      assert.equal(n.status, 200);
      assert.deepEqual(n.json.response, {});
      assert.equal((await call(api, 'GET', `${BASE}/port/0/name`)).json.response.value, 'left port');
    });

    it('sets names, lists and addresses and reads them back in their forms', async () => {
      const n = await call(api, 'PUT', `${BASE}/system/0/name`, { value: 'bench é' });
      assert.deepEqual(n.json.response, { value: 'bench é', rawValue: [98, 101, 110, 99, 104, 32, 195, 169] });
      const ip = await call(api, 'PUT', `${BASE}/ethernet/0/staticipv4address`, { value: '192.168.1.20' });
      assert.deepEqual(ip.json.response, { value: '192.168.1.20', rawValue: [192, 168, 1, 20] });
      const dns = await call(api, 'PUT', `${BASE}/ethernet/0/staticipv4dnsaddress`, { value: '8.8.8.8,1.1.1.1' });
      assert.deepEqual(dns.json.response.rawValue, [8, 8, 8, 8, 1, 1, 1, 1]);
      const list = await call(api, 'PUT', `${BASE}/usbsystem/0/powerbehaviorconfig`, { value: ['0x1', 2, '3'] });
      assert.equal(list.status, 200, JSON.stringify(list.json));
      assert.deepEqual(list.json.response.rawValue.slice(0, 3), [1, 2, 3]);
    });

    it('reads i32 values signed with rawValue as the unsigned word', async () => {
      const a = await call(api, 'PUT', `${BASE}/port/0/vbusaccumulatedpower`, { value: '0xFFFFFFFF' });
      assert.equal(a.status, 200, JSON.stringify(a.json));
      assert.deepEqual(a.json.response, { value: -1, rawValue: 4294967295 });
    });
  });

  describe('methods', () => {
    it('answers 405 with Allow for a method the path does not offer', async () => {
      const a = await call(api, 'PUT', `${BASE}/system/0/serialnumber`, { value: 1 });
      assertError(a, 405, 'aErrInvalidOption');
      assert.equal(a.headers.allow, 'GET, HEAD, OPTIONS');
      const b = await call(api, 'GET', `${BASE}/usb/0/portenable`);
      assertError(b, 405, 'aErrInvalidOption');
      assert.equal(b.headers.allow, 'PUT, OPTIONS');
      const c = await call(api, 'POST', `${BASE}/system/0/hbinterval`, { value: 1 });
      assertError(c, 405, 'aErrInvalidOption');
      assert.equal(c.headers.allow, 'GET, HEAD, PUT, OPTIONS');
      const d = await call(api, 'DELETE', `${BASE}`);
      assert.equal(d.status, 405);
    });

    it('answers 501 to a method it does not know at all', async () => {
      assertError(await call(api, 'BREW', `${BASE}/system/0/serialnumber`), 501, 'aErrUnimplemented');
    });

    it('answers HEAD like GET without a body, but never triggers an action (405)', async () => {
      const get = await call(api, 'GET', `${BASE}/system/0/hbinterval`);
      const head = await call(api, 'HEAD', `${BASE}/system/0/hbinterval`);
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      assert.equal(head.headers['content-length'], get.headers['content-length']);
      const action = await call(api, 'HEAD', `${BASE}/system/0/save`);
      assert.equal(action.status, 405);
      assert.equal(action.headers.allow, 'GET, OPTIONS');
    });

    it('answers OPTIONS with 204 and Allow', async () => {
      const a = await call(api, 'OPTIONS', `${BASE}/system/0/hbinterval`);
      assert.equal(a.status, 204);
      assert.equal(a.headers.allow, 'GET, HEAD, PUT, OPTIONS');
      assert.equal(a.text, '');
      assert.equal(a.headers['access-control-allow-origin'], undefined);
    });

    it('adds CORS headers for an allowed origin when CORS is on', async () => {
      const cors = simApi({ cors: ['*'] });
      const origin = { origin: 'http://other.example' };
      const a = await call(cors, 'OPTIONS', `${BASE}/system/0/hbinterval`, undefined, { ...origin, 'access-control-request-method': 'PUT' });
      assert.equal(a.status, 204);
      assert.equal(a.headers['access-control-allow-origin'], '*');
      assert.equal(a.headers['access-control-allow-methods'], 'GET, HEAD, PUT, OPTIONS');
      const g = await call(cors, 'GET', `${BASE}/system/0/hbinterval`, undefined, origin);
      assert.equal(g.headers['access-control-allow-origin'], '*');
      const plain = await call(cors, 'GET', `${BASE}/system/0/hbinterval`);
      assert.equal(plain.headers['access-control-allow-origin'], undefined);
    });

    it('runs actions on GET and answers an empty response', async () => {
      const a = await call(api, 'GET', `${BASE}/system/0/save`);
      assert.equal(a.status, 200);
      assert.deepEqual(a.json.response, {});
      const r = await call(api, 'GET', `${BASE}/system/0/reset`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.json.response, {});
    });
  });

  describe('devices', () => {
    it('lists the devices: GET /api/v1/device', async () => {
      const a = await call(api, 'GET', BASE);
      assert.equal(a.status, 200);
      assert.equal(a.json.response.length, 1);
      assert.equal(a.json.response[0].serialNumber, '0x1234ABCD');
      assert.equal(typeof a.json.response[0].model, 'number');
      assert.equal(typeof a.json.response[0].module, 'number');
    });

    it('describes a device: its entities, instance counts and operations', async () => {
      const a = await call(api, 'GET', `${BASE}/0x1234ABCD`);
      assert.equal(a.status, 200);
      const d = a.json.response;
      assert.equal(d.serialNumber, '0x1234ABCD');
      assert.equal(d.entities.system.count, 1);
      assert.deepEqual(d.entities.system.operations.serialnumber, { get: 'int', type: 'u32', unit: '', params: [] });
      assert.ok(d.entities.rail.count >= 1);
      assert.equal(d.entities.app, undefined);
    });

    it('requires the serial when the server reaches several devices', async () => {
      const two = simApi(undefined, [createSimModule({ serialNumber: 1 }), createSimModule({ serialNumber: 2 })]);
      assertError(await call(two, 'GET', `${BASE}/system/0/serialnumber`), 404, 'aErrNotFound');
      const a = await call(two, 'GET', `${BASE}/0x00000002/system/0/serialnumber`);
      assert.equal(a.json.response.value, 2);
      assert.equal((await call(two, 'GET', BASE)).json.response.length, 2);
    });
  });
});
