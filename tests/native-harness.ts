// Builds and runs the host harnesses of tests/native/: the project's native socket files (and, to show
// that the fakes reproduce what they guard against, the SDK's own) compiled with the host's C compiler
// against the fake lwIP and fake XS there. The sockets' C comes from the Moddable SDK ($MODDABLE);
// `missing()` says in one line what is not there.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const HERE = path.join(ROOT, 'tests/native');
const SDK = process.env.MODDABLE ?? '';
const OUT = fs.mkdtempSync(path.join(os.tmpdir(), 'native-harness-'));

/** The SDK files the harnesses compile, inside $MODDABLE. */
export const SDK_TCP = 'modules/io/socket/lwip/tcp.c';
export const SDK_UDP = 'modules/io/socket/lwip/udp.c';

/** Why no host C compiler can build the harnesses; undefined when one can. */
export function missingCompiler(): string | undefined {
  return spawnSync('sh', ['-c', 'command -v cc']).status === 0 ? undefined : 'no C compiler (cc)';
}

/** Why the socket harnesses cannot be built here, in one line; undefined when they can. */
export function missingSdk(): string | undefined {
  const cc = missingCompiler();
  if (cc) return cc;
  if (!SDK) return 'no Moddable SDK ($MODDABLE)';
  if (!fs.existsSync(path.join(SDK, SDK_TCP))) return `no ${SDK_TCP} in $MODDABLE`;
  return undefined;
}

/** A path in the SDK or in the project. */
export const sdkFile = (file: string): string => path.join(SDK, file);
export const projectFile = (file: string): string => path.join(ROOT, file);

/**
 * Compiles `socket` (a C file of the project or the SDK) with the harness `main` and the fakes into an
 * executable; `esp32` builds as the ESP32 does (the SDK's lwIP calls through lwIP's thread).
 */
export function build(name: string, main: string, socket: string, options: { esp32?: boolean; defines?: string[] } = {}): string {
  const exe = path.join(OUT, name);
  const fakes = ['fake-lwip.c', 'fake-xs.c', ...(options.esp32 ? ['fake-esp32-safe.c'] : [])].map((f) => path.join(HERE, f));
  const args = ['-g', '-O0', '-w', `-I${path.join(HERE, 'include')}`, `-I${HERE}`,
    `-I${path.join(SDK, 'modules/network/socket/lwip')}`, `-I${projectFile('native/socket-pico')}`,
    ...(options.esp32 ? ['-DESP32=1'] : ['-DCYW43_LWIP=1']), ...(options.defines ?? []),
    '-o', exe, socket, path.join(HERE, main), ...fakes];
  const cc = spawnSync('cc', args, { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`cc ${args.join(' ')}\n${cc.stderr}`);
  return exe;
}

/** Compiles the malloc harness, with the given files linked in (none: newlib's empty lock alone). */
export function buildMalloc(name: string, files: string[]): string {
  const exe = path.join(OUT, name);
  const args = ['-w', `-I${path.join(HERE, 'include')}`, '-o', exe, path.join(HERE, 'malloc-scenarios.c'), ...files];
  const cc = spawnSync('cc', args, { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`cc ${args.join(' ')}\n${cc.stderr}`);
  return exe;
}

export interface Run {
  /** The counts the harness printed, or null when it died. */
  counts: Record<string, number | string> | null;
  /** The signal that ended it (SIGSEGV: a read through NULL, the chip's LoadProhibited), or null. */
  signal: NodeJS.Signals | null;
  output: string;
}

/** Runs a built harness with its arguments. */
export function run(exe: string, ...args: string[]): Run {
  const r = spawnSync(exe, args, { encoding: 'utf8', timeout: 20000 });
  const line = r.stdout.trim().split('\n').pop() ?? '';
  let counts: Run['counts'] = null;
  try {
    counts = JSON.parse(line) as Run['counts'];
  } catch { /* it died before printing */ }
  return { counts, signal: r.signal, output: `${r.stdout}${r.stderr}` };
}

/**
 * Compiles the main loop harness (loop-scenarios.c over the SDK's queue, fake-pico-loop.c); with
 * `files` and `ldflags` (the manifest's --wrap flags), the project's loop linked in as the Pico link does.
 */
export function buildLoop(name: string, files: string[], ldflags: string[] = []): string {
  const exe = path.join(OUT, name);
  const args = ['-w', `-I${path.join(HERE, 'loop-include')}`, `-I${path.join(HERE, 'include')}`, ...ldflags, '-o', exe,
    path.join(HERE, 'loop-scenarios.c'), path.join(HERE, 'fake-pico-loop.c'), ...files];
  const cc = spawnSync('cc', args, { encoding: 'utf8' });
  if (cc.status !== 0) throw new Error(`cc ${args.join(' ')}\n${cc.stderr}`);
  return exe;
}
