// Which `nc` of which nonce a client has already used (docs/security.md §Digest): each (nonce, nc)
// is taken once, so a captured request sent again is refused. A fixed table of NONCE_SLOTS nonces,
// allocated once, entered only by a request whose digest was right (a client without the token
// cannot fill it). Per nonce: the highest nc taken and a 32-bit mask of the 32 below it, so requests
// of one client that arrive out of order (several connections) still pass. Nonces are numbered in
// the order they were issued; when a nonce leaves the table, every nonce issued up to it is refused
// from then on (`floor`): one that was used and forgotten can never be taken again.

export const NONCE_SLOTS = 8;
/** How far below the highest nc of a nonce a late nc is still taken. */
export const NC_WINDOW = 32;

export class NonceRecord {
  /** Issue number of each nonce in the table, -1 for a free entry. */
  private readonly issued: number[] = [];
  private readonly top: number[] = [];
  /** Bit k: nc top-1-k was taken. */
  private readonly below: number[] = [];
  /** Nonces issued up to this number and not in the table are refused. */
  private floor = -1;

  constructor() {
    for (let i = 0; i < NONCE_SLOTS; i++) {
      this.issued.push(-1);
      this.top.push(0);
      this.below.push(0);
    }
  }

  /** Takes `nc` (1 or more) of nonce number `issue`: false when it was taken before or cannot be told. */
  take(issue: number, nc: number): boolean {
    let i = this.find(issue);
    if (i < 0) {
      if (issue <= this.floor) return false;
      i = this.victim();
      if (this.issued[i] > this.floor) this.floor = this.issued[i];
      this.issued[i] = issue;
      this.top[i] = nc;
      this.below[i] = 0;
      return true;
    }
    const top = this.top[i];
    if (nc > top) {
      const d = nc - top;
      this.below[i] = d > NC_WINDOW ? 0 : d === NC_WINDOW ? 0x80000000 : ((this.below[i] << d) | (1 << (d - 1))) >>> 0;
      this.top[i] = nc;
      return true;
    }
    const k = top - 1 - nc;
    if (k < 0 || k >= NC_WINDOW) return false;
    const bit = (1 << k) >>> 0;
    if ((this.below[i] & bit) !== 0) return false;
    this.below[i] = (this.below[i] | bit) >>> 0;
    return true;
  }

  /** Nonces in the table (tests: the bound holds). */
  size(): number {
    let n = 0;
    for (let i = 0; i < NONCE_SLOTS; i++) if (this.issued[i] >= 0) n++;
    return n;
  }

  private find(issue: number): number {
    for (let i = 0; i < NONCE_SLOTS; i++) if (this.issued[i] === issue) return i;
    return -1;
  }

  /** A free entry, else the nonce issued first. */
  private victim(): number {
    let best = 0;
    for (let i = 0; i < NONCE_SLOTS; i++) {
      if (this.issued[i] < 0) return i;
      if (this.issued[i] < this.issued[best]) best = i;
    }
    return best;
  }
}
Object.freeze(NonceRecord.prototype);
