// hdbaset: read-only figures of an HDBaseT link that is up, with slowly wandering line quality,
// plus the link role setting (auto resolves to leader).

import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { noise, slot } from './values';
import { packVersion } from '../kit/version';

const ROLE_AUTO = 0;
const ROLE_LEADER = 1;
const ENCODING_PAM16 = 1;

export function createHdbaset(ctx: SimContext): HalOf<'hdbaset'> {
  const regs = ctx.registers('hdbaset', { linkrole: ROLE_AUTO });
  const wander = (i: number, key: number) => noise(ctx.serial, 1200 + 8 * i + key, slot(ctx.wall()));
  const s = ctx.serial >>> 0;
  return makeEntity(ctx, 'hdbaset', {
    registers: regs,
    get: {
      // 6 bytes: a fixed vendor prefix and the module serial, big-endian.
      serialnumber: () => new Uint8Array([0x48, 0x42, (s >>> 24) & 0xff, (s >>> 16) & 0xff, (s >>> 8) & 0xff, s & 0xff]),
      firmwareversion: () => packVersion(1, 4, 12),
      // bit 0 present, bit 1 link up, bits 2..3 the role in force.
      state: (i) => {
        const role = regs.num(i, 'linkrole');
        return 0b11 | ((role === ROLE_AUTO ? ROLE_LEADER : role) << 2);
      },
      cablelength: (i) => 35_000_000 + Math.round(10_000 * wander(i, 0)), // 35 m
      msea: (i) => Math.round(-28_500_000 + 400_000 * wander(i, 1)),
      mseb: (i) => Math.round(-27_900_000 + 400_000 * wander(i, 2)),
      retransmissionrate: (i) => 250_000 + Math.round(20_000 * wander(i, 3)),
      linkutilization: (i) => 43_000 + Math.round(5_000 * wander(i, 4)), // 43 %
      encodingstate: () => ENCODING_PAM16,
      // Device trees: one entry of (port, vendor id, product id) per device behind the extender.
      usb2devicetree: () => new Uint8Array([0x01, 0x04, 0x6d, 0xc5, 0x2b, 0x02, 0x04, 0x6d, 0xc0, 0x77]),
      usb3devicetree: () => new Uint8Array([0x01, 0x0b, 0xda, 0x81, 0x53]),
    },
  });
}
