// GET /metrics against the real thing: Debian's promtool finds no problem in the exposition of any
// simulator profile, and a real Prometheus (on loopback, its own configuration and a temporary data
// folder, scraping every second) finds the modules through the host server's GET /api/v1/targets (HTTP
// service discovery), scrapes each directly and records what REST reads: a rail set to 5 V is 5 in
// PromQL where REST says 5000000 µV, and a module that goes down shows up == 0. `make test` installs the prometheus
// package (promtool ships with it) when it is missing.
import { strict as assert } from 'node:assert';
import { spawn, spawnSync } from 'node:child_process';
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

/** An instant PromQL query through Prometheus' HTTP API (at `time`, s since the epoch, else now): [labels, value] per series. */
async function query(port: number, promql: string, time?: string): Promise<[Record<string, string>, number][]> {
  const r = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}${time ? '&time=' + time : ''}`);
  const j = (await r.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
  assert.equal(j.status, 'success', JSON.stringify(j));
  return j.data.result.map((s) => [s.metric, Number(s.value[1])]);
}

describe('promtool check metrics', function () {
  this.timeout(20_000); // five promtool runs: seconds on a loaded machine
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

interface Prometheus {
  port: number;
  log: () => string;
  stop: () => Promise<void>;
}

/** A real Prometheus on loopback (its own configuration and data folder) scraping every second the targets `sdUrl` lists. */
async function startPrometheus(sdUrl: string): Promise<Prometheus> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prometheus-test-'));
  const port = await freePort();
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), [
    'global:', '  scrape_interval: 1s', '  scrape_timeout: 900ms',
    'scrape_configs:', '  - job_name: brainstem', '    honor_labels: true', '    http_sd_configs:',
    `      - url: ${sdUrl}`, '        refresh_interval: 1s', '',
  ].join('\n'));
  const prom = spawn('prometheus', [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  prom.stderr!.on('data', (d) => { log += d; });
  const exited = new Promise((r) => prom.once('exit', r));
  const stop = async (): Promise<void> => {
    if (prom.exitCode === null && prom.signalCode === null) prom.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  };
  await until('Prometheus to be ready', 20_000, async () => ((await fetch(`http://127.0.0.1:${port}/-/ready`)).ok ? true : undefined)).catch(async (e) => {
    await stop();
    throw e;
  });
  return { port, log: () => log, stop };
}

describe('a real Prometheus finding simulators through the host server', function () {
  this.timeout(60_000);
  const sims: Proc[] = [];
  let host: Proc | null = null;
  let prom: Prometheus | null = null;
  let promPort = 0;

  before(async () => {
    sims.push(await startSimAt(SERIAL_A, ['--profile', 'mtm-pm-1']));
    sims.push(await startSimAt(SERIAL_B, ['--profile', 'usbstem']));
    host = await startHost(sims.flatMap((s) => ['--module', `http://127.0.0.1:${s.port}`]));
    prom = await startPrometheus(`http://127.0.0.1:${host.port}/api/v1/targets`);
    promPort = prom.port;
  });

  after(async () => {
    await prom?.stop();
    for (const s of sims) await s.stop();
    if (host) await host.stop();
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
    assert.equal(prom!.log().includes('level=error'), false, prom!.log());
  });
});

describe('a real Prometheus scraping a simulator of 8 modules through the host server', function () {
  this.timeout(60_000);
  const FIRST = 0x0000c001;
  const serials = Array.from({ length: 8 }, (_, i) => '0x' + (FIRST + i).toString(16).toUpperCase().padStart(8, '0'));
  let sim: Proc | null = null;
  let host: Proc | null = null;
  let prom: Prometheus | null = null;

  before(async () => {
    sim = await startSimAt(serials[0], ['--devices', '8', '--profile', 'usbstem']);
    host = await startHost(['--module', `http://127.0.0.1:${sim.port}`]);
    await until('the 8 modules online', 10_000, async () => {
      const list = (await get(host!.port, '/api/v1/device')).json.response as { online: boolean }[];
      return list.length === 8 && list.every((m) => m.online) ? true : undefined;
    });
    prom = await startPrometheus(`http://127.0.0.1:${host.port}/api/v1/targets`);
  });

  after(async () => {
    await prom?.stop();
    await sim?.stop();
    await host?.stop();
  });

  it('lists the address once, labelled with the serials it serves', async () => {
    const groups = (await get(host!.port, '/api/v1/targets')).json as { targets: string[]; labels: Record<string, string> }[];
    assert.deepEqual(groups, [{ targets: [`127.0.0.1:${sim!.port}`], labels: { serials: serials.join(','), model: '4' } }]);
  });

  it('records every series once per scrape: count_over_time equals the number of scrapes', async () => {
    const instance = `127.0.0.1:${sim!.port}`;
    // Wait for a few scrapes, then count over one window at one evaluation time (samples already stored).
    await until('6 scrapes', 20_000, async () => {
      const r = await query(prom!.port, `count_over_time(up{instance="${instance}"}[1m])`);
      return r.length >= 1 && r.every(([, v]) => v >= 6) ? true : undefined;
    });
    const at = (Date.now() / 1000 - 2).toFixed(3);
    const ups = await query(prom!.port, `count_over_time(up{instance="${instance}"}[1m])`, at);
    assert.equal(ups.length, 1, `one target for the address: ${JSON.stringify(ups)}`);
    const scrapes = ups[0][1];
    assert.ok(scrapes >= 3, `${scrapes} scrapes`);
    const counts = await query(prom!.port, 'count_over_time(brainstem_system_uptime_seconds[1m])', at);
    assert.deepEqual(counts.map(([l]) => l.serial).sort(), serials, 'one series per module');
    for (const [labels, n] of counts) assert.equal(n, scrapes, `${labels.serial}: ${n} samples in ${scrapes} scrapes`);
    // Every series of the exposition, sample by sample: none has more samples than there were scrapes.
    const r = await fetch(`http://127.0.0.1:${prom!.port}/api/v1/query?time=${at}&query=` +
      encodeURIComponent(`{__name__=~"brainstem_.+",instance="${instance}"}[1m]`));
    const series = ((await r.json()) as { data: { result: { metric: Record<string, string>; values: unknown[] }[] } }).data.result;
    assert.ok(series.length > 8 * 5, `${series.length} series`);
    const over = series.filter((x) => x.values.length > scrapes).map((x) => JSON.stringify(x.metric) + ': ' + x.values.length);
    assert.deepEqual(over, [], `more samples than the ${scrapes} scrapes`);
    assert.equal(prom!.log().includes('level=error'), false, prom!.log());
  });
});
