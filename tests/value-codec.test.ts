// Value codecs: every accepted form and every edge of docs/api.md §Requests and value forms and §Answers.
import { strict as assert } from 'node:assert';
import { decodeValue as decode, decodeInt, intType } from '../src/api/values/value-decode';
import { formatValue as format, intText } from '../src/api/values/value-format';
import { standardTextCodec } from '../util/text';
import { ApiError } from '../hal/kit/errors';
import { routeForms, type Route } from '../src/api/route/routes';
import type { HalValue } from '../hal/types';

const codec = standardTextCodec();
const decodeValue = (r: Route, v: unknown): HalValue => decode(r, v, codec);
const formatValue = (r: Route, v: HalValue): string => format(r, v, codec);

function route(entity: string, op: string, params = -1): Route {
  const forms = routeForms(entity, op)!;
  return params < 0 ? forms[0] : forms.find((r) => r.params.length === params)!;
}

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return ['', 'aErrMemory', 'aErrParam', '', '', '', '', '', '', '', '', '', '', 'aErrRange', 'aErrSize', '', 'aErrParse'][e.code] || String(e.code);
    throw e;
  }
  return 'no error';
}

const u8 = route('system', 'ledmaxbrightness'); // I8 u8, no range
const hb = route('system', 'hbinterval'); // I8 u8 1..255
const u16 = route('pointer', 'offset'); // I16 u16
const i32 = route('rail', 'voltagesetpoint'); // I32 i32
const u32 = route('usb', 'hubmode'); // I32 u32
const bool = route('system', 'led');
const l32 = route('usbsystem', 'modelist');
const ip = route('ethernet', 'staticipv4address');
const dns = route('ethernet', 'staticipv4dnsaddress');
const host = route('ethernet', 'hostname');
const name = route('system', 'name');

