// Who gets a connection slot at the cap (docs/api.md §HTTP limits), transport-agnostic: the simulator's
// Node server and the device's ECMA-419 server both keep their connections here. A newcomer at the
// cap takes the slot of the connection idle longest between requests, or else of the oldest partial
// request older than PARTIAL_PROTECT_MS (closed with 408). Only when every slot is answering or
// holds a younger partial request is the newcomer refused (the caller answers 503 with
// Retry-After). Closed connections hold no slot: they are dropped before anything is counted.

/** A connection between requests (or before its next one): evicted first, longest idle first. */
export const SLOT_IDLE = 0;
/** A request partly received; a connection without a complete first request counts from its accept. */
export const SLOT_PARTIAL = 1;
/** A request being answered: never evicted. */
export const SLOT_ANSWERING = 2;

/** A partial request younger than this (ms) is not evicted. */
export const PARTIAL_PROTECT_MS = 2000;

/** What the policy needs of a connection. */
export interface SlotHolder {
  /** Closed: it holds no slot, even while its socket lingers. */
  readonly closed: boolean;
  /** SLOT_IDLE, SLOT_PARTIAL or SLOT_ANSWERING. */
  slotState(): number;
  /** When it entered that state (ms, the same clock as admit's `now`). */
  slotSince(): number;
  /** Give up the slot: an idle connection closes, a partial request is answered 408 and closes. */
  evict(): void;
}

export class ConnectionSlots<T extends SlotHolder> {
  readonly cap: number;
  private readonly holders: T[] = [];

  constructor(cap: number) {
    this.cap = cap;
  }

  /** Connections holding a slot now. */
  get size(): number {
    this.prune();
    return this.holders.length;
  }

  /** The connections holding a slot (read-only; for the timer that checks their timeouts). */
  list(): readonly T[] {
    this.prune();
    return this.holders;
  }

  /**
   * Give `newcomer` a slot, evicting one holder if the cap is reached and the rule allows. False when
   * every slot is answering or partial-but-protected: the caller refuses the newcomer (503).
   */
  admit(newcomer: T, now: number): boolean {
    if (!this.makeRoom(now)) return false;
    this.holders.push(newcomer);
    return true;
  }

  /**
   * A slot for a newcomer not made yet: true when one is free or a holder was evicted for it (add()
   * the newcomer next), false when every slot is answering or partial-but-protected.
   */
  makeRoom(now: number): boolean {
    this.prune();
    if (this.holders.length < this.cap) return true;
    const victim = this.victim(now);
    if (victim < 0) return false;
    const v = this.holders[victim];
    this.holders.splice(victim, 1);
    v.evict();
    return true;
  }

  /** Hold a slot for a newcomer makeRoom() made room for. */
  add(newcomer: T): void {
    this.holders.push(newcomer);
  }

  /** Forget a connection (its socket closed). */
  release(holder: T): void {
    const i = this.holders.indexOf(holder);
    if (i >= 0) this.holders.splice(i, 1);
  }

  /** Index of the holder to evict, or -1: the longest idle, else the oldest unprotected partial. */
  private victim(now: number): number {
    let idle = -1;
    let idleSince = 0;
    let partial = -1;
    let partialSince = 0;
    const holders = this.holders;
    for (let i = 0; i < holders.length; i++) {
      const h = holders[i];
      const state = h.slotState();
      const since = h.slotSince();
      if (state === SLOT_IDLE) {
        if (idle < 0 || since < idleSince) { idle = i; idleSince = since; }
      } else if (state === SLOT_PARTIAL && now - since >= PARTIAL_PROTECT_MS) {
        if (partial < 0 || since < partialSince) { partial = i; partialSince = since; }
      }
    }
    return idle >= 0 ? idle : partial;
  }

  private prune(): void {
    const holders = this.holders;
    for (let i = holders.length - 1; i >= 0; i--) if (holders[i].closed) holders.splice(i, 1);
  }
}
Object.freeze(ConnectionSlots.prototype);
