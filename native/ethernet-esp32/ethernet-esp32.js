/*
 * The wired link of an ESP32 with Ethernet, in the shape of the SDK's ECMA-419 Wi-Fi object
 * (modules/io/wifi/esp32/wifi-esp32.js) so that src/device/network.ts drives either: `connection`
 * (200 no link, 300 link without an address, 500 with an address), `address`, `MAC`, `onChanged`.
 * The constructor installs the driver for the MAC and PHY the options name (ethernet-esp32.c), whose
 * MAC can then be read; connect() starts it once; the link comes and goes with the cable, so a later
 * connect() and disconnect() have nothing to do.
 */
export default class Ethernet @ "xs_ethernet_destructor" {
	constructor(options) @ "xs_ethernet_constructor";
	close() @ "xs_ethernet_close";
	get connection() @ "xs_ethernet_get_connection";
	get address() @ "xs_ethernet_get_address";
	get MAC() @ "xs_ethernet_get_mac";
	set hostname(name) @ "xs_ethernet_set_hostname";
	connect() @ "xs_ethernet_connect";
	disconnect() {}
}
Object.freeze(Ethernet.prototype);
