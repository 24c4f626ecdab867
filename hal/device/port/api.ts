// What differs between the module build (esp32) and the desktop host (lin) that no ECMA-419 class
// covers. The manifest maps the bare specifier 'hal/device/port' to port/esp32.ts or port/lin.ts; both
// implement this. Port files import no relative module: XS would resolve it against 'hal/device/port'.

export interface PortApi {
  /** Restart the chip; false when the platform cannot (the caller then does a soft reset). */
  restart(): boolean;
  /** The network interface's MAC address, "aa:bb:cc:dd:ee:ff". */
  macAddress(): string;
  /** Effective IPv4 address, dotted quad ('' when not connected). */
  ipAddress(): string;
  /** Effective DNS servers. */
  dnsAddresses(): string[];
}
