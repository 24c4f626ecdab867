// Device entry (the manifest's creation.main): builds the module from the board profile in the
// manifest config, and serves the API on the saved REST port (docs/api.md §Addresses) whenever the
// network is up: src/device/network.ts joins Wi-Fi (config.ssid), and joins again after a loss.
// `network` is exported so that other users of the network (an announcer) can watch it too.

import config from 'mc/config';
import platform from 'hal/device/platform';
import { Api } from '../api/api';
import { standardTextCodec } from '../../util/text';
import { board } from '../../hal/device/board';
import { createDeviceModule } from '../../hal/device/module';
import { packVersion } from '../../hal/kit/version';
import { DeviceServer } from './server';
import Preference from 'preference';
import { NetworkLink } from './network';
import { WrapSafeTicks } from './ticks';
import { accessFromConfig, ACCESS_DOMAIN } from '../api/access/access-config';
import { deviceOpenApi } from './openapi';
import { deviceConsolePage } from './console-resource';
import { Announcer } from './announce';

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
/** One monotonic clock for the connection deadlines and the token lockout (Time.ticks wraps on ESP32). */
const ticks = new WrapSafeTicks().now;
// {hostname}.local and the REST port by DNS-SD: announced whenever the API listens, again when a reset
// changed either, and withdrawn while the network is down.
// The name it took (brainstem-…-2 after a conflict) is a name the Host check accepts.
const announcer = new Announcer(ticks, (name) => api.setAnnouncedName(0, name));

const device = createDeviceModule({
  board: board(),
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
  onReset: (restart) => {
    if (server) server.restartAfterFlush(() => { restart(); listenOnSavedPort(); if (server) announcer.start(device, server.port, access.token !== ''); });
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

/** The network is up: serve the API on the saved REST port. */
function listen(): void {
  if (server) return;
  server = new DeviceServer(api, {
    codec,
    port: device.httpPort(),
    maxConnections: http.connections ?? 4,
    idleTimeoutMs: http.idleTimeoutMs,
    ticks,
  });
  trace(`REST API on port ${server.port}, serial 0x${device.serialNumber.toString(16)}\n`);
  announcer.start(device, server.port, access.token !== '');
}

/** The network is gone: its sockets are dead; the listener is made again when it comes back. */
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

export const network = new NetworkLink({ ssid: text(config.ssid), password: text(config.password), sntp: text(config.sntp) });
network.watch({ up: listen, down: stopListening });
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
