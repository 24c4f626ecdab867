// Tests start the simulator's server the way host-sim/main.ts does: the simulated modules' API
// (host-sim/sim-api.ts) handed to startServer. `api` is that handler, for tests that look inside it.

import { startServer, type RunningServer, type ServerOptions } from '../host-sim/server';
import { simApi, type SimApiOptions } from '../host-sim/sim-api';
import type { Api } from '../src/api/api';

export type SimServerOptions = Omit<ServerOptions, 'handler'> & Omit<SimApiOptions, 'maxStreams'>;
export type SimServer = RunningServer & { readonly api: Api };

export async function startSimServer(options: SimServerOptions): Promise<SimServer> {
  const { devices, access, ...rest } = options;
  const api = simApi({ devices, access, maxStreams: rest.maxConnections });
  return { ...(await startServer({ ...rest, handler: api })), api };
}
