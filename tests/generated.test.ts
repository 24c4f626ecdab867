// Every generated file is what `make gen` makes from its source today: the generators write into a
// temporary folder and each file is compared byte for byte with the committed one (a .gz file by what it holds). A change of
// spec/operations.tsv, web/, a simulator profile or a board profile of manifest.json without `make gen`
// fails here, naming the stale file.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import type { EntityValues } from '../hal/entity-values';
import type { ValuesOf } from '../hal/types';

const ROOT = path.resolve(__dirname, '../..');
const GENERATORS = ['tools/gen-route-table.mjs', 'tools/build-console.mjs', 'tools/gen-openapi.mjs'];
/** What the generators write (tools/gen-out.mjs GENERATED), read in `before`. */
let GENERATED: readonly string[] = [];

function generate(out: string, generator: string, extra: string[] = []): void {
  const r = spawnSync(process.execPath, [path.join(ROOT, generator), '--out', out, ...extra], { encoding: 'utf8', cwd: ROOT });
  assert.equal(r.status, 0, `${generator} failed: ${r.stderr}`);
}

/** A file's contents; a .gz file's decompressed, so another zlib build's framing does not count. */
function contents(file: string): Buffer {
  const bytes = fs.readFileSync(file);
  return file.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes;
}

/** The generated files under `out` that differ from the committed ones, with what `make gen` fixes. */
function stale(out: string, files: readonly string[]): string[] {
  return files.filter((f) => {
    const made = path.join(out, f);
    assert.ok(fs.existsSync(made), `${f} was not generated`);
    return !contents(made).equals(contents(path.join(ROOT, f)));
  }).map((f) => `${f} differs from what its generator makes: run make gen`);
}

describe('generated files (make gen)', function () {
  this.timeout(30_000);
  let out = '';
  before(async () => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), 'gen-'));
    GENERATED = ((await import(path.join(ROOT, 'tools/gen-out.mjs'))) as { GENERATED: string[] }).GENERATED;
  });
  after(() => fs.rmSync(out, { recursive: true, force: true }));

  it('the generators write exactly the listed files', () => {
    for (const g of GENERATORS) generate(out, g);
    assert.ok(GENERATED.length >= 7, 'route table, entity ops, value map, console page (2), OpenAPI documents (2)');
    const written: string[] = [];
    const walk = (dir: string): void => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p); else written.push(path.relative(out, p).split(path.sep).join('/'));
      }
    };
    walk(out);
    assert.deepEqual(written.sort(), [...GENERATED].sort());
  });

  it('every committed generated file is byte-equal to a fresh regeneration', () => {
    assert.deepEqual(stale(out, GENERATED), []);
  });

  it('is not blind: a changed spec/operations.tsv is caught in the files made from it', () => {
    const changed = path.join(out, 'changed.tsv');
    const tsv = fs.readFileSync(path.join(ROOT, 'spec/operations.tsv'), 'utf8');
    const edited = tsv.replace('rail\tcurrent\t\tint\t-\ti32\t', 'rail\tcurrent\t\tint\t-\tu32\t')
      .replace(/\nrail\tclearfaults\t[^\n]*/, '');
    assert.notEqual(edited, tsv);
    fs.writeFileSync(changed, edited);
    const other = path.join(out, 'other');
    generate(other, GENERATORS[0], ['--spec', changed]);
    assert.deepEqual(stale(other, ['src/api/route/route-table.ts', 'hal/entity-ops.ts', 'hal/entity-values.ts']), [
      'src/api/route/route-table.ts differs from what its generator makes: run make gen',
      'hal/entity-ops.ts differs from what its generator makes: run make gen',
      'hal/entity-values.ts differs from what its generator makes: run make gen',
    ]);
  });

  it('is not blind: a changed board profile in manifest.json is caught in the device OpenAPI document', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'manifest.json'), 'utf8'));
    const board = manifest.platforms.esp32.config.board;
    board.digital = board.digital.slice(0, 4); // digital/stateall: 4 bits, not 8
    const changed = path.join(out, 'manifest.json');
    fs.writeFileSync(changed, JSON.stringify(manifest));
    const other = path.join(out, 'other-board');
    generate(other, 'tools/gen-openapi.mjs', ['--manifest', changed]);
    assert.deepEqual(stale(other, ['resources/openapi-sim.json.gz', 'resources/openapi-device.json.gz']), [
      'resources/openapi-device.json.gz differs from what its generator makes: run make gen',
    ]);
  });
});

describe('the value map (hal/entity-values.ts)', () => {
  type ValueType = (type: string, get: string, put: string, where: string) => string;
  const load = async (): Promise<ValueType> =>
    ((await import(path.join(ROOT, 'tools/gen-entity-types.mjs'))) as { valueType: ValueType }).valueType;

  it('maps every type of the table to its TypeScript type', async () => {
    const valueType = await load();
    const cases: [string, string, string, string][] = [
      ['u8', 'int', 'I8', 'number'], ['i32', 'int', '-', 'number'], ['u16', 'int', 'I16', 'number'],
      ['bool', 'bool', 'BOOL', 'boolean'], ['list:u32', 'ilist', 'L32', 'readonly number[]'],
      ['bytes:ipv4', 'str', 'L8', 'Uint8Array'], ['bytes:mac', 'str', '-', 'Uint8Array'], ['string', 'str', 'STR', 'string'],
      ['', 'none', '-', 'void'], ['', '-', 'I8', 'number'],
    ];
    for (const [type, get, put, ts] of cases) assert.equal(valueType(type, get, put, 'x/y'), ts, `${type} (${get}, ${put})`);
    assert.throws(() => valueType('f32', 'int', '-', 'rail/x'), /rail\/x: no value type for type "f32"/);
    assert.throws(() => valueType('', '-', 'I32', 'rail/x'), /no value type/);
  });

  it('types operations as the contract does (checked by the compiler, read back at run time)', () => {
    const rail: Pick<EntityValues['rail'], 'voltage' | 'enable'> = { voltage: 5_000_000, enable: true };
    const eth: Pick<EntityValues['ethernet'], 'hostname' | 'staticipv4dnsaddress'> = { hostname: new Uint8Array(3), staticipv4dnsaddress: new Uint8Array(8) };
    const usb: Pick<EntityValues['usbsystem'], 'modelist'> = { modelist: [1, 2] };
    const port: Pick<EntityValues['port'], 'name'> = { name: 'A' };
    const store: Pick<ValuesOf<'store'>, 'slotdata'> = { slotdata: new Uint8Array(1) }; // the extension
    assert.deepEqual([typeof rail.voltage, typeof rail.enable, eth.hostname instanceof Uint8Array, usb.modelist.length, typeof port.name, store.slotdata.length],
      ['number', 'boolean', true, 2, 'string', 1]);
  });
});
