// Where the generators (make gen) write: the repository itself, or the folder named by `--out DIR`
// (or the GEN_OUT environment variable), laid out like the repository. tests/generated.test.ts
// regenerates into a temporary folder this way and compares every file with the committed one.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The folder that stands for the repository root in what a generator writes. */
export function outRoot(argv = process.argv) {
  const i = argv.indexOf('--out');
  if (i >= 0) {
    if (!argv[i + 1]) throw new Error('--out needs a folder');
    return path.resolve(argv[i + 1]);
  }
  return process.env.GEN_OUT ? path.resolve(process.env.GEN_OUT) : ROOT;
}

/** Writes `data` to `rel` (a repository-relative path) under the output folder; returns the full path. */
export function writeOut(rel, data, argv = process.argv) {
  const file = path.join(outRoot(argv), rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, data);
  return file;
}

/** Every file the generators write, repository-relative (the regeneration test compares each). */
export const GENERATED = Object.freeze([
  'src/api/route/route-table.ts',
  'src/api/resources/metric-table.ts',
  'hal/entity-ops.ts',
  'hal/entity-values.ts',
  'src/web/console-page.ts',
  'resources/console.html.gz',
  'resources/openapi-sim.json.gz',
  'resources/openapi-device.json.gz',
]);
