// Real preloading: every device-side module is named in manifest.json's "preload" list, so
// the Moddable build runs it at build time and keeps its code and frozen data in flash. mcconfig
// matches a "*" preload pattern against JavaScript files only, so a TypeScript module behind a pattern
// is silently loaded into RAM at boot instead: patterns are refused here. The list of device-side
// modules comes from the file tree, so a module added or renamed without a preload entry fails.

import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** Device-side module trees (every .ts below them) and the HAL contract files (hal/*.ts). */
const DEVICE_TREES = ['util', 'src/http', 'src/api', 'src/web', 'src/dns', 'src/device', 'hal/kit', 'hal/device'];

const STANDIN = 'a desktop-host (lin) stand-in for embedded:network/interface/wifi, never on the module, and used only where a lin build is given an SSID';

/** Device-side files that are not preloaded, and why. A key ending in '/' covers a directory. */
const NOT_PRELOADED: Record<string, string> = {
  'src/device/main': 'the app entry (creation.main): its top level reads Preference and opens the listener, native calls xsl cannot make at build time',
  'hal/device/platform/api': 'declares the PlatformApi type only: no module is built',
  'hal/device/standin/wifi': STANDIN,
};

interface Manifest {
  modules?: Record<string, string | string[]>; // and "~": the SDK files left out (filtered below)
  preload?: string[] | string;
  platforms?: Record<string, { modules?: Record<string, string | string[]>; preload?: string[] }>;
}

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = dir + '/' + e.name;
    if (e.isDirectory()) out.push(...tsFiles(rel));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(rel.slice(0, -3));
  }
  return out;
}

function deviceModules(): string[] {
  const hal = fs.readdirSync(path.join(ROOT, 'hal')).filter((n) => n.endsWith('.ts') && !n.endsWith('.d.ts'));
  return [...DEVICE_TREES.flatMap(tsFiles), ...hal.map((n) => 'hal/' + n.slice(0, -3))].sort();
}

function exemption(file: string): string | undefined {
  for (const key in NOT_PRELOADED) if (key.endsWith('/') ? file.startsWith(key) : file === key) return NOT_PRELOADED[key];
  return undefined;
}

