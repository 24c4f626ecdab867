// The clients of a soak's lab day (soak.mjs), each a real client over the TAP link, each counted: answered
// (2xx), refused (503), failed (anything else, or no answer within CLIENT_TIMEOUT_MS of real time), or
// skipped while the access point is away (nobody can reach the board then). Each runs as a job of the
// gate (soak-link.mjs), so the board keeps to real time while it talks.
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';

export const BOARD = '192.168.77.50';
/** What the browse prints for the board (tools/pico-emu/dnssd-browse.py). */
const FOUND = `dns-sd: brainstem-c1000001._brainstem._tcp.local. ${BOARD} 80 serial=0xC1000001`;
const CLIENT_TIMEOUT_MS = 60000;
/** A browse's window, in the board's emulated seconds from the moment the browser has started. */
const BROWSE_SECONDS = 3;
/** Values a lab's script reads every 10 s. */
const VALUES = ['system/0/uptime', 'system/0/hbinterval', 'digital/0/state'];
const STREAM_SECONDS = 300;

export class LabClients {
  /** @param gate the LinkGate; @param at (emulatedSeconds, fn): an alarm; @param now emulated seconds */
  constructor(gate, at, now) {
    this.gate = gate;
    this.at = at;
    this.now = now;
    this.away = false;
    this.counts = {};
    this.failures = [];
    this.saves = [];
    this.keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  }

  count(kind, outcome) {
    this.counts[kind] ??= { answered: 0, refused: 0, failed: 0, skipped: 0 };
    this.counts[kind][outcome]++;
  }

  /** Counts an answer `a` ({status, error}) under `kind`, and gives it back. */
  judge(kind, a) {
    const outcome = a.status >= 200 && a.status < 300 ? 'answered' : a.status === 503 ? 'refused' : 'failed';
    this.count(kind, outcome);
    if (outcome === 'failed' && this.failures.length < 50) this.failures.push({ at: Math.round(this.now()), kind, status: a.status, error: a.error });
    return a;
  }

  /** Runs client `kind` (an async function) now, unless the access point is away. */
  run(kind, fn) {
    if (this.away) return this.count(kind, 'skipped');
    this.gate.job(fn).catch((e) => {
      this.count(kind, 'failed');
      this.failures.push({ at: Math.round(this.now()), kind, error: e.message });
    });
  }

