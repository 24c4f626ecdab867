// A multicast DNS / DNS-SD responder (RFC 6762, RFC 6763) for one or more announced modules, shared by
// the module (src/device/announce.ts, on the ECMA-419 UDP socket) and the simulator
// (host-sim/announce.ts, on node:dgram): it probes every name it wants at once (§8.1, three probes
// 250 ms apart, one message probing many names), takes name-2, name-3… when someone answers for one
// (§9), announces twice a second apart (§8.3), answers queries for A, PTR, SRV, TXT and ANY with the
// right additional records (RFC 6763 §12) after a short random delay (§6), leaves out what a query
// already knows (§7.1, also across the packets of a truncated query, §7.2), never multicasts a record
// twice within a second (§6), splits answers so no message exceeds 1,460 bytes (§17), answers legacy
// unicast queries by unicast (§6.7), and says goodbye with TTL 0 (§10.1). A packet it cannot read is
// dropped and counted: nothing a neighbour sends throws, loops or grows memory.

import { copyName, DnsReader, FLAG_RESPONSE, FLAG_TRUNCATED, OPCODE_MASK } from './dns-reader';
import { ANNOUNCED, ANNOUNCING, IDLE, LEGACY_TTL, PROBING, RecordSet, type Announcement } from './mdns-records';
import { Composer, DEFERRED, NOW, PENDING, PROBE_ANSWER } from './mdns-composer';
import { PROBE_MS, PROBES, sendProbes } from './mdns-probe';
import { MDNS_GROUP, MDNS_PORT } from './mdns-constants';

const ANNOUNCEMENTS = 2;
const ANNOUNCE_MS = 1000;
/** §6: a record is multicast at most once a second (a probe is answered again after 250 ms). */
const REPEAT_MS = 1000;
/** A probe is answered again after 250 ms (§6). */
const PROBE_REPEAT_MS = 250;
const NO_LIMIT = 0xffffffff;

/** What the responder needs from its platform. Any of these may throw; the responder catches it. */
export interface MdnsPlatform {
  send(packet: Uint8Array, address: string, port: number): void;
  /** Monotonic milliseconds. */
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
  /** A name was taken (after probing) or given up (`name` ''), for the Host check and the log. */
  named?(index: number, name: string): void;
}

export class MdnsResponder {
  readonly records: RecordSet;
  /** Packets dropped as unreadable (or that made anything throw), and conflicts met while probing. */
  dropped = 0;
  conflicts = 0;
  private readonly platform: MdnsPlatform;
  private readonly reader = new DnsReader();
  private readonly composer: Composer;
  private readonly flags: number[];
  /** One timer for probes, announcements and answers: when it fires, and when answers are due (-1: none). */
  private timer: unknown = null;
  private timerDue = -1;
  private answerDue = -1;
  private probeStart = -1;
  private closed = false;
  private readonly wake = (): void => {
    this.timer = null;
    this.timerDue = -1;
    if (this.closed) return;
    const now = this.platform.now();
    if (this.answerDue >= 0 && this.answerDue <= now) {
      this.answerDue = -1;
      this.answer(now);
    }
    this.step(now);
    this.schedule();
  };

  constructor(platform: MdnsPlatform, serviceTypes: readonly string[], count: number) {
    this.platform = platform;
    this.records = new RecordSet(serviceTypes, count);
    this.composer = new Composer(this.records, platform);
    this.flags = this.composer.flags;
  }

  /** Messages the platform could not send (lwIP out of buffers, no route). */
  get sendFailures(): number {
    return this.composer.failures;
  }

  /** This host's IPv4 addresses (4 bytes each), for the A records. */
  setAddresses(bytes: Uint8Array): void {
    this.records.addresses = bytes;
  }

  /** The name instance `i` announces (after any renaming). */
  nameOf(i: number): string {
    return this.records.instances[i].name;
  }

  /** Announces instance `i` as `a`: a goodbye for what it announced before, then probing anew. */
  set(i: number, a: Announcement): void {
    const it = this.records.instances[i];
    if (it.state !== IDLE) this.withdraw(i);
    it.set(a, this.records);
    this.avoidOwnNames(i);
    it.state = PROBING;
    it.step = 0;
    // §8.1: a random first wait, shared by every name set before it ends (one probe for all of them).
    const now = this.platform.now();
    if (this.probeStart <= now) this.probeStart = now + ((Math.random() * PROBE_MS) | 0);
    it.due = this.probeStart;
    this.schedule();
  }

