// The Moddable desktop host (mcsim on Linux): no System.restart and no MAC from `net`. The restart is a
// soft reset (saved settings back, unsaved dropped); the MAC is the locally administered one configured
// in the manifest (config.lin.mac), so the serial number derived from it is stable.

import Net from 'net'; // Moddable's network-status module (the manifest's modules), not Node's
import config from 'mc/config';
import type { PortApi } from './api';

const lin = (config.lin ?? {}) as { mac?: string };

const port: PortApi = Object.freeze({
  restart: () => false,
  macAddress: () => lin.mac ?? '02:00:00:12:34:56',
  ipAddress: () => Net.get('IP') ?? '',
  dnsAddresses: () => [],
});

export default port;
