// uart: ECMA-419 Serial ports from the profile. The module offers the link settings a plain UART has
// (8N1, no flow control: ECMA-419 Serial takes a baud rate and pins only); protocol 0 (undefined: bytes pass through) is the only protocol, and
// nothing reads the port yet: enable opens it so another part of the firmware can use it.

import Serial from 'embedded:io/serial';
import { ApiError, aErrIO, aErrMode, aErrRange } from '../../src/api/errors';
import type { EntityHal, EntityOps } from '../types';
import type { UartPins } from './board';
import { makeEntity } from './entity';
import type { Settings } from './settings';
import { asBool, asNumber } from './values';

type Op = EntityOps['uart'];
const BAUD_MIN = 300;
const BAUD_MAX = 5000000;

export interface UartModel {
  readonly entity: EntityHal<Op>;
  apply(): void;
}

export function createUart(s: Settings, ports: readonly UartPins[]): UartModel {
  const io: (Serial | null)[] = ports.map(() => null);
  const k = (i: number, what: string) => 'uart' + i + '.' + what;
  ports.forEach((_p, i) => {
    s.define(k(i, 'en'), false);
    s.define(k(i, 'baud'), 115200);
  });
  const apply = (i: number): void => {
    const old = io[i];
    io[i] = null;
    if (old) old.close();
    if (!s.bool(k(i, 'en'))) return;
    const p = ports[i];
    try {
      io[i] = new Serial({ port: p.port, transmit: p.transmit, receive: p.receive, baud: s.num(k(i, 'baud')) });
    } catch (e) {
      throw new ApiError(aErrIO, `uart ${i} (port ${p.port}): ${(e as Error).message}`);
    }
  };
  const only = (i: number, what: string, v: unknown, allowed: number, meaning: string): void => {
    const n = asNumber(v as number, what);
    if (n !== allowed) throw new ApiError(aErrMode, `uart ${i}: ${what} ${n} is not available; this board has ${allowed} (${meaning})`);
  };
  const entity = makeEntity('uart', {
    count: ports.length,
    get: {
      enable: (i) => s.bool(k(i, 'en')),
      baudrate: (i) => s.num(k(i, 'baud')),
      protocol: () => 0,
      linkchannel: (i) => i,
      stopbits: () => 0,
      parity: () => 0,
      databits: () => 8,
      flowcontrol: () => 0,
      capableprotocols: () => 1,
      availableprotocols: () => 1,
    },
    set: {
      enable: (i, _p, v) => { s.set(k(i, 'en'), asBool(v, 'enable')); apply(i); },
      baudrate: (i, _p, v) => {
        const baud = asNumber(v, 'baudrate');
        if (baud < BAUD_MIN || baud > BAUD_MAX) {
          throw new ApiError(aErrRange, `baudrate ${baud} out of range ${BAUD_MIN}..${BAUD_MAX} (automatic, 0, is not available)`);
        }
        s.set(k(i, 'baud'), baud);
        if (s.bool(k(i, 'en'))) apply(i);
      },
      protocol: (i, _p, v) => only(i, 'protocol', v, 0, 'undefined: bytes pass through'),
      linkchannel: (i, _p, v) => only(i, 'linkchannel', v, i, 'not linked'),
      stopbits: (i, _p, v) => only(i, 'stopbits', v, 0, '1 stop bit'),
      parity: (i, _p, v) => only(i, 'parity', v, 0, 'none'),
      databits: (i, _p, v) => only(i, 'databits', v, 8, '8 data bits'),
      flowcontrol: (i, _p, v) => only(i, 'flowcontrol', v, 0, 'none'),
    },
  });
  return { entity, apply: () => ports.forEach((_p, i) => apply(i)) };
}
