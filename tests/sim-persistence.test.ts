// Saved settings on disk: the atomic write (a crash before the rename leaves the old file), the state
// file (corrupt or unreadable files start factory-fresh and stay untouched until a save), and save,
// reset, factory defaults and userconfig end to end over HTTP with modules rebuilt from the file.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createSimModule, EVERYTHING, MTM_PM_1, type SimProfile } from '../hal/sim/index';
import { tempPathOf, writeFileAtomic } from '../host-sim/atomic-write';
import { buildDevices } from '../host-sim/devices';
import { startSimServer, type SimServer } from './sim-server';
import { StateFile, STATE_FORMAT } from '../host-sim/state-file';
import { get, put, startSim, tempDir } from './sim-helpers';

const SERIAL = 0x1234abcd;

/** A simulator server on port 0 whose one module keeps its state in `file`. */
async function serve(file: string, profile: SimProfile = EVERYTHING, warn?: (m: string) => void): Promise<SimServer> {
  const [d] = buildDevices([{ serial: SERIAL, profile }], { kind: 'file', path: file }, { warn: warn ?? (() => undefined) });
  return startSimServer({ port: 0, host: '127.0.0.1', devices: [d.module] });
}

const value = async (port: number, p: string): Promise<unknown> => {
  const a = await get(port, `/api/v1/device/${p}`);
  assert.equal(a.status, 200, `${p}: ${JSON.stringify(a.json)}`);
  return a.json.response.value;
};
const set = async (port: number, p: string, v: unknown): Promise<void> => {
  const a = await put(port, `/api/v1/device/${p}`, v);
  assert.equal(a.status, 200, `${p}: ${JSON.stringify(a.json)}`);
};
const run = async (port: number, p: string): Promise<void> => {
  const a = await get(port, `/api/v1/device/${p}`);
  assert.equal(a.status, 200, `${p}: ${JSON.stringify(a.json)}`);
};

describe('atomic write', () => {
  it('writes and replaces a file, creating its directory, leaving no temp file', () => {
    const dir = tempDir();
    const file = path.join(dir, 'a', 'b', 'state.json');
    writeFileAtomic(file, 'one');
    writeFileAtomic(file, 'two');
    assert.equal(fs.readFileSync(file, 'utf8'), 'two');
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['state.json']);
  });

  it('a process killed between the temp write and the rename leaves the old file intact and loadable', () => {
    const dir = tempDir();
    const file = path.join(dir, 'state.json');
    // A saved module: hbinterval 42 in the file.
    const storage = new StateFile(file, () => undefined).storageFor(SERIAL, 'everything', 4);
    const m = createSimModule({ serialNumber: SERIAL, storage });
    m.entities.system!.set(0, 'hbinterval', [], 42);
    m.entities.system!.run(0, 'save', []);
    const before = fs.readFileSync(file, 'utf8');
    // Another process saves hbinterval 99 and dies (SIGKILL) right before its rename.
    const script = `
      const { StateFile } = require(${JSON.stringify(path.resolve(__dirname, '../host-sim/state-file.js'))});
      const { createSimModule } = require(${JSON.stringify(path.resolve(__dirname, '../hal/sim/index.js'))});
      const f = new StateFile(${JSON.stringify(file)}, () => {}, { beforeRename: () => process.kill(process.pid, 'SIGKILL') });
      const m = createSimModule({ serialNumber: ${SERIAL}, storage: f.storageFor(${SERIAL}, 'everything', 4) });
      m.entities.system.set(0, 'hbinterval', [], 99);
      m.entities.system.run(0, 'save', []);
      process.exit(0);`;
    const child = spawnSync(process.execPath, ['-e', script]);
    assert.equal(child.signal, 'SIGKILL', `the child crashed mid-save: ${child.stderr}`);
    const temp = tempPathOf(file, child.pid);
    assert.ok(fs.existsSync(temp), 'the crash left its temp file');
    assert.match(fs.readFileSync(temp, 'utf8'), /"hbinterval":99/, 'the new state was fully written to the temp file');
    assert.equal(fs.readFileSync(file, 'utf8'), before, 'the state file is the old one, byte for byte');
    // The next start loads the old state and clears the dead process's temp file.
    const again = createSimModule({ serialNumber: SERIAL, storage: new StateFile(file, () => undefined).storageFor(SERIAL, 'everything', 4) });
    assert.equal(again.entities.system!.get(0, 'hbinterval', []), 42);
    assert.ok(!fs.existsSync(temp), 'stale temp file removed');
  });

  it('a failed write removes its temp file, keeps the old file, and the module flags a storage error', () => {
    const dir = tempDir();
    const file = path.join(dir, 'state.json');
    const warnings: string[] = [];
    const f = new StateFile(file, (w) => warnings.push(w), { beforeRename: () => { throw new Error('disk on fire'); } });
    const m = createSimModule({ serialNumber: SERIAL, storage: f.storageFor(SERIAL, 'everything', 4) });
    fs.writeFileSync(file, 'old');
    assert.throws(() => m.entities.system!.run(0, 'save', []), { code: 6 }, 'system/save answers aErrIO (6)');
    assert.equal(fs.readFileSync(file, 'utf8'), 'old');
    assert.deepEqual(fs.readdirSync(dir), ['state.json']);
    assert.match(warnings.join('\n'), /could not be written: disk on fire/);
    assert.equal((m.entities.system!.get(0, 'errors', []) as number) & (1 << 4), 1 << 4, 'system/errors storage bit');
  });
});

