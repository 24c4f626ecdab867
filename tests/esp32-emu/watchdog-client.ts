// A hung loop on the emulated ESP32, run in its namespace (tests/esp32-emu-watchdog.test.ts): a setting
// is saved; then the entry of modMessageService, which the XS task's loop calls every turn, is made a
// jump to itself (Xtensa `j .`: 06 ff ff) through QEMU's gdbstub (BOARD_GDB port) at ESP32_HANG_AT, as a
// JavaScript loop that never returns would hold the task. The task watchdog must restart the chip; the
// client then reads the restart cause and the setting. Prints what it saw; the test judges.
import { boardLog, request, response, result, say, waitLog, waitServing } from '../pico-emu/board-client';
import { pokeMemory } from '../../tools/esp32-emu/gdb-remote';

const SETTING = '/api/v1/device/system/0/name';
export const NAME = 'rack-4 before a hang';

async function main(): Promise<void> {
  const out: Record<string, unknown> = { servedFirst: await waitServing(240) };
  const put = await request('PUT', SETTING, JSON.stringify({ value: NAME }));
  const save = await request('GET', '/api/v1/device/system/0/save');
  out.saved = put.status === 200 && save.status === 200;
  const from = boardLog().length;
  const hangAt = Number(process.env.ESP32_HANG_AT);
  out.gdb = await pokeMemory(Number(process.env.BOARD_GDB), hangAt, Buffer.from([0x06, 0xff, 0xff]));
  const hungAt = Date.now();
  say(`the loop hangs at 0x${hangAt.toString(16)}: ${JSON.stringify(out.gdb)}`);
  out.triggered = (await waitLog(/Task watchdog got triggered.*/, 120, from))?.line;
  out.secondsToWatchdog = (Date.now() - hungAt) / 1000;
  out.started = (await waitLog(/boot: started by .*/, 120, from))?.line;
  out.served = await waitServing(240);
  out.name = (response(await request('GET', SETTING)) as { value?: unknown } | undefined)?.value;
  const metrics = (await request('GET', '/metrics')).body.toString();
  out.restarts = Object.fromEntries([...metrics.matchAll(/^brainstem_restarts_total\{[^}]*cause="(\w+)"[^}]*\} (\S+)$/gm)].map((m) => [m[1], Number(m[2])]));
  result(out);
}

if (require.main === module) void main();
