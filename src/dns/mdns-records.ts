// The records a responder owns (RFC 6762, RFC 6763), numbered so that a query, a known answer or an
// announcement is a set of flags over one small array: per announced module (an instance) its A
// record, then SRV, TXT and PTR per service type; after every instance, one `_services._dns-sd._udp`
// PTR per service type (shared by all). Here: which records a question asks for, which a known answer
// names, and how each is written.

import { DnsWriter, nameLength } from './dns-writer';
import { nameEquals, TYPE_A, TYPE_ANY, TYPE_PTR, TYPE_SRV, TYPE_TXT } from './dns-reader';
import { numberedName, txtData, wireName } from './mdns-names';

/** TTLs of RFC 6762 §10: records with a host name in them 120 s, the others 75 minutes. */
export const HOST_TTL = 120;
export const OTHER_TTL = 4500;
/** A legacy unicast answer (RFC 6762 §6.7) carries TTLs of at most 10 s. */
export const LEGACY_TTL = 10;

/** What one module announces. */
export interface Announcement {
  /** The host label wanted (`brainstem-1234abcd`); after a conflict the instance takes `-2`, `-3`… */
  readonly hostname: string;
  readonly port: number;
  readonly txt: { readonly [key: string]: string };
}

/** Instance states. */
export const IDLE = 0;
export const PROBING = 1;
export const ANNOUNCING = 2;
export const ANNOUNCED = 3;

/** `local` in wire form: a host name is its label and this (frozen: preloaded data stays in flash). */
const LOCAL = Object.freeze([5, 108, 111, 99, 97, 108, 0]);

export class Instance {
  base = '';
  /** 1: the base name; 2, 3…: base-2, base-3… after conflicts. */
  number = 1;
  name = '';
  port = 0;
  // Both set by set() (each typed array costs slots: none is made before it is needed).
  txt: Uint8Array = null as unknown as Uint8Array;
  /** In wire form: the host name (`name.local`) at 0, then `name._type._tcp.local` per service type. */
  wire: Uint8Array = null as unknown as Uint8Array;
  /** Where each service type's instance name starts in `wire`. */
  readonly nameAt: number[] = [];
  state = IDLE;
  /** Probes or announcements sent in the current state, and when the next is due. */
  step = 0;
  due = 0;

  set(a: Announcement, set: RecordSet): void {
    this.base = a.hostname;
    this.number = 1;
    this.port = a.port;
    this.txt = txtData(a.txt);
    this.rename(set);
  }

  /** Takes the name of this.number (base, base-2…) and makes its wire names. */
  rename(set: RecordSet): void {
    this.name = numberedName(this.base, this.number);
    const label = wireName(this.name);
    const n = label.length - 1;
    let size = n + LOCAL.length;
    for (let s = 0; s < set.typeAt.length; s++) size += n + nameLength(set.wire, set.typeAt[s]);
    const wire = new Uint8Array(size);
    wire.set(label.subarray(0, n));
    wire.set(LOCAL, n);
    let at = n + LOCAL.length;
    for (let s = 0; s < set.typeAt.length; s++) {
      const end = set.typeAt[s] + nameLength(set.wire, set.typeAt[s]);
      this.nameAt[s] = at;
      wire.set(label.subarray(0, n), at);
      wire.set(set.wire.subarray(set.typeAt[s], end), at + n);
      at += n + end - set.typeAt[s];
    }
    this.wire = wire;
  }

  get answers(): boolean {
    return this.state === ANNOUNCING || this.state === ANNOUNCED;
  }
}
Object.freeze(Instance.prototype);

export class RecordSet {
  readonly instances: Instance[] = [];
  /** In wire form: `_services._dns-sd._udp.local` at 0, then `_type._tcp.local` per service type. */
  readonly wire: Uint8Array;
  /** Where each service type's name starts in `wire`. */
  readonly typeAt: number[] = [];
  /** Records per instance: A, then SRV, TXT, PTR per service type. */
  readonly kinds: number;
  readonly total: number;
  /** IPv4 addresses of this host, four bytes each (set by the responder's setAddresses). */
  addresses: Uint8Array = null as unknown as Uint8Array;

  constructor(serviceTypes: readonly string[], count: number) {
    let text = '_services._dns-sd._udp.local';
    const parts: Uint8Array[] = [wireName(text)];
    let at = parts[0].length;
    for (let s = 0; s < serviceTypes.length; s++) {
      text = `_${serviceTypes[s]}._tcp.local`;
      parts.push(wireName(text));
      this.typeAt.push(at);
      at += parts[s + 1].length;
    }
    this.wire = new Uint8Array(at);
    for (let p = 0, o = 0; p < parts.length; o += parts[p].length, p++) this.wire.set(parts[p], o);
    for (let i = 0; i < count; i++) this.instances.push(new Instance());
    this.kinds = 1 + 3 * serviceTypes.length;
    this.total = count * this.kinds + serviceTypes.length;
  }