  /** Goodbye (TTL 0) for instance `i`; it announces nothing until set() again. */
  withdraw(i: number): void {
    const it = this.records.instances[i];
    if (it.answers) this.sendRecords(i, i + 1, false, 0);
    it.state = IDLE;
    this.platform.named?.(i, '');
  }

  /** Goodbye for everything, timers stopped. */
  close(): void {
    if (this.closed) return;
    const list = this.records.instances;
    let any = false;
    for (let i = 0; i < list.length; i++) any = any || list[i].answers;
    if (any) this.sendRecords(0, list.length, true, 0);
    for (let i = 0; i < list.length; i++) list[i].state = IDLE;
    this.closed = true;
    this.stop();
  }

  /** A packet from the network. Whatever it holds, this returns normally. */
  receive(packet: Uint8Array, length: number, address: string, port: number): void {
    if (this.closed) return;
    try {
      if (!this.read(packet, length, address, port)) this.dropped++;
    } catch {
      this.dropped++;
    }
  }

  private read(packet: Uint8Array, length: number, address: string, port: number): boolean {
    const rd = this.reader;
    if (!rd.reset(packet, length) || (rd.flags & OPCODE_MASK) !== 0) return false;
    if (rd.flags & FLAG_RESPONSE) return this.readResponse();
    if (port !== MDNS_PORT) return this.answerLegacy(address, port);
    const probe = rd.authorities > 0;
    for (let q = 0; q < rd.questions; q++) {
      if (!rd.question()) return false;
      this.records.answersTo(rd.msg, rd.nameAt, rd.type, this.flags, probe ? PENDING | PROBE_ANSWER : PENDING);
    }
    for (let a = 0; a < rd.answers; a++) {
      if (!rd.record()) return false;
      this.records.knownAnswer(rd.msg, rd.nameAt, rd.type, rd.ttl, rd.dataAt, this.flags, PENDING);
    }
    // §6: a probe is answered at once; §7.2: a truncated query's known answers continue for 400-500 ms
    // (their packets have no questions, and do not hurry the answer).
    if (rd.questions === 0) return true;
    const delay = probe ? 0 : (rd.flags & FLAG_TRUNCATED) ? 400 + Math.random() * 100 : 20 + Math.random() * 100;
    this.answerLater(delay | 0);
    return true;
  }

  /** A response from someone else: a record for a name being probed is a conflict (§8.1, §9). */
  private readResponse(): boolean {
    const rd = this.reader;
    const records = rd.answers + rd.authorities + rd.additionals;
    for (let r = 0; r < records; r++) {
      if (!rd.record()) return false;
      const i = this.records.ownerOf(rd.msg, rd.nameAt, PROBING);
      if (i >= 0) this.conflict(i);
    }
    return true;
  }

  private conflict(i: number): void {
    const it = this.records.instances[i];
    this.conflicts++;
    it.number++;
    it.rename(this.records);
    this.avoidOwnNames(i);
    it.step = 0;
    // §8.1: after 15 conflicts within 10 s, wait 5 s; counted over the whole responder here.
    it.due = this.platform.now() + (this.conflicts > 15 ? 5000 : 0);
    this.schedule();
  }

  /** Instance `i` never takes a name another instance of this responder holds. */
  private avoidOwnNames(i: number): void {
    const list = this.records.instances;
    for (let j = 0; j < list.length; j++) {
      if (j === i || list[j].state === IDLE || list[j].name.toLowerCase() !== list[i].name.toLowerCase()) continue;
      list[i].number++;
      list[i].rename(this.records);
      j = -1;
    }
  }

