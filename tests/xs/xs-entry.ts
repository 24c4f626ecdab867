// The device-side request path as the XS guard rail runs it: HTTP core + API core + simulated HAL,
// with a fixed clock. Bundled by esbuild (tests/xs/xs-main.ts sets globalThis.handleCommand) for
// xsnap-worker, and imported as-is by the parity test under Node for the reference bytes.
// No Node APIs and no timers here: it must run on XS.

import { Connection, type Transport } from '../../src/http/connection';
import { Api } from '../../src/api/api';
import { createSimModule } from '../../hal/sim/index';
import { ByteWriter, EV_CLOSE, EV_THROW, EV_WRITE, FLAG_KEEP, FLAG_RESET, decodeScript, latin1Bytes } from './script-format';

export const SERIAL_NUMBER = 0x1234abcd;
/** 2025-01-02T03:04:05.678Z: every timestamp in the output is this one, on both engines. */
export const FIXED_MS = 1735787045678;
const now = (): number => FIXED_MS;

/** Created on first use (and again on FLAG_RESET). */
let api: Api | undefined;
let keep: Connection | undefined;
/** Where the transports write; swapped per script. */
let out = new ByteWriter();

function makeApi(): Api {
  return new Api([createSimModule({ serialNumber: SERIAL_NUMBER, now })]);
}

const transport: Transport = {
  write(bytes: Uint8Array): void {
    out.byte(EV_WRITE);
    out.u32(bytes.length);
    out.bytes(bytes);
  },
  close(): void {
    out.byte(EV_CLOSE);
  },
};

function describe(e: unknown): string {
  if (e && typeof e === 'object' && 'message' in e) {
    const name = (e as { name?: unknown }).name;
    return (typeof name === 'string' ? name + ': ' : '') + String((e as { message: unknown }).message);
  }
  return String(e);
}

/** Runs one script (tests/xs/script-format.ts) and returns the events it caused. */
export function runScript(input: Uint8Array): Uint8Array {
  const { flags, ops } = decodeScript(input);
  if (flags & FLAG_RESET || !api) {
    api = makeApi();
    keep = undefined;
  }
  out = new ByteWriter();
  let conn: Connection;
  if (flags & FLAG_KEEP) {
    if (!keep || keep.closed) keep = new Connection(api, transport, { now });
    conn = keep;
  } else {
    conn = new Connection(api, transport, { now });
  }
  for (const op of ops) {
    try {
      if ('receive' in op) conn.receive(op.receive);
      else conn.end();
    } catch (e) {
      const text = latin1Bytes(describe(e));
      out.byte(EV_THROW);
      out.u32(text.length);
      out.bytes(text);
    }
  }
  const result = out.result();
  out = new ByteWriter();
  return result;
}
