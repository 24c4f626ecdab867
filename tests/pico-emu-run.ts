// Runs the Pico W image on the emulated board (rp2040js with the CYW43439 model of tools/pico-emu) in a
// network namespace of its own (tools/pico-emu/netns.sh), for the tests that run the firmware. Needs
// the image of make device PLATFORM=pico/pico_w built with ssid=lab password=secret (PICO_IMAGE), the
// RP2040 boot ROM (PICO_BOOTROM), rp2040js, root, socat, dnsmasq, curl and python3-zeroconf;
// `missing()` says which is not there.
import { spawnSync } from 'node:child_process';
import { runNamespace } from './emu-process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const buildDir = process.env.DEVICE_BUILD_DIR || (process.env.MODDABLE ? path.join(process.env.MODDABLE, 'build') : '');
const IMAGE = process.env.PICO_IMAGE || path.join(buildDir, 'bin/pico/pico_w/release/brainstem-rest/xs_pico.uf2');
const BOOTROM = process.env.PICO_BOOTROM || path.join(process.env.PICO_ROOT || path.join(os.homedir(), 'pico'), 'rp2040js/demo/bootrom.ts');

/** The image the tests run (PICO_IMAGE, or the build folder's). */
export function imagePath(): string {
  return IMAGE;
}

/** Why the board cannot run here, in one line; undefined when it can. */
export function missing(): string | undefined {
  if (!buildDir && !process.env.PICO_IMAGE) return 'no Pico W image (PICO_IMAGE, or DEVICE_BUILD_DIR/MODDABLE)';
  if (!fs.existsSync(IMAGE)) return `no Pico W image at ${IMAGE}`;
  if (!fs.existsSync(BOOTROM)) return `no RP2040 boot ROM at ${BOOTROM} (PICO_BOOTROM)`;
  try {
    require.resolve('rp2040js');
  } catch {
    return 'rp2040js is not installed';
  }
  if (process.getuid?.() !== 0) return 'not root (unshare -n)';
  for (const tool of ['socat', 'dnsmasq', 'curl']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `no ${tool}`;
  }
  if (spawnSync('/usr/bin/python3', ['-c', 'import zeroconf']).status !== 0) return 'no python3-zeroconf';
  return undefined;
}

export interface BoardRun {
  /** Real seconds the board runs at most. */
  seconds: number;
  mac?: string;
  /** More run.mjs arguments (--hang-at S, --ap-away FROM:TO). */
  args?: string[];
  /** A client script of build/tests/pico-emu (watchdog-client.js), run in the namespace; the run ends with it. */
  client?: string;
  /** Without a client: ends the run once the output satisfies it. */
  done?: (out: string) => boolean;
  env?: Record<string, string>;
  /** Another image than PICO_IMAGE (one built with other settings). */
  image?: string;
}

/** Runs the board (under nice -n 19) and returns everything printed: console, dnsmasq, curl or the client. */
export function runBoard(run: BoardRun): Promise<string> {
  const args = ['-n', '19', 'unshare', '-n', 'tools/pico-emu/netns.sh', String(run.seconds), '--image', run.image ?? IMAGE,
    '--bootrom', BOOTROM, '--ssid', 'lab', '--password', 'secret', '--mac', run.mac ?? '28:cd:c1:00:00:01', ...(run.args ?? [])];
  const env: Record<string, string | undefined> = { ...process.env, ...run.env };
  if (run.client) env.PICO_EMU_CLIENT = `node ${path.join(ROOT, 'build/tests/pico-emu', run.client)}`;
  return runNamespace(ROOT, args, env, run.seconds, run.done);
}

/** The client's `result: {…}` line, parsed (undefined when it printed none). */
export function clientResult<T>(out: string): T | undefined {
  const m = /^result: (\{.*\})$/m.exec(out);
  return m ? JSON.parse(m[1]) as T : undefined;
}

/** The emulated seconds of the runner's last line and its emulated/real ratio, for the test's title. */
export function runFigures(out: string): string {
  const m = /^\[(\d+\.\d+) s\] pico-emu: .* after (\d+) s real.*emulated\/real (\d+\.\d+)$/m.exec(out);
  return m ? `${m[1]} s emulated in ${m[2]} s real (${m[3]})` : 'no summary line';
}
