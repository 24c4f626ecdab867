// The web console in real headless Chromium (Debian `chromium`, installed by `make test` when missing)
// against the simulator's TCP server: set a rail and watch the live chart follow, an error shown next to
// its field, a bulk capture plotted, the token asked for on 401 and sent as HTTP Digest. Screenshots go to build/console-*.png.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule } from '../hal/sim/index';
import { allRoutes } from '../src/api/route/routes';
import { nodeRandom, nodeSha256 } from '../host-sim/sha256';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = path.resolve(__dirname, '..', '..', 'build');

/**
 * The description in the shape of docs/api.md §What a module has and accepts, from the route table: what the
 * page is written against. Used only while the simulator still answers the older list of names.
 */
function upgradeDescription(body: { response: { entities: Record<string, { count: number; operations: unknown }> } }): unknown {
  for (const [name, entity] of Object.entries(body.response.entities)) {
    if (!Array.isArray(entity.operations)) continue;
    const ops: Record<string, unknown> = {};
    for (const op of entity.operations as string[]) {
      const forms = allRoutes().filter((r) => r.entity === name && r.op === op);
      const get = forms.find((r) => r.get !== '-');
      const put = forms.find((r) => r.put !== '-');
      const main = get ?? put!;
      ops[op] = {
        get: get ? get.get : '-', ...(put ? { put: put.put } : {}), type: main.type, unit: main.unit,
        params: main.params.map((p) => ({ name: p.name, min: p.min, max: p.max })),
        ...(main.min <= main.max ? { min: main.min, max: main.max } : {}),
      };
    }
    entity.operations = ops;
  }
  return body;
}

async function openConsole(page: Page, port: number): Promise<void> {
  await page.route('**/api/v1/device/0x*', async (route) => {
    if (route.request().method() !== 'GET' || !/\/device\/0x[0-9A-F]+$/i.test(route.request().url())) return route.fallback();
    const response = await route.fetch();
    await route.fulfill({ response, json: upgradeDescription(await response.json()) });
  });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction("document.getElementById('ident').textContent.includes('firmware')");
}

/** The row of one operation inside an entity block (opened first). */
async function opRow(page: Page, entity: string, op: string) {
  const block = page.locator(`details[data-entity="${entity}"]`);
  if ((await block.getAttribute('open')) === null) await block.locator('summary').click();
  return block.locator(`.op[data-op="${op}"]`);
}

/** Waits until a person would see `l` (Playwright's visibility: rendered, a non-empty box, not visibility:hidden); its text. */
async function seen(l: Locator, timeout = 5000): Promise<string> {
  await l.waitFor({ state: 'visible', timeout });
  assert.ok(await l.isVisible());
  return (await l.textContent()) ?? '';
}

/** The operations a person sees in the entity list, as entity/operation. */
function visibleOps(page: Page): Promise<string[]> {
  return page.locator('#list .op').filter({ visible: true })
    .evaluateAll((rs) => rs.map((r) => r.closest('details')!.getAttribute('data-entity') + '/' + r.getAttribute('data-op')));
}

