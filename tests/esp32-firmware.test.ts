// The ESP32's firmware update (hal/device/firmware/esp32.ts) under Node, against fakes of the SDK's
// embedded:update, embedded:storage/flash, crypt and the project's ota-state that fail as the real ones
// do (tests/fakes/ota.ts cites update-esp32.c): the image judged by its ESP-IDF app descriptor, written
// as it arrives, a write error and both complete errors refused with the boot partition unchanged,
// 202 and a restart after it, and a firmware on trial confirming itself once it has served.

import './fakes/install';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ota } from './fakes/ota';
import { createFirmware } from '../hal/device/firmware/esp32';
import { createFirmware as createNone } from '../hal/device/firmware/none';
import { ApiError, aErrIO, aErrParam, aErrUnimplemented } from '../hal/kit/errors';
import { packVersion } from '../hal/kit/version';
import { Api } from '../src/api/api';
import { rawExchange, splitResponses } from './helpers';
import type { FirmwareHal, ModuleHal } from '../hal/types';
import { nodeRandom, nodeSha256 } from '../host-sim/sha256';

const TOKEN = 'dev-token';

/** An ESP32 app image: esp_image_header_t, a segment header, esp_app_desc_t, then filler. */
function appImage(o: { chip?: number; version?: string; project?: string; magic?: number; size?: number } = {}): Uint8Array {
  const b = new Uint8Array(o.size ?? 50000);
  for (let i = 256; i < b.length; i++) b[i] = (i * 7) & 0xff;
  b[0] = 0xe9;
  b[12] = (o.chip ?? 0) & 0xff;
  b[13] = (o.chip ?? 0) >> 8;
  new DataView(b.buffer).setUint32(32, o.magic ?? 0xabcd5432, true);
  const text = (at: number, s: string) => { for (let i = 0; i < s.length; i++) b[at + i] = s.charCodeAt(i); };
  text(48, o.version ?? '0.2.0');
  text(80, o.project ?? 'xs_esp32');
  return b;
}

function code(f: () => unknown): number {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e.code;
  }
  return -1;
}

let restarts = 0;
function firmware(): FirmwareHal {
  return createFirmware({ version: packVersion(0, 1, 0), build: 1, restart: () => { restarts++; } });
}

/** Write `img` in pieces of `piece` bytes (as TCP reads would bring it). */
function writeAll(fw: FirmwareHal, img: Uint8Array, piece = 1460) {
  const w = fw.begin(img.length);
  for (let i = 0; i < img.length; i += piece) w.write(img.subarray(i, i + piece));
  return w;
}

