// Probing (RFC 6762 §8.1): every instance whose probe is due asks, in one round, for its host name and
// instance names (type ANY, the first round with QU), its proposed records in the authority section
// (§8.2), as many instances to a message as fit: 50 modules are probed in a few messages, not one
// after another.

import { TYPE_ANY } from './dns-reader';
import { DnsWriter, SECTION_AUTHORITY } from './dns-writer';
import { PROBING, type RecordSet } from './mdns-records';
import type { Composer } from './mdns-composer';
import { MDNS_GROUP, MDNS_PORT } from './mdns-constants';

export const PROBES = 3;
export const PROBE_MS = 250;
const NO_LIMIT = 0xffffffff;

function probing(records: RecordSet, i: number, now: number): boolean {
  const it = records.instances[i];
  return it.state === PROBING && it.due <= now && it.step < PROBES;
}

/** The questions of instance `i`'s probe. */
function questions(records: RecordSet, w: DnsWriter, i: number): boolean {
  const it = records.instances[i];
  if (!w.question(it.wire, TYPE_ANY, it.step === 0)) return false;
  for (let s = 0; s < it.nameAt.length; s++) if (!w.question(it.wire, TYPE_ANY, it.step === 0, it.nameAt[s])) return false;
  return true;
}

/** The records instance `i` proposes: A, SRV and TXT. False when they do not all fit. */
function authority(records: RecordSet, w: DnsWriter, i: number): boolean {
  const base = i * records.kinds;
  for (let k = 0; k < records.kinds; k++) {
    if ((k === 0 || (k - 1) % 3 !== 2) && !records.write(w, base + k, SECTION_AUTHORITY, NO_LIMIT)) return false;
  }
  return true;
}

/**
 * One probe message for at most `most` of the instances due from `first` on: their questions, then
 * their proposed records. The index after the last instance it holds, or -N when the proposed
 * records of only its first N instances fit (write it again for N).
 */
function fill(records: RecordSet, w: DnsWriter, first: number, most: number, now: number): number {
  w.begin(0, 0);
  let i = first;
  let n = 0;
  for (; i < records.instances.length && n < most; i++) {
    if (!probing(records, i, now)) continue;
    w.checkpoint();
    if (!questions(records, w, i)) {
      w.rollback();
      break;
    }
    n++;
  }
  let complete = 0;
  for (let j = first; j < i; j++) {
    if (!probing(records, j, now)) continue;
    if (!authority(records, w, j)) return n > 1 ? -(complete || n >> 1) : i;
    complete++;
  }
  return n === 0 ? i + 1 : i; // none due, or one instance's questions alone do not fit: skipped
}

/** One probe round for every instance whose probe is due, in as few messages as they fit in. */
export function sendProbes(records: RecordSet, composer: Composer, now: number): void {
  const w = composer.writer;
  const list = records.instances;
  for (let i = 0; i < list.length;) {
    const first = i;
    i = fill(records, w, first, list.length, now);
    while (i < 0) i = fill(records, w, first, -i, now);
    if (w.empty) continue;
    composer.emit(w.finish(), MDNS_GROUP, MDNS_PORT);
    for (let j = first; j < i; j++) {
      if (!probing(records, j, now)) continue;
      list[j].step++;
      list[j].due = now + PROBE_MS;
    }
  }
  composer.release();
}
