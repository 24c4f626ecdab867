// The ESP32's wired link (ethernet-esp32.js): the shape of the SDK's ECMA-419 Wi-Fi object.
export interface EthernetOptions {
  /** Called with "connection" when the link or the address changes; `this` is the object. */
  onChanged?(this: Ethernet, property: string): void;
  /** "internal": the chip's EMAC with an RMII PHY; "openeth": the OpenCores MAC of the emulated ESP32. */
  mac: 'internal' | 'openeth';
  /** The PHY's SMI address (0..31). */
  phyAddress?: number;
  /** GPIO that resets the PHY (-1: none). */
  phyReset?: number;
  /** GPIO driven high before the PHY is used: its power or its clock oscillator (-1: none). */
  phyPower?: number;
  /** SMI clock and data GPIOs. */
  mdc?: number;
  mdio?: number;
  /** Where the 50 MHz RMII clock comes from: into GPIO 0, or made by the chip on GPIO 16 or 17. */
  clock?: 'in0' | 'out16' | 'out17';
}
export default class Ethernet {
  constructor(options: EthernetOptions);
  readonly connection: number;
  readonly address: string | undefined;
  readonly MAC: string | undefined;
  /** The DHCP host name, sent from the next DHCP message on. */
  set hostname(name: string);
  connect(options?: unknown): void;
  disconnect(): void;
  close(): void;
}
