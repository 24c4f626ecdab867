// The host server's command line, parsed into a plain description of what to run (no side effects:
// tests check it directly). Errors throw UsageError; main.ts prints them on one line.

import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { AccessOptions } from '../src/api/access/access';
import { parseTokens } from './tokens';
import { authOption } from '../host-sim/sha256';

/** Client connections the host server serves at once unless --connections says otherwise. */
export const CONNECTIONS_DEFAULT = 512;

export const USAGE = `usage: node build/host-server/main.js [options]
  --port N                TCP port (default 9005, the reference host server's; 0 picks a free one)
  --host ADDR             address to listen on (default 127.0.0.1)
  --module URL            a module to front besides those found by DNS-SD: http://ADDR[:PORT]
                          (repeatable; port 80 when left out)
  --no-discovery          do not browse for modules (_brainstem._tcp) on the network
  --tokens FILE           the modules' tokens: one 'SERIAL TOKEN' per line ('*' for every module
                          without a line of its own), sent as HTTP Digest; never shown or logged
  --module-connections N  connections each module serves (default 4, a module's); the host server
                          opens at most N-1 to each, so a browser can still reach the module itself
  --queue N               requests that may wait for a module's connection (default 64, then 503)
  --connections N         client connections served at once (default 512); at the cap a newcomer
                          takes the slot of an idle client or of a request stalled over 2 s
  --allow-host NAME       also accept requests whose Host is NAME (repeatable); always accepted:
                          IP literals, localhost and this machine's name (DNS-rebinding check)
  --cors ORIGIN[,...]     allow these origins to read answers and to PUT from a browser ('*': any)
  --token TOKEN           require the token here for PUTs and actions: HTTP Digest (SHA-256, TOKEN
                          the password, any user name) or 'Authorization: Bearer TOKEN'
  --token-reads           require the token for reads too
  --auth digest           take the token only as HTTP Digest, refuse Bearer (default: any)
  --help                  this text`;

export class UsageError extends Error {}

export interface HostConfig {
  help: boolean;
  port: number;
  host: string;
  /** Origins given on the command line, as http://host:port. */
  modules: string[];
  discovery: boolean;
  /** serial (number) or '*' -> token. */
  tokens: Map<number | '*', string>;
  moduleConnections: number;
  queue: number;
  /** Client connections served at once. */
  connections: number;
  access: AccessOptions;
}

const FLAGS = {
  port: { type: 'string' },
  host: { type: 'string' },
  module: { type: 'string', multiple: true },
  'no-discovery': { type: 'boolean' },
  tokens: { type: 'string' },
  'module-connections': { type: 'string' },
  queue: { type: 'string' },
  connections: { type: 'string' },
  'allow-host': { type: 'string', multiple: true },
  cors: { type: 'string', multiple: true },
  token: { type: 'string' },
  'token-reads': { type: 'boolean' },
  auth: { type: 'string' },
  help: { type: 'boolean' },
} as const;

function intOption(text: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${name} must be an integer ${min}..${max}, got '${text}'`);
  }
  return Number(text);
}

/** http://ADDR[:PORT] (a trailing slash allowed) -> http://addr:port; anything else is a UsageError. */
export function moduleOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--module takes http://ADDR[:PORT], got '${text}'`);
  }
  if (url.protocol !== 'http:' || url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    throw new UsageError(`--module takes http://ADDR[:PORT] (plain HTTP, no path), got '${text}'`);
  }
  return `http://${url.hostname}:${url.port || '80'}`;
}

export function parseOptions(argv: string[]): HostConfig {
  let values: ReturnType<typeof parseArgs<{ options: typeof FLAGS; strict: true; allowPositionals: false }>>['values'];
  try {
    ({ values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  const host = values.host ?? '127.0.0.1';
  const token = values.token;
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token)) throw new UsageError('--token must be printable ASCII without spaces');
  if (values['token-reads'] && token === undefined) throw new UsageError('--token-reads needs --token');
  const origins = (values.cors ?? []).flatMap((l) => l.split(',')).map((o) => o.trim()).filter((o) => o !== '');
  for (const o of origins) {
    if (o !== '*' && !/^https?:\/\/[^/\s]+\/?$/i.test(o)) throw new UsageError(`--cors takes origins like http://host:port (or *), got '${o}'`);
  }
  for (const h of values['allow-host'] ?? []) {
    if (!/^[A-Za-z0-9.-]+$/.test(h)) throw new UsageError(`--allow-host takes a host name, got '${h}'`);
  }
  const tokens = values.tokens === undefined ? new Map() : readTokens(values.tokens);
  if (tokens.size > 0 && token === undefined && !isLoopback(host)) {
    throw new UsageError(`--tokens on ${host} without --token would let anyone who reaches this server write to the modules: ` +
      'set --token too, or listen on 127.0.0.1');
  }
  return {
    help: values.help === true,
    port: intOption(values.port, 'port', 9005, 0, 65535),
    host,
    modules: (values.module ?? []).map(moduleOrigin),
    discovery: values['no-discovery'] !== true,
    tokens,
    moduleConnections: intOption(values['module-connections'], 'module-connections', 4, 2, 1024),
    queue: intOption(values.queue, 'queue', 64, 0, 100000),
    connections: intOption(values.connections, 'connections', CONNECTIONS_DEFAULT, 1, 100000),
    access: { token: token ?? '', tokenReads: values['token-reads'] === true, allowHosts: values['allow-host'] ?? [], cors: origins,
      ...authOption(values.auth, token, (why) => new UsageError(why)) },
  };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

function readTokens(file: string): Map<number | '*', string> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--tokens ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  try {
    return parseTokens(text);
  } catch (e) {
    throw new UsageError(`--tokens ${file}: ${(e as Error).message}`);
  }
}
