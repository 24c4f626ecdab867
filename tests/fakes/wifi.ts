// Fake of the SDK's ECMA-419 Wi-Fi interface (embedded:network/interface/wifi) as the ESP32 one behaves
// (modules/io/wifi/esp32/wifi-esp32.c): `connection` is 200 disconnected, 300 connecting, 400
// associated without an address, 500 with one; connect() while connecting throws "already
// connecting"; every change reaches onChanged("connection") later, from the event loop, with `this` the
// Wi-Fi object; a lost access point is a disconnect (200) and nothing reconnects by itself;
// disconnect() changes the state without an event; a closed object hears nothing more.
// The access point is `radio`: a test turns it off and on. While the station has no address the fake
// network refuses clients (tests/fakes/net.ts asks `reachable()`).

import { net } from './net';

/** Virtual ms from connect() to the association, and from there to the DHCP address. */
export const ASSOCIATE_MS = 200;
export const DHCP_MS = 300;
/** How long the station looks for a missing access point before it reports a disconnect. */
export const NOT_FOUND_MS = 3000;

export const radio = {
  /** The access point is on the air. */
  apOn: true,
  /** A Wi-Fi object exists (the app manages Wi-Fi): only then does the station's address matter. */
  inUse: false,
  /** The Wi-Fi driver has started (a Wi-Fi object was made): from then on the chip has its MAC. */
  driverStarted: false,
  /** The board's MAC, as the driver reads it (the test sets it per board). */
  mac: '02:00:00:12:34:56',
  /** Times connect() was called. */
  connects: 0,
  /** Wi-Fi objects still to fail when made (the chip's driver does not start: "CYW43 init failed"). */
  failCreates: 0,
  station: null as WiFi | null,
  reset(): void {
    this.apOn = true;
    this.inUse = false;
    this.driverStarted = false;
    this.mac = '02:00:00:12:34:56';
    this.connects = 0;
    this.failCreates = 0;
    this.station = null;
  },
  /** The access point goes away (a reboot): an associated station is disconnected. */
  off(): void {
    this.apOn = false;
    const s = this.station;
    if (s && s.state !== 200) net.later(() => s.event(200));
  },
  on(): void {
    this.apOn = true;
  },
  /** Clients reach the module: no Wi-Fi in use (the desktop), or the station has an address. */
  reachable(): boolean {
    return !this.inUse || (this.station !== null && this.station.state === 500);
  },
};

net.reachable = () => radio.reachable();

interface Options { onChanged?(this: WiFi, property: string): void }

export default class WiFi {
  state = 200;
  private closed = false;
  /** Bumped by every connect and disconnect: events of an older attempt are dropped. */
  private attempt = 0;
  private readonly onChanged?: (this: WiFi, property: string) => void;

  constructor(options: Options) {
    if (radio.failCreates > 0) {
      radio.failCreates--;
      throw new Error('Wi-Fi driver did not start');
    }
    this.onChanged = options.onChanged;
    radio.inUse = true;
    radio.driverStarted = true;
    radio.station = this;
  }

  get connection(): number {
    return this.state;
  }

  get address(): string | undefined {
    return this.state === 500 ? '192.168.1.50' : undefined;
  }

  /** The station's MAC: the driver has started, so it reads it (modules/io/wifi/esp32/wifi-esp32.c:564-574). */
  get MAC(): string | undefined {
    return this.closed ? undefined : radio.mac;
  }

  connect(options: { SSID: string; password?: string }): void {
    if (this.closed) throw new Error('closed');
    if (!options.SSID) throw new Error('SSID required');
    if (this.state === 300) throw new Error('already connecting');
    radio.connects++;
    this.state = 300;
    const attempt = ++this.attempt;
    const step = (ms: number, f: () => void): void => { net.setTimer(() => { if (attempt === this.attempt) f(); }, ms, false); };
    if (!radio.apOn) {
      step(NOT_FOUND_MS, () => this.event(200));
      return;
    }
    step(ASSOCIATE_MS, () => {
      if (!radio.apOn) return this.event(200);
      this.event(400);
      step(DHCP_MS, () => { if (radio.apOn && this.state === 400) this.event(500); });
    });
  }

  disconnect(): void {
    this.attempt++;
    this.state = 200;
  }

  close(): void {
    this.closed = true;
    this.attempt++;
  }

  /** The station's state changes (an ESP-IDF event delivered to the machine). */
  event(state: number): void {
    if (this.closed || this.state === state) return;
    this.attempt += state === 200 ? 1 : 0;
    this.state = state;
    if (this.onChanged) this.onChanged.call(this, 'connection');
  }
}
