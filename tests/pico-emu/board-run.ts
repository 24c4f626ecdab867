// Runs the Pico W image on the emulated board in a network namespace of its own (tools/pico-emu/netns.sh)
// for a test: what it needs (the image, the boot ROM, rp2040js, root, socat, dnsmasq) and the run itself.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '../../..');
const buildDir = process.env.DEVICE_BUILD_DIR || (process.env.MODDABLE ? path.join(process.env.MODDABLE, 'build') : '');
export const IMAGE = process.env.PICO_IMAGE || path.join(buildDir, 'bin/pico/pico_w/release/brainstem-rest/xs_pico.uf2');
const BOOTROM = process.env.PICO_BOOTROM || path.join(process.env.PICO_ROOT || path.join(os.homedir(), 'pico'), 'rp2040js/demo/bootrom.ts');

/** Why the board cannot run here, or undefined. */
export function boardMissing(): string | undefined {
  if (!buildDir && !process.env.PICO_IMAGE) return 'no Pico W image (PICO_IMAGE, or DEVICE_BUILD_DIR/MODDABLE)';
  if (!fs.existsSync(IMAGE)) return `no Pico W image at ${IMAGE}`;
  if (!fs.existsSync(BOOTROM)) return `no RP2040 boot ROM at ${BOOTROM} (PICO_BOOTROM)`;
  try {
    require.resolve('rp2040js');
  } catch {
    return 'rp2040js is not installed';
  }
  if (process.getuid?.() !== 0) return 'not root (unshare -n)';
  for (const tool of ['socat', 'dnsmasq']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `no ${tool}`;
  }
  return undefined;
}

/** Runs the board for at most `seconds` of real time, until `done` says so from the output; resolves with it. */
export function runBoard(seconds: number, env: Record<string, string>, done: (out: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    const args = ['-n', '19', 'unshare', '-n', 'tools/pico-emu/netns.sh', String(seconds),
      '--image', IMAGE, '--bootrom', BOOTROM, '--ssid', 'lab', '--password', 'secret'];
    const p = spawn('nice', args, { cwd: ROOT, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const take = (chunk: Buffer): void => {
      out += chunk.toString();
      if (done(out)) {
        try { process.kill(-p.pid!, 'SIGTERM'); } catch { /* already gone */ }
      }
    };
    p.stdout.on('data', take);
    p.stderr.on('data', take);
    p.on('close', () => resolve(out));
  });
}
