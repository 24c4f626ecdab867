// Fake of Moddable's `sntp` module (modules/network/sntp/sntp.js), talking to `sntpServer` instead of
// the network. As the SDK's: the name is resolved (a name that does not resolve fails at once, :50-60);
// a request goes out, and again every 5 s (:38-44); after the 5th period with no answer the callback
// hears SNTP.error and, unless it returns another host, the object closes (:62-73); an answer closes
// it and the callback hears SNTP.time with the seconds since 1970 (:104-108).

import { net } from './net';

// As @moddable/typings declares it; the SDK also passes the error's text and takes a host back.
type Callback = (message: number, value?: number) => void;
type SdkCallback = (message: number, value?: number | string) => string | void;

/** The server the fake reaches: down (no answer), or up answering `delayMs` after a request. */
export const sntpServer = {
  up: false,
  resolves: true,
  /** Seconds since 1970 of its first answer (2026-01-01T00:00:00Z); its clock runs on from there with
   * the virtual time, as a server's does (a test steps it by changing this). */
  seconds: 1767225600,
  delayMs: 50,
  /** net.now at each SNTP object made (an exchange begun). */
  asked: [] as number[],
  /** The seconds of each answer. */
  answers: [] as number[],
  /** net.now at its first answer. */
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
  /** What it answers now (whole seconds, as the SDK's SNTP reads them). */
  answer(): number {
    if (this.firstAt < 0) this.firstAt = net.now;
    const s = this.seconds + Math.floor((net.now - this.firstAt) / 1000);
    this.answers.push(s);
    return s;
  },
};

export default class SNTP {
  static readonly time = 1;
  static readonly retry = 2;
  static readonly error = -1;
  private readonly callback: Callback;
  private retry = 5;
  private closed = false;
  private answering = false;
  private readonly timer: ReturnType<typeof net.setTimer>;

  constructor(options: { host: string }, callback: Callback) {
    this.callback = callback;
    sntpServer.asked.push(net.now);
    this.timer = net.setTimer(() => this.tick(), 5000, true);
    net.later(() => this.start(options.host));
  }

  private start(_host: string): void {
    this.retry = 5;
    if (this.closed) return;
    if (!sntpServer.resolves) return this.failed();
    this.write();
  }

  private tick(): void {
    if (this.closed) return;
    if (!--this.retry) return this.failed();
    this.write();
    this.callback(SNTP.retry);
  }

  private write(): void {
    if (!sntpServer.up || this.answering) return;
    this.answering = true;
    net.setTimer(() => {
      if (this.closed) return;
      this.close();
      this.callback(SNTP.time, sntpServer.answer());
    }, sntpServer.delayMs, false);
  }

  private failed(): void {
    const host = (this.callback as SdkCallback)(SNTP.error, 'no response from SNTP server');
    if (host) this.start(host);
    else this.close();
  }

  close(): void {
    this.closed = true;
    net.clearTimer(this.timer);
  }
}
