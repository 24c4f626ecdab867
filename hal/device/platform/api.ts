// The platform layer: what differs between the module builds (esp32, pico/pico_w) and the desktop host
// (lin) that no ECMA-419 class covers. The manifest maps the bare specifier 'hal/device/platform' to
// platform/ecma419.ts (every module) or platform/lin.ts; both implement this. Platform files import no relative module: XS would resolve
// it against 'hal/device/platform'. (Named "platform", not "port": `port` is also a USB entity.)

export interface PlatformApi {
  /** Restart the chip; false when the platform cannot (the caller then does a soft reset). */
  restart(): boolean;
  /**
   * The network interface's MAC address, "aa:bb:cc:dd:ee:ff": valid once the network is up. Before the
   * Wi-Fi driver starts, the ESP32 answers nothing (modules/network/net/esp/modNet.c) and the Pico W
   * reads lwIP's netif_list while it is NULL (modules/network/net/pico/modNet.c:54): ROM bytes.
   */
  macAddress(): string;
  /**
   * An identifier the platform has without Wi-Fi, as a MAC ('' for none): the desktop host's configured
   * one. The chips have none here: their serial comes from the Wi-Fi driver (NetworkLink.stationMac).
   */
  identifier(): string;
  /** Effective IPv4 address, dotted quad ('' when not connected). */
  ipAddress(): string;
  /** Effective DNS servers. */
  dnsAddresses(): string[];
}
