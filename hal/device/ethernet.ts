// ethernet: the module's network interface (Wi-Fi station on an ESP32 DevKit, the host's interface on
// the desktop). Effective addresses come from `net`; the static-address settings are kept and saved, but
// this firmware joins the network by DHCP only (Moddable's setup/network), so networkconfiguration is 2.
// `net` reports neither netmask nor gateway: those two reads are 501 here.
// interfaceport/0 is the REST HTTP port the listener opens at boot (saved value, else config.http.port).

import { ApiError, aErrMode, aErrRange } from '../../src/api/errors';
import type { EntityHal, EntityOps } from '../types';
import type { PortApi } from './port/api';
import { makeEntity } from './entity';
import type { Settings } from './settings';
import { asBool, asBytes, asNumber, ipv4Bytes, macBytes } from './values';

type Op = EntityOps['ethernet'];
const DHCP = 2;
/** Service ports: 0 REST HTTP, 1 REST HTTPS, 2 BrainStem TCP, 3/4 discovery (DECISIONS.md, operations.tsv). */
const OTHER_PORTS: readonly number[] = Object.freeze([443, 8000, 9001, 9002]);

export function portKey(service: number): string {
  return 'eth.port' + service;
}

export function defineEthernetSettings(s: Settings, httpPort: number): void {
  s.define('eth.ip', new Uint8Array(4));
  s.define('eth.mask', new Uint8Array([255, 255, 255, 0]));
  s.define('eth.gw', new Uint8Array(4));
  s.define('eth.dns', new Uint8Array(4));
  s.define('eth.host', new Uint8Array(0));
  s.define(portKey(0), httpPort);
  OTHER_PORTS.forEach((p, k) => s.define(portKey(k + 1), p));
}

export function createEthernet(s: Settings, port: PortApi): EntityHal<Op> {
  const bytesSetting = (key: string, what: string, multipleOf: number) =>
    (_i: number, _p: readonly number[], v: unknown) => {
      const b = asBytes(v as Uint8Array, what);
      if (b.length === 0 || b.length % multipleOf !== 0) {
        throw new ApiError(aErrRange, `${what} must be ${multipleOf === 4 ? 'IPv4 addresses (4 bytes each)' : multipleOf + ' bytes'}, got ${b.length} bytes`);
      }
      s.set(key, b);
    };
  return makeEntity('ethernet', {
    count: 1,
    get: {
      enabled: () => true,
      networkconfiguration: () => DHCP,
      staticipv4address: () => s.bytes('eth.ip'),
      staticipv4netmask: () => s.bytes('eth.mask'),
      staticipv4gateway: () => s.bytes('eth.gw'),
      staticipv4dnsaddress: () => s.bytes('eth.dns'),
      ipv4address: () => ipv4Bytes(port.ipAddress()),
      ipv4dnsaddress: () => {
        const list = port.dnsAddresses();
        const out = new Uint8Array(4 * Math.max(1, list.length));
        list.forEach((a, k) => out.set(ipv4Bytes(a), 4 * k));
        return out;
      },
      hostname: () => s.bytes('eth.host'),
      macaddress: () => macBytes(port.macAddress()),
      interfaceport: (_i, p) => s.num(portKey(p[0])),
    },
    set: {
      enabled: (_i, _p, v) => {
        if (!asBool(v, 'enabled')) throw new ApiError(aErrMode, 'the interface serving this API cannot be disabled through it');
      },
      networkconfiguration: (_i, _p, v) => {
        const n = asNumber(v, 'networkconfiguration');
        if (n !== DHCP) throw new ApiError(aErrMode, `networkconfiguration ${n} is not available: this firmware uses DHCP (2)`);
      },
      staticipv4address: bytesSetting('eth.ip', 'staticipv4address', 4),
      staticipv4netmask: bytesSetting('eth.mask', 'staticipv4netmask', 4),
      staticipv4gateway: bytesSetting('eth.gw', 'staticipv4gateway', 4),
      staticipv4dnsaddress: bytesSetting('eth.dns', 'staticipv4dnsaddress', 4),
      hostname: (_i, _p, v) => s.set('eth.host', asBytes(v, 'hostname')),
      // Takes effect after system/save and a reset: the listener reads it at boot only.
      interfaceport: (_i, p, v) => s.set(portKey(p[0]), asNumber(v, 'interfaceport')),
    },
  });
}
