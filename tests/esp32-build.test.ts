// `make device PLATFORM=esp32` in a fresh folder, with the real tools (the Moddable SDK, ESP-IDF v6.0,
// an xtensa-esp32-elf C compiler, ESP-IDF's kconfgen): every C file of the project, the SDK's modules and
// XS compile with ESP-IDF's headers and an sdkconfig.h made from the SDK's defaults and the project's
// esp32/sdkconfig.defaults*, and where ESP-IDF cannot link the image one line says what it lacks.
// Skips with the line `make esp32-tools` prints when a tool is missing, or when this ESP-IDF can link
// (make device then builds and flashes, which needs a board).

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const RELEASE = 'tmp/esp32/release/brainstem-rest';

/** Why this machine cannot run the test: the line make prints, or that the image links here. */
function missing(): string | undefined {
  const r = spawnSync('make', ['-s', '-o', 'node_modules/.installed', 'moddable-tools', 'esp32-tools'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) return r.stderr.split('\n').find((l) => l.startsWith('make')) ?? r.stderr.trim();
  const wifi = path.join(process.env.IDF_PATH ?? '', 'components/esp_wifi/lib/esp32/libnet80211.a');
  return fs.existsSync(wifi) ? `ESP-IDF at IDF_PATH links the image here: make device PLATFORM=esp32 builds and flashes it` : undefined;
}

function binutil(tool: string, ...args: string[]): string {
  const r = spawnSync(`xtensa-esp32-elf-${tool}`, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

describe('make device PLATFORM=esp32 with ESP-IDF v6.0', function () {
  const why = missing();
  let out = '';
  let run = { status: null as number | null, stdout: '', stderr: '' };
  before(function () {
    if (why) this.skip();
    this.timeout(3 * 3600 * 1000); // XS, the SDK modules and a 4 MB mc.xs.c on a shared 2-core machine
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'esp32-build-'));
    const r = spawnSync('make', ['-o', 'node_modules/.installed', 'device', 'PLATFORM=esp32', `DEVICE_BUILD_DIR=${out}`],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 256 << 20 });
    run = { status: r.status, stdout: r.stdout, stderr: r.stderr };
  });
  after(() => { if (out) fs.rmSync(out, { recursive: true, force: true }); });

  it(`compiles XS, the SDK modules and every C file of the project into xs_esp32.a${why ? ` (skipped: ${why})` : ''}`, () => {
    const archive = path.join(out, 'bin/esp32/release/brainstem-rest/xs_esp32.a');
    assert.ok(fs.existsSync(archive), run.stdout.slice(-4000) + run.stderr.slice(-4000));
    const members = binutil('ar', 't', archive).split('\n');
    for (const object of ['ota-state.c.o', 'wdt-esp32.c.o', 'update-esp32.c.o', 'tcp-esp32.c.o', 'xsAll.c.o', 'xsHost.c.o', 'mc.xs.c.o', 'mc.resources.c.o']) {
      assert.ok(members.includes(object), `${object} is not in xs_esp32.a`);
    }
    assert.ok(!members.includes('tcp.c.o'), 'the SDK\'s own lwIP socket (tcp.c) is replaced by tcp-esp32.c');
    assert.match(binutil('readelf', '-h', path.join(out, RELEASE, 'ota-state.c.o')), /Machine:\s+Tensilica Xtensa/);
    // The project's ESP-IDF options reached the header every object was compiled with.
    const header = fs.readFileSync(path.join(out, RELEASE, 'xsProj-esp32/build/config/sdkconfig.h'), 'utf8');
    assert.match(header, /^#define CONFIG_BOOTLOADER_APP_ROLLBACK_ENABLE 1$/m);
    assert.match(header, /^#define CONFIG_APP_PROJECT_VER "0\.1\.0"$/m);
    assert.match(header, /^#define CONFIG_ESP_TASK_WDT_TIMEOUT_S 10$/m);
    assert.match(header, /^#define CONFIG_IDF_TARGET_ESP32 1$/m);
  });

  it(`stops where ESP-IDF cannot link, naming the Wi-Fi libraries in one line, after the sizes${why ? ` (skipped: ${why})` : ''}`, () => {
    assert.notEqual(run.status, 0);
    const said = run.stderr.split('\n').filter((l) => l.startsWith('make device PLATFORM=esp32:'));
    assert.equal(said.length, 1, run.stderr.slice(-4000));
    assert.match(said[0], /^make device PLATFORM=esp32: XS, the SDK modules and the project's C are compiled \(xs_esp32\.a\); ESP-IDF cannot link the image here without the Wi-Fi libraries \(.*esp32-wifi-lib\).* \(docs\/esp32\.md\)$/);
    assert.match(run.stdout, /^\| the project's ota-state\.c \| 1 \| [\d,]+ \|/m);
    assert.match(run.stdout, /^\| \*\*xs_esp32\.a\*\* /m);
  });
});
