// The module announces itself by multicast DNS / DNS-SD (docs/module.md §Discovery) with the project's
// own responder (src/dns/mdns-responder.ts, the one the simulator runs) on the ECMA-419 UDP socket,
// bound to port 5353 with the mDNS group joined (src/device/mdns-socket, per platform): it claims {hostname}.local by
// probing (a name someone else answers for becomes name-2, name-3…), announces _http._tcp and
// _brainstem._tcp on the REST port with the TXT record of src/api/announcement.ts, and answers queries
// for as long as the network is up. After a reset that changed the saved hostname or REST port, start()
// announces again under the new ones. No packet can make it throw: the responder drops what it
// cannot read.

import config from 'mc/config';
import Timer from 'timer';
import platform from 'hal/device/platform';
import { announcedHostname, announcementTxt, SERVICE_TYPES } from '../api/announcement';
import { MdnsResponder, type MdnsPlatform } from '../dns/mdns-responder';
import { ipv4Bytes } from '../dns/mdns-names';
import { openMdnsSocket, type MdnsSocket } from 'src/device/mdns-socket/platform';
import type { ModuleHal } from '../../hal/types';


export class Announcer implements MdnsPlatform {
  #socket: MdnsSocket | null = null;
  #responder: MdnsResponder | null = null;
  #hostname = '';
  #port = 0;
  #txt = '';
  readonly #now: () => number;
  readonly #named: (name: string) => void;

  /** `now`: monotonic ms; `named`: the name the module took (after any renaming), '' when withdrawn. */
  constructor(now: () => number, named: (name: string) => void) {
    this.#now = now;
    this.#named = named;
  }

  /** The responder (its counters), for tests and the trace. */
  get responder(): MdnsResponder | null {
    return this.#responder;
  }

  /**
   * Announce `device` on `port`, unless it is announced so already, or the build says not to
   * (config.announce false; docs/module.md §Discovery).
   */
  start(device: ModuleHal, port: number, tokenSet: boolean): void {
    const setting = (config as { announce?: unknown }).announce;
    if (setting === false || setting === 'false') {
      trace('not announced: config.announce is false on this platform\n');
      return;
    }
    const hostname = announcedHostname(device);
    const txt = announcementTxt(device, tokenSet);
    const txtText = JSON.stringify(txt);
    if (this.#responder && hostname === this.#hostname && port === this.#port && txtText === this.#txt) return;
    if (!this.#responder && !this.#open()) return;
    this.#hostname = hostname;
    this.#port = port;
    this.#txt = txtText;
    this.#responder!.setAddresses(ipv4Bytes(platform.ipAddress()) ?? new Uint8Array(0));
    this.#responder!.set(0, { hostname, port, txt });
  }

  /** Goodbye (TTL 0) for everything announced, and the socket closed: the network went down. */
  close(): void {
    if (this.#responder) this.#responder.close();
    if (this.#socket) this.#socket.close();
    this.#responder = null;
    this.#socket = null;
    this.#hostname = '';
  }

  #open(): boolean {
    try {
      this.#socket = openMdnsSocket((count: number) => this.#read(count));
    } catch (e) {
      // No socket (port 5353 taken, no network) or no group: the REST API serves on, unannounced.
      trace(`not announced: ${e instanceof Error ? e.message : String(e)}\n`);
      return false;
    }
    // The announcer is the responder's platform: methods on its frozen prototype, not closures.
    this.#responder = new MdnsResponder(this, SERVICE_TYPES, 1);
    return true;
  }

  /** MdnsPlatform: a message out on the socket (a closed one throws, which the responder counts). */
  send(packet: Uint8Array, address: string, port: number): void {
    this.#socket!.write(packet, address, port);
  }

  /** MdnsPlatform: monotonic milliseconds. */
  now(): number {
    return this.#now();
  }

  /** MdnsPlatform. */
  setTimer(callback: () => void, ms: number): unknown {
    return Timer.set(callback, ms);
  }

  /** MdnsPlatform. */
  clearTimer(timer: unknown): void {
    Timer.clear(timer as Timer);
  }

  /** MdnsPlatform: the name the module took (after any renaming), '' when withdrawn. */
  named(_index: number, name: string): void {
    if (name) trace(`announced ${name}.local (_http._tcp, _brainstem._tcp) on port ${this.#port}\n`);
    this.#named(name);
  }

  #read(count: number): void {
    const socket = this.#socket;
    const responder = this.#responder;
    // Every queued packet is read: lwIP's socket queues them without limit until read.
    for (let i = 0; socket && i < count; i++) {
      let packet: ReturnType<MdnsSocket['read']>;
      try {
        packet = socket.read();
      } catch {
        return;
      }
      if (!packet) return;
      if (responder) responder.receive(new Uint8Array(packet), packet.byteLength, packet.address, packet.port);
    }
  }
}
Object.freeze(Announcer.prototype);
