// The desktop simulator's TCP server: Node sockets feeding the same Connection core the device runs.
// The host server's front is this server too, with a request handler that forwards (host-server/).
// Node-only code lives here and nowhere under src/ or hal/.

import * as net from 'node:net';
import type { Connection, RequestHandler, Transport } from '../src/http/connection';
import { ServerCore, TICK_MS } from '../src/http/server-core';
import type { TextCodec } from '../util/text';
import { wallClock } from './read-clock';
import { Pacer } from './pacer';

/** Buffer's own Latin-1 and UTF-8 slices: they take any Uint8Array as `this`, so no Buffer view is made first. */
type Slice = (this: Uint8Array, start: number, end: number) => string;
const { latin1Slice, utf8Slice } = Buffer.prototype as unknown as { latin1Slice: Slice; utf8Slice: Slice };

/** Node's Buffer encodes and decodes UTF-8 several times faster than TextEncoder/TextDecoder. */
export const nodeTextCodec: TextCodec = {
  encode: (text) => Buffer.from(text, 'utf8'),
  // The parser hands views of the socket's own Buffers: decoded as they are, not wrapped again.
  decode: (bytes) => (bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString(),
  byteLength: (text) => Buffer.byteLength(text, 'utf8'),
  latin1: (bytes, start, end) => latin1Slice.call(bytes, start, end),
  utf8: (bytes, start, end) => utf8Slice.call(bytes, start, end),
};

export interface ServerOptions {
  port: number;
  host: string;
  /** What answers each request: the simulator's API (sim-api.ts), as DeviceServer is handed the module's; the host server's forwarding. */
  handler: RequestHandler;
  /**
   * Most connections served at once (default 256). At the cap a newcomer takes the slot of the
   * longest-idle connection or of the oldest partial request older than 2 s; else it is answered
   * 503 with Retry-After: 1 (docs/api.md §HTTP limits, src/http/connection-slots.ts).
   */
  maxConnections?: number;
  /** Millisecond clock for timeouts and slot ages (tests pass a fake one); default the wall clock, read once
   * per socket read (read-clock.ts). */
  now?: () => number;
  /** Close a keep-alive connection idle this long (ms); default the core's 30 s. */
  idleTimeoutMs?: number;
  /** How long a closing socket may wait for its peer to take the last answer (ms); default 5000. */
  lingerMs?: number;
  /**
   * Read every socket into one shared buffer (default true). False: a Buffer per read through
   * Node's 'data' events, the way taken anyway on a Node whose sockets lack the handle this needs.
   */
  sharedReadBuffer?: boolean;
  /** At least this long (ms) between two reads handed to the connections: a module's pace (pacer.ts); 0: none. */
  answerTimeMs?: number;
}

export interface RunningServer {
  readonly server: net.Server;
  readonly port: number;
  /**
   * Open sockets, connections holding a slot (closed ones, even if their socket lingers, hold
   * none), and response bytes queued in them that clients have not read yet.
   */
  stats(): { connections: number; slots: number; bufferedBytes: number };
  /** Run the once-a-second timeout check now (tests with a fake clock). */
  checkTimeouts(): void;
  close(): Promise<void>;
}

/** What every socket's connection shares: the server core (handler, slots) and the server's settings. */
interface Shared {
  readonly core: ServerCore;
  readonly sockets: Set<net.Socket>;
  readonly lingerMs: number;
  readonly sharedReadBuffer: boolean;
  /** Null: every read is handled as it comes. */
  readonly pacer: Pacer | null;
}

/** The Connection's transport over a node:net socket; `flushed` runs once a write reaches the kernel. */
function socketTransport(socket: net.Socket, lingerMs: number, flushed: () => void): Transport {
  return {
    write(bytes: Uint8Array): void {
      // A client that does not read its answers makes us stop reading its requests.
      if (!socket.write(bytes, flushed)) socket.pause();
    },
    // A text answer is encoded by Node's C++ side as it is written: no Buffer of its own.
    writeText(text: string): void {
      if (!socket.write(text, flushed)) socket.pause(); // UTF-8, the default
    },
    backlog: (): number => socket.writableLength, // event streams skip ticks past it
    close(): void {
      socket.end();
      // Nothing more is read; a peer that never takes its last answer must not hold a connection
      // slot for ever.
      socket.pause();
      socket.setTimeout(lingerMs, () => socket.destroy());
    },
  };
}

/** A new socket: a Connection of its own, admitted to a slot or refused with 503 (then it reads nothing). */
function adopt(socket: net.Socket, shared: Shared): Connection {
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  // Each write's bytes handed to the kernel: a streamed description makes its next pieces.
  const transport = socketTransport(socket, shared.lingerMs, () => connection.drained());
  const connection = shared.core.connect(transport, socket.remoteAddress ?? '');
  shared.sockets.add(socket);
  socket.on('close', () => {
    shared.sockets.delete(socket);
    shared.core.closed(connection);
  });
  if (!shared.core.admit(connection)) return connection; // answered 503: it reads nothing more
  // A paced socket stays paused while its turn waits (pacer.ts).
  socket.on('drain', () => { if (!shared.pacer?.holds(socket)) socket.resume(); });
  socket.on('end', () => (shared.pacer ? shared.pacer.push(socket, connection, null, 0) : connection.end()));
  return connection;
}

/**
 * Every socket reads into this one buffer (Node's `onread`), not into a new Buffer per read pushed
 * through the stream machinery: 1.2–2.6 µs less CPU a request (docs/performance.md). One buffer
 * does for all: a read is handled before the next begins, and Connection.receive keeps nothing of
 * its bytes after the call.
 */
const READ_BUFFER = Buffer.alloc(64 * 1024);

/** Internals `onread` needs on an accepted socket (Node 20): its libuv handle, taken over by a new Socket. */
interface HandleOwner {
  _handle: object | null;
}

/**
 * Serve an accepted socket, reading into READ_BUFFER. Node offers `onread` only to sockets it
 * creates, so a new Socket takes over the accepted one's handle; should a Node lack the handle,
 * the accepted socket's own 'data' events feed the connection instead.
 */
function serve(accepted: net.Socket, shared: Shared): void {
  const owner = accepted as unknown as HandleOwner;
  const handle = owner._handle;
  if (!handle || !shared.sharedReadBuffer) {
    const connection = adopt(accepted, shared);
    accepted.on('data', (chunk: Buffer) => take(shared, accepted, connection, chunk, chunk.length));
    accepted.resume();
    return;
  }
  owner._handle = null;
  accepted.destroy(); // the husk: its handle lives on in `socket`
  // The callback runs only once reading has begun, after `connection` is set.
  const options = { handle, onread: { buffer: READ_BUFFER, callback: (n: number) => take(shared, socket, connection, READ_BUFFER, n) } };
  const socket = new net.Socket(options as net.SocketConstructorOpts);
  const connection = adopt(socket, shared);
}

/** A read handed on now, or queued for its turn at a module's pace. */
function take(shared: Shared, socket: net.Socket, connection: Connection, bytes: Uint8Array, end: number): void {
  if (shared.pacer) shared.pacer.push(socket, connection, bytes, end);
  else received(connection, bytes, end);
}

/** A socket's bytes bytes[0, end): one clock reading for everything they set off (read-clock.ts). */
function received(connection: Connection, bytes: Uint8Array, end: number): void {
  wallClock.hold();
  try {
    connection.receive(bytes, end);
  } finally {
    wallClock.release();
  }
}

/** Start serving; resolves once listening (port 0 picks a free port). */
export function startServer(options: ServerOptions): Promise<RunningServer> {
  const core = new ServerCore(options.handler, {
    maxConnections: options.maxConnections ?? 256, now: options.now ?? wallClock.now, idleTimeoutMs: options.idleTimeoutMs,
    codec: nodeTextCodec,
  });
  const sockets = new Set<net.Socket>();
  const pacer = options.answerTimeMs ? new Pacer(options.answerTimeMs, received) : null;
  const shared: Shared = { core, sockets, lingerMs: options.lingerMs ?? 5000, sharedReadBuffer: options.sharedReadBuffer ?? true, pacer };
  // Paused: nothing is read before serve() chooses how the socket reads.
  const server = net.createServer({ pauseOnConnect: true }, (socket) => serve(socket, shared));

  // One timer for every connection's head and body deadlines (408) and idle timeout, and the ticks
  // of event streams (server-core.ts).
  const checkTimeouts = (): void => core.tick();
  const timer = setInterval(checkTimeouts, TICK_MS);
  timer.unref();

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      const address = server.address() as net.AddressInfo;
      resolve({
        server,
        port: address.port,
        stats: () => {
          let bufferedBytes = 0;
          for (const s of sockets) bufferedBytes += s.writableLength;
          return { connections: sockets.size, slots: core.slots.size, bufferedBytes };
        },
        checkTimeouts,
        close: () => new Promise<void>((done) => {
          clearInterval(timer);
          pacer?.close();
          server.close(() => done());
          for (const s of sockets) s.destroy();
        }),
      });
    });
  });
}