describe('value decoding (PUT)', () => {
  it('reads integers as JSON numbers, decimal strings and 0x-hex strings in any case', () => {
    assert.equal(decodeValue(u8, 17), 17);
    assert.equal(decodeValue(u8, '123'), 123);
    assert.equal(decodeValue(u8, '0x1F'), 31);
    assert.equal(decodeValue(u8, '0X1f'), 31);
    assert.equal(decodeValue(i32, '-5'), -5);
    assert.equal(decodeValue(u8, '007'), 7);
  });

  it('reads a hex string as a bit pattern of the width: 0xFFFFFFFF is -1 for i32', () => {
    assert.equal(decodeValue(i32, '0xFFFFFFFF'), -1);
    assert.equal(decodeValue(i32, '0x80000000'), -2147483648);
    assert.equal(decodeValue(u32, '0xFFFFFFFF'), 4294967295);
    assert.equal(decodeInt('0xFF', intType('i8'), 'x'), -1);
    assert.equal(errorOf(() => decodeValue(u8, '0x100')), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(u32, '0x1FFFFFFFF')), 'aErrRange');
  });

  it('holds decimals to the type range at both ends', () => {
    assert.equal(decodeValue(u8, 255), 255);
    assert.equal(decodeValue(u8, 0), 0);
    assert.equal(errorOf(() => decodeValue(u8, 256)), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(u8, -1)), 'aErrRange');
    assert.equal(decodeValue(u16, 65535), 65535);
    assert.equal(errorOf(() => decodeValue(u16, '65536')), 'aErrRange');
    assert.equal(decodeValue(i32, 2147483647), 2147483647);
    assert.equal(decodeValue(i32, -2147483648), -2147483648);
    assert.equal(errorOf(() => decodeValue(i32, 2147483648)), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(i32, '-2147483649')), 'aErrRange');
    assert.equal(decodeValue(u32, 4294967295), 4294967295);
    assert.equal(errorOf(() => decodeValue(u32, 4294967296)), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(u32, -1)), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(u32, '99999999999999999999999')), 'aErrRange');
  });

  it('then applies the range column', () => {
    assert.equal(decodeValue(hb, 1), 1);
    assert.equal(decodeValue(hb, '0xff'), 255);
    assert.equal(errorOf(() => decodeValue(hb, 0)), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(route('clock', 'month'), 13)), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(route('analog', 'bulkcapturesamplerate'), 6999)), 'aErrRange');
  });

  it('refuses fractions, exponents, empty strings, booleans, null, arrays and objects', () => {
    assert.equal(errorOf(() => decodeValue(u8, 1.5)), 'aErrParam');
    assert.equal(errorOf(() => decodeValue(u8, '1.5')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(u8, '1e3')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(u8, '')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(u8, ' 1')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(u8, '+1')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(u8, '0x')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(u8, '0xg')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(u8, '-')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(u8, true)), 'aErrParam');
    assert.equal(errorOf(() => decodeValue(u8, null)), 'aErrParam');
    assert.equal(errorOf(() => decodeValue(u8, [1])), 'aErrParam');
    assert.equal(errorOf(() => decodeValue(u8, {})), 'aErrParam');
  });

  it('reads booleans: true/false, 0/1, and strings true/false/1/0 in any case', () => {
    for (const v of [true, 1, 'true', 'True', 'TRUE', '1']) assert.equal(decodeValue(bool, v), true, String(v));
    for (const v of [false, 0, 'false', 'FALSE', 'False', '0']) assert.equal(decodeValue(bool, v), false, String(v));
    assert.equal(errorOf(() => decodeValue(bool, 2)), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(bool, -1)), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(bool, 'yes')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(bool, '')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(bool, null)), 'aErrParam');
    assert.equal(errorOf(() => decodeValue(bool, 0.5)), 'aErrParam');
    assert.equal(errorOf(() => decodeValue(bool, [true])), 'aErrParam');
  });

  it('reads L32 lists of integers or decimal/hex strings, each a u32, at most 64', () => {
    assert.deepEqual(decodeValue(l32, [1, '2', '0x3', 4294967295]), [1, 2, 3, 4294967295]);
    assert.deepEqual(decodeValue(l32, []), []);
    assert.equal(decodeValue(l32, new Array(64).fill(0)).toString(), new Array(64).fill(0).toString());
    assert.equal(errorOf(() => decodeValue(l32, new Array(65).fill(0))), 'aErrSize');
    assert.equal(errorOf(() => decodeValue(l32, [-1])), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(l32, ['x'])), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(l32, [true])), 'aErrParam');
    assert.equal(errorOf(() => decodeValue(l32, '1,2')), 'aErrParam');
  });

  it('reads L8 ipv4 as dotted quads or 4 bytes; several addresses only where the route takes them', () => {
    assert.deepEqual([...(decodeValue(ip, '192.168.1.20') as Uint8Array)], [192, 168, 1, 20]);
    assert.deepEqual([...(decodeValue(ip, [10, '0', '0x0', 1]) as Uint8Array)], [10, 0, 0, 1]);
    assert.deepEqual([...(decodeValue(dns, '8.8.8.8, 1.1.1.1') as Uint8Array)], [8, 8, 8, 8, 1, 1, 1, 1]);
    assert.deepEqual([...(decodeValue(dns, '8.8.4.4') as Uint8Array)], [8, 8, 4, 4]);
    assert.equal(errorOf(() => decodeValue(ip, '8.8.8.8,1.1.1.1')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(ip, '1.2.3')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(ip, '1.2.3.x')), 'aErrParse');
    assert.equal(errorOf(() => decodeValue(ip, '1.2.3.256')), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(ip, [1, 2, 3])), 'aErrSize');
    assert.equal(errorOf(() => decodeValue(ip, [1, 2, 3, 256])), 'aErrRange');
    assert.equal(errorOf(() => decodeValue(ip, 3232235796)), 'aErrParam');
  });

  it('reads L8 text as UTF-8 bytes, at most 64', () => {
    assert.deepEqual([...(decodeValue(host, 'dev-é') as Uint8Array)], [100, 101, 118, 45, 0xc3, 0xa9]);
    assert.equal((decodeValue(host, 'x'.repeat(64)) as Uint8Array).length, 64);
    assert.equal(errorOf(() => decodeValue(host, 'x'.repeat(65))), 'aErrSize');
    assert.equal(errorOf(() => decodeValue(host, new Array(65).fill(1))), 'aErrSize');
  });

  it('reads STR names: a string of at most 32 UTF-8 bytes without control characters', () => {
    assert.equal(decodeValue(name, 'bench rig #2'), 'bench rig #2');
    assert.equal(decodeValue(name, 'é'.repeat(16)), 'é'.repeat(16));
    assert.equal(errorOf(() => decodeValue(name, 'é'.repeat(17))), 'aErrSize');
    assert.equal(errorOf(() => decodeValue(name, 'a\nb')), 'aErrParam');
    assert.equal(errorOf(() => decodeValue(name, 5)), 'aErrParam');
  });
});

