// `--announce`: the simulator announces each module it serves by multicast DNS / DNS-SD, as a module
// does (docs/lab.md): {hostname}.local, _http._tcp and _brainstem._tcp on the simulator's
// port, the TXT record of src/api/announcement.ts. A name already answered for on the network is
// probed first (RFC 6762 §8.1: three queries 250 ms apart) and the module takes -2, -3… instead.
// A reset that brings another host name into effect withdraws the old announcement and makes the
// new one, as a module does. Off by default: the simulator listens on 127.0.0.1, which no other
// machine can reach.

import { Bonjour, type Service } from 'bonjour-service';
import multicastDns from 'multicast-dns';
import type { Question, RecordType } from 'dns-packet';
import { announcedHostname, announcementTxt, SERVICE_TYPES } from '../src/api/announcement';
import type { ModuleHal } from '../hal/types';
import type { SimModule } from '../hal/sim/index';
import { hearSocketErrors } from '../host-server/discovery';
import { serialText } from '../src/api/route/serial';

const PROBES = 3;
const PROBE_GAP_MS = 250;

export interface Announcer {
  /** The names the modules were announced under (after any renaming), in module order. */
  readonly names: string[];
  close(): Promise<void>;
}

/** Does anyone on the network answer for `name` (as a host or as one of our service instances)? */
function taken(mdns: multicastDns.MulticastDNS, name: string): Promise<boolean> {
  const names = [`${name}.local`, ...SERVICE_TYPES.map((t) => `${name}._${t}._tcp.local`)].map((n) => n.toLowerCase());
  // RFC 6762 §8.1 probes ask for type ANY, which dns-packet sends but its typings leave out.
  const questions: Question[] = names.map((n) => ({ name: n, type: 'ANY' as unknown as RecordType }));
  return new Promise((resolve) => {
    let sent = 0;
    let timer: NodeJS.Timeout;
    const onResponse = (packet: multicastDns.ResponsePacket): void => {
      const all = [...packet.answers, ...(packet.additionals ?? [])];
      if (all.some((rr) => names.includes(rr.name.toLowerCase()))) finish(true);
    };
    const finish = (yes: boolean): void => {
      clearTimeout(timer);
      mdns.removeListener('response', onResponse);
      resolve(yes);
    };
    const ask = (): void => {
      if (sent++ === PROBES) return finish(false);
      mdns.query(questions);
      timer = setTimeout(ask, PROBE_GAP_MS);
    };
    mdns.on('response', onResponse);
    ask();
  });
}

/** `base`, else `base-2`, `base-3`… whichever nobody answers for (a DNS label stays within 63 bytes). */
async function freeName(mdns: multicastDns.MulticastDNS, base: string, ours: Set<string>): Promise<string> {
  for (let n = 1; ; n++) {
    const suffix = n === 1 ? '' : `-${n}`;
    const name = base.slice(0, 63 - suffix.length) + suffix;
    if (!ours.has(name.toLowerCase()) && !(await taken(mdns, name))) return name;
  }
}

/** One module's announcement: the name it took (after any renaming), for what, and its two services. */
interface Entry {
  base: string;
  txt: string;
  name: string;
  services: Service[];
}

/** Probe for a free name for `m` and publish both services under it, on a prober of its own. */
async function publish(bonjour: Bonjour, m: ModuleHal, port: number, tokenSet: boolean, ours: Set<string>,
  log: (line: string) => void): Promise<Entry> {
  const base = announcedHostname(m);
  const txt = announcementTxt(m, tokenSet);
  const mdns = multicastDns();
  mdns.on('error', () => {}); // the failure is reported once, by the Bonjour socket
  let name: string;
  try {
    name = await freeName(mdns, base, ours);
  } finally {
    mdns.destroy();
  }
  if (name !== base) log(`announce: ${base}.local is taken on the network; announced as ${name}.local`);
  ours.add(name.toLowerCase());
  const services = SERVICE_TYPES.map((type) => bonjour.publish({ name, type, port, host: `${name}.local`, txt, probe: false }));
  return { base, txt: JSON.stringify(txt), name, services };
}

/** Withdraw an announcement: its records sent again with TTL 0 (RFC 6762 §10.1, goodbye). */
function withdraw(entry: Entry, ours: Set<string>): Promise<void> {
  ours.delete(entry.name.toLowerCase());
  return Promise.all(entry.services.map((s) => new Promise<void>((done) => s.stop?.(() => done())))).then(() => undefined);
}

export async function announce(modules: readonly SimModule[], port: number, tokenSet: boolean,
  log: (line: string) => void): Promise<Announcer> {
  const bonjour = new Bonjour({}, (e: Error) => log(`announce: ${e.message}`));
  let failed = false;
  hearSocketErrors(bonjour, (e) => {
    if (!failed) log(`announce: multicast DNS unavailable (${e.message}); not announced`);
    failed = true;
  });
  const ours = new Set<string>();
  const entries: Entry[] = [];
  // First every module's claim, then, one at a time in the order of the resets, each reset that
  // brings another host name (or TXT) into effect: goodbye to the old, probe, announce the new. The
  // hooks are in place before the first claim, so a reset while it probes is not missed.
  let closed = false;
  let queue = (async (): Promise<void> => {
    for (const m of modules) entries.push(await publish(bonjour, m, port, tokenSet, ours, log));
  })();
  modules.forEach((m, i) => m.onReset(() => {
    queue = queue.then(async () => {
      const old = entries[i];
      if (closed || (announcedHostname(m) === old.base && JSON.stringify(announcementTxt(m, tokenSet)) === old.txt)) return;
      await withdraw(old, ours);
      entries[i] = await publish(bonjour, m, port, tokenSet, ours, log);
      if (!failed) log(`announce: ${serialText(m.serialNumber)} announced again as ${entries[i].name}.local (was ${old.name}.local)`);
    }).catch((e: Error) => log(`announce: ${e.message}`));
  }));
  await queue;
  return {
    names: failed ? [] : entries.map((e) => e.name),
    close: () => new Promise<void>((done) => {
      closed = true;
      void queue.then(() => bonjour.unpublishAll(() => bonjour.destroy(() => done())));
    }),
  };
}
