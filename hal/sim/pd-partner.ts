// A USB PD port facing its simulated partner (profile.pdPartners): the contract negotiated from the
// two PDO tables (a sink partner requests the best enabled local source PDO it can use; facing a
// source, the local side requests, automatically or the RDO set by PUT), the link it makes, and the
// request commands, which act on the partner and report in requeststatus. powerdelivery.ts wires it.

import { ApiError, aErrMode } from '../kit/errors';
import type { SimContext } from './context';
import { fixedPdo, fixedRdo, LOCAL, pdoCurrent, pick, RULES, SINK, SOURCE } from './pd-objects';
import type { PdPartner } from './profile';
import type { RegisterFile } from './registers';

/** Roles the local partner may take (powerrole): 0 disabled, 1 source, 2 sink, 3 dual. */
export const ROLE_DUAL = 3;
/** requeststatus low byte; the high byte repeats the command. */
export const REQUEST_ACCEPTED = 1;
export const REQUEST_REJECTED = 2;
export const REQUEST_NOT_SENT = 3;
const CMD_HARD_RESET = 0;
const CMD_POWER_ROLE_SWAP = 3;
const CMD_DATA_ROLE_SWAP = 5;
const CMD_VCONN_SWAP = 6;
const SPEC_REVISION_3 = 2; // linkstate bits 20..22: PD revision field, 2 = 3.0

interface Contract {
  /** connectionstate: 0 none, 1 local is source, 2 local is sink. */
  state: number;
  localRdo: number;
  remoteRdo: number;
}

export class PdPort {
  private attachTime: number[] = [];
  private status: number[] = [];

  constructor(private readonly ctx: SimContext, private readonly regs: RegisterFile) {
    this.powerUp();
    ctx.onReboot(() => this.powerUp());
  }

  private powerUp(): void {
    this.attachTime = [];
    this.status = [];
    for (let i = 0; i < this.regs.count; i++) {
      this.attachTime.push(this.ctx.wall());
      this.status.push(0);
    }
  }

  partner(i: number): PdPartner | null {
    return this.ctx.profile.pdPartners[i] ?? null;
  }

  private localPdo(i: number, role: number, rule: number): number {
    return this.regs.num(i, 'pdo', [role, rule]);
  }

  private localEnabled(i: number, role: number, rule: number): boolean {
    return this.regs.bool(i, 'powerdataobjectenabled', [role, rule]) && this.localPdo(i, role, rule) !== 0;
  }

  partnerPdo(i: number, role: number, rule: number): number {
    const pt = this.partner(i);
    if (!pt || (pt.role === 'source' ? SOURCE : SINK) !== role) return 0;
    const p = pt.pdos[rule - 1];
    return p ? fixedPdo(p[0], p[1]) : 0;
  }

  contract(i: number): Contract {
    const pt = this.partner(i);
    const role = this.regs.num(i, 'powerrole');
    const none = { state: 0, localRdo: 0, remoteRdo: 0 };
    if (!pt || role === 0) return none;
    const local = (r: number, as: number) => (this.localEnabled(i, as, r) ? this.localPdo(i, as, r) : 0);
    if (pt.role === 'sink') {
      if (role !== SOURCE && role !== ROLE_DUAL) return none; // two sinks: nothing happens
      const best = pick((r) => local(r, SOURCE), (r) => this.partnerPdo(i, SINK, r));
      return { state: SOURCE, localRdo: 0, remoteRdo: best ? fixedRdo(best[0], best[1], best[1]) : 0 };
    }
    if (role !== SINK && role !== ROLE_DUAL) return none;
    const set = this.regs.num(i, 'localrdo');
    if (set) return { state: SINK, localRdo: set, remoteRdo: 0 };
    const best = pick((r) => this.partnerPdo(i, SOURCE, r), (r) => local(r, SINK));
    return { state: SINK, localRdo: best ? fixedRdo(best[0], best[1], best[1]) : 0, remoteRdo: 0 };
  }

  /** A PDO of the local table, or of the partner's (known once attached). */
  pdo(i: number, table: number, role: number, rule: number): number {
    if (table === LOCAL) return this.localPdo(i, role, rule);
    return this.contract(i).state ? this.partnerPdo(i, role, rule) : 0;
  }

