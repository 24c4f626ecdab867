// A real browser on the lab LAN (docs/api.md §Access control): headless Chromium (Debian's, installed
// by `make test` when missing) loads an attacker page from another origin that fires <img>, fetch,
// sendBeacon and forms at the simulator; then the API shows that nothing executed. A positive control
// (the same page from an origin the operator allowed by CORS) proves the harness reaches the server.
// A DNS-rebinding page (Chromium's resolver maps evil.example to 127.0.0.1) is refused by the Host check.
// Screenshots go to build/ (not committed).
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule } from '../hal/sim/index';
import type { AccessOptions } from '../src/api/access/access';
import { attackerPage, rebindingPage } from './browser-pages';

const SHOTS = path.resolve(__dirname, '..');
const API = '/api/v1/device/system/0';

/** A curl-like client: no Origin, no Sec-Fetch-*. */
function request(port: number, method: string, p: string, body?: string, host?: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: p, headers: host ? { host } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const hb = async (port: number): Promise<number> => (await request(port, 'GET', `${API}/hbinterval`)).json.response.value;

/** A simulator that logs what reached its API: [method path -> status]. */
async function simulator(access?: AccessOptions): Promise<{ server: SimServer; seen: string[] }> {
  const server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({ serialNumber: 0x1234abcd })], access });
  const seen: string[] = [];
  const api = server.api;
  const handle = api.handle.bind(api);
  Object.defineProperty(api, 'handle', {
    value: (req: Parameters<typeof handle>[0], res: Parameters<typeof handle>[1]) => {
      handle(req, res);
      seen.push(`${req.method} ${req.target.replace(/^\/api\/v1\/device\//, '')} -> ${res.status}`);
    },
  });
  return { server, seen };
}

describe('browser: a hostile page on the lab LAN (headless Chromium)', function () {
  this.timeout(60_000);
  let browser: Browser;
  let attacker: http.Server;
  let attackerPort = 0;
  let pageFor = '';

  before(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      // Chromium's own Local Network Access checks are turned off: the test is of the server's defence,
      // for browsers without them (Firefox, Safari, older Chromium).
      args: ['--headless', '--no-sandbox', '--host-resolver-rules=MAP evil.example 127.0.0.1',
        '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests'],
    });
    attacker = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(attackerPage(pageFor));
    });
    await new Promise<void>((done) => attacker.listen(0, '127.0.0.1', done));
    attackerPort = (attacker.address() as { port: number }).port;
  });
  after(async () => {
    await browser?.close();
    attacker?.close();
  });

  /** Load the attacker page from `origin` against the simulator on `port`; returns its log. */
  async function attack(origin: string, port: number, shot: string): Promise<string> {
    pageFor = `http://127.0.0.1:${port}/api/v1/device`;
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    await page.waitForFunction('document.title === "done"', undefined, { timeout: 20_000 });
    await new Promise((r) => setTimeout(r, 300)); // the beacon is sent asynchronously
    await page.screenshot({ path: path.join(SHOTS, shot) });
    const log = await page.locator('#log').innerText();
    await page.close();
    return log;
  }

  for (const [label, host] of [['cross-site (localhost)', 'localhost'], ['same-site (127.0.0.1, another port)', '127.0.0.1']]) {
    it(`executes nothing a ${label} page fires: <img>, fetch, beacon, forms`, async () => {
      const { server, seen } = await simulator();
      try {
        const factory = await hb(server.port);
        assert.equal((await request(server.port, 'PUT', `${API}/hbinterval`, '{"value":33}')).status, 200);
        const before = seen.length;
        const log = await attack(`http://${host}:${attackerPort}`, server.port, `browser-attack-${host}.png`);
        seen.splice(0, before);
        assert.ok(seen.some((s) => /^GET system\/0\/reset -> 403$/.test(s)), `the <img> reset reached the server and was refused:\n${seen.join('\n')}\n${log}`);
        for (const s of seen) assert.match(s, /-> (403|405|204)$/, `${s}\n${seen.join('\n')}`);
        assert.equal(await hb(server.port), 33, 'no PUT and no reset happened (an unsaved value survived)');
        assert.equal((await request(server.port, 'GET', `${API}/reset`)).status, 200);
        await new Promise((r) => setTimeout(r, 50));
        assert.equal(await hb(server.port), factory, 'no save happened (our own reset dropped the unsaved value)');
      } finally {
        await server.close();
      }
    });
  }

  it('positive control: the same page from an origin allowed by CORS can PUT', async () => {
    const { server, seen } = await simulator({ cors: [`http://localhost:${attackerPort}`] });
    try {
      const log = await attack(`http://localhost:${attackerPort}`, server.port, 'browser-allowed-origin.png');
      assert.match(log, /fetch cors PUT hbinterval: status 200/, log);
      assert.equal(await hb(server.port), 77, seen.join('\n'));
      assert.ok(seen.includes('GET system/0/reset -> 403'), 'an <img> carries no Origin: still refused');
    } finally {
      await server.close();
    }
  });

  it('refuses a DNS-rebinding page (Host: evil.example) and changes nothing', async () => {
    const { server } = await simulator();
    try {
      assert.equal((await request(server.port, 'PUT', `${API}/hbinterval`, '{"value":33}')).status, 200);
      const raw = await request(server.port, 'PUT', `${API}/hbinterval`, '{"value":88}', `evil.example:${server.port}`);
      assert.equal(raw.status, 403);
      assert.equal(raw.json.response.error, 'aErrPermission');
      const page = await browser.newPage();
      const origin = `http://evil.example:${server.port}`;
      // The attacker's DNS first answers with its own server (here: this route), then rebinds to the module.
      await page.route(`${origin}/`, (route) => route.fulfill({ contentType: 'text/html', body: rebindingPage() }));
      await page.goto(`${origin}/`);
      await page.waitForFunction('document.title === "done"', undefined, { timeout: 20_000 });
      await page.screenshot({ path: path.join(SHOTS, 'browser-rebinding.png') });
      const log = await page.locator('#log').innerText();
      await page.close();
      assert.match(log, /PUT hbinterval: status 403/, log);
      assert.match(log, /GET reset: status 403/, log);
      assert.match(log, /GET serialnumber: status 403/, log);
      assert.equal(await hb(server.port), 33);
    } finally {
      await server.close();
    }
  });
});

