// The module's network lifecycle, the same on every ECMA-419 board, by Wi-Fi (ESP32, Pico W) or by wire
// (an ESP32 with Ethernet): join the configured network (config.ssid, config.password; a wire has
// nothing to name), tell the watchers when the link has an address and when it loses it, and join
// again after a loss, waiting 1 s, 2 s, 4 s... up to 60 s between attempts. An attempt that has no
// address within ATTEMPT_MS is dropped and retried. A Wi-Fi link with no SSID has nothing to join (the
// desktop host uses the host's network): the watchers hear "up" at once. The link object comes from
// `src/device/link/platform` (the manifest maps it per board): the SDK's Wi-Fi object, or the wired
// link in its shape. A cable pulled is a link that goes away, like an access point. The SDK's Wi-Fi
// object reconnects on nothing by itself: after a disconnect it stays at 200 until connect() is
// called again (modules/io/wifi/esp32/wifi-esp32.c), so that is this module's job.
// The manifest leaves out the SDK's setup/network, which waits for an address before the app starts
// and never starts it while the access point is down.

import Link, { LINK_NAME, NEEDS_SSID } from 'src/device/link/platform';
import Timer from 'timer';

/** What the link object reports in `connection`. */
const WIFI_DISCONNECTED = 200;
const WIFI_ADDRESSED = 500;
export const RETRY_MIN_MS = 1000;
export const RETRY_MAX_MS = 60000;
export const ATTEMPT_MS = 30000;

/** Something that uses the network: the REST listener, an announcer. */
export interface NetworkWatcher {
  /** The link has `address` (empty when there is no network to join). Heard again after every rejoin. */
  up(address: string): void;
  /** The address is gone: stop what used it (sockets on it are dead). */
  down(): void;
}

export interface NetworkOptions {
  readonly ssid?: string;
  readonly password?: string;
  /** The name the link gives DHCP where it can (the wired link), asked once the link has its MAC. */
  readonly hostname?: () => string | undefined;
}

export class NetworkLink {
  private readonly options: NetworkOptions;
  private readonly watchers: NetworkWatcher[] = [];
  private link: Link | null = null;
  private isUp = false;
  private address = '';
  private retryMs = RETRY_MIN_MS;
  private timer: Timer | undefined;
  private readonly join = (): void => { this.timer = undefined; this.connect(); };
  private readonly attemptOver = (): void => {
    this.timer = undefined;
    trace(`${LINK_NAME}: no address in time; trying again\n`);
    try { this.link!.disconnect(); } catch { /* not connecting any more */ }
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

  /** Whether there is a network to join (a wire, or a configured SSID): what SNTP needs. */
  get joins(): boolean {
    return !NEEDS_SSID || !!this.options.ssid;
  }

  /**
   * The link's MAC, from its driver once it has started ('' before it has, and without a link to join):
   * the identifier the module's serial comes from (docs/module.md §Identity).
   */
  get stationMac(): string {
    try {
      return (this.link && this.link.MAC) || '';
    } catch {
      return ''; // a driver that cannot tell
    }
  }

  start(): void {
    if (NEEDS_SSID && !this.options.ssid) {
      this.becomeUp('');
      return;
    }
    this.connect();
  }

  private connect(): void {
    const o = this.options;
    try {
      // Made at the first attempt that can: a driver that does not start (the Pico W's CYW43)
      // throws here, and is tried again after the backoff like a failed join.
      if (!this.link) {
        this.link = this.makeLink();
        this.nameLink(this.link);
      }
      this.link.connect(o.password ? { SSID: o.ssid!, password: o.password } : { SSID: o.ssid! });
    } catch (e) {
      trace(`${LINK_NAME}: ${(e as Error).message}\n`);
      this.lost();
      return;
    }
    this.setTimer(this.attemptOver, ATTEMPT_MS);
  }

  private makeLink(): Link {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the SDK calls onChanged with `this` bound to the link object
    const self = this;
    return new Link({ onChanged() { self.changed(); } });
  }

  private nameLink(link: Link): void {
    const name = this.options.hostname?.();
    if (name && 'hostname' in Object.getPrototypeOf(link)) (link as unknown as { hostname: string }).hostname = name;
  }

  private changed(): void {
    const link = this.link!;
    const c = link.connection;
    if (c >= WIFI_ADDRESSED) {
      this.retryMs = RETRY_MIN_MS;
      this.setTimer(undefined, 0);
      if (!this.isUp) this.becomeUp(link.address ?? '');
      return;
    }
    if (this.isUp) this.becomeDown();
    if (c <= WIFI_DISCONNECTED) this.lost();
    else if (this.timer === undefined) this.setTimer(this.attemptOver, ATTEMPT_MS); // an address may yet come
  }

  /** Not connected and not connecting: join again after the backoff. */
  private lost(): void {
    if (this.isUp) this.becomeDown();
    trace(`${LINK_NAME}: joining ${NEEDS_SSID ? `"${this.options.ssid}"` : 'the network'} again in ${this.retryMs / 1000} s\n`);
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
    if (address) trace(`${LINK_NAME}: address ${address}\n`);
    for (let k = 0; k < this.watchers.length; k++) {
      try { this.watchers[k].up(address); } catch (e) { trace(`network up: ${(e as Error).message}\n`); }
    }
  }

  private becomeDown(): void {
    this.isUp = false;
    this.address = '';
    trace(`${LINK_NAME}: address lost\n`);
    for (let k = 0; k < this.watchers.length; k++) {
      try { this.watchers[k].down(); } catch (e) { trace(`network down: ${(e as Error).message}\n`); }
    }
  }
}
Object.freeze(NetworkLink.prototype);
