// powerdelivery: USB PD on a port with a simulated partner (profile.pdPartners). PDO tables per partner
// and role (7 rules each), negotiation computed from them: a sink partner requests the best enabled
// local source PDO it can use; facing a source, the local side requests (automatically, or the RDO set
// by PUT). Request commands act on the partner and report in requeststatus.

import { ApiError, aErrMode, aErrRange } from '../kit/errors';
import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import type { Pdo, PdPartner } from './profile';
import { asBool, asNumber } from '../kit/value-guards';

const LOCAL = 0;
const SOURCE = 1;
const SINK = 2;
const RULES = 7;
/** Roles the local partner may take (powerrole): 0 disabled, 1 source, 2 sink, 3 dual. */
const ROLE_DUAL = 3;
/** requeststatus low byte; the high byte repeats the command. */
export const REQUEST_ACCEPTED = 1;
export const REQUEST_REJECTED = 2;
export const REQUEST_NOT_SENT = 3;
const CMD_HARD_RESET = 0;
const CMD_POWER_ROLE_SWAP = 3;
const CMD_DATA_ROLE_SWAP = 5;
const CMD_VCONN_SWAP = 6;
const SPEC_REVISION_3 = 2; // linkstate bits 20..22: PD revision field, 2 = 3.0

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

function defaultPdo(role: number, rule: number): number {
  const p = LOCAL_DEFAULTS[role]?.[rule - 1];
  return p ? fixedPdo(p[0], p[1]) : 0;
}

interface Contract {
  /** connectionstate: 0 none, 1 local is source, 2 local is sink. */
  state: number;
  localRdo: number;
  remoteRdo: number;
}

