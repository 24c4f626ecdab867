// uart: serial settings. A protocol must be one the hardware can run (capableprotocols); the BrainStem
// protocol has one engine, so only one enabled uart runs it at a time (availableprotocols).

import { ApiError, aErrMode } from '../kit/errors';
import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { bitsOf, indexOf, range } from './profile-limits';
import { asBool, asNumber } from '../kit/value-guards';

const PROTOCOL_BRAINSTEM = 2;
const MAX_BAUD = 4_000_000;

export function createUart(ctx: SimContext): HalOf<'uart'> {
  const n = ctx.count('uart');
  const capable = ctx.profile.uartProtocols >>> 0;
  const regs = ctx.registers('uart', {
    enable: false, baudrate: 115_200, protocol: 0, linkchannel: (i) => i, stopbits: 0, parity: 0, databits: 8, flowcontrol: 0,
  });
  /** The other enabled uart running the BrainStem protocol, or -1. */
  const engineOn = (i: number) => {
    for (let k = 0; k < n; k++) {
      if (k !== i && regs.bool(k, 'enable') && regs.num(k, 'protocol') === PROTOCOL_BRAINSTEM) return k;
    }
    return -1;
  };
  const engineTaken = (i: number) => engineOn(i) >= 0;
  const available = (i: number) => (engineTaken(i) ? capable & ~(1 << PROTOCOL_BRAINSTEM) : capable) >>> 0;
  const checkAvailable = (i: number, protocol: number, enable: boolean) => {
    if (enable && protocol === PROTOCOL_BRAINSTEM && engineTaken(i)) {
      // Which uart runs it is module state: 409, saying where to release it.
      throw new ApiError(aErrMode, `uart ${i}: the BrainStem protocol already runs on uart ${engineOn(i)}; disable it there first`);
    }
  };
  return makeEntity(ctx, 'uart', {
    registers: regs,
    // baudrate 0 = automatic; protocol: one the hardware can run (capableprotocols).
    limits: { baudrate: range(0, MAX_BAUD), linkchannel: indexOf(n), protocol: bitsOf(capable) },
    get: {
      capableprotocols: () => capable,
      availableprotocols: (i) => available(i),
    },
    set: {
      protocol: (i, _p, v) => {
        const pr = asNumber(v, 'protocol');
        checkAvailable(i, pr, regs.bool(i, 'enable'));
        regs.write(i, 'protocol', [], pr);
      },
      enable: (i, _p, v) => {
        const on = asBool(v, 'enable');
        checkAvailable(i, regs.num(i, 'protocol'), on);
        regs.write(i, 'enable', [], on);
      },
      baudrate: (i, _p, v) => regs.write(i, 'baudrate', [], asNumber(v, 'baudrate')),
      linkchannel: (i, _p, v) => regs.write(i, 'linkchannel', [], asNumber(v, 'linkchannel')),
    },
  });
}
