// `--announce`: the simulator announces each module it serves by multicast DNS / DNS-SD with the
// module's own responder (src/dns/mdns-responder.ts), on one node:dgram socket for all of them
// (docs/lab.md): {hostname}.local, _http._tcp and _brainstem._tcp on the simulator's port, the TXT
// record of src/api/announcement.ts. Every name is probed at once (RFC 6762 §8.1) and a name already
// answered for on the network becomes -2, -3…. A reset that brings another host name (or TXT) into
// effect withdraws the old announcement and makes the new one, as a module does. Off by default: the
// simulator listens on 127.0.0.1, which no other machine can reach.

import * as dgram from 'node:dgram';
import { networkInterfaces } from 'node:os';
import { announcedHostname, announcementTxt, SERVICE_TYPES } from '../src/api/announcement';
import { MdnsResponder } from '../src/dns/mdns-responder';
import { MDNS_GROUP, MDNS_PORT } from '../src/dns/mdns-constants';
import type { Announcement } from '../src/dns/mdns-records';
import { ipv4Bytes } from '../src/dns/mdns-names';
import type { ModuleHal } from '../hal/types';
import type { SimModule } from '../hal/sim/index';
import { serialText } from '../src/api/route/serial';

export interface Announcer {
  /** The names the modules were announced under (after any renaming), in module order. */
  readonly names: string[];
  /** The responder (its counters: dropped, conflicts, sendFailures). */
  readonly responder: MdnsResponder | null;
  close(): Promise<void>;
}

export interface AnnounceOptions {
  /** The address the simulator listens on: announced as the A record unless it is a wildcard. */
  host?: string;
  /** A module took a name (or gave one up: ''), for the Host check. */
  named?: (index: number, name: string) => void;
}

/** The IPv4 addresses to announce: the listening address, else every external one (else loopback). */
export function announcedAddresses(host: string | undefined): Uint8Array {
  const fixed = host ? ipv4Bytes(host) : null;
  if (fixed && host !== '0.0.0.0') return fixed;
  const all = Object.values(networkInterfaces()).flat().filter((a) => a && a.family === 'IPv4');
  const external = all.filter((a) => !a!.internal);
  const chosen = (external.length ? external : all).slice(0, 4);
  const out = new Uint8Array(4 * chosen.length);
  chosen.forEach((a, i) => out.set(ipv4Bytes(a!.address)!, 4 * i));
  return out;
}

/** The multicast DNS socket: port 5353 shared with other responders on this host, the group joined. */
function openSocket(): Promise<dgram.Socket> {
  const socket = dgram.createSocket({ type: 'udp4', reuseAddr: true });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(MDNS_PORT, () => {
      try {
        socket.addMembership(MDNS_GROUP);
        socket.setMulticastTTL(255);
        socket.setMulticastLoopback(true);
      } catch (e) {
        socket.close();
        reject(e);
        return;
      }
      socket.removeListener('error', reject);
      resolve(socket);
    });
  });
}

function announcementOf(m: ModuleHal, port: number, tokenSet: boolean): Announcement {
  return { hostname: announcedHostname(m), port, txt: announcementTxt(m, tokenSet) };
}

const same = (a: Announcement, b: Announcement): boolean =>
  a.hostname === b.hostname && a.port === b.port && JSON.stringify(a.txt) === JSON.stringify(b.txt);

export async function announce(modules: readonly SimModule[], port: number, tokenSet: boolean,
  log: (line: string) => void, options: AnnounceOptions = {}): Promise<Announcer> {
  let socket: dgram.Socket;
  try {
    socket = await openSocket();
  } catch (e) {
    log(`announce: multicast DNS unavailable (${(e as Error).message}); not announced`);
    return { names: [], responder: null, close: async () => {} };
  }
  const wanted = modules.map((m) => announcementOf(m, port, tokenSet));
  const names: string[] = modules.map(() => '');
  const waiting = new Map<number, (name: string) => void>();
  const responder = new MdnsResponder({
    // node:dgram sends later; the responder reuses its buffer for the next message at once.
    send: (packet, address, to) => socket.send(Buffer.from(packet), to, address),
    now: () => performance.now(),
    setTimer: (callback, ms) => setTimeout(callback, ms),
    clearTimer: (t) => clearTimeout(t as NodeJS.Timeout),
    named: (i, name) => {
      if (name) names[i] = name;
      options.named?.(i, name);
      if (name) waiting.get(i)?.(name);
    },
  }, SERVICE_TYPES, modules.length);
  const addresses = announcedAddresses(options.host);
  responder.setAddresses(addresses);
  // Multicast leaves from the announced address's interface (else Linux may send from 0.0.0.0).
  if (addresses.length >= 4) socket.setMulticastInterface(addresses.subarray(0, 4).join('.'));
  socket.on('message', (packet, from) => responder.receive(packet, packet.length, from.address, from.port));
  socket.on('error', (e) => log(`announce: ${e.message}`));
  const claim = (i: number): Promise<string> => new Promise((resolve) => {
    waiting.set(i, (name) => {
      waiting.delete(i);
      if (name !== wanted[i].hostname) log(`announce: ${wanted[i].hostname}.local is taken on the network; announced as ${name}.local`);
      resolve(name);
    });
    responder.set(i, wanted[i]);
  });
  let closed = false;
  await Promise.all(modules.map((_, i) => claim(i)));
  modules.forEach((m, i) => m.onReset(() => {
    const now = announcementOf(m, port, tokenSet);
    if (closed || same(now, wanted[i])) return;
    const was = names[i];
    wanted[i] = now;
    void claim(i).then((name) => log(`announce: ${serialText(m.serialNumber)} announced again as ${name}.local (was ${was}.local)`));
  }));
  return {
    names,
    responder,
    close: () => new Promise<void>((done) => {
      if (closed) return done();
      closed = true;
      responder.close();
      // The goodbye is queued on the socket: close once it is sent.
      setTimeout(() => socket.close(() => done()), 50);
    }),
  };
}