export function createPowerDelivery(ctx: SimContext): HalOf<'powerdelivery'> {
  const count = ctx.count('powerdelivery');
  const regs = ctx.registers('powerdelivery', {
    pdo: (_i, p) => defaultPdo(p[0], p[1]),
    powerdataobjectenabled: (_i, p) => defaultPdo(p[0], p[1]) !== 0,
    powerrole: ROLE_DUAL,
    powerrolepreferred: 4,
    override: 0,
    flagmode: 2,
    peakcurrentconfiguration: 0,
    fastroleswapcurrent: 0,
    localrdo: 0, // RDO set by PUT; 0 = request automatically
    dataswapped: false,
    vconnswapped: false,
  }, ['localrdo', 'dataswapped', 'vconnswapped']);
  const partner = (i: number): PdPartner | null => ctx.profile.pdPartners[i] ?? null;
  let attachTime: number[] = [];
  let status: number[] = [];
  const powerUp = () => {
    attachTime = [];
    status = [];
    for (let i = 0; i < count; i++) {
      attachTime.push(ctx.wall());
      status.push(0);
    }
  };
  powerUp();
  ctx.onReboot(powerUp);

  const localPdo = (i: number, role: number, rule: number) => regs.num(i, 'pdo', [role, rule]);
  const localEnabled = (i: number, role: number, rule: number) => regs.bool(i, 'powerdataobjectenabled', [role, rule]) && localPdo(i, role, rule) !== 0;
  const partnerPdo = (i: number, role: number, rule: number): number => {
    const pt = partner(i);
    if (!pt || (pt.role === 'source' ? SOURCE : SINK) !== role) return 0;
    const p = pt.pdos[rule - 1];
    return p ? fixedPdo(p[0], p[1]) : 0;
  };

  /** Best offer: the highest voltage `offers` holds that `wants` also lists; returns [rule, mA]. */
  const pick = (offer: (rule: number) => number, want: (rule: number) => number): [number, number] | null => {
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
  };

  const contract = (i: number): Contract => {
    const pt = partner(i);
    const role = regs.num(i, 'powerrole');
    const none = { state: 0, localRdo: 0, remoteRdo: 0 };
    if (!pt || role === 0) return none;
    if (pt.role === 'sink') {
      if (role !== SOURCE && role !== ROLE_DUAL) return none; // two sinks: nothing happens
      const best = pick((r) => (localEnabled(i, SOURCE, r) ? localPdo(i, SOURCE, r) : 0), (r) => partnerPdo(i, SINK, r));
      return { state: SOURCE, localRdo: 0, remoteRdo: best ? fixedRdo(best[0], best[1], best[1]) : 0 };
    }
    if (role !== SINK && role !== ROLE_DUAL) return none;
    const set = regs.num(i, 'localrdo');
    if (set) return { state: SINK, localRdo: set, remoteRdo: 0 };
    const best = pick((r) => partnerPdo(i, SOURCE, r), (r) => (localEnabled(i, SINK, r) ? localPdo(i, SINK, r) : 0));
    return { state: SINK, localRdo: best ? fixedRdo(best[0], best[1], best[1]) : 0, remoteRdo: 0 };
  };

  const pdo = (i: number, partnerIdx: number, role: number, rule: number) => {
    if (partnerIdx === LOCAL) return localPdo(i, role, rule);
    return contract(i).state ? partnerPdo(i, role, rule) : 0; // the partner's table is known once attached
  };

  const checkLocalPdo = (role: number, rule: number, v: number) => {
    // USB PD: the first PDO of either table is the vSafe5V fixed supply.
    if (rule === 1 && (v >>> 30 !== 0 || pdoVoltage(v) !== 5000)) {
      throw new ApiError(aErrRange, `powerdataobject ${role}/1 0x${v.toString(16)}: rule 1 must be the 5 V fixed supply`);
    }
  };

  return makeEntity(ctx, 'powerdelivery', {
    registers: regs,
    get: {
      connectionstate: (i) => contract(i).state,
      numberofpowerdataobjects: (i, p) => {
        let n = 0;
        for (let r = 1; r <= RULES; r++) if (pdo(i, p[0], p[1], r)) n++;
        return n;
      },
      powerdataobject: (i, p) => pdo(i, p[0], p[1], p[2]),
      powerdataobjectlist: (i) => {
        const out: number[] = [];
        for (const pt of [LOCAL, 1]) for (const role of [SOURCE, SINK]) for (let r = 1; r <= RULES; r++) out.push(pdo(i, pt, role, r));
        return out;
      },
      powerdataobjectenabledlist: (i, p) => {
        let m = 0;
        for (let r = 1; r <= RULES; r++) if (regs.bool(i, 'powerdataobjectenabled', [p[0], r])) m |= 1 << r;
        return m;
      },
      requestdataobject: (i, p) => (p[0] === LOCAL ? contract(i).localRdo : contract(i).remoteRdo),
      linkstate: (i) => {
        const c = contract(i);
        if (!c.state) return 0;
        const dataRole = (c.state === SOURCE ? 1 : 2) ^ (regs.bool(i, 'dataswapped') ? 3 : 0);
        const vconn = (c.state === SOURCE) !== regs.bool(i, 'vconnswapped') ? 1 : 0;
        const type = c.localRdo || c.remoteRdo ? 1 : 2; // 1 PD contract, 2 Type-C current only
        return (type | (c.state << 4) | (c.state << 8) | (dataRole << 12) | (vconn << 16) | (SPEC_REVISION_3 << 20)) >>> 0;
      },
      attachtimeelapsed: (i) => {
        if (!contract(i).state) return [0, 0];
        const ms = Math.max(0, ctx.wall() - attachTime[i]);
        return [Math.floor(ms / 1000), Math.round((ms % 1000) * 1000)];
      },
      powerrolecapabilities: () => ROLE_DUAL,
      datarolecapabilities: () => 3,
      cablevoltagemax: (i) => (contract(i).state ? partner(i)?.cable[0] ?? 0 : 0),
      cablecurrentmax: (i) => (contract(i).state ? partner(i)?.cable[1] ?? 0 : 0),
      cablespeedmax: (i) => (contract(i).state ? partner(i)?.cable[2] ?? 0 : 0),
      cabletype: (i) => (contract(i).state ? partner(i)?.cable[3] ?? 0 : 0),
      cableorientation: (i) => (contract(i).state ? partner(i)?.cable[4] ?? 0 : 0),
      requeststatus: (i) => status[i],
    },
    set: {
      powerdataobject: (i, p, v) => {
        const n = asNumber(v, 'powerdataobject');
        checkLocalPdo(p[0], p[1], n);
        regs.write(i, 'pdo', [p[0], p[1]], n);
      },
      powerdataobjectenabled: (i, p, v) => regs.write(i, 'powerdataobjectenabled', [p[0], p[1]], asBool(v, 'enabled')),
      requestdataobject: (i, _p, v) => {
        const rdo = asNumber(v, 'requestdataobject');
        // 0 withdraws a request set earlier: the local sink goes back to choosing automatically.
        if (rdo === 0) return regs.forget(i, 'localrdo');
        if (contract(i).state !== SINK) throw new ApiError(aErrMode, `powerdelivery ${i}: only a sink requests power (connectionstate ${contract(i).state})`);
        const pos = (rdo >>> 28) & 7;
        const offer = pos ? partnerPdo(i, SOURCE, pos) : 0;
        // What the partner offers is the module's present state (another charger offers other PDOs): 409.
        if (!offer) throw new ApiError(aErrMode, `requestdataobject 0x${rdo.toString(16)}: object position ${pos} names no source PDO of the attached partner; request one of its powerdataobject/1/1/{1..7}`);
        const op = ((rdo >>> 10) & 0x3ff) * 10;
        const max = (rdo & 0x3ff) * 10;
        if (op > pdoCurrent(offer) || max > pdoCurrent(offer)) {
          throw new ApiError(aErrMode, `requestdataobject: ${op}/${max} mA exceeds the ${pdoCurrent(offer)} mA the partner offers in PDO ${pos}; request less`);
        }
        regs.write(i, 'localrdo', [], rdo);
      },
      requestcommand: (i, _p, v) => {
        const cmd = asNumber(v, 'requestcommand');
        const pt = partner(i);
        let result = REQUEST_ACCEPTED;
        if (!contract(i).state || !pt) result = REQUEST_NOT_SENT;
        else if (cmd === CMD_HARD_RESET) {
          attachTime[i] = ctx.wall();
          regs.forget(i, 'localrdo');
          regs.forget(i, 'dataswapped');
          regs.forget(i, 'vconnswapped');
        } else if (cmd === CMD_POWER_ROLE_SWAP) result = REQUEST_REJECTED; // the simulated partners are single-role
        else if (cmd === CMD_DATA_ROLE_SWAP) regs.write(i, 'dataswapped', [], !regs.bool(i, 'dataswapped'));
        else if (cmd === CMD_VCONN_SWAP) regs.write(i, 'vconnswapped', [], !regs.bool(i, 'vconnswapped'));
        status[i] = ((cmd << 8) | result) >>> 0;
      },
    },
    run: {
      resetpowerdataobjecttodefault: (i, p) => {
        regs.forget(i, 'pdo', [p[0], p[1]]);
        regs.forget(i, 'powerdataobjectenabled', [p[0], p[1]]);
      },
    },
  });
}
