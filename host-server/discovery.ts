// Finding modules by DNS-SD (docs/lab.md): browse `_brainstem._tcp` with bonjour-service and
// hand each announced address to the registry. An announcement is only a lead: what a module is
// (its serial, model) is what it answers at GET /api/v1/device, never what its TXT claims.

import { Bonjour, type Service } from 'bonjour-service';
import { isIPv4, isIPv6 } from 'node:net';
import { parseSerial } from '../src/api/route/serial';
import type { Registry } from './registry';
import type { ModuleEntry } from './link';

export interface Discovery {
  close(): void;
}

/** The address to reach an announced service at: an IPv4 of its host first, else where it spoke from. */
export function serviceOrigin(s: Pick<Service, 'addresses' | 'referer' | 'port'>): string | null {
  if (!Number.isInteger(s.port) || s.port <= 0 || s.port > 65535) return null;
  const usable = (a: string | undefined): boolean => !!a && ((isIPv4(a) && !/^(0\.|22[4-9]\.|2[3-5]\d\.)/.test(a)) || (isIPv6(a) && !a.startsWith('fe80')));
  const candidates = [...(s.addresses ?? []).filter(isIPv4), ...(s.addresses ?? []).filter(isIPv6), s.referer?.address];
  const a = candidates.find(usable);
  if (!a) return null;
  return `http://${isIPv6(a) ? `[${a}]` : a}:${s.port}`;
}

/** What a TXT record claims (serial=0x…, model=N), if it is well formed. */
export function txtHint(txt: unknown): ModuleEntry | undefined {
  const t = (txt ?? {}) as Record<string, unknown>;
  const serial = typeof t.serial === 'string' && /^0x[0-9a-f]{8}$/i.test(t.serial) ? parseSerial(t.serial) : -1;
  if (serial < 0) return undefined;
  const model = typeof t.model === 'string' && /^\d{1,5}$/.test(t.model) ? Number(t.model) : null;
  return { serial, model, module: null };
}

/**
 * bonjour-service leaves its multicast socket's 'error' event unheard, so a port 5353 that another
 * program holds without sharing it would end the process: report it instead and serve on.
 */
export function hearSocketErrors(bonjour: Bonjour, report: (e: Error) => void): void {
  const mdns = (bonjour as unknown as { server?: { mdns?: NodeJS.EventEmitter } }).server?.mdns;
  mdns?.on('error', report);
}

export function browse(registry: Registry, log: (line: string) => void): Discovery {
  const bonjour = new Bonjour({}, (e: Error) => log(`discovery: ${e.message}`));
  let failed = false;
  hearSocketErrors(bonjour, (e) => {
    if (!failed) log(`discovery: multicast DNS unavailable (${e.message}); modules named with --module are still served`);
    failed = true;
  });
  const browser = bonjour.find({ type: 'brainstem', protocol: 'tcp' }, (s: Service) => {
    const origin = serviceOrigin(s);
    if (!origin) {
      log(`discovery: ${s.name} announced no usable address or port; ignored`);
      return;
    }
    registry.add(origin, txtHint(s.txt));
  });
  // Ask again now and then: a module that missed our first question answers the next.
  const timer = setInterval(() => browser.update(), 10000);
  timer.unref();
  return {
    close(): void {
      clearInterval(timer);
      browser.stop();
      bonjour.destroy();
    },
  };
}
