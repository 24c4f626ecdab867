// Fake of ECMA-419 embedded:io/socket/listener over the fake network (tests/fakes/net.ts).

import { net, type Conn } from './net';
import TCP from './tcp';

export interface ListenerOptions {
  port: number;
  onReadable?(this: Listener, count: number): void;
}

export default class Listener {
  readonly port: number;
  private readonly pending: Conn[] = [];
  private readonly onReadable?: (this: Listener, count: number) => void;
  private closed = false;

  constructor(options: ListenerOptions) {
    if (net.listeners.has(options.port)) throw new Error(`port ${options.port} in use`);
    this.port = options.port;
    this.onReadable = options.onReadable;
    net.listeners.set(options.port, this);
  }

  /** The next accepted connection, as a TCP the server adopts with `new TCP({from})`. */
  read(): TCP | undefined {
    const conn = this.pending.shift();
    return conn ? TCP.accepted(conn) : undefined;
  }

  close(): void {
    this.closed = true;
    if (net.listeners.get(this.port) === this) net.listeners.delete(this.port);
  }

  /** A client connected (net.connect). */
  arrive(conn: Conn): void {
    this.pending.push(conn);
    net.later(() => { if (!this.closed && this.onReadable) this.onReadable.call(this, this.pending.length); });
  }
}
