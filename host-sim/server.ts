// The desktop simulator's TCP server: Node sockets feeding the same Connection core the device runs.
// Node-only code lives here and nowhere under src/ or hal/.

import * as net from 'node:net';
import { gunzipSync } from 'node:zlib';
import { Connection } from '../src/http/connection';
import { Api } from '../src/api/api';
import type { AccessOptions } from '../src/api/access';
import type { ModuleHal } from '../hal/types';
import type { TextCodec } from '../src/util/text';
import { simOpenApi } from './openapi-source';

/** Node's Buffer encodes and decodes UTF-8 several times faster than TextEncoder/TextDecoder. */
export const nodeTextCodec: TextCodec = {
  encode: (text) => Buffer.from(text, 'utf8'),
  decode: (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'),
  byteLength: (text) => Buffer.byteLength(text, 'utf8'),
};

export interface ServerOptions {
  port: number;
  host: string;
  devices: ModuleHal[];
  /** Allowed hosts, CORS origins, token (src/api/access.ts). */
  access?: AccessOptions;
  /** Most connections served at once; more are answered 503 and closed. */
  maxConnections?: number;
  /** Close a keep-alive connection idle this long (ms); default the core's 30 s. */
  idleTimeoutMs?: number;
  /** How long a closing socket may wait for its peer to take the last answer (ms); default 5000. */
  lingerMs?: number;
}

export interface RunningServer {
  readonly server: net.Server;
  readonly port: number;
  readonly api: Api;
  /** Open connections, and response bytes queued in them that clients have not read yet. */
  stats(): { connections: number; bufferedBytes: number };
  close(): Promise<void>;
}

/** Start serving; resolves once listening (port 0 picks a free port). */
export function startServer(options: ServerOptions): Promise<RunningServer> {
  const maxConnections = options.maxConnections ?? 256;
  // HOOK(console): as many event streams as connections; the console page inflated for clients without gzip.
  const api = new Api(options.devices, {
    ...options.access, codec: nodeTextCodec, openapi: simOpenApi(), maxStreams: maxConnections, gunzip: gunzipSync,
  });
  const lingerMs = options.lingerMs ?? 5000;
  const connections = new Set<Connection>();
  const sockets = new Set<net.Socket>();

  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    socket.on('error', () => socket.destroy());
    const transport = {
      write(bytes: Uint8Array): void {
        // A client that does not read its answers makes us stop reading its requests.
        if (!socket.write(bytes)) socket.pause();
      },
      backlog: (): number => socket.writableLength, // HOOK(console): event streams skip ticks past it
      close(): void {
        socket.end();
        // Nothing more is read; a peer that never takes its last answer must not hold a connection
        // slot for ever.
        socket.pause();
        socket.setTimeout(lingerMs, () => socket.destroy());
      },
    };
    const connection = new Connection(api, transport, {
      idleTimeoutMs: options.idleTimeoutMs, codec: nodeTextCodec, peer: socket.remoteAddress ?? '',
    });
    if (connections.size >= maxConnections) {
      connection.refuse(503, `server busy: ${maxConnections} connections already open`);
      return;
    }
    connections.add(connection);
    sockets.add(socket);
    socket.on('drain', () => socket.resume());
    socket.on('data', (chunk) => connection.receive(chunk));
    socket.on('end', () => connection.end());
    socket.on('close', () => {
      connections.delete(connection);
      sockets.delete(socket);
      connection.end();
    });
  });

  // One timer for every connection's header (408) and idle timeouts, and (HOOK console) the ticks
  // of event streams: 100 ms, the shortest event interval.
  const timer = setInterval(() => {
    for (const c of connections) c.checkTimeout();
  }, 100);
  timer.unref();

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const address = server.address() as net.AddressInfo;
      resolve({
        server,
        port: address.port,
        api,
        stats: () => {
          let bufferedBytes = 0;
          for (const s of sockets) bufferedBytes += s.writableLength;
          return { connections: sockets.size, bufferedBytes };
        },
        close: () => new Promise<void>((done) => {
          clearInterval(timer);
          server.close(() => done());
          for (const s of sockets) s.destroy();
        }),
      });
    });
  });
}
