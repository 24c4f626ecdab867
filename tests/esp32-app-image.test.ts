// tools/esp32-app-image.mjs: the image the budget builds' update stand-in (native/update-lin) is sent
// under load is laid out as ESP-IDF lays out an app (esp_app_format.h): one segment inside the file
// starting with esp_app_desc_t, the XOR checksum (seed 0xEF) in the last byte of its 16-byte block, the
// SHA-256 of all before it appended; and the ESP32 firmware HAL takes it, reading its version.

import './fakes/install';
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ota } from './fakes/ota';
import { createFirmware } from '../hal/device/firmware/esp32';
import { packVersion } from '../hal/kit/version';

const TOOL = path.resolve(__dirname, '../../tools/esp32-app-image.mjs');

function make(args: string[]): { status: number | null; stdout: string; stderr: string; image: Buffer } {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'esp32-img-')), 'app.bin');
  const r = spawnSync(process.execPath, [TOOL, ...args, '--out', out], { encoding: 'utf8' });
  const image = fs.existsSync(out) ? fs.readFileSync(out) : Buffer.alloc(0);
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, image };
}

describe('tools/esp32-app-image.mjs', () => {
  beforeEach(() => ota.reset());

  it('lays out one segment, its checksum and the appended SHA-256 as esp_image_verify reads them', () => {
    const { status, stdout, image } = make(['--version', '0.2.0', '--size', '100000']);
    assert.equal(status, 0);
    assert.equal(image[0], 0xe9);
    assert.equal(image[1], 1, 'one segment');
    assert.equal(image[23], 1, 'hash appended');
    const length = image.readUInt32LE(28);
    assert.equal(length % 4, 0);
    let checksum = 0xef;
    for (let i = 32; i < 32 + length; i++) checksum ^= image[i];
    const at = (32 + length) | 15;
    assert.equal(image[at], checksum);
    assert.equal(image.length, at + 1 + 32);
    assert.deepEqual(image.subarray(at + 1), createHash('sha256').update(image.subarray(0, at + 1)).digest());
    assert.ok(Math.abs(image.length - 100000) < 64, `about --size bytes: ${image.length}`);
    assert.match(stdout, new RegExp(`Content-Digest: sha-256=:${createHash('sha256').update(image).digest('base64').replace(/[+/]/g, '\\$&')}:`));
  });

  it('is taken by the ESP32 firmware HAL, which reads its version', () => {
    const { image } = make(['--version', '3.4.5', '--size', '20000']);
    ota.imageLength = image.length;
    const fw = createFirmware({ version: packVersion(0, 1, 0), build: 1, restart: () => undefined });
    const w = fw.begin(image.length);
    for (let i = 0; i < image.length; i += 1460) w.write(image.subarray(i, i + 1460));
    assert.equal(w.complete(), packVersion(3, 4, 5));
    assert.equal(ota.bootNext, true);
  });

  it('refuses a size no OTA slot holds, and a version that is not major.minor.patch', () => {
    assert.equal(make(['--version', '0.2.0', '--size', String(0x1e0001)]).status, 2);
    const bad = make(['--version', 'v2']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--version MAJOR\.MINOR\.PATCH/);
  });
});
