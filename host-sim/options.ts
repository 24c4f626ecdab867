// The simulator's command line, parsed into a plain description of what to run (no side effects, so
// tests check it directly). Errors throw UsageError; main.ts prints them as one line (cli.ts).

import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { findProfile, PROFILES, type SimProfile } from '../hal/sim/index';
import { parseSerial } from '../src/api/route/serial';
import type { AccessOptions } from '../src/api/access/access';
import { authOption } from './sha256';
import { parseArgsProblem, UsageError } from './cli';

export { UsageError };

export const DEFAULT_SERIAL = 0x1234abcd;
/** The profile `make sim` serves without --profile. */
export const DEFAULT_PROFILE = 'everything';
export const MAX_DEVICES = 64;

export const USAGE = `usage: node build/host-sim/main.js [options]
  --port N              TCP port (default 9005; 0 picks a free one)
  --host ADDR           address to listen on (default 127.0.0.1)
  --serial HEX          serial number of the (first) simulated module (default 0x1234ABCD);
                        further modules get the next numbers: +1, +2...
  --profile NAME        module type: ${PROFILES.map((p) => p.name).join(', ')} (default ${DEFAULT_PROFILE});
                        repeat it to serve one module of each
  --devices N           serve N modules of the profile (default 1, at most ${MAX_DEVICES})
  --state-file PATH     keep every module's saved settings in this one file (keyed by serial)
                        (default: one file per module, <config>/device-rest-sim/state-<SERIAL>.json,
                        <config> = $XDG_CONFIG_HOME or ~/.config)
  --no-state            keep saved settings in memory only: every start is a factory-fresh module
  --allow-host NAME     also accept requests whose Host is NAME (repeatable); always accepted:
                        IP literals, localhost and the modules' hostnames (DNS-rebinding check)
  --cors ORIGIN[,...]   allow these origins (e.g. http://lab.example:8000) to read answers and to
                        PUT from a browser; '*' allows every origin (default: CORS off)
  --token TOKEN         require the token for PUTs and actions: HTTP Digest (SHA-256, TOKEN the
                        password, any user name) or 'Authorization: Bearer TOKEN'
  --token-reads         require the token for reads (GET, HEAD) too
  --auth digest         take the token only as HTTP Digest, refuse Bearer (default: any)
  --max-connections N   connections served at once (default 256)
  --answer-time MS      answer at a module's pace: one request at a time, at least MS ms each
                        (0..10000; default 0, as fast as this machine)
  --announce            announce every module by multicast DNS / DNS-SD ({hostname}.local,
                        _http._tcp and _brainstem._tcp); off by default, since the simulator
                        listens on 127.0.0.1, which no other machine can reach (see --host)
  --help                this text`;

export type StatePlan =
  | { kind: 'memory' }
  | { kind: 'file'; path: string } // every module in one file
  | { kind: 'per-device'; dir: string }; // state-<SERIAL>.json per module in dir

export interface DevicePlan {
  serial: number;
  profile: SimProfile;
}

export interface SimConfig {
  help: boolean;
  port: number;
  host: string;
  access: AccessOptions;
  maxConnections: number;
  devices: DevicePlan[];
  state: StatePlan;
  /** Announce the modules by DNS-SD (host-sim/announce.ts). */
  announce: boolean;
  /** A module's pace: ms at least for each request, one at a time (host-sim/pacer.ts); 0 for none. */
  answerTimeMs: number;
}

/** Where per-user settings live: $XDG_CONFIG_HOME (if absolute), else ~/.config (%APPDATA% on Windows). */
export function configHome(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && path.isAbsolute(xdg)) return xdg;
  if (process.platform === 'win32' && env.APPDATA) return env.APPDATA;
  return path.join(os.homedir(), '.config');
}

export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(configHome(env), 'device-rest-sim');
}

/** The per-module file name in the default layout: state-1234ABCD.json. */
export function stateFileName(serial: number): string {
  return `state-${(serial >>> 0).toString(16).toUpperCase().padStart(8, '0')}.json`;
}

