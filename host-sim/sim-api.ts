// The simulator's request handler: the API core over its simulated modules, with what only Node offers
// here (the codec, the OpenAPI document and the console page read from resources/, an inflater for
// clients without gzip). host-sim/main.ts hands it to the server, as src/device/main.ts hands the
// module's to DeviceServer.

import { gunzipSync } from 'node:zlib';
import { Api } from '../src/api/api';
import type { AccessOptions } from '../src/api/access/access';
import { nodeRandom, nodeSha256 } from './sha256';
import type { ModuleHal } from '../hal/types';
import { nodeTextCodec } from './server';
import { simOpenApi } from './openapi-source';
import { simConsolePage } from './console-source';

export interface SimApiOptions {
  devices: ModuleHal[];
  /** Allowed hosts, CORS origins, token (src/api/access/access.ts). */
  access?: AccessOptions;
  /** Event streams at once: as many as the server's connections (default 256). */
  maxStreams?: number;
}

export function simApi(options: SimApiOptions): Api {
  return new Api(options.devices, {
    sha256: nodeSha256, random: nodeRandom, ...options.access, codec: nodeTextCodec, openapi: simOpenApi(), maxStreams: options.maxStreams ?? 256, gunzip: gunzipSync,
    consoleGzip: simConsolePage(),
  });
}
