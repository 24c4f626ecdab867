// Lets device code (src/device, hal/device) run under Node: the module specifiers only XS knows
// (ECMA-419 io, Moddable's timer/time/preference, mc/config, the platform layer) resolve to the fakes in
// this folder, and `trace` is a global that records into net.traces. Import this first in a test.
// (tsconfig.json maps the same specifiers with `paths`, so the device code type-checks against them.)

import Module from 'node:module';
import { net } from './net';

const FAKES: Record<string, string> = {
  'embedded:io/socket/listener': './listener',
  'embedded:io/socket/tcp': './tcp',
  'embedded:io/digital': './digital',
  'embedded:io/analog': './analog',
  'embedded:io/pwm': './pwm',
  'embedded:io/serial': './serial',
  'preference': './preference',
  'file': './file',
  'timer': './timer',
  'time': './time',
  'mc/config': './config',
  'hal/device/platform': './platform',
  'Resource': './resource',
  'embedded:network/interface/wifi': './wifi',
  'sntp': './sntp',
  'watchdog': './watchdog',
  'entropy': './entropy',
  'embedded:storage/flash': './flash',
  'embedded:update': './update',
  'crypt': './crypt',
  'ota-state': './ota-state',
  // The ESP32's firmware HAL, over the fakes above; named so its relative imports resolve under XS too.
  'hal/device/firmware/platform': '../../hal/device/firmware/esp32',
  'embedded:io/socket/udp': './udp',
  // Not a fake: the ESP32 socket (on the fake UDP socket).
  'src/device/mdns-socket/platform': '../../src/device/mdns-socket/ecma419',
  'src/device/link/platform': '../../src/device/link/wifi',
};

type Resolve = (request: string, ...rest: unknown[]) => string;
const M = Module as unknown as { _resolveFilename: Resolve; _fakesInstalled?: boolean };
if (!M._fakesInstalled) {
  M._fakesInstalled = true;
  const original = M._resolveFilename;
  M._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
    const fake = FAKES[request];
    return fake ? require.resolve(fake) : original.call(this, request, ...rest);
  };
  (globalThis as { trace?: (text: string) => void }).trace = (text: string) => { net.traces.push(text); };
}

export { net };
