// The web console for a person and for assistive technology, in real headless Chromium against the
// simulator: axe-core (pinned devDependency) finds no serious or critical violation with an entity
// open; a clean page loads nothing that fails; each control is named after what it sets; the filter
// shows only matching operations; a steady value is not stretched to fill its chart; step units read
// as a product; the header names the module as its description does; Set sends only what the
// description allows; a phone's first screen shows the module and its values.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startSimServer, type SimServer } from './sim-server';
import { createSimModule, findProfile } from '../hal/sim/index';

const CHROMIUM = '/usr/bin/chromium';
const AXE = path.resolve(__dirname, '../../node_modules/axe-core/axe.min.js');
const SHOTS = path.resolve(__dirname, '..', '..', 'build');

interface AxeViolation { id: string; impact: string; help: string; nodes: { target: string[] }[] }

async function open(browser: Browser, port: number, width = 1280, height = 900): Promise<{ page: Page; failures: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const failures: string[] = [];
  page.on('requestfailed', (r) => failures.push('failed ' + r.url()));
  page.on('response', (r) => { if (r.status() >= 400) failures.push(r.status() + ' ' + r.url()); });
  page.on('console', (m) => { if (m.type() === 'error') failures.push('console: ' + m.text()); });
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction("document.getElementById('ident').textContent.includes('firmware')");
  return { page, failures };
}

async function openEntity(page: Page, entity: string) {
  const block = page.locator(`details[data-entity="${entity}"]`);
  if ((await block.getAttribute('open')) === null) await block.locator('summary').click();
  return block;
}

