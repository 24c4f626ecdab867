// The link of an ESP32 image where idf.py cannot run (its Python check fails: docs/esp32.md): what
// `idf.py build` does, by hand. ESP-IDF's CMake configures Moddable's project folder (xsProj-esp32,
// with the xs_esp32.a archive.mjs compiled) with the -D options Moddable's make.esp32.mk gives idf.py,
// ninja builds ESP-IDF, the bootloader, the partition table and the app, and esptool merges them into
// one 4 MB flash image (bootloader at 0x1000, partition table at 0x8000, the app in ota_0, the OTA data
// that boots it) for a flasher or the emulated ESP32.
//
// A wired image (esp32/wired) names its components (COMPONENTS): main, what Moddable's manifests ask
// for (xs_idf_deps.txt) less the Wi-Fi driver, and what main.c and the SDK's C use; ESP-IDF then
// configures only those, and no Wi-Fi library is needed.
//
//   import { linkImage } from './link.mjs'; linkImage({ tmpDir, wired })
// Environment: IDF_PATH, IDF_PYTHON (a Python with esp-idf-kconfig and esptool), and on PATH cmake,
// ninja and the xtensa compilers.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SUBCLASS = 'esp32';
/** What main.c and the SDK's C need of ESP-IDF beyond the manifests' components. */
const BASE_COMPONENTS = ['main', 'nvs_flash', 'app_update', 'esp_partition', 'spi_flash', 'esp_timer', 'lwip',
  'esp_netif', 'esp_event', 'esp_driver_gpio', 'esp_driver_uart', 'esp_adc', 'esp_driver_ledc', 'efuse', 'log'];
const FLASH_SIZE = '4MB';

/** The components of xs_idf_deps.txt (`set(ESP_COMPONENTS a b c)`). */
function manifestComponents(tmpDir) {
  const text = fs.readFileSync(path.join(tmpDir, 'xs_idf_deps.txt'), 'utf8');
  return (/set\(ESP_COMPONENTS([^)]*)\)/.exec(text)?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
}

/**
 * Links the image of the mcconfig folder `tmpDir`; returns the paths of the app and the flash image,
 * both copied beside xs_esp32.a in `binDir`.
 */
export function linkImage({ tmpDir, binDir, wired, debug = false }) {
  const python = process.env.IDF_PYTHON || 'python3';
  const projDir = path.join(tmpDir, 'xsProj-esp32');
  const buildDir = path.join(projDir, 'build');
  const env = {
    ...process.env,
    IDF_COMPONENT_MANAGER: '0', // the manifests name no registry component; nothing is fetched
    IDF_MAINTAINER: '1', // a compiler other than the one tools.json names (docs/esp32.md)
    IDF_SKIP_CHECK_SUBMODULES: '1',
    ESP_ROM_ELF_DIR: process.env.ESP_ROM_ELF_DIR || buildDir, // only the debugger's gdbinit reads it
  };
  // From the build folder, as idf.py runs it: main/CMakeLists.txt includes ../../xs_idf_deps.txt, which
  // ESP-IDF's requirement scan reads relative to the working folder.
  const run = (cmd, args) => execFileSync(cmd, args, { cwd: buildDir, stdio: 'inherit', env });
  fs.copyFileSync(path.join(binDir, `xs_${SUBCLASS}.a`), path.join(buildDir, `xs_${SUBCLASS}.a`));
  const options = [
    '-G', 'Ninja', '-B', buildDir, '-S', projDir,
    `-DIDF_TARGET=${SUBCLASS}`, '-DPYTHON_DEPS_CHECKED=1', `-DPYTHON=${python}`, '-DCCACHE_ENABLE=0',
    `-DmxDebug=${debug ? 1 : 0}`, '-DINSTRUMENT=0', `-DTMP_DIR=${tmpDir}`,
    `-DSDKCONFIG_DEFAULTS=${path.join(projDir, 'sdkconfig.mc')}`,
    `-DSDKCONFIG_HEADER=${path.join(buildDir, 'config/sdkconfig.h')}`,
    '-DCMAKE_MESSAGE_LOG_LEVEL=ERROR', '-DESP32=1', `-DESP32_SUBCLASS=${SUBCLASS}`,
  ];
  if (wired) {
    const components = [...new Set([...BASE_COMPONENTS, ...manifestComponents(tmpDir)])].filter((c) => c !== 'esp_wifi');
    // The prebuilt archive REQUIRES the manifests' components: the Wi-Fi driver is left out there too.
    const deps = path.join(tmpDir, 'xs_idf_deps.txt');
    fs.writeFileSync(deps, `set(ESP_COMPONENTS ${components.filter((c) => c !== 'main').join(' ')} )\n`);
    options.push(`-DCOMPONENTS=${components.join(';')}`);
  }
  run('cmake', options);
  run('ninja', ['-C', buildDir]);
  const app = path.join(buildDir, 'xs_esp32.bin');
  const flash = path.join(binDir, 'xs_esp32-flash.bin');
  // The offsets idf.py flash uses (build/flash_args): ESP-IDF writes them for this partition table.
  const flashArgs = fs.readFileSync(path.join(buildDir, 'flash_args'), 'utf8').split(/\s+/).filter(Boolean);
  const pairs = [];
  for (let k = 0; k < flashArgs.length; k++) {
    if (/^0x[0-9a-f]+$/i.test(flashArgs[k])) pairs.push(flashArgs[k], path.join(buildDir, flashArgs[++k]));
  }
  execFileSync(python, ['-m', 'esptool', '--chip', SUBCLASS, 'merge_bin', '--fill-flash-size', FLASH_SIZE,
    '-o', flash, '--flash_mode', 'dio', '--flash_freq', '40m', '--flash_size', FLASH_SIZE, ...pairs],
  { stdio: 'inherit', env: { ...env, ESPTOOL_WRAPPER: '' } });
  for (const f of ['xs_esp32.bin', 'xs_esp32.elf', 'xs_esp32.map', 'bootloader/bootloader.bin',
    'partition_table/partition-table.bin', 'ota_data_initial.bin']) {
    const from = path.join(buildDir, f);
    if (fs.existsSync(from)) fs.copyFileSync(from, path.join(binDir, path.basename(f)));
  }
  return { app: path.join(binDir, path.basename(app)), flash };
}
