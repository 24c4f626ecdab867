// Wrong bearer tokens per client address (docs/api.md §Access control): after LOCKOUT_FAILURES
// wrong tokens within LOCKOUT_MS from one address, that address is refused (429) for LOCKOUT_MS.
// A fixed table of LOCKOUT_SLOTS entries, allocated once: on a module memory is bounded whatever
// the number of attackers. A new address takes a free entry, else the unlocked entry whose window
// began longest ago, else (every entry locked) the lock that ends first.

export const LOCKOUT_FAILURES = 10;
export const LOCKOUT_MS = 60000;
export const LOCKOUT_SLOTS = 8;

export class LockoutTable {
  private readonly peers: string[] = [];
  private readonly counts: number[] = [];
  /** Start of the current one-minute counting window. */
  private readonly since: number[] = [];
  /** End of the lock, 0 when not locked. */
  private readonly until: number[] = [];

  constructor() {
    for (let i = 0; i < LOCKOUT_SLOTS; i++) {
      this.peers.push('');
      this.counts.push(0);
      this.since.push(0);
      this.until.push(0);
    }
  }

  /** Milliseconds this address stays locked (0: not locked). An expired lock is forgotten. */
  lockedFor(peer: string, now: number): number {
    const i = this.find(peer);
    if (i < 0 || this.until[i] === 0) return 0;
    if (now >= this.until[i]) {
      this.drop(i);
      return 0;
    }
    return this.until[i] - now;
  }

  /** One wrong token from `peer`. */
  fail(peer: string, now: number): void {
    let i = this.find(peer);
    if (i < 0) {
      i = this.victim();
      this.drop(i);
      this.peers[i] = peer;
    }
    if (this.counts[i] === 0 || now - this.since[i] >= LOCKOUT_MS) {
      this.counts[i] = 0;
      this.since[i] = now;
    }
    if (++this.counts[i] >= LOCKOUT_FAILURES) this.until[i] = now + LOCKOUT_MS;
  }

  /** A right token: the address starts afresh. */
  clear(peer: string): void {
    const i = this.find(peer);
    if (i >= 0) this.drop(i);
  }

  /** Addresses in the table (tests: the bound holds). */
  size(): number {
    let n = 0;
    for (let i = 0; i < LOCKOUT_SLOTS; i++) if (this.counts[i] > 0) n++;
    return n;
  }

  private find(peer: string): number {
    for (let i = 0; i < LOCKOUT_SLOTS; i++) if (this.counts[i] > 0 && this.peers[i] === peer) return i;
    return -1;
  }

  private victim(): number {
    let best = 0;
    for (let i = 0; i < LOCKOUT_SLOTS; i++) {
      if (this.counts[i] === 0) return i;
      if (this.evictsBefore(i, best)) best = i;
    }
    return best;
  }

  /** Unlocked entries go first (oldest window first), then locks (the one ending first). */
  private evictsBefore(i: number, j: number): boolean {
    const lockedI = this.until[i] !== 0;
    if (lockedI !== (this.until[j] !== 0)) return !lockedI;
    return lockedI ? this.until[i] < this.until[j] : this.since[i] < this.since[j];
  }

  private drop(i: number): void {
    this.peers[i] = '';
    this.counts[i] = 0;
    this.since[i] = 0;
    this.until[i] = 0;
  }
}
Object.freeze(LockoutTable.prototype);