describe('state file', () => {
  it('a missing file is a factory-fresh module, silently, and nothing is written until a save', () => {
    const file = path.join(tempDir(), 'state.json');
    const warnings: string[] = [];
    const m = createSimModule({ storage: new StateFile(file, (w) => warnings.push(w)).storageFor(SERIAL, 'everything', 4) });
    m.entities.system!.set(0, 'hbinterval', [], 30);
    assert.equal(m.entities.system!.get(0, 'hbinterval', []), 30);
    assert.deepEqual(warnings, []);
    assert.ok(!fs.existsSync(file));
  });

  it('records format, version, serial, profile and model', () => {
    const file = path.join(tempDir(), 'state.json');
    const m = createSimModule({ serialNumber: 0xab, profile: MTM_PM_1, storage: new StateFile(file).storageFor(0xab, 'mtm-pm-1', 14) });
    m.entities.system!.run(0, 'save', []);
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    assert.equal(doc.format, STATE_FORMAT);
    assert.equal(doc.version, 1);
    assert.deepEqual(Object.keys(doc.devices), ['0x000000AB']);
    assert.equal(doc.devices['0x000000AB'].profile, 'mtm-pm-1');
    assert.equal(doc.devices['0x000000AB'].model, 14);
    assert.ok(!Number.isNaN(Date.parse(doc.devices['0x000000AB'].savedAt)));
  });

  for (const [what, text] of [
    ['truncated JSON', '{"format":"device-rest-sim-state","version":1,"devi'],
    ['not JSON at all', '\u0000\u0001garbage'],
    ['JSON of another kind', '{"hello": "world"}'],
    ['an empty file', ''],
    ['an entry without state', '{"format":"device-rest-sim-state","version":1,"devices":{"0x1234ABCD":{"profile":"everything"}}}'],
  ] as const) {
    it(`${what}: factory settings, a warning, the file untouched until a save that first copies it aside`, () => {
      const file = path.join(tempDir(), 'state.json');
      fs.writeFileSync(file, text);
      const warnings: string[] = [];
      const m = createSimModule({ storage: new StateFile(file, (w) => warnings.push(w)).storageFor(SERIAL, 'everything', 4) });
      assert.equal(warnings.length, 1);
      assert.match(warnings[0], /is corrupt .*starting with factory settings/);
      assert.equal(m.entities.system!.get(0, 'hbinterval', []), 10, 'factory hbinterval');
      m.entities.system!.set(0, 'hbinterval', [], 77); // an unsaved change writes nothing
      m.entities.system!.run(0, 'reset', []);
      m.afterResponse();
      assert.equal(fs.readFileSync(file, 'utf8'), text, 'untouched');
      m.entities.system!.set(0, 'hbinterval', [], 77);
      m.entities.system!.run(0, 'save', []);
      assert.equal(fs.readFileSync(file + '.corrupt', 'utf8'), text, 'the corrupt file was kept aside');
      const again = createSimModule({ storage: new StateFile(file, () => assert.fail('no warning now')).storageFor(SERIAL, 'everything', 4) });
      assert.equal(again.entities.system!.get(0, 'hbinterval', []), 77);
    });
  }

  it('an unreadable path (a directory) starts factory-fresh with a warning instead of crashing', () => {
    const file = tempDir(); // a directory where the file should be
    const warnings: string[] = [];
    const m = createSimModule({ storage: new StateFile(file, (w) => warnings.push(w)).storageFor(SERIAL, 'everything', 4) });
    assert.match(warnings.join(), /cannot be read \(EISDIR\)/);
    assert.equal(m.entities.system!.get(0, 'hbinterval', []), 10);
  });

  it('warns when the saved entry was made by another profile, and still loads what fits', () => {
    const file = path.join(tempDir(), 'state.json');
    const a = createSimModule({ storage: new StateFile(file).storageFor(SERIAL, 'everything', 4) });
    a.entities.system!.set(0, 'hbinterval', [], 55);
    a.entities.system!.run(0, 'save', []);
    const warnings: string[] = [];
    const b = createSimModule({ profile: MTM_PM_1, storage: new StateFile(file, (w) => warnings.push(w)).storageFor(SERIAL, 'mtm-pm-1', 14) });
    assert.match(warnings.join(), /saved as profile 'everything', now 'mtm-pm-1'/);
    assert.equal(b.entities.system!.get(0, 'hbinterval', []), 55);
  });
});

