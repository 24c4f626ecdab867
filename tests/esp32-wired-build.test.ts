// `make device PLATFORM=esp32/qemu` in a fresh folder, with the real tools (the Moddable SDK, ESP-IDF
// v6.0 and what stands in for its pinned sources here, the xtensa C and C++ compilers, ESP-IDF's
// kconfgen and esptool): the wired image links without a Wi-Fi library into a flashable 4 MB image,
// with the bootloader, the partition table and the app in ota_0, the app within its slot, and the
// project's C in it. Skips with the line make prints where a tool is missing.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { symbolAddress } from '../tools/esp32-emu/gdb-remote';

const ROOT = path.resolve(__dirname, '../..');
const BIN = 'bin/esp32/qemu/release/brainstem-rest';
/** ota_0 of esp32/partitions.csv: offset and size. */
const OTA0 = { offset: 0x10000, size: 0x1e0000 };

function missing(): string | undefined {
  const r = spawnSync('make', ['-s', '-o', 'node_modules/.installed', 'moddable-tools', 'esp32-tools', 'PLATFORM=esp32/qemu'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) return r.stderr.split('\n').find((l) => l.startsWith('make')) ?? r.stderr.trim();
  if (spawnSync('sh', ['-c', 'command -v xtensa-esp32-elf-g++']).status !== 0) return 'no xtensa-esp32-elf-g++ on PATH (docs/esp32.md)';
  return undefined;
}

describe('make device PLATFORM=esp32/qemu: the wired image from an empty folder', function () {
  const why = missing();
  const skipped = why ? ` (skipped: ${why})` : '';
  let out = '';
  let run = { status: null as number | null, stdout: '', stderr: '' };
  before(function () {
    if (why) this.skip();
    this.timeout(3 * 3600 * 1000);
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'esp32-wired-'));
    const r = spawnSync('make', ['-o', 'node_modules/.installed', 'device', 'PLATFORM=esp32/qemu', `DEVICE_BUILD_DIR=${out}`],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 << 20 });
    run = { status: r.status, stdout: r.stdout, stderr: r.stderr };
  });
  after(() => { if (out) fs.rmSync(out, { recursive: true, force: true }); });

  it(`links a 4 MB flash image: bootloader at 0x1000, partition table at 0x8000, the app in ota_0${skipped}`, () => {
    assert.equal(run.status, 0, run.stdout.slice(-4000) + run.stderr.slice(-4000));
    const flash = fs.readFileSync(path.join(out, BIN, 'xs_esp32-flash.bin'));
    const app = fs.readFileSync(path.join(out, BIN, 'xs_esp32.bin'));
    assert.equal(flash.length, 4 << 20);
    assert.equal(flash[0x1000], 0xe9, 'an ESP image header at 0x1000 (the bootloader)');
    assert.equal(flash.readUInt16LE(0x8000), 0x50aa, 'a partition table entry at 0x8000');
    assert.ok(flash.subarray(OTA0.offset, OTA0.offset + app.length).equals(app), 'the app in ota_0');
    assert.ok(app.length < OTA0.size, `the app (${app.length} B) fits its ${OTA0.size} B slot`);
    assert.match(run.stdout, /^# esp32: the app .*xs_esp32\.bin \(\d+ B\) and the flash image .*xs_esp32-flash\.bin, in \d+ s$/m);
  });

  it(`holds the wired link and the project's C, and no Wi-Fi driver${skipped}`, () => {
    const elf = fs.readFileSync(path.join(out, BIN, 'xs_esp32.elf'));
    for (const name of ['xs_ethernet_constructor', 'esp_eth_mac_new_openeth', 'esp_eth_mac_new_esp32', 'esp_eth_phy_new_generic',
      'xs_tcp_constructor', 'sdk_xs_tcp_constructor', 'xs_watchdog_cause']) {
      assert.ok(symbolAddress(elf, name) !== undefined, `${name} is linked`);
    }
    assert.equal(symbolAddress(elf, 'esp_wifi_init'), undefined, 'no Wi-Fi driver');
  });
});
