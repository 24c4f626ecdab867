// GET /metrics against the real thing: Debian's promtool finds no problem in the exposition of any
// simulator profile, and a real Prometheus (on loopback, its own configuration and a temporary data
// folder, scraping every second) finds the modules through the host server's GET /api/v1/targets (HTTP
// service discovery), scrapes each directly and records what REST reads: a rail set to 5 V is 5 in
// PromQL where REST says 5000000 µV, and a module that goes down shows up == 0. `make test` installs the prometheus
// package (promtool ships with it) when it is missing.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Api } from '../src/api/api';
import { createSimModule, PROFILES } from '../hal/sim/index';
import { scrape } from './metrics-helpers';
import { get, put } from './sim-helpers';
import { startHost, startSimAt, type Proc } from './host-helpers';

const SERIAL_A = '0x0000A001';
const SERIAL_B = '0x0000B002';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function promtool(text: string): { status: number | null; out: string } {
  const r = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return { status: r.status, out: (r.stdout ?? '') + (r.stderr ?? '') + (r.error ? String(r.error) : '') };
}

/** Polls `f` every 250 ms until it returns a value other than undefined, or fails after `ms`. */
async function until<T>(what: string, ms: number, f: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** An instant PromQL query through Prometheus' HTTP API: [labels, value] per series. */
async function query(port: number, promql: string): Promise<[Record<string, string>, number][]> {
  const r = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const j = (await r.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  assert.equal(j.status, 'success', JSON.stringify(j));
  return j.data.result.map((s) => [s.metric, Number(s.value[1])]);
}

describe('promtool check metrics', () => {
  it('finds no problem in the exposition of any simulator profile, alone or together', () => {
    const all = PROFILES.map((profile, k) => createSimModule({ serialNumber: 0x100 + k, profile }));
    for (const [name, devices] of [...PROFILES.map((p, k) => [p.name, [all[k]]] as const), ['all profiles', all] as const]) {
      const text = scrape(new Api(devices)).body;
      const r = promtool(text);
      assert.equal(r.status, 0, `${name}: ${r.out}`);
      assert.equal(r.out.trim(), '', `${name}: ${r.out}`);
    }
  });

  it('and it does see problems (the check is real)', () => {
    const r = promtool('# TYPE brainstem_x_microvolts counter\nbrainstem_x_microvolts 1\n');
    assert.notEqual(r.out.trim(), '', 'a unit prefix and a counter without _total are reported');
  });
});

describe('a real Prometheus finding simulators through the host server', function () {
  this.timeout(60_000);
  const sims: Proc[] = [];
  let host: Proc | null = null;
  let prom: ChildProcess | null = null;
  let promPort = 0;
  let dir = '';
  let promLog = '';

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prometheus-test-'));
    sims.push(await startSimAt(SERIAL_A, ['--profile', 'mtm-pm-1']));
    sims.push(await startSimAt(SERIAL_B, ['--profile', 'usbstem']));
    host = await startHost(sims.flatMap((s) => ['--module', `http://127.0.0.1:${s.port}`]));
    promPort = await freePort();
    fs.writeFileSync(path.join(dir, 'prometheus.yml'), [
      'global:', '  scrape_interval: 1s', '  scrape_timeout: 900ms',
      'scrape_configs:', '  - job_name: brainstem', '    honor_labels: true', '    http_sd_configs:',
      `      - url: http://127.0.0.1:${host.port}/api/v1/targets`, '        refresh_interval: 1s', '',
    ].join('\n'));
    prom = spawn('prometheus', [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${promPort}`, '--log.level=warn'], { stdio: ['ignore', 'ignore', 'pipe'] });
    prom.stderr!.on('data', (d) => { promLog += d; });
    await until('Prometheus to be ready', 20_000, async () => ((await fetch(`http://127.0.0.1:${promPort}/-/ready`)).ok ? true : undefined));
  });

  after(async () => {
    if (prom) {
      const exited = new Promise((r) => prom!.once('exit', r));
      prom.kill('SIGTERM');
      await exited;
    }
    for (const s of sims) await s.stop();
    if (host) await host.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('PromQL reads what REST reads: a rail set to 5 V is 5 volts', async () => {
    const base = `/api/v1/device/${SERIAL_A}/rail/0/`;
    assert.equal((await put(sims[0].port, base + 'voltagesetpoint', 5000000)).status, 200);
    assert.equal((await put(sims[0].port, base + 'enable', true)).status, 200);
    const promql = `brainstem_rail_voltage_volts{serial="${SERIAL_A}",index="0"}`;
    const volts = await until('a scrape with the rail at 5 V', 15_000, async () => {
      const r = await query(promPort, promql);
      return r.length === 1 && Math.abs(r[0][1] - 5) < 0.01 ? r[0][1] : undefined;
    });
    const rest = (await get(sims[0].port, base + 'voltage')).json.response.value;
    assert.ok(Math.abs(rest - 5000000) < 10000, `REST ${rest} µV`);
    assert.ok(Math.abs(volts * 1e6 - rest) < 1000, `PromQL ${volts} V, REST ${rest} µV`);
    const [[labels]] = await query(promPort, promql);
    assert.equal(labels.job, 'brainstem');
    assert.equal(labels.instance, `127.0.0.1:${sims[0].port}`, 'scraped from the module itself');
    assert.equal(labels.model, '14', 'the discovered target\'s label (MTM-PM-1)');
  });

  it('every module is recorded under its own serial, and one that goes down shows up == 0', async () => {
    const serials = await until('both modules scraped', 15_000, async () => {
      const r = await query(promPort, 'count by (serial) (brainstem_system_uptime_seconds)');
      return r.length === 2 ? r.map(([l]) => l.serial).sort() : undefined;
    });
    assert.deepEqual(serials, [SERIAL_A, SERIAL_B]);
    await sims[1].stop();
    const down = `127.0.0.1:${sims[1].port}`;
    // Once the host server lists it no more, Prometheus stops scraping it: the 0 stays in its history.
    await until('up == 0 for the stopped module', 15_000, async () => {
      const r = await query(promPort, `min_over_time(up{serial="${SERIAL_B}"}[1m]) == 0`);
      return r.some(([l]) => l.instance === down) ? true : undefined;
    });
    const up = await query(promPort, `up{serial="${SERIAL_A}"}`);
    assert.deepEqual(up.map(([l, v]) => [l.instance, v]), [[`127.0.0.1:${sims[0].port}`, 1]]);
    assert.equal(promLog.includes('level=error'), false, promLog);
  });
});