  request(method, target, { body, agent = false, headers = {} } = {}) {
    const sized = body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) };
    return new Promise((resolve) => {
      const req = http.request({ host: BOARD, port: 80, method, path: target, agent, timeout: CLIENT_TIMEOUT_MS, headers: { ...headers, ...sized } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (e) => resolve({ status: 0, error: e.message }));
      });
      req.on('timeout', () => req.destroy(new Error(`no answer in ${CLIENT_TIMEOUT_MS / 1000} s of real time`)));
      req.on('error', (e) => resolve({ status: 0, error: e.message }));
      req.end(body);
    });
  }

  /** Prometheus' scrape: the last body is kept (the record reads the restarts from it). */
  async scrape() {
    const a = this.judge('scrape', await this.request('GET', '/metrics', { headers: { Accept: 'text/plain;version=0.0.4' } }));
    if (a.status === 200) this.lastScrape = a.body;
  }

  /** A lab script's read of a few values, on one keep-alive connection. */
  async read() {
    for (const v of VALUES) this.judge('read', await this.request('GET', `/api/v1/device/${v}`, { agent: this.keepAlive }));
  }

  async put(value) {
    this.judge('put', await this.request('PUT', '/api/v1/device/system/0/hbinterval', { body: JSON.stringify({ value }) }));
  }

  async save() {
    this.saves.push(Math.round(this.now()));
    this.judge('save', await this.request('GET', '/api/v1/device/system/0/save'));
  }

  /** The console in a browser: the page, what it names of the board's own (a module's page carries its
   * scripts inline), the device list and description, then its event stream for 5 minutes. */
  async console() {
    const page = this.judge('console', await this.request('GET', '/'));
    const named = [...(page.body ?? '').matchAll(/(?:src|href)="([\w./-]+)"/g)].map((m) => `/${m[1].replace(/^\//, '')}`);
    for (const p of [...named, '/api/v1/device']) this.judge('console', await this.request('GET', p));
    const s = this.judge('console', await this.request('GET', '/api/v1/device/system/0/serialnumber'));
    const serial = s.status === 200 ? `0x${JSON.parse(s.body).response.value.toString(16).toUpperCase()}` : '0';
    this.judge('console', await this.request('GET', `/api/v1/device/${serial}`));
    await this.eventStream(`/api/v1/device/${serial}/events?watch=system/0/uptime,digital/0/state&interval=1000`, this.now() + STREAM_SECONDS);
  }

  /** An event stream read until `until` (emulated): the board runs ahead meanwhile, paced by its own frames. */
  eventStream(target, until) {
    return new Promise((resolve) => {
      let events = 0, released = false;
      const hold = () => {
        if (released) this.gate.hold();
        released = false;
      };
      const req = http.get({ host: BOARD, port: 80, path: target, agent: false, headers: { Accept: 'text/event-stream' } }, (res) => {
        if (res.statusCode !== 200) {
          this.judge('events', { status: res.statusCode });
          res.resume();
          return resolve();
        }
        this.gate.release();
        released = true;
        res.on('data', (c) => { events += (c.toString('utf8').match(/^data: /gm) ?? []).length; });
        this.at(until, () => { hold(); req.destroy(); });
        res.on('close', () => {
          hold();
          // an event a second: a few may be lost to the start and the end
          this.judge('events', { status: events >= STREAM_SECONDS - 50 ? 200 : 0, error: `${events} events in ${STREAM_SECONDS} s` });
          resolve();
        });
      });
      req.on('error', (e) => { hold(); this.judge('events', { status: 0, error: e.message }); resolve(); });
    });
  }

  /** A DNS-SD browse by python-zeroconf, as a lab's discovery does: the board's _brainstem._tcp instance
   * found and resolved to its address, port and serial within BROWSE_SECONDS of the board's time from
   * the moment the browser has started (the board is paced by real time meanwhile, so that is at least
   * as long in real time; Python's start on a loaded machine, and a board emulated slower than real
   * time while it works, take nothing from the window). */
  async browse() {
    const a = await new Promise((done) => {
      const py = spawn('/usr/bin/python3', [path.join(import.meta.dirname, 'dnssd-browse.py'), '60'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let settled = false;
      const end = (status, error) => {
        if (settled) return;
        settled = true;
        py.kill();
        done({ status, error });
      };
      py.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes(FOUND)) end(200);
      });
      py.stderr.on('data', (chunk) => {
        if (String(chunk).includes('dnssd-browse: browsing')) {
          this.at(this.now() + BROWSE_SECONDS, () => end(0, `not found in ${BROWSE_SECONDS} s of the board's time: ${out.trim() || 'nothing'}`));
        }
      });
      py.on('close', (code) => end(out.includes(FOUND) ? 200 : 0, `the browser ended (${code}): ${out.trim() || 'nothing found'}`));
    });
    this.judge('dns-sd', a);
  }

  /** Hostile clients, three of each: an abort in the middle of an answer (a reset at its first bytes), a
   * scanner that resets once connected, a health probe that closes before a byte (its close must come
   * back); then four whole answers. */
  async hostile() {
    const raw = (onConnect) => new Promise((resolve) => {
      const s = net.connect(80, BOARD);
      s.setTimeout(CLIENT_TIMEOUT_MS, () => s.destroy());
      s.on('connect', () => onConnect(s));
      s.on('error', () => {});
      s.on('close', resolve);
    });
    for (let k = 0; k < 3; k++) {
      await raw((s) => {
        s.write(`GET /metrics HTTP/1.1\r\nHost: ${BOARD}\r\n\r\n`);
        s.once('data', () => s.resetAndDestroy());
      });
      await raw((s) => s.resetAndDestroy());
      let closed = false;
      await raw((s) => {
        s.on('end', () => { closed = true; });
        s.end();
      });
      this.count('probe', closed ? 'answered' : 'failed');
    }
    for (let k = 0; k < 4; k++) this.judge('after-hostile', await this.request('GET', '/api/v1/device/system/0/serialnumber'));
  }
}
