// Runs inside a network namespace of its own (tests/browser-lan.test.ts starts it with unshare -n): a
// lab LAN as a browser meets it. Three addresses on a veth interface: the simulator at 10.77.0.2, the
// host server at 10.77.0.4 in front of it, and a web page elsewhere (an intranet wiki, a dashboard) at
// 10.77.0.3. None of them is localhost, so Chromium sends no Fetch Metadata and no Origin on a no-cors
// GET: the requests look as they do from a real lab PC. Chromium opens the attacker page against the
// simulator and against the host server, then the console at the simulator's own address; curl and
// Python write through both. Prints what it saw as one JSON line; the test makes the assertions.

import * as http from 'node:http';
import { execFile } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startSimServer } from './sim-server';
import { request } from './sim-helpers';
import { createSimModule, type SimModule } from '../hal/sim/index';
import { Registry } from '../host-server/registry';
import { startHostServer } from '../host-server/server';
import { attackerPage } from './browser-pages';
import { PYTHON } from './python';

export const SIM_ADDR = '10.77.0.2';
export const PAGE_ADDR = '10.77.0.3';
export const HOST_ADDR = '10.77.0.4';
const SERIAL = '0x1234ABCD';

/** Headless Chromium as a lab PC has it. Its Local Network Access checks are off: the test is of the
 * server's own defence, which must hold for browsers without them (Firefox, Safari, older Chromium)
 * and for a page on the LAN itself. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run',
      '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests'],
  });
}

/** Loads the attacker page (served at `pageUrl`) against `base`; every answer the browser got, as `METHOD path -> status`. */
export async function attack(browser: Browser, pageUrl: string, setTarget: (t: string) => void, base: string): Promise<{ answers: string[]; log: string }> {
  setTarget(base);
  const page = await browser.newPage();
  const answers: string[] = [];
  page.on('response', (r) => answers.push(`${r.request().method()} ${new URL(r.url()).pathname} -> ${r.status()}`));
  await page.goto(pageUrl);
  await page.waitForFunction('document.title === "done"', undefined, { timeout: 20_000 });
  await new Promise((r) => setTimeout(r, 300)); // the beacon is sent asynchronously
  const log = await page.locator('#log').innerText();
  await page.close();
  return { answers, log };
}

/** Sets system/0/hbinterval and runs system/0/save through the console's own buttons, as a person would. */
export async function useConsole(page: Page, url: string, value: number): Promise<string[]> {
  const shown: string[] = [];
  await page.goto(url);
  await page.waitForFunction("document.getElementById('ident').textContent.includes('firmware')", undefined, { timeout: 20_000 });
  const block = page.locator('details[data-entity="system"]');
  await block.locator('summary').click();
  const hb = block.locator('.op[data-op="hbinterval"]');
  await hb.getByLabel('system hbinterval', { exact: true }).fill(String(value));
  await hb.getByRole('button', { name: /^Set / }).click();
  shown.push(await hb.locator('.msg').filter({ hasText: /set =|aErr/ }).innerText({ timeout: 10_000 }));
  const save = block.locator('.op[data-op="save"]');
  await save.getByRole('button', { name: /^Run / }).click();
  shown.push(await save.locator('.msg').filter({ hasText: /done|aErr/ }).innerText({ timeout: 10_000 }));
  return shown;
}

/** Runs a program to its end without blocking this process, whose servers answer it; its stdout, else its stderr. */
function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 20_000 }, (_err, stdout, stderr) => resolve((stdout || stderr).trim()));
  });
}

/** curl and Python's requests write as scripts do: a PUT and a save, each answer's status. */
async function scripts(base: string): Promise<{ curl: string; python: string }> {
  const curl = await run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'PUT', '-d', '{"value": 23}', `${base}/system/0/hbinterval`]);
  const python = await run(PYTHON, ['-c', `import requests
a = requests.put("${base}/system/0/hbinterval", json={"value": 24}).status_code
b = requests.get("${base}/system/0/save").status_code
print(a, b)`]);
  return { curl, python };
}

/** The console at the simulator's own address sets a value and saves it; a reset then shows the save ran. */
async function consoleRun(browser: Browser, port: number, hb: () => Promise<number>): Promise<{ [key: string]: unknown }> {
  const page = await browser.newPage();
  const sent: string[] = [];
  page.on('request', (r) => { if (r.method() === 'PUT') sent.push(JSON.stringify(r.headers())); });
  const shown = await useConsole(page, `http://${SIM_ADDR}:${port}/`, 44);
  await page.close();
  const afterConsole = await hb();
  await request(port, 'GET', '/api/v1/device/system/0/reset', undefined, SIM_ADDR);
  await new Promise((r) => setTimeout(r, 100));
  return { console: shown, consoleSent: sent, afterConsole, consoleSaved: await hb() };
}

/** Progress on stderr: the test shows it when the run fails or hangs. */
const step = (what: string): void => { process.stderr.write(`browser-lan: ${what}\n`); };

async function main(): Promise<void> {
  const out: { [key: string]: unknown } = {};
  const device: SimModule = createSimModule({ serialNumber: 0x1234abcd });
  const sim = await startSimServer({ port: 0, host: SIM_ADDR, devices: [device] });
  const simBase = `http://${SIM_ADDR}:${sim.port}/api/v1/device`;
  const registry = new Registry(4, 64);
  registry.add(`http://${SIM_ADDR}:${sim.port}`);
  const front = await startHostServer({ port: 0, host: HOST_ADDR, registry, access: {}, tokens: new Map() });
  const hostBase = `http://${HOST_ADDR}:${front.port}/api/v1/device/${SERIAL}`;
  let target = '';
  const pages = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(attackerPage(target));
  });
  await new Promise<void>((done) => pages.listen(0, PAGE_ADDR, done));
  const pagePort = (pages.address() as { port: number }).port;
  const hb = async (): Promise<number> => (await request(sim.port, 'GET', '/api/v1/device/system/0/hbinterval', undefined, SIM_ADDR)).json.response.value;
  const browser = await launchBrowser();
  try {
    out.factory = await hb();
    const localBase = `http://brainstem-1234abcd.local:${sim.port}/api/v1/device`;
    for (const [name, base] of [['sim', simBase], ['local', localBase], ['host', hostBase]]) {
      step(`attack ${name}`);
      // An unsaved value: a reset would drop it, a save would keep it across our own reset below.
      const put = await request(sim.port, 'PUT', '/api/v1/device/system/0/hbinterval', 33, SIM_ADDR);
      const { answers, log } = await attack(browser, `http://${PAGE_ADDR}:${pagePort}/`, (t) => { target = t; }, base);
      const afterAttack = await hb();
      const resetPending = device.resetPending();
      await request(sim.port, 'GET', '/api/v1/device/system/0/reset', undefined, SIM_ADDR);
      await new Promise((r) => setTimeout(r, 100));
      out[name] = { put: put.status, answers, log, afterAttack, resetPending, afterOwnReset: await hb() };
    }
    step('console');
    Object.assign(out, await consoleRun(browser, sim.port, hb));
    step('scripts');
    out.scriptsSim = await scripts(simBase);
    out.scriptsHost = await scripts(hostBase);
    out.afterScripts = await hb();
  } finally {
    await browser.close();
    pages.close();
    await front.close();
    await registry.close();
    await sim.close();
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

if (require.main === module) void main().catch((e) => { console.error(e); process.exit(1); });
