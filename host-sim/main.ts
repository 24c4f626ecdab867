// `make sim`: the desktop simulator. Serves the API for simulated modules on 127.0.0.1:9005.
//   node build/host-sim/main.js [--port 9005] [--host 127.0.0.1] [--serial 0x1234ABCD] [--cors]
//                               [--max-connections 64]

import { parseArgs } from 'node:util';
import { startServer } from './server';
import { createSimModule } from '../hal/sim/index';
import { parseSerial, serialText } from '../src/api/path-match';

const USAGE = `usage: node build/host-sim/main.js [options]
  --port N              TCP port (default 9005)
  --host ADDR           address to listen on (default 127.0.0.1)
  --serial HEX          serial number of the simulated module (default 0x1234ABCD)
  --cors                answer CORS preflights, allow any origin
  --max-connections N   connections served at once (default 64)
  --help                this text`;

function fail(message: string): never {
  console.error(`error: ${message}\n${USAGE}`);
  process.exit(2);
}

function intOption(text: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min || n > max) fail(`--${name} must be an integer ${min}..${max}, got '${text}'`);
  return n;
}

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        serial: { type: 'string' },
        cors: { type: 'boolean' },
        'max-connections': { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
    }));
  } catch (e) {
    fail((e as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = intOption(values.port, 'port', 9005, 0, 65535);
  const host = values.host ?? '127.0.0.1';
  let serialNumber = 0x1234abcd;
  if (values.serial !== undefined) {
    serialNumber = parseSerial(values.serial);
    if (serialNumber < 0 || serialNumber > 0xffffffff) fail(`--serial must be up to 8 hex digits, got '${values.serial}'`);
  }
  const devices = [createSimModule({ serialNumber })];
  const running = await startServer({
    port, host, devices, cors: values.cors === true,
    maxConnections: intOption(values['max-connections'], 'max-connections', 64, 1, 100000),
  }).catch((e: Error) => fail(`cannot listen on ${host}:${port}: ${e.message}`));
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${running.port}`;
  console.log(`device simulator: serial ${serialText(serialNumber)} at ${base}/api/v1/device`);
  console.log(`try: curl ${base}/api/v1/device/system/0/serialnumber`);
  const stop = (): void => {
    void running.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
