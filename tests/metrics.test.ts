// GET /metrics: the text exposition 0.0.4, one series per measurement named by Prometheus' rules,
// values equal to what a REST GET of the same path reads (scaled to the base unit), every module of
// a simulator under its own serial, made in pieces (never whole), on the simulator and the device board.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Api } from '../src/api/api';
import { Connection, type Transport } from '../src/http/connection';
import { STREAM_LOW_WATER } from '../src/http/streamed-body';
import { METRIC_FAMILIES, metricRow } from '../src/api/resources/metric-family';
import { allRoutes, routeForms } from '../src/api/route/routes';
import { createSimModule, PROFILES } from '../hal/sim/index';
import type { ModuleHal } from '../hal/types';
import { freshWorld, makeModule } from './fakes/world';
import { call, dechunk } from './helpers';
import { NOW, parseExposition, scrape, scrapeRequest, type Family } from './metrics-helpers';

/** Every family, as the module derives it from its route row. */
const METRIC_ROWS = Array.from({ length: METRIC_FAMILIES }, (_, i) => metricRow(i));

const ROOT = path.resolve(__dirname, '../..');
const SERIALS = [0x1234abcd, 0x1234abce, 0x1234abcf, 0x1234abd0];
const sims = (): ModuleHal[] => PROFILES.map((profile, k) => createSimModule({ serialNumber: SERIALS[k], profile, now: () => NOW }));
/** A write joins pieces (about 512 characters each) up to a TCP segment's bytes, its chunk framing included. */
const WRITE_MAX = 1460;

function restPath(s: { name: string; labels: Record<string, string> }): string {
  const row = METRIC_ROWS.find((r) => r[2] === s.name)!;
  const params = row[7].map((l) => '/' + s.labels[l]).join('');
  return `/api/v1/device/${s.labels.serial}/${row[0]}/${s.labels.index}/${row[1]}${params}`;
}

describe('GET /metrics: the exposition', () => {
  let families: Family[] = [];
  let devices: ModuleHal[] = [];
  let head = '';
  before(() => {
    devices = sims();
    const a = scrape(new Api(devices));
    assert.equal(a.status, 200);
    head = a.head;
    families = parseExposition(a.body);
  });

  it('is text/plain version 0.0.4, chunked, live (no-store)', () => {
    assert.match(head, /^Content-Type: text\/plain; version=0\.0\.4; charset=utf-8$/m);
    assert.match(head, /^Transfer-Encoding: chunked$/m);
    assert.match(head, /^Cache-Control: no-store$/m);
  });

  it('names every family by the rules: brainstem_{entity}_{operation}_{base unit}, counters _total, HELP and TYPE', () => {
    assert.ok(families.length >= 60, `${families.length} families`);
    for (const f of families) {
      const row = METRIC_ROWS.find((r) => r[2] === f.name);
      assert.ok(row, `${f.name} is in the metric table`);
      assert.match(f.name, /^brainstem_[a-z0-9]+_[a-z0-9_]+$/);
      assert.equal(f.type, row[3]);
      assert.equal(f.name.endsWith('_total'), f.type === 'counter', f.name);
      assert.ok(f.help.length > 10 && f.help.startsWith(row[0] + '/'), f.help);
      assert.ok(f.samples.length > 0, `${f.name} has samples`);
    }
    const names = families.map((f) => f.name);
    for (const n of ['brainstem_rail_voltage_volts', 'brainstem_rail_current_amperes', 'brainstem_port_vbusvoltage_volts',
      'brainstem_poe_totalpower_watts', 'brainstem_system_uptime_seconds', 'brainstem_system_temperature_celsius',
      'brainstem_rail_resistance_ohms', 'brainstem_port_vbusaccumulatedpower_joules_total', 'brainstem_store_slotstate']) {
      assert.ok(names.includes(n), n);
    }
  });

  it('labels each series serial, index and its path parameters (snake_case), one serial per module', () => {
    const serials = new Set<string>();
    for (const f of families) {
      const row = METRIC_ROWS.find((r) => r[2] === f.name)!;
      for (const s of f.samples) {
        assert.deepEqual(Object.keys(s.labels), ['serial', 'index', ...row[7]], f.name);
        assert.match(s.labels.serial, /^0x[0-9A-F]{8}$/);
        assert.match(s.labels.index, /^(0|[1-9][0-9]*)$/);
        serials.add(s.labels.serial);
      }
    }
    assert.deepEqual([...serials].sort(), SERIALS.map((n) => '0x' + n.toString(16).toUpperCase()).sort());
    const pd = families.find((f) => f.name === 'brainstem_powerdelivery_numberofpowerdataobjects')!;
    assert.ok(pd.samples.some((s) => s.labels.power_role === '2' && s.labels.partner === '1'));
  });

  it('every value is what a REST GET of the same path reads, in base units', async () => {
    const api = new Api(devices);
    let n = 0;
    for (const f of families) {
      const row = METRIC_ROWS.find((r) => r[2] === f.name)!;
      for (const s of f.samples) {
        const rest = await call(api, 'GET', restPath(s));
        assert.equal(rest.status, 200, restPath(s));
        const v = rest.json.response.value;
        assert.equal(s.value, ((typeof v === 'boolean' ? Number(v) : v) * row[5]) / row[6], restPath(s));
        n++;
      }
    }
    assert.ok(n > 300, `${n} series compared`);
  });

  it('a rail set to 5 V reads 5 in brainstem_rail_voltage_volts', async () => {
    const m = createSimModule({ serialNumber: SERIALS[0], now: () => NOW });
    const api = new Api([m]);
    assert.equal((await call(api, 'PUT', '/api/v1/device/rail/0/voltagesetpoint', { value: 5000000 })).status, 200);
    assert.equal((await call(api, 'PUT', '/api/v1/device/rail/0/enable', { value: true })).status, 200);
    const rest = (await call(api, 'GET', '/api/v1/device/rail/0/voltage')).json.response.value;
    const f = parseExposition(scrape(api).body).find((x) => x.name === 'brainstem_rail_voltage_volts')!;
    const v = f.samples.find((s) => s.labels.index === '0')!.value;
    assert.equal(v, rest / 1e6);
    assert.ok(Math.abs(v - 5) < 0.001, `${v} V`);
  });
});

