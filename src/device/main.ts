// Device entry (the manifest's creation.main): builds the module from the board profile in the
// manifest config, and serves the API on the saved REST port (docs/api.md §Addresses) whenever the
// network is up: src/device/network.ts joins Wi-Fi (config.ssid), and joins again after a loss.
// `network` is exported so that other users of the network (an announcer) can watch it too.
// The serial is config.serial or, without one, read from the station's MAC when the network first comes
// up: no chip has its MAC before its Wi-Fi driver starts (docs/module.md §Identity). A module with
// neither answers every request 503 and does not announce itself (DECISIONS §Identity).

import config from 'mc/config';
import platform from 'hal/device/platform';
import { Api } from '../api/api';
import { standardTextCodec } from '../../util/text';
import { board } from '../../hal/device/board';
import { createDeviceModule, serialFromMac } from '../../hal/device/module';
import { packVersion } from '../../hal/kit/version';
import type { FirmwareHal } from '../../hal/types';
import { DeviceServer } from './server';
import Preference from 'preference';
import { NetworkLink } from './network';
import { ClockSync } from './clock-sync';
import { WrapSafeTicks } from './ticks';
import { accessFromConfig, ACCESS_DOMAIN } from '../api/access/access-config';
import { deviceOpenApi } from './openapi';
import { deviceConsolePage } from './console-resource';
import { Announcer } from './announce';
import type { HttpRequest, HttpResponse, RequestHandler } from '../http/request';
import Watchdog from 'watchdog';
import { startWatchdog } from './keepalive';
import { createFirmware } from 'hal/device/firmware/platform';

interface HttpConfig { port?: number; connections?: number; idleTimeoutMs?: number }
interface FirmwareConfig { major?: number; minor?: number; patch?: number; build?: number | string }

const http = (config.http ?? {}) as HttpConfig;
const fw = (config.firmware ?? {}) as FirmwareConfig;

/** A config number that may be written as hex text ("0x1234ABCD"): manifests are JSON. */
function configNumber(v: unknown): number {
  if (typeof v === 'number') return v >>> 0;
  if (typeof v === 'string' && v) return Number(v) >>> 0 || 0;
  return 0;
}

let server: DeviceServer | null = null;
/**
 * One monotonic clock for the connection deadlines and the token lockout (Time.ticks wraps on ESP32),
 * read by its own timer too, so that it stays exact while no server runs (a long network outage).
 */
const clock = new WrapSafeTicks();
clock.keepFed();
const ticks = clock.now;
// {hostname}.local and the REST port by DNS-SD: announced whenever the API listens, again when a reset
// changed either, and withdrawn while the network is down.
// The name it took (brainstem-…-2 after a conflict) is a name the Host check accepts.
const announcer = new Announcer(ticks, (name) => api.setAnnouncedName(0, name));

const boardProfile = board();
const device = createDeviceModule({
  board: boardProfile,
  platform,
  // Handed in, not imported by the preloaded HAL: this module is not preloaded, so on the desktop host
  // `preference` loads (and reads its saved file) at boot rather than at build time.
  preferences: Preference,
  firmware: {
    version: packVersion(fw.major ?? 0, fw.minor ?? 1, fw.patch ?? 0),
    build: configNumber(fw.build),
  },
  serial: configNumber(config.serial),
  httpPort: http.port ?? 80,
  // Read before the watchdog starts (on the Pico, starting it changes what the chip reports).
  restartCause: Watchdog.cause(),
  onReset: (restart) => {
    if (server) server.restartAfterFlush(() => { restart(); listenOnSavedPort(); if (server) announce(server.port); });
    else restart();
  },
});

startWatchdog();

// PUT …/firmware (docs/firmware.md): the ESP32's OTA partitions, or a 501 on a board that has none; it
// restarts into a new image once the 202 has gone, as system/reset does, counted as an update.
(device as { firmware?: FirmwareHal }).firmware = createFirmware({
  version: packVersion(fw.major ?? 0, fw.minor ?? 1, fw.patch ?? 0),
  build: configNumber(fw.build),
  restart: () => {
    const restart = (): void => { device.restarts.expect('update'); platform.restart(); };
    if (server) server.restartAfterFlush(restart);
    else restart();
  },
});

