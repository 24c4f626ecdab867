// usbsystem: every port of the port model at once (lists indexed by port), plus hub-wide policy
// registers. Lists are validated against the module's port count.

import type { EntityHal, EntityOps } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import type { PortModel } from './ports';
import { asList, asNumber, checkRange } from './values';
import { ApiError, aErrRange } from '../../src/api/errors';

export function createUsbSystem(ctx: SimContext, ports: PortModel): EntityHal<EntityOps['usbsystem']> {
  const each = <T>(f: (i: number) => T): T[] => {
    const out: T[] = [];
    for (let i = 0; i < ports.count; i++) out.push(f(i));
    return out;
  };
  const bounded = (op: string, hi: number) => (i: number, _p: readonly number[], v: unknown) =>
    ports.sys.write(i, op, [], checkRange(op, asNumber(v as number, op), 0, hi));
  return makeEntity(ctx, 'usbsystem', {
    registers: ports.sys,
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
      upstreamport: (i, _p, v) => ports.sys.write(i, 'upstreamport', [], ports.checkPortOrNone('upstreamport', v)),
      upstreamhsport: (i, _p, v) => ports.sys.write(i, 'upstreamhsport', [], ports.checkPortOrNone('upstreamhsport', v)),
      upstreamssport: (i, _p, v) => ports.sys.write(i, 'upstreamssport', [], ports.checkPortOrNone('upstreamssport', v)),
      powerbehaviorconfig: (i, _p, v) => ports.sys.write(i, 'powerbehaviorconfig', [], ports.checkPortList('powerbehaviorconfig', asList(v, 'list'))),
      databehaviorconfig: (i, _p, v) => ports.sys.write(i, 'databehaviorconfig', [], ports.checkPortList('databehaviorconfig', asList(v, 'list'))),
      powerbehavior: bounded('powerbehavior', 1),
      databehavior: bounded('databehavior', 3),
      selectormode: bounded('selectormode', 2),
      override: (i, _p, v) => {
        const m = asNumber(v, 'override');
        if (m & ~3) throw new ApiError(aErrRange, `override 0x${m.toString(16)}: only bits 0 (auto Vbus toggle) and 1 (Vbus detect) exist`);
        ports.sys.write(i, 'override', [], m);
      },
    },
  });
}
