// `make device PLATFORM=esp32…` where idf.py cannot build and link the image (the Makefile's esp32-link
// says why): Moddable's half of the build, which needs only ESP-IDF's headers, its kconfgen and the
// xtensa C compiler, and with --link the image, linked by ESP-IDF's CMake (link.mjs). mcconfig writes the build's makefile and merged sdkconfig, ESP-IDF's
// kconfgen makes sdkconfig.h (sdkconfig.mjs), and Moddable's make.esp32.mk compiles XS, the SDK's
// modules, the project's C and the XS image into xs_esp32.a (its buildArchive target: everything before
// `idf.py build`). Then prints the time it took and the size of the project's objects and of the archive.
//
//   node tools/esp32/archive.mjs [--link] [--manifest FILE] OUT PLATFORM [mcconfig arguments...]
// OUT: mcconfig's -o; PLATFORM: its -p (esp32, or esp32:DIR for a subplatform folder such as esp32/wired);
// FILE: the application's manifest (the module's, manifest.json, unless given: make esp32-anchor).
// Environment: MODDABLE, IDF_PATH, IDF_PYTHON (a Python with esp-idf-kconfig), and on PATH mcconfig, tsc,
// xtensa-esp32-elf-gcc and python (make.esp32.mk's version check).

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeSdkconfig } from './sdkconfig.mjs';
import { sizeTable } from './sizes.mjs';
import { linkImage } from './link.mjs';

const args = process.argv.slice(2);
const link = args[0] === '--link';
if (link) args.shift();
const manifest = args[0] === '--manifest' ? args.splice(0, 2)[1] : 'manifest.json';
const [out, platform, ...mcconfigArgs] = args;
const root = path.resolve(import.meta.dirname, '../..');
const NAME = JSON.parse(fs.readFileSync(path.resolve(root, manifest), 'utf8')).build.NAME;
const started = Date.now();
const run = (cmd, args, cwd = root) => execFileSync(cmd, args, { cwd, stdio: 'inherit' });

run('mcconfig', ['-p', platform, '-o', out, ...mcconfigArgs, manifest]);
// The folder mcconfig just wrote: tmp/esp32/[SUBPLATFORM/]VARIANT/NAME (release, debug or instrumented).
const tmpDir = fs.readdirSync(path.join(out, 'tmp/esp32'), { recursive: true })
  .filter((rel) => path.basename(rel) === NAME)
  .map((rel) => path.join(out, 'tmp/esp32', rel))
  .filter((dir) => fs.existsSync(path.join(dir, 'makefile')))
  .sort((a, b) => fs.statSync(path.join(b, 'makefile')).mtimeMs - fs.statSync(path.join(a, 'makefile')).mtimeMs)[0];
makeSdkconfig({ idfPath: process.env.IDF_PATH, python: process.env.IDF_PYTHON || 'python3', projDir: path.join(tmpDir, 'xsProj-esp32') });
run('make', ['-f', 'makefile', 'buildArchive'], tmpDir);
const seconds = Math.round((Date.now() - started) / 1000);
console.log(`\n# esp32: mcconfig, sdkconfig.h and Moddable's compile took ${seconds} s\n`);
console.log(sizeTable(tmpDir));
if (link) {
  const binDir = tmpDir.replace(`${path.sep}tmp${path.sep}esp32${path.sep}`, `${path.sep}bin${path.sep}esp32${path.sep}`);
  // A subplatform folder of this project (esp32/wired, esp32/qemu) is a wired image: no Wi-Fi driver.
  const images = linkImage({ tmpDir, binDir, wired: platform.startsWith('esp32:'), debug: mcconfigArgs.includes('-d') });
  const total = Math.round((Date.now() - started) / 1000);
  console.log(`\n# esp32: the app ${images.app} (${fs.statSync(images.app).size} B) and the flash image ${images.flash}, in ${total} s\n`);
}
