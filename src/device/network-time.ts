// One SNTP exchange that reads the server's time to the millisecond. The SDK's SNTP
// (modules/network/sntp/sntp.js) hands its callback only the whole second of the answer's transmit
// timestamp (:96-105; xs_sntp_toNumber in modsntp.c drops the fraction), so a clock set from it is up
// to a second off, and an hourly exchange that lands just after the server's second turns steps the
// clock back and forth by a second. This class is the SDK's, with the answer read whole: the receive
// and transmit timestamps with their fractions (RFC 4330 §4), and the round trip measured here, so the
// time handed on is the server's at the moment the answer arrived: T3 + ((T4 - T1) - (T3 - T2)) / 2.
// The retries, the name lookup and the errors stay the SDK's; the callback hears SNTP.time with
// milliseconds since 1970 (not seconds).

import SNTP from 'sntp';
import Time from 'time';

/** NTP's era starts in 1900: seconds from there to 1970. */
const NTP_TO_UNIX_S = 2208988800;
/** Socket.readable (modules/network/socket/socket.js:38). */
const READABLE = 2;

type Callback = (message: number, value?: number) => void;

/** What the SDK's SNTP has of its UDP Socket (socket.js) and of itself, beyond @moddable/typings. */
interface SdkSntp {
  read(type: NumberConstructor): number;
  read(type: null, count?: number): void;
  write(): void;
  failed(message: string): void;
  close(): void;
}
const Base = SNTP as unknown as new (options: { host: string }, callback: Callback) => SdkSntp;

export class NetworkTime extends Base {
  private readonly heard: Callback;
  /** Time.ticks when the last request went out. */
  private sentAt = 0;

  constructor(host: string, heard: Callback) {
    super({ host }, heard);
    this.heard = heard;
  }

  override write(): void {
    this.sentAt = Time.ticks;
    super.write();
  }

  /** The Socket's callback (as the SDK's, which it replaces): an answer is 48 bytes from a server. */
  callback(message: number, value?: number): void {
    if (message !== READABLE) return;
    const rtt = (Time.ticks - this.sentAt) | 0; // 32-bit ticks: the difference is right across a wrap
    if (value !== 48) return this.failed('unexpected SNTP packet length');
    if ((this.read(Number) & 7) !== 4) return this.failed('unexpected SNTP packet first byte'); // server mode
    if (this.read(Number) === 0) return this.read(null); // stratum 0: Kiss-o'-Death, discarded (RFC 4330 §8)
    this.read(null, 30);
    const received = this.timestamp();
    const sent = this.timestamp();
    this.close();
    const flight = Math.max(0, rtt - Math.max(0, sent - received));
    this.heard(SNTP.time, sent + flight / 2);
  }

  /** The next 8 bytes, an NTP timestamp, as milliseconds since 1970. */
  private timestamp(): number {
    const ntp = this.word();
    // a top bit of 0 is NTP's next era, from 2036-02-07 (RFC 4330 §3)
    const seconds = ntp - NTP_TO_UNIX_S + (ntp < 0x80000000 ? 2 ** 32 : 0);
    return seconds * 1000 + this.word() * 1000 / 2 ** 32;
  }

  private word(): number {
    return ((this.read(Number) << 24) >>> 0) + (this.read(Number) << 16) + (this.read(Number) << 8) + this.read(Number);
  }
}
Object.freeze(NetworkTime.prototype);
