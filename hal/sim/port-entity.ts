// port: one USB port of the shared port model (ports.ts): enables, Vbus/Vconn/CC measurements,
// accumulated energy, data role and the portmode/portstate words.

import type { HalOf, OpsWithValue, ValuesOf } from '../types';
import type { SimContext } from './context';
import { makeEntity, type Getters, type Setters } from './entity';
import type { LineGroup } from './port-words';
import type { PortModel } from './ports';
import { range } from './profile-limits';
import { asBool, asNumber } from '../kit/value-guards';

type PortValues = ValuesOf<'port'>;
const MAX_VBUS_SETPOINT = 20_000_000; // uV
const SPEED_BITS = { low: 1, full: 2, high: 4, super: 8 } as const; // dataspeed: bit per link speed

// eslint-disable-next-line max-lines-per-function -- HAL factory: one table of behaviours (port)
export function createPort(ctx: SimContext, ports: PortModel): HalOf<'port'> {
  const get: Getters<PortValues> = {
    vbusvoltage: (i) => ports.vbusVoltage(i),
    vbuscurrent: (i) => ports.vbusCurrent(i),
    vconnvoltage: (i) => ports.vconnVoltage(i),
    vconncurrent: (i) => ports.vconnCurrent(i),
    portenabled: (i) => ports.portEnabled(i),
    datarole: (i) => ports.dataRole(i),
    portstate: (i) => ports.portState(i),
    portmode: (i) => ports.portMode(i),
    dataspeed: (i) => {
      const l = ports.link(i);
      return l ? SPEED_BITS[l] : 0;
    },
    errors: (i) => {
      const e = ports.errorBits(i);
      ports.clearErrors(i); // reading clears (operations.tsv)
      return e;
    },
    allocatedpower: (i) => ports.vbusPower(i),
    availablepower: (i) => ports.availablePower(i),
    vbusaccumulatedpower: (i) => ports.energyOf(i, 'vbus'),
    vconnaccumulatedpower: (i) => ports.energyOf(i, 'vconn'),
    cc1accumulatedpower: (i) => ports.energyOf(i, 'cc1'),
    cc2accumulatedpower: (i) => ports.energyOf(i, 'cc2'),
    cc1state: (i) => ports.ccState(i, 1),
    cc2state: (i) => ports.ccState(i, 2),
    cc1voltage: (i) => ports.ccVoltage(i, 1),
    cc2voltage: (i) => ports.ccVoltage(i, 2),
    cc1current: (i) => ports.ccCurrent(i, 1),
    cc2current: (i) => ports.ccCurrent(i, 2),
    sbu1voltage: (i) => ports.sbuVoltage(i, 1),
    sbu2voltage: (i) => ports.sbuVoltage(i, 2),
  };

  const set: Setters<PortValues> = {
    portenabled: (i, _p, v) => ports.setLines(i, 'port', asBool(v, 'portenabled')),
    portmode: (i, _p, v) => ports.setPortMode(i, asNumber(v, 'portmode')),
    currentlimit: (i, _p, v) => ports.setCurrentLimit(i, asNumber(v, 'currentlimit')),
    voltagesetpoint: (i, _p, v) => ports.regs.write(i, 'voltagesetpoint', [], asNumber(v, 'voltagesetpoint')),
    vbusaccumulatedpower: (i, _p, v) => ports.setEnergy(i, 'vbus', asNumber(v, 'mWh')),
    vconnaccumulatedpower: (i, _p, v) => ports.setEnergy(i, 'vconn', asNumber(v, 'mWh')),
    cc1accumulatedpower: (i, _p, v) => ports.setEnergy(i, 'cc1', asNumber(v, 'mWh')),
    cc2accumulatedpower: (i, _p, v) => ports.setEnergy(i, 'cc2', asNumber(v, 'mWh')),
  };
  // Groups of lines: read true when any line of the group is on; a write switches the whole group.
  const groups: readonly (readonly [OpsWithValue<'port', boolean>, LineGroup])[] = [
    ['dataenabled', 'data'], ['datahsenabled', 'datahs'], ['datassenabled', 'datass'], ['vconnenabled', 'vconn'], ['ccenabled', 'cc'],
  ];
  for (const [op, group] of groups) {
    get[op] = (i) => ports.any(i, group);
    set[op] = (i, _p, v) => ports.setLines(i, group, asBool(v, op));
  }
  // Single lines: plain registers, but switched through the model (Vbus off re-arms the trip).
  for (const line of ['powerenabled', 'datahs1enabled', 'datahs2enabled', 'datass1enabled', 'datass2enabled',
    'vconn1enabled', 'vconn2enabled', 'cc1enabled', 'cc2enabled'] as const) {
    set[line] = (i, _p, v) => ports.setLine(i, line, asBool(v, line));
  }

  return makeEntity(ctx, 'port', {
    registers: ports.regs,
    // A programmable Vbus: 0..20 V (USB PD's highest fixed supply).
    limits: { voltagesetpoint: range(0, MAX_VBUS_SETPOINT) },
    get,
    set,
    run: {
      resetvbusaccumulatedpower: (i) => ports.setEnergy(i, 'vbus', 0),
      resetvconnaccumulatedpower: (i) => ports.setEnergy(i, 'vconn', 0),
    },
  });
}
