// XS bundle entry for tools/bench-events-xs.mjs: one event stream (and the console page) on the real
// device-side code (HTTP core + API core + simulated HAL) with a clock the bench moves. No Node APIs.
// handleCommand(text) answers the number of bytes written:
//   open <query>  a new Connection asks for /api/v1/device/events?<query>
//   tick <ms>     the clock moves on <ms>, then the server timer's call (Connection.checkTimeout)
//   live <0|1>    whether the module's simulated time moves with it (its physics run on every read)
//   page          GET / on a new Connection (gzip)
//   metrics       GET /metrics on a new Connection (every piece at once: the transport always has room)
//   metrics const the same over the module's entities with reads that answer a constant (the exposition's own cost)
//   gzip <bytes>  the console page's gzip bytes (resources/console.html.gz, sent by the host as a module's
//                 firmware maps its resource); before any other command, as the Api is made with them
//   close         the stream's client goes
//   last          (answers the bytes the previous command wrote, not a count)

import { Connection, type Transport } from '../../src/http/connection';
import { Api } from '../../src/api/api';
import { createSimModule } from '../../hal/sim/index';
import type { EntityHal, ModuleHal } from '../../hal/types';

let t = 1735787045678;
const now = (): number => t;
/** The simulated module's clock: fixed unless the bench asks for simulated time to pass (`live`). */
let moduleT = t;
let live = false;
const moduleNow = (): number => moduleT;
let written = 0;
/** What the last command wrote (kept by reference; `last` answers it). */
let wrote: Uint8Array[] = [];
const transport: Transport = {
  write(bytes: Uint8Array): void { written += bytes.length; wrote.push(bytes); },
  close(): void { /* counted by the bench through `written` only */ },
};
let api: Api | undefined;
/** The console page the Api serves (the `gzip` command); without it GET / is a 404. */
let page: Uint8Array | undefined;
let stream: Connection | undefined;

let constApi: Api | undefined;
let module: ModuleHal | undefined;

/** The module's entities with the same counts and capabilities, every read answering 1. */
function constantReads(_api: Api): ModuleHal {
  const entities: { [name: string]: EntityHal } = {};
  const real = module!.entities as { [name: string]: EntityHal };
  for (const name in real) {
    const hal = real[name];
    entities[name] = { count: hal.count, supports: (op) => hal.supports(op), limit: (i, p) => hal.limit(i, p), get: () => 1, set: () => undefined, run: () => undefined } as EntityHal;
  }
  return { serialNumber: module!.serialNumber, entities, now: moduleNow, afterResponse: () => undefined };
}

function bytesOf(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

function run(command: string): number {
  module ??= createSimModule({ serialNumber: 0x1234abcd, now: moduleNow });
  api ??= new Api([module], { consoleGzip: page });
  written = 0;
  const space = command.indexOf(' ');
  const verb = space < 0 ? command : command.slice(0, space);
  const arg = space < 0 ? '' : command.slice(space + 1);
  if (verb === 'open') {
    stream = new Connection(api, transport, { now });
    stream.receive(bytesOf(`GET /api/v1/device/events?${arg} HTTP/1.1\r\nHost: 192.168.1.50\r\n\r\n`));
    stream.checkTimeout(); // the first poll starts the schedule
  } else if (verb === 'tick') {
    t += Number(arg);
    if (live) moduleT = t;
    stream!.checkTimeout();
  } else if (verb === 'live') {
    live = arg === '1';
  } else if (verb === 'page') {
    new Connection(api, transport, { now }).receive(bytesOf('GET / HTTP/1.1\r\nHost: 192.168.1.50\r\nAccept-Encoding: gzip\r\n\r\n'));
  } else if (verb === 'metrics') {
    if (arg === 'const') constApi ??= new Api([constantReads(api)]);
    new Connection(arg === 'const' ? constApi! : api, transport, { now }).receive(bytesOf('GET /metrics HTTP/1.1\r\nHost: 192.168.1.50\r\n\r\n'));
  } else if (verb === 'close') {
    stream!.end();
    stream = undefined;
  }
  return written;
}

(globalThis as unknown as { handleCommand: (msg: ArrayBuffer) => ArrayBuffer }).handleCommand = (msg: ArrayBuffer): ArrayBuffer => {
  const bytes = new Uint8Array(msg);
  if (bytes.length === 4 && bytes[0] === 108 && bytes[1] === 97) { // 'last'
    let n = 0;
    for (const b of wrote) n += b.length;
    const all = new Uint8Array(n);
    n = 0;
    for (const b of wrote) { all.set(b, n); n += b.length; }
    return all.buffer as ArrayBuffer;
  }
  wrote = [];
  if (bytes.length > 5 && bytes[0] === 103 && bytes[1] === 122 && bytes[2] === 105 && bytes[3] === 112 && bytes[4] === 32) { // 'gzip '
    if (api) throw new Error('gzip: the page must come before the first request');
    page = bytes.slice(5);
    return bytesOf(String(page.length)).buffer as ArrayBuffer;
  }
  let text = '';
  for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
  return bytesOf(String(run(text))).buffer as ArrayBuffer;
};
