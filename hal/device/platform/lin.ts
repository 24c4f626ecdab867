// The Moddable desktop host (mcsim on Linux): no System.restart and no MAC from `net`. The restart is a
// soft reset (saved settings back, unsaved dropped); the MAC is the locally administered one configured
// in the manifest (config.lin.mac), so the serial number derived from it is stable. The config is read
// when asked (no module-level state: this module is preloaded).

import Net from 'net'; // Moddable's network-status module (the manifest's modules), not Node's
import config from 'mc/config';
import type { PlatformApi } from './api';

const platform: PlatformApi = Object.freeze({
  restart: (): boolean => false,
  macAddress: (): string => ((config.lin ?? {}) as { mac?: string }).mac ?? '02:00:00:12:34:56',
  identifier: (): string => ((config.lin ?? {}) as { mac?: string }).mac ?? '02:00:00:12:34:56',
  ipAddress: (): string => Net.get('IP') ?? '',
  dnsAddresses: (): string[] => [],
});

export default platform;
