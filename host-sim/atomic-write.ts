// Replace a file so that a crash at any moment leaves either the old content or the new, never a mix:
// write a temp file in the same directory (rename is atomic only within one file system), fsync it,
// rename it over the target, then fsync the directory so the rename itself is durable.

import * as fs from 'node:fs';
import * as path from 'node:path';

export interface AtomicWriteHooks {
  /** Runs after the temp file is written and synced, before the rename (tests crash here). */
  beforeRename?: (tempPath: string) => void;
}

/** The temp file this process writes for `target`: one per process, so a stale one names its pid. */
export function tempPathOf(target: string, pid = process.pid): string {
  return `${target}.${pid}.tmp`;
}

export function writeFileAtomic(target: string, text: string, hooks: AtomicWriteHooks = {}): void {
  const dir = path.dirname(target);
  fs.mkdirSync(dir, { recursive: true });
  const temp = tempPathOf(target);
  try {
    const fd = fs.openSync(temp, 'w', 0o600);
    try {
      fs.writeFileSync(fd, text, 'utf8');
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    hooks.beforeRename?.(temp);
    fs.renameSync(temp, target);
  } catch (e) {
    // A failed write (disk full, permissions) must not leave its temp file behind.
    try { fs.unlinkSync(temp); } catch { /* already gone */ }
    throw e;
  }
  syncDirectory(dir);
}

/** fsync a directory so a rename in it survives a power cut; not possible everywhere (Windows). */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    // best effort: the rename is still atomic, only its durability is up to the OS
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Remove temp files of `target` left by processes that died mid-write (their pid no longer runs). */
export function removeStaleTemps(target: string): void {
  const dir = path.dirname(target);
  const prefix = path.basename(target) + '.';
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const pid = Number(name.slice(prefix.length, -4));
    if (!Number.isInteger(pid) || pid <= 0 || isRunning(pid)) continue;
    try { fs.unlinkSync(path.join(dir, name)); } catch { /* someone else cleaned it */ }
  }
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}