describe('saved settings end to end over HTTP (file-backed module)', function () {
  this.timeout(10000);
  let dir: string;
  let file: string;
  let server: SimServer | undefined;
  beforeEach(() => {
    dir = tempDir();
    file = path.join(dir, 'state.json');
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  /** Stop the server and start a new one on the same file: a power cycle of the module. */
  const cycle = async (profile: SimProfile = EVERYTHING): Promise<number> => {
    await server?.close();
    server = await serve(file, profile);
    return server.port;
  };

  it('save keeps a setting through reset and restart; an unsaved one is gone after reset', async () => {
    let port = await cycle();
    await set(port, 'system/0/hbinterval', 42);
    await set(port, 'system/0/name', 'bench A');
    await run(port, 'system/0/save');
    await set(port, 'system/0/hbinterval', 77); // not saved
    assert.equal(await value(port, 'system/0/hbinterval'), 77);
    await run(port, 'system/0/reset');
    assert.equal(await value(port, 'system/0/hbinterval'), 42, 'reset drops the unsaved 77');
    await set(port, 'system/0/hbinterval', 88); // not saved either
    port = await cycle();
    assert.equal(await value(port, 'system/0/hbinterval'), 42, 'a new module from the file has the saved value');
    assert.equal(await value(port, 'system/0/name'), 'bench A');
  });

  it('resetdevicetofactorydefaults erases the saved settings, in the file too', async () => {
    let port = await cycle();
    await set(port, 'system/0/hbinterval', 42);
    await run(port, 'system/0/save');
    await run(port, 'system/0/resetdevicetofactorydefaults');
    assert.equal(await value(port, 'system/0/hbinterval'), 10);
    port = await cycle();
    assert.equal(await value(port, 'system/0/hbinterval'), 10);
    assert.doesNotMatch(fs.readFileSync(file, 'utf8'), /hbinterval/);
  });

  it('userconfig saves, loads and factory-resets one entity instance; other unsaved settings are lost', async () => {
    let port = await cycle(MTM_PM_1);
    await set(port, 'rail/0/voltagesetpoint', 3_300_000);
    await set(port, 'system/0/hbinterval', 50); // never saved
    await run(port, 'userconfig/0/saveentitytostore/32/0'); // 32 = rail
    await set(port, 'rail/0/voltagesetpoint', 1_800_000);
    await run(port, 'userconfig/0/loadentityfromstore/32/0');
    assert.equal(await value(port, 'rail/0/voltagesetpoint'), 3_300_000, 'loaded back from the store');
    await run(port, 'userconfig/0/resetentitytofactorydefaults/32/0');
    assert.equal(await value(port, 'rail/0/voltagesetpoint'), 5_000_000, 'factory value now');
    assert.equal(await value(port, 'system/0/hbinterval'), 50, 'other entities untouched');
    port = await cycle(MTM_PM_1);
    assert.equal(await value(port, 'rail/0/voltagesetpoint'), 3_300_000, 'what was saved stays saved');
    assert.equal(await value(port, 'system/0/hbinterval'), 10, 'the unsaved system setting is gone');
    const bad = await get(port, '/api/v1/device/userconfig/0/saveentitytostore/37/0'); // port: this module has none
    assert.equal(bad.status, 400);
    assert.equal(bad.json.response.error, 'aErrRange');
  });

  it('internal store slots persist in the file without a save; RAM slots do not', async () => {
    let port = await cycle();
    await set(port, 'store/0/lock/3', true);
    await set(port, 'store/1/lock/0', true);
    port = await cycle();
    assert.equal(await value(port, 'store/0/lock/3'), true);
    assert.equal(await value(port, 'store/1/lock/0'), false);
  });

  it('the simulator process: --state-file survives a restart; a corrupt file is reported and left alone', async function () {
    this.timeout(20000);
    let sim = await startSim(['--state-file', file]);
    try {
      await set(sim.port, 'system/0/hbinterval', 123);
      await run(sim.port, 'system/0/save');
      await set(sim.port, 'system/0/hbinterval', 7);
    } finally {
      await sim.stop();
    }
    sim = await startSim(['--state-file', file]);
    try {
      assert.equal(await value(sim.port, 'system/0/hbinterval'), 123);
      assert.match(sim.stdout, new RegExp(`saved settings: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    } finally {
      await sim.stop();
    }
    fs.writeFileSync(file, '{"format":"device-rest-sim-state", oops');
    sim = await startSim(['--state-file', file]);
    try {
      assert.equal(await value(sim.port, 'system/0/hbinterval'), 10);
      assert.match(sim.stderr(), /is corrupt/);
      assert.equal(fs.readFileSync(file, 'utf8'), '{"format":"device-rest-sim-state", oops');
    } finally {
      await sim.stop();
    }
  });

  it('--no-state: nothing is written anywhere, saved settings last until the process ends', async function () {
    this.timeout(20000);
    const xdg = tempDir();
    let sim = await startSim(['--no-state'], { XDG_CONFIG_HOME: xdg });
    try {
      assert.match(sim.stdout, /saved settings: memory/);
      await set(sim.port, 'system/0/hbinterval', 99);
      await run(sim.port, 'system/0/save');
      await run(sim.port, 'system/0/reset');
      assert.equal(await value(sim.port, 'system/0/hbinterval'), 99);
    } finally {
      await sim.stop();
    }
    assert.deepEqual(fs.readdirSync(xdg), []);
    sim = await startSim(['--no-state'], { XDG_CONFIG_HOME: xdg });
    try {
      assert.equal(await value(sim.port, 'system/0/hbinterval'), 10);
    } finally {
      await sim.stop();
    }
  });
});
