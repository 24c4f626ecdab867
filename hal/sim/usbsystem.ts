// usbsystem: every port of the port model at once (lists indexed by port), plus hub-wide policy
// registers. Lists are validated against the module's port count.

import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { NO_PORT } from './port-words';
import type { PortModel } from './ports';
import { indexOf, range } from './profile-limits';
import { indexOrNone } from '../kit/value-limits';
import { asList, asNumber } from '../kit/value-guards';
import { ApiError, aErrDuplicate, aErrRange } from '../kit/errors';

/**
 * A priority list of ports, none twice. Each entry is already a port (the published limit, enforced
 * by makeEntity), so a list longer than the ports necessarily repeats one.
 */
function checkPortList(what: string, list: readonly number[]): number[] {
  const seen: boolean[] = [];
  for (const p of list) {
    if (seen[p]) throw new ApiError(aErrDuplicate, `${what}: port ${p} listed twice`);
    seen[p] = true;
  }
  return list.slice();
}

export function createUsbSystem(ctx: SimContext, ports: PortModel): HalOf<'usbsystem'> {
  const each = <T>(f: (i: number) => T): T[] => {
    const out: T[] = [];
    for (let i = 0; i < ports.count; i++) out.push(f(i));
    return out;
  };
  const plain = (op: string) => (i: number, _p: readonly number[], v: number) => ports.sys.write(i, op, [], asNumber(v, op));
  const port = indexOrNone(ports.count, NO_PORT);
  return makeEntity(ctx, 'usbsystem', {
    registers: ports.sys,
    limits: {
      upstreamport: port, upstreamhsport: port, upstreamssport: port,
      // Priority lists: each entry a port (none twice: 409 aErrDuplicate).
      powerbehaviorconfig: indexOf(ports.count), databehaviorconfig: indexOf(ports.count),
      powerbehavior: range(0, 1), databehavior: range(0, 3), selectormode: range(0, 2),
      // override: bit 0 auto Vbus toggle, bit 1 Vbus detect.
      override: range(0, 3),
    },
    get: {
      enabledlist: () => each((i) => ports.portEnabled(i)).reduce((m, on, i) => (on ? m | (1 << i) : m), 0) >>> 0,
      // Two bits per port: the port's data role (0 disabled, 1 upstream, 2 downstream, 3 control).
      datarolelist: () => each((i) => ports.dataRole(i)).reduce((m, r, i) => m | (r << (2 * i)), 0) >>> 0,
      modelist: () => each((i) => ports.portMode(i)),
      statelist: () => each((i) => ports.portState(i)),
    },
    set: {
      // Bits beyond the last port are ignored, so 0xFFFFFFFF means "all ports on".
      enabledlist: (_i, _p, v) => {
        const m = asNumber(v, 'enabledlist');
        for (let i = 0; i < ports.count; i++) ports.setLines(i, 'port', i < 32 && (m & (1 << i)) !== 0);
      },
      // Entry N is port N's portmode word; a shorter list leaves the remaining ports as they are.
      modelist: (_i, _p, v) => {
        const list = asList(v, 'modelist');
        if (list.length > ports.count) throw new ApiError(aErrRange, `modelist: ${list.length} entries, the module has ${ports.count} ports`);
        list.forEach((word, i) => ports.setPortMode(i, word));
      },
      upstreamport: plain('upstreamport'),
      upstreamhsport: plain('upstreamhsport'),
      upstreamssport: plain('upstreamssport'),
      powerbehaviorconfig: (i, _p, v) => ports.sys.write(i, 'powerbehaviorconfig', [], checkPortList('powerbehaviorconfig', asList(v, 'list'))),
      databehaviorconfig: (i, _p, v) => ports.sys.write(i, 'databehaviorconfig', [], checkPortList('databehaviorconfig', asList(v, 'list'))),
      powerbehavior: plain('powerbehavior'),
      databehavior: plain('databehavior'),
      selectormode: plain('selectormode'),
      override: plain('override'),
    },
  });
}
