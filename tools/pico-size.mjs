// `make pico-size`: what the Pico W image that `make device PLATFORM=pico/pico_w` built costs, read from
// the build itself (the ELF through arm-none-eabi's binutils, the uf2, and the XS image xsl wrote, with
// the makefile mcconfig wrote), printed as the Markdown table docs/pico.md shows. Without xs_pico.elf
// (a build of the JavaScript half only, which needs no Pico toolchain) it prints the XS rows.
//
//   node tools/pico-size.mjs BUILD_DIR        (BUILD_DIR: mcconfig's -o, i.e. DEVICE_BUILD_DIR)

import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const NAME = 'brainstem-rest';
const VARIANT = 'pico/pico_w/release';
const FLASH = 2 * 1024 * 1024;
const RAM = 264 * 1024;
const SLOT = 16; // bytes per XS slot on a 32-bit chip
const RAM_START = 0x20000000;

function fail(message) {
  console.error(`make pico-size: ${message}`);
  process.exit(1);
}

const n = (x) => x.toLocaleString('en-US');
const share = (part, whole, of) => `${n(part)} B (${Math.round((100 * part) / whole)} % of ${of})`;

function binutil(tool, args) {
  try {
    return execFileSync(`arm-none-eabi-${tool}`, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  } catch (e) {
    if (e.code === 'ENOENT') fail(`no arm-none-eabi-${tool} on PATH (Debian: binutils-arm-none-eabi, with gcc-arm-none-eabi)`);
    throw e;
  }
}

/** The ELF's allocated sections (readelf -S): name, type, size. */
function sections(elf) {
  const out = [];
  for (const line of binutil('readelf', ['-SW', elf]).split('\n')) {
    const m = /^\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]{8})\s+[0-9a-f]+\s+([0-9a-f]+)\s+\S+\s+(\S*A\S*)\s/.exec(line);
    if (m) out.push({ name: m[1], type: m[2], size: parseInt(m[4], 16) });
  }
  return out;
}

/** Symbol name -> address, for the few symbols the linker script defines. */
function symbols(elf, names) {
  const found = {};
  for (const line of binutil('nm', [elf]).split('\n')) {
    const [addr, , name] = line.trim().split(/\s+/);
    if (names.includes(name)) found[name] = parseInt(addr, 16);
  }
  for (const name of names) if (!(name in found)) fail(`no symbol ${name} in ${elf}`);
  return found;
}

/** The rows only the linked image gives: flash, RAM, C heap, the Wi-Fi firmware, the uf2. */
function imageRows(bin, tmp) {
  const elf = path.join(bin, 'xs_pico.elf');
  const all = sections(elf);
  // Everything with contents is written to flash (the .data and scratch images are copied to RAM at boot).
  const flash = all.filter((s) => s.type !== 'NOBITS').reduce((a, s) => a + s.size, 0);
  // RAM below the C heap: the vector table, .data and .bss (the linker script puts `__end__` after them).
  const sym = symbols(elf, ['__end__', '__StackLimit']);
  const ram = sym.__end__ - RAM_START;
  const xsObject = binutil('size', ['-B', '-d', path.join(tmp, 'mc.xs.c.o')]).trim().split('\n')[1].trim().split(/\s+/)[3];
  const firmware = firmwareSize(elf);
  const before = [
    ['flash: the whole image (every section with contents)', share(flash, FLASH, '2 MiB')],
    ...(firmware ? [['of it the CYW43439 Wi-Fi firmware', `${n(firmware)} B`]] : []),
    ['RAM before the C heap (vectors, `.data`, `.bss`: up to `__end__`)', share(ram, RAM, '264 KiB')],
    ['C heap: `__end__` .. `__StackLimit` (the XS heaps are taken from it)', `${n(sym.__StackLimit - sym.__end__)} B`],
    ['the XS image, compiled (`mc.xs.c.o`: text + data + bss)', `${n(Number(xsObject))} B`],
  ];
  return { before, after: [['`xs_pico.uf2`', `${n(fs.statSync(path.join(bin, 'xs_pico.uf2')).size)} B`]] };
}

