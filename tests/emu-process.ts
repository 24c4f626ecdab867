// Runs an emulated board's namespace script (tools/pico-emu/netns.sh, tools/esp32-emu/netns.sh) in a
// process group of its own, for at most `seconds` (and a minute's grace), and returns everything it
// printed; `done` ends it early once the output satisfies it. Shared by tests/pico-emu-run.ts and
// tests/esp32-emu-run.ts.
import { spawn } from 'node:child_process';

export function runNamespace(cwd: string, args: string[], env: Record<string, string | undefined>, seconds: number,
  done?: (out: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    const p = spawn('nice', args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const stop = (): void => {
      try { process.kill(-p.pid!, 'SIGTERM'); } catch { /* already gone */ }
    };
    const timer = setTimeout(stop, (seconds + 60) * 1000);
    const take = (chunk: Buffer): void => {
      out += chunk.toString();
      if (done?.(out)) stop();
    };
    p.stdout.on('data', take);
    p.stderr.on('data', take);
    p.on('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}
