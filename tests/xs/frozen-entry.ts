// XS bundle entry for tests/xs-frozen.test.ts: reports which module-level tables and class prototypes
// of the device-side core are not deep-frozen, as XS sees them (a preloaded module's unfrozen object
// is copied into RAM at boot). globalThis.handleCommand answers JSON: {checked, routes, unfrozen: paths that fail}.

import { ROUTE_LINES } from '../../src/api/route/route-table';
import { EXTENSION_ROWS } from '../../src/api/route/route-extensions';
import { ENTITY_NAMES, UNSUPPORTED_ENTITIES, allRoutes, routeForms } from '../../src/api/route/routes';
import { ApiError, ERROR_NAMES } from '../../hal/kit/errors';
import { ErrorWord } from '../../hal/kit/error-word';
import { MODULE_OFFSETS, READ_ONLY } from '../../hal/kit/value-limits';
import { intType } from '../../src/api/values/value-decode';
import { TimestampClock } from '../../src/api/values/envelope';
import { Api } from '../../src/api/api';
import { Connection } from '../../src/http/connection';
import { RequestParser } from '../../src/http/request-parser';
import { HttpResponse } from '../../src/http/request';
import { REASONS } from '../../src/http/response-writer';
import { DnsReader } from '../../src/dns/dns-reader';
import { DnsWriter } from '../../src/dns/dns-writer';
import { Instance, RecordSet } from '../../src/dns/mdns-records';
import { Composer } from '../../src/dns/mdns-composer';
import { MdnsResponder } from '../../src/dns/mdns-responder';

/** Paths under `value` (itself included) that are objects and not frozen. */
function unfrozen(value: unknown, path: string, out: string[], seen: object[]): void {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return;
  if (seen.indexOf(value) >= 0) return;
  seen.push(value);
  if (!Object.isFrozen(value)) out.push(path);
  const names = Object.getOwnPropertyNames(value);
  for (let i = 0; i < names.length; i++) {
    const d = Object.getOwnPropertyDescriptor(value, names[i]);
    if (d && 'value' in d && typeof d.value !== 'function') unfrozen(d.value, path + '.' + names[i], out, seen);
  }
}

/** `probe`: also walk a fresh unfrozen table, so the test sees that the walk can report one. */
function report(probe: boolean): string {
  const out: string[] = [];
  const seen: object[] = [];
  const tables: [string, unknown][] = [
    ['ROUTE_LINES', ROUTE_LINES], ['EXTENSION_ROWS', EXTENSION_ROWS], ['ENTITY_NAMES', ENTITY_NAMES],
    ['UNSUPPORTED_ENTITIES', UNSUPPORTED_ENTITIES], ['ERROR_NAMES', ERROR_NAMES], ['REASONS', REASONS],
    // The compiled route table is module-private; its forms and route records are what routeForms hands out.
    ['routeForms(system, serialnumber)', routeForms('system', 'serialnumber')],
    ['routeForms(powerdelivery, powerdataobject)', routeForms('powerdelivery', 'powerdataobject')],
    ['allRoutes() records', allRoutes().slice()],
    ['intType(u8)', intType('u8')], ['intType(i32)', intType('i32')],
    ['READ_ONLY', READ_ONLY], ['MODULE_OFFSETS', MODULE_OFFSETS],
  ];
  if (probe) tables.push(['probe', Object.freeze({ rows: [['x']] })]);
  for (const [name, value] of tables) {
    // allRoutes() returns a fresh array: only its elements come from the table.
    if (name === 'allRoutes() records') {
      const rs = value as unknown[];
      for (let i = 0; i < rs.length; i++) unfrozen(rs[i], name + '[' + i + ']', out, seen);
    } else {
      unfrozen(value, name, out, seen);
    }
  }
  const classes: [string, { prototype: object }][] = [
    ['Api', Api], ['Connection', Connection], ['RequestParser', RequestParser], ['HttpResponse', HttpResponse],
    ['TimestampClock', TimestampClock], ['ApiError', ApiError], ['ErrorWord', ErrorWord],
    ['DnsReader', DnsReader], ['DnsWriter', DnsWriter], ['Instance', Instance], ['RecordSet', RecordSet],
    ['Composer', Composer], ['MdnsResponder', MdnsResponder],
  ];
  for (const [name, cls] of classes) if (!Object.isFrozen(cls.prototype)) out.push(name + '.prototype');
  return JSON.stringify({ checked: tables.length + classes.length, routes: allRoutes().length, unfrozen: out });
}

(globalThis as unknown as { handleCommand: (msg: ArrayBuffer) => ArrayBuffer }).handleCommand = (msg: ArrayBuffer): ArrayBuffer => {
  const text = report(msg.byteLength > 0);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes.buffer as ArrayBuffer;
};
