// The web console in real headless Chromium (Debian `chromium`, installed by `make test` when missing)
// against the simulator's TCP server: set a rail and watch the live chart follow, an error shown next to
// its field, a bulk capture plotted, the token asked for on 401. Screenshots go to build/console-*.png.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule } from '../hal/sim/index';
import { allRoutes } from '../src/api/route/routes';

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
    await setpoint.locator('.msg', { hasText: 'set = 3000000 µV (3.000 V)' }).waitFor();
    for (const op of ['voltage', 'current']) await (await opRow(page, 'rail', op)).getByLabel(`watch rail ${op}`).check();
    const chart = page.locator('.chart[data-key="rail/0/voltage"]');
    await chart.locator('b', { hasText: /\(2\.99\d V\)|\(3\.00\d V\)/ }).waitFor();
    await input.fill('5000000');
    await setpoint.getByRole('button', { name: /^Set / }).click();
    await chart.locator('b', { hasText: /\(4\.99\d V\)|\(5\.00\d V\)/ }).waitFor({ timeout: 5000 });
    await page.locator('.chart[data-key="rail/0/current"] b', { hasText: /\(200\.\d{3} mA\)|\(199\.\d{3} mA\)/ }).waitFor();
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
    await msg.waitFor();
    assert.match(await msg.innerText(), /^aErrMode: analog 0 .*not an output/);
    const action = await opRow(page, 'system', 'save');
    await action.getByRole('button', { name: /^Run / }).click();
    await action.locator('.msg', { hasText: 'done {}' }).waitFor();
  });

  it('runs a bulk capture and plots it', async () => {
    await page.click('#capture > summary');
    await page.fill('#capN', '500');
    await page.click('#capRun');
    await page.locator('#capMsg', { hasText: /^captured: 1000 bytes, 500 samples/ }).waitFor({ timeout: 10_000 });
    const points = (await page.locator('#capPlot polyline').getAttribute('points'))!.split(' ');
    assert.equal(points.length, 500);
    const ys = points.map((p) => Number(p.split(',')[1]));
    assert.ok(Math.max(...ys) - Math.min(...ys) > 100, 'the 1 kHz tone spans the plot');
    await page.screenshot({ path: path.join(SHOTS, 'console-full.png'), fullPage: true });
    // The README's picture (docs/console.png is a copy): live charts, a capture, the rail's operations.
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: path.join(SHOTS, 'console.png') });
  });

  it('asks for the token when the module answers 401 and sends it as a bearer token', async () => {
    const seen: string[] = [];
    await page.route('**/api/v1/device/0x*/system/0/hbinterval', async (route) => {
      const auth = route.request().headers().authorization ?? '';
      seen.push(auth);
      if (auth !== 'Bearer s3cret') {
        return route.fulfill({
          status: 401, headers: { 'WWW-Authenticate': 'Bearer' }, contentType: 'application/json',
          body: JSON.stringify({ timestamp: '', request: {}, response: { error: 'aErrPermission', message: 'a token is required' } }),
        });
      }
      return route.fallback();
    });
    const row = await opRow(page, 'system', 'hbinterval');
    await row.getByLabel('system hbinterval', { exact: true }).fill('30');
    await row.getByRole('button', { name: /^Set / }).click();
    await page.locator('#tokenForm').waitFor({ state: 'visible' });
    await page.fill('#token', 's3cret');
    await page.click('#tokenForm button');
    await row.locator('.msg', { hasText: 'set = 30' }).waitFor();
    assert.deepEqual(seen.slice(-2), ['', 'Bearer s3cret']);
    await page.unroute('**/api/v1/device/0x*/system/0/hbinterval');
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

  it('filters entities and operations by name', async () => {
    await page.fill('#filter', 'vbus');
    const shown = await page.locator('#list details:not([hidden])').evaluateAll((ds) => ds.map((d) => d.getAttribute('data-entity')));
    assert.deepEqual(shown, ['port']);
    await page.locator('details[data-entity="port"] .op[data-op="vbusvoltage"]').waitFor();
    const ops = await page.locator('details[data-entity="port"] .op:not([hidden])').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-op')));
    assert.ok(ops.length >= 2 && ops.every((op) => op!.includes('vbus')), ops.join(' '));
    await page.fill('#filter', '');
    assert.equal(await page.locator('#list details[hidden]').count(), 0);
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
    await phone.close();
  });
});
