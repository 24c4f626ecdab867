// The simulator's console page: the generated file (resources/console.html.gz, written by make gen),
// the same bytes a module links as a resource. Read once at start; served as stored, or inflated by
// the Api's gunzip for a client that does not take gzip.
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The repository root, from build/host-sim/ or host-sim/. */
function root(): string {
  const up = path.resolve(__dirname, '..');
  return path.basename(up) === 'build' ? path.resolve(up, '..') : up;
}

export const CONSOLE_FILE = 'resources/console.html.gz';

/** Read on first use, then shared by every server of the process (the Api only reads it). */
let page: Uint8Array | undefined;

export function simConsolePage(): Uint8Array {
  return (page ??= new Uint8Array(fs.readFileSync(path.join(root(), CONSOLE_FILE))));
}
