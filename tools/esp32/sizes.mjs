// What the ESP32 archive Moddable's make builds (xs_esp32.a) holds, read with xtensa-esp32-elf-size:
// each C object of the project, the XS image and resources xsl and mcrez made from it, the XS engine
// and the Moddable SDK's modules, as a Markdown table (text includes read-only data and literals;
// data and bss are the RAM the objects take before any heap).

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const n = (x) => x.toLocaleString('en-US');

/** `NAME = value` of the makefile mcconfig wrote. */
function variable(makefile, name) {
  return new RegExp(`^${name} = (.*)$`, 'm').exec(makefile)?.[1] ?? '';
}

/** text, data, bss of each member of the archive. */
function members(archive) {
  const text = execFileSync('xtensa-esp32-elf-size', [archive], { encoding: 'utf8' });
  return text.split('\n').slice(1).filter(Boolean).map((line) => {
    const [t, d, b, , , file] = line.trim().split(/\s+/);
    return { name: file, text: +t, data: +d, bss: +b };
  });
}

/** Which group an object of the archive belongs to. */
function groupOf(name, projectObjects) {
  if (projectObjects.has(name)) return `the project's ${name.replace(/\.o$/, '')}`;
  if (name === 'mc.xs.c.o') return 'the XS image of the app (mc.xs.c: preloaded modules, byte code)';
  if (name === 'mc.resources.c.o') return 'its resources (mc.resources.c)';
  if (/^(xs|e_pow)/.test(name)) return 'the XS engine and its ESP32 host (xs*.c)';
  return "the Moddable SDK's modules";
}

export function sizeTable(tmpDir) {
  const makefile = fs.readFileSync(path.join(tmpDir, 'makefile'), 'utf8');
  const mainDir = variable(makefile, 'MAIN_DIR');
  const archive = path.join(variable(makefile, 'BIN_DIR'), 'xs_esp32.a');
  const projectObjects = new Set([...makefile.matchAll(/^\$\(TMP_DIR\)\/(\S+\.o): (\S+)/gm)]
    .filter(([, , source]) => source.startsWith(`${mainDir}/`)).map(([, object]) => object));
  const groups = new Map();
  const total = { text: 0, data: 0, bss: 0, count: 0 };
  for (const m of members(archive)) {
    const key = groupOf(m.name, projectObjects);
    const g = groups.get(key) ?? { text: 0, data: 0, bss: 0, count: 0 };
    for (const k of ['text', 'data', 'bss']) { g[k] += m[k]; total[k] += m[k]; }
    g.count += 1;
    total.count += 1;
    groups.set(key, g);
  }
  const row = (what, g) => `| ${what} | ${g.count} | ${n(g.text)} | ${n(g.data)} | ${n(g.bss)} |`;
  return ['| objects | files | text B | data B | bss B |', '|---|--:|--:|--:|--:|',
    ...[...groups].map(([what, g]) => row(what, g)),
    row(`**xs_esp32.a** (${fs.statSync(archive).size.toLocaleString('en-US')} B on disk)`, total)].join('\n');
}
