// `make sim`: the desktop simulator. Serves the API for simulated modules on 127.0.0.1:9005.
//   node build/host-sim/main.js [--port 9005] [--host 127.0.0.1] [--serial 0x1234ABCD] [--profile NAME]...
//     [--devices N] [--state-file PATH | --no-state] [--cors ORIGIN,...] [--allow-host NAME]...
//     [--token TOKEN [--token-reads] [--auth digest]] [--max-connections 256] [--answer-time MS] [--announce]
// Options are parsed in options.ts, modules and their saved state built in devices.ts.

import { startServer } from './server';
import { simApi } from './sim-api';
import { buildDevices } from './devices';
import { parseOptions, UsageError, USAGE, type SimConfig } from './options';
import { fail, listenError } from './cli';
import { serialText } from '../src/api/route/serial';
import { announce, type Announcer } from './announce';
import { reachable } from './reachable';

async function main(): Promise<void> {
  let config: SimConfig;
  try {
    config = parseOptions(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) fail(e.message, e.hints);
    throw e;
  }
  if (config.help) {
    console.log(USAGE);
    return;
  }
  const { host, port } = config;
  const built = buildDevices(config.devices, config.state);
  const handler = simApi({ devices: built.map((d) => d.module), access: config.access, maxStreams: config.maxConnections });
  const running = await startServer({ port, host, handler, maxConnections: config.maxConnections, answerTimeMs: config.answerTimeMs }).catch((e: NodeJS.ErrnoException) => fail(listenError(e, host, port)));
  const { base, others } = reachable(host, running.port);
  if (built.length === 1) {
    const m = built[0].module;
    console.log(`device simulator: serial ${serialText(m.serialNumber)} (${m.profile.name}, model ${m.profile.model}) at ${base}/api/v1/device`);
  } else {
    console.log(`device simulator: ${built.length} modules at ${base}/api/v1/device (the serial is required in paths)`);
  }
  for (const d of built) {
    const m = d.module;
    console.log(`  ${serialText(m.serialNumber)} ${m.profile.name} (model ${m.profile.model}), saved settings: ${d.stateLocation}`);
  }
  const a = config.access;
  console.log(`access: ${a.token ? `token required for writes${a.tokenReads ? ' and reads' : ''} (${a.auth === 'digest' ? 'HTTP Digest only' : 'HTTP Digest or Bearer'})` : 'no token'}; ` +
    `CORS origins: ${a.cors?.length ? a.cors.join(', ') : 'none'}; extra hosts: ${a.allowHosts?.length ? a.allowHosts.join(', ') : 'none'}`);
  console.log(`web console: ${base}/`);
  if (others) console.log(`listening on every address (${host}); from other machines: ${others.map((o) => o + '/').join(' ') || 'none (no other address here)'}`);
  let announcer: Announcer | null = null;
  if (config.announce) {
    announcer = await announce(built.map((d) => d.module), running.port, !!a.token, (line) => console.error(line),
      { host, named: (i, name) => handler.setAnnouncedName(i, name) });
    if (announcer.names.length) console.log(`announced (DNS-SD): ${announcer.names.map((n) => n + '.local').join(', ')}`);
  }
  const first = serialText(built[0].module.serialNumber);
  console.log(`try: curl ${base}/api/v1/device/${built.length === 1 ? '' : first + '/'}system/0/serialnumber`);
  const stop = (): void => {
    void Promise.all([running.close(), announcer?.close()]).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
