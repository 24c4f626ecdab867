// The module announces itself by multicast DNS / DNS-SD with Moddable's own mdns module
// (docs/lab.md): it claims {hostname}.local by probing (a name someone else answers for
// becomes name-2, name-3…: the mdns module's own renaming), then adds _http._tcp and _brainstem._tcp on
// the REST port with the TXT record of src/api/announcement.ts. After a reset that changed the saved
// hostname or REST port, start() announces again under the new ones.

import config from 'mc/config';
import MDNS from 'mdns';
import { announcedHostname, announcementTxt, SERVICE_TYPES } from '../api/announcement';
import type { ModuleHal } from '../../hal/types';

/** The mdns module's callback message for a claimed host name (MDNS.hostName). */
const CLAIMED = 1;
/** The socket module's message for a received packet (kSocketMsgDataReceived). */
const RECEIVED = 2;

type SocketCallback = (message: number, value?: unknown, address?: string, port?: number) => void;
const mdnsCallback = (MDNS.prototype as unknown as { callback: SocketCallback }).callback;

/**
 * Moddable's MDNS, handed received packets only: it reads a packet on every socket message, and the
 * desktop host's socket also tells a UDP socket it is "connected" and its data "sent" (on ESP32 a UDP
 * socket reports received packets only, so this changes nothing there).
 */
class Responder extends MDNS {
  callback(message: number, value?: unknown, address?: string, port?: number): void {
    if (message === RECEIVED) mdnsCallback.call(this, message, value, address, port);
  }
}
Object.freeze(Responder.prototype);

type Claimer = Responder & { close(): void };

export class Announcer {
  #mdns: Claimer | null = null;
  #hostname = '';
  #port = 0;

  /**
   * Announce `device` on `port`, unless it is announced so already, or the build says not to
   * (config.announce false: the lin desktop host of SDK 8.2.3, whose socket module refuses every
   * multicast address and then closes descriptor 0 when the half-made socket is collected; a by-hand
   * build with a fixed socket module sets it true in its own manifest).
   */
  start(device: ModuleHal, port: number, tokenSet: boolean): void {
    const setting = (config as { announce?: unknown }).announce;
    if (setting === false || setting === 'false') {
      trace('not announced: config.announce is false on this platform\n');
      return;
    }
    const hostName = announcedHostname(device);
    if (this.#mdns && hostName === this.#hostname && port === this.#port) return;
    this.close();
    this.#hostname = hostName;
    this.#port = port;
    const txt = announcementTxt(device, tokenSet);
    try {
      const mdns = new Responder({ hostName }, (message, value) => {
        if (message !== CLAIMED || !value) return; // '' while probing
        for (let i = 0; i < SERVICE_TYPES.length; i++) mdns.add({ name: SERVICE_TYPES[i], protocol: 'tcp', port, txt });
        trace(`announced ${value}.local (_http._tcp, _brainstem._tcp) on port ${port}\n`);
      }) as Claimer;
      this.#mdns = mdns;
    } catch (e) {
      // No multicast socket (the SDK 8.2.3 desktop host refuses every multicast address): the REST
      // API serves on, unannounced.
      trace(`not announced: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }

  close(): void {
    if (this.#mdns) this.#mdns.close();
    this.#mdns = null;
  }
}
Object.freeze(Announcer.prototype);
