// The module announces itself by multicast DNS / DNS-SD with Moddable's own mdns module
// (DECISIONS.md §Discovery): it claims {hostname}.local by probing (a name someone else answers for
// becomes name-2, name-3…: the mdns module's own renaming), then adds _http._tcp and _brainstem._tcp on
// the REST port with the TXT record of src/api/announcement.ts. After a reset that changed the saved
// hostname or REST port, start() announces again under the new ones.

import MDNS from 'mdns';
import { announcedHostname, announcementTxt, SERVICE_TYPES } from '../api/announcement';
import type { ModuleHal } from '../../hal/types';

/** The mdns module's callback message for a claimed host name (MDNS.hostName). */
const CLAIMED = 1;

type Claimer = MDNS & { close(): void };

export class Announcer {
  #mdns: Claimer | null = null;
  #hostname = '';
  #port = 0;

  /** Announce `device` on `port`, unless it is announced so already. */
  start(device: ModuleHal, port: number, tokenSet: boolean): void {
    const hostName = announcedHostname(device);
    if (this.#mdns && hostName === this.#hostname && port === this.#port) return;
    this.close();
    this.#hostname = hostName;
    this.#port = port;
    const txt = announcementTxt(device, tokenSet);
    try {
      const mdns = new MDNS({ hostName }, (message, value) => {
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
