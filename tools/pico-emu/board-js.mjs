// The JavaScript functions of a Moddable image, for the profile of make pico-emu-figures: the XS linker
// (xsl) writes the machine it preloaded into mc.xs.c, where each function's byte code is the string
// literal of its code slot (XS_CODE_X_KIND, named by the slot's ID) and its module is the one its home
// slot (XS_HOME_KIND) points at; the modules not preloaded keep their byte code in gxCode arrays. The C
// compiler puts those bytes in flash, so a function's byte code is where its bytes are found in the
// flash the board runs. XS's interpreter reads the byte code one byte at a time (mxNextCode in
// xs/sources/xsRun.c), so the last byte code read names the JavaScript function that runs.
import fs from 'node:fs';
import path from 'node:path';

/** mc.xs.c of an image: <build>/bin/<platform>/<sub>/release/<name>/xs_pico.uf2 -> <build>/tmp/.../mc.xs.c */
export function machineSourceOf(image) {
  const dir = path.dirname(image);
  const release = path.basename(path.dirname(dir));
  const sub = path.basename(path.dirname(path.dirname(dir)));
  const platform = path.basename(path.dirname(path.dirname(path.dirname(dir))));
  const build = path.dirname(path.dirname(path.dirname(path.dirname(path.dirname(dir)))));
  return path.join(build, 'tmp', platform, sub, release, path.basename(dir), 'mc.xs.c');
}

/** The bytes of a C string literal's body (mc.xs.c writes byte code as \xHH escapes). */
function literalBytes(body) {
  const out = [];
  const simple = { n: 10, r: 13, t: 9, '\\': 92, '"': 34, "'": 39, '0': 0 };
  for (let i = 0; i < body.length; i++) {
    if (body[i] !== '\\') { out.push(body.charCodeAt(i)); continue; }
    const c = body[++i];
    if (c === 'x') { out.push(parseInt(body.substr(i + 1, 2), 16)); i += 2; } else if (c in simple) out.push(simple[c]);
    else throw new Error(`mc.xs.c: unknown escape \\${c}`);
  }
  out.push(0); // the literal's terminating NUL
  return Uint8Array.from(out);
}

const SLOT = /^\/\* (\d+) \*\/\t\{ (?:\(txSlot\*\)&gxHeap\[(\d+)\]|NULL), \{\.ID = ([^,]+), \.flag = 0x[0-9a-f]+, \.kind = (XS_[A-Z_]+)\}, \.value = (.*)$/;

/** [name, bytes][] of every preloaded function and module not preloaded, from mc.xs.c. */
export function jsFunctionsOf(source) {
  const text = fs.readFileSync(source, 'latin1');
  const slots = new Map();
  const moduleAt = new Map(); // heap index of a module's instance -> its name
  const keys = new Map(); // numeric ID -> key
  const arrays = []; // [name, bytes] of the byte code of modules not preloaded
  const arrayNames = new Map();
  for (const m of text.matchAll(/\{ [^\n]*?\(txS1\*\)(gxCode\d+), \d+, [^\n]*?"([^"]+)", \{ XS_MAJOR_VERSION/g)) arrayNames.set(m[1], m[2]);
  for (const m of text.matchAll(/static const txU1 (gxCode\d+)\[\d+\] = \{([^}]*)\}/g)) {
    arrays.push([`${arrayNames.get(m[1]) ?? m[1]} (module body)`, Uint8Array.from(m[2].match(/0x[0-9a-f]{2}/gi).map((h) => parseInt(h, 16)))]);
  }
  for (const line of text.split('\n')) {
    const m = SLOT.exec(line);
    if (!m) continue;
    const [, index, next, id, kind, value] = m;
    slots.set(Number(index), { next: next && Number(next), id, kind, value });
    const module = /^(\d+) \/\* ([^*]+) \*\/$/.exec(id);
    const ref = /\.reference = \(txSlot\*\)&gxHeap\[(\d+)\]/.exec(value);
    if (module && kind === 'XS_REFERENCE_KIND' && ref) moduleAt.set(Number(ref[1]), module[2]);
    const key = /\.key = \{ "([^"]*)"/.exec(value);
    if (kind === 'XS_KEY_X_KIND' && key && /^\d+$/.test(id)) keys.set(id, key[1]);
  }
  const fns = [];
  for (const slot of slots.values()) {
    if (slot.kind !== 'XS_CODE_X_KIND') continue;
    const literal = /\.code = \{ \(txByte\*\)"((?:[^"\\]|\\.)*)"/.exec(slot.value);
    if (!literal) continue; // gxNoCode: a function with no byte code
    const name = slot.id.startsWith('xsID_') ? slot.id.slice(5) : keys.get(slot.id) ?? '(anonymous)';
    const home = slot.next !== undefined ? slots.get(slot.next) : undefined;
    const moduleRef = home?.kind === 'XS_HOME_KIND' ? /\.home = \{ [^,]+, \(txSlot\*\)&gxHeap\[(\d+)\]/.exec(home.value) : null;
    const module = moduleRef ? moduleAt.get(Number(moduleRef[1])) : undefined;
    fns.push([module ? `${module} ${name}` : name, literalBytes(literal[1])]);
  }
  return [...fns, ...arrays];
}

/**
 * Where each function's byte code lies in `flash` (the board's flash, offset 0 at 0x10000000): a
 * Uint16Array with, for each byte of flash, 1 + the index in `fns` of the function there (0: none).
 * Functions whose byte code is the same (one literal in flash) share the first one's name.
 */
export function jsRangesIn(flash, fns) {
  const buffer = Buffer.from(flash.buffer, flash.byteOffset, flash.length);
  const at = new Uint16Array(flash.length);
  let found = 0;
  fns.forEach(([, bytes], i) => {
    const start = buffer.indexOf(bytes);
    if (start < 0) return;
    found++;
    for (let o = start; o < start + bytes.length; o++) if (!at[o]) at[o] = i + 1;
  });
  return { at, found };
}
