// The simulator's OpenAPI document: the generated file (resources/openapi-sim.json.gz, written by
// make gen), sent as stored to clients that accept gzip and decompressed once for the others.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { OpenApiSource } from '../src/api/access/site';

/** The repository root, from build/host-sim/ or host-sim/. */
function root(): string {
  const up = path.resolve(__dirname, '..');
  return path.basename(up) === 'build' ? path.resolve(up, '..') : up;
}

export function simOpenApi(): OpenApiSource {
  const gzip = new Uint8Array(fs.readFileSync(path.join(root(), 'resources/openapi-sim.json.gz')));
  let plain: Uint8Array | null = null;
  return { gzip, plain: () => (plain ??= new Uint8Array(gunzipSync(gzip))) };
}
