// Headers on every API answer (docs/api.md §HTTP limits): `Cache-Control: no-store` (values are live)
// and `Date` (IMF-fixdate, RFC 9110 §5.6.7) when the module clock has been set. The block is
// formatted once a second and reused. An object per Api, not module state (preloadable).

const DAYS = Object.freeze(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
const MONTHS = Object.freeze(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);
const NO_STORE = 'Cache-Control: no-store\r\n';
/** A clock before 2020-01-01 has not been set (a module boots at 1970 until SNTP or a clock PUT). */
export const CLOCK_SET_AFTER_MS = 1577836800000;

function two(n: number): string {
  return n < 10 ? '0' + n : '' + n;
}

/** `Sun, 06 Nov 1994 08:49:37 GMT` for a time in milliseconds since the epoch. */
export function imfFixdate(ms: number): string {
  const d = new Date(ms);
  return DAYS[d.getUTCDay()] + ', ' + two(d.getUTCDate()) + ' ' + MONTHS[d.getUTCMonth()] + ' ' +
    d.getUTCFullYear() + ' ' + two(d.getUTCHours()) + ':' + two(d.getUTCMinutes()) + ':' +
    two(d.getUTCSeconds()) + ' GMT';
}

export class AnswerHeaders {
  private second = NaN;
  private date = '';
  private block = NO_STORE;

  /** The header lines (each ending in CRLF) for an API answer made at `nowMs` by the module clock. */
  at(nowMs: number): string {
    this.update(nowMs);
    return this.block;
  }

  /** The Date line alone ('' while the clock is unset): for a resource that sets its own caching. */
  dateAt(nowMs: number): string {
    this.update(nowMs);
    return this.date;
  }

  private update(nowMs: number): void {
    const second = Math.floor(nowMs / 1000);
    if (second === this.second) return;
    this.second = second;
    this.date = nowMs >= CLOCK_SET_AFTER_MS ? 'Date: ' + imfFixdate(second * 1000) + '\r\n' : '';
    this.block = NO_STORE + this.date;
  }
}
Object.freeze(AnswerHeaders.prototype);
