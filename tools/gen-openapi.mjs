// Generates the OpenAPI documents (make gen, after tsc: it runs the compiled generator): the
// simulator's and the device build's, which differ in info.version (each one's firmware) and in the
// bounds of the integer PUTs (what the simulator's default profile and the esp32 board of
// manifest.json publish). `--manifest FILE` reads another manifest (tests/generated.test.ts). Written
// gzip-compressed to resources/, where the simulator reads them and a device build maps them from
// flash as a Moddable resource (never built in RAM). `--check` regenerates in memory and fails if
// the stored documents differ; `--out DIR` (or GEN_OUT) writes them under DIR (tests/generated.test.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync, gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { outRoot } from './gen-out.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { openApiDocuments } = require(path.join(root, 'build/tools/openapi-documents.js'));

const check = process.argv.includes('--check');
const m = process.argv.indexOf('--manifest');
const manifest = m >= 0 ? path.resolve(process.argv[m + 1]) : undefined;
let stale = 0;
for (const { file, text } of openApiDocuments(root, manifest)) {
  const target = path.join(check ? root : outRoot(), file);
  if (check) {
    let old = '';
    try { old = gunzipSync(readFileSync(target)).toString('utf8'); } catch { /* missing */ }
    if (old !== text) { console.error(`${file} is stale: run make gen`); stale++; }
  } else {
    // mtime 0 and a fixed level: the same document gives the same bytes.
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, gzipSync(Buffer.from(text), { level: 9 }));
    console.log(`${file}: ${text.length} bytes, ${readFileSync(target).length} gzip-compressed`);
  }
}
process.exit(stale ? 1 : 0);
