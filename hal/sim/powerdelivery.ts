// powerdelivery: USB PD on a port with a simulated partner (profile.pdPartners). PDO tables per partner
// and role (7 rules each), negotiation computed from them: a sink partner requests the best enabled
// local source PDO it can use; facing a source, the local side requests (automatically, or the RDO set
// by PUT). Request commands act on the partner and report in requeststatus. The encoding of the data
// objects is pd-objects.ts, the negotiation and commands pd-partner.ts; this file wires them.

import { ApiError, aErrRange } from '../kit/errors';
import type { HalOf } from '../types';
import type { SimContext } from './context';
import { makeEntity } from './entity';
import { defaultPdo, isValidFirstPdo, LOCAL } from './pd-objects';
import { PdPort, ROLE_DUAL } from './pd-partner';
import type { RegisterFile } from './registers';
import { asBool, asNumber } from '../kit/value-guards';

// What tests build PDOs and RDOs with.
export { fixedPdo, fixedRdo } from './pd-objects';

function checkLocalPdo(role: number, rule: number, v: number): void {
  if (rule === 1 && !isValidFirstPdo(v)) {
    throw new ApiError(aErrRange, `powerdataobject ${role}/1 0x${v.toString(16)}: rule 1 must be the 5 V fixed supply`);
  }
}

function pdRegisters(ctx: SimContext): RegisterFile {
  return ctx.registers('powerdelivery', {
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
}

export function createPowerDelivery(ctx: SimContext): HalOf<'powerdelivery'> {
  const regs = pdRegisters(ctx);
  const port = new PdPort(ctx, regs);

  return makeEntity(ctx, 'powerdelivery', {
    registers: regs,
    get: {
      connectionstate: (i) => port.contract(i).state,
      numberofpowerdataobjects: (i, p) => port.pdoCount(i, p[0], p[1]),
      powerdataobject: (i, p) => port.pdo(i, p[0], p[1], p[2]),
      powerdataobjectlist: (i) => port.pdoList(i),
      powerdataobjectenabledlist: (i, p) => port.enabledMask(i, p[0]),
      requestdataobject: (i, p) => (p[0] === LOCAL ? port.contract(i).localRdo : port.contract(i).remoteRdo),
      linkstate: (i) => port.linkState(i),
      attachtimeelapsed: (i) => port.attachElapsed(i),
      powerrolecapabilities: () => ROLE_DUAL,
      datarolecapabilities: () => 3,
      // The partner's e-marked cable: voltage, current, speed, type, orientation (profile.ts PdPartner).
      cablevoltagemax: (i) => port.cable(i, 0),
      cablecurrentmax: (i) => port.cable(i, 1),
      cablespeedmax: (i) => port.cable(i, 2),
      cabletype: (i) => port.cable(i, 3),
      cableorientation: (i) => port.cable(i, 4),
      requeststatus: (i) => port.requestStatus(i),
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
        port.request(i, rdo);
      },
      requestcommand: (i, _p, v) => port.command(i, asNumber(v, 'requestcommand')),
    },
    run: {
      resetpowerdataobjecttodefault: (i, p) => {
        regs.forget(i, 'pdo', [p[0], p[1]]);
        regs.forget(i, 'powerdataobjectenabled', [p[0], p[1]]);
      },
    },
  });
}
