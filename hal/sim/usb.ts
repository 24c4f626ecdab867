// usb: the hub view of the port model. VALUE of the enable/disable operations is the channel (port
// number); per-channel operations take {channel}. The hub's own settings are plain registers.

import type { EntityOps, HalOf, OpLimits, OpsWithValue, ValuesOf } from '../types';
import type { SimContext } from './context';
import { makeEntity, type Getters, type Setters } from './entity';
import type { LineGroup } from './port-words';
import type { PortModel } from './ports';
import { indexOf, oneOf } from './profile-limits';
import { asBool, asNumber } from '../kit/value-guards';

type UsbOp = EntityOps['usb'];
type UsbValues = ValuesOf<'usb'>;

/** The ten switch operations: which line groups they set, and to what. */
const SWITCHES: readonly (readonly [OpsWithValue<'usb', number>, readonly LineGroup[], boolean])[] = [
  ['portenable', ['power', 'data'], true], ['portdisable', ['power', 'data'], false],
  ['dataenable', ['data'], true], ['datadisable', ['data'], false],
  ['hispeeddataenable', ['datahs'], true], ['hispeeddatadisable', ['datahs'], false],
  ['superspeeddataenable', ['datass'], true], ['superspeeddatadisable', ['datass'], false],
  ['powerenable', ['power'], true], ['powerdisable', ['power'], false],
];

/** Per-channel operations that are one port register, under the usb name: switches, then numbers. */
const CHANNEL_SWITCHES: readonly (readonly [OpsWithValue<'usb', boolean>, string])[] = [
  ['cc1enable', 'cc1enabled'], ['cc2enable', 'cc2enabled'], ['sbuenable', 'sbuenable'], ['cableflip', 'cableflip'],
];
const CHANNEL_NUMBERS: readonly (readonly [OpsWithValue<'usb', number>, string])[] = [
  ['connectmode', 'connectmode'], ['altmode', 'altmode'],
];

const UPSTREAM_NONE = 255;
const UPSTREAM_AUTO = 2;
/** The simulated host is cabled to upstream port 0 (upstreamstate follows from the mode). */
const HOST_ON_UPSTREAM = 0;

/** hubmode: per port N, bit 2N = USB2 data, bit 2N+1 = Vbus (ports beyond 16 have no bits). */
function hubMode(ports: PortModel): number {
  let m = 0;
  for (let n = 0; n < Math.min(16, ports.count); n++) {
    if (ports.any(n, 'datahs')) m |= 1 << (2 * n);
    if (ports.on(n, 'powerenabled')) m |= 1 << (2 * n + 1);
  }
  return m >>> 0;
}

function setHubMode(ports: PortModel, m: number): void {
  for (let n = 0; n < Math.min(16, ports.count); n++) {
    ports.setLines(n, 'datahs', (m & (1 << (2 * n))) !== 0);
    ports.setLine(n, 'powerenabled', (m & (1 << (2 * n + 1))) !== 0);
  }
}

// eslint-disable-next-line max-lines-per-function -- HAL factory: one table of behaviours (usb)
export function createUsb(ctx: SimContext, ports: PortModel): HalOf<'usb'> {
  const regs = ctx.registers('usb', { upstreammode: UPSTREAM_AUTO, upstreamboostmode: 0, downstreamboostmode: 0 });
  const ch = (p: readonly number[]) => ports.check(p[0]);
  const channelOf = (v: number) => ports.check(asNumber(v, 'channel'));

  const get: Getters<UsbValues> = {
    portcurrent: (_i, p) => ports.vbusCurrent(ch(p)),
    portvoltage: (_i, p) => ports.vbusVoltage(ch(p)),
    portcurrentlimit: (_i, p) => ports.regs.num(ch(p), 'currentlimit'),
    portmode: (_i, p) => ports.portMode(ch(p)),
    portstate: (_i, p) => ports.portState(ch(p)),
    porterror: (_i, p) => ports.errorBits(ch(p)),
    downstreamdataspeed: (_i, p) => {
      const l = ports.link(ch(p));
      return l === 'super' ? 2 : l === 'high' ? 1 : l ? 3 : 0;
    },
    cc1current: (_i, p) => ports.ccCurrent(ch(p), 1),
    cc2current: (_i, p) => ports.ccCurrent(ch(p), 2),
    cc1voltage: (_i, p) => ports.ccVoltage(ch(p), 1),
    cc2voltage: (_i, p) => ports.ccVoltage(ch(p), 2),
    sbu1voltage: (_i, p) => ports.sbuVoltage(ch(p), 1),
    sbu2voltage: (_i, p) => ports.sbuVoltage(ch(p), 2),
    hubmode: () => hubMode(ports),
    hubenumerationdelay: () => ports.sys.num(0, 'enumerationdelay'),
    upstreamstate: () => {
      const mode = regs.num(0, 'upstreammode');
      if (mode === UPSTREAM_NONE) return 2;
      if (mode === UPSTREAM_AUTO) return HOST_ON_UPSTREAM;
      return mode === HOST_ON_UPSTREAM ? mode : 2;
    },
  };

  const set: Setters<UsbValues> = {
    portcurrentlimit: (_i, p, v) => ports.setCurrentLimit(ch(p), asNumber(v, 'portcurrentlimit')),
    portmode: (_i, p, v) => ports.setPortMode(ch(p), asNumber(v, 'portmode')),
    portclearerrorstatus: (_i, _p, v) => ports.clearErrors(channelOf(v)),
    hubmode: (_i, _p, v) => setHubMode(ports, asNumber(v, 'hubmode')),
    hubenumerationdelay: (_i, _p, v) => ports.sys.write(0, 'enumerationdelay', [], asNumber(v, 'hubenumerationdelay')),
    upstreammode: (_i, _p, v) => {
      regs.write(0, 'upstreammode', [], asNumber(v, 'upstreammode'));
    },
  };
  // The switch operations and portclearerrorstatus take the port as their value.
  const channel = indexOf(ports.count);
  const limits: { [K in UsbOp]?: OpLimits } = { portclearerrorstatus: channel, upstreammode: oneOf([0, 1, UPSTREAM_AUTO, UPSTREAM_NONE]) };
  for (const [op, groups, on] of SWITCHES) {
    limits[op] = channel;
    set[op] = (_i, _p, v) => {
      const c = channelOf(v);
      for (const g of groups) ports.setLines(c, g, on);
    };
  }
  for (const [op, reg] of CHANNEL_SWITCHES) {
    get[op] = (_i, p) => ports.on(ch(p), reg);
    set[op] = (_i, p, v) => ports.setLine(ch(p), reg, asBool(v, op));
  }
  for (const [op, reg] of CHANNEL_NUMBERS) {
    get[op] = (_i, p) => ports.regs.num(ch(p), reg);
    set[op] = (_i, p, v) => ports.regs.write(ch(p), reg, [], asNumber(v, op));
  }

  return makeEntity(ctx, 'usb', {
    registers: regs,
    get,
    set,
    limit: (_i, param) => (param === 'channel' ? ports.count : 0),
    limits,
  });
}
