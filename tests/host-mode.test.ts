// Host-side mode: several simulated modules behind one server (--devices N, or one --profile per
// module), distinct serials, the serial required in paths, each module with its own saved state.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MTM_PM_1, USBHUB3P, USBSTEM, EVERYTHING } from '../hal/sim/index';
import { buildDevices } from '../host-sim/devices';
import { configHome, DEFAULT_SERIAL, parseOptions, stateFileName, UsageError } from '../host-sim/options';
import { startSimServer, type SimServer } from './sim-server';
import { get, put, startSim, tempDir } from './sim-helpers';

describe('simulator options', () => {
  const env = { XDG_CONFIG_HOME: '/xdg' };

  it('defaults: one everything module, serial 0x1234ABCD, a state file per module in the config dir', () => {
    const c = parseOptions([], env);
    assert.deepEqual(c.devices, [{ serial: DEFAULT_SERIAL, profile: EVERYTHING }]);
    assert.deepEqual(c.state, { kind: 'per-device', dir: path.join('/xdg', 'device-rest-sim') });
    assert.equal(c.port, 9005);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(stateFileName(0x1234abcd), 'state-1234ABCD.json');
    assert.equal(stateFileName(0xab), 'state-000000AB.json');
  });

  it('the config dir is $XDG_CONFIG_HOME when absolute, else ~/.config', () => {
    assert.equal(configHome({ XDG_CONFIG_HOME: '/somewhere' }), '/somewhere');
    if (process.platform !== 'win32') {
      assert.equal(configHome({}), path.join(os.homedir(), '.config'));
      assert.equal(configHome({ XDG_CONFIG_HOME: 'relative/dir' }), path.join(os.homedir(), '.config'));
    }
  });

  it('--devices N: N modules of the profile with serials base, base+1...', () => {
    const c = parseOptions(['--devices', '3', '--serial', 'cafe0001', '--profile', 'USBHUB3P'], env);
    assert.deepEqual(c.devices.map((d) => [d.serial, d.profile]), [[0xcafe0001, USBHUB3P], [0xcafe0002, USBHUB3P], [0xcafe0003, USBHUB3P]]);
  });

  it('several --profile flags: one module each, in order, consecutive serials', () => {
    const c = parseOptions(['--profile', 'usbhub3p', '--profile', 'MTM-PM-1', '--profile', 'usbstem', '--serial', '0x10'], env);
    assert.deepEqual(c.devices.map((d) => [d.serial, d.profile.name]), [[0x10, 'usbhub3p'], [0x11, 'mtm-pm-1'], [0x12, 'usbstem']]);
  });

  it('--state-file and --no-state', () => {
    assert.deepEqual(parseOptions(['--state-file', 'x/state.json'], env).state, { kind: 'file', path: path.resolve('x/state.json') });
    assert.deepEqual(parseOptions(['--no-state'], env).state, { kind: 'memory' });
  });

  for (const [args, message] of [
    [['--profile', 'usbhub'], /unknown profile 'usbhub'; profiles: everything, usbhub3p, mtm-pm-1, usbstem/],
    [['--devices', '0'], /--devices must be an integer 1\.\.64/],
    [['--devices', '2.5'], /--devices must be an integer/],
    [['--devices', '65'], /--devices must be an integer 1\.\.64/],
    [['--devices', '2', '--profile', 'usbstem', '--profile', 'usbhub3p'], /--devices takes one --profile/],
    [['--serial', '0xFFFFFFFF', '--devices', '2'], /run past 0xFFFFFFFF/],
    [['--serial', '123456789'], /up to 8 hex digits/],
    [['--serial', 'xyz'], /up to 8 hex digits/],
    [['--state-file', 'a.json', '--no-state'], /exclude each other/],
    [['--state-file', ''], /needs a path/],
    [['--frobnicate'], /^unknown option --frobnicate/],
  ] as const) {
    it(`refuses ${args.join(' ')}`, () => {
      assert.throws(() => parseOptions([...args], env), (e: Error) => e instanceof UsageError && message.test(e.message));
    });
  }
});

