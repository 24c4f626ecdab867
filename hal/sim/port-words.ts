// The words and line groups of the USB port model (ports.ts): which enable lines each aggregate
// operation switches, and the bit layouts of portmode, portstate, the error bits and the data role.

/** Enable lines of one port; groups of them are what the aggregate operations switch. */
export const LINES = {
  power: ['powerenabled'],
  datahs: ['datahs1enabled', 'datahs2enabled'],
  datass: ['datass1enabled', 'datass2enabled'],
  data: ['datahs1enabled', 'datahs2enabled', 'datass1enabled', 'datass2enabled'],
  port: ['powerenabled', 'datahs1enabled', 'datahs2enabled', 'datass1enabled', 'datass2enabled'],
  vconn: ['vconn1enabled', 'vconn2enabled'],
  cc: ['cc1enabled', 'cc2enabled'],
} as const;
export type LineGroup = keyof typeof LINES;

/**
 * portmode word (port/portmode, usb/portmode/{channel}, usbsystem/modelist): bits 0..3 = powermode,
 * then one bit per setting below. Undefined bits are not kept.
 */
export const MODE_BITS: readonly (readonly [number, string])[] = [
  [4, 'datahs1enabled'], [5, 'datahs2enabled'], [6, 'powerenabled'], [7, 'datass1enabled'],
  [8, 'datass2enabled'], [11, 'connectmode'], [12, 'cc1enabled'], [13, 'cc2enabled'], [14, 'sbuenable'],
  [15, 'cableflip'], [16, 'vconn1enabled'], [17, 'vconn2enabled'],
];

/** portstate bits (port/portstate, usb/portstate/{channel}, usbsystem/statelist). */
export const STATE_VBUS = 1 << 0;
export const STATE_HS_ENABLED = 1 << 1;
export const STATE_SS_ENABLED = 1 << 2;
export const STATE_ATTACHED = 1 << 3;
export const STATE_USB2_LINK = 1 << 4;
export const STATE_USB3_LINK = 1 << 5;
export const STATE_VCONN = 1 << 6;
export const STATE_OVERCURRENT = 1 << 7;
export const STATE_FLIPPED = 1 << 8;
export const STATE_UPSTREAM = 1 << 9;

/** porterror / port errors bits. */
export const ERROR_OVERCURRENT = 1 << 0;

export const DATAROLE_DISABLED = 0;
export const DATAROLE_UPSTREAM = 1;
export const DATAROLE_DOWNSTREAM = 2;

export const NO_PORT = 255;
