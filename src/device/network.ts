// The module's network lifecycle, the same on every ECMA-419 board with Wi-Fi (ESP32, Pico W): join the
// configured network (config.ssid, config.password), tell the watchers when the station has an
// address and when it loses it, and join again after a loss, waiting 1 s, 2 s, 4 s... up to 60 s
// between attempts. An attempt that has no address within ATTEMPT_MS is dropped and retried. With no
// SSID there is nothing to join (the desktop host uses the host's network): the watchers hear "up" at
// once. The SDK's Wi-Fi object reconnects on nothing by itself: after a disconnect it stays at 200
// until connect() is called again (modules/io/wifi/esp32/wifi-esp32.c), so that is this module's job.
// The manifest leaves out the SDK's setup/network, which waits for an address before the app starts
// and never starts it while the access point is down.

import WiFi from 'embedded:network/interface/wifi';
import Timer from 'timer';

/** What the SDK's Wi-Fi object reports in `connection`. */
const WIFI_DISCONNECTED = 200;
const WIFI_ADDRESSED = 500;
export const RETRY_MIN_MS = 1000;
export const RETRY_MAX_MS = 60000;
export const ATTEMPT_MS = 30000;

/** Something that uses the network: the REST listener, an announcer. */
export interface NetworkWatcher {
  /** The station has `address` (empty when there is no Wi-Fi to join). Heard again after every rejoin. */
  up(address: string): void;
  /** The address is gone: stop what used it (sockets on it are dead). */
  down(): void;
}

export interface NetworkOptions {
  readonly ssid?: string;
  readonly password?: string;
}

export class NetworkLink {
  private readonly options: NetworkOptions;
  private readonly watchers: NetworkWatcher[] = [];
  private wifi: WiFi | null = null;
  private isUp = false;
  private address = '';
  private retryMs = RETRY_MIN_MS;
  private timer: Timer | undefined;
  private readonly join = (): void => { this.timer = undefined; this.connect(); };
  private readonly attemptOver = (): void => {
    this.timer = undefined;
    trace('Wi-Fi: no address in time; trying again\n');
    try { this.wifi!.disconnect(); } catch { /* not connecting any more */ }
    this.lost();
  };

  constructor(options: NetworkOptions) {
    this.options = options;
  }

  /** Add a watcher; it hears "up" at once when the network is up already. */
  watch(w: NetworkWatcher): void {
    this.watchers.push(w);
    if (this.isUp) w.up(this.address);
  }

  get up(): boolean {
    return this.isUp;
  }

  /**
   * The station's MAC, from the Wi-Fi driver once it has started ('' before it has, and without Wi-Fi):
   * the identifier the module's serial comes from (docs/module.md §Identity).
   */
  get stationMac(): string {
    try {
      return (this.wifi && this.wifi.MAC) || '';
    } catch {
      return ''; // a driver that cannot tell
    }
  }

  start(): void {
    if (!this.options.ssid) {
      this.becomeUp('');
      return;
    }
    this.connect();
  }

  private connect(): void {
    const o = this.options;
    try {
      // Made at the first attempt that can: a Wi-Fi driver that does not start (the Pico W's CYW43)
      // throws here, and is tried again after the backoff like a failed join.
      if (!this.wifi) this.wifi = this.makeWiFi();
      this.wifi.connect(o.password ? { SSID: o.ssid!, password: o.password } : { SSID: o.ssid! });
    } catch (e) {
      trace(`Wi-Fi: ${(e as Error).message}\n`);
      this.lost();
      return;
    }
    this.setTimer(this.attemptOver, ATTEMPT_MS);
  }

  private makeWiFi(): WiFi {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the SDK calls onChanged with `this` bound to the Wi-Fi object
    const self = this;
    return new WiFi({ onChanged() { self.changed(); } });
  }

  private changed(): void {
    const wifi = this.wifi!;
    const c = wifi.connection;
    if (c >= WIFI_ADDRESSED) {
      this.retryMs = RETRY_MIN_MS;
      this.setTimer(undefined, 0);
      if (!this.isUp) this.becomeUp(wifi.address ?? '');
      return;
    }
    if (this.isUp) this.becomeDown();
    if (c <= WIFI_DISCONNECTED) this.lost();
    else if (this.timer === undefined) this.setTimer(this.attemptOver, ATTEMPT_MS); // an address may yet come
  }

  /** Not connected and not connecting: join again after the backoff. */
  private lost(): void {
    if (this.isUp) this.becomeDown();
    trace(`Wi-Fi: joining "${this.options.ssid}" again in ${this.retryMs / 1000} s\n`);
    this.setTimer(this.join, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
  }

  private setTimer(f: (() => void) | undefined, ms: number): void {
    if (this.timer !== undefined) Timer.clear(this.timer);
    this.timer = f ? Timer.set(f, ms) : undefined;
  }

  private becomeUp(address: string): void {
    this.isUp = true;
    this.address = address;
    if (address) trace(`Wi-Fi: address ${address}\n`);
    for (let k = 0; k < this.watchers.length; k++) {
      try { this.watchers[k].up(address); } catch (e) { trace(`network up: ${(e as Error).message}\n`); }
    }
  }

  private becomeDown(): void {
    this.isUp = false;
    this.address = '';
    trace('Wi-Fi: address lost\n');
    for (let k = 0; k < this.watchers.length; k++) {
      try { this.watchers[k].down(); } catch (e) { trace(`network down: ${(e as Error).message}\n`); }
    }
  }
}
Object.freeze(NetworkLink.prototype);
