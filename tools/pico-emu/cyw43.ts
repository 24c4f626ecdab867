// A CYW43439 Wi-Fi chip as the Pico W's cyw43-driver sees it, written from the driver's source
// (pico-sdk lib/cyw43-driver and pico_cyw43_driver): the gSPI bus (gspi-wire, gspi-bus), the
// backplane with the firmware download (backplane), SDPCM frames (sdpcm), the firmware's answers
// and events (wlan-firmware, wlan-events). Its MAC is a parameter; Ethernet frames leave through
// `onEthernet` and enter through `receive`, once it has joined the access point.
import { Backplane } from './backplane';
import { GspiBus, WlanPort } from './gspi-bus';
import { GspiWire } from './gspi-wire';
import * as sdpcm from './sdpcm';
import { eventBody, WlanEvent } from './wlan-events';
import { AccessPoint, WlanFirmware } from './wlan-firmware';

export interface Cyw43Options {
  mac: Uint8Array | string;
  ap?: { ssid: string; password?: string; bssid?: Uint8Array | string; rssi?: number };
  /** Runs fn after ms of the board's time (an rp2040js clock alarm, or a timer in tests). */
  later(ms: number, fn: () => void): void;
  trace?(line: string): void;
}

const RX_QUEUE_MAX = 64; // frames waiting for the host; the radio drops beyond
const CREDIT_WINDOW = 8; // frames the host may send ahead (bus_data_credit, cyw43_ll.c:843-848)

export function parseMac(mac: Uint8Array | string): Uint8Array {
  if (typeof mac !== 'string') return Uint8Array.from(mac);
  const parts = mac.split(/[:-]/).map((h) => parseInt(h, 16));
  if (parts.length !== 6 || parts.some((b) => !(b >= 0 && b <= 255))) throw new Error(`bad MAC address "${mac}"`);
  return Uint8Array.from(parts);
}

export class Cyw43 implements WlanPort {
  readonly otpMac: Uint8Array;
  bus!: GspiBus;
  wire!: GspiWire;
  firmware!: WlanFirmware;
  powered = false;
  /** Frames the host sent (Ethernet, with the MAC header). */
  onEthernet?: (frame: Uint8Array) => void;
  /** The IRQ level may have changed (a frame was queued for the host). */
  onInterrupt?: () => void;
  private readonly rx: Uint8Array[] = [];
  private txSequence = 0;
  private hostSequence = -1;
  /** The last bus data credit given to the host (hostSequence + 1 + CREDIT_WINDOW when given). */
  private granted = CREDIT_WINDOW;
  private generation = 0;
  private readonly ap: AccessPoint | undefined;

  constructor(private readonly options: Cyw43Options) {
    this.otpMac = parseMac(options.mac);
    const ap = options.ap;
    this.ap = ap && {
      ssid: ap.ssid, password: ap.password, rssi: ap.rssi ?? -40,
      bssid: parseMac(ap.bssid ?? '02:00:00:00:00:01'),
    };
    this.reset();
  }

  /** WL_REG_ON: low holds the chip in reset (everything but the OTP MAC is lost), high runs it. */
  power(on: boolean): void {
    if (on === this.powered) return;
    this.powered = on;
    if (!on) this.reset();
  }

  private reset(): void {
    this.generation++;
    const gen = this.generation;
    const later = (ms: number, fn: () => void): void => this.options.later(ms, () => { if (gen === this.generation) fn(); });
    const trace = this.options.trace;
    this.rx.length = 0;
    this.txSequence = 0;
    this.hostSequence = -1;
    this.granted = CREDIT_WINDOW;
    this.firmware = new WlanFirmware(this.otpMac, this.ap, { event: (ev) => this.queueEvent(ev), later, trace });
    const backplane = new Backplane({
      firmwareStarted: () => trace?.('firmware running'),
      terminateFrame: () => { this.rx.shift(); },
      trace,
    });
    this.bus = new GspiBus(backplane, this);
    this.wire = new GspiWire(this.bus);
  }