describe('web console: accessibility and what a client reads', function () {
  this.timeout(60_000);
  let server: SimServer;
  let browser: Browser;

  before(async () => {
    assert.ok(fs.existsSync(CHROMIUM), 'make test installs Debian chromium');
    server = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({ serialNumber: 0x1234abcd })], maxConnections: 8 });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('axe-core finds no serious or critical violation with an entity open, and nothing fails to load', async () => {
    for (const [w, h] of [[1280, 900], [390, 844]]) {
      const { page, failures } = await open(browser, server.port, w, h);
      const system = await openEntity(page, 'system');
      await system.locator('.op[data-op="hbinterval"] .msg', { hasText: '= ' }).waitFor();
      await page.addScriptTag({ path: AXE });
      const violations = await page.evaluate('axe.run(document).then((r) => r.violations)') as AxeViolation[];
      const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      assert.deepEqual(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.length})`), [], `at ${w} px`);
      await page.waitForTimeout(200);
      assert.deepEqual(failures, [], `at ${w} px`);
      await page.close();
    }
  });

  it('names each control after what it sets', async () => {
    const { page } = await open(browser, server.port);
    await openEntity(page, 'system');
    const value = page.getByLabel('system hbinterval', { exact: true });
    assert.equal(await value.getAttribute('type'), 'number');
    assert.equal(await page.getByRole('spinbutton', { name: 'system hbinterval', exact: true }).count(), 1);
    assert.equal(await page.getByRole('checkbox', { name: 'watch system hbinterval' }).count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Set system hbinterval', exact: true }).count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Read system hbinterval', exact: true }).count(), 1);
    assert.equal(await page.locator('[aria-label=value]').count(), 0);
    await page.close();
  });

  it('filters operations by name and shows only the matching ones', async () => {
    const { page } = await open(browser, server.port);
    await page.fill('#filter', 'voltage');
    await page.locator('details[data-entity="analog"] .op[data-op="voltage"]').waitFor();
    const analog = await page.locator('details[data-entity="analog"] .op:not([hidden])').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-op')));
    assert.deepEqual(analog, ['voltage']);
    const shown = await page.locator('#list .op:not([hidden])').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-op')));
    assert.ok(shown.length > 5 && shown.every((op) => op!.includes('voltage')), shown.join(' '));
    assert.equal(await page.locator('details[data-entity="clock"]').isHidden(), true);
    await page.fill('#filter', 'rail current');
    const rail = await page.locator('#list .op:not([hidden])').evaluateAll((rs) => rs.map((r) => r.closest('details')!.getAttribute('data-entity') + '/' + r.getAttribute('data-op')));
    assert.ok(rail.length >= 3 && rail.every((k) => k.startsWith('rail/') && k.includes('current')), rail.join(' '));
    await page.close();
  });

  it('shows step units as a product and names the module as its description does', async () => {
    const { page } = await open(browser, server.port);
    assert.match(await page.locator('#title').innerText(), /^everything 0x1234ABCD$/);
    const row = (await openEntity(page, 'system')).locator('.op[data-op="hbinterval"]');
    await row.locator('.msg', { hasText: /^= 10 × 25\.6 ms = 256 ms$/ }).waitFor();
    assert.equal(await row.locator('b small').innerText(), '× 25.6 ms');
    await page.close();
    const other = await startSimServer({ port: 0, host: '127.0.0.1', devices: [createSimModule({ serialNumber: 0x1234abcd, profile: findProfile('mtm-pm-1')! })], maxConnections: 4 });
    const { page: pm } = await open(browser, other.port);
    assert.match(await pm.locator('#title').innerText(), /^mtm-pm-1 0x1234ABCD$/);
    await pm.close();
    await other.close();
  });

  it('Set sends neither an empty nor an out-of-bounds value, and the field says what is allowed', async () => {
    const { page } = await open(browser, server.port);
    const puts: string[] = [];
    page.on('request', (r) => { if (r.method() === 'PUT') puts.push(r.url() + ' ' + r.postData()); });
    const row = (await openEntity(page, 'system')).locator('.op[data-op="hbinterval"]');
    const input = row.getByLabel('system hbinterval', { exact: true });
    // The read that opening the entity starts has landed (it would replace the message under test).
    await row.locator('.msg', { hasText: '= ' }).waitFor();
    assert.deepEqual([await input.getAttribute('min'), await input.getAttribute('max')], ['1', '255']);
    assert.equal(await row.locator('.hint').innerText(), 'integer 1..255');
    for (const [text, said] of [['', 'enter a value: integer 1..255'], ['0', '0 is not allowed: integer 1..255'], ['300', '300 is not allowed: integer 1..255']]) {
      await input.fill(text);
      await row.getByRole('button', { name: /^Set / }).click();
      await row.locator('.msg.err', { hasText: said }).waitFor();
    }
    assert.deepEqual(puts, []);
    await input.fill('255');
    await row.getByRole('button', { name: /^Set / }).click();
    await row.locator('.msg', { hasText: 'set = 255 × 25.6 ms = 6528 ms' }).waitFor();
    assert.equal(puts.length, 1);
    await page.close();
  });

  it('keeps a floor under a chart\'s vertical scale: a steady 12 V is a thin line, not full height', async () => {
    const { page } = await open(browser, server.port);
    const system = await openEntity(page, 'system');
    await system.getByRole('checkbox', { name: 'watch system inputvoltage' }).check();
    await page.fill('#interval', '100');
    // At least 8 points, and some noise among them to draw (a few readings in a row can be equal).
    await page.waitForFunction(`(document.querySelector('#charts polyline')?.getAttribute('points') || '').split(' ').length >= 8 &&
      new Set([...watched.values()][0].values).size > 1`, null, { timeout: 20_000 });
    const ys = (await page.locator('#charts polyline').first().getAttribute('points'))!.split(' ').map((p) => Number(p.split(',')[1]));
    const values = await page.evaluate('[...watched.values()][0].values') as number[];
    assert.ok(Math.max(...values) > Math.min(...values), 'the value is not perfectly steady (noise to draw)');
    assert.ok(Math.max(...ys) - Math.min(...ys) < 40, `noise spans ${Math.max(...ys) - Math.min(...ys)} of 80 px: ${values.join(' ')}`);
    await page.close();
  });

  it('breaks no operation name inside a word, on a desktop or a phone', async () => {
    for (const [w, h] of [[1280, 900], [390, 844]]) {
      const { page } = await open(browser, server.port, w, h);
      for (const e of ['powerdelivery', 'userconfig', 'analog', 'system']) await openEntity(page, e);
      // A name is one line (its text one client rect) that fits its column.
      const broken = await page.locator('#list .op > b').evaluateAll((bs) => bs.filter((b) => {
        const r = (b.ownerDocument as { createRange(): { selectNodeContents(n: unknown): void; getClientRects(): { length: number } } }).createRange();
        r.selectNodeContents(b.firstChild!);
        return r.getClientRects().length > 1 || b.scrollWidth > b.clientWidth + 1;
      }).map((b) => b.firstChild!.textContent));
      assert.deepEqual(broken, [], `at ${w} px`);
      await page.close();
    }
  });

  it('on a phone, the first screen shows the module and its main entity\'s values', async () => {
    const { page } = await open(browser, server.port, 390, 844);
    const first = page.locator('#list details').first();
    assert.equal(await first.getAttribute('data-entity'), 'rail');
    const msg = first.locator('.op .msg', { hasText: '= ' }).first();
    await msg.waitFor();
    const box = (await msg.boundingBox())!;
    assert.ok(box.y + box.height <= 844, `the first value is at ${box.y} px`);
    assert.ok(await page.locator('#title').isVisible());
    await page.screenshot({ path: path.join(SHOTS, 'console-phone-first.png') });
    await page.close();
  });
});
