// Fake of the platform layer ('hal/device/platform'): a chip that can restart or not (chipRestarts),
// with addresses, and a record of every restart asked for (with the virtual time). Its MAC exists only
// once the Wi-Fi driver has started (a fake Wi-Fi object was made: tests/fakes/wifi.ts), as on the
// chips: before that the ESP32's `net` answers nothing (modules/network/net/esp/modNet.c:83-93:
// esp_wifi_get_mode fails, so no netif and no MAC) and the Pico W's reads lwIP's netif_list while it is
// NULL (modules/network/net/pico/modNet.c:54): bytes of the RP2040's boot ROM, the same on every board.
// Like the chips' platform (hal/device/platform/ecma419.ts) it has no identifier of its own.

import type { PlatformApi } from '../../hal/device/platform/api';
import { net } from './net';
import { radio } from './wifi';
import { chip } from './watchdog';

/** What a Pico W's `Net.get("MAC")` reads before its Wi-Fi chip is up (docs/pico.md). */
export const PICO_ROM_MAC = '00:F0:05:F8:9E:48';

export interface FakePlatform extends PlatformApi {
  /** true: restart() reboots the chip (the caller stops); false: the caller does a soft reset. */
  chipRestarts: boolean;
  /** Whose `net` module this is: what the MAC reads before the Wi-Fi driver has started. */
  chip: 'esp32' | 'pico';
  ip: string;
  dns: string[];
  /** net.now at each restart() call. */
  restarts: number[];
  /** Called on each restart() (a test looks at what the client had received by then). */
  onRestart: (() => void) | null;
}

const platform: FakePlatform = {
  chipRestarts: false,
  chip: 'esp32',
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
  macAddress(): string {
    if (radio.driverStarted) return radio.mac; // the board's MAC: tests/fakes/wifi.ts
    return this.chip === 'pico' ? PICO_ROM_MAC : '';
  },
  identifier(): string { return ''; },
  ipAddress(): string { return this.ip; },
  dnsAddresses(): string[] { return this.dns; },
};

export default platform;