/** Every specifier -> file mapping of the manifest, the platforms' included ("modules" maps). */
function moduleMaps(m: Manifest): [string, string][] {
  const maps: [string, string | string[]][] = Object.entries(m.modules ?? {});
  for (const name in m.platforms ?? {}) maps.push(...Object.entries(m.platforms![name].modules ?? {}));
  // "~" lists SDK files left out of the build (an array), not a mapping; a native module maps its
  // JavaScript and its C under one specifier (an array).
  return maps.filter(([spec]) => spec !== '~')
    .flatMap(([spec, targets]) => ([] as string[]).concat(targets).map((t): [string, string] => [spec, t.replace(/^\.\//, '')]));
}

/** The specifiers a file is built under (several when platforms map it differently). */
function specifiersOf(file: string, maps: [string, string][]): string[] {
  const out: string[] = [];
  for (const [spec, target] of maps) {
    if (target === file) out.push(spec);
    else if (target.endsWith('/*') && spec.endsWith('/*') && path.posix.dirname(file) === target.slice(0, -2)) {
      out.push(spec.slice(0, -1) + path.posix.basename(file));
    }
  }
  return out;
}

type ProjectManifest = Manifest & { include?: string | string[]; platforms?: Record<string, { modules?: Record<string, string | string[]>; preload?: string[]; include?: string | string[] }> };

/** A project manifest manifest.json includes (./esp32/module.json, ./src/device/link/manifest.json), its
    module paths made relative to the root, folded into `into` as a platform of its own (`name`). */
function foldInclude(into: Manifest, file: string, name: string): void {
  const dir = path.dirname(file);
  const m = JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as ProjectManifest;
  const rebase = (t: string): string => (t.startsWith('$') ? t : './' + path.posix.join(dir, t));
  const parts: [string, ProjectManifest][] = [[name, m], ...Object.entries(m.platforms ?? {}).map(([k, v]): [string, ProjectManifest] => [`${name} ${k}`, v])];
  for (const [key, part] of parts) {
    const target = ((into.platforms ??= {})[key] ??= {});
    for (const [spec, t] of Object.entries(part.modules ?? {})) {
      if (spec !== '~') (target.modules ??= {})[spec] = Array.isArray(t) ? t.map(rebase) : rebase(t);
    }
    target.preload = [...(target.preload ?? []), ...([] as string[]).concat(part.preload ?? [])];
  }
}

/** manifest.json with the project manifests it includes, and what budget/module-features.json adds to the budget builds' platforms (paths made relative to the root). */
function manifestWithFeatures(): Manifest {
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'manifest.json'), 'utf8')) as ProjectManifest;
  const includes = ([] as string[]).concat(manifest.include ?? [], ...Object.values(manifest.platforms ?? {}).map((p) => ([] as string[]).concat(p.include ?? [])));
  for (const inc of new Set(includes.filter((i) => i.startsWith('./')))) foldInclude(manifest, inc.slice(2), inc);
  const features = JSON.parse(fs.readFileSync(path.join(ROOT, 'budget/module-features.json'), 'utf8')) as Manifest;
  for (const [name, p] of Object.entries(features.platforms ?? {})) {
    const into = (manifest.platforms ??= {})[name] ??= {};
    for (const [spec, target] of Object.entries(p.modules ?? {})) (into.modules ??= {})[spec] = String(target).replace(/^\.\.\//, './');
    into.preload = [...(into.preload ?? []), ...(p.preload ?? [])];
  }
  return manifest;
}

describe('manifest.json preloads every device-side module by name', () => {
  const manifest = manifestWithFeatures();
  // The top-level list, and each platform's for the modules only it maps (the desktop host's stand-ins).
  const preload = ([] as string[]).concat(manifest.preload ?? [], ...Object.values(manifest.platforms ?? {}).map((p) => p.preload ?? []));
  const maps = moduleMaps(manifest);

  it('uses no "*" pattern (mcconfig matches those against .js files only)', () => {
    assert.deepEqual(preload.filter((p) => p.includes('*')), []);
  });

  it('names every device-side module found in the file tree', () => {
    const files = deviceModules();
    assert.ok(files.length > 30, `found only ${files.length} device-side modules`);
    const problems: string[] = [];
    for (const file of files) {
      if (exemption(file)) continue;
      const specs = specifiersOf(file, maps);
      if (specs.length === 0) problems.push(`${file}: not in the manifest's "modules"`);
      for (const s of specs) if (!preload.includes(s)) problems.push(`${file}: "${s}" is not in "preload"`);
    }
    assert.deepEqual(problems, []);
  });

  it('names no module that does not exist, and no exempt one', () => {
    const files = deviceModules();
    const built = new Set(files.flatMap((f) => specifiersOf(f, maps)));
    const stale = preload.filter((p) => /^(src|hal|util)\//.test(p) && !built.has(p));
    assert.deepEqual(stale, [], 'preload entries with no source file');
    const exempt = files.filter((f) => exemption(f)).flatMap((f) => specifiersOf(f, maps)).filter((s) => preload.includes(s));
    assert.deepEqual(exempt, [], 'modules that cannot be preloaded (see NOT_PRELOADED) are in "preload"');
  });

  it('preloads the TextEncoder globals before the text codec that picks them up', () => {
    assert.ok(preload.indexOf('src/device/text-globals') >= 0);
    assert.ok(preload.indexOf('src/device/text-globals') < preload.indexOf('util/text'));
  });
});

describe('the module budget in the manifest', () => {
  const read = (f: string): { creation?: unknown; platforms?: Record<string, { creation?: unknown }> } =>
    JSON.parse(fs.readFileSync(path.join(ROOT, f), 'utf8'));
  const esp32 = read('esp32/module.json').creation; // the esp32 platforms include it (manifest.json)

  it('gives the esp32 platform a fixed XS heap: 2,048 slots and 32 KB of chunks, no growth', () => {
    assert.deepEqual(esp32, {
      static: 0,
      chunk: { initial: 32768, incremental: 0 },
      heap: { initial: 2048, incremental: 0 },
      stack: 512,
    });
  });

  it('gives the pico/pico_w platform the same fixed heap', () => {
    assert.deepEqual(read('manifest.json').platforms?.['pico/pico_w']?.creation, esp32);
  });

  it('builds `make device-budget` with the same creation', () => {
    assert.deepEqual(read('budget/manifest.json').creation, esp32);
  });
});
