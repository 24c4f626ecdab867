// The anchor of make esp32-emu-figures: the Moddable SDK's own http Server on port 80
// (tools/pico-anchor/value-server.js, the Pico W's anchor's), on the emulated ESP32's wired link: the
// OpenCores MAC of QEMU's esp32 machine through the project's Ethernet driver (native/ethernet-esp32),
// DHCP as the module takes it. Built by make esp32-anchor with the module's ESP-IDF options
// (esp32/qemu/sdkconfig.defaults), so the two differ only in the application.
import Ethernet from 'ethernet-esp32';
import { startValueServer } from 'value-server';

const link = new Ethernet({
  mac: 'openeth',
  onChanged() {
    if (this.address) trace(`anchor: SDK http Server on port 80 at ${this.address}\n`);
  },
});
link.hostname = 'anchor';
link.connect();
startValueServer(80);
