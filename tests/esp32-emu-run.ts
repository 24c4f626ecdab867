// Runs the ESP32 image on the emulated ESP32 (QEMU's esp32 machine, Ethernet through its OpenCores MAC)
// in a network namespace of its own (tools/esp32-emu/netns.sh), for the tests that run the firmware.
// Needs the flash image of make device PLATFORM=esp32/qemu MCCONFIG_ARGS="token=lab-secret" (its token:
// ESP32_EMU_TOKEN; ESP32_FLASH_IMAGE, or the build folder's),
// a qemu-system-xtensa with the esp32 machine (ESP32_QEMU, or on PATH), root, dnsmasq, curl and
// python3-zeroconf; `missing()` says which is not there. The clients are the emulated Pico W's
// (tests/pico-emu/*-client.ts): the board has the same address, 192.168.77.50, and serial 0xC1000001.
import { spawnSync } from 'node:child_process';
import { runNamespace } from './emu-process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const buildDir = process.env.DEVICE_BUILD_DIR || (process.env.MODDABLE ? path.join(process.env.MODDABLE, 'build') : '');
const IMAGE = process.env.ESP32_FLASH_IMAGE || path.join(buildDir, 'bin/esp32/qemu/release/brainstem-rest/xs_esp32-flash.bin');
const QEMU = process.env.ESP32_QEMU || 'qemu-system-xtensa';
/** The token the image was built with (make device PLATFORM=esp32/qemu MCCONFIG_ARGS="token=lab-secret"). */
export const TOKEN = process.env.ESP32_EMU_TOKEN || 'lab-secret';

export function imagePath(): string {
  return IMAGE;
}

/** Why the board cannot run here, in one line; undefined when it can. */
export function missing(): string | undefined {
  if (!buildDir && !process.env.ESP32_FLASH_IMAGE) return 'no ESP32 flash image (ESP32_FLASH_IMAGE, or DEVICE_BUILD_DIR/MODDABLE)';
  if (!fs.existsSync(IMAGE)) return `no ESP32 flash image at ${IMAGE} (make device PLATFORM=esp32/qemu)`;
  const machines = spawnSync(QEMU, ['-machine', 'help'], { encoding: 'utf8' });
  if (machines.status !== 0 || !/^esp32\s/m.test(machines.stdout)) return `no ${QEMU} with the esp32 machine (ESP32_QEMU; docs/esp32.md)`;
  if (process.getuid?.() !== 0) return 'not root (unshare -n)';
  for (const tool of ['dnsmasq', 'curl', 'ip']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `no ${tool}`;
  }
  if (spawnSync('/usr/bin/python3', ['-c', 'import zeroconf']).status !== 0) return 'no python3-zeroconf';
  return undefined;
}

export interface BoardRun {
  /** Real seconds the board runs at most. */
  seconds: number;
  /** A client script under build/tests (pico-emu/walk-client.js), run in the namespace; the run ends with it. */
  client?: string;
  /** Without a client: ends the run once the output satisfies it. */
  done?: (out: string) => boolean;
  /** A flash file kept across runs (ESP32_EMU_FLASH): made from the image when it does not exist. */
  flash?: string;
  env?: Record<string, string>;
}

/** Runs the board (under nice -n 19) and returns everything printed: console, dnsmasq, curl or the client. */
export function runBoard(run: BoardRun): Promise<string> {
  const args = ['-n', '19', 'unshare', '-n', 'tools/esp32-emu/netns.sh', String(run.seconds), IMAGE];
  const env: Record<string, string | undefined> = { ...process.env, ESP32_QEMU: QEMU, BOARD_TOKEN: TOKEN, ...run.env };
  if (run.client) env.ESP32_EMU_CLIENT = `node ${path.join(ROOT, 'build/tests', run.client)}`;
  if (run.flash) env.ESP32_EMU_FLASH = run.flash;
  return runNamespace(ROOT, args, env, run.seconds, run.done);
}

/** What stopped or restarted the board unasked: a panic, an abort (XS's too: a full heap), a failed assertion, a watchdog. */
export function boardTrouble(out: string): string | undefined {
  return /Guru Meditation Error.*|abort\(\) was called.*|assert failed.*|Task watchdog got triggered.*|# (Slot|Chunk) allocation: failed.*|XS abort.*|rst:0x[0-9a-f]+ \((TG\dWDT|RTCWDT)\w*\)/.exec(out)?.[0];
}

/** How many times the chip restarted after its first start (the ROM prints `rst:` at each: a power-on, esp_restart, a watchdog). */
export function restartsIn(out: string): number {
  return Math.max(0, (out.match(/^rst:0x/gm) ?? []).length - 1);
}
