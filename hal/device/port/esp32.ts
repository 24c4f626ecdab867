// The module build: restart through System.restart() (embedded:io/system, installed as a global by the
// io manifest), addresses from the `net` module of the station interface.

import Net from 'net'; // Moddable's network-status module (the manifest's modules), not Node's
import type { PortApi } from './api';

const port: PortApi = Object.freeze({
  restart(): boolean {
    System.restart();
    return true;
  },
  macAddress: () => Net.get('MAC') ?? '',
  ipAddress: () => Net.get('IP') ?? '',
  dnsAddresses: () => Net.get('DNS') ?? [],
});

export default port;
