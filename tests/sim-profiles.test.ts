// Module profiles: each is consistent data, and through the API the module has exactly the entities,
// instance counts and operations its capability table says (404 aErrInvalidEntity, 404 aErrIndexRange,
// 501 aErrUnimplemented per docs/api.md), and behaves as that kind of module.
import { strict as assert } from 'node:assert';
import {
  createSimModule, EVERYTHING, findProfile, MTM_PM_1, PROFILES, profileProblems, USBHUB3P, USBSTEM, type SimProfile,
} from '../hal/sim/index';
import { allRoutes } from '../src/api/route/routes';
import { call, simApi } from './helpers';

const SERIAL = 0x00c0ffee;
const base = `/api/v1/device/0x00C0FFEE`;

function apiOf(profile: SimProfile) {
  return simApi(undefined, [createSimModule({ serialNumber: SERIAL, profile, now: () => Date.UTC(2026, 0, 1) })]);
}

/** What each modelled module has, written out independently of the profile data. */
const EXPECTED: { profile: SimProfile; model: number; entities: { [e: string]: number } }[] = [
  {
    profile: USBHUB3P, model: 19,
    entities: { system: 1, port: 8, usb: 1, usbsystem: 1, temperature: 1, store: 2, pointer: 4, timer: 8, userconfig: 1 },
  },
  {
    profile: MTM_PM_1, model: 14,
    entities: { system: 1, rail: 1, digital: 2, temperature: 1, store: 2, pointer: 4, timer: 8, userconfig: 1 },
  },
  {
    profile: USBSTEM, model: 4,
    entities: { system: 1, digital: 15, analog: 4, servo: 8, uart: 1, store: 3, pointer: 4, timer: 8, userconfig: 1 },
  },
];

describe('sim profiles: data', () => {
  it('every profile is consistent, with a unique name', () => {
    for (const p of PROFILES) assert.deepEqual(profileProblems(p), [], p.name);
    assert.equal(new Set(PROFILES.map((p) => p.name)).size, PROFILES.length);
    assert.deepEqual(PROFILES.map((p) => p.name), ['everything', 'usbhub3p', 'mtm-pm-1', 'usbstem']);
  });

  it('the consistency check catches broken data', () => {
    assert.match(profileProblems({ ...USBSTEM, counts: { ...USBSTEM.counts, store: 4 } }).join(), /store counts 4 but 3/);
    assert.match(profileProblems({ ...USBSTEM, counts: { ...USBSTEM.counts, servo: 16 } }).join(), /servo 16/);
    assert.match(profileProblems({ ...USBHUB3P, counts: { ...USBHUB3P.counts, port: 4 } }).join(), /port counts 4 but 8/);
    assert.match(profileProblems({ ...MTM_PM_1, rails: [] }).join(), /rail counts 1 but 0/);
  });

  it('finds profiles by name in any case, with or without dashes', () => {
    assert.equal(findProfile('USBHub3p'), USBHUB3P);
    assert.equal(findProfile('MTM-PM-1'), MTM_PM_1);
    assert.equal(findProfile('mtm_pm_1'), MTM_PM_1);
    assert.equal(findProfile('UsbStem'), USBSTEM);
    assert.equal(findProfile('EVERYTHING'), EVERYTHING);
    assert.equal(findProfile('usbhub'), undefined);
    assert.equal(findProfile(''), undefined);
  });
});

