// `--announce`: the simulator announces each module it serves by multicast DNS / DNS-SD, as a module
// does (docs/lab.md): {hostname}.local, _http._tcp and _brainstem._tcp on the simulator's
// port, the TXT record of src/api/announcement.ts. A name already answered for on the network is
// probed first (RFC 6762 §8.1: three queries 250 ms apart) and the module takes -2, -3… instead.
// Off by default: the simulator listens on 127.0.0.1, which no other machine can reach.

import { Bonjour, type Service } from 'bonjour-service';
import multicastDns from 'multicast-dns';
import type { Question, RecordType } from 'dns-packet';
import { announcedHostname, announcementTxt, SERVICE_TYPES } from '../src/api/announcement';
import type { ModuleHal } from '../hal/types';
import { hearSocketErrors } from '../host-server/discovery';

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

export async function announce(modules: readonly ModuleHal[], port: number, tokenSet: boolean,
  log: (line: string) => void): Promise<Announcer> {
  const bonjour = new Bonjour({}, (e: Error) => log(`announce: ${e.message}`));
  let failed = false;
  hearSocketErrors(bonjour, (e) => {
    if (!failed) log(`announce: multicast DNS unavailable (${e.message}); not announced`);
    failed = true;
  });
  const mdns = multicastDns();
  mdns.on('error', () => {}); // the same failure, reported once above
  const services: Service[] = [];
  const names: string[] = [];
  const ours = new Set<string>();
  try {
    for (const m of modules) {
      const base = announcedHostname(m);
      const name = await freeName(mdns, base, ours);
      if (name !== base) log(`announce: ${base}.local is taken on the network; announced as ${name}.local`);
      ours.add(name.toLowerCase());
      names.push(name);
      const txt = announcementTxt(m, tokenSet);
      for (const type of SERVICE_TYPES) services.push(bonjour.publish({ name, type, port, host: `${name}.local`, txt, probe: false }));
    }
  } finally {
    mdns.destroy();
  }
  return {
    names: failed ? [] : names,
    close: () => new Promise<void>((done) => {
      bonjour.unpublishAll(() => bonjour.destroy(() => done()));
    }),
  };
}