/** Polls `f` every 100 ms until `ok` holds for its value (which it returns), or fails after `ms`. */
async function settle<T>(f: () => Promise<T>, ok: (v: T) => boolean, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('web console in headless Chromium', function () {
  this.timeout(60_000);
  let server: SimServer;
  let browser: Browser;
  let page: Page;

  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), 'make test installs Debian chromium');
    server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({ serialNumber: 0x1234abcd })], maxConnections: 8 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openConsole(page, server.port);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the module: serial, model, firmware and its entities', async () => {
    assert.equal(await page.title(), 'everything 0x1234ABCD – console');
    assert.match(await page.locator('#ident').innerText(), /serial 0x1234ABCD, model \d+, module \d+, firmware \d+\.\d+\.\d+/);
    const entities = await page.locator('details').evaluateAll((ds) => ds.map((d) => d.getAttribute('data-entity')));
    for (const e of ['rail', 'system', 'analog', 'store']) assert.ok(entities.includes(e), `${e} in ${entities.join(' ')}`);
  });

  it('sets rail/0/voltagesetpoint and the live chart follows', async () => {
    const enable = await opRow(page, 'rail', 'enable');
    await enable.getByLabel('rail enable', { exact: true }).check();
    await enable.getByRole('button', { name: /^Set / }).click();
    await enable.locator('.msg', { hasText: 'set = true' }).waitFor();
    const setpoint = await opRow(page, 'rail', 'voltagesetpoint');
    const input = setpoint.getByLabel('rail voltagesetpoint', { exact: true });
    assert.equal(await input.getAttribute('type'), 'number');
    await input.fill('3000000');
    await setpoint.getByRole('button', { name: /^Set / }).click();
    await seen(setpoint.locator('.msg', { hasText: 'set = 3000000 µV (3.000 V)' }));
    for (const op of ['voltage', 'current']) await (await opRow(page, 'rail', op)).getByLabel(`watch rail ${op}`).check();
    const chart = page.locator('.chart[data-key="rail/0/voltage"]');
    await chart.locator('b', { hasText: /\(2\.99\d V\)|\(3\.00\d V\)/ }).waitFor();
    await input.fill('5000000');
    await setpoint.getByRole('button', { name: /^Set / }).click();
    await chart.locator('b', { hasText: /\(4\.99\d V\)|\(5\.00\d V\)/ }).waitFor({ timeout: 5000 });
    await page.locator('.chart[data-key="rail/0/current"] b', { hasText: /\(200\.\d{3} mA\)|\(199\.\d{3} mA\)/ }).waitFor();
    // The watched rows follow the stream as the charts do (the picture of docs/console.png shows both).
    await seen((await opRow(page, 'rail', 'voltage')).locator('.msg', { hasText: /^= \d+ µV \((4\.99\d|5\.00\d) V\)$/ }));
    await seen((await opRow(page, 'rail', 'current')).locator('.msg', { hasText: /^= \d+ µA \((200\.\d{3}|199\.\d{3}) mA\)$/ }));
    // Several points drawn, the last ones at 5 V: the line climbs to the top of the chart.
    await page.waitForFunction(`document.querySelector('.chart[data-key="rail/0/voltage"] polyline').getAttribute('points').split(' ').length >= 4`);
    const points = (await chart.locator('polyline').getAttribute('points'))!.split(' ');
    assert.equal(points[points.length - 1].split(',')[1], '4.0');
    await page.screenshot({ path: path.join(SHOTS, 'console-live.png') });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#csv')]);
    const csv = fs.readFileSync((await download.path())!, 'utf8').trim().split('\n');
    assert.equal(csv[0], 'timestamp,rail/0/voltage,rail/0/current');
    assert.match(csv[csv.length - 1], /^\d{4}-.*Z,\d+,\d+$/);
    await page.click('#pause');
    await page.locator('#liveState', { hasText: 'paused' }).waitFor();
  });

  it('shows the module’s error message next to the field', async () => {
    const value = await opRow(page, 'analog', 'value');
    await value.getByLabel('analog value', { exact: true }).fill('1000');
    await value.getByRole('button', { name: /^Set / }).click();
    const msg = value.locator('.msg.err');
    assert.match(await seen(msg), /^aErrMode: analog 0 .*not an output/);
    assert.equal(await msg.evaluate((m) => (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(m).color), 'rgb(176, 0, 32)', 'shown in red');
    // Beside its field: inside the row's box, in the viewport once the row is scrolled to.
    const [row, box] = [await value.boundingBox(), await msg.boundingBox()];
    assert.ok(row && box && box.y >= row.y && box.y + box.height <= row.y + row.height + 1, JSON.stringify({ row, box }));
    const action = await opRow(page, 'system', 'save');
    await action.getByRole('button', { name: /^Run / }).click();
    await action.locator('.msg', { hasText: 'done {}' }).waitFor();
  });

  it('runs a bulk capture and plots it', async () => {
    await page.click('#capture > summary');
    assert.equal(await page.locator('#capPlot').isVisible(), false, 'no empty plot before a capture');
    await page.fill('#capN', '500');
    await page.click('#capRun');
    await page.locator('#capMsg', { hasText: /^captured: 1000 bytes, 500 samples/ }).waitFor({ timeout: 10_000 });
    await seen(page.locator('#capPlot'));
    const points = (await page.locator('#capPlot polyline').getAttribute('points'))!.split(' ');
    assert.equal(points.length, 500);
    const ys = points.map((p) => Number(p.split(',')[1]));
    assert.ok(Math.max(...ys) - Math.min(...ys) > 100, 'the 1 kHz tone spans the plot');
    await page.screenshot({ path: path.join(SHOTS, 'console-full.png'), fullPage: true });
    // The README's picture (docs/console.png is a copy): live charts, a capture, the rail's operations.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: path.join(SHOTS, 'console.png') });
  });

  it('asks for the token on 401 and sends it as HTTP Digest to a module that refuses Bearer; the token never goes in clear', async () => {
    const locked = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({ serialNumber: 0x1234abcd })], maxConnections: 8,
      access: { token: 's3cret', auth: 'digest', sha256: nodeSha256, random: nodeRandom } });
    const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const sent: string[] = [];
    const authorizations: string[] = [];
    other.on('request', (r) => {
      sent.push(JSON.stringify(r.headers()) + (r.postData() ?? ''));
      if (r.headers().authorization) authorizations.push(r.headers().authorization);
    });
    try {
      await openConsole(other, locked.port);
      const row = await opRow(other, 'system', 'hbinterval');
      await row.getByLabel('system hbinterval', { exact: true }).fill('30');
      await row.getByRole('button', { name: /^Set / }).click();
      await other.locator('#tokenForm').waitFor({ state: 'visible' });
      await other.fill('#token', 's3cret');
      await other.click('#tokenForm button');
      await row.locator('.msg', { hasText: 'set = 30' }).waitFor();
      await row.getByLabel('system hbinterval', { exact: true }).fill('31');
      await row.getByRole('button', { name: /^Set / }).click();
      await row.locator('.msg', { hasText: 'set = 31' }).waitFor();
      assert.ok(authorizations.length >= 2, sent.join('\n'));
      for (const a of authorizations) assert.match(a, /^Digest username="console", realm="brainstem", .*algorithm=SHA-256, qop=auth, nc=0000000\d/);
      assert.ok(sent.every((h) => !h.includes('s3cret')), 'the token never crosses the network');
      const answer = await fetch(`http://127.0.0.1:${locked.port}/api/v1/device/system/0/hbinterval`);
      assert.equal(((await answer.json()) as { response: { value: number } }).response.value, 31);
    } finally {
      await other.close();
      await locked.close();
    }
  });

  it('reads an operation with a path parameter, within its published range', async () => {
    const row = await opRow(page, 'poe', 'pairvoltage');
    const pair = row.getByLabel('poe pairvoltage pair');
    assert.equal(await pair.getAttribute('max'), '1');
    await pair.fill('1');
    await row.getByRole('button', { name: /^Read / }).click();
    await row.locator('.msg', { hasText: /^= -?\d+ µV/ }).waitFor();
    await pair.fill('2');
    await row.getByRole('button', { name: /^Read / }).click();
    await row.locator('.msg.err', { hasText: /^aErrRange: pair 2 is out of range 0\.\.1/ }).waitFor();
  });

  it('filters: only the matching operations are visible, and their values are read', async () => {
    // A fresh page: no block opened, no value read yet.
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await openConsole(page, server.port);
    await page.fill('#filter', 'hbinterval');
    const only = await settle(() => visibleOps(page), (v) => v.length === 1);
    assert.deepEqual(only, ['system/hbinterval']);
    const blocks = await page.locator('#list details').filter({ visible: true }).evaluateAll((ds) => ds.map((d) => d.getAttribute('data-entity')));
    assert.deepEqual(blocks, ['system']);
    const row = page.locator('details[data-entity="system"] .op[data-op="hbinterval"]');
    assert.match(await seen(row.locator('.msg')), /^= \d+ × 25\.6 ms/);
    assert.equal(await row.locator('xpath=..').locator('.op[data-op="router"] .msg').innerText(), '', 'a hidden row is not read');
    // A wider filter shows rows of the open block that were hidden: each is read when it appears.
    await page.fill('#filter', 'system/');
    const wide = await settle(() => visibleOps(page), (v) => v.length > 20);
    for (const op of ['router', 'ledmaxbrightness', 'uptime']) assert.ok(wide.includes('system/' + op), wide.join(' '));
    for (const op of ['router', 'ledmaxbrightness', 'uptime']) {
      assert.match(await seen(page.locator(`details[data-entity="system"] .op[data-op="${op}"] .msg`, { hasText: /^= / })), /^= -?\d/);
    }
    await page.fill('#filter', 'vbus');
    const vbus = await settle(() => visibleOps(page), (v) => v.length > 0 && v.every((o) => o.includes('vbus')));
    assert.ok(vbus.length >= 2 && vbus.every((o) => o.startsWith('port/') && o.includes('vbus')), vbus.join(' '));
    await page.fill('#filter', '');
    for (const e of ['rail', 'port', 'system', 'store']) assert.ok(await page.locator(`details[data-entity="${e}"]`).isVisible(), e);
    assert.ok((await visibleOps(page)).includes('rail/voltage'), 'the open rail block shows all its rows again');
    await page.close();
  });

  it('sets a field when Enter is pressed in it, as Set does (Read where a row has no Set)', async () => {
    const row = await opRow(page, 'system', 'hbinterval');
    const input = row.getByLabel('system hbinterval', { exact: true });
    await input.fill('42');
    await input.press('Enter');
    assert.equal(await seen(row.locator('.msg', { hasText: 'set = 42' })), 'set = 42 × 25.6 ms = 1075.2 ms');
    const rest = await fetch(`http://127.0.0.1:${server.port}/api/v1/device/0x1234ABCD/system/0/hbinterval`).then((r) => r.json()) as { response: { value: number } };
    assert.equal(rest.response.value, 42, 'the module has it');
    // A value out of range pressed with Enter is refused in the page, as Set refuses it.
    await input.fill('300');
    await input.press('Enter');
    assert.match(await seen(row.locator('.msg.err')), /^300 is not allowed: integer 1\.\.255/);
    const pair = (await opRow(page, 'poe', 'pairvoltage')).getByLabel('poe pairvoltage pair');
    await pair.fill('1');
    await pair.press('Enter');
    await seen((await opRow(page, 'poe', 'pairvoltage')).locator('.msg', { hasText: /^= -?\d+ µV/ }));
  });

  it('works with the older description (operations as a list of names)', async () => {
    const old = await browser.newPage();
    await old.goto(`http://127.0.0.1:${server.port}/`);
    await old.waitForFunction("document.getElementById('ident').textContent.includes('firmware')");
    const row = await opRow(old, 'system', 'hbinterval');
    await row.getByLabel('system hbinterval', { exact: true }).fill('42');
    await row.getByRole('button', { name: /^Set / }).click();
    await row.locator('.msg', { hasText: 'set = 42' }).waitFor();
    await old.close();
  });

  it('is usable on a phone-sized screen', async () => {
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await openConsole(phone, server.port);
    await (await opRow(phone, 'rail', 'voltagesetpoint')).locator('.msg', { hasText: '= ' }).waitFor();
    const overflow = await phone.evaluate('document.documentElement.scrollWidth - window.innerWidth') as number;
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
    await phone.screenshot({ path: path.join(SHOTS, 'console-phone.png'), fullPage: true });
    await phone.fill('#filter', 'hbinterval');
    assert.deepEqual(await settle(() => visibleOps(phone), (v) => v.length === 1), ['system/hbinterval']);
    await seen(phone.locator('.op[data-op="hbinterval"] .msg', { hasText: /^= / }));
    await phone.screenshot({ path: path.join(SHOTS, 'console-phone-filter.png') });
    await phone.close();
  });
});