  // WlanPort: F2 of the bus
  ready(): boolean {
    return this.bus.backplane.running;
  }

  pendingLength(): number {
    return this.rx[0]?.length ?? 0;
  }

  readFrame(len: number): Uint8Array {
    const out = new Uint8Array(len);
    const frame = this.rx.shift();
    if (frame) {
      // The credit is the chip's when the frame crosses the bus, not when it was queued: a host that sent
      // since then would otherwise read a spent credit, stall, and drop the data frames it reads meanwhile
      // (cyw43_ll.c cyw43_sdpcm_send_common: "Don't process it").
      this.granted = this.hostSequence + 1 + CREDIT_WINDOW;
      sdpcm.setCredit(frame, this.granted);
      out.set(frame.subarray(0, len));
    }
    return out;
  }

  writeFrame(bytes: Uint8Array): void {
    const frame = sdpcm.parseFrame(bytes);
    if (!frame || !this.ready()) return;
    this.hostSequence = frame.sequence;
    this.creditIfSpent();
    if (frame.channel === sdpcm.CONTROL_CHANNEL) {
      const req = sdpcm.parseIoctl(frame.body);
      if (!req) return;
      const payload = this.firmware.ioctl(req);
      this.queue(sdpcm.CONTROL_CHANNEL, sdpcm.SDPCM_HEADER_LEN, sdpcm.ioctlResponseBody(req, payload));
    } else if (frame.channel === sdpcm.DATA_CHANNEL) {
      const data = sdpcm.dataPayload(frame.body);
      if (data && this.firmware.joinedSsid !== undefined) this.onEthernet?.(Uint8Array.from(data.frame));
    }
  }

  /** A frame from the network: queued for the host when the radio would pass it up. */
  receive(frame: Uint8Array): boolean {
    if (!this.powered || !this.ready() || frame.length < 14 || !this.firmware.accepts(frame.subarray(0, 6))) return false;
    if (this.rx.length >= RX_QUEUE_MAX) return false;
    this.queue(sdpcm.DATA_CHANNEL, sdpcm.PADDED_HEADER_LEN, sdpcm.bdcBody(0, frame));
    this.onInterrupt?.();
    return true;
  }

  /** The access point goes away (or comes back): the link drops, the next join finds it or not. */
  setAccessPointPresent(present: boolean): void {
    if (!this.ap) return;
    this.firmware.ap = present ? this.ap : undefined;
    if (!present) this.firmware.leave();
  }

  private queueEvent(ev: WlanEvent): void {
    this.options.trace?.(`event ${ev.type} status ${ev.status ?? 0}`);
    this.queue(sdpcm.EVENT_CHANNEL, sdpcm.PADDED_HEADER_LEN, eventBody(this.firmware.mac, ev));
    this.onInterrupt?.();
  }

  private queue(channel: number, headerLength: number, body: Uint8Array): void {
    this.granted = this.hostSequence + 1 + CREDIT_WINDOW;
    this.rx.push(sdpcm.buildFrame(channel, this.txSequence++, this.granted, headerLength, body));
  }

  /**
   * The chip gives the host more credit as it takes the host's frames, with a frame of no data when it
   * has nothing else to send (the driver's "flow control packet", cyw43_ll.c sdpcm_process_rx_packet).
   * Without it, a host that sends its whole credit while the chip sends nothing (a burst of mDNS
   * announcements, a long answer) waits a second for credit (cyw43_sdpcm_send_common: "STALL … timeout")
   * and its frame is lost.
   */
  private creditIfSpent(): void {
    if (this.rx.length > 0 || ((this.granted - (this.hostSequence + 1)) & 0xff) > 1) return; // sequences are 8 bits
    this.queue(sdpcm.CONTROL_CHANNEL, sdpcm.SDPCM_HEADER_LEN, new Uint8Array(0));
    this.onInterrupt?.();
  }
}
