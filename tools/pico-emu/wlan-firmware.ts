// What the CYW43439's firmware answers once it runs: the ioctls and iovars the cyw43-driver sends
// on the SDPCM control channel (lib/cyw43-driver/src/cyw43_ll.c:1843-2187: wifi_on, get_mac,
// multicast filter, power management, scan, join) and the events a join produces, in the order and
// with the statuses cyw43_ctrl.c:333-438 needs to call the link up (AUTH, LINK, SET_SSID, PSK_SUP).
import { IoctlRequest, le32, putLe32 } from './sdpcm';
import { EV, STATUS_NO_NETWORKS, WLC_SUP_KEYED, WlanEvent } from './wlan-events';

// WLC_* ioctl numbers (cyw43_ll.c:191-211) and the two the pico port adds (cyw43.h).
export const WLC = {
  UP: 2, DOWN: 3, SET_INFRA: 20, SET_AUTH: 22, GET_BSSID: 23, GET_SSID: 25, SET_SSID: 26, DISASSOC: 52,
  SET_ANTDIV: 64, GET_PM: 85, SET_PM: 86, SET_GMODE: 110, GET_RSSI: 127, SET_WSEC: 134, SET_BAND: 142,
  SET_WPA_AUTH: 165, GET_VAR: 262, SET_VAR: 263, SET_WSEC_PMK: 268,
} as const;
const SDPCM_SET = 2;

/** The access point the emulated radio sees. No password: an open network. */
export interface AccessPoint {
  ssid: string;
  password?: string;
  bssid: Uint8Array;
  rssi: number;
}

export interface FirmwareHooks {
  event(ev: WlanEvent): void; // queue an event frame for the host
  later(ms: number, fn: () => void): void; // run fn after ms of the board's (emulated) time
  trace?(line: string): void;
}

const enc = new TextEncoder();
const dec = new TextDecoder();

export class WlanFirmware {
  mac: Uint8Array;
  ap: AccessPoint | undefined;
  readonly iovars = new Map<string, Uint8Array>();
  readonly ioctls = new Map<number, Uint8Array>();
  mcastList: Uint8Array[] = [];
  clmBytes = 0;
  up = false;
  joinedSsid: string | undefined;
  private pmk: string | undefined;
  private wsec = 0;

  constructor(mac: Uint8Array, ap: AccessPoint | undefined, private readonly hooks: FirmwareHooks) {
    this.mac = Uint8Array.from(mac);
    this.ap = ap;
  }

  /** Answers one ioctl: the payload of the response (its length is the request's output length). */
  ioctl(req: IoctlRequest): Uint8Array {
    const set = (req.flags & 0xf) === SDPCM_SET;
    this.hooks.trace?.(`ioctl ${set ? 'set' : 'get'} ${req.cmd}${req.cmd >= WLC.GET_VAR && req.cmd <= WLC.SET_VAR ? ' ' + varName(req.payload) : ''}`);
    if (req.cmd === WLC.GET_VAR) return sized(this.getVar(varName(req.payload)), req.outLen);
    if (req.cmd === WLC.SET_VAR) {
      const name = varName(req.payload);
      this.setVar(name, req.payload.subarray(name.length + 1));
      return sized(req.payload, req.outLen);
    }
    if (set) {
      this.setIoctl(req.cmd, req.payload);
      return sized(req.payload, req.outLen);
    }
    return sized(this.getIoctl(req.cmd), req.outLen);
  }

  private getVar(name: string): Uint8Array {
    if (name === 'cur_etheraddr') return this.mac;
    if (name === 'mcast_list') {
      const out = new Uint8Array(4 + this.mcastList.length * 6);
      putLe32(out, 0, this.mcastList.length);
      this.mcastList.forEach((m, i) => out.set(m, 4 + i * 6));
      return out;
    }
    if (name === 'clmload_status') return new Uint8Array(4);
    if (name === 'clmver') return enc.encode('API: 12.2 Data: emulated CYW43439\0');
    return this.iovars.get(name) ?? new Uint8Array(4);
  }

  private setVar(name: string, value: Uint8Array): void {
    const v = Uint8Array.from(value);
    if (name === 'cur_etheraddr' && v.length >= 6) this.mac = v.subarray(0, 6);
    else if (name === 'mcast_list') this.mcastList = readMcastList(v);
    else if (name === 'clmload') this.clmBytes += Math.max(0, le32(v, 4));
    else if (name === 'escan') this.hooks.later(10, () => this.hooks.event({ type: EV.ESCAN_RESULT, status: 0 }));
    else if (name === 'join') this.join(dec.decode(v.subarray(4, 4 + Math.min(32, le32(v, 0)))));
    this.iovars.set(name, v);
  }