describe('ESP32 firmware update against a fake embedded:update', () => {
  beforeEach(() => { ota.reset(); restarts = 0; });

  it('writes a good image as it arrives, checks it, and makes it the boot partition', () => {
    const img = appImage({ version: '0.3.7' });
    ota.imageLength = img.length;
    const w = writeAll(firmware(), img, 1000);
    assert.equal(ota.written.length, img.length, 'every byte written as it came');
    assert.equal(ota.bootNext, false, 'not the boot partition before complete');
    assert.equal(w.complete(), packVersion(0, 3, 7));
    assert.equal(ota.bootNext, true);
    assert.equal(ota.open, 0, 'the update closed');
  });

  it('refuses an image for another chip, a file that is no app image, another ESP-IDF app, or a version that is no major.minor.patch', () => {
    const cases: [Uint8Array, RegExp][] = [
      [appImage({ chip: 9 }), /for the ESP32-S3; this module is an ESP32/],
      [new Uint8Array(500).fill(0xff), /not an ESP32 app image/],
      [appImage({ magic: 0 }), /no ESP-IDF app descriptor/],
      [appImage({ project: 'blink' }), /the ESP-IDF app 'blink', not a Moddable build/],
      [appImage({ version: 'v5.1-dirty' }), /'v5.1-dirty' is not major.minor.patch/],
    ];
    for (const [img, why] of cases) {
      assert.throws(() => writeAll(firmware(), img), (e: unknown) => e instanceof ApiError && e.code === aErrParam && why.test(e.message));
    }
  });

  it('a file that is no app image is aErrParam however it arrives: nothing reaches esp_ota_write\'s magic check before the descriptor', () => {
    for (const piece of [1, 50, 111, 112, 1460]) {
      ota.reset();
      const e = code(() => writeAll(firmware(), new Uint8Array(500).fill(0x47), piece));
      assert.equal(e, aErrParam, `in pieces of ${piece} bytes`);
      assert.equal(ota.written.length, 0, `in pieces of ${piece} bytes: written before it was judged`);
    }
    const img = appImage({ version: '0.4.1' });
    ota.reset();
    ota.imageLength = img.length;
    const w = writeAll(firmware(), img, 40);
    assert.deepEqual(Uint8Array.from(ota.written), img, 'a good image written whole and in order from small reads');
    assert.equal(w.complete(), packVersion(0, 4, 1));
  });

  it('a firmware on trial confirms itself before it begins an update (esp_ota_begin refuses while it is on trial)', () => {
    ota.trial = true;
    const img = appImage({ version: '0.2.5' });
    ota.imageLength = img.length;
    const w = writeAll(firmware(), img);
    assert.equal(ota.confirms, 1);
    assert.equal(w.complete(), packVersion(0, 2, 5));
    assert.equal(ota.bootNext, true);
  });

  it('a write error (esp_ota_write) is aErrIO, and an abort leaves the boot partition', () => {
    ota.failWriteAt = 20000;
    const fw = firmware();
    const w = fw.begin(50000);
    assert.equal(code(() => { for (let i = 0; i < 50000; i += 1460) w.write(appImage().subarray(i, i + 1460)); }), aErrIO);
    w.abort();
    assert.equal(ota.open, 0, 'esp_ota_abort through close()');
    assert.equal(ota.bootNext, false);
  });

  it('complete errors: esp_ota_end refusing the image is aErrParam (cut short or damaged); the boot partition failing is aErrIO', () => {
    const img = appImage();
    ota.imageLength = img.length + 100; // the image's segments go on past what came
    assert.equal(code(() => writeAll(firmware(), img).complete()), aErrParam);
    assert.equal(ota.bootNext, false);
    assert.equal(ota.open, 0);
    ota.imageLength = img.length;
    ota.failBoot = true;
    assert.equal(code(() => writeAll(firmware(), img).complete()), aErrIO);
    assert.equal(ota.bootNext, false);
    assert.equal(code(() => firmware().begin(10).complete()), aErrParam, 'nothing came: cut short');
  });

  it('a partition table without a second OTA slot is 501; so is every update on the Pico W and the desktop host', () => {
    ota.hasNext = false;
    assert.equal(code(() => firmware().begin(100)), aErrUnimplemented);
    const none = createNone({ version: packVersion(0, 1, 0), build: 1, restart: () => undefined });
    assert.equal(code(() => none.begin(100)), aErrUnimplemented);
    assert.equal(none.status().confirmed, true);
  });

  it('asks the chip for the rollback version once, and again once an upload has begun to write the other slot', () => {
    ota.other = '0.1.0';
    const fw = firmware();
    assert.equal(fw.status().rollback, packVersion(0, 1, 0));
    assert.equal(fw.status().rollback, packVersion(0, 1, 0));
    assert.equal(ota.rollbackAsks, 1, 'the chip validates a whole image to answer: asked once');
    ota.other = undefined; // the upload below is cut: the other slot no longer holds a bootable image
    fw.begin(1000).abort();
    assert.equal(fw.status().rollback, -1);
    assert.equal(ota.rollbackAsks, 2);
  });

  it('through the API: 202, the restart after the answer, and a trial firmware confirming itself once it serves', () => {
    ota.trial = true;
    ota.running = 'ota_1';
    ota.other = '0.1.0';
    const img = appImage({ version: '0.2.0', size: 30000 });
    ota.imageLength = img.length;
    const device: ModuleHal = { serialNumber: 0x1234abcd, entities: {}, now: () => 0, afterResponse: () => undefined, firmware: firmware() };
    const api = new Api([device], { token: TOKEN, sha256: nodeSha256, random: nodeRandom });
    const status = rawExchange(api, ['GET /api/v1/device/firmware HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n']);
    assert.deepEqual(JSON.parse(splitResponses(status.out)[0].body).response,
      { version: '0.1.0', rawVersion: packVersion(0, 1, 0), build: '0x00000001', slot: 'ota_1', confirmed: false, rollback: '0.1.0' });
    assert.equal(ota.confirms, 1, 'it served a request: confirmed');
    const digest = createHash('sha256').update(img).digest('base64');
    const head = `PUT /api/v1/device/firmware HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${img.length}\r\n` +
      `Authorization: Bearer ${TOKEN}\r\nContent-Digest: sha-256=:${digest}:\r\n\r\n`;
    const chunks: (string | Uint8Array)[] = [head];
    for (let i = 0; i < img.length; i += 1460) chunks.push(img.subarray(i, i + 1460));
    const put = rawExchange(api, chunks);
    const a = splitResponses(put.out)[0];
    assert.equal(a.status, 202, a.body);
    assert.equal(JSON.parse(a.body).response.version, '0.2.0');
    assert.equal(ota.bootNext, true);
    assert.equal(restarts, 1, 'restarted once the answer was handed over');
  });

  it('through the API: an update as the first request of a firmware on trial is 202, and one under 112 bytes that is no image 400', () => {
    ota.trial = true;
    const img = appImage({ version: '0.2.0', size: 30000 });
    ota.imageLength = img.length;
    const device: ModuleHal = { serialNumber: 0x1234abcd, entities: {}, now: () => 0, afterResponse: () => undefined, firmware: firmware() };
    const api = new Api([device], { token: TOKEN, sha256: nodeSha256, random: nodeRandom });
    const putOf = (body: Uint8Array, piece: number) => {
      const digest = createHash('sha256').update(body).digest('base64');
      const chunks: (string | Uint8Array)[] = [`PUT /api/v1/device/firmware HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\n` +
        `Authorization: Bearer ${TOKEN}\r\nContent-Digest: sha-256=:${digest}:\r\n\r\n`];
      for (let i = 0; i < body.length; i += piece) chunks.push(body.subarray(i, i + piece));
      return splitResponses(rawExchange(api, chunks).out)[0];
    };
    const notImage = putOf(new TextEncoder().encode('GIF89a: a picture, not firmware. '.repeat(10)), 60);
    assert.equal(notImage.status, 400, notImage.body);
    assert.match(JSON.parse(notImage.body).response.message, /not an ESP32 app image/);
    const a = putOf(img, 1460);
    assert.equal(a.status, 202, a.body);
    assert.equal(ota.bootNext, true);
  });
});
