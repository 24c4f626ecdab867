// The JavaScript functions of the profile of make pico-emu-figures (tools/pico-emu/board-js.mjs): read
// from the XS linker's mc.xs.c (lines in the form xsl writes them) and found in the board's flash.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

interface JsMap {
  machineSourceOf(image: string): string;
  jsFunctionsOf(source: string): [string, Uint8Array][];
  jsRangesIn(flash: Uint8Array, fns: [string, Uint8Array][]): { at: Uint16Array; found: number };
}
const TOOL = path.resolve(__dirname, '../../tools/pico-emu/board-js.mjs');

// A module record, its home slot, three functions (one named by a numeric ID and its key, two with
// the same byte code), a function with no byte code, and a module not preloaded.
const MC_XS_C = [
  'static const txU1 gxCode7[5];',
  'static const txU1 gxCode7[5] = {',
  '\t0x01, 0x02, 0x03, 0x04, 0x05',
  '};',
  '\t{ NULL, NULL, 0, (txS1*)gxCode7, 5, NULL, 0, "src/device/main", { XS_MAJOR_VERSION, XS_MINOR_VERSION, XS_PATCH_VERSION, 0 } },',
  '/* 0040 */\t{ (txSlot*)&gxHeap[41], {.ID = 2292 /* src/http/whole-head */, .flag = 0x8a, .kind = XS_REFERENCE_KIND}, .value = { .reference = (txSlot*)&gxHeap[900] } },',
  '/* 0500 */\t{ (txSlot*)&gxHeap[12058], {.ID = 0, .flag = 0x8b, .kind = XS_HOME_KIND}, .value = { .home = { NULL, (txSlot*)&gxHeap[900] } }},',
  '/* 0501 */\t{ (txSlot*)&gxHeap[500], {.ID = xsID_wholeHeadEnd, .flag = 0x8b, .kind = XS_CODE_X_KIND}, .value = { .code = { (txByte*)"\\x0c\\x03\\x9e\\x07\\xa5\\x01\\x86\\x11", (txSlot*)&gxHeap[10941] } } },',
  '/* 0502 */\t{ (txSlot*)&gxHeap[500], {.ID = 1653, .flag = 0x8b, .kind = XS_CODE_X_KIND}, .value = { .code = { (txByte*)"\\x0c\\x01\\x9e\\x01\\x86\\x44\\x03\\x02", NULL } } },',
  '/* 0503 */\t{ NULL, {.ID = xsID_copy, .flag = 0x8b, .kind = XS_CODE_X_KIND}, .value = { .code = { (txByte*)"\\x0c\\x01\\x9e\\x01\\x86\\x44\\x03\\x02", NULL } } },',
  '/* 0504 */\t{ (txSlot*)&gxHeap[17537], {.ID = XS_NO_ID, .flag = 0x8b, .kind = XS_CODE_X_KIND}, .value = { .code = { (txByte*)(gxNoCode), NULL } } },',
  '/* 0600 */\t{ (txSlot*)&gxHeap[601], {.ID = 1653, .flag = 0x87, .kind = XS_KEY_X_KIND}, .value = { .key = { "fieldName", 0x6fea4 } }},',
].join('\n');

describe('pico-emu profile: the JavaScript functions of an image', () => {
  let js: JsMap;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'js-map-'));
  before(async () => { js = (await import(TOOL)) as JsMap; });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('finds mc.xs.c beside the image, in the build folder the image came from', () => {
    const image = path.join(dir, 'bin', 'pico', 'pico_w', 'release', 'app', 'xs_pico.uf2');
    assert.equal(js.machineSourceOf(image), path.join(dir, 'tmp', 'pico', 'pico_w', 'release', 'app', 'mc.xs.c'));
  });

  it('names each function by its module and ID, and gives its byte code with the literal\'s NUL', () => {
    const source = path.join(dir, 'mc.xs.c');
    fs.writeFileSync(source, MC_XS_C);
    const fns = js.jsFunctionsOf(source);
    assert.deepEqual(fns.map(([name]) => name), ['src/http/whole-head wholeHeadEnd', 'src/http/whole-head fieldName', 'copy', 'src/device/main (module body)']);
    assert.deepEqual([...fns[0][1]], [0x0c, 0x03, 0x9e, 0x07, 0xa5, 0x01, 0x86, 0x11, 0]);
    assert.deepEqual([...fns[3][1]], [1, 2, 3, 4, 5]);
  });

  it('maps each byte of flash to the function whose byte code lies there; the same byte code to the first such function', () => {
    const source = path.join(dir, 'mc.xs.c');
    fs.writeFileSync(source, MC_XS_C);
    const fns = js.jsFunctionsOf(source);
    const flash = new Uint8Array(256).fill(0xff);
    flash.set(fns[0][1], 16);
    flash.set(fns[1][1], 100);
    flash.set(fns[3][1], 200);
    const { at, found } = js.jsRangesIn(flash, fns);
    assert.equal(found, 4);
    assert.equal(at[15], 0);
    assert.deepEqual([at[16], at[24], at[25]], [1, 1, 0]);
    assert.deepEqual([at[100], at[108]], [2, 2]);
    assert.deepEqual([at[200], at[204], at[205]], [4, 4, 0]);
  });
});
