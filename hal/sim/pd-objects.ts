// USB PD's data objects as the simulator encodes them: fixed-supply PDOs and fixed RDOs, the default
// local PDO tables, and the choice of the best offer two PDO tables share.

import type { Pdo } from './profile';

/** Tables and roles (the {partner}/{role} path parameters of powerdataobject). */
export const LOCAL = 0;
export const SOURCE = 1;
export const SINK = 2;
/** Rules per PDO table. */
export const RULES = 7;

/** Fixed-supply PDO: voltage in 50 mV units (bits 19..10), max current in 10 mA units (9..0). */
export function fixedPdo(mV: number, mA: number): number {
  return ((Math.round(mV / 50) << 10) | Math.round(mA / 10)) >>> 0;
}

export function pdoVoltage(pdo: number): number {
  return pdo >>> 30 === 0 ? ((pdo >>> 10) & 0x3ff) * 50 : 0;
}

export function pdoCurrent(pdo: number): number {
  return pdo >>> 30 === 0 ? (pdo & 0x3ff) * 10 : 0;
}

/** Fixed RDO: object position (30..28), operating current (19..10) and max current (9..0), 10 mA units. */
export function fixedRdo(position: number, opmA: number, maxmA: number): number {
  return (((position & 7) << 28) | (Math.round(opmA / 10) << 10) | Math.round(maxmA / 10)) >>> 0;
}

const LOCAL_DEFAULTS: { readonly [role: number]: readonly Pdo[] } = {
  [SOURCE]: [[5000, 3000], [9000, 3000], [15000, 3000], [20000, 3000]],
  [SINK]: [[5000, 3000], [9000, 3000]],
};

export function defaultPdo(role: number, rule: number): number {
  const p = LOCAL_DEFAULTS[role]?.[rule - 1];
  return p ? fixedPdo(p[0], p[1]) : 0;
}

/** Best offer: the highest voltage `offer` holds that `want` also lists; returns [rule, mA]. */
export function pick(offer: (rule: number) => number, want: (rule: number) => number): [number, number] | null {
  let best: [number, number] | null = null;
  let bestV = 0;
  for (let r = 1; r <= RULES; r++) {
    const o = offer(r);
    const v = pdoVoltage(o);
    if (!o || v <= bestV) continue;
    for (let w = 1; w <= RULES; w++) {
      const x = want(w);
      if (x && pdoVoltage(x) === v) {
        best = [r, Math.min(pdoCurrent(o), pdoCurrent(x))];
        bestV = v;
      }
    }
  }
  return best;
}

/** USB PD: the first PDO of either table is the vSafe5V fixed supply. */
export function isValidFirstPdo(pdo: number): boolean {
  return pdo >>> 30 === 0 && pdoVoltage(pdo) === 5000;
}
