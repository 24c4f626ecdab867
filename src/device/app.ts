// The module as the device runs it: builds the module from the board profile in the manifest config,
// and serves the API on the saved REST port (docs/api.md §Addresses) whenever the network is up
// (src/device/network.ts joins Wi-Fi, config.ssid, and joins again after a loss).
// The serial is config.serial or, without one, read from the station's MAC when the network first comes
// up: no chip has its MAC before its Wi-Fi driver starts (docs/module.md §Identity). A module with
// neither answers every request 503 and does not announce itself (DECISIONS §Identity).
// One preloaded class rather than the entry's own top level: its methods stay in flash, and the module
// keeps one object where a top level keeps a closure per function and a slot per binding.

import config from 'mc/config';
import platform from 'hal/device/platform';
import { Api } from '../api/api';
import { standardTextCodec, type TextCodec } from '../../util/text';
import { board, type BoardProfile } from '../../hal/device/board';
import { DeviceModule, serialFromMac } from '../../hal/device/module';
import type { PreferenceStore } from '../../hal/device/settings';
import { packVersion } from '../../hal/kit/version';
import type { FirmwareHal } from '../../hal/types';
import { DeviceServer } from './server';
import { NetworkLink, type NetworkWatcher } from './network';
import { ClockSync } from './clock-sync';
import { WrapSafeTicks } from './ticks';
import { accessFromConfig, ACCESS_DOMAIN } from '../api/access/access-config';
import type { AccessOptions } from '../api/access/access';
import { deviceSha256 } from '../../hal/device/sha256';
import fillRandom from 'entropy';
import { deviceOpenApi } from './openapi';
import { deviceConsolePage } from './console-resource';
import { Announcer } from './announce';
import { announcedHostname } from '../api/announcement';
import type { HttpRequest, HttpResponse, RequestHandler } from '../http/request';
import { startWatchdog } from './keepalive';
import { createFirmware } from 'hal/device/firmware/platform';

interface HttpConfig { port?: number; connections?: number; idleTimeoutMs?: number }
interface FirmwareConfig { major?: number; minor?: number; patch?: number; build?: number | string }
type ConfigSource = { readonly [key: string]: unknown };

/** What the entry hands in: what is read at boot, not at build time. */
export interface AppOptions {
  /** Moddable's `preference` (the desktop host's reads its saved file as it loads). */
  readonly preferences: PreferenceStore;
  /** Why the chip started (the watchdog module's cause(), read before the watchdog starts). */
  readonly restartCause: string;
  /** What the chip runs (the watchdog module's image()): a start into another image is an update. */
  readonly image?: string;
}

/** A config number that may be written as hex text ("0x1234ABCD"): manifests are JSON. */
function configNumber(v: unknown): number {
  if (typeof v === 'number') return v >>> 0;
  if (typeof v === 'string' && v) return Number(v) >>> 0 || 0;
  return 0;
}

/** A config text (mcconfig's ssid=..., password=...), or undefined. */
function text(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}

const NO_IDENTIFIER = 'this module has no serial number: it could read no identifier from its chip; set config.serial in its build';

export class App implements NetworkWatcher, RequestHandler {
  private server: DeviceServer | null = null;
  /**
   * One monotonic clock for the connection deadlines and the token lockout (Time.ticks wraps on ESP32),
   * read by its own timer too, so that it stays exact while no server runs (a long network outage).
   */
  private readonly ticks: () => number;
  // {hostname}.local and the REST port by DNS-SD: announced whenever the API listens, again when a reset
  // changed either, and withdrawn while the network is down.
  private readonly announcer: Announcer;
  private readonly board: BoardProfile;
  private readonly device: DeviceModule;
  /** One UTF-8 codec for the API and every connection. */
  private readonly codec: TextCodec;
  /** Allowed hosts, CORS origins and token: manifest config.http, mcconfig arguments, saved settings. */
  private readonly access: AccessOptions;
  private readonly api: Api;
  readonly network: NetworkLink;

