// ethernet: static settings vs the addresses in effect (static, a simulated DHCP lease, or none),
// a MAC derived from the serial number, hostname, and per-service TCP ports that take effect after
// save and reset.

import { ApiError, aErrRange, aErrSize } from '../kit/errors';
import type { HalOf, HalValue } from '../types';
import type { SimContext } from './context';
import { checkDnsLabel } from '../kit/dns-label';
import { makeEntity } from './entity';
import { asBytes } from '../kit/value-guards';
import { bytesOfText } from './values';

const CONFIG_NONE = 0;
const CONFIG_STATIC = 1;
/** Default ports per service: REST HTTP, REST HTTPS, BrainStem TCP, discovery request, discovery reply. */
export const DEFAULT_SERVICE_PORTS: readonly number[] = [80, 443, 8000, 9001, 9002];
const MAX_DNS = 4;

export interface EthernetModel {
  entity: HalOf<'ethernet'>;
  /** The port a service listens on since the last reset. */
  activePort(service: number): number;
}

function ip(...b: number[]): Uint8Array {
  return new Uint8Array(b);
}

function checkAddress(op: string, v: HalValue, several: boolean): Uint8Array {
  const b = asBytes(v, op);
  const ok = several ? b.length >= 4 && b.length <= 4 * MAX_DNS && b.length % 4 === 0 : b.length === 4;
  if (!ok) throw new ApiError(aErrSize, `${op}: ${b.length} bytes, ${several ? `1..${MAX_DNS} addresses of 4 bytes` : 'an address is 4 bytes'}`);
  return b;
}

function checkNetmask(v: HalValue): Uint8Array {
  const b = checkAddress('staticipv4netmask', v, false);
  const bits = ((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]) >>> 0;
  const inverted = ~bits >>> 0;
  if ((inverted & (inverted + 1)) !== 0) throw new ApiError(aErrRange, `staticipv4netmask ${b.join('.')}: the one-bits must be contiguous`);
  return b;
}

function checkHostname(v: HalValue): Uint8Array {
  return checkDnsLabel('hostname', asBytes(v, 'hostname'));
}

export function createEthernet(ctx: SimContext): EthernetModel {
  const s = ctx.serial >>> 0;
  const regs = ctx.registers('ethernet', {
    enabled: true,
    networkconfiguration: 2, // DHCP
    staticipv4address: ip(192, 168, 1, 100),
    staticipv4netmask: ip(255, 255, 255, 0),
    staticipv4gateway: ip(192, 168, 1, 1),
    staticipv4dnsaddress: ip(192, 168, 1, 1),
    hostname: bytesOfText(`brainstem-${s.toString(16).padStart(8, '0')}`),
    interfaceport: (_i, p) => DEFAULT_SERVICE_PORTS[p[0]] ?? 0,
  });
  // The simulated DHCP server leases a host address derived from the serial number.
  const lease = {
    ipv4address: ip(10, 42, (s >>> 8) & 0xff, 2 + ((s & 0xff) % 250)),
    ipv4netmask: ip(255, 255, 0, 0),
    ipv4gateway: ip(10, 42, 0, 1),
    ipv4dnsaddress: ip(10, 42, 0, 1, 1, 1, 1, 1),
  };
  const effective = (op: keyof typeof lease) => (i: number): Uint8Array => {
    const config = regs.num(i, 'networkconfiguration');
    if (!regs.bool(i, 'enabled') || config === CONFIG_NONE) return new Uint8Array(op === 'ipv4dnsaddress' ? 0 : 4);
    if (config === CONFIG_STATIC) return asBytes(regs.read(i, 'static' + op), 'static' + op);
    return lease[op].slice();
  };

  // Locally administered unicast MAC: 02:42 then the serial number, big-endian. Each read gets a copy.
  const mac = ip(0x02, 0x42, (s >>> 24) & 0xff, (s >>> 16) & 0xff, (s >>> 8) & 0xff, s & 0xff);

  let active: number[] = [];
  // A module without ethernet (a profile with no instance) keeps the default ports.
  const latch = () => { active = DEFAULT_SERVICE_PORTS.map((d, k) => (regs.count ? regs.num(0, 'interfaceport', [k]) : d)); };
  latch();
  ctx.onReboot(latch);

  const entity = makeEntity(ctx, 'ethernet', {
    registers: regs,
    get: {
      ipv4address: effective('ipv4address'),
      ipv4netmask: effective('ipv4netmask'),
      ipv4gateway: effective('ipv4gateway'),
      ipv4dnsaddress: effective('ipv4dnsaddress'),
      macaddress: () => new Uint8Array(mac),
    },
    set: {
      staticipv4address: (i, _p, v) => regs.write(i, 'staticipv4address', [], checkAddress('staticipv4address', v, false)),
      staticipv4gateway: (i, _p, v) => regs.write(i, 'staticipv4gateway', [], checkAddress('staticipv4gateway', v, false)),
      staticipv4dnsaddress: (i, _p, v) => regs.write(i, 'staticipv4dnsaddress', [], checkAddress('staticipv4dnsaddress', v, true)),
      staticipv4netmask: (i, _p, v) => regs.write(i, 'staticipv4netmask', [], checkNetmask(v)),
      hostname: (i, _p, v) => regs.write(i, 'hostname', [], checkHostname(v)),
    },
  });
  return { entity, activePort: (service) => active[service] ?? 0 };
}
