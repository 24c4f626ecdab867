// Fake of Moddable's `sntp` module (modules/network/sntp/sntp.js) and the part of its UDP Socket it
// uses, talking to `sntpServer` instead of the network. Its shape is the SDK's, so that a subclass
// (src/device/network-time.ts) overrides the same methods: the name is resolved (a name that does not
// resolve fails at once, :50-60); write() sends a request, at the start and again every 5 s (:38-44);
// after the 5th period with no answer the callback hears SNTP.error and, unless it returns another
// host, the object closes (:62-73); an answer arrives as callback(Socket.readable, 48), its bytes read
// with read(Number) and skipped with read(null, n), and the SDK's callback hands on the transmit
// timestamp's whole second (:91-108; xs_sntp_toNumber drops the fraction).

import { net } from './net';

// As @moddable/typings declares it; the SDK also passes the error's text and takes a host back.
type Callback = (message: number, value?: number) => void;
type SdkCallback = (message: number, value?: number | string) => string | void;

const NTP_TO_UNIX_S = 2208988800;
/** Socket.readable (modules/network/socket/socket.js:38). */
const READABLE = 2;

/** The server the fake reaches: down (no answer), or up answering each request `delayMs` after it. */
export const sntpServer = {
  up: false,
  resolves: true,
  /** Its clock at its first stamp, seconds since 1970 (2026-01-01T00:00:00Z unless a test sets a
   * fraction too); it runs on from there with the virtual time, as a server's does (a test steps it
   * by changing this). */
  seconds: 1767225600,
  /** A round trip: the request reaches the server half of it after it left. */
  delayMs: 50,
  /** net.now at each SNTP object made (an exchange begun). */
  asked: [] as number[],
  /** The transmit timestamp of each answer, ms since 1970. */
  answers: [] as number[],
  /** net.now at its first stamp. */
  firstAt: -1,
  reset(): void {
    this.up = false;
    this.resolves = true;
    this.seconds = 1767225600;
    this.delayMs = 50;
    this.asked = [];
    this.answers = [];
    this.firstAt = -1;
  },
  /** Its clock now, ms since 1970. */
  now(): number {
    if (this.firstAt < 0) this.firstAt = net.now;
    return this.seconds * 1000 + net.now - this.firstAt;
  },
  /** An answer to a request that arrives now: 48 bytes, stratum 1, received and sent at once. */
  answer(): Uint8Array {
    const ms = this.now();
    this.answers.push(ms);
    const p = new Uint8Array(48);
    p[0] = (4 << 3) | 4; // version 4, server
    p[1] = 1;
    const view = new DataView(p.buffer);
    const seconds = Math.floor(ms / 1000);
    for (const at of [32, 40]) {
      view.setUint32(at, (seconds + NTP_TO_UNIX_S) % 2 ** 32);
      view.setUint32(at + 4, Math.floor((ms - seconds * 1000) / 1000 * 2 ** 32));
    }
    return p;
  },
};

export default class SNTP {
  static readonly time = 1;
  static readonly retry = 2;
  static readonly error = -1;
  readonly #callback: Callback;
  #retry = 5;
  #closed = false;
  #address = '';
  #packet: Uint8Array | undefined;
  #at = 0;
  readonly #timer: ReturnType<typeof net.setTimer>;

  constructor(options: { host: string }, callback: Callback) {
    this.#callback = callback;
    sntpServer.asked.push(net.now);
    this.#timer = net.setTimer(() => this.#tick(), 5000, true);
    net.later(() => this.start(options.host));
  }

  start(host: string): void {
    this.#retry = 5;
    if (this.#closed) return;
    if (!sntpServer.resolves) return this.failed(`cannot resolve ${host}`);
    this.#address = '192.168.4.1';
    this.write();
  }

  #tick(): void {
    if (this.#closed) return;
    if (!--this.#retry) return this.failed('no response from SNTP server');
    this.write();
    this.#callback(SNTP.retry);
  }

  write(): void {
    if (!this.#address || !sntpServer.up) return;
    let packet: Uint8Array | undefined;
    net.setTimer(() => { packet = sntpServer.answer(); }, sntpServer.delayMs / 2, false);
    net.setTimer(() => {
      if (this.#closed || !packet) return;
      this.#packet = packet;
      this.#at = 0;
      this.callback(READABLE, 48);
    }, sntpServer.delayMs, false);
  }

  /** The SDK's: a second from the transmit timestamp, fraction dropped. */
  callback(message: number, value?: number): void {
    if (message !== READABLE) return;
    if (value !== 48) return this.failed('unexpected SNTP packet length');
    if ((this.read(Number) & 7) !== 4) return this.failed('unexpected SNTP packet first byte');
    if (this.read(Number) === 0) {
      this.read(null);
      return;
    }
    this.read(null, 38);
    const ntp = (this.read(Number) << 24) | (this.read(Number) << 16) | (this.read(Number) << 8) | this.read(Number);
    const seconds = (ntp - NTP_TO_UNIX_S) | 0; // modsntp.c: int32_t arithmetic
    this.close();
    this.#callback(SNTP.time, seconds);
  }

  /** A byte of the packet (Number), or skips `count` bytes (null; all that is left without a count). */
  read(type: NumberConstructor | null, count?: number): number {
    const p = this.#packet;
    if (!p) throw new Error('nothing to read');
    if (type === null) {
      this.#at = count === undefined ? p.length : this.#at + count;
      return 0;
    }
    return p[this.#at++];
  }

  failed(message: string): void {
    const host = (this.#callback as SdkCallback)(SNTP.error, message);
    if (host) this.start(host);
    else this.close();
  }

  close(): void {
    this.#closed = true;
    net.clearTimer(this.#timer);
  }
}