/** Size of the CYW43439 firmware array the cyw43-driver links in (its symbol names the chip's firmware). */
function firmwareSize(elf) {
  for (const line of binutil('nm', ['-S', elf]).split('\n')) {
    const m = /^[0-9a-f]+ ([0-9a-f]+) [a-zA-Z] (w43439\S*|cyw43_wifi_fw\S*)$/.exec(line.trim());
    if (m) return parseInt(m[1], 16);
  }
  return 0;
}

/** The rows of the XS image: what xsl preloaded, from mc.xs.c and the makefile's PRELOADS. */
function xsRows(tmp, linked) {
  const c = fs.readFileSync(path.join(tmp, 'mc.xs.c'), 'utf8');
  const define = (name) => Number(new RegExp(`^#define ${name} (\\d+)$`, 'm').exec(c)?.[1] ?? fail(`no ${name} in mc.xs.c`));
  const slots = define('mxHeapCount');
  const instances = c.split('.kind = XS_INSTANCE_KIND').length - 1;
  const creation = /^\t\{ (\d+), (\d+), (\d+), (\d+), \d+,/m.exec(c.slice(c.indexOf('gxPreparation = {')));
  if (!creation) fail('no creation record in mc.xs.c');
  const [chunks, chunkGrowth, heap, heapGrowth] = creation.slice(1).map(Number);
  const growth = chunkGrowth || heapGrowth ? `, growing by ${n(chunkGrowth)} B and ${n(heapGrowth)} slots` : ', no growth';
  const { preloaded, modules } = projectModules(path.join(tmp, 'makefile'));
  const left = modules.filter((m) => !preloaded.includes(m));
  return [
    [`${linked ? 'of it ' : ''}the preloaded heap (\`gxHeap\`)`, `${n(slots)} slots (${n(slots * SLOT)} B)`],
    ['`mc.xs.c` (C source)', `${n(c.length)} B`],
    ['xsl: instances, keys', `${n(instances)}, ${n(define('mxKeysCount'))}`],
    ['project modules preloaded', `${preloaded.length} of ${modules.length}${left.length ? ` (not ${left.map((m) => `\`${m}\``).join(', ')})` : ''}`],
    ['XS heaps at boot (`creation`)', `${n(chunks)} B chunks + ${n(heap)} slots (${n(heap * SLOT)} B)${growth}`],
  ];
}

/** The project's modules (their source is under the makefile's MAIN_DIR) and which of them xsl preloads. */
function projectModules(makefile) {
  const text = fs.readFileSync(makefile, 'utf8');
  const main = /^MAIN_DIR = (.+)$/m.exec(text)?.[1] ?? fail(`no MAIN_DIR in ${makefile}`);
  const modules = [];
  for (const m of text.matchAll(/^\$\(MODULES_DIR\)\/(\S+)\.xsb: (\S+)$/gm)) {
    if (m[2].includes(`${main}/`)) modules.push(m[1]);
  }
  const preloaded = [...text.matchAll(/^\t-p (\S+)\.xsb\\?$/gm)].map((m) => m[1]).filter((m) => modules.includes(m));
  return { preloaded, modules };
}

function main() {
  const root = process.argv[2];
  if (!root) fail('give the build folder (DEVICE_BUILD_DIR, or $MODDABLE/build)');
  const bin = path.join(root, 'bin', VARIANT, NAME);
  const tmp = path.join(root, 'tmp', VARIANT, NAME);
  if (!fs.existsSync(path.join(tmp, 'mc.xs.c'))) {
    fail(`no Pico W build in ${root} (no ${path.join('tmp', VARIANT, NAME, 'mc.xs.c')}): run make device PLATFORM=pico/pico_w first`);
  }
  const linked = fs.existsSync(path.join(bin, 'xs_pico.elf'));
  const xs = xsRows(tmp, linked);
  const image = linked ? imageRows(bin, tmp) : { before: [], after: [] };
  const rows = [...image.before, ...xs, ...image.after];
  console.log(linked ? `${NAME}, ${VARIANT}: the linked image` : `${NAME}, ${VARIANT}: the JavaScript half only (no xs_pico.elf)`);
  console.log('');
  console.log('| | |');
  console.log('|---|---:|');
  for (const [what, value] of rows) console.log(`| ${what} | ${value} |`);
}

main();