  constructor(options: AppOptions) {
    const fw = (config.firmware ?? {}) as FirmwareConfig;
    const clock = new WrapSafeTicks();
    clock.keepFed();
    const ticks = (this.ticks = clock.now);
    // The name it took (brainstem-…-2 after a conflict) is a name the Host check accepts.
    this.announcer = new Announcer(ticks, (name) => this.api.setAnnouncedName(0, name));
    this.board = board();
    const version = packVersion(fw.major ?? 0, fw.minor ?? 1, fw.patch ?? 0);
    const build = configNumber(fw.build);
    const device = (this.device = new DeviceModule({
      board: this.board,
      platform,
      preferences: options.preferences,
      firmware: { version, build },
      serial: configNumber(config.serial),
      httpPort: ((config.http ?? {}) as HttpConfig).port ?? 80,
      restartCause: options.restartCause,
      image: options.image,
      ticks,
      onReset: (restart) => this.afterFlush(() => { restart(); this.listenOnSavedPort(); }),
    }));
    startWatchdog();
    // PUT …/firmware (docs/firmware.md): the ESP32's OTA partitions, or a 501 on a board that has none;
    // it restarts into a new image once the 202 has gone, as system/reset does, counted as an update.
    (device as { firmware?: FirmwareHal }).firmware = createFirmware({
      version,
      build,
      restart: () => this.afterFlush(() => { device.restarts.expect('update'); platform.restart(); }),
    });
    // Made now, at run time: host functions exist.
    const codec = (this.codec = standardTextCodec());
    const access = (this.access = accessFromConfig((config.http ?? {}) as ConfigSource, config as ConfigSource,
      (key) => options.preferences.get(ACCESS_DOMAIN, key)));
    // HTTP Digest hashes with crypt's Digest and seals its nonces with a secret from the chip's entropy
    // (native/entropy), read here, before anything opens the ESP32's ADC or starts its Wi-Fi.
    this.api = new Api([device], { ...access, codec, ticks, sha256: deviceSha256, random: fillRandom,
      openapi: deviceOpenApi(), consoleGzip: deviceConsolePage() });
    this.network = new NetworkLink({ ssid: text(config.ssid), password: text(config.password),
      hostname: () => (this.identified() ? announcedHostname(device) : undefined) });
  }

  /** Join the network; serve and announce whenever it is up. */
  start(): void {
    const network = this.network;
    network.watch(this);
    // The network time (config.sntp), asked until a server answers; the desktop host keeps the host's clock.
    const sntp = text(config.sntp);
    if (sntp && network.joins) network.watch(new ClockSync(sntp, this.device));
    network.start();
  }

  /** The network is up: serve the API on the saved REST port, and announce it (again, after a loss). */
  up(): void {
    const server = this.server;
    if (server) this.announce(server.port);
    else this.listen();
  }

  /**
   * The network is gone: the announcement is withdrawn, the listener stays. lwIP keeps a listener on any
   * address across a lost link, and one must not be closed and made again on the Pico W: the SDK's close
   * frees its pcb twice (tcp_close then tcp_abort, modules/network/socket/lwip/modLwipSafe.h:32), and
   * the next listener makes lwIP panic ("tcp_free: LISTEN"). Connections end as their peers or the idle
   * timeout end them.
   */
  down(): void {
    this.announcer.close();
  }

  // What a module with no serial serves: a 503 for every request (no serial another board could share).
  handle(req: HttpRequest, res: HttpResponse): void { this.api.fail(503, NO_IDENTIFIER, req.target, res); }
  fail(status: number, message: string, target: string, res: HttpResponse): void { this.api.fail(status, message, target, res); }
  afterResponse(): void { /* nothing pending */ }

  /** Run `then` once the answer now being sent has left (a reset, an update), or at once with no server. */
  private afterFlush(then: () => void): void {
    const server = this.server;
    if (server) server.restartAfterFlush(then);
    else then();
  }

  /** The serial, from the link's MAC (or the desktop host's identifier) where none is configured. */
  private identified(): boolean {
    const mac = this.network.stationMac || platform.identifier();
    this.device.identify(serialFromMac(mac));
    if (this.device.serialNumber) return true;
    trace(`identity: no identifier readable (MAC "${mac}"): not announced; every request answers 503\n`);
    return false;
  }

  /** Announce on DNS-SD, if the module has a serial of its own. */
  private announce(port: number): void {
    if (this.device.serialNumber) this.announcer.start(this.device, port, this.access.token !== '');
  }

  private listen(): void {
    const known = this.identified();
    const http = (config.http ?? {}) as HttpConfig;
    const device = this.device;
    const server = (this.server = new DeviceServer(known ? this.api : this, {
      codec: this.codec,
      port: device.httpPort(),
      maxConnections: http.connections ?? 4,
      idleTimeoutMs: http.idleTimeoutMs,
      ticks: this.ticks,
      writeMax: this.board.writeMax,
      sendingMax: this.board.sendingMax,
    }));
    // The cause again: on a Pico W the boot's own line comes before a USB host has the console open.
    trace(`REST API on port ${server.port}, serial 0x${device.serialNumber.toString(16)}, started by ${device.restarts.cause}\n`);
    this.announce(server.port);
  }

  /**
   * After a soft reset (a platform with no chip restart, such as lin) the saved REST port may have
   * changed (ethernet/0/interfaceport/0): listen there, as a restarted module would, and announce the
   * port. A real restart never gets here.
   */
  private listenOnSavedPort(): void {
    const server = this.server;
    if (!server) return;
    if (server.port !== this.device.httpPort()) {
      this.announcer.close();
      server.close();
      this.server = null;
      this.listen();
    } else this.announce(server.port);
  }
}
Object.freeze(App.prototype);