// One UTF-8 codec for the API and every connection (made now, at run time: host functions exist).
const codec = standardTextCodec();
// Allowed hosts, CORS origins and token: manifest config.http, mcconfig arguments, saved settings.
type ConfigSource = { readonly [key: string]: unknown };
const access = accessFromConfig((config.http ?? {}) as ConfigSource, config as ConfigSource, (key) => Preference.get(ACCESS_DOMAIN, key));
const api = new Api([device], { ...access, codec, ticks, openapi: deviceOpenApi(),
  consoleGzip: deviceConsolePage() });

const NO_IDENTIFIER = 'this module has no serial number: it could read no identifier from its chip; set config.serial in its build';

/** What a module with no serial serves: a 503 for every request (no serial another board could share). */
const unidentified: RequestHandler = Object.freeze({
  handle(req: HttpRequest, res: HttpResponse): void { api.fail(503, NO_IDENTIFIER, req.target, res); },
  fail(status: number, message: string, target: string, res: HttpResponse): void { api.fail(status, message, target, res); },
  afterResponse(): void { /* nothing pending */ },
});

/** The serial, from the Wi-Fi station's MAC (or the desktop host's identifier) where none is configured. */
function identified(): boolean {
  const mac = network.stationMac || platform.identifier();
  device.identify(serialFromMac(mac));
  if (device.serialNumber) return true;
  trace(`identity: no identifier readable (MAC "${mac}"): not announced; every request answers 503\n`);
  return false;
}

/** Announce on DNS-SD, if the module has a serial of its own. */
function announce(port: number): void {
  if (device.serialNumber) announcer.start(device, port, access.token !== '');
}

/** The network is up: serve the API on the saved REST port, and announce it (again, after a loss). */
function listen(): void {
  if (server) {
    announce(server.port);
    return;
  }
  const known = identified();
  server = new DeviceServer(known ? api : unidentified, {
    codec,
    port: device.httpPort(),
    maxConnections: http.connections ?? 4,
    idleTimeoutMs: http.idleTimeoutMs,
    ticks,
    writeMax: boardProfile.writeMax,
    sendingMax: boardProfile.sendingMax,
  });
  // The cause again: on a Pico W the boot's own line comes before a USB host has the console open.
  trace(`REST API on port ${server.port}, serial 0x${device.serialNumber.toString(16)}, started by ${device.restarts.cause}\n`);
  announce(server.port);
}

/**
 * The network is gone: the announcement is withdrawn, the listener stays. lwIP keeps a listener on any
 * address across a lost link, and one must not be closed and made again on the Pico W: the SDK's close
 * frees its pcb twice (tcp_close then tcp_abort, modules/network/socket/lwip/modLwipSafe.h:32), and
 * the next listener makes lwIP panic ("tcp_free: LISTEN"). Connections end as their peers or the idle
 * timeout end them.
 */
function networkDown(): void {
  announcer.close();
}

/** Stop serving (the REST port moved in a soft reset). */
function stopListening(): void {
  announcer.close();
  if (!server) return;
  server.close();
  server = null;
}

/** A config text (mcconfig's ssid=..., password=...), or undefined. */
function text(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}

export const network = new NetworkLink({ ssid: text(config.ssid), password: text(config.password) });
network.watch({ up: listen, down: networkDown });
// The network time (config.sntp), asked until a server answers; the desktop host keeps the host's clock.
const sntp = text(config.sntp);
if (sntp && text(config.ssid)) network.watch(new ClockSync(sntp, device));
network.start();

/**
 * After a soft reset (a platform with no chip restart, such as lin) the saved REST port may have
 * changed (ethernet/0/interfaceport/0): listen there, as a restarted module would. A real restart
 * never gets here.
 */
function listenOnSavedPort(): void {
  if (!server || server.port === device.httpPort()) return;
  stopListening();
  listen();
}