describe('host mode: several modules behind one server', function () {
  this.timeout(10000);
  let server: SimServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const plans = [
    { serial: 0x100, profile: USBHUB3P }, { serial: 0x101, profile: MTM_PM_1 }, { serial: 0x102, profile: USBSTEM },
  ];
  const start = async (state: Parameters<typeof buildDevices>[1]): Promise<number> => {
    await server?.close();
    const built = buildDevices(plans, state, { warn: (w) => assert.fail(w) });
    server = await startSimServer({ port: 0, host: '127.0.0.1', devices: built.map((d) => d.module) });
    return server.port;
  };

  it('lists the modules, requires the serial, and routes to each by serial', async () => {
    const port = await start({ kind: 'memory' });
    const list = await get(port, '/api/v1/device');
    assert.deepEqual(list.json.response, [
      { serialNumber: '0x00000100', model: 19, module: 6 },
      { serialNumber: '0x00000101', model: 14, module: 4 },
      { serialNumber: '0x00000102', model: 4, module: 2 },
    ]);
    const bare = await get(port, '/api/v1/device/system/0/serialnumber');
    assert.equal(bare.status, 404);
    assert.equal(bare.json.response.error, 'aErrNotFound');
    assert.match(bare.json.response.message, /3 devices/);
    for (const p of plans) {
      const a = await get(port, `/api/v1/device/0x${p.serial.toString(16)}/system/0/serialnumber`);
      assert.equal(a.json.response.value, p.serial);
    }
    assert.equal((await get(port, '/api/v1/device/00000103/system/0/serialnumber')).json.response.error, 'aErrNotFound');
    // Each module has its own entities...
    assert.equal((await get(port, '/api/v1/device/0x100/port/7/portenabled')).status, 200);
    assert.equal((await get(port, '/api/v1/device/0x101/port/0/portenabled')).json.response.error, 'aErrInvalidEntity');
    assert.deepEqual(Object.keys((await get(port, '/api/v1/device/0x101')).json.response.entities).sort(),
      ['digital', 'pointer', 'rail', 'store', 'system', 'temperature', 'timer', 'userconfig']);
    // ...and its own settings.
    assert.equal((await put(port, '/api/v1/device/0x100/system/0/hbinterval', 33)).status, 200);
    assert.equal((await get(port, '/api/v1/device/0x101/system/0/hbinterval')).json.response.value, 10);
  });

  it('per-module state files: each module saves to its own file and gets only its own back', async () => {
    const dir = tempDir();
    let port = await start({ kind: 'per-device', dir });
    await put(port, '/api/v1/device/0x100/system/0/hbinterval', 21);
    await put(port, '/api/v1/device/0x102/system/0/hbinterval', 23);
    await get(port, '/api/v1/device/0x100/system/0/save');
    await get(port, '/api/v1/device/0x102/system/0/save');
    await put(port, '/api/v1/device/0x101/system/0/hbinterval', 22); // never saved
    assert.deepEqual(fs.readdirSync(dir).sort(), ['state-00000100.json', 'state-00000102.json']);
    port = await start({ kind: 'per-device', dir });
    assert.equal((await get(port, '/api/v1/device/0x100/system/0/hbinterval')).json.response.value, 21);
    assert.equal((await get(port, '/api/v1/device/0x101/system/0/hbinterval')).json.response.value, 10);
    assert.equal((await get(port, '/api/v1/device/0x102/system/0/hbinterval')).json.response.value, 23);
  });

  it('one shared state file keyed by serial: a save of one module keeps the others\' entries', async () => {
    const file = path.join(tempDir(), 'bench.json');
    let port = await start({ kind: 'file', path: file });
    await put(port, '/api/v1/device/0x100/system/0/hbinterval', 31);
    await get(port, '/api/v1/device/0x100/system/0/save');
    await put(port, '/api/v1/device/0x101/rail/0/voltagesetpoint', 2_500_000);
    await get(port, '/api/v1/device/0x101/system/0/save');
    assert.deepEqual(Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')).devices).sort(), ['0x00000100', '0x00000101']);
    port = await start({ kind: 'file', path: file });
    assert.equal((await get(port, '/api/v1/device/0x100/system/0/hbinterval')).json.response.value, 31);
    assert.equal((await get(port, '/api/v1/device/0x101/system/0/hbinterval')).json.response.value, 10);
    assert.equal((await get(port, '/api/v1/device/0x101/rail/0/voltagesetpoint')).json.response.value, 2_500_000);
  });

  it('the command line: --devices 2 and mixed --profile flags, default state files in $XDG_CONFIG_HOME', async function () {
    this.timeout(20000);
    const xdg = tempDir();
    let sim = await startSim(['--devices', '2', '--serial', '0xA0', '--profile', 'usbstem'], { XDG_CONFIG_HOME: xdg });
    try {
      const list = await get(sim.port, '/api/v1/device');
      assert.deepEqual(list.json.response.map((d: { serialNumber: string; model: number }) => [d.serialNumber, d.model]),
        [['0x000000A0', 4], ['0x000000A1', 4]]);
      assert.equal((await put(sim.port, '/api/v1/device/0xA1/servo/0/position', 200)).status, 200);
      assert.equal((await get(sim.port, '/api/v1/device/0xA1/system/0/save')).status, 200);
    } finally {
      await sim.stop();
    }
    assert.deepEqual(fs.readdirSync(path.join(xdg, 'device-rest-sim')), ['state-000000A1.json']);
    sim = await startSim(['--profile', 'USBHub3p', '--profile', 'usbstem', '--serial', '0xA0'], { XDG_CONFIG_HOME: xdg });
    try {
      const list = await get(sim.port, '/api/v1/device');
      assert.deepEqual(list.json.response.map((d: { model: number }) => d.model), [19, 4]);
      assert.equal((await get(sim.port, '/api/v1/device/0xA1/servo/0/position')).json.response.value, 200);
      assert.match(sim.stdout, /2 modules .*serial is required/);
    } finally {
      await sim.stop();
    }
  });

  it('the command line refuses an unknown profile with exit code 2', async () => {
    await assert.rejects(startSim(['--profile', 'nope']), /exited 2: error: unknown profile 'nope'/);
  });
});