  pdoCount(i: number, table: number, role: number): number {
    let n = 0;
    for (let r = 1; r <= RULES; r++) if (this.pdo(i, table, role, r)) n++;
    return n;
  }

  pdoList(i: number): number[] {
    const out: number[] = [];
    for (const pt of [LOCAL, 1]) for (const role of [SOURCE, SINK]) for (let r = 1; r <= RULES; r++) out.push(this.pdo(i, pt, role, r));
    return out;
  }

  /** Bit r set when rule r of the local `role` table is enabled. */
  enabledMask(i: number, role: number): number {
    let m = 0;
    for (let r = 1; r <= RULES; r++) if (this.regs.bool(i, 'powerdataobjectenabled', [role, r])) m |= 1 << r;
    return m;
  }

  linkState(i: number): number {
    const c = this.contract(i);
    if (!c.state) return 0;
    const dataRole = (c.state === SOURCE ? 1 : 2) ^ (this.regs.bool(i, 'dataswapped') ? 3 : 0);
    const vconn = (c.state === SOURCE) !== this.regs.bool(i, 'vconnswapped') ? 1 : 0;
    const type = c.localRdo || c.remoteRdo ? 1 : 2; // 1 PD contract, 2 Type-C current only
    return (type | (c.state << 4) | (c.state << 8) | (dataRole << 12) | (vconn << 16) | (SPEC_REVISION_3 << 20)) >>> 0;
  }

  /** Seconds and microseconds since the partner attached (or the last hard reset). */
  attachElapsed(i: number): number[] {
    if (!this.contract(i).state) return [0, 0];
    const ms = Math.max(0, this.ctx.wall() - this.attachTime[i]);
    return [Math.floor(ms / 1000), Math.round((ms % 1000) * 1000)];
  }

  /** The e-marked cable's answer k (voltage, current, speed, type, orientation), once attached. */
  cable(i: number, k: number): number {
    return this.contract(i).state ? this.partner(i)?.cable[k] ?? 0 : 0;
  }

  requestStatus(i: number): number {
    return this.status[i];
  }

  /** The local sink asks for rdo: only what the attached source offers (its PDOs are module state: 409). */
  request(i: number, rdo: number): void {
    const state = this.contract(i).state;
    if (state !== SINK) throw new ApiError(aErrMode, `powerdelivery ${i}: only a sink requests power (connectionstate ${state})`);
    const pos = (rdo >>> 28) & 7;
    const offer = pos ? this.partnerPdo(i, SOURCE, pos) : 0;
    if (!offer) throw new ApiError(aErrMode, `requestdataobject 0x${rdo.toString(16)}: object position ${pos} names no source PDO of the attached partner; request one of its powerdataobject/1/1/{1..7}`);
    const op = ((rdo >>> 10) & 0x3ff) * 10;
    const max = (rdo & 0x3ff) * 10;
    if (op > pdoCurrent(offer) || max > pdoCurrent(offer)) {
      throw new ApiError(aErrMode, `requestdataobject: ${op}/${max} mA exceeds the ${pdoCurrent(offer)} mA the partner offers in PDO ${pos}; request less`);
    }
    this.regs.write(i, 'localrdo', [], rdo);
  }

  command(i: number, cmd: number): void {
    const regs = this.regs;
    let result = REQUEST_ACCEPTED;
    if (!this.contract(i).state || !this.partner(i)) result = REQUEST_NOT_SENT;
    else if (cmd === CMD_HARD_RESET) {
      this.attachTime[i] = this.ctx.wall();
      regs.forget(i, 'localrdo');
      regs.forget(i, 'dataswapped');
      regs.forget(i, 'vconnswapped');
    } else if (cmd === CMD_POWER_ROLE_SWAP) result = REQUEST_REJECTED; // the simulated partners are single-role
    else if (cmd === CMD_DATA_ROLE_SWAP) regs.write(i, 'dataswapped', [], !regs.bool(i, 'dataswapped'));
    else if (cmd === CMD_VCONN_SWAP) regs.write(i, 'vconnswapped', [], !regs.bool(i, 'vconnswapped'));
    this.status[i] = ((cmd << 8) | result) >>> 0;
  }
}
Object.freeze(PdPort.prototype);
