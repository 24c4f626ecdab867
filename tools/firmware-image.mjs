// `make firmware-image`: writes a firmware image for the simulator (docs/firmware.md), and prints the
// Content-Digest to send with it.
//   node tools/firmware-image.mjs --version 2.12.0 [--model 13] [--build 0x5a17c0df] [--platform sim]
//     [--payload FILE | --size BYTES] [--never-starts] --out FILE
// --model: the system/0/model of the modules it is for (default: that of the simulator's default profile);
// --never-starts: the image's firmware never serves (the module rolls back: a test of a rollout).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { makeImage, FLAG_NEVER_STARTS } = require(path.join(root, 'build/host-sim/firmware-image.js'));
const { findProfile } = require(path.join(root, 'build/hal/sim/index.js'));

function fail(message) {
  console.error(`error: ${message}`);
  process.exit(2);
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      version: { type: 'string' }, model: { type: 'string' }, build: { type: 'string' }, platform: { type: 'string', default: 'sim' },
      payload: { type: 'string' }, size: { type: 'string', default: '65536' }, 'never-starts': { type: 'boolean', default: false },
      out: { type: 'string' },
    },
  }));
} catch (e) {
  fail(e.message);
}
const v = /^(\d+)\.(\d+)\.(\d+)$/.exec(values.version ?? '');
if (!v || Number(v[1]) > 15 || Number(v[2]) > 15 || Number(v[3]) > 0xffffff) fail('--version MAJOR.MINOR.PATCH is required (major and minor 0..15)');
if (!values.out) fail('--out FILE is required');
const model = values.model === undefined ? findProfile('everything').model : Number(values.model);
const build = values.build === undefined ? 0 : Number(values.build);
if (!Number.isInteger(model) || model < 0 || model > 0xffffffff) fail('--model must be a whole number');
if (!Number.isInteger(build) || build < 0 || build > 0xffffffff) fail('--build must be a 32-bit number (0x... allowed)');
if (values.platform.length > 16) fail('--platform is at most 16 characters');
let payload;
if (values.payload) payload = readFileSync(values.payload);
else {
  const size = Number(values.size);
  if (!Number.isInteger(size) || size < 0 || size > 4 * 1024 * 1024 - 64) fail('--size must be 0..4194240 bytes');
  // Filler that is not all zeros, so that a body that changes on the way changes the digest.
  payload = new Uint8Array(size);
  for (let i = 0; i < size; i++) payload[i] = (i * 131 + (i >> 8)) & 0xff;
}
const version = ((Number(v[1]) << 28) | (Number(v[2]) << 24) | Number(v[3])) >>> 0;
const image = makeImage({ platform: values.platform, model, version, build, payloadLength: payload.length,
  flags: values['never-starts'] ? FLAG_NEVER_STARTS : 0 }, payload);
writeFileSync(values.out, image);
const digest = createHash('sha256').update(image).digest('base64');
console.log(`${values.out}: ${image.length} bytes, firmware ${values.version} for ${values.platform} model ${model}`);
console.log(`Content-Digest: sha-256=:${digest}:`);