  /** Writes record `r` into `w`'s current section; false when it does not fit. */
  write(w: DnsWriter, r: number, section: number, ttlCap: number): boolean {
    const shared = this.instances.length * this.kinds;
    if (r >= shared) {
      const s = r - shared;
      return w.record(this.wire, TYPE_PTR, false, Math.min(OTHER_TTL, ttlCap)) && w.nameData(this.wire, this.typeAt[s]) && w.end(section);
    }
    const it = this.instances[(r / this.kinds) | 0];
    const k = r % this.kinds;
    if (k === 0) {
      for (let a = 0; a + 4 <= this.addresses.length; a += 4) {
        if (!(w.record(it.wire, TYPE_A, true, Math.min(HOST_TTL, ttlCap)) && w.data(this.addresses.subarray(a, a + 4)) && w.end(section))) return false;
      }
      return true;
    }
    const s = ((k - 1) / 3) | 0;
    switch ((k - 1) % 3) {
      case 0:
        return w.record(it.wire, TYPE_SRV, true, Math.min(HOST_TTL, ttlCap), it.nameAt[s]) && w.short(0) && w.short(0) &&
          w.short(it.port) && w.nameData(it.wire) && w.end(section);
      case 1:
        return w.record(it.wire, TYPE_TXT, true, Math.min(OTHER_TTL, ttlCap), it.nameAt[s]) && w.data(it.txt) && w.end(section);
      default:
        return w.record(this.wire, TYPE_PTR, false, Math.min(OTHER_TTL, ttlCap), this.typeAt[s]) && w.nameData(it.wire, it.nameAt[s]) && w.end(section);
    }
  }

  /**
   * The `n`th record (n = 0, 1, 2) that belongs with record `r` as additional data (RFC 6763 §12: a PTR
   * brings its SRV, TXT and A, an SRV its A), or -1.
   */
  additional(r: number, n: number): number {
    if (r >= this.instances.length * this.kinds) return -1;
    const base = r - (r % this.kinds);
    const k = r % this.kinds;
    if (k === 0 || (k - 1) % 3 === 1) return -1;
    const s = ((k - 1) / 3) | 0;
    if ((k - 1) % 3 === 0) return n === 0 ? base : -1;
    return n === 0 ? base + 1 + 3 * s : n === 1 ? base + 2 + 3 * s : n === 2 ? base : -1;
  }

  /** Sets `bit` in `flags` for each record that answers the question (name at `at` of `msg`, `type`). */
  answersTo(msg: Uint8Array, at: number, type: number, flags: number[], bit: number): void {
    const any = type === TYPE_ANY;
    const list = this.instances;
    for (let s = 0; s < this.typeAt.length; s++) {
      if ((any || type === TYPE_PTR) && nameEquals(msg, at, this.wire, 0)) flags[list.length * this.kinds + s] |= bit;
      if (!(any || type === TYPE_PTR) || !nameEquals(msg, at, this.wire, this.typeAt[s])) continue;
      for (let i = 0; i < list.length; i++) if (list[i].answers) flags[i * this.kinds + 3 + 3 * s] |= bit;
    }
    for (let i = 0; i < list.length; i++) {
      const it = list[i];
      if (!it.answers) continue;
      if ((any || type === TYPE_A) && nameEquals(msg, at, it.wire, 0)) flags[i * this.kinds] |= bit;
      for (let s = 0; s < this.typeAt.length; s++) {
        if (!nameEquals(msg, at, it.wire, it.nameAt[s])) continue;
        if (any || type === TYPE_SRV) flags[i * this.kinds + 1 + 3 * s] |= bit;
        if (any || type === TYPE_TXT) flags[i * this.kinds + 2 + 3 * s] |= bit;
      }
    }
  }

  /**
   * Clears `bits` in `flags` for our record that a known answer names (RFC 6762 §7.1: name, type and
   * data of a PTR; name and type of the unique records), when its TTL is at least half of ours.
   */
  knownAnswer(msg: Uint8Array, at: number, type: number, ttl: number, dataAt: number, flags: number[], bits: number): void {
    const list = this.instances;
    const shared = list.length * this.kinds;
    const keep = ~bits;
    for (let s = 0; s < this.typeAt.length; s++) {
      if (type !== TYPE_PTR || 2 * ttl < OTHER_TTL) break;
      if (nameEquals(msg, at, this.wire, 0) && nameEquals(msg, dataAt, this.wire, this.typeAt[s])) flags[shared + s] &= keep;
      if (!nameEquals(msg, at, this.wire, this.typeAt[s])) continue;
      for (let i = 0; i < list.length; i++) if (nameEquals(msg, dataAt, list[i].wire, list[i].nameAt[s])) flags[i * this.kinds + 3 + 3 * s] &= keep;
    }
    if (type === TYPE_PTR) return;
    for (let i = 0; i < list.length; i++) {
      if (type === TYPE_A && 2 * ttl >= HOST_TTL && nameEquals(msg, at, list[i].wire, 0)) flags[i * this.kinds] &= keep;
      for (let s = 0; s < this.typeAt.length; s++) {
        if (type === TYPE_SRV && 2 * ttl >= HOST_TTL && nameEquals(msg, at, list[i].wire, list[i].nameAt[s])) flags[i * this.kinds + 1 + 3 * s] &= keep;
        if (type === TYPE_TXT && 2 * ttl >= OTHER_TTL && nameEquals(msg, at, list[i].wire, list[i].nameAt[s])) flags[i * this.kinds + 2 + 3 * s] &= keep;
      }
    }
  }

  /** The instance a record name (at `at` of `msg`) belongs to, or -1: for conflicts while probing. */
  ownerOf(msg: Uint8Array, at: number, state: number): number {
    for (let i = 0; i < this.instances.length; i++) {
      const it = this.instances[i];
      if (it.state !== state) continue;
      if (nameEquals(msg, at, it.wire, 0)) return i;
      for (let s = 0; s < this.typeAt.length; s++) if (nameEquals(msg, at, it.wire, it.nameAt[s])) return i;
    }
    return -1;
  }
}
Object.freeze(RecordSet.prototype);
