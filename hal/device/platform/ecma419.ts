// Every module build (esp32, pico/pico_w): restart through System.restart() (embedded:io/system,
// installed as a global by the io manifest; esp_restart on the ESP32, a watchdog reset on the Pico),
// addresses from the `net` module of the station interface. A frozen object of plain
// functions: preloaded into flash, nothing in RAM.

import Net from 'net'; // Moddable's network-status module (the manifest's modules), not Node's
import type { PlatformApi } from './api';

const platform: PlatformApi = Object.freeze({
  restart(): boolean {
    System.restart();
    return true;
  },
  macAddress: (): string => Net.get('MAC') ?? '',
  identifier: (): string => '',
  ipAddress: (): string => Net.get('IP') ?? '',
  dnsAddresses: (): string[] => Net.get('DNS') ?? [],
});

export default platform;
