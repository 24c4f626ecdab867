// A programmable 8-port USB 3 hub, modelled on Acroname's USBHub3p (model 19): eight Type-A
// downstream ports seen as port ×8, the hub as usb ×1 (8 channels) and usbsystem; no rails, no PD, no
// I/O pins. Type-A ports have no CC, VCONN or SBU lines and a fixed 5 V Vbus, so those operations are in
// the capability table as unsupported (501). Values are modelled, not copied from a datasheet.

import { BARE_MODULE, INTERNAL_STORE, type PortDevice, type SimProfile } from '../profile';

// Devices on Type-A ports: no e-marked cable, so no VCONN draw.
const DRIVE: PortDevice = { loadMicroamp: 320_000, speed: 'super', vconnMicroamp: 0 };
const KEY: PortDevice = { loadMicroamp: 45_000, speed: 'low', vconnMicroamp: 0 };
const PHONE: PortDevice = { loadMicroamp: 1_500_000, speed: 'high', vconnMicroamp: 0 };
const WEBCAM: PortDevice = { loadMicroamp: 250_000, speed: 'high', vconnMicroamp: 0 };

/** port operations that need Type-C lines (CC, VCONN, SBU, the flipped data pairs) or a programmable Vbus. */
const TYPE_C_PORT_OPS = [
  'vconnvoltage', 'vconncurrent', 'vconnenabled', 'vconn1enabled', 'vconn2enabled', 'ccenabled', 'cc1enabled',
  'cc2enabled', 'cccurrentlimit', 'vconnaccumulatedpower', 'resetvconnaccumulatedpower', 'cc1state', 'cc2state',
  'sbu1voltage', 'sbu2voltage', 'cc1voltage', 'cc2voltage', 'cc1current', 'cc2current', 'cc1accumulatedpower',
  'cc2accumulatedpower', 'datahs2enabled', 'datass2enabled', 'voltagesetpoint',
] as const;

/** The same lines seen through the hub entity's per-channel operations. */
const TYPE_C_USB_OPS = [
  'cc1enable', 'cc2enable', 'cc1current', 'cc2current', 'cc1voltage', 'cc2voltage', 'sbuenable', 'cableflip',
  'altmode', 'sbu1voltage', 'sbu2voltage',
] as const;

export const USBHUB3P: SimProfile = {
  ...BARE_MODULE,
  name: 'usbhub3p',
  model: 19,
  counts: {
    system: 1, port: 8, usb: 1, usbsystem: 1, temperature: 1, store: 2, pointer: 4, timer: 8, userconfig: 1,
  },
  unsupported: { port: TYPE_C_PORT_OPS, usb: TYPE_C_USB_OPS },
  moduleBaseAddress: 6,
  portDevices: [DRIVE, KEY, PHONE, null, WEBCAM, null, null, null],
  stores: [
    INTERNAL_STORE,
    { name: 'RAM', slots: [16384], persistent: false },
  ],
};