  private setIoctl(cmd: number, payload: Uint8Array): void {
    this.ioctls.set(cmd, Uint8Array.from(payload));
    if (cmd === WLC.UP) this.up = true;
    else if (cmd === WLC.DOWN) this.up = false;
    else if (cmd === WLC.SET_WSEC) this.wsec = le32(payload, 0);
    else if (cmd === WLC.SET_WSEC_PMK) this.pmk = dec.decode(payload.subarray(4, 4 + (payload[0] | (payload[1] << 8))));
    else if (cmd === WLC.SET_SSID) this.join(dec.decode(payload.subarray(4, 4 + Math.min(32, le32(payload, 0)))));
    else if (cmd === WLC.DISASSOC) this.leave();
  }

  private getIoctl(cmd: number): Uint8Array {
    if (cmd === WLC.GET_BSSID) return this.joinedSsid !== undefined && this.ap ? this.ap.bssid : new Uint8Array(6);
    if (cmd === WLC.GET_RSSI) {
      const out = new Uint8Array(4);
      putLe32(out, 0, this.ap?.rssi ?? 0);
      return out;
    }
    if (cmd === WLC.GET_SSID) {
      const ssid = enc.encode(this.joinedSsid ?? '');
      const out = new Uint8Array(36);
      putLe32(out, 0, ssid.length);
      out.set(ssid, 4);
      return out;
    }
    return this.ioctls.get(cmd + 1) ?? new Uint8Array(4); // the value last set (GET n, SET n + 1)
  }

  /** The join the driver starts with SET_SSID (cyw43_ll.c:2173, 2186): events some ms later. */
  private join(ssid: string): void {
    this.hooks.later(20, () => {
      const ap = this.ap;
      if (!this.up || !ap || ap.ssid !== ssid) {
        this.hooks.trace?.(`join "${ssid}": no such network`);
        this.hooks.event({ type: EV.SET_SSID, status: STATUS_NO_NETWORKS });
        return;
      }
      const peer = ap.bssid;
      if ((ap.password !== undefined) !== (this.wsec !== 0)) {
        this.hooks.trace?.(`join "${ssid}": refused (${this.wsec ? 'WPA' : 'open'} asked, the network is not)`);
        this.hooks.event({ type: EV.SET_SSID, status: 1, peer }); // open vs WPA: the AP refuses
        return;
      }
      this.hooks.event({ type: EV.AUTH, status: 0, peer });
      this.hooks.event({ type: EV.ASSOC, status: 0, peer });
      this.hooks.event({ type: EV.LINK, status: 0, flags: 1, peer });
      this.hooks.event({ type: EV.SET_SSID, status: 0, peer });
      // WPA: the 4-way handshake succeeds when the passphrase the driver gave is the AP's.
      const keyed = ap.password === undefined || this.pmk === ap.password;
      if (ap.password !== undefined) this.hooks.event({ type: EV.PSK_SUP, status: keyed ? WLC_SUP_KEYED : 5, peer });
      this.hooks.trace?.(`join "${ssid}": ${keyed ? 'joined' : 'wrong passphrase'}`);
      if (keyed) this.joinedSsid = ssid;
    });
  }

  /** The link goes down: the driver asked to leave, or the access point went away. */
  leave(): void {
    if (this.joinedSsid === undefined) return;
    this.hooks.trace?.(`left "${this.joinedSsid}"`);
    this.joinedSsid = undefined;
    this.hooks.later(5, () => this.hooks.event({ type: EV.LINK, status: 0, flags: 0, peer: this.ap?.bssid }));
  }

  /** Whether the radio passes a frame to this destination MAC up to the host. */
  accepts(dst: Uint8Array): boolean {
    if (this.joinedSsid === undefined) return false;
    if (dst.every((b, i) => b === this.mac[i])) return true;
    if (dst.every((b) => b === 0xff)) return true;
    return (dst[0] & 1) === 1 && this.mcastList.some((m) => m.every((b, i) => b === dst[i]));
  }
}

function varName(payload: Uint8Array): string {
  const end = payload.indexOf(0);
  return dec.decode(payload.subarray(0, end < 0 ? payload.length : end));
}

function sized(value: Uint8Array, len: number): Uint8Array {
  const out = new Uint8Array(len);
  out.set(value.subarray(0, len));
  return out;
}

function readMcastList(v: Uint8Array): Uint8Array[] {
  const n = Math.min(le32(v, 0), Math.floor((v.length - 4) / 6));
  return Array.from({ length: n }, (_, i) => Uint8Array.from(v.subarray(4 + i * 6, 10 + i * 6)));
}
