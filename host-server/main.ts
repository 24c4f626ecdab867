// `make host-server`: one endpoint (port 9005) for every module of a lab (docs/lab.md).
//   node build/host-server/main.js [--port 9005] [--host 127.0.0.1] [--module http://ADDR[:PORT]]...
//     [--no-discovery] [--tokens FILE] [--module-connections 4] [--queue 64] [--connections 512] [--allow-host NAME]...
//     [--cors ORIGIN,...] [--token TOKEN [--token-reads]]

import { parseOptions, UsageError, USAGE, type HostConfig } from './options';
import { Registry } from './registry';
import { startHostServer } from './server';
import { browse, type Discovery } from './discovery';
import { reachable } from '../host-sim/reachable';

/** One line on stderr and exit status 2: what was wrong and, where it helps, what to do. */
function fail(message: string): never {
  console.error(`error: ${message}`);
  process.exit(2);
}

function listenError(e: NodeJS.ErrnoException, config: HostConfig): string {
  if (e.code === 'EADDRINUSE') return `port ${config.port} is busy: pick another with --port N, or --port 0 for any free one`;
  if (e.code === 'EADDRNOTAVAIL') return `${config.host} is not an address of this machine: pick one with --host ADDR`;
  if (e.code === 'EACCES') return `port ${config.port} needs privileges: pick one above 1023 with --port N`;
  return `cannot listen on ${config.host}:${config.port}: ${e.message}`;
}

async function main(): Promise<void> {
  let config: HostConfig;
  try {
    config = parseOptions(process.argv.slice(2));
  } catch (e) {
    if (e instanceof UsageError) fail(`${e.message} (--help lists the options)`);
    throw e;
  }
  if (config.help) {
    console.log(USAGE);
    return;
  }
  const registry = new Registry(config.moduleConnections, config.queue, config.tokens);
  for (const origin of config.modules) registry.add(origin);
  const running = await startHostServer({
    port: config.port, host: config.host, registry, access: config.access, tokens: config.tokens, maxConnections: config.connections,
  })
    .catch((e: NodeJS.ErrnoException) => fail(listenError(e, config)));
  let discovery: Discovery | null = null;
  if (config.discovery) discovery = browse(registry, (line) => console.error(line));
  const { base, others } = reachable(config.host, running.port);
  console.log(`host server: ${base}/api/v1/device lists the modules; ${base}/api/v1/targets serves Prometheus`);
  if (others) console.log(`listening on every address (${config.host}); from other machines: ${others.map((o) => o + '/').join(' ') || 'none (no other address here)'}`);
  console.log(`modules: ${config.modules.length ? config.modules.join(', ') : 'none named'}; ` +
    `DNS-SD (_brainstem._tcp): ${config.discovery ? 'browsing' : 'off'}; tokens for ${config.tokens.size} module(s)`);
  const stop = (): void => {
    discovery?.close();
    void Promise.all([running.close(), registry.close()]).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

void main();
