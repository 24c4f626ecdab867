// A web page elsewhere on the lab LAN against the emulated board's own address (tests/pico-emu-browser.test.ts),
// run in the board's namespace: the page is served from 192.168.77.3 on the namespace's side of the
// link, headless Chromium loads it, and it fires an <img>, a no-cors fetch and a form's GET of
// system/0/reset and save, a sendBeacon, form POSTs and a CORS PUT at http://192.168.77.50/. Then the
// console at the board's address sets a value and saves it. Prints what it did and saw; the test judges.
import { spawnSync } from 'node:child_process';
import * as http from 'node:http';
import { attack, launchBrowser, useConsole } from '../browser-lan-run';
import { attackerPage } from '../browser-pages';
import { BOARD, request, response, result, say, sleep, waitServing } from './board-client';

const PAGE_ADDR = '192.168.77.3';
const HB = '/api/v1/device/system/0/hbinterval';

const valueOf = (r: unknown): unknown => (r as { value?: unknown } | undefined)?.value;
const hb = async (): Promise<unknown> => valueOf(response(await request('GET', HB)));

function restarts(metrics: string): number {
  let n = 0;
  for (const m of metrics.matchAll(/^brainstem_restarts_total\{[^}]*\} (\S+)$/gm)) n += Number(m[1]);
  return n;
}

/** Our own reset (a script's GET, no browser marks), then the value once the board serves again. */
async function resetAndRead(): Promise<unknown> {
  const reset = await request('GET', '/api/v1/device/system/0/reset');
  say(`our own reset: ${reset.status}`);
  await sleep(3000);
  await waitServing(240);
  return hb();
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = { served: await waitServing(240) };
  spawnSync('ip', ['addr', 'add', `${PAGE_ADDR}/24`, 'dev', 'pico0']);
  let target = '';
  const pages = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(attackerPage(target));
  });
  await new Promise<void>((done) => pages.listen(0, PAGE_ADDR, done));
  const pageUrl = `http://${PAGE_ADDR}:${(pages.address() as { port: number }).port}/`;
  const browser = await launchBrowser();
  try {
    out.factory = await hb();
    out.put = (await request('PUT', HB, '{"value":33}')).status;
    out.restartsBefore = restarts((await request('GET', '/metrics')).body.toString());
    say('the page attacks');
    Object.assign(out, await attack(browser, pageUrl, (t) => { target = t; }, `http://${BOARD}/api/v1/device`));
    await sleep(2000);
    out.afterAttack = await hb();
    out.restartsAfter = restarts((await request('GET', '/metrics')).body.toString());
    out.afterOwnReset = await resetAndRead();
    say('the console');
    const page = await browser.newPage();
    out.console = await useConsole(page, `http://${BOARD}/`, 44);
    await page.close();
    out.consoleSaved = await resetAndRead();
  } finally {
    await browser.close();
    pages.close();
  }
  result(out);
}

void main().catch((e) => { say(`failed: ${String(e)}`); result({ error: String(e) }); });
