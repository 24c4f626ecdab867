// `src/device/link/platform` on an ESP32 with Ethernet (PLATFORM=esp32/wired): the wired link
// (native/ethernet-esp32), made with the MAC, PHY and pins of the board config.ethernet names
// (docs/esp32.md §Wired boards). It has the shape of the Wi-Fi object, so network.ts drives either.

import Ethernet, { type EthernetOptions } from 'ethernet-esp32';
import config from 'mc/config';

type Wiring = Omit<EthernetOptions, 'onChanged' | 'hostname'>;

/** The boards this build knows, by the name config.ethernet gives (make device ... ethernet=NAME). */
export const BOARDS: Readonly<Record<string, Wiring>> = Object.freeze({
  // WT32-ETH01: LAN8720 at SMI address 1; its 50 MHz oscillator feeds GPIO 0 and is enabled by GPIO 16.
  'wt32-eth01': Object.freeze({ mac: 'internal', phyAddress: 1, phyPower: 16, mdc: 23, mdio: 18, clock: 'in0' }),
  // Olimex ESP32-POE: LAN8720 at address 0, powered by GPIO 12; the chip makes the clock on GPIO 17.
  'esp32-poe': Object.freeze({ mac: 'internal', phyAddress: 0, phyPower: 12, mdc: 23, mdio: 18, clock: 'out17' }),
  // The emulated ESP32 (QEMU's esp32 machine with -nic model=open_eth): the OpenCores MAC.
  openeth: Object.freeze({ mac: 'openeth' }),
} as Record<string, Wiring>);

export const LINK_NAME = 'Ethernet';
export const NEEDS_SSID = false;

export default class WiredLink extends Ethernet {
  constructor(options: Pick<EthernetOptions, 'onChanged'>) {
    const name = String((config as Record<string, unknown>).ethernet ?? 'wt32-eth01');
    const wiring = BOARDS[name];
    if (!wiring) throw new RangeError(`ethernet: no board "${name}" (${Object.keys(BOARDS).join(', ')})`);
    super({ ...wiring, ...options });
  }
}
Object.freeze(WiredLink.prototype);