function intOption(text: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be an integer ${min}..${max}, got '${text}'`);
  }
  return n;
}

/** The command line's flags, as node:util parseArgs takes them. */
const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  serial: { type: 'string' },
  profile: { type: 'string', multiple: true },
  devices: { type: 'string' },
  'state-file': { type: 'string' },
  'no-state': { type: 'boolean' },
  cors: { type: 'string', multiple: true },
  'allow-host': { type: 'string', multiple: true },
  token: { type: 'string' },
  'token-reads': { type: 'boolean' },
  auth: { type: 'string' },
  'max-connections': { type: 'string' },
  announce: { type: 'boolean' },
  'answer-time': { type: 'string' },
  help: { type: 'boolean' },
} as const;

type Flags = ReturnType<typeof parseArgs<{ options: typeof FLAGS; strict: true; allowPositionals: false }>>['values'];

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): SimConfig {
  let values: Flags;
  try {
    ({ values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (e) {
    throw parseArgsProblem(e as Error, USAGE);
  }
  return {
    help: values.help === true,
    port: intOption(values.port, 'port', 9005, 0, 65535),
    host: values.host ?? '127.0.0.1',
    access: { ...accessOptions(values.cors, values['allow-host'], values.token, values['token-reads'] === true),
      ...authOption(values.auth, values.token, (why) => new UsageError(why)) },
    maxConnections: intOption(values['max-connections'], 'max-connections', 256, 1, 100000),
    devices: deviceList(values),
    state: statePlan(values, env),
    announce: values.announce === true,
    answerTimeMs: intOption(values['answer-time'], 'answer-time', 0, 0, 10000),
  };
}

/** The modules to simulate: --serial (the first), --profile (repeatable) or --devices N of one. */
function deviceList(values: Flags): SimConfig['devices'] {
  let base = DEFAULT_SERIAL;
  if (values.serial !== undefined) {
    base = parseSerial(values.serial);
    const digits = values.serial.replace(/^0x/i, '').length;
    if (base < 0 || digits > 8) throw new UsageError(`--serial must be up to 8 hex digits, got '${values.serial}'`);
  }
  const names = values.profile ?? [DEFAULT_PROFILE];
  const profiles = names.map((name) => {
    const p = findProfile(name);
    if (!p) throw new UsageError(`unknown profile '${name}'; profiles: ${PROFILES.map((x) => x.name).join(', ')}`);
    return p;
  });
  const count = intOption(values.devices, 'devices', 1, 1, MAX_DEVICES);
  if (values.devices !== undefined && profiles.length > 1) {
    throw new UsageError('--devices takes one --profile; to mix module types, repeat --profile once per module');
  }
  const list = profiles.length > 1 ? profiles : Array.from({ length: count }, () => profiles[0]);
  if (list.length > MAX_DEVICES) throw new UsageError(`at most ${MAX_DEVICES} modules, got ${list.length}`);
  if (base + list.length - 1 > 0xffffffff) {
    throw new UsageError(`--serial ${values.serial}: ${list.length} modules would run past 0xFFFFFFFF`);
  }
  return list.map((profile, i) => ({ serial: base + i, profile }));
}

/** Where saved settings live: memory (--no-state), one file (--state-file) or a file per module. */
function statePlan(values: Flags, env: NodeJS.ProcessEnv): StatePlan {
  if (values['no-state'] && values['state-file'] !== undefined) {
    throw new UsageError('--state-file and --no-state exclude each other');
  }
  if (values['state-file'] === '') throw new UsageError('--state-file needs a path');
  return values['no-state'] ? { kind: 'memory' }
    : values['state-file'] !== undefined ? { kind: 'file', path: path.resolve(values['state-file']) }
      : { kind: 'per-device', dir: defaultStateDir(env) };
}

/** Checks the access-control options: origins are scheme://host[:port], names and the token printable. */
function accessOptions(cors: string[] | undefined, hosts: string[] | undefined, token: string | undefined,
  tokenReads: boolean): AccessOptions {
  const origins = (cors ?? []).flatMap((list) => list.split(',')).map((o) => o.trim()).filter((o) => o !== '');
  for (const o of origins) {
    if (o !== '*' && !/^https?:\/\/[^/\s]+\/?$/i.test(o)) {
      throw new UsageError(`--cors takes origins like http://host:port (or *), got '${o}'`);
    }
  }
  for (const h of hosts ?? []) {
    if (!/^[A-Za-z0-9.-]+$/.test(h)) throw new UsageError(`--allow-host takes a host name, got '${h}'`);
  }
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) {
    throw new UsageError('--token must be printable ASCII without spaces');
  }
  if (tokenReads && token === undefined) throw new UsageError('--token-reads needs --token');
  return { cors: origins, allowHosts: hosts ?? [], token: token ?? '', tokenReads };
}
