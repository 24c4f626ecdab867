// The sdkconfig.h of an ESP32 build, made by ESP-IDF's own kconfgen from the sdkconfig mcconfig merged
// (xsProj-esp32/sdkconfig.mc: the Moddable SDK's defaults, then esp32/sdkconfig.defaults and, in release
// builds, esp32/sdkconfig.defaults.release), with the inputs ESP-IDF's tools/cmake/kconfig.cmake gives it
// at `idf.py reconfigure`: the Kconfig and Kconfig.projbuild of every component of ESP-IDF (a project
// that names no COMPONENTS builds them all), their sdkconfig.rename files, the target and the version.
// Written where Moddable's make.esp32.mk looks for it: xsProj-esp32/build/config/sdkconfig.h.

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const TARGET = 'esp32';

/** The components of ESP-IDF (a folder with a CMakeLists.txt), in the order its build.cmake adds them. */
function components(idfPath) {
  const root = path.join(idfPath, 'components');
  return fs.readdirSync(root).sort().map((name) => path.join(root, name))
    .filter((dir) => fs.existsSync(path.join(dir, 'CMakeLists.txt')));
}

/** The files of each component named `name` (kconfig.cmake matches the names without case). */
function filesNamed(dirs, ...names) {
  return dirs.flatMap((dir) => fs.readdirSync(dir).sort()
    .filter((f) => names.includes(f.toLowerCase()))
    .map((f) => path.join(dir, f)));
}

/** ESP-IDF's version as tools/cmake/version.cmake sets it (IDF_VERSION, e.g. 6.0.0). */
function idfVersion(idfPath) {
  const text = fs.readFileSync(path.join(idfPath, 'tools/cmake/version.cmake'), 'utf8');
  const part = (p) => /(\d+)/.exec(text.split(`IDF_VERSION_${p}`)[1] ?? '')?.[1] ?? '0';
  return `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
}

/**
 * Runs kconfgen for the project folder `projDir` (mcconfig's xsProj-esp32) with `python` (one that
 * has esp-idf-kconfig); returns the path of the sdkconfig.h it wrote.
 */
export function makeSdkconfig({ idfPath, python, projDir }) {
  const work = path.join(projDir, 'build');
  const configDir = path.join(work, 'config');
  const header = path.join(configDir, 'sdkconfig.h');
  const defaults = path.join(projDir, 'sdkconfig.mc');
  // Made again only when mcconfig wrote another sdkconfig.mc, as make.esp32.mk's rule for it does: every
  // object of the build depends on it.
  if (fs.existsSync(header) && fs.statSync(header).mtimeMs > fs.statSync(defaults).mtimeMs) return header;
  const dirs = components(idfPath);
  fs.mkdirSync(configDir, { recursive: true });
  const list = (files) => files.join(';');
  const env = {
    COMPONENT_KCONFIGS: list(filesNamed(dirs, 'kconfig')),
    COMPONENT_KCONFIGS_PROJBUILD: list(filesNamed(dirs, 'kconfig.projbuild')),
    COMPONENT_SDKCONFIG_RENAMES: list(filesNamed(dirs, 'sdkconfig.rename', `sdkconfig.rename.${TARGET}`)),
    IDF_TARGET: TARGET,
    IDF_TOOLCHAIN: 'gcc',
    IDF_VERSION: idfVersion(idfPath),
    IDF_ENV_FPGA: '',
    IDF_PATH: idfPath,
    COMPONENT_KCONFIGS_SOURCE_FILE: path.join(work, 'kconfigs.in'),
    COMPONENT_KCONFIGS_PROJBUILD_SOURCE_FILE: path.join(work, 'kconfigs_projbuild.in'),
  };
  const envFile = path.join(work, 'config.env');
  fs.writeFileSync(envFile, JSON.stringify(env, null, 4));
  const run = (args) => execFileSync(python, args, {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, IDF_INIT_VERSION: env.IDF_VERSION, KCONFIG_REPORT_VERBOSITY: 'quiet' },
  });
  run([path.join(idfPath, 'tools/kconfig_new/prepare_kconfig_files.py'), '--list-separator=semicolon', '--env-file', envFile]);
  const sdkconfig = path.join(projDir, 'sdkconfig');
  fs.rmSync(sdkconfig, { force: true }); // make.esp32.mk starts each reconfigure from the defaults alone
  run(['-m', 'kconfgen', '--list-separator=semicolon',
    '--kconfig', path.join(idfPath, 'Kconfig'), '--sdkconfig-rename', path.join(idfPath, 'sdkconfig.rename'),
    '--config', sdkconfig, '--defaults', defaults,
    ...(fs.existsSync(`${defaults}.${TARGET}`) ? ['--defaults', `${defaults}.${TARGET}`] : []),
    '--env', 'IDF_MINIMAL_BUILD=n', '--env-file', envFile,
    '--output', 'header', header, '--output', 'json', path.join(configDir, 'sdkconfig.json'),
    '--output', 'config', sdkconfig]);
  return header;
}