describe('value formatting (GET)', () => {
  const f = (r: Route, v: HalValue): unknown => JSON.parse(formatValue(r, v));

  it('int: value as the type reads it, rawValue the unsigned 32-bit word', () => {
    assert.deepEqual(f(i32, -1), { value: -1, rawValue: 4294967295 });
    assert.deepEqual(f(i32, 5000000), { value: 5000000, rawValue: 5000000 });
    assert.deepEqual(f(u32, 4294967295), { value: 4294967295, rawValue: 4294967295 });
    assert.deepEqual(f(u8, 200), { value: 200, rawValue: 200 });
    assert.equal(formatValue(u32, 0xc1000001), '{"value":3238002689,"rawValue":3238002689}');
  });

  it('writes every integer of -2^31 to 2^32 - 1 as JavaScript does (integers only, past 2^31 too)', () => {
    const edges = [-2147483648, -1, 0, 9, 10, 2147483647, 2147483648, 2147483649, 2147483650, 2999999999, 3000000000, 4294967290, 4294967295];
    for (const v of edges) assert.equal(intText(v), String(v));
    for (let i = 0; i < 20000; i++) {
      const v = Math.floor(Math.random() * 0x100000000);
      assert.equal(intText(v), String(v));
      assert.equal(intText(v | 0), String(v | 0));
    }
  });

  it('bool, ilist, str (ipv4, mac, text, hex, names)', () => {
    assert.deepEqual(f(bool, true), { value: true, rawValue: 1 });
    assert.deepEqual(f(bool, false), { value: false, rawValue: 0 });
    assert.deepEqual(f(l32, [1, 2, 3]), { value: '1, 2, 3', rawValue: [1, 2, 3] });
    assert.deepEqual(f(l32, []), { value: '', rawValue: [] });
    assert.deepEqual(f(ip, new Uint8Array([192, 168, 1, 20])), { value: '192.168.1.20', rawValue: [192, 168, 1, 20] });
    assert.deepEqual(f(dns, new Uint8Array([8, 8, 8, 8, 1, 1, 1, 1])), { value: '8.8.8.8, 1.1.1.1', rawValue: [8, 8, 8, 8, 1, 1, 1, 1] });
    assert.deepEqual(f(route('ethernet', 'macaddress'), new Uint8Array([0, 0x11, 0x22, 0xaa, 0xbb, 0xcc])), { value: '00:11:22:aa:bb:cc', rawValue: [0, 17, 34, 170, 187, 204] });
    assert.deepEqual(f(host, new Uint8Array([104, 0xc3, 0xa9])), { value: 'hé', rawValue: [104, 195, 169] });
    assert.deepEqual(f(route('hdbaset', 'serialnumber'), new Uint8Array([0, 1, 0xab])), { value: '0001ab', rawValue: [0, 1, 171] });
    assert.deepEqual(f(name, 'rig é'), { value: 'rig é', rawValue: [114, 105, 103, 32, 195, 169] });
  });
});
