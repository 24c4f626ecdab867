// Asynchronous events as the chip sends them on the SDPCM event channel, laid out as the driver
// parses them (lib/cyw43-driver/src/cyw43_ll.c:922-948 and cyw43_async_event_t in cyw43_ll.h:230):
// an Ethernet header of type 0x886c, the Broadcom OUI 00:10:18 at payload[19..21], then at
// payload[24] the event message with big-endian fields.
import { bdcBody } from './sdpcm';

// Event types and the statuses cyw43_ctrl.c acts on (cyw43_ll.h:67-82, cyw43_ctrl.c:333-438).
export const EV = { SET_SSID: 0, JOIN: 1, AUTH: 3, DEAUTH_IND: 6, ASSOC: 7, DISASSOC: 11, LINK: 16, PSK_SUP: 46, ESCAN_RESULT: 69 } as const;
export const WLC_SUP_KEYED = 6;
export const STATUS_NO_NETWORKS = 3;

export interface WlanEvent {
  type: number;
  status?: number;
  reason?: number;
  flags?: number;
  itf?: number;
  peer?: Uint8Array; // the AP's BSSID
  data?: Uint8Array;
}

const EVENT_MSG_LEN = 48;

function putBe32(b: Uint8Array, o: number, v: number): void {
  b[o] = (v >>> 24) & 0xff; b[o + 1] = (v >>> 16) & 0xff; b[o + 2] = (v >>> 8) & 0xff; b[o + 3] = v & 0xff;
}

/** The body of an event frame (BDC header, Ethernet header, Broadcom header, event message). */
export function eventBody(mac: Uint8Array, ev: WlanEvent): Uint8Array {
  const data = ev.data ?? new Uint8Array(0);
  const payload = new Uint8Array(24 + EVENT_MSG_LEN + data.length);
  payload.set(mac, 0);
  payload.set(ev.peer ?? new Uint8Array(6), 6);
  payload[12] = 0x88; payload[13] = 0x6c;
  // bcmeth header: subtype 0x8001, length, version 0, OUI 00:10:18, user subtype 1
  payload[14] = 0x80; payload[15] = 0x01;
  const len = payload.length - 14;
  payload[16] = len >> 8; payload[17] = len & 0xff;
  payload[19] = 0x00; payload[20] = 0x10; payload[21] = 0x18;
  payload[23] = 1;
  const m = 24;
  payload[m + 1] = 2; // version
  payload[m + 2] = ((ev.flags ?? 0) >> 8) & 0xff; payload[m + 3] = (ev.flags ?? 0) & 0xff;
  putBe32(payload, m + 4, ev.type);
  putBe32(payload, m + 8, ev.status ?? 0);
  putBe32(payload, m + 12, ev.reason ?? 0);
  putBe32(payload, m + 20, data.length);
  payload.set(ev.peer ?? new Uint8Array(6), m + 24);
  payload.set(new TextEncoder().encode('wlan0'), m + 30);
  payload[m + 46] = ev.itf ?? 0; // ifidx: cyw43_async_event_t.interface
  payload.set(data, m + EVENT_MSG_LEN);
  return bdcBody(0, payload);
}

/** Reads an event body back (for tests and traces): type, status, reason, flags, interface. */
export function readEvent(body: Uint8Array): Required<Pick<WlanEvent, 'type' | 'status' | 'reason' | 'flags' | 'itf'>> | undefined {
  const p = body.subarray(4 + body[3] * 4);
  if (p.length < 24 + EVENT_MSG_LEN || p[12] !== 0x88 || p[13] !== 0x6c) return undefined;
  const be32 = (o: number): number => ((p[o] << 24) | (p[o + 1] << 16) | (p[o + 2] << 8) | p[o + 3]) >>> 0;
  return { flags: (p[26] << 8) | p[27], type: be32(28), status: be32(32), reason: be32(36), itf: p[24 + 46] };
}