  /** Probes and announcements that are due. */
  private step(now: number): void {
    const list = this.records.instances;
    for (let i = 0; i < list.length; i++) {
      const it = list[i];
      if (it.state === PROBING && it.step === PROBES && it.due <= now) {
        it.state = ANNOUNCING;
        it.step = 0;
        this.platform.named?.(i, it.name);
      }
    }
    sendProbes(this.records, this.composer, now);
    let announcing = false;
    for (let i = 0; i < list.length; i++) {
      const it = list[i];
      if (it.state !== ANNOUNCING || it.due > now) continue;
      this.flagRecords(i);
      announcing = true;
      it.due = now + ANNOUNCE_MS;
      if (++it.step === ANNOUNCEMENTS) it.state = ANNOUNCED;
    }
    if (announcing) this.flagShared();
    this.composer.send(NOW, false, NO_LIMIT, MDNS_GROUP, MDNS_PORT, now);
  }

  /** The timer set for the next probe, announcement or answer due. */
  private schedule(): void {
    if (this.closed) return;
    let next = this.answerDue;
    const list = this.records.instances;
    for (let i = 0; i < list.length; i++) {
      if ((list[i].state === PROBING || list[i].state === ANNOUNCING) && (next < 0 || list[i].due < next)) next = list[i].due;
    }
    if (next === this.timerDue && this.timer !== null) return;
    this.stop();
    if (next < 0) return;
    this.timerDue = next;
    this.timer = this.platform.setTimer(this.wake, Math.max(0, next - this.platform.now()));
  }

  private stop(): void {
    if (this.timer !== null) this.platform.clearTimer(this.timer);
    this.timer = null;
    this.timerDue = -1;
  }

  /** Flags every record of instance `i` NOW. */
  private flagRecords(i: number): void {
    const base = i * this.records.kinds;
    for (let k = 0; k < this.records.kinds; k++) this.flags[base + k] |= NOW;
  }

  /** Flags the shared `_services._dns-sd._udp` records NOW. */
  private flagShared(): void {
    for (let r = this.records.instances.length * this.records.kinds; r < this.flags.length; r++) this.flags[r] |= NOW;
  }

  /** Sends the records of instances [from, to) (and the shared ones), TTLs capped at `ttl`. */
  private sendRecords(from: number, to: number, shared: boolean, ttl: number): void {
    for (let i = from; i < to; i++) if (this.records.instances[i].answers) this.flagRecords(i);
    if (shared) this.flagShared();
    this.composer.send(NOW, false, ttl, MDNS_GROUP, MDNS_PORT, -1);
  }

  /** Answers pending queries after `delay` ms (an earlier due time stands). */
  private answerLater(delay: number): void {
    const due = this.platform.now() + delay;
    if (this.answerDue >= 0 && this.answerDue <= due) return;
    this.answerDue = due;
    this.schedule();
  }

  /**
   * The pending answers that were not multicast within the last second (a probe's: 250 ms); the
   * others wait until that second has passed (§6), then go unless a known answer took them back.
   */
  private answer(now: number): void {
    const last = this.composer.lastSent;
    let wait = -1;
    for (let r = 0; r < this.flags.length; r++) {
      if (!(this.flags[r] & PENDING)) continue;
      const left = last[r] + (this.flags[r] & PROBE_ANSWER ? PROBE_REPEAT_MS : REPEAT_MS) - now;
      if (left <= 0) continue;
      this.flags[r] = (this.flags[r] & ~PENDING) | DEFERRED;
      if (wait < 0 || left < wait) wait = left;
    }
    this.composer.send(PENDING, true, NO_LIMIT, MDNS_GROUP, MDNS_PORT, now);
    if (wait < 0) return;
    for (let r = 0; r < this.flags.length; r++) if (this.flags[r] & DEFERRED) this.flags[r] = (this.flags[r] & ~DEFERRED) | PENDING;
    this.answerDue = now + Math.ceil(wait);
  }

  /** §6.7: a query from a port other than 5353 is answered at once, by unicast, its first question echoed. */
  private answerLegacy(address: string, port: number): boolean {
    const rd = this.reader;
    if (rd.questions === 0 || !rd.question()) return false;
    const question = new Uint8Array(256); // rare: made per legacy query, not kept
    const length = copyName(rd.msg, rd.nameAt, question);
    if (length === 0) return false;
    this.records.answersTo(rd.msg, rd.nameAt, rd.type, this.flags, NOW);
    this.composer.sendLegacy(NOW, rd.id, question.subarray(0, length), rd.type, LEGACY_TTL, address, port);
    return true;
  }
}
Object.freeze(MdnsResponder.prototype);
