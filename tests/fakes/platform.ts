// Fake of the platform layer ('hal/device/platform'): a chip that can restart or not (chipRestarts),
// with a fixed MAC and addresses, and a record of every restart asked for (with the virtual time).

import type { PlatformApi } from '../../hal/device/platform/api';
import { net } from './net';
import { chip } from './watchdog';

export interface FakePlatform extends PlatformApi {
  /** true: restart() reboots the chip (the caller stops); false: the caller does a soft reset. */
  chipRestarts: boolean;
  mac: string;
  ip: string;
  dns: string[];
  /** net.now at each restart() call. */
  restarts: number[];
  /** Called on each restart() (a test looks at what the client had received by then). */
  onRestart: (() => void) | null;
}

const platform: FakePlatform = {
  chipRestarts: false,
  mac: '02:00:00:12:34:56',
  ip: '192.168.1.50',
  dns: ['192.168.1.1'],
  restarts: [],
  onRestart: null,
  restart(): boolean {
    this.restarts.push(net.now);
    if (this.onRestart) this.onRestart();
    if (this.chipRestarts) chip.restartedBy('software'); // System.restart: esp_restart, watchdog_reboot
    return this.chipRestarts;
  },
  macAddress(): string { return this.mac; },
  ipAddress(): string { return this.ip; },
  dnsAddresses(): string[] { return this.dns; },
};

export default platform;
