// `src/device/mdns-group` on ESP32 (the manifest's platform sections map it): joins the multicast DNS
// group with the ECMA-419 UDP socket's add(), which joins on every interface with an address
// (modules/io/socket/lwip/udp.c). The Pico W maps src/device/native/mdns-group-pico instead (the SDK's
// add() there asks for netif index 0, which lwIP never has); docs/module.md §Discovery.

export function joinGroup(socket: object, group: string): void {
  (socket as { add(address: string): void }).add(group);
}