describe('sim profiles: through the API', () => {
  for (const x of EXPECTED) {
    describe(x.profile.name, () => {
      const api = apiOf(x.profile);

      it(`describes itself: model ${x.model}, exactly its entities and counts`, async () => {
        const a = await call(api, 'GET', base);
        assert.equal(a.status, 200);
        assert.equal(a.json.response.model, x.model);
        const counts: { [e: string]: number } = {};
        for (const [e, d] of Object.entries<any>(a.json.response.entities)) counts[e] = d.count;
        assert.deepEqual(counts, x.entities);
        const list = await call(api, 'GET', '/api/v1/device');
        assert.deepEqual(list.json.response, [{ serialNumber: '0x00C0FFEE', model: x.model, module: x.profile.moduleBaseAddress }]);
        assert.equal((await call(api, 'GET', `${base}/system/0/model`)).json.response.value, x.model);
      });

      it('answers 404 aErrInvalidEntity for entities it lacks and aErrIndexRange past its counts', async () => {
        for (const entity of ['rail', 'port', 'usb', 'digital', 'analog', 'servo', 'uart', 'poe', 'clock', 'ethernet', 'powerdelivery']) {
          const route = allRoutes().find((r) => r.entity === entity && r.get !== '-' && r.get !== 'none' && r.params.length === 0)!;
          const n = x.entities[entity] ?? 0;
          const absent = await call(api, 'GET', `${base}/${entity}/0/${route.op}`);
          const beyond = await call(api, 'GET', `${base}/${entity}/${n}/${route.op}`);
          if (n === 0) {
            assert.equal(absent.status, 404, entity);
            assert.equal(absent.json.response.error, 'aErrInvalidEntity', entity);
          } else {
            assert.equal(absent.status, 200, entity);
            assert.equal(beyond.status, 404, `${entity}/${n}`);
            assert.equal(beyond.json.response.error, 'aErrIndexRange', `${entity}/${n}`);
          }
        }
      });

      it('walks every route: 501 exactly where the capability table or docs/api.md says so, never a 500', async () => {
        const halEntities = createSimModule({ profile: x.profile }).entities as { [e: string]: any };
        for (const r of allRoutes()) {
          if (r.entity === 'system' && (r.op === 'reset' || r.op === 'resetdevicetofactorydefaults')) continue;
          const params = r.params.map((p) => '/' + (p.name === 'command' ? 3 : Math.max(p.min, 0))).join('');
          const path = `${base}/${r.entity}/0/${r.op}${params}`;
          const a = await call(api, r.get === '-' ? 'PUT' : 'GET', path, r.get === '-' ? { value: 0 } : undefined);
          assert.ok(a.status !== 500 && a.status !== 503, `${path}: ${a.status} ${a.text}`);
          const present = (x.entities[r.entity] ?? 0) > 0;
          const unsupported = r.entity === 'app' || r.entity === 'i2c' || (present && !halEntities[r.entity].supports(r.op));
          if (!present && !unsupported) assert.equal(a.json.response.error, 'aErrInvalidEntity', path);
          if (a.status === 501) assert.ok(unsupported, `${path} answered 501 but the table supports it`);
          if (unsupported) assert.equal(a.status, 501, `${path} should be 501`);
        }
      });
    });
  }

  it('usbhub3p: Type-A ports answer 501 for CC/VCONN/SBU, 8 hub channels, and the describe lists agree', async () => {
    const api = apiOf(USBHUB3P);
    for (const p of ['port/0/cc1enabled', 'port/7/vconnenabled', 'port/3/sbu1voltage', 'usb/0/cableflip/0', 'usb/0/cc1current/7']) {
      const a = await call(api, 'GET', `${base}/${p}`);
      assert.equal(a.status, 501, p);
      assert.equal(a.json.response.error, 'aErrUnimplemented', p);
    }
    assert.equal((await call(api, 'PUT', `${base}/port/0/cc1enabled`, { value: false })).status, 501);
    assert.equal((await call(api, 'GET', `${base}/usb/0/portcurrent/7`)).status, 200);
    const past = await call(api, 'GET', `${base}/usb/0/portcurrent/8`);
    assert.equal(past.status, 400);
    assert.equal(past.json.response.error, 'aErrRange');
    const ops = Object.keys((await call(api, 'GET', base)).json.response.entities.port.operations);
    assert.ok(ops.includes('vbuscurrent') && ops.includes('powerenabled'));
    assert.ok(!ops.includes('cc1enabled') && !ops.includes('vconnvoltage'));
    // One port model behind three entities: a channel disabled through usb shows in port and usbsystem.
    assert.equal((await call(api, 'PUT', `${base}/usb/0/portdisable`, { value: 5 })).status, 200);
    assert.equal((await call(api, 'GET', `${base}/port/5/portenabled`)).json.response.value, false);
    const enabled = (await call(api, 'GET', `${base}/usbsystem/0/enabledlist`)).json.response.value;
    assert.equal(enabled, 0xff & ~(1 << 5));
  });

  it('mtm-pm-1: one 5 V / 1 A rail driving its load; electronic-load setpoints are 501', async () => {
    const api = apiOf(MTM_PM_1);
    assert.equal((await call(api, 'PUT', `${base}/rail/0/voltagesetpoint`, { value: 3_300_000 })).status, 200);
    assert.equal((await call(api, 'PUT', `${base}/rail/0/enable`, { value: true })).status, 200);
    const v = (await call(api, 'GET', `${base}/rail/0/voltage`)).json.response.value;
    const i = (await call(api, 'GET', `${base}/rail/0/current`)).json.response.value;
    assert.ok(Math.abs(v - 3_300_000) < 1_000, `voltage ${v}`);
    assert.ok(Math.abs(i - 330_000) < 1_000, `current ${i} through the 10 ohm load`);
    const over = await call(api, 'PUT', `${base}/rail/0/voltagesetpoint`, { value: 6_000_000 });
    assert.equal(over.status, 400);
    assert.equal(over.json.response.error, 'aErrRange');
    assert.equal((await call(api, 'GET', `${base}/rail/0/powersetpoint`)).status, 501);
    assert.equal((await call(api, 'GET', `${base}/rail/0/kelvinsensingstate`)).status, 501);
    assert.equal((await call(api, 'GET', `${base}/digital/1/state`)).status, 200);
    assert.equal((await call(api, 'GET', `${base}/digital/2/state`)).json.response.error, 'aErrIndexRange');
  });

  it('usbstem: servos on the first 8 pins, an SD store, i2c present but 501', async () => {
    const api = apiOf(USBSTEM);
    assert.equal((await call(api, 'PUT', `${base}/servo/7/enable`, { value: true })).status, 200);
    assert.equal((await call(api, 'GET', `${base}/digital/7/configuration`)).json.response.value, 3); // RC servo output
    assert.equal((await call(api, 'GET', `${base}/store/2/slotcapacity/0`)).json.response.value, 4096);
    assert.equal((await call(api, 'GET', `${base}/store/3/slotcapacity/0`)).json.response.error, 'aErrIndexRange');
    assert.equal((await call(api, 'GET', `${base}/uart/0/baudrate`)).status, 200);
    const i2c = await call(api, 'GET', `${base}/i2c/1/read`);
    assert.equal(i2c.status, 501);
    assert.equal(i2c.json.response.error, 'aErrUnimplemented');
  });
});