describe('GET /metrics: the metric table (what is a measurement)', () => {
  const notes = new Map<string, string>();
  before(() => {
    for (const line of fs.readFileSync(path.join(ROOT, 'spec/operations.tsv'), 'utf8').split('\n')) {
      const c = line.split('\t');
      if (c.length > 9 && !line.startsWith('#')) notes.set(c[0] + '/' + c[1], c[9]);
    }
  });

  it('holds only int or bool GETs that are not settings (accumulated energy aside) and whose reading changes nothing', () => {
    for (const [entity, op, name, type] of METRIC_ROWS) {
      const forms = routeForms(entity, op)!;
      const get = forms.find((r) => r.get !== '-')!;
      assert.ok(get.get === 'int' || get.get === 'bool', `${entity}/${op}`);
      assert.ok(forms.every((r) => r.put === '-') || (get.unit === 'mWh' && type === 'counter'), `${entity}/${op} is a setting`);
      assert.doesNotMatch(notes.get(entity + '/' + op) ?? '', /reading clears/i, name);
    }
    assert.ok(!METRIC_ROWS.some((r) => r[0] === 'system' && r[1] === 'errors'), 'system/errors clears when read');
  });

  it('derives each family on the module exactly as the generator names it (tools/gen-metric-table.mjs)', async () => {
    const gen = (await import(path.join(ROOT, 'tools/gen-metric-table.mjs'))) as { metricRows(text: string): unknown[][] };
    const expected = gen.metricRows(fs.readFileSync(path.join(ROOT, 'spec/operations.tsv'), 'utf8')).map((r) => r.slice(0, 8));
    assert.ok(expected.length > 50, `${expected.length} families`);
    assert.deepEqual(METRIC_ROWS, expected);
  });

  it('takes every read-only int or bool measurement with a unit', () => {
    for (const r of allRoutes()) {
      if ((r.get !== 'int' && r.get !== 'bool') || r.put !== '-' || !r.unit) continue;
      if (routeForms(r.entity, r.op)!.some((f) => f.put !== '-')) continue;
      assert.ok(METRIC_ROWS.some((m) => m[0] === r.entity && m[1] === r.op), `${r.entity}/${r.op} (${r.unit})`);
    }
  });
});

/** A transport whose peer reads only when told: backlog() is what it has not taken. */
class Paced implements Transport {
  readonly writes: Uint8Array[] = [];
  queued = 0;
  maxQueued = 0;
  conn: Connection | null = null;
  write(b: Uint8Array): void { this.writes.push(b.slice()); this.queued += b.length; this.maxQueued = Math.max(this.maxQueued, this.queued); }
  close(): void { /* not closed in these tests */ }
  backlog(): number { return this.queued; }
  take(): void { this.queued = 0; this.conn!.drained(); }
  bytes(): Buffer { return Buffer.concat(this.writes); }
}

describe('GET /metrics: made in pieces', () => {
  it('writes only while nothing waits in the transport, pieces joined into writes of at most a segment; de-chunked it is the whole exposition', () => {
    const devices = sims();
    const whole = scrape(new Api(devices)).body;
    const t = new Paced();
    t.conn = new Connection(new Api(devices), t, { now: () => NOW });
    t.conn.receive(Buffer.from(scrapeRequest()));
    assert.ok(t.queued < STREAM_LOW_WATER + WRITE_MAX, `${t.queued} bytes before the first drain`);
    let drains = 0;
    while (!t.bytes().includes(Buffer.from('\r\n0\r\n\r\n')) && drains < 2000) { t.take(); drains++; }
    assert.ok(drains > 10, `${drains} drains`);
    const largest = Math.max(...t.writes.slice(1).map((w) => w.length));
    assert.ok(largest <= WRITE_MAX, `largest write ${largest}`);
    assert.ok(largest > WRITE_MAX / 2, `largest write ${largest}: pieces joined`);
    assert.ok(t.maxQueued < STREAM_LOW_WATER + WRITE_MAX, `at most ${t.maxQueued} bytes waited`);
    const bytes = t.bytes();
    const body = dechunk(bytes.subarray(bytes.indexOf('\r\n\r\n') + 4)).body;
    assert.equal(Buffer.from(body).toString('utf8'), whole);
    assert.ok(whole.length > 20 * WRITE_MAX, `${whole.length} bytes in all`);
  });

  it('the device board: a valid exposition of its own measurements under its serial', () => {
    freshWorld();
    const m = makeModule();
    const a = scrape(new Api([m]));
    assert.equal(a.status, 200);
    const families = parseExposition(a.body);
    assert.ok(families.some((f) => f.name === 'brainstem_system_uptime_seconds'));
    for (const f of families) for (const s of f.samples) assert.equal(Number(s.labels.serial), m.serialNumber);
  });
});
