// ethernet: the module's network interface (Wi-Fi station on an ESP32 DevKit, the host's interface on
// the desktop). Effective addresses come from the platform (`net`); the static-address settings are
// kept and saved, but this firmware joins the network by DHCP only (Moddable's setup/network), so
// networkconfiguration accepts DHCP (2) only and `enabled` only true (the interface serves this API).
// `net` reports neither netmask nor gateway: those two reads are 501 here, and so is ipv4dnsaddress on a
// board whose `net` has no DNS servers to give (board profile `readsDns` false: the Pico W, whose
// modules/network/net/pico/modNet.c comments its "DNS" answer out).
// interfaceport/{service} is saved per service; service 0 is the REST HTTP port the listener opens at
// boot (saved value, else config.http.port): it takes effect after system/save and a reset.

import { deepFreeze } from '../../util/freeze';
import type { EntityOps, ValueOf, ValuesOf } from '../types';
import type { PlatformApi } from './platform/api';
import { DeviceEntity } from './entity';
import { READ, WRITE, type OpTable } from './op-table';
import type { Settings } from './settings';
import { asBytes, asNumber } from '../kit/value-guards';
import { checkDnsLabel } from '../kit/dns-label';
import { ipv4Bytes, macBytes } from './values';

type Op = EntityOps['ethernet'];
const DHCP = 2;
const HOST_KEY = 'eth.host';

const OPS: OpTable<ValuesOf<'ethernet'>> = deepFreeze({
  enabled: { fixed: true, limits: { values: [1] } },
  networkconfiguration: { fixed: DHCP, limits: { values: [DHCP] } },
  staticipv4address: { setting: 'ip' },
  staticipv4netmask: { setting: 'mask' },
  staticipv4gateway: { setting: 'gw' },
  staticipv4dnsaddress: { setting: 'dns' },
  ipv4address: { code: READ },
  ipv4dnsaddress: { code: READ },
  hostname: { code: READ | WRITE }, // saved as eth.host, checked as a DNS label
  macaddress: { code: READ },
  interfaceport: { code: READ | WRITE },
});

/** Byte settings and their factory values (arrays: typed arrays cannot be frozen). */
const BYTE_SETTINGS: readonly (readonly [string, readonly number[]])[] = deepFreeze([
  ['eth.ip', [0, 0, 0, 0]], ['eth.mask', [255, 255, 255, 0]], ['eth.gw', [0, 0, 0, 0]], ['eth.dns', [0, 0, 0, 0]],
]);
/** Factory ports of services 1..4: REST HTTPS, BrainStem TCP, discovery request and reply (operations.tsv). */
const OTHER_PORTS: readonly number[] = deepFreeze([443, 8000, 9001, 9002]);

/** The factory host name, as the simulator's: brainstem-<the serial number in 8 hex digits>. */
function factoryHostname(serial: number): Uint8Array {
  const text = 'brainstem-' + (0x100000000 + (serial >>> 0)).toString(16).slice(1);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

export function portKey(service: number): string {
  return 'eth.port' + service;
}

export class EthernetEntity extends DeviceEntity<ValuesOf<'ethernet'>> {
  private readonly platform: PlatformApi;
  private readonly readsDns: boolean;

  constructor(s: Settings, platform: PlatformApi, httpPort: number, serial: number, readsDns = true) {
    super('ethernet', OPS, 1, s, 'eth.');
    this.platform = platform;
    this.readsDns = readsDns;
    s.define(HOST_KEY, factoryHostname(serial));
    // The frozen arrays themselves (in flash): a Uint8Array each would hold about ten heap slots.
    for (let k = 0; k < BYTE_SETTINGS.length; k++) s.define(BYTE_SETTINGS[k][0], BYTE_SETTINGS[k][1]);
    s.define(portKey(0), httpPort);
    for (let k = 0; k < OTHER_PORTS.length; k++) s.define(portKey(k + 1), OTHER_PORTS[k]);
  }

  override supports(op: Op): boolean {
    return (op !== 'ipv4dnsaddress' || this.readsDns) && super.supports(op);
  }

  /** The serial became known after boot: the factory host name follows it (a saved one still wins). */
  identify(serial: number): void {
    this.settings.define(HOST_KEY, factoryHostname(serial));
  }

  protected override read(_i: number, op: Op, p: readonly number[]): ValueOf<'ethernet'> {
    switch (op) {
      case 'ipv4address': return ipv4Bytes(this.platform.ipAddress());
      case 'ipv4dnsaddress': {
        const list = this.platform.dnsAddresses();
        const out = new Uint8Array(4 * Math.max(1, list.length));
        for (let k = 0; k < list.length; k++) out.set(ipv4Bytes(list[k]), 4 * k);
        return out;
      }
      case 'macaddress': return macBytes(this.platform.macAddress());
      case 'interfaceport': return this.settings.num(portKey(p[0]));
      case 'hostname': return this.settings.bytes(HOST_KEY);
    }
    throw this.unsupported(op);
  }

  protected override write(_i: number, op: Op, p: readonly number[], v: ValueOf<'ethernet'>): void {
    if (op === 'hostname') this.settings.set(HOST_KEY, checkDnsLabel('hostname', asBytes(v, 'hostname')));
    else if (op === 'interfaceport') this.settings.set(portKey(p[0]), asNumber(v, 'interfaceport'));
    else throw this.unsupported(op);
  }
}
Object.freeze(EthernetEntity.prototype);
