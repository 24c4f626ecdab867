// Firmware updates over HTTP on the emulated ESP32, run in its namespace (tests/esp32-emu-update.test.ts):
// a setting saved; image B (ESP32_UPDATE_B, another version) PUT with the token and its Content-Digest;
// once the board serves B, image A (ESP32_UPDATE_A) back the same way; then B again with the board's
// link taken down at once, so that B never serves, the board powered off and on (BOARD_POWER_CYCLE)
// and the link put back. What each step answered and what the console said: the test judges.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { BOARD, boardLog, request, response, result, say, sleep, waitLog, waitServing } from '../pico-emu/board-client';

const TOKEN = process.env.BOARD_TOKEN ?? '';
const SETTING = '/api/v1/device/system/0/name';
export const NAME = 'rack-3 before updates';

function putImage(file: string): Promise<{ status: number; body: string }> {
  const image = fs.readFileSync(file);
  const digest = createHash('sha256').update(image).digest('base64');
  return new Promise((resolve) => {
    const req = http.request({ host: BOARD, port: 80, method: 'PUT', path: '/api/v1/device/firmware', agent: false, timeout: 600_000,
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/octet-stream', 'Content-Length': image.length,
        'Content-Digest': `sha-256=:${digest}:` } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => { body += c.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (e) => resolve({ status: 0, body: e.message }));
    req.end(image);
  });
}

async function firmware(): Promise<unknown> {
  await request('GET', '/api/v1/device/system/0/serialnumber'); // an answered request: a firmware on trial confirms itself
  return response(await request('GET', '/api/v1/device/firmware'));
}

/** Puts `file`, waits for the board to start the new app and serve; what it saw. */
async function update(file: string): Promise<Record<string, unknown>> {
  const from = boardLog().length;
  const put = await putImage(file);
  say(`PUT firmware ${put.status} ${put.body.slice(0, 300)}`);
  const started = await waitLog(/App version: +\S+/, 240, from);
  const serving = await waitLog(/REST API on port.*/, 240, from);
  const served = await waitServing(240);
  return { put: put.status, answer: put.body, appVersion: started?.line, restLine: serving?.line, served, firmware: await firmware() };
}

/** Power off and on: the runner starts QEMU again on the same flash once this one has ended. */
function powerCycle(): void {
  fs.writeFileSync(process.env.BOARD_POWER_CYCLE ?? '', '');
  process.kill(Number(fs.readFileSync(process.env.BOARD_PID_FILE ?? '', 'utf8').trim()), 'SIGTERM');
}

async function main(): Promise<void> {
  const out: Record<string, unknown> = { servedFirst: await waitServing(240) };
  out.firmwareFirst = await firmware();
  const put = await request('PUT', SETTING, JSON.stringify({ value: NAME }));
  const save = await request('GET', '/api/v1/device/system/0/save');
  out.saved = put.status === 200 && save.status === 200;
  out.toB = await update(process.env.ESP32_UPDATE_B ?? '');
  out.nameAfterB = (response(await request('GET', SETTING)) as { value?: unknown } | undefined)?.value;
  out.backToA = await update(process.env.ESP32_UPDATE_A ?? '');
  // B once more, and the link pulled before B can answer anything: it never serves, never confirms.
  const from = boardLog().length;
  const image = fs.readFileSync(process.env.ESP32_UPDATE_B ?? '');
  const sent = putImage(process.env.ESP32_UPDATE_B ?? '');
  const answered = await sent;
  say(`PUT firmware (never to serve) ${answered.status}, ${image.length} B`);
  execFileSync('ip', ['link', 'set', 'esp0', 'down']);
  const started = await waitLog(/App version: +\S+/, 240, from);
  await waitLog(/boot: started by .*/, 120, from);
  await sleep(5000);
  const resetAt = boardLog().length;
  powerCycle();
  const restarted = await waitLog(/App version: +\S+/, 240, resetAt);
  execFileSync('ip', ['link', 'set', 'esp0', 'up']);
  const served = await waitServing(240);
  out.neverServed = { put: answered.status, answer: answered.body, appVersion: started?.line, afterReset: restarted?.line,
    bootloader: /.*(rollback|aborted|invalid).*/i.exec(boardLog().slice(resetAt))?.[0], served, firmware: await firmware() };
  const metrics = (await request('GET', '/metrics')).body.toString();
  out.restarts = Object.fromEntries([...metrics.matchAll(/^brainstem_restarts_total\{[^}]*cause="(\w+)"[^}]*\} (\S+)$/gm)].map((m) => [m[1], Number(m[2])]));
  result(out);
}

if (require.main === module) void main();
